//! The simulator's moments say what the metrics count and what each broker keys on, every decision
//! option says what its "see it happen" run shows, the quiz's next steps point at the scenario that
//! shows them, sessions and DLQs are described per broker, a replay takes a new broker id, SQLite's
//! index messages, the transient retry and the dispatcher's log are told as they are.

use super::inbox_retention_and_samples::csharp_blocks;
use super::*;

/// `file` under the crate root, parsed as TOML.
fn toml_file(file: &str) -> toml::Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text =
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The moment text `key` in `lang`, normalised.
fn moment(lang: &str, key: &str) -> String {
    let file = toml_file("assets/sim/moments.toml");
    let text = file
        .get(lang)
        .and_then(|t| t.get(key))
        .and_then(toml::Value::as_str)
        .unwrap_or_else(|| panic!("moments.toml has no {lang}.{key}"));
    normalise(text)
}

pub(super) fn chapter(lang: &str, file: &str) -> String {
    let path = chapters_dir(lang).join(file);
    let text =
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    normalise(&text)
}

fn chapter_raw(lang: &str, file: &str) -> String {
    let path = chapters_dir(lang).join(file);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Every text an author writes for the course in `lang`: chapters, decisions, glossary,
/// ordering game, quiz and the simulator's moments, normalised and named.
fn course_texts(lang: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let dir = chapters_dir(lang);
    let entries = fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        let text = fs::read_to_string(&path).expect("chapter");
        out.push((path.display().to_string(), normalise(&text)));
    }
    for file in [
        format!("lessons/{lang}/decisions.toml"),
        format!("lessons/{lang}/glossary.toml"),
        format!("lessons/{lang}/ordering.toml"),
        format!("quiz/{lang}/quiz.toml"),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(&file);
        out.push((file, normalise(&fs::read_to_string(path).expect("file"))));
    }
    let moments = toml_file("assets/sim/moments.toml");
    let table = moments.get(lang).and_then(toml::Value::as_table);
    for (key, value) in table.into_iter().flatten() {
        if let Some(text) = value.as_str() {
            out.push((format!("moments {lang}.{key}"), normalise(text)));
        }
    }
    out
}

/// The marker-only moment is not counted as a prevented duplicate (the engine counts it as a
/// duplicate effect), so its text must not call it a recognised duplicate.
#[test]
fn the_marker_only_moment_says_nothing_was_prevented() {
    let en = moment("en", "moment.prevented-duplicate.marker-only");
    assert!(!en.contains("counts as a recognised duplicate"), "{en}");
    assert_groups(
        "marker-only (en)",
        &en,
        &[
            &["nothing was prevented"],
            &["prevented duplicates stays as it was"],
            &["duplicate effects includes this delivery"],
        ],
    );
    let de = moment("de", "moment.prevented-duplicate.marker-only");
    assert!(!de.contains("zählt als erkanntes duplikat"), "{de}");
    assert_groups(
        "marker-only (de)",
        &de,
        &[
            &["verhindert wurde nichts"],
            &["zahl verhinderter duplikate bleibt"],
            &["zahl doppelter wirkungen schließt diese zustellung ein"],
        ],
    );
}

/// Broker duplicate detection keys on the `MessageId` on Service Bus and on the
/// `MessageDeduplicationId` on SQS FIFO; the FIFO interval is a fixed 5 minutes.
#[test]
fn the_broker_dedup_moment_names_each_brokers_key_and_window() {
    for lang in ["en", "de"] {
        let text = moment(lang, "moment.prevented-duplicate.broker");
        assert!(!text.contains("same message id"), "{lang}: {text}");
        assert!(!text.contains("dieselbe message-id"), "{lang}: {text}");
        let asb = moment(lang, "term.dedup.asb");
        let sqs = moment(lang, "term.dedup.sqs");
        assert!(asb.contains("messageid"), "{lang}: {asb}");
        assert!(sqs.contains("messagededuplicationid"), "{lang}: {sqs}");
        assert!(
            sqs.contains("fixed 5 minutes") || sqs.contains("feste 5 minuten"),
            "{lang}: {sqs}"
        );
    }
}

/// Wherever the course states the dedup windows, SQS FIFO's is a fixed 5 minutes and Service Bus's
/// is one you configure.
#[test]
fn the_dedup_windows_are_stated_per_broker() {
    let rules: [(&str, &str, &[&[&str]]); 4] = [
        (
            "en",
            "05-transport-choice.md",
            &[
                &["a window you choose between 20 seconds and 7 days"],
                &["for a fixed 5 minutes"],
            ],
        ),
        (
            "de",
            "05-transport-choice.md",
            &[
                &["fenster, das du zwischen 20 sekunden und 7 tagen wählst"],
                &["feste 5 minuten lang"],
            ],
        ),
        (
            "en",
            "08-outbox.md",
            &[
                &["duplicate detection window you configure"],
                &["over a fixed 5 minutes"],
            ],
        ),
        (
            "de",
            "08-outbox.md",
            &[
                &["das du an der queue einstellst"],
                &["über feste 5 minuten"],
            ],
        ),
    ];
    for (lang, file, groups) in rules {
        assert_groups(&format!("{lang} {file}"), &chapter(lang, file), groups);
    }
}

/// A decision's "see it happen" plays one run per mode, so every wrong option must say
/// what that run shows. Decision 1's pitfall run commits the order first and then publishes
/// from the request (an option that publishes first showed the opposite), so each pitfall
/// option says the order is saved first; decision 2's puts the payload in the message body (an
/// option with chunks under the limit showed a size error), so each pitfall option says so. Each
/// says it in its own words: one phrase in every wrong option marks the odd one out.
#[test]
fn every_wrong_option_says_what_its_run_shows() {
    for (lang, pointer, commit_first, in_body) in [
        (
            "en",
            "see it happen",
            &[
                "committed",
                "after saving the order",
                "once the order is saved",
            ][..],
            &["as the payload", "as the body"][..],
        ),
        (
            "de",
            "„sieh es dir an“",
            &["gespeichert ist", "nach dem speichern"][..],
            &["als payload", "als body"][..],
        ),
    ] {
        let file = toml_file(&format!("lessons/{lang}/decisions.toml"));
        let cards = file
            .get("decision")
            .and_then(toml::Value::as_array)
            .expect("decisions");
        for card in cards {
            let card_id = card.get("id").and_then(toml::Value::as_str).unwrap_or("?");
            let options = card
                .get("option")
                .and_then(toml::Value::as_array)
                .expect("options");
            for option in options {
                let field = |name: &str| {
                    normalise(option.get(name).and_then(toml::Value::as_str).unwrap_or(""))
                };
                let id = field("id");
                if option.get("correct").and_then(toml::Value::as_bool) == Some(true) {
                    continue;
                }
                assert!(
                    field("feedback").contains(pointer),
                    "{lang} {card_id}/{id}: the feedback does not say what its run shows"
                );
                if field("mode") != "pitfall" {
                    continue;
                }
                let text = field("text");
                if card_id == "broker-down" {
                    let says = commit_first.iter().any(|w| text.contains(w));
                    assert!(says, "{lang} {card_id}/{id}: {text}");
                }
                if card_id == "large-pdf" {
                    let says = in_body.iter().any(|w| text.contains(w));
                    assert!(says, "{lang} {card_id}/{id}: {text}");
                }
            }
        }
    }
}

/// The scenario ids a text names in backticks.
fn scenario_ids(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|id| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("assets/scenarios")
                .join(format!("{id}.toml"))
                .exists()
        })
        .map(str::to_owned)
        .collect()
}

/// The chapter numbers a text names ("chapter 9", "Kapitel 9").
fn chapter_numbers(text: &str) -> Vec<u32> {
    let words: Vec<&str> = text.split_whitespace().collect();
    words
        .windows(2)
        .filter(|w| w[0].eq_ignore_ascii_case("chapter") || w[0] == "Kapitel")
        .filter_map(|w| {
            w[1].trim_matches(|c: char| !c.is_ascii_digit())
                .parse()
                .ok()
        })
        .collect()
}

fn next_steps(lang: &str) -> Vec<String> {
    let file = toml_file(&format!("quiz/{lang}/quiz.toml"));
    file.get("level")
        .and_then(toml::Value::as_array)
        .expect("levels")
        .iter()
        .flat_map(|level| {
            level
                .get("next_steps")
                .and_then(toml::Value::as_array)
                .cloned()
                .unwrap_or_default()
        })
        .filter_map(|s| s.as_str().map(str::to_owned))
        .collect()
}

/// A next step about lock duration or visibility timeout must not point at `backlog`. Every next
/// step names only scenarios that exist, the step about the lock names `lock-renewal`, and the
/// German step names the same scenarios and chapters as the English one.
#[test]
fn the_quiz_next_steps_point_at_the_right_runs() {
    let (en, de) = (next_steps("en"), next_steps("de"));
    assert_eq!(en.len(), de.len(), "next steps per language");
    for (e, d) in en.iter().zip(&de) {
        for id in e.split('`').skip(1).step_by(2) {
            assert!(
                scenario_ids(e).iter().any(|s| s == id),
                "{e}: `{id}` is no scenario"
            );
        }
        assert_eq!(scenario_ids(e), scenario_ids(d), "{e}\n{d}");
        assert_eq!(chapter_numbers(e), chapter_numbers(d), "{e}\n{d}");
        if e.contains("lock duration") || e.contains("visibility timeout") {
            assert!(e.contains("`lock-renewal`"), "{e}");
        }
    }
    assert!(
        !en.iter()
            .any(|s| s.contains("`backlog` scenario shows what happens"))
    );
}

/// A session is locked to one consumer at a time; that it is also handled one message
/// after another holds while `MaxConcurrentCallsPerSession` stays at its default of 1. An SQS
/// FIFO receive returns as many messages of one group as it can, so the order holds only while
/// one received batch is handled one message after another.
#[test]
fn sessions_are_described_with_their_concurrency_setting() {
    assert_groups(
        "ch. 5 (en)",
        &chapter("en", "05-transport-choice.md"),
        &[
            &["one consumer at a time locks the session"],
            &["`maxconcurrentcallspersession` at its default of 1"],
            &["returns as many messages of one group as it can"],
            &["handed to parallel tasks run out of order"],
        ],
    );
    assert_groups(
        "ch. 5 (de)",
        &chapter("de", "05-transport-choice.md"),
        &[
            &["jeweils ein consumer sperrt die session"],
            &["`maxconcurrentcallspersession` auf dem standardwert 1"],
            &["liefert so viele nachrichten einer gruppe wie möglich"],
            &["auf parallele tasks verteilt, laufen durcheinander"],
        ],
    );
    for lang in ["en", "de"] {
        let text = moment(lang, "moment.out-of-order");
        assert!(
            text.contains("maxconcurrentcallspersession"),
            "{lang}: {text}"
        );
        assert!(
            !text.contains("hands out a customer's next order only after"),
            "{lang}: {text}"
        );
    }
}

/// Service Bus keeps the delivery count and the dead-letter reason on the message; SQS has no
/// dead-letter call, its redrive records no reason, and a consumer may send the message to the DLQ
/// itself. The moments and the glossary say so per broker.
#[test]
fn dead_lettering_is_described_per_broker() {
    let asb = moment("en", "moment.dead-lettered");
    assert!(
        asb.contains("service bus keeps the delivery count, the dead-letter reason"),
        "{asb}"
    );
    let sqs = moment("en", "moment.dead-lettered-redrive");
    assert_groups(
        "SQS dead-letter moment (en)",
        &sqs,
        &[
            &["sqs has no dead-letter call"],
            &["the consumer sent the message there itself"],
            &["exceeded maxreceivecount"],
            &["the redrive stores no reason"],
        ],
    );
    let sqs_de = moment("de", "moment.dead-lettered-redrive");
    assert_groups(
        "SQS dead-letter moment (de)",
        &sqs_de,
        &[
            &["sqs kennt keinen dead-letter-aufruf"],
            &["hat der consumer die nachricht selbst dorthin gesendet"],
            &["maxreceivecount überschritt"],
            &["speichert keinen grund"],
        ],
    );
    let glossary = normalise(
        &fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons/en/glossary.toml"))
            .expect("glossary"),
    );
    assert!(
        glossary.contains("once its receive count exceeds maxreceivecount and records no reason")
    );
}

/// A replay takes a new broker `MessageId` (SQS FIFO: a new `MessageDeduplicationId` too); "may
/// take" left the reader to guess.
#[test]
fn a_replay_takes_a_new_broker_id_everywhere() {
    for lang in ["en", "de"] {
        for (name, text) in course_texts(lang) {
            for hedge in [
                "may take a new broker",
                "may carry a new broker",
                "darf eine neue broker-",
                "kann eine neue broker-messageid tragen",
            ] {
                assert!(!text.contains(hedge), "{name} says {hedge:?}");
            }
        }
    }
    assert!(chapter("en", "12-retry-dlq.md").contains(
        "takes a new broker `messageid` (on sqs fifo also a new `messagededuplicationid`)"
    ));
    assert!(chapter("de", "12-retry-dlq.md").contains(
        "bekommt eine neue broker-`messageid` (bei sqs fifo auch eine neue `messagededuplicationid`)"
    ));
}

/// SQLite names the index in a unique violation only for an index on expressions.
#[test]
fn sqlite_names_only_an_index_on_expressions() {
    for lang in ["en", "de"] {
        let text = chapter(lang, "10-inbox-deep-dive.md");
        assert!(!text.contains("sqlite never names an index"), "{lang}");
        assert!(!text.contains("sqlite nennt nie einen index"), "{lang}");
        assert!(text.contains("index on expressions"), "{lang}");
        assert!(
            text.contains("unique constraint failed: index 'ux_inbox_message_consumer'"),
            "{lang}"
        );
    }
}

/// The C# blocks that schedule a copy and the ones among them with no attempt counter.
fn uncounted_retries(text: &str) -> Vec<String> {
    csharp_blocks(text)
        .into_iter()
        .filter(|b| b.contains("schedulemessageasync("))
        .filter(|b| !(b.contains("\"attempt\"") && b.contains("deadlettermessageasync(")))
        .collect()
}

/// A scheduled copy starts again at `DeliveryCount` 1, so a transient retry by copy needs its own
/// attempt counter and a last attempt that dead-letters.
#[test]
fn a_retry_by_scheduled_copy_counts_its_attempts() {
    for lang in ["en", "de"] {
        for path in chapter_files(lang) {
            let text = fs::read_to_string(&path).expect("chapter");
            let found = uncounted_retries(&text);
            assert!(found.is_empty(), "{}: {found:?}", path.display());
        }
    }
    let old = "```csharp\ncatch (Exception ex) when (IsTransient(ex))\n{\n    var copy = new \
               ServiceBusMessage(args.Message);\n    await sender.ScheduleMessageAsync(copy, \
               DateTimeOffset.UtcNow + wait, ct);\n}\n```\n";
    assert_eq!(uncounted_retries(old).len(), 1);
}

/// A failed mark means the row was sent and goes out again; the dispatcher sample's log tells that
/// apart from a failed send, and the prose does not promise the old order.
#[test]
fn the_dispatcher_log_says_whether_the_send_or_the_mark_failed() {
    for lang in ["en", "de"] {
        let raw = chapter_raw(lang, "08-outbox.md");
        let block = csharp_blocks(&raw)
            .into_iter()
            .find(|b| b.contains("transport.sendasync("))
            .unwrap_or_else(|| panic!("{lang}: no dispatcher loop"));
        assert!(block.contains("sent = true;"), "{lang}: {block}");
        assert!(block.contains("sent but not marked"), "{lang}: {block}");
        assert!(block.contains("not sent;"), "{lang}: {block}");
        assert!(
            !block.contains("\"outbox row {id} failed\""),
            "{lang}: {block}"
        );
        let text = normalise(&raw);
        assert!(!text.contains("sends them again, in their order"), "{lang}");
        assert!(
            !text.contains("sendet ein späterer lauf sie erneut, in ihrer reihenfolge"),
            "{lang}"
        );
    }
}
