//! The real binary in a pseudo-terminal plays `lost-ack` naive with "pause at moments": it stops
//! at each moment, shows the duplicate's explanation, and `w` jumps to its cause and back.

use crate::support::pty;

use pty::Session;

#[test]
fn lost_ack_naive_pauses_at_the_duplicate_and_jumps_to_its_cause() {
    let data = tempfile::tempdir().expect("tempdir");
    let mut s = Session::start(data.path(), &["--lang", "en"], 100, 30);
    s.wait_for("Incident simulator");
    s.send("5");
    s.wait_for("Run files (sqlite3)");
    s.send("c");
    s.wait_for("Choose a scenario");
    for _ in 0..3 {
        s.send("j");
    }
    s.send("\r");
    s.wait_for("Lost acknowledgement · safe");
    s.send("m");
    s.wait_for("Lost acknowledgement · naive");
    // x16: the run's pace times sixteen, so the test does not wait a minute.
    s.send("++++");
    s.wait_for("×16");
    s.send(" ");
    // The first moment (the message comes back after its lock ran out) stops playback.
    s.wait_for("Moment 1/1: delivered again");
    s.wait_for("paused");
    // The presenter's clicker continues; the duplicate stops it again.
    s.send(".");
    s.wait_for("Moment 2/2: duplicate effect");
    s.wait_for("got its effect twice");
    s.wait_for("then lost its connection");
    s.send("w");
    s.wait_for("w back to the newest event");
    s.wait_for("history 26/");
    s.wait_for("connection lost");
    s.send("w");
    s.wait_for("w why (#26)");
    s.send("q");
    s.wait_for("Simulator scenarios run");
    s.send("q");
    assert!(s.wait_exit(), "clean exit");
}
