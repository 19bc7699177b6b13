//! A restart replays the stored events one row at a time: a host whose database holds 300,000
//! events starts without holding them all in memory. The audit saw a host with 405k events replay
//! them into 67 MB; a host that streams them stays near its empty-session size.

use crate::support::{Host, free_port};

/// Events put into the database: 60 trainees at the quota of 5,000 each.
const TRAINEES: usize = 60;
const PER_TRAINEE: usize = 5_000;
/// Peak memory the restarted host may reach, the host's bar of 50 MB. An empty session peaks
/// near 15 MB, and the start's one derivation of the check digits takes 16 MiB for a moment
/// (near 40 MB in all); the events held as a list need over 40 MB more than the empty session.
const PEAK_KB: u64 = 50 * 1024;

fn peak_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

#[test]
fn a_restart_replays_many_events_without_holding_them_all() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("host");
    let port = free_port();
    Host::start(&data, port, &[]).kill();
    let mut conn = rusqlite::Connection::open(data.join("host.db")).expect("host.db");
    let tx = conn.transaction().expect("tx");
    {
        let mut trainee = tx
            .prepare(
                "INSERT INTO trainee (id, name, token_hash, first_seen_ms) VALUES (?1, ?2, 'x', 0)",
            )
            .expect("prepare");
        let mut event = tx
            .prepare("INSERT INTO event (event_id, trainee_id, body, received_ms) VALUES (?1, ?2, ?3, 0)")
            .expect("prepare");
        for t in 0..TRAINEES {
            let id = format!("{t:032x}");
            trainee
                .execute(rusqlite::params![id, format!("Trainee {t}")])
                .expect("trainee");
            for n in 0..PER_TRAINEE {
                let event_id = format!("event-{n:08}-of-trainee-{t:04}");
                let body = format!(
                    r#"{{"id":"{event_id}","n":{n},"at_ms":{n},"kind":"ordering-mistake"}}"#
                );
                event
                    .execute(rusqlite::params![event_id, id, body])
                    .expect("event");
            }
        }
    }
    tx.commit().expect("commit");
    drop(conn);
    let host = Host::start(&data, port, &[]);
    let peak = peak_kb(host.child.id());
    let view = host.status(dir.path());
    assert_eq!(
        view["events"].as_u64(),
        Some((TRAINEES * PER_TRAINEE) as u64),
        "every stored event counted"
    );
    assert_eq!(
        view["ordering"]["mistakes"].as_u64(),
        Some((TRAINEES * PER_TRAINEE) as u64)
    );
    assert!(peak > 0, "VmHWM readable");
    assert!(
        peak <= PEAK_KB,
        "the restarted host peaked at {} MB replaying {} events",
        peak / 1024,
        TRAINEES * PER_TRAINEE
    );
    eprintln!(
        "replay of {} events: peak {} KB",
        TRAINEES * PER_TRAINEE,
        peak
    );
}
