//! "See it happen" plays what the learner chose. For every wrong option of every card the
//! learner answers it in its chapter and presses `s`: the simulator opens the option's own
//! scenario and mode beside the safe run, and that run shows the option's design (its own
//! consequence in the metrics). An option no run shows opens the right one's run alone and
//! says so, in both languages.

use crate::support::sim_harness as harness;

use harness::{Harness, sim};
use queuelab::app::Options;
use queuelab::app::simulator::Compare;
use queuelab::content::key;
use queuelab::content::{Decision, DecisionOption, Lang};
use queuelab::sim::{Mode, RunReport};

/// What each wrong option's run must show, judged against the safe run beside it.
fn shows_its_design(option: &str, safe: &RunReport, run: &RunReport) -> Option<bool> {
    let (s, m) = (&safe.metrics, &run.metrics);
    Some(match option {
        // Published once from the request: orders accepted during the outage are lost, their
        // messages never sent.
        "publish-and-log" => m.lost >= 1 && m.published < m.accepted && s.lost == 0,
        // The file in the body: every publish is rejected, nothing takes effect.
        "base64" | "gzip-body" => m.effects == 0 && m.lost >= 1,
        // No checksum: the altered file is processed, the missing one dead-lettered.
        "public-link" => !run.invariants.ok() && m.dead_lettered >= 1,
        // Settled before the credit: every message was sent, and a crash between settling
        // and booking loses one.
        "settle-first" => m.lost >= 1 && m.published == m.accepted && s.lost == 0,
        // No inbox at all: the redelivery books again, and nothing is ever recognised.
        "run-again" => {
            m.duplicate_effects >= 1 && m.prevented_duplicates == 0 && s.duplicate_effects == 0
        }
        // A check with nothing unique behind it: two copies side by side both book.
        "business-check" => m.duplicate_effects >= 1 && s.duplicate_effects == 0,
        // Replayed with the cause still there: back in the DLQ, fewer effects.
        "replay-all" => m.dead_lettered > s.dead_lettered && m.effects < s.effects,
        // Thirty deliveries per poison message, twice (before and after the replay).
        "raise-limit" => m.redeliveries >= 2 * 29 * s.dead_lettered && m.effects < s.effects,
        _ => return None,
    })
}

/// The app in `lang` with decision `d`'s chapter open, option `index` answered and `s` pressed.
fn see_it_happen(lang: Lang, d: &Decision, index: usize) -> Harness {
    let mut h = Harness::new(lang, 100, 30, Options::default());
    let number = h
        .app
        .session
        .course()
        .chapters
        .iter()
        .position(|c| c.id == d.chapter)
        .expect("the card's chapter")
        + 1;
    h.keys("2");
    h.keys(&format!("{number}\n"));
    h.keys(&(index + 1).to_string());
    assert_eq!(
        h.app.session.progress.decisions.get(d.id.as_str()),
        Some(&d.options[index].id),
        "{lang} {}: the digit answered the card",
        d.id
    );
    h.keys("s");
    h
}

fn wrong_options(d: &Decision) -> impl Iterator<Item = (usize, &DecisionOption)> {
    d.options.iter().enumerate().filter(|(_, o)| !o.correct)
}

#[test]
fn each_wrong_option_plays_its_own_design_beside_the_safe_run() {
    let h = Harness::new(Lang::En, 100, 30, Options::default());
    let decisions = h.app.session.course().decisions.clone();
    let mut played = 0;
    for d in &decisions {
        for (index, option) in wrong_options(d) {
            let Some((scenario, mode)) = option.run() else {
                continue;
            };
            let h = see_it_happen(Lang::En, d, index);
            let s = sim(&h);
            let mode = Mode::parse(mode).expect("a known mode");
            let what = format!("{} / {}", d.id, option.id);
            assert_eq!(s.scenario_id(), scenario, "{what}: its own scenario");
            assert_eq!(s.settings.mode, mode, "{what}: its own mode");
            let Some(Compare::Done { safe, naive: run }) = &s.compare else {
                panic!("{what}: the compare view did not finish");
            };
            assert_eq!((safe.mode, run.mode), (Mode::Safe, mode), "{what}");
            assert_eq!(run.scenario, scenario, "{what}");
            let shown = shows_its_design(&option.id, safe, run)
                .unwrap_or_else(|| panic!("{what}: no design check written for this option"));
            assert!(
                shown,
                "{what}: the run does not show the option's design: safe {:?} vs {:?}",
                safe.metrics, run.metrics
            );
            played += 1;
        }
    }
    assert!(played >= 8, "only {played} wrong options play a run");
}

#[test]
fn an_option_no_run_shows_says_so_and_plays_only_the_right_one() {
    for lang in Lang::ALL {
        let h = Harness::new(lang, 100, 30, Options::default());
        let decisions = h.app.session.course().decisions.clone();
        let no_run = h
            .app
            .session
            .strings()
            .get(key::decision::NO_RUN)
            .to_owned();
        let mut seen = 0;
        for d in &decisions {
            for (index, option) in wrong_options(d).filter(|(_, o)| o.run().is_none()) {
                let h = see_it_happen(lang, d, index);
                let s = sim(&h);
                let what = format!("{lang} {} / {}", d.id, option.id);
                assert_eq!(s.scenario_id(), d.scenario, "{what}");
                assert_eq!(s.settings.mode, Mode::Safe, "{what}: the right one's run");
                assert!(s.compare.is_none(), "{what}: no other design beside it");
                assert!(h.screen().contains(&no_run), "{what}:\n{}", h.screen());
                seen += 1;
            }
        }
        assert!(seen >= 1, "{lang}: no option without a run to check");
    }
}
