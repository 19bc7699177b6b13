//! The lab thread: makes and resets the learner's lab files and runs checks off the event
//! loop, telling the UI before each run ("checking seed k/n") and at the end. Keys keep
//! working meanwhile; a check is never cut short (the store records every check).

use super::lab_watch::{Change, Watch, next_look};
use app::labs::{FailedRun, LabProgress, LabReport, LabReportKind, LabRequest};
use app::{LabFileError, Msg};
use content::key;
use content::{Content, Lab, Lang};
use services::log;
use sim::lab::file::{self as lab_file, ReadError};
use sim::lab::{LabVerdict, check_lab, lab_check, learner_copy, runs_lock};
use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use tokio::sync::mpsc::UnboundedSender;

/// Handle to the lab thread.
pub struct LabWorker {
    commands: mpsc::Sender<LabRequest>,
    thread: JoinHandle<()>,
    data_dir: PathBuf,
    content: Arc<Content>,
}

impl LabWorker {
    /// Starts the thread; files go under `data_dir` (`labs/`, `lab-runs/`).
    pub fn spawn(
        data_dir: PathBuf,
        content: Arc<Content>,
        replies: UnboundedSender<Msg>,
    ) -> std::io::Result<LabWorker> {
        let (commands, inbox) = mpsc::channel::<LabRequest>();
        let thread = {
            let data_dir = data_dir.clone();
            let content = content.clone();
            std::thread::Builder::new()
                .name("lab".into())
                .spawn(move || serve(&data_dir, &content, &inbox, &replies))?
        };
        Ok(LabWorker {
            commands,
            thread,
            data_dir,
            content,
        })
    }

    /// Queues a request.
    pub fn send(&self, request: LabRequest) {
        if self.commands.send(request).is_err() {
            log::warn("the lab thread has stopped; a lab request was dropped");
        }
    }

    /// The learner's copy of `lab_id` for the editor, made from the starting file if needed.
    pub fn file_to_edit(&self, lab_id: &str) -> Result<PathBuf, LabFileError> {
        let lab = find(&self.content, lab_id)?;
        learner_copy::ensure_copy(&self.data_dir, lab).map_err(LabFileError::Write)
    }

    /// Lets the thread go without waiting: a check still running when the learner quits is
    /// not worth holding the exit for (it records nothing itself; its run folder is scratch).
    pub fn finish(self) {
        drop(self.commands);
        if self.thread.is_finished() && self.thread.join().is_err() {
            log::warn("the lab thread panicked");
        }
    }
}

/// Answers requests until the UI lets go; between them, watches the open lab's file and says
/// when it was saved (the lab screen checks it again).
fn serve(
    data_dir: &Path,
    content: &Content,
    inbox: &mpsc::Receiver<LabRequest>,
    replies: &UnboundedSender<Msg>,
) {
    let mut watch: Option<Watch> = None;
    loop {
        let next = match next_look(watch.as_ref()) {
            Some(every) => inbox.recv_timeout(every),
            None => inbox
                .recv()
                .map_err(|_| mpsc::RecvTimeoutError::Disconnected),
        };
        let request = match next {
            Ok(request) => request,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Some(w) = watch.as_mut() {
                    let lab_id = w.lab_id.clone();
                    match w.change() {
                        Change::None => {}
                        Change::Saved => {
                            let _ = replies.send(Msg::LabFileSaved { lab_id });
                        }
                        Change::Gone => {
                            let _ = replies.send(Msg::LabFileGone { lab_id });
                        }
                    }
                }
                continue;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        };
        // What a check is about to read is no news, nor the copy an open makes or what a reset
        // writes; a save while a check runs is, and the next look catches it, so that content
        // gets a check of its own.
        let after = match &request {
            LabRequest::Check { lab_id, .. } => {
                seen(&mut watch, lab_id);
                None
            }
            LabRequest::Open { lab_id } => Some((lab_id.clone(), true)),
            LabRequest::Reset { lab_id } => Some((lab_id.clone(), false)),
            LabRequest::Edit { .. } => None,
        };
        for msg in handle(data_dir, content, request, replies) {
            // The UI may already be gone at shutdown.
            let _ = replies.send(msg);
        }
        match after {
            Some((lab_id, true)) => {
                let copy = find(content, &lab_id).map(|lab| learner_copy::copy_path(data_dir, lab));
                watch = copy.ok().map(|path| Watch::new(lab_id, path));
            }
            Some((lab_id, false)) => seen(&mut watch, &lab_id),
            None => {}
        }
    }
}

/// Takes the watched file as it is now as seen, if it is `lab_id`'s.
fn seen(watch: &mut Option<Watch>, lab_id: &str) {
    if let Some(w) = watch.as_mut()
        && w.lab_id == lab_id
    {
        w.seen_now();
    }
}

fn find<'a>(content: &'a Content, lab_id: &str) -> Result<&'a Lab, LabFileError> {
    content
        .labs
        .iter()
        .find(|l| l.id == lab_id)
        .ok_or_else(|| LabFileError::UnknownLab {
            lab_id: lab_id.to_owned(),
        })
}

fn handle(
    data_dir: &Path,
    content: &Content,
    request: LabRequest,
    replies: &UnboundedSender<Msg>,
) -> Vec<Msg> {
    match request {
        LabRequest::Open { lab_id } => {
            vec![Msg::LabOpened(find(content, &lab_id).and_then(|lab| {
                learner_copy::ensure_copy(data_dir, lab)
                    .map(drop)
                    .map_err(LabFileError::Write)
            }))]
        }
        LabRequest::Reset { lab_id } => {
            let result = find(content, &lab_id).and_then(|lab| {
                learner_copy::reset_copy(data_dir, lab)
                    .map(drop)
                    .map_err(LabFileError::Write)
            });
            vec![Msg::LabReset { lab_id, result }]
        }
        // The executor hands the terminal to the editor itself; nothing to do here.
        LabRequest::Edit { .. } => Vec::new(),
        LabRequest::Check { lab_id, lang } => {
            let (reason, report) = match find(content, &lab_id) {
                Ok(lab) => check(data_dir, content, lab, lang, replies),
                Err(e) => {
                    let said = e.describe(&content.course(lang).strings);
                    (lab_check::CHECK_ERROR.to_owned(), failed(said))
                }
            };
            vec![Msg::LabChecked {
                lab_id,
                passed: reason.is_empty(),
                reason,
                report,
            }]
        }
    }
}

fn failed(reason: String) -> LabReport {
    LabReport {
        kind: LabReportKind::Failed,
        lines: vec![reason],
        failed_run: None,
    }
}

/// Checks the learner's copy over the lab's default seeds, worded as `queuelab lab check`
/// prints it.
fn check(
    data_dir: &Path,
    content: &Content,
    lab: &Lab,
    lang: Lang,
    replies: &UnboundedSender<Msg>,
) -> (String, LabReport) {
    let strings = &content.course(lang).strings;
    // The copy is made when the lab opens; a copy gone since is said, never silently replaced
    // by the starting file.
    let file = learner_copy::copy_path(data_dir, lab);
    let shown = file.display().to_string();
    let text = match lab_file::read(&file) {
        Ok(text) => text,
        Err(ReadError::File(e)) => {
            let verdict = LabVerdict::CannotRun(e);
            return (
                verdict.reason(),
                report_of(content, lab, lang, &shown, "", &verdict),
            );
        }
        Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            let gone = strings.fill(key::labs::FILE_GONE_CHECK, &[("file", &shown)]);
            return (lab_check::CHECK_ERROR.to_owned(), failed(gone));
        }
        Err(e) => {
            let e = match e {
                ReadError::Io(e) => e.to_string(),
                ReadError::File(e) => e.to_string(),
            };
            return (
                lab_check::CHECK_ERROR.to_owned(),
                failed(format!("cannot read {shown}: {e}")),
            );
        }
    };
    let mut progress = |p: sim::lab::CheckProgress| {
        let _ = replies.send(Msg::LabProgress {
            lab_id: lab.id.clone(),
            progress: LabProgress {
                seed: p.seed,
                last_seed: p.last_seed,
                runs_done: p.runs_done,
                runs_total: p.runs_total,
            },
        });
    };
    let work_dir = learner_copy::runs_dir(data_dir, lab);
    let lock = runs_lock::lock_runs(&work_dir, || {
        let _ = replies.send(Msg::LabWaiting {
            lab_id: lab.id.clone(),
        });
    });
    let _runs = match lock {
        Ok(lock) => lock,
        Err(reason) => return (lab_check::CHECK_ERROR.to_owned(), failed(reason)),
    };
    let verdict = match check_lab(content, lab, &text, lab.seeds, &work_dir, &mut progress) {
        Ok(verdict) => verdict,
        Err(reason) => return (lab_check::CHECK_ERROR.to_owned(), failed(reason)),
    };
    let report = report_of(content, lab, lang, &shown, &text, &verdict);
    (verdict.reason(), report)
}

/// The lab screen's report of a verdict, worded as `queuelab lab check` prints it (`text`: the
/// file as checked, for the simulator's look at a broken run).
fn report_of(
    content: &Content,
    lab: &Lab,
    lang: Lang,
    shown: &str,
    text: &str,
    verdict: &LabVerdict,
) -> LabReport {
    let strings = &content.course(lang).strings;
    match verdict {
        LabVerdict::Passed {
            runs,
            seeds,
            coverage,
        } => LabReport {
            kind: LabReportKind::Passed,
            lines: vec![
                lab_check::passed_line(strings, lab, *runs, *seeds),
                lab_check::coverage_line(strings, coverage),
            ],
            failed_run: None,
        },
        LabVerdict::CannotRun(e) => LabReport {
            kind: LabReportKind::CannotRun,
            lines: vec![e.render(shown, strings)],
            failed_run: None,
        },
        LabVerdict::Broken(f) => {
            let mut lines = vec![lab_check::broken_headline(strings, lab, f)];
            lines.extend(lab_check::broken_details(content, lang, shown, f));
            LabReport {
                kind: LabReportKind::Broken,
                lines,
                failed_run: Some(FailedRun {
                    scenario: f.scenario.clone(),
                    broker: f.broker,
                    seed: f.seed,
                    text: text.to_owned(),
                    statement: f.statement.as_ref().map(|s| (s.at_ms, s.section)),
                    probe: f.struck.map(|s| s.probe),
                }),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content() -> Arc<Content> {
        Arc::new(content::load(&content::ContentSource::Embedded).expect("content"))
    }

    fn run(dir: &Path, content: &Content, request: LabRequest) -> (Vec<Msg>, Vec<Msg>) {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let answers = handle(dir, content, request, &tx);
        let mut progress = Vec::new();
        while let Ok(msg) = rx.try_recv() {
            progress.push(msg);
        }
        (answers, progress)
    }

    #[test]
    fn a_check_of_the_starting_file_reports_progress_and_the_failure_with_file_and_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let content = content();
        let lab_id = content.labs[0].id.clone();
        let (opened, _) = run(
            dir.path(),
            &content,
            LabRequest::Open {
                lab_id: lab_id.clone(),
            },
        );
        assert_eq!(opened, vec![Msg::LabOpened(Ok(()))]);
        let (answers, progress) = run(
            dir.path(),
            &content,
            LabRequest::Check {
                lab_id: lab_id.clone(),
                lang: Lang::En,
            },
        );
        assert!(
            matches!(&progress[0], Msg::LabProgress { progress, .. } if progress.seed == 1 && progress.runs_done == 0),
            "{progress:?}"
        );
        let Msg::LabChecked { passed, report, .. } = &answers[0] else {
            panic!("{answers:?}")
        };
        assert!(!passed);
        assert_eq!(report.kind, LabReportKind::Broken);
        let file = learner_copy::copy_path(dir.path(), &content.labs[0]);
        let at = format!("{}:", file.display());
        assert!(
            report.lines.iter().any(|l| l.contains(&at)),
            "{:?}",
            report.lines
        );
    }

    #[test]
    fn a_deleted_file_is_said_and_never_replaced_by_the_starting_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let content = content();
        let lab = &content.labs[0];
        let file = learner_copy::copy_path(dir.path(), lab);
        learner_copy::write_atomically(&file, "-- @handle\nSELECT 1;\n").expect("write");
        std::fs::remove_file(&file).expect("deleted while the screen is open");
        for lang in [Lang::En, Lang::De] {
            let (answers, _) = run(
                dir.path(),
                &content,
                LabRequest::Check {
                    lab_id: lab.id.clone(),
                    lang,
                },
            );
            let Msg::LabChecked { report, passed, .. } = &answers[0] else {
                panic!("{answers:?}")
            };
            assert!(!passed);
            assert_eq!(report.kind, LabReportKind::Failed);
            let words = content.course(lang).strings.fill(
                key::labs::FILE_GONE_CHECK,
                &[("file", &file.display().to_string())],
            );
            assert_eq!(report.lines, vec![words]);
            assert!(!file.exists(), "the starting file was not written");
        }
    }

    #[test]
    fn a_file_that_is_not_utf8_cannot_run_at_its_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let content = content();
        let lab = &content.labs[0];
        let file = learner_copy::copy_path(dir.path(), lab);
        std::fs::create_dir_all(file.parent().expect("folder")).expect("folder");
        std::fs::write(&file, b"-- @handle\nSELECT 'caf\xE9';\n").expect("write");
        let (answers, _) = run(
            dir.path(),
            &content,
            LabRequest::Check {
                lab_id: lab.id.clone(),
                lang: Lang::En,
            },
        );
        let Msg::LabChecked { report, reason, .. } = &answers[0] else {
            panic!("{answers:?}")
        };
        assert_eq!(report.kind, LabReportKind::CannotRun);
        assert_eq!(reason, lab_check::CANNOT_RUN);
        assert!(
            report.lines[0].starts_with(&format!("{}:2:12: byte 0xE9", file.display())),
            "{:?}",
            report.lines
        );
    }

    #[test]
    fn a_file_that_cannot_run_is_file_line_col_and_an_unknown_lab_is_a_message() {
        let dir = tempfile::tempdir().expect("tempdir");
        let content = content();
        let lab = &content.labs[0];
        let file = learner_copy::copy_path(dir.path(), lab);
        learner_copy::write_atomically(&file, "-- @handle\nSELEC 1;\n").expect("write");
        let (answers, _) = run(
            dir.path(),
            &content,
            LabRequest::Check {
                lab_id: lab.id.clone(),
                lang: Lang::De,
            },
        );
        let Msg::LabChecked { report, .. } = &answers[0] else {
            panic!("{answers:?}")
        };
        assert_eq!(report.kind, LabReportKind::CannotRun);
        assert!(
            report.lines[0].starts_with(&format!("{}:2:", file.display())),
            "{:?}",
            report.lines
        );
        let (answers, _) = run(
            dir.path(),
            &content,
            LabRequest::Reset {
                lab_id: "99-none".into(),
            },
        );
        assert_eq!(
            answers,
            vec![Msg::LabReset {
                lab_id: "99-none".into(),
                result: Err(LabFileError::UnknownLab {
                    lab_id: "99-none".into()
                })
            }]
        );
        let (answers, _) = run(
            dir.path(),
            &content,
            LabRequest::Check {
                lab_id: "99-none".into(),
                lang: Lang::De,
            },
        );
        let Msg::LabChecked { report, .. } = &answers[0] else {
            panic!("{answers:?}")
        };
        assert_eq!(report.lines, ["kein Lab 99-none"]);
    }
}
