//! Inbox retention counts the replayed copy, a thrown exception is abandoned, the inbox shortcut
//! and the dispatcher sample are safe, no answer comes before its card, and the scenario and
//! runbook texts say what the brokers and the simulator do.

use super::*;

/// Inbox retention must outlast every copy: the source queue, the DLQ wait and the replayed
/// copy's second life in the source queue, worked with real days.
const RETENTION_EN: Rule = Rule {
    name: "inbox retention (en)",
    chapter: "10-inbox-deep-dive.md",
    groups: &[
        &["**inbox retention**"],
        &["a replayed copy lives in the source queue a second time"],
        &["plus the source queue lifetime of the replayed copy"],
        &["4 + 14 + 4 = 22 days"],
        &["count from the original enqueue"],
        &["fifo queue resets the timestamp"],
        &["the replayed copy gets afresh"],
    ],
};

const RETENTION_DE: Rule = Rule {
    name: "inbox retention (de)",
    chapter: "10-inbox-deep-dive.md",
    groups: &[
        &["**inbox-aufbewahrung**"],
        &["zurückgespielte kopie lebt ein zweites mal in der quell-queue"],
        &["plus die lebenszeit der zurückgespielten kopie in der quell-queue"],
        &["4 + 14 + 4 = 22 tage"],
        &["ab dem ursprünglichen einreihen"],
        &["fifo-queue setzt den zeitstempel"],
        &["die die zurückgespielte kopie neu bekommt"],
    ],
};

/// A handler that throws gets its message abandoned by `ServiceBusProcessor`: the chapter says so
/// and shows a real delay for transient errors.
const THROWN_EN: Rule = Rule {
    name: "thrown exception (en)",
    chapter: "10-inbox-deep-dive.md",
    groups: &[
        &["`servicebusprocessor` abandons it, whatever `autocompletemessages` says"],
        &["`deliverycount` + 1"],
        &["catch (exception ex) when (istransient(ex))"],
        &["schedulemessageasync("],
        &["let the lock run out"],
    ],
};

const THROWN_DE: Rule = Rule {
    name: "thrown exception (de)",
    chapter: "10-inbox-deep-dive.md",
    groups: &[
        &["`servicebusprocessor` gibt sie mit abandon frei, egal was `autocompletemessages` sagt"],
        &["`deliverycount` + 1"],
        &["catch (exception ex) when (istransient(ex))"],
        &["schedulemessageasync("],
        &["lässt den lock ablaufen"],
    ],
};

#[test]
fn chapter_10_counts_the_replayed_copy_in_the_inbox_retention() {
    assert_rule(&RETENTION_EN, "en");
    assert_rule(&RETENTION_DE, "de");
}

#[test]
fn chapter_10_says_a_thrown_exception_is_abandoned() {
    assert_rule(&THROWN_EN, "en");
    assert_rule(&THROWN_DE, "de");
}

/// The `csharp` code blocks of a chapter, each as written.
pub(super) fn csharp_sources(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut code = String::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            if in_code {
                out.push(std::mem::take(&mut code));
            }
            in_code = !in_code && line.contains("csharp");
            continue;
        }
        if in_code {
            code.push_str(line);
            code.push('\n');
        }
    }
    out
}

/// The `csharp` code blocks of a chapter, each normalised to one line.
pub(super) fn csharp_blocks(text: &str) -> Vec<String> {
    csharp_sources(text)
        .iter()
        .map(|code| normalise(code))
        .collect()
}

/// The inbox look-ups of the code samples that settle on any row: a row that is only
/// `claimed` is not done, so the shortcut must ask for `ProcessedAt`.
fn shortcuts_ignoring_the_claim(text: &str) -> Vec<String> {
    csharp_blocks(text)
        .into_iter()
        .filter(|block| block.contains("inbox.anyasync(") && !block.contains("processedat != null"))
        .collect()
}

#[test]
fn the_inbox_shortcut_settles_only_processed_rows() {
    for lang in ["en", "de"] {
        for path in chapter_files(lang) {
            let text = fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let found = shortcuts_ignoring_the_claim(&text);
            assert!(
                found.is_empty(),
                "{} settles on a merely claimed inbox row: {found:?}",
                path.display()
            );
        }
    }
    let old = "```csharp\nif (await db.Inbox.AnyAsync(\n    e => e.MessageId == messageId && \
               e.Consumer == Name, ct))\n    return;\n```\n";
    assert_eq!(shortcuts_ignoring_the_claim(old).len(), 1);
}

/// Chapter 8 says a failed send leaves the row unmarked and the loop goes on; its dispatcher
/// sample must catch the failure per row instead of ending the loop.
#[test]
fn the_dispatcher_sample_survives_a_failed_send() {
    for lang in ["en", "de"] {
        let path = chapters_dir(lang).join("08-outbox.md");
        let text = fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let loops: Vec<String> = csharp_blocks(&text)
            .into_iter()
            .filter(|block| block.contains("transport.sendasync("))
            .collect();
        assert!(
            !loops.is_empty(),
            "{} has no dispatcher loop",
            path.display()
        );
        for block in loops {
            let send = block.find("transport.sendasync(").unwrap_or_default();
            let guarded = block[..send].contains("try")
                && block[send..]
                    .contains("catch (exception ex) when (ex is not operationcanceledexception)")
                && block[send..].contains("task.delay(");
            assert!(
                guarded,
                "{}: a failed send ends the loop: {block}",
                path.display()
            );
        }
    }
}

/// Chapter 9 asks what to do with the second delivery and answers only after decision 3's card;
/// chapter 10 leaves "the replay may wait for a fix" to chapter 12, after decision 4's card.
#[test]
fn no_answer_comes_before_its_card() {
    for (lang, answer) in [
        ("en", "second delivery changes nothing"),
        ("de", "zweite zustellung nichts mehr verändert"),
    ] {
        let path = chapters_dir(lang).join("09-inbox.md");
        let text = fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let card = text
            .find("::: decision lost-ack")
            .unwrap_or_else(|| panic!("{}: no decision 3 card", path.display()));
        assert!(
            !normalise(&text[..card]).contains(answer),
            "{} answers decision 3 before its card",
            path.display()
        );
        assert!(normalise(&text[card..]).contains(answer));
    }
    for (lang, hint) in [
        ("en", "replay itself may wait"),
        ("de", "replay selbst darf"),
    ] {
        let path = chapters_dir(lang).join("10-inbox-deep-dive.md");
        let text = fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        assert!(
            !normalise(&text).contains(hint),
            "{} hints decision 4 two chapters early",
            path.display()
        );
    }
}

/// The scenario texts name both brokers' mechanisms and the full inbox retention.
#[test]
fn scenario_lessons_state_retention_and_redelivery_for_both_brokers() {
    assert_groups(
        "lost-ack (en)",
        &scenario_lesson("lost-ack", "en"),
        &[&["lock (service bus) or the visibility timeout (sqs)"]],
    );
    assert_groups(
        "lost-ack (de)",
        &scenario_lesson("lost-ack", "de"),
        &[&["lock (service bus) oder der visibility timeout (sqs)"]],
    );
    assert_groups(
        "dedup-window (en)",
        &scenario_lesson("dedup-window", "en"),
        &[&["+ the source queue lifetime of the replayed copy +"]],
    );
    assert_groups(
        "dedup-window (de)",
        &scenario_lesson("dedup-window", "de"),
        &[&["+ wie lange die zurückgespielte kopie in der quell-queue lebt +"]],
    );
}

/// The runbook labels say what the simulator counts: `retries` is every failed delivery,
/// `prevented_duplicates` includes copies the broker's duplicate detection dropped.
#[test]
fn runbook_labels_say_what_the_metrics_count() {
    for (lang, failed, dropped) in [
        (
            "en",
            "failed deliveries",
            "dropped by the broker's duplicate detection",
        ),
        (
            "de",
            "gescheiterte zustellungen",
            "von der duplikaterkennung des brokers verworfen",
        ),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("lessons")
            .join(lang)
            .join("reference.toml");
        let text = fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let file: toml::Value = toml::from_str(&text).expect("reference is TOML");
        let watch = |id: &str| {
            file.get("runbook")
                .and_then(toml::Value::as_array)
                .and_then(|signals| {
                    signals
                        .iter()
                        .find(|s| s.get("id").and_then(toml::Value::as_str) == Some(id))
                })
                .and_then(|s| s.get("watch"))
                .and_then(toml::Value::as_str)
                .map_or_else(|| panic!("{}: no {id} watch", path.display()), normalise)
        };
        assert!(watch("retry-rate").contains(failed), "{}", path.display());
        assert!(
            watch("prevented-duplicates").contains(dropped),
            "{}",
            path.display()
        );
        let runbook = normalise(
            &fs::read_to_string(chapters_dir(lang).join("13-runbook.md"))
                .unwrap_or_else(|e| panic!("cannot read chapter 13 ({lang}): {e}")),
        );
        assert!(
            runbook.contains(&format!("| `retries` ({failed}) |")),
            "chapter 13 ({lang}) does not define `retries` as {failed}"
        );
        assert!(
            runbook.contains(dropped),
            "chapter 13 ({lang}) lacks {dropped:?}"
        );
    }
}
