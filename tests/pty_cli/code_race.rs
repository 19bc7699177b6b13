//! Many `report --plain` processes typing codes at once against one data folder get five wrong
//! tries together, not five each; after that even the right code is refused (the code is locked).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const PROCESSES: usize = 24;
/// Generous: 24 debug builds load and check the course at once on a shared 2-core machine; the
/// test is about who counts a wrong try, not about speed.
const WAIT: Duration = Duration::from_mins(5);
const ADDRESS: &str = "ada@example.org";

use crate::support::cli;
use cli::command;

fn run(data: &Path, args: &[&str], input: &str) -> String {
    let out = cli::run(data, args, input);
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The six digits in the only code mail the file transport wrote.
fn mailed_code(data: &Path) -> String {
    let mail = std::fs::read_dir(data.join("mail"))
        .expect("mail folder")
        .filter_map(Result::ok)
        .find(|e| e.path().extension().is_some_and(|x| x == "eml"))
        .expect("a code mail");
    let text = std::fs::read_to_string(mail.path()).expect("read mail");
    let bytes = text.as_bytes();
    (0..bytes.len().saturating_sub(6))
        .map(|i| &bytes[i..i + 6])
        .find(|w| {
            w.iter().all(u8::is_ascii_digit)
                && text.contains(&format!(" {}", String::from_utf8_lossy(w)))
        })
        .map(|w| String::from_utf8_lossy(w).into_owned())
        .expect("six digits in the code mail")
}

/// A report process that has opened the store and waits at the code prompt.
fn waiting_at_code_prompt(data: &Path) -> (Child, mpsc::Receiver<String>) {
    let mut child = command(data, &["report", "--plain"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    writeln!(child.stdin.as_mut().expect("stdin"), "{ADDRESS}").expect("address");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut all = String::new();
        let mut chunk = Vec::new();
        // The prompt has no newline: read up to its last character.
        while stdout.read_until(b':', &mut chunk).is_ok_and(|n| n > 0) {
            all.push_str(&String::from_utf8_lossy(&chunk));
            chunk.clear();
            if all.contains("Code (or r for a new code):") && !all.contains("READY") {
                all.push_str("READY");
                let _ = tx.send(String::new());
            }
        }
        let _ = tx.send(all);
    });
    (child, rx)
}

#[test]
fn concurrent_processes_get_five_wrong_tries_together_then_the_code_is_locked() {
    let data = tempfile::tempdir().expect("tempdir");
    let quiz = run(data.path(), &["quiz", "--plain"], &"1\n".repeat(10));
    assert!(quiz.contains("Score: "), "{quiz}");
    let first = run(data.path(), &["report", "--plain"], &format!("{ADDRESS}\n"));
    assert!(first.contains("A 6-digit code is on its way"), "{first}");
    let code = mailed_code(data.path());
    let wrong = if code == "000000" { "111111" } else { "000000" };

    let waiting: Vec<_> = (0..PROCESSES)
        .map(|_| waiting_at_code_prompt(data.path()))
        .collect();
    for (_, ready) in &waiting {
        ready
            .recv_timeout(WAIT)
            .expect("process reached the code prompt");
    }
    // Every process has read nothing about tries yet; all type a wrong code at once.
    let mut children = Vec::new();
    for (mut child, output) in waiting {
        writeln!(child.stdin.as_mut().expect("stdin"), "{wrong}").expect("code");
        children.push((child, output));
    }
    let mut evaluated = 0;
    for (mut child, output) in children {
        drop(child.stdin.take());
        let _ = child.wait();
        let text = output.recv_timeout(WAIT).expect("output");
        if text.contains("Wrong code.") {
            evaluated += 1;
        } else {
            assert!(text.contains("Too many wrong tries"), "{text}");
        }
    }
    assert!(
        evaluated <= 5,
        "{evaluated} wrong codes were evaluated; the limit is 5"
    );
    assert_eq!(
        evaluated, 5,
        "the five tries are used up by the concurrent guesses"
    );

    let last = run(
        data.path(),
        &["report", "--plain"],
        &format!("{ADDRESS}\n{code}\n"),
    );
    assert!(last.contains("Too many wrong tries"), "{last}");
    assert!(!last.contains("Code confirmed."), "{last}");
}
