//! The chapters state two operating rules the same way in both languages: how a message is replayed
//! from the dead-letter queue, and what happens to a poison message. The quiz, the decisions and
//! the simulator's texts must agree with these rules, so the chapters are their reference. The test
//! reads the lesson files from disk, as an author edits them.

use std::fs;
use std::path::{Path, PathBuf};

mod inbox_retention_and_samples;
mod moments_options_and_brokers;
mod sends_and_duplicates;
mod vendor_facts;

/// One rule: a section of a chapter must contain every group; a group is satisfied when any
/// of its phrases occurs (case-insensitive, whitespace collapsed).
struct Rule {
    name: &'static str,
    chapter: &'static str,
    groups: &'static [&'static [&'static str]],
}

/// A replay keeps the envelope's logical message id (the inbox deduplicates on it) and may take
/// a new broker MessageId, because duplicate detection silently drops a same-id resend inside
/// its window and a resubmit tool that completes the DLQ entry after that send loses the message.
const REPLAY_EN: Rule = Rule {
    name: "DLQ replay (en)",
    chapter: "12-retry-dlq.md",
    groups: &[
        &["replay keeps the envelope's message id"],
        &["logical id the inbox deduplicates on"],
        &["new broker `messageid`"],
        &["silently drops a resend with the same `messageid` inside its window"],
        &["completes the dlq entry"],
        &["loses the message", "lost the message"],
        &[
            "inbox make the replay safe",
            "inbox makes the replay safe",
            "lets the inbox make the replay safe",
        ],
    ],
};

const REPLAY_DE: Rule = Rule {
    name: "DLQ replay (de)",
    chapter: "12-retry-dlq.md",
    groups: &[
        &["replay behält die message-id des umschlags"],
        &["logische id, auf der die inbox duplikate erkennt"],
        &["neue broker-`messageid`"],
        &["derselben `messageid` innerhalb des erkennungsfensters stillschweigend"],
        &["den dlq-eintrag nach diesem"],
        &["nachricht verloren"],
        &["macht die inbox das replay auch für"],
    ],
};

/// A permanent error (an unknown schema version) goes to the DLQ at once. Service Bus: the
/// application's own dead-letter call with reason and description. SQS: no such call and no
/// reason; teams send it to the DLQ themselves or let the redrive policy take it.
const POISON_EN: Rule = Rule {
    name: "poison message (en)",
    chapter: "12-retry-dlq.md",
    groups: &[
        &["permanent error, such as an unknown schema version"],
        &["goes to the dlq at once"],
        &["application dead-letters it with its own call"],
        &["deadletterreason"],
        &["deadlettererrordescription"],
        &["sqs has no dead-letter call and records no reason"],
        &["send the message to the dlq themselves"],
        &["let the redrive policy take it"],
    ],
};

const POISON_DE: Rule = Rule {
    name: "poison message (de)",
    chapter: "12-retry-dlq.md",
    groups: &[
        &["dauerhafter fehler, etwa eine unbekannte schemaversion"],
        &["geht sofort in die dlq"],
        &["verschiebt die anwendung ihn mit ihrem eigenen aufruf"],
        &["deadletterreason"],
        &["deadlettererrordescription"],
        &["sqs kennt keinen dead-letter-aufruf und hält keinen grund fest"],
        &["die nachricht selbst an die dlq, mit dem grund"],
        &["redrive-policy sie nach"],
    ],
};

/// Sentences the old text used that contradict the rules; none may come back.
const FORBIDDEN: &[(&str, &str)] = &[
    ("en", "backs off (abandon"),
    ("de", "zieht sich zurück (abandon"),
    ("en", "dlq decisions are promised within 7 days"),
    ("de", "dlq-entscheidungen sind binnen 7 tagen"),
    ("en", "no decision in 4 h"),
    ("de", "4 h ohne entscheid"),
    // A redrive gives the copy a new enqueue time, so 15 days of inbox rows are too short.
    ("en", "delete inbox rows after 15 days"),
    ("de", "lösch inbox-zeilen nach 15 tagen"),
    // Premium takes 1 MB per entity by default; larger sizes must be configured.
    ("en", "premium would take it"),
    ("de", "premium würde sie annehmen"),
    // The unique index protects on both brokers; no profile is "the one that counts".
    ("en", "use the sqs profile for this comparison"),
    ("de", "nimm für diesen vergleich das sqs-profil"),
    // Schedule first, then complete; the old text gave no order.
    (
        "en",
        "schedule a copy (`scheduledenqueuetime`) and complete the original",
    ),
    (
        "de",
        "kopie ein (`scheduledenqueuetime`) und schließt das original mit complete ab",
    ),
    // A lost lock is no transient error to retry: stop, do not settle, count it.
    ("en", "lock lost | transient"),
    ("de", "lock verloren | vorübergehend"),
    // A row that is only `claimed` is not done; "known id: settle" ignored the claim.
    ("en", "a known id: settle and stop"),
    ("de", "bekannte id: abschließen und aufhören"),
    // SQS moves a message to the DLQ without a reason.
    ("en", "| poison message | dlq, reason noted |"),
    ("de", "| poison-message | dlq, grund notiert |"),
    // A lost lock is what `lock-renewal` shows; `lost-ack` loses the acknowledgement.
    ("en", "| lock lost | `lock_lost` | `lost-ack` |"),
    ("de", "| lock lost | `lock_lost` | `lost-ack` |"),
    ("en", "in `lost-ack`, and with the fault"),
    ("de", "in `lost-ack` und mit dem fehler"),
    // ServiceBusProcessor abandons a message whose handler throws.
    ("en", "any other exception leaves the message unsettled"),
    ("de", "jede andere exception lässt die nachricht offen"),
    // `retries` counts failed deliveries, a permanent error's first one too.
    ("en", "retries{permanent} > 0"),
    ("de", "retries{permanent} > 0"),
    // The counter also counts copies the broker's duplicate detection dropped.
    ("en", "this counts deliveries that the inbox recognised"),
    (
        "de",
        "dieser zähler erfasst zustellungen, die die inbox erkannt",
    ),
    // Azure.Messaging.ServiceBus calls it `LockedUntil`.
    ("en", "lockeduntilutc"),
    ("de", "lockeduntilutc"),
    // An external effect before the consumer's only commit is what chapter 9 calls unsafe.
    ("en", "effect card charged"),
    ("de", "effect card charged"),
    // Without high-throughput mode the FIFO quota is per queue, not per partition.
    ("en", "per api action and partition"),
    ("de", "je api-aktion und partition"),
];

/// The broker's own id must never reach the inbox: SQS gives every send a new one, and a replayed
/// or scheduled Service Bus copy may carry a new `MessageId` (chapter 12). A handler call or an
/// inbox row built from the received message's id instead of the envelope's is the error: a
/// redelivery under a new broker id then passes the inbox as a new message.
const BROKER_IDS: &[&str] = &[
    "msg.messageid",
    "m.messageid",
    "message.messageid",
    // the whole received message handed over leaves the handler only the broker's ids
    "handleasync(m,",
    "handleasync(msg,",
];

/// The statements of the `csharp` code blocks of a chapter that hand a message id on to the
/// handler or the inbox, each joined to one line.
fn statements_keyed_on_an_id(text: &str) -> Vec<String> {
    inbox_retention_and_samples::csharp_sources(text)
        .iter()
        .flat_map(|code| code.split([';', '{', '}']))
        .map(normalise)
        .filter(|joined| joined.contains("handleasync(") || joined.contains("inboxentry("))
        .collect()
}

fn broker_ids_reaching_the_inbox(text: &str) -> Vec<String> {
    statements_keyed_on_an_id(text)
        .into_iter()
        .filter(|s| BROKER_IDS.iter().any(|id| s.contains(id)))
        .collect()
}

#[test]
fn no_code_sample_keys_the_inbox_on_the_brokers_id() {
    for lang in ["en", "de"] {
        for path in chapter_files(lang) {
            let text = fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let found = broker_ids_reaching_the_inbox(&text);
            assert!(
                found.is_empty(),
                "{} hands the broker's id to the handler or inbox: {found:?}",
                path.display()
            );
        }
    }
}

#[test]
fn the_broker_id_rule_rejects_the_old_samples() {
    let old_chapter_9 = "```csharp\nprocessor.ProcessMessageAsync += async args =>\n{\n    \
                         var msg = args.Message;\n    await handler.HandleAsync(\n        \
                         msg.MessageId, msg.Body, args.CancellationToken);\n};\n```\n";
    assert_eq!(broker_ids_reaching_the_inbox(old_chapter_9).len(), 1);
    let old_chapter_4 = "```csharp\nclient.RegisterMessageHandler(async (msg, ct) =>\n    {\n\
                         \x20       await handler.HandleAsync(msg.MessageId, msg.Body, ct);\n\
                         \x20   });\n```\n";
    assert_eq!(broker_ids_reaching_the_inbox(old_chapter_4).len(), 1);
    let envelope = "```csharp\nawait handler.HandleAsync(envelope, ct);\n\
                    db.Inbox.Add(new InboxEntry(envelope.MessageId, Name, now));\n```\n";
    assert_eq!(statements_keyed_on_an_id(envelope).len(), 2);
    assert!(broker_ids_reaching_the_inbox(envelope).is_empty());
    // Prose is not code: the chapter may name the broker's id to warn about it.
    assert!(broker_ids_reaching_the_inbox("Never pass msg.MessageId to HandleAsync(.").is_empty());
}

/// Chapter 12 says what its backoff code implies: full jitter may wait 0 ms, and SQS's
/// `ApproximateReceiveCount` is already 1 on the first receive (the code subtracts one).
#[test]
fn chapter_12_states_the_jitter_and_receive_count_facts() {
    for (lang, phrases) in [
        (
            "en",
            [
                "full jitter can draw a wait of 0 ms",
                "the count is already 1 on the first receive",
                "backoff.fulljitter(n - 1,",
            ],
        ),
        (
            "de",
            [
                "full jitter kann eine wartezeit von 0 ms ziehen",
                "der zähler steht schon beim ersten empfang auf 1",
                "backoff.fulljitter(n - 1,",
            ],
        ),
    ] {
        let path = chapters_dir(lang).join("12-retry-dlq.md");
        let text = normalise(
            &fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display())),
        );
        for phrase in phrases {
            assert!(text.contains(phrase), "{} lacks {phrase:?}", path.display());
        }
    }
}

/// A wrong option states the same thing in both languages and neither hedges nor overclaims:
/// the hotfix went out after the failures, which says nothing about whether it covers them
/// (a hedge like "should cover" marks the option as the doubtful one).
#[test]
fn decision_4_states_the_hotfix_plainly_in_both_languages() {
    for (lang, claim, cue) in [
        (
            "en",
            "friday's hotfix went out after these failed",
            "should",
        ),
        (
            "en",
            "friday's hotfix went out after these failed",
            "surely",
        ),
        (
            "de",
            "der hotfix vom freitag kam nach diesen fehlern",
            "dürfte",
        ),
        (
            "de",
            "der hotfix vom freitag kam nach diesen fehlern",
            "sicher ab",
        ),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("lessons")
            .join(lang)
            .join("decisions.toml");
        let text = fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
            .to_lowercase();
        let option = text
            .lines()
            .find(|l| l.contains(claim))
            .unwrap_or_else(|| panic!("{} lacks {claim:?}", path.display()));
        assert!(
            !option.contains(cue),
            "{} says {cue:?}: {option}",
            path.display()
        );
    }
}

/// The glossary's "inbox row" describes the row; the SQS receipt handle is another concept.
#[test]
fn the_inbox_row_entry_names_no_receipt_handle() {
    for lang in ["en", "de"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("lessons")
            .join(lang)
            .join("glossary.toml");
        let text = fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let file: toml::Value = toml::from_str(&text).expect("glossary is TOML");
        let meaning = file
            .get("term")
            .and_then(toml::Value::as_array)
            .and_then(|terms| {
                terms
                    .iter()
                    .find(|t| t.get("id").and_then(toml::Value::as_str) == Some("inbox-row"))
            })
            .and_then(|t| t.get("meaning"))
            .and_then(toml::Value::as_str)
            .unwrap_or_else(|| panic!("{}: no inbox-row meaning", path.display()));
        assert!(
            !meaning.to_lowercase().contains("receipthandle"),
            "{}: {meaning}",
            path.display()
        );
    }
}

fn chapter_files(lang: &str) -> Vec<PathBuf> {
    let dir = chapters_dir(lang);
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    files.sort();
    files
}

/// Chapters before the inbox chapter (9) and its decision card must not teach the inbox: the
/// learner predicts decision 3 first. (`queuelab check` holds every card to this rule through
/// its `reveals` words; this test keeps the inbox case readable on its own.)
#[test]
fn chapters_before_the_inbox_card_do_not_teach_the_inbox() {
    for lang in ["en", "de"] {
        let dir = chapters_dir(lang);
        let entries =
            fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            let before_chapter_9 = name.get(..2).is_some_and(|nn| nn < "09");
            if !before_chapter_9 {
                continue;
            }
            let text = fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            for line in text.lines() {
                let lower = line.to_lowercase();
                assert!(
                    !lower.contains("inbox"),
                    "{} names the inbox before chapter 9: {line}",
                    path.display()
                );
            }
        }
    }
}

fn chapters_dir(lang: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("lessons")
        .join(lang)
        .join("chapters")
}

fn normalise(text: &str) -> String {
    text.split_whitespace()
        .map(|w| w.trim_start_matches('>'))
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The `## ` sections of a chapter, each with its heading line, normalised.
fn sections(text: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    for line in text.lines() {
        if line.starts_with("## ") {
            out.push(String::new());
        }
        let current = out.last_mut().expect("always one section");
        current.push_str(line);
        current.push('\n');
    }
    out.iter().map(|s| normalise(s)).collect()
}

/// The groups no single section satisfies completely, for the section that comes closest.
fn missing_groups(rule: &Rule, text: &str) -> Vec<&'static [&'static str]> {
    sections(text)
        .iter()
        .map(|section| {
            rule.groups
                .iter()
                .copied()
                .filter(|group| !group.iter().any(|phrase| section.contains(phrase)))
                .collect::<Vec<_>>()
        })
        .min_by_key(Vec::len)
        .unwrap_or_else(|| rule.groups.to_vec())
}

fn assert_rule(rule: &Rule, lang: &str) {
    let path = chapters_dir(lang).join(rule.chapter);
    let text =
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let missing = missing_groups(rule, &text);
    assert!(
        missing.is_empty(),
        "{}: no section of {} states the rule; closest section lacks {:?}",
        rule.name,
        path.display(),
        missing
    );
}

#[test]
fn chapters_state_the_dlq_replay_rule_in_both_languages() {
    assert_rule(&REPLAY_EN, "en");
    assert_rule(&REPLAY_DE, "de");
}

#[test]
fn chapters_state_the_poison_message_rule_in_both_languages() {
    assert_rule(&POISON_EN, "en");
    assert_rule(&POISON_DE, "de");
}

#[test]
fn no_chapter_repeats_a_retracted_statement() {
    for (lang, phrase) in FORBIDDEN {
        let dir = chapters_dir(lang);
        let entries =
            fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            let text = fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            assert!(
                !normalise(&text).contains(phrase),
                "{} says {phrase:?} again",
                path.display()
            );
        }
    }
}

/// The checker must not pass on wording that breaks the rules: a replay step that names only the
/// inbox, and a poison paragraph without the SQS practice.
#[test]
fn the_rule_check_rejects_the_old_wording() {
    let old_replay = "## Triage\n\n3. **Replay a few first.** Send five messages back, not\n   \
                      all of them. Your inbox makes the replay safe for messages that were\n   \
                      already partly handled.\n";
    assert!(!missing_groups(&REPLAY_EN, old_replay).is_empty());
    let old_poison = "## Max deliveries and the DLQ\n\nA permanent error should not use up the \
                      limit at all; dead-letter it at once:\n\nSQS has no such call. There you \
                      send a copy to the DLQ yourself.\n";
    assert!(!missing_groups(&POISON_EN, old_poison).is_empty());
    // A rule split over two sections is not stated in one place.
    let split = "## One\n\nreplay keeps the envelope's message id\n\n## Two\n\nnew broker \
                 `MessageId`\n";
    assert!(!missing_groups(&REPLAY_EN, split).is_empty());
    assert_eq!(missing_groups(&REPLAY_EN, "").len(), REPLAY_EN.groups.len());
}

/// The `lesson` text of `assets/scenarios/ID.toml` in `lang`, normalised.
fn scenario_lesson(id: &str, lang: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/scenarios")
        .join(format!("{id}.toml"));
    let text =
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let file: toml::Value = toml::from_str(&text).expect("scenario file is TOML");
    let lesson = file
        .get("text")
        .and_then(|t| t.get(lang))
        .and_then(|t| t.get("lesson"))
        .and_then(toml::Value::as_str)
        .unwrap_or_else(|| panic!("{id}: no text.{lang}.lesson"));
    normalise(lesson)
}

/// Each group of `groups` must occur in `text` (any phrase of the group).
fn assert_groups(what: &str, text: &str, groups: &[&[&str]]) {
    let missing: Vec<_> = groups
        .iter()
        .filter(|group| !group.iter().any(|phrase| text.contains(phrase)))
        .collect();
    assert!(missing.is_empty(), "{what} lacks {missing:?}");
}

/// The simulator's `poison-dlq` scenario teaches the same two rules as chapter 12: a permanent
/// error is dead-lettered at the first delivery by the application (Service Bus: `DeadLetter`
/// with reason and description; SQS: no such call), and a replay goes out with a new broker
/// dedup key (Service Bus `MessageId`, SQS FIFO `MessageDeduplicationId`) with the envelope's
/// message id kept, because a same-key resubmit is dropped and a tool that completes the DLQ
/// entry loses the message.
#[test]
fn the_poison_dlq_scenario_states_the_chapters_rules_in_both_languages() {
    assert_groups(
        "poison-dlq (en)",
        &scenario_lesson("poison-dlq", "en"),
        &[
            &["unknown schema version as permanent"],
            &["dead-letters the message at its first delivery"],
            &["deadletter call (reason and description)"],
            &["sqs has no such call"],
            &["to the dlq itself"],
            &["dropped by the broker without a word"],
            &["completes the dlq entry has lost the message"],
            &["service bus: the messageid; sqs fifo: the messagededuplicationid"],
            &["replay goes out with a new dedup key"],
            &["sqs gives every send a new messageid anyway"],
            &["envelope keeps the message id the inbox deduplicates on"],
        ],
    );
    assert_groups(
        "poison-dlq (de)",
        &scenario_lesson("poison-dlq", "de"),
        &[
            &["unbekannte schemaversion als dauerhaft"],
            &["schon bei der ersten zustellung"],
            &["deadletter-aufruf (grund und beschreibung)"],
            &["sqs kennt keinen solchen aufruf"],
            &["selbst an die dlq und löscht"],
            &["verwirft der broker innerhalb des fensters wortlos"],
            &["dlq-eintrag abschließt, hat die nachricht verloren"],
            &["service bus: die messageid; sqs fifo: die messagededuplicationid"],
            &["replay mit einem neuen deduplizierungsschlüssel"],
            &["eine neue messageid vergibt sqs ohnehin"],
            &["umschlag die message-id behält, auf der die inbox dedupliziert"],
        ],
    );
    for lang in ["en", "de"] {
        let lesson = scenario_lesson("poison-dlq", lang);
        for old in [
            "no longer recognises",
            "business key",
            "stay in the dlq",
            "nicht mehr erkennt",
            "geschäftsschlüssel",
            "bleiben in der dlq",
            // SQS assigns its own MessageId; its FIFO dedup key is another field
            "new broker messageids",
            "neuen broker-message-ids",
        ] {
            assert!(
                !lesson.contains(old),
                "poison-dlq ({lang}) repeats the retracted '{old}'"
            );
        }
    }
}
