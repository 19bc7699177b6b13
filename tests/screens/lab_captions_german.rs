//! A lab's failing run reads in one language. Labs 2, 4 and 6 break with the engine's own
//! words in their captions (a refused publish on a line of `@accept`, a charge refused inside a
//! transaction, an unknown schema version); opened in the simulator in German, as `s` on the lab screen does,
//! and played to the end, no caption keeps those English words, and their German ones appear.

use crate::support::lab;
use crate::support::sim_harness as harness;

use harness::{Harness, sim};
use queuelab::app::simulator::lab_run::{self, Broke};
use queuelab::app::simulator::view::transcript;
use queuelab::app::simulator::{LOG_CAP, LabRun};
use queuelab::app::{Msg, Options};
use queuelab::content::Lang;

/// Every caption of lab `n`'s failing run (the starting file on its named seed), in `lang`.
fn captions_of_failing_run(n: u32, lang: Lang) -> Vec<String> {
    let lab = lab::lab(n);
    let failure = lab::start_failure(&lab);
    let mut h = Harness::new(lang, 100, 30, Options::default());
    let run = LabRun::new(lab.id.clone(), lab.number, lab.start.clone());
    let at = Broke {
        scenario: &failure.scenario,
        broker: failure.broker,
        seed: failure.seed,
        statement: None,
    };
    let mut effects = lab_run::open(&mut h.app.session, run, &at);
    effects.extend(h.app.update(Msg::Resized {
        width: 100,
        height: 30,
    }));
    h.carry_out(effects);
    h.keys("$");
    assert!(
        sim(&h).timeline.finished,
        "lab {n}: the run played to its end"
    );
    transcript(&h.app.session, sim(&h), LOG_CAP)
}

#[test]
fn a_failing_lab_run_keeps_no_english_caption_in_german() {
    let english = [
        "the broker is unreachable",
        "provider timed out",
        "charge() refused",
        "unsupported schema version",
        "poison message",
        "line ",
        "the API crashed",
        "the client timed out",
        "claimed by another instance",
    ];
    // Lab 6's handler fails on its own statement: "Zeile 16: NOT NULL constraint failed: …"
    // keeps SQLite's own message, the line is German.
    for (n, german) in [
        (
            2,
            "Zeile 10: publish(msg-000005): Der Broker ist nicht erreichbar",
        ),
        (
            4,
            "Zeile 12: charge() abgelehnt: Ein Aufruf beim Anbieter läuft nie in einer offenen Transaktion",
        ),
        (6, "Zeile 16: NOT NULL constraint failed"),
    ] {
        let de = captions_of_failing_run(n, Lang::De);
        let left: Vec<&String> = de
            .iter()
            .filter(|c| english.iter().any(|w| c.contains(w)))
            .collect();
        assert!(
            left.is_empty(),
            "lab {n}: English in German captions: {left:#?}"
        );
        assert!(
            de.iter().any(|c| c.contains(german)),
            "lab {n}: no caption says {german:?}: {de:#?}"
        );
        // The same run in English still says it with the engine's words.
        let en = captions_of_failing_run(n, Lang::En);
        assert!(
            en.iter().any(|c| english.iter().any(|w| c.contains(w))),
            "lab {n}: the English run names none of the engine's words: {en:#?}"
        );
    }
}
