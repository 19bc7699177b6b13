//! Every wrong option of every decision that a run can show plays a "see it happen" run in which
//! its consequence is visible: the compare view opened from the decision must show a difference between the safe
//! run and the run of the learner's choice, in a metric or in the invariants, and never the
//! sentence "Same result in both modes".

use crate::support::sim_harness as harness;

use harness::{Harness, sim};
use queuelab::app::simulator::view::{compare_rows, compare_sentence};
use queuelab::app::simulator::{self, Compare};
use queuelab::app::{Msg, Options};
use queuelab::content::Lang;
use queuelab::content::key;
use queuelab::sim::{Mode, RunReport};

/// The compare rows and the invariant verdicts of both columns.
fn columns(safe: &RunReport, other: &RunReport) -> (Vec<(u64, u64)>, (bool, bool)) {
    let rows = compare_rows(safe, other)
        .into_iter()
        .map(|(_, a, b)| (a, b))
        .collect();
    (rows, (safe.invariants.ok(), other.invariants.ok()))
}

#[test]
fn every_wrong_option_shows_its_consequence_beside_the_safe_run() {
    let mut h = Harness::new(Lang::En, 80, 24, Options::default());
    let decisions = h.app.session.course().decisions.clone();
    assert_eq!(decisions.len(), 4, "the four decisions");
    let mut played = 0;
    let mut failures = Vec::new();
    for d in &decisions {
        for option in d.options.iter().filter(|o| !o.correct) {
            // An option no run shows says so instead (tests/screens/decision_see_it.rs).
            let Some((scenario, mode)) = option.run() else {
                continue;
            };
            let mode = Mode::parse(mode).expect("a known mode");
            let mut effects =
                simulator::open_for_decision(&mut h.app.session, scenario, Some(mode));
            // Any message applies the screen change the call asked for.
            effects.extend(h.app.update(Msg::Resized {
                width: 80,
                height: 24,
            }));
            h.carry_out(effects);
            let s = sim(&h);
            let Some(Compare::Done { safe, naive }) = &s.compare else {
                panic!("{} / {}: the compare view did not finish", d.id, option.id);
            };
            let (rows, verdicts) = columns(safe, naive);
            let differs = rows.iter().any(|(a, b)| a != b) || verdicts.0 != verdicts.1;
            let sentence = compare_sentence(h.app.session.strings(), safe, naive);
            let same = h.app.session.strings().get(key::simulator::COMPARE_SAME);
            if !differs || sentence == same {
                failures.push(format!(
                    "{} / {} ({}): both columns alike: {sentence}",
                    d.id, option.id, option.mode
                ));
            }
            played += 1;
            let effects = h.app.back();
            h.carry_out(effects);
        }
    }
    assert!(played >= 8, "only {played} wrong options played");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
