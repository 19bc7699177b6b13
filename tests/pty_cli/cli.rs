//! The non-interactive commands, run as the real binary.

use std::process::{Command, Output, Stdio};

fn queuelab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_queuelab"))
        .args(args)
        .env("LANG", "C")
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn check_prints_one_summary_line_per_language() {
    let out = queuelab(&["check"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<String> = stdout(&out).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 2);
    let content = queuelab::content::load(&queuelab::content::ContentSource::Embedded)
        .expect("valid content");
    for (line, lang) in lines.iter().zip(queuelab::content::Lang::ALL) {
        // The bank grows with the course: its size is counted from the content.
        let bank = content.course(lang).quiz.questions.len();
        let chapters = content.course(lang).chapters.len();
        assert!(
            line.starts_with(&format!(
                "ok {lang}: {chapters} chapters, 4 decisions, 7 ordering steps, 10 questions (bank {bank}), "
            )),
            "{line}"
        );
        assert!(line.ends_with(" scenarios"), "{line}");
    }
}

#[test]
fn without_a_terminal_the_tui_exits_2_and_names_the_other_commands() {
    let out = queuelab(&["--data-dir", "/nonexistent/never-created"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("interactive terminal") && err.contains("queuelab check"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(!err.contains("panicked"));
}

#[test]
fn help_and_version_work() {
    let out = queuelab(&["--help"]);
    assert!(out.status.success());
    let text = stdout(&out);
    for word in [
        "check",
        "reset",
        "progress",
        "--lang",
        "--data-dir",
        "--content",
        "--no-mouse",
        "--ascii",
        "--reduced-motion",
        "--config",
    ] {
        assert!(text.contains(word), "--help mentions {word}");
    }
    assert!(stdout(&queuelab(&["--version"])).starts_with("queuelab "));
}

/// Each command's help opens with the sentence on its `Command` variant: a doc comment on an
/// argument struct or subcommand enum would replace it ("`queuelab host ...`").
#[test]
fn the_grouped_commands_keep_their_own_help() {
    for (command, opening) in [
        ("join", "Join a workshop session: `join CODE --name NAME`"),
        ("host", "Host a workshop session with a live dashboard"),
        ("lab", "Labs: write the SQL yourself"),
        ("mail", "The mail outbox: show every mail's status"),
        (
            "progress",
            "Export or import progress as a portable JSON file",
        ),
        (
            "export",
            "Write the quick-reference map for phone and paper",
        ),
        (
            "sim",
            "Run the incident simulator headless, or list its scenarios",
        ),
    ] {
        let out = queuelab(&[command, "--help"]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            stdout(&out).starts_with(opening),
            "{command}: {}",
            stdout(&out)
        );
    }
    let out = queuelab(&["join", "--help"]);
    for option in [
        "--name <NAME>",
        "--check-digits <DIGITS>",
        "[CODE|HOST:PORT|URL]",
        "[CODE]",
    ] {
        assert!(stdout(&out).contains(option), "{option}: {}", stdout(&out));
    }
}

#[test]
fn bad_flags_fail_with_a_reason() {
    let out = queuelab(&["--lang", "fr", "check"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("use de or en"));
}

#[test]
fn progress_export_import_and_reset() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (data, file) = progress_file(
        &dir,
        r#"{"format": "queuelab-progress", "version": 1, "progress": {"chapters_read": ["outbox"], "decisions": {"broker-down": "outbox"}}}"#,
    );
    let (data, file) = (data.as_str(), file.as_str());
    let out = queuelab(&["--data-dir", data, "progress", "import", file]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out)
            .contains("(chapters read: 1, decisions: 1, quiz results kept (version 1 file), lab results kept (file before version 3))."),
        "{}",
        stdout(&out)
    );
    let exported = dir.path().join("again.json");
    let out = queuelab(&[
        "--data-dir",
        data,
        "progress",
        "export",
        exported.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&exported).expect("exported");
    assert!(text.contains("\"queuelab-progress\"") && text.contains("outbox"));

    std::fs::write(
        file,
        r#"{"format": "queuelab-progress", "version": 9, "progress": {}}"#,
    )
    .expect("write");
    let out = queuelab(&["--data-dir", data, "progress", "import", file]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("version 9 is not supported"),
        "{}",
        stderr(&out)
    );

    let out = queuelab(&["--data-dir", data, "reset"]);
    assert_eq!(out.status.code(), Some(2), "no terminal to confirm: refuse");
    let out = queuelab(&["--data-dir", data, "reset", "--yes"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = queuelab(&[
        "--data-dir",
        data,
        "progress",
        "export",
        exported.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success());
    assert!(
        !std::fs::read_to_string(&exported)
            .expect("exported")
            .contains("outbox"),
        "reset deleted the progress"
    );
}

#[test]
fn progress_export_and_import_speak_the_chosen_language() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (data, file) = progress_file(
        &dir,
        r#"{"format": "queuelab-progress", "version": 2, "progress": {"chapters_read": ["outbox", "inbox"], "decisions": {}}, "quiz": []}"#,
    );
    let (data, file) = (data.as_str(), file.as_str());
    // `queuelab --lang LANG --data-dir DATA progress ACTION FILE`, successful.
    let progress = |lang: &str, action: &str, file: &str| {
        let out = queuelab(&["--lang", lang, "--data-dir", data, "progress", action, file]);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    assert_eq!(
        progress("de", "import", file),
        format!(
            "Fortschritt aus {file} übernommen (Kapitel gelesen: 2, Entscheidungen: 0, \
             Quiz-Versuche: 0, Lab-Ergebnisse behalten (Datei vor Version 3)).\n"
        )
    );
    let again = dir.path().join("again.json");
    let again = again.to_str().expect("utf-8 path");
    assert_eq!(
        progress("de", "export", again),
        format!("Fortschritt nach {again} geschrieben.\n")
    );
    let imported = progress("en", "import", again);
    assert!(
        imported.starts_with(&format!(
            "Progress imported from {again} (chapters read: 2,"
        )),
        "{imported}"
    );
}

/// A 1 MB line on stdin in a plain mode ends with a clear message, exit 1.
#[test]
fn an_endless_stdin_line_is_refused() {
    use std::io::Write;
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = Command::new(env!("CARGO_BIN_EXE_queuelab"))
        .args(["--lang", "en", "--data-dir"])
        .arg(dir.path())
        .args(["quiz", "--plain"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    // The process stops reading after 4 KB and exits, so this write may fail with a broken pipe.
    let _ = stdin.write_all(&vec![b'1'; 1024 * 1024]);
    drop(stdin);
    let out = child.wait_with_output().expect("ends");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("longer than 4096 bytes"),
        "{}",
        stderr(&out)
    );
}

/// A data folder path and a progress file holding `json`, both inside `dir`.
fn progress_file(dir: &tempfile::TempDir, json: &str) -> (String, String) {
    let data = dir.path().join("data");
    let file = dir.path().join("progress.json");
    std::fs::write(&file, json).expect("write");
    let utf8 = |p: std::path::PathBuf| p.to_str().expect("utf-8 path").to_owned();
    (utf8(data), utf8(file))
}

/// A number the course does not have is refused before anything is sent, in the instructor's
/// language (the URL names no running host: nothing is asked of one).
#[test]
fn host_pace_refuses_a_number_the_course_lacks_in_the_instructors_language() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().to_str().expect("utf8");
    let url = format!(
        "https://127.0.0.1:9/join?code=ABCDEFG&fp={}",
        "0".repeat(64)
    );
    for (lang, words) in [
        (
            "de",
            "„9“ nennt kein Kapitel, Szenario und keine Entscheidung",
        ),
        ("en", "\"9\" names no chapter, scenario or decision"),
    ] {
        let out = queuelab(&[
            "--lang",
            lang,
            "--data-dir",
            data,
            "host",
            "pace",
            "--url",
            &url,
            "--key",
            "K",
            "reveal",
            "9",
        ]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains(words), "{}", stderr(&out));
    }
}
