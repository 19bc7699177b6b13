//! Facts the vendor documentation states, held in the course's own words: the AWS SDK's retry
//! count per mode, the SQS FIFO batch and its visibility clock, the FIFO DLQ's deduplication
//! id, the Base64 size of an SQS body, timestamps that restart on copies, the lock as the
//! consumer's claim, the ordering game's honest promise and the claim's wait branch in code;
//! a Service Bus processor paused from outside its handler and kept alive past its start, an
//! idempotency key scoped to its caller, and retry layers counted in attempts.

use super::inbox_retention_and_samples::csharp_blocks;
use super::moments_options_and_brokers::chapter;
use super::*;

fn file(path: &str) -> String {
    normalise(&fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).expect("file"))
}

#[test]
fn the_aws_sdk_retries_depend_on_the_retry_mode() {
    assert_groups(
        "ch. 8 (en)",
        &chapter("en", "08-outbox.md"),
        &[&["4 more in legacy mode and 2 in standard mode"]],
    );
    assert_groups(
        "ch. 8 (de)",
        &chapter("de", "08-outbox.md"),
        &[&["4 weitere im legacy-modus und 2 im standard-modus"]],
    );
}

#[test]
fn a_receive_starts_every_clock_of_its_batch() {
    assert_groups(
        "ch. 4 (en)",
        &chapter("en", "04-technology.md"),
        &[&["start their visibility timeout at the same moment"]],
    );
    assert_groups(
        "ch. 4 (de)",
        &chapter("de", "04-technology.md"),
        &[&["starten ihren visibility timeout im selben moment"]],
    );
}

#[test]
fn sqs_own_redrive_is_not_dropped_by_fifo_deduplication() {
    let captions = file("assets/sim/captions.toml");
    assert!(!captions.contains("cannot set one") && !captions.contains("kann keine setzen"));
    assert!(captions.contains("sqs's own redrive is not at risk"));
    assert!(captions.contains("der eigene redrive von sqs ist nicht gefährdet"));
}

#[test]
fn an_sqs_body_carries_the_gzip_file_as_base64() {
    assert!(file("lessons/en/decisions.toml").contains("about 23 mb on sqs"));
    assert!(file("lessons/de/decisions.toml").contains("bei sqs rund 23 mb"));
}

#[test]
fn the_brokers_age_restarts_on_every_copy() {
    for (lang, restart, drain) in [
        (
            "en",
            "both timestamps start again on every copy",
            "drain time",
        ),
        (
            "de",
            "beide zeitstempel beginnen bei jeder kopie neu",
            "abbauzeit",
        ),
    ] {
        let text = chapter(lang, "13-runbook.md");
        assert!(text.contains(restart), "{lang}");
        assert!(text.contains(drain), "{lang}");
    }
}

#[test]
fn the_lock_is_the_consumers_claim() {
    assert!(file("lessons/en/glossary.toml").contains("granted by service bus"));
    assert!(file("lessons/de/glossary.toml").contains("den service bus beim empfang"));
}

#[test]
fn the_ordering_game_promises_no_loss_but_not_no_second_effect() {
    assert!(!file("lessons/en/ordering.toml").contains("never to a loss or a second effect"));
    assert!(!file("lessons/de/ordering.toml").contains("nie zu verlust oder doppelter wirkung"));
}

/// Chapter 9 shows the two-phase claim's wait branch: a delivery that finds a claim does not
/// settle, and the unique violation of a merely claimed row is no "done".
#[test]
fn chapter_9_shows_the_claims_wait_branch_in_code() {
    for lang in ["en", "de"] {
        let path = chapters_dir(lang).join("09-inbox.md");
        let blocks = csharp_blocks(&fs::read_to_string(&path).expect("chapter 9"));
        assert!(
            blocks.iter().any(|b| b.contains("outcome.wait")
                && b.contains("changemessagevisibilityasync")
                && b.contains("continue;")),
            "{lang}: no C# sample waits on a claim"
        );
        let settles_any_violation = blocks.iter().any(|b| {
            b.contains("when (isinboxduplicate(e))")
                && !b.contains("return outcome.wait")
                && !b.contains("outcome.done : outcome.wait")
        });
        assert!(
            !settles_any_violation,
            "{lang}: a sample completes on any unique violation"
        );
    }
}

#[test]
fn the_processor_is_paused_from_outside_its_handler() {
    // StopProcessingAsync awaits the running handlers: called from one, it waits for itself.
    for (lang, chapter_says, quiz_says) in [
        (
            "en",
            [
                "a background task that watches the breaker",
                "never the handler itself",
            ],
            "never the handler itself",
        ),
        (
            "de",
            [
                "ein hintergrund-task, der den breaker beobachtet",
                "nie der handler selbst",
            ],
            "nie der handler selbst",
        ),
    ] {
        let text = chapter(lang, "12-retry-dlq.md");
        for phrase in chapter_says {
            assert!(text.contains(phrase), "ch. 12 ({lang}) lacks {phrase:?}");
        }
        assert!(file(&format!("quiz/{lang}/quiz.toml")).contains(quiz_says));
    }
}

#[test]
fn the_processor_sample_waits_before_its_scope_disposes_it() {
    for lang in ["en", "de"] {
        assert!(
            chapter(lang, "04-technology.md").contains("await task.delay(timeout.infinite, ct); }"),
            "ch. 4 ({lang}) leaves the processor's scope right after starting it"
        );
    }
}

#[test]
fn a_request_id_is_unique_per_customer_and_compared_on_reuse() {
    for (lang, compare) in [
        ("en", "compare the request's content with the stored order"),
        (
            "de",
            "vergleiche außerdem den inhalt der anfrage mit dem gespeicherten auftrag",
        ),
    ] {
        let text = chapter(lang, "02-mental-model.md");
        assert!(
            text.contains("on orders (customer_id, request_id);"),
            "ch. 2 ({lang})"
        );
        assert!(!text.contains("on orders (request_id);"), "ch. 2 ({lang})");
        assert!(text.contains(compare), "ch. 2 ({lang}) lacks {compare:?}");
    }
}

#[test]
fn retry_layers_multiply_attempts_not_retries() {
    // 3 × 3 × 10 = 90 holds for attempts; 3 retries would be 4 attempts each.
    for (lang, chapter_says, quiz_says, old) in [
        (
            "en",
            "with 3 immediate attempts per delivery",
            "3 tries per call × 3 immediate attempts per delivery × 10 deliveries = 90",
            "3 immediate retries",
        ),
        (
            "de",
            "mit 3 sofortigen versuchen pro zustellung",
            "3 versuche pro aufruf × 3 sofortige versuche pro zustellung × 10 zustellungen = 90",
            "3 sofortigen retries",
        ),
    ] {
        let text = chapter(lang, "12-retry-dlq.md");
        let quiz = file(&format!("quiz/{lang}/quiz.toml"));
        assert!(text.contains(chapter_says), "ch. 12 ({lang})");
        assert!(quiz.contains(quiz_says), "quiz ({lang})");
        assert!(
            !text.contains(old) && !quiz.contains(old),
            "{lang} says {old:?}"
        );
    }
}
