//! The DLQ triage tab with the real engine behind it: a same-id replay dropped by duplicate
//! detection shows at once while paused, `N` replays under new message ids, the tab follows
//! the time cursor, SQS says where the reason must come from. Snapshots at 80x24 German and
//! 100x30 English.

use crate::support::sim_harness as harness;

use harness::Harness;
use queuelab::app::input::{Key, KeyCode};
use queuelab::app::simulator::{Tab, entries_at};
use queuelab::app::{Msg, Options, Screen, SimState};
use queuelab::content::Lang;
use queuelab::sim::scenario::IDS;
use queuelab::sim::{BrokerKind, EventKind};

fn open(lang: Lang, w: u16, h: u16) -> Harness {
    let mut h = Harness::new(lang, w, h, Options::default());
    h.keys("5");
    let index = IDS
        .iter()
        .position(|i| *i == "poison-dlq")
        .expect("known id");
    h.keys("c");
    h.repeat('j', index);
    h.keys("\n");
    assert_eq!(sim(&h).scenario_id(), "poison-dlq");
    h
}

fn sim(h: &Harness) -> &SimState {
    match &h.app.screen {
        Screen::Simulator(s) => s,
        other => panic!("not the simulator: {other:?}"),
    }
}

/// Steps until all four poison messages are in the DLQ, then opens the DLQ tab.
fn to_full_dlq(h: &mut Harness) {
    for _ in 0..400 {
        if sim(h).triage.dlq.len() >= 4 {
            break;
        }
        h.keys(">");
    }
    assert_eq!(
        sim(h).triage.dlq.len(),
        4,
        "the poison messages reached the DLQ"
    );
    for _ in 0..4 {
        if sim(h).tab == Tab::Dlq {
            break;
        }
        h.keys("\t");
    }
    assert_eq!(sim(h).tab, Tab::Dlq);
}

fn last_kind(h: &Harness) -> Option<EventKind> {
    sim(h).timeline.log.back().map(|e| e.kind)
}

fn status(h: &Harness) -> String {
    h.app
        .session
        .status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

#[test]
fn replay_while_paused_shows_the_drop_at_once_and_n_sends_new_ids() {
    let mut h = open(Lang::En, 100, 30);
    to_full_dlq(&mut h);
    assert!(!sim(&h).timeline.playing);
    let total = sim(&h).timeline.total;
    h.keys("f");
    h.keys("\n");
    // No play, no step: the reply carries the replay's event.
    assert!(!sim(&h).timeline.playing);
    assert!(sim(&h).timeline.total > total, "events were appended");
    assert_eq!(last_kind(&h), Some(EventKind::ReplayDroppedDuplicate));
    assert!(sim(&h).triage.fix_sent);
    // The resubmit tool saw a "successful" send and completed the DLQ entries: the three copies
    // duplicate detection dropped are lost, not left in the DLQ.
    assert_eq!(
        sim(&h).triage.dlq.len(),
        1,
        "the dropped copies left the DLQ"
    );
    assert!(
        status(&h).starts_with("Duplicate detection dropped 3"),
        "{}",
        status(&h)
    );
    assert!(status(&h).contains("lost"), "{}", status(&h));
    let screen = h.screen();
    assert!(
        screen.contains("N: replayed as a new broker message"),
        "{screen}"
    );
    insta::assert_snapshot!("sim_triage_dropped_en_100x30", screen);

    h.keys("N");
    assert_eq!(last_kind(&h), Some(EventKind::DlqReplayedNewId));
    assert_eq!(sim(&h).triage.dlq.len(), 0, "the last entry left the DLQ");
    assert!(
        status(&h).starts_with("Operator replayed 1 message(s)"),
        "{}",
        status(&h)
    );
}

#[test]
fn the_triage_tab_shows_the_dlq_at_the_time_cursor() {
    let mut h = open(Lang::En, 100, 30);
    to_full_dlq(&mut h);
    assert_eq!(entries_at(sim(&h)).len(), 4);
    // Step back until the history shows fewer entries than the head holds.
    let mut back = 0;
    while entries_at(sim(&h)).len() == 4 {
        h.keys("<");
        back += 1;
        assert!(back < 400, "history reaches before the fourth dead-letter");
    }
    assert_eq!(entries_at(sim(&h)).len(), 3);
    assert_eq!(sim(&h).triage.dlq.len(), 4, "the head still holds four");
    let event = sim(&h).shown_index().expect("an event") + 1;
    assert!(
        h.screen()
            .contains(&format!("3 message(s) in the DLQ at event {event}"))
    );
    h.keys("^");
    assert!(entries_at(sim(&h)).is_empty(), "before any dead-letter");
    assert!(h.screen().contains("0 message(s) in the DLQ at event 1"));
}

#[test]
fn german_80x24_and_sqs_without_a_reason() {
    let mut h = open(Lang::De, 80, 24);
    to_full_dlq(&mut h);
    h.keys("\n");
    assert_eq!(last_kind(&h), Some(EventKind::ReplayDroppedDuplicate));
    let screen = h.screen();
    assert!(screen.contains("3 von der Duplikaterkennung"), "{screen}");
    // Under the long moment the entry left in the DLQ and the keys to act on it still show.
    assert!(screen.contains("#5"), "{screen}");
    assert!(
        screen.contains("Enter stellt zu · N mit neuer ID"),
        "{screen}"
    );
    insta::assert_snapshot!("sim_triage_dropped_de_80x24", screen);

    // The broker's own redrive (the naive consumer retries to maxReceiveCount) records no
    // reason on SQS; the safe consumer forwards a permanent error with a reason of its own.
    h.keys("b");
    assert_eq!(sim(&h).settings.broker, BrokerKind::Sqs);
    h.keys("m");
    to_full_dlq(&mut h);
    let screen = h.screen();
    assert!(
        screen.contains("kein Grund: SQS speichert keinen"),
        "{screen}"
    );
    // The long redrive moment gives way to the entries and says where to read it whole.
    assert!(
        screen.contains("… (der ganze Text: Tab zu „Ereignisse“)"),
        "{screen}"
    );
    insta::assert_snapshot!("sim_triage_redrive_de_80x24", screen);
}

#[test]
fn german_80x24_under_a_long_moment_shows_the_first_entries_the_keys_and_a_scroll_hint() {
    let mut h = open(Lang::De, 80, 24);
    to_full_dlq(&mut h);
    let screen = h.screen();
    let rows: Vec<&str> = screen.lines().collect();
    let keys = rows
        .iter()
        .position(|r| r.contains("Ursache behoben (f)"))
        .unwrap_or_else(|| panic!("the keys row shows:\n{screen}"));
    assert!(rows[keys].contains("Enter stellt zu"), "{screen}");
    assert!(rows[keys].contains("N mit neuer ID"), "{screen}");
    assert!(
        rows[keys + 1].starts_with(" 4 Nachricht(en) in der DLQ"),
        "{screen}"
    );
    let first = entries_at(sim(&h))[0].message_id.clone();
    let short = queuelab::app::simulator::view::short_id(&first);
    assert!(rows[keys + 2].contains(&short), "{screen}");
    assert!(
        screen.contains("PgDn: "),
        "the rest is announced:\n{screen}"
    );
    assert!(screen.contains("weitere Einträge"), "{screen}");
    insta::assert_snapshot!("sim_triage_four_entries_de_80x24", screen);

    // PgDn scrolls through the entries; the last one shows with nothing more announced.
    for _ in 0..3 {
        h.send(Msg::Key(Key::plain(KeyCode::PageDown)));
    }
    let screen = h.screen();
    let last = entries_at(sim(&h))[3].message_id.clone();
    let short = queuelab::app::simulator::view::short_id(&last);
    assert!(screen.contains(&short), "{screen}");
    assert!(!screen.contains("weitere Einträge"), "{screen}");
}

#[test]
fn english_100x30_with_four_entries() {
    let mut h = open(Lang::En, 100, 30);
    to_full_dlq(&mut h);
    let screen = h.screen();
    for entry in entries_at(sim(&h)) {
        let short = queuelab::app::simulator::view::short_id(&entry.message_id);
        assert!(screen.contains(&short), "{short}:\n{screen}");
    }
    assert!(
        screen.contains("Enter replays · N under a new id"),
        "{screen}"
    );
    insta::assert_snapshot!("sim_triage_four_entries_en_100x30", screen);
}

#[test]
fn german_80x24_under_a_short_caption_the_triage_tab_takes_the_empty_rows() {
    let mut h = open(Lang::De, 80, 24);
    to_full_dlq(&mut h);
    let ids: Vec<String> = entries_at(sim(&h))
        .iter()
        .map(|e| queuelab::app::simulator::view::short_id(&e.message_id))
        .collect();
    // Step on until a moment's long text gives way to a one-row caption.
    let mut shown_all = false;
    for _ in 0..60 {
        h.keys(">");
        if entries_at(sim(&h)).len() != 4 {
            break;
        }
        let screen = h.screen();
        if ids.iter().all(|id| screen.contains(&format!(" {id} "))) {
            assert!(!screen.contains("weitere Einträge"), "{screen}");
            shown_all = true;
            break;
        }
    }
    assert!(
        shown_all,
        "all four entries showed at some step:\n{}",
        h.screen()
    );
}
