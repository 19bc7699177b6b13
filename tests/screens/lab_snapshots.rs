//! The lab screens as characters at 80x24 (German) and 100x30 (English): the list, a lab's
//! brief, a check under way, the starting file's failure, the solution's pass, a file that
//! cannot run, and the hints. The verdicts are the real ones (the check runs here, as the lab
//! thread runs it); only the temporary folder in their text is replaced by the data folder.

use crate::support::screen as support;

use std::collections::BTreeMap;

use queuelab::app::labs::{FailedRun, LabProgress, LabReport, LabReportKind};
use queuelab::app::{App, Msg, Screen};
use queuelab::content::{Lab, Lang};
use queuelab::services::store::LabResult;
use queuelab::sim::lab::{LabVerdict, check_lab, lab_check};
use support::{content, press, screen};

const SIZES: [(Lang, u16, u16); 2] = [(Lang::De, 80, 24), (Lang::En, 100, 30)];
const FILE: &str = "/data/labs/01-idempotent-consumer.sql";
const RUNS: &str = "/data/lab-runs/01-idempotent-consumer";

fn app(lang: Lang, width: u16, height: u16) -> App {
    support::snapshot_app(lang, width, height)
}

fn lab_one() -> Lab {
    content().labs[0].clone()
}

/// The report the lab thread sends for `text`, worded in `lang`.
fn report(lang: Lang, text: &str, seeds: u64) -> LabReport {
    let content = content();
    let lab = lab_one();
    let dir = tempfile::tempdir().expect("tempdir");
    let verdict = check_lab(&content, &lab, text, seeds, dir.path(), &mut |_| {}).expect("check");
    let strings = &content.course(lang).strings;
    let (kind, lines, failed_run) = match &verdict {
        LabVerdict::Passed { runs, seeds, .. } => (
            LabReportKind::Passed,
            vec![lab_check::passed_line(strings, &lab, *runs, *seeds)],
            None,
        ),
        LabVerdict::CannotRun(e) => (
            LabReportKind::CannotRun,
            vec![e.render(FILE, strings)],
            None,
        ),
        LabVerdict::Broken(f) => {
            let mut lines = vec![lab_check::broken_headline(strings, &lab, f)];
            lines.extend(lab_check::broken_details(&content, lang, FILE, f));
            let run = FailedRun {
                scenario: f.scenario.clone(),
                broker: f.broker,
                seed: f.seed,
                text: text.to_owned(),
                statement: f.statement.as_ref().map(|s| (s.at_ms, s.section)),
                probe: f.struck.map(|s| s.probe),
            };
            (LabReportKind::Broken, lines, Some(run))
        }
    };
    let tmp = dir.path().display().to_string();
    LabReport {
        kind,
        lines: lines.into_iter().map(|l| l.replace(&tmp, RUNS)).collect(),
        failed_run,
    }
}

fn lab_id() -> String {
    lab_one().id
}

fn checked(a: &mut App, passed: bool, report: LabReport) {
    a.update(Msg::LabChecked {
        lab_id: lab_id(),
        passed,
        reason: if passed {
            String::new()
        } else {
            "duplicate-effect".into()
        },
        report,
    });
}

/// No line of the screen runs into the right edge: nothing is cut.
fn nothing_cut(text: &str, width: u16) {
    for line in text.lines() {
        assert!(
            line.chars().count() < usize::from(width),
            "a line reaches the edge (cut?):\n{line}\n{text}"
        );
    }
}

#[test]
fn lab_list_with_statuses() {
    for (lang, w, h) in SIZES {
        let mut a = app(lang, w, h);
        press(&mut a, "l");
        let mut results = BTreeMap::new();
        results.insert(
            lab_id(),
            LabResult {
                attempts: 2,
                solved_at: None,
                hints: 0,
            },
        );
        a.update(Msg::LabResults(results));
        let text = screen(&a);
        nothing_cut(&text, w);
        insta::assert_snapshot!(format!("lab_list_{lang}_{w}x{h}"), text);
    }
}

/// Lab 4's brief, at its top and where it lays out the two-phase claim.
#[test]
fn lab_four_brief_and_its_two_phase_claim() {
    use queuelab::app::input::{Key, KeyCode};
    for (lang, w, h) in SIZES {
        let mut a = app(lang, w, h);
        press(&mut a, "l4");
        assert!(matches!(a.screen, Screen::Lab(_)));
        let text = screen(&a);
        nothing_cut(&text, w);
        insta::assert_snapshot!(format!("lab_four_brief_{lang}_{w}x{h}"), text);
        a.update(Msg::Key(Key::plain(KeyCode::PageDown)));
        let text = screen(&a);
        nothing_cut(&text, w);
        insta::assert_snapshot!(format!("lab_four_claim_{lang}_{w}x{h}"), text);
    }
}

#[test]
fn lab_brief_and_a_check_under_way() {
    for (lang, w, h) in SIZES {
        let mut a = app(lang, w, h);
        press(&mut a, "l\n");
        assert!(matches!(a.screen, Screen::Lab(_)));
        let text = screen(&a);
        nothing_cut(&text, w);
        insta::assert_snapshot!(format!("lab_brief_{lang}_{w}x{h}"), text);
        press(&mut a, "c");
        a.update(Msg::LabProgress {
            lab_id: lab_id(),
            progress: LabProgress {
                seed: 3,
                last_seed: 8,
                runs_done: 17,
                runs_total: 64,
            },
        });
        insta::assert_snapshot!(format!("lab_checking_{lang}_{w}x{h}"), screen(&a));
    }
}

#[test]
fn the_starting_file_fails_with_moment_and_statement() {
    let lab = lab_one();
    for (lang, w, h) in SIZES {
        let mut a = app(lang, w, h);
        press(&mut a, "l\nc");
        checked(&mut a, false, report(lang, &lab.start, 1));
        let text = screen(&a);
        nothing_cut(&text, w);
        assert!(text.contains(&format!("{FILE}:")), "{text}");
        insta::assert_snapshot!(format!("lab_failure_{lang}_{w}x{h}"), text);
    }
}

#[test]
fn the_solution_passes() {
    let lab = lab_one();
    for (lang, w, h) in SIZES {
        let mut a = app(lang, w, h);
        press(&mut a, "l\nc");
        checked(&mut a, true, report(lang, &lab.solution, 1));
        let text = screen(&a);
        nothing_cut(&text, w);
        insta::assert_snapshot!(format!("lab_pass_{lang}_{w}x{h}"), text);
    }
}

#[test]
fn a_file_that_cannot_run_and_two_hints() {
    for (lang, w, h) in SIZES {
        let mut a = app(lang, w, h);
        press(&mut a, "l\nc");
        checked(
            &mut a,
            false,
            report(lang, "-- @handle\nSELECT :nope;\n", 1),
        );
        press(&mut a, "hh");
        let text = screen(&a);
        nothing_cut(&text, w);
        assert!(text.contains(&format!("{FILE}:2:")), "{text}");
        insta::assert_snapshot!(format!("lab_cannot_run_hints_{lang}_{w}x{h}"), text);
    }
}
