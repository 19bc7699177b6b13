//! The lab format's bad-input paths: each broken lab folder fails with its own message.

use super::*;

const LAB_TOML: &str = r#"format_version = 1
number = 1
chapter = "inbox"
sections = ["schema", "handle"]
scenarios = ["lost-ack"]
brokers = ["asb", "sqs"]
seeds = 4
start_fails = { seed = 1, scenario = "lost-ack", broker = "asb", moment = "duplicate-effect" }

[title]
de = "Titel"
en = "Title"

[hints]
de = ["a", "b", "c"]
en = ["a", "b", "c"]
"#;

/// Writes a lab folder whose `lab.toml` is `toml` and loads it; returns the problems.
fn problems_of(toml: &str, skip: &[&str]) -> (Vec<Lab>, Vec<String>) {
    let root = tempfile::tempdir().expect("tempdir");
    let dir = root.path().join("labs/01-test");
    std::fs::create_dir_all(dir.join("wrong")).expect("mkdir");
    let files = [
        ("lab.toml", toml),
        ("brief.de.md", "# Lab"),
        ("brief.en.md", "# Lab"),
        ("start.sql", "-- @handle\nSELECT 1;"),
        ("solution.sql", "-- @handle\nSELECT 1;"),
        (
            "wrong/a.sql",
            "-- expect: duplicate-effect\n-- @handle\nSELECT 2;",
        ),
    ];
    for (name, text) in files {
        if !skip.contains(&name) {
            std::fs::write(dir.join(name), text).expect("write");
        }
    }
    let chapters = vec!["inbox".to_owned()];
    let scenarios = vec!["lost-ack".to_owned()];
    let known = Known {
        chapters: &chapters,
        scenarios: &scenarios,
    };
    let mut problems = Vec::new();
    let labs = load(
        &ContentSource::Disk(root.path().to_path_buf()),
        known,
        &mut problems,
    );
    (labs, problems.iter().map(ToString::to_string).collect())
}

fn one_problem(toml: &str, skip: &[&str], expected: &str) {
    let (labs, problems) = problems_of(toml, skip);
    assert!(labs.is_empty(), "a broken lab is not loaded");
    assert!(
        problems.iter().any(|p| p.contains(expected)),
        "expected {expected:?} in {problems:?}"
    );
}

#[test]
fn a_good_lab_loads() {
    let (labs, problems) = problems_of(LAB_TOML, &[]);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(labs[0].sections, [Section::Schema, Section::Handle]);
    assert_eq!(labs[0].wrong.len(), 1);
}

#[test]
fn a_missing_language_is_named() {
    one_problem(
        LAB_TOML,
        &["brief.de.md"],
        "labs/01-test/brief.de.md:1:1: missing file",
    );
    one_problem(
        &LAB_TOML.replace("de = \"Titel\"\n", ""),
        &[],
        "missing title in de",
    );
}

#[test]
fn a_missing_hint_level_is_named() {
    one_problem(
        &LAB_TOML.replace("de = [\"a\", \"b\", \"c\"]", "de = [\"a\", \"b\"]"),
        &[],
        "de: 3 hint levels needed, 2 given",
    );
}

#[test]
fn unknown_sections_scenarios_and_chapters_are_named() {
    one_problem(
        &LAB_TOML.replace("\"schema\", \"handle\"", "\"schema\", \"nope\""),
        &[],
        "no section @nope",
    );
    one_problem(
        &LAB_TOML.replace(
            "scenarios = [\"lost-ack\"]",
            "scenarios = [\"lost-ack\", \"nope\"]",
        ),
        &[],
        "no scenario \"nope\"",
    );
    one_problem(
        &LAB_TOML.replace("chapter = \"inbox\"", "chapter = \"nope\""),
        &[],
        "no chapter \"nope\"",
    );
    one_problem(
        &LAB_TOML.replace("brokers = [\"asb\", \"sqs\"]", "brokers = [\"kafka\"]"),
        &[],
        "no broker \"kafka\"",
    );
}

#[test]
fn a_lab_without_wrong_answers_or_with_a_bad_start_expectation_is_refused() {
    one_problem(LAB_TOML, &["wrong/a.sql"], "plausible wrong answer");
    one_problem(
        &LAB_TOML.replace("moment = \"duplicate-effect\"", "moment = \"redelivered\""),
        &[],
        "start_fails must name",
    );
    // A lab invariant is a failure a starting file may be expected to show, like a moment.
    let (labs, problems) = problems_of(
        &LAB_TOML.replace(
            "moment = \"duplicate-effect\"",
            "moment = \"poison-retried\"",
        ),
        &[],
    );
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(labs[0].start_fails.moment, "poison-retried");
    one_problem(
        &LAB_TOML.replace(
            "moment = \"duplicate-effect\"",
            "moment = \"poison-ignored\"",
        ),
        &[],
        "start_fails must name",
    );
    one_problem(
        &LAB_TOML.replace("number = 1", "number = 2"),
        &[],
        "folder named 02-slug",
    );
}

#[test]
fn every_lab_invariant_has_its_text_in_both_languages() {
    use super::LabInvariant;
    let content = crate::load(&crate::ContentSource::Embedded).expect("content");
    for lang in Lang::ALL {
        let strings = &content.course(lang).strings;
        for invariant in LabInvariant::ALL {
            assert_eq!(LabInvariant::parse(invariant.as_str()), Some(invariant));
            let key = invariant.text_key();
            assert_eq!(key.name(), format!("lab.invariant.{}", invariant.as_str()));
            let text = strings.fill(key, &[("order", "7"), ("message", "msg-7")]);
            assert!(
                text.contains("msg-7") && text.contains(invariant.as_str()),
                "{lang}: {text}"
            );
            let reason = invariant.reason_key();
            assert_eq!(reason.name(), format!("lab.reason.{}", invariant.as_str()));
            assert!(strings.lookup(reason.name()).is_some(), "{lang}: {reason}");
        }
    }
}
