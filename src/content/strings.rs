//! UI strings (`assets/strings/LANG.toml`): every word of chrome comes from here.

use super::Problem;
use super::toml_file::{self, check_version};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The UI strings of one language.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Strings {
    map: BTreeMap<String, String>,
}

impl Strings {
    /// The text for `key`. A missing key shows the key itself: `check` guarantees presence, so
    /// this only happens with unchecked `--content` folders, and a visible key beats a panic.
    pub fn get<'a>(&'a self, key: &'a str) -> &'a str {
        self.map.get(key).map_or(key, String::as_str)
    }

    /// The text for `key` with `{name}` placeholders replaced.
    pub fn fill(&self, key: &str, args: &[(&str, &str)]) -> String {
        let mut text = self.get(key).to_owned();
        for (name, value) in args {
            text = text.replace(&format!("{{{name}}}"), value);
        }
        text
    }

    /// All keys defined.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.map.keys().map(String::as_str)
    }

    /// Builds strings from pairs (tests and fixtures).
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        Strings {
            map: pairs
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect(),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format_version: Spanned<u32>,
    strings: BTreeMap<String, Spanned<String>>,
}

/// Parses one strings file and checks it defines every key the program uses.
pub fn parse(path: &str, text: &str, problems: &mut Vec<Problem>) -> Strings {
    let file: File = match toml_file::parse(path, text) {
        Ok(f) => f,
        Err(p) => {
            problems.push(p);
            return Strings::default();
        }
    };
    check_version(path, text, &file.format_version, problems);
    for (key, value) in &file.strings {
        if value.get_ref().trim().is_empty() {
            problems.push(toml_file::at(
                path,
                text,
                value,
                format!("string {key:?} is empty"),
            ));
        }
    }
    for key in KEYS {
        if !file.strings.contains_key(*key) {
            problems.push(Problem::file(path, format!("missing string {key:?}")));
        }
    }
    Strings {
        map: file
            .strings
            .into_iter()
            .map(|(k, v)| (k, v.into_inner()))
            .collect(),
    }
}

/// Every string key the program uses. A test scans `src/` so this list cannot fall behind.
pub const KEYS: &[&str] = &[
    "app.title",
    "app.subtitle",
    "common.back",
    "common.quit",
    "common.help",
    "common.yes",
    "common.no",
    "common.coming_later",
    "common.too_small",
    "common.saved",
    "common.save_failed",
    "help.title",
    "help.global",
    "help.close",
    "key.up_down",
    "key.enter",
    "key.back",
    "key.help",
    "key.quit",
    "key.scroll",
    "key.scroll_or_batch",
    "key.page",
    "key.next_chapter",
    "key.prev_chapter",
    "key.top_bottom",
    "key.number",
    "key.toggle_lang",
    "key.clear",
    "key.confirm_yes",
    "key.confirm_no",
    "key.search",
    "key.search_next",
    "key.option",
    "key.tab",
    "home.progress",
    "home.chapters_read",
    "home.decisions",
    "home.ordering",
    "home.ordering_solved",
    "home.ordering_open",
    "home.scenarios",
    "home.quiz",
    "home.quiz_not_taken",
    "home.report",
    "home.report_none",
    "menu.continue",
    "menu.start",
    "menu.chapters",
    "menu.map",
    "menu.ordering",
    "menu.simulator",
    "menu.checklist",
    "menu.quiz",
    "menu.settings",
    "chapters.title",
    "chapters.status_new",
    "chapters.status_read",
    "chapters.status_decided",
    "reader.chapter_of",
    "reader.end",
    "reader.last_chapter",
    "reader.search_prompt",
    "reader.search_none",
    "reader.search_hit",
    "decision.answered",
    "decision.correct",
    "decision.wrong",
    "decision.choose",
    "decision.see_it",
    "decision.sim_later",
    "decision.other_option",
    "widget.calculator",
    "widget.checklist",
    "widget.runbook",
    "widget.levels",
    "widget.flow",
    "settings.title",
    "settings.language",
    "settings.clear",
    "settings.clear_confirm",
    "settings.cleared",
    "settings.paths",
    "settings.data_dir",
    "settings.config",
    "settings.log",
    "placeholder.body",
    "map.lead",
    "map.flow_caption",
    "map.checklist_hint",
    "map.watch",
    "map.why",
    "map.this_page",
    "map.offline",
    "map.card_title",
    "map.scan",
    "map.url_label",
    "map.no_url",
    "map.share_offer",
    "map.sharing",
    "map.share_stopped",
    "map.share_failed",
    "map.enlarge",
    "key.share",
    "share.serving",
    "share.local",
    "share.no_lan",
    "share.stop",
    "share.stopped",
    "export.done",
    "quiz.title",
    "quiz.progress",
    "quiz.single_hint",
    "quiz.multi_hint",
    "quiz.answer_prompt",
    "quiz.err_empty",
    "quiz.err_not_number",
    "quiz.err_range",
    "quiz.err_only_one",
    "quiz.err_repeated",
    "quiz.right",
    "quiz.wrong",
    "quiz.right_answer",
    "quiz.explanation",
    "quiz.option_why",
    "quiz.resumed",
    "quiz.previous",
    "quiz.score",
    "quiz.level",
    "quiz.next_steps",
    "quiz.review",
    "quiz.review_none",
    "quiz.your_answer",
    "quiz.eof",
    "quiz.report_hint",
    "quiz.retake",
    "quiz.continue",
    "quiz.to_report",
    "quiz.saved",
    "quiz.select",
    "quiz.submit",
    "quiz.result_title",
    "address.err_empty",
    "address.err_too_long",
    "address.err_whitespace",
    "address.err_control",
    "address.err_no_at",
    "address.err_several_at",
    "address.err_empty_local",
    "address.err_local_too_long",
    "address.err_local_dots",
    "address.err_local_char",
    "address.err_empty_domain",
    "address.err_domain_not_dotted",
    "address.err_domain_char",
    "address.err_domain_empty_label",
    "address.err_domain_hyphen",
    "address.err_domain_label_too_long",
    "address.err_domain_numeric_tld",
    "address.err_syntax",
    "otp.accepted",
    "otp.wrong",
    "otp.malformed",
    "otp.expired",
    "otp.used",
    "otp.locked",
    "otp.no_code",
    "otp.cooldown",
    "otp.hourly_limit",
    "otp.tries_left",
    "otp.resend_in",
    "otp.resend_now",
    "mail.code_subject",
    "mail.code_body",
    "mail.status_queued",
    "mail.status_sending",
    "mail.status_sent",
    "mail.status_failed",
    "mail.file_written",
    "mail.retry_later",
    "report.subject",
    "report.date",
    "report.workshop",
    "report.score",
    "report.quiz",
    "report.your_answer",
    "report.right_answer",
    "report.explanation",
    "report.no_answer",
    "report.right",
    "report.wrong",
    "report.decisions",
    "report.decision",
    "report.decision_open",
    "report.ordering",
    "report.ordering_solved",
    "report.ordering_open",
    "report.scenarios",
    "report.scenarios_none",
    "report.checklist",
    "report.ticked",
    "report.unticked",
    "report.next_steps",
    "report.footer",
    "report.title",
    "report.need_quiz",
    "report.saved_local",
    "report.address_prompt",
    "report.code_sent",
    "report.code_prompt",
    "report.cc_prompt",
    "report.cc_hint",
    "report.queued",
    "report.sent",
    "report.eof",
    "report.enter_address",
    "report.enter_code",
    "report.sending",
    "home.report_queued",
    "home.report_sent",
    "home.report_failed",
    "home.quiz_score",
    "home.quiz_in_progress",
    "report.new_code_key",
    "report.confirm_key",
    "calc.currency",
    "calc.err_large",
    "calc.err_negative",
    "calc.err_number",
    "calc.hint",
    "calc.hourly_cost",
    "calc.hours",
    "calc.incidents",
    "calc.people",
    "calc.result",
    "checklist.summary",
    "decision.see_it_key",
    "store.recovered",
    "key.broker",
    "key.cause_fixed",
    "key.compare",
    "key.faster",
    "key.fault",
    "key.first_event",
    "key.mode",
    "key.pick",
    "key.pick_card",
    "key.play",
    "key.reorder",
    "key.replay",
    "key.restart",
    "key.run_to_end",
    "key.scenario",
    "key.seed",
    "key.slower",
    "key.step",
    "key.tabs",
    "metric.accepted",
    "metric.age_max",
    "metric.age_p50",
    "metric.age_p95",
    "metric.dead_lettered",
    "metric.delivered",
    "metric.duplicate_effects",
    "metric.effects",
    "metric.lock_lost",
    "metric.lost",
    "metric.outbox_lag",
    "metric.prevented",
    "metric.published",
    "metric.redeliveries",
    "metric.retries",
    "ordering.again",
    "ordering.correct",
    "ordering.missing",
    "ordering.progress",
    "ordering.record",
    "simulator.batch",
    "simulator.cause_fixed",
    "simulator.choose_fault",
    "simulator.choose_scenario",
    "simulator.compare_diff",
    "simulator.compare_paths",
    "simulator.compare_running",
    "simulator.compare_same",
    "simulator.compare_title",
    "simulator.dlq_count",
    "simulator.event",
    "simulator.failed",
    "simulator.fault_armed",
    "simulator.finished",
    "simulator.history",
    "simulator.invariants",
    "simulator.invariants_broken",
    "simulator.invariants_ok",
    "simulator.log_empty",
    "simulator.mark_down",
    "simulator.mark_duplicates",
    "simulator.mark_failed",
    "simulator.mark_unknown",
    "simulator.no_run",
    "simulator.not_started",
    "simulator.path",
    "simulator.paused",
    "simulator.picker_keys",
    "simulator.playing",
    "simulator.press_play",
    "simulator.rows",
    "simulator.seed",
    "simulator.tab_dlq",
    "simulator.tab_log",
    "simulator.tab_metrics",
    "simulator.tab_tables",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_replaces_placeholders_and_missing_keys_show_the_key() {
        let s = Strings::from_pairs([("a", "{n} of {m}")]);
        assert_eq!(s.fill("a", &[("n", "1"), ("m", "16")]), "1 of 16");
        assert_eq!(s.get("nope"), "nope");
    }
}
