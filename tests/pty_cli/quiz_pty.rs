//! The quiz and the report in the real TUI (pseudo-terminal): answers survive SIGKILL, the
//! attempt resumes at the next question, and the report goes out after the code from the mail
//! (file transport, the offline default).

use crate::support::pty;

use pty::Session;

fn answer(s: &mut Session, n: usize) {
    s.wait_for(&format!("Question {n} of 10"));
    s.send("1");
    s.send("\r");
    s.wait_for("Enter: continue");
    s.send("\r");
}

#[test]
fn quiz_resumes_after_sigkill_and_the_report_goes_out_with_the_mailed_code() {
    let data = tempfile::tempdir().expect("tempdir");
    let mut s = Session::start(data.path(), &["--lang", "en"], 100, 30);
    s.wait_for("Final quiz: not taken");
    s.send("7");
    answer(&mut s, 1);
    answer(&mut s, 2);
    s.wait_for("Question 3 of 10");
    s.signal("KILL");
    let _ = s.wait_exit();

    let mut s = Session::start(data.path(), &["--lang", "en"], 100, 30);
    s.wait_for("in progress (2/10)");
    s.send("7");
    for n in 3..=10 {
        answer(&mut s, n);
    }
    s.wait_for("Your result");
    s.send("m");
    s.wait_for("Your report is saved at");
    for c in "ada@example.org".chars() {
        s.send(&c.to_string());
    }
    s.send("\r");
    s.wait_for("the mail was written to");
    let eml = std::fs::read_to_string(data.path().join("mail/000001-code.eml")).expect("eml");
    let start = eml.find("report: ").expect("code line") + "report: ".len();
    let code: String = eml[start..].chars().take(6).collect();
    for c in code.chars() {
        s.send(&c.to_string());
    }
    assert!(!s.screen().contains(&code), "the code is masked on screen");
    s.send("\r");
    s.wait_for("Report sent to ada@example.org");
    assert!(data.path().join("mail/000002-report.eml").exists());
    s.send("\x1b");
    s.send("q");
    s.wait_for("Report: sent");
    s.send("\x03");
    assert!(s.wait_exit(), "clean exit");
}
