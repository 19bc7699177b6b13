//! One send is bounded below the dispatcher's lease (the clients retry a send themselves), a broker
//! never rejects a duplicate send (it drops the copy), a Service Bus window of days can still drop
//! a late replay, and change data capture in SQL Server publishes nothing by itself.

use super::moments_options_and_brokers::chapter;
use super::*;

fn quiz(lang: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("quiz/{lang}/quiz.toml"));
    normalise(&fs::read_to_string(path).expect("quiz"))
}

#[test]
fn one_send_is_bounded_below_the_dispatchers_lease() {
    for lang in ["en", "de"] {
        let text = chapter(lang, "08-outbox.md");
        for needle in ["trytimeout", "maxretries", "60"] {
            assert!(text.contains(needle), "{lang} ch. 8 must name {needle}");
        }
        assert!(
            !text.contains("keeps a pass shorter than the lease")
                && !text.contains("bleibt er auch bei einem ausgefallenen broker kürzer"),
            "{lang} ch. 8 promises a short pass without bounding one send"
        );
    }
}

#[test]
fn a_broker_never_rejects_a_duplicate_send() {
    let en = quiz("en");
    let de = quiz("de");
    assert!(!en.contains("only with duplicate detection switched on and within its window."));
    assert!(en.contains("silently drops the copy"));
    assert!(de.contains("verwirft die kopie stillschweigend"));
}

#[test]
fn a_late_replay_can_still_fall_inside_a_long_window() {
    assert!(!chapter("en", "05-transport-choice.md").contains("falls outside every window"));
    assert!(!chapter("de", "05-transport-choice.md").contains("außerhalb jedes fensters"));
}

#[test]
fn sql_servers_cdc_publishes_nothing_by_itself() {
    assert!(chapter("en", "08-outbox.md").contains("cdc itself publishes nothing"));
    assert!(chapter("de", "08-outbox.md").contains("cdc selbst veröffentlicht nichts"));
}
