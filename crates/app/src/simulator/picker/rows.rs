//! What the two menus list: every scenario of the loaded content with its title, one-line
//! lesson and the chapter or decision it belongs to; every fault with what it does, where it
//! fires and whether it can still fire in the run on screen.

use super::super::{SimState, scenario_text};
use crate::Session;
use content::doc::Block;
use content::{Chapter, Decision};
use model::Fault;

/// One row of the scenario menu.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioRow {
    /// The scenario id (what `queuelab sim --scenario` takes).
    pub id: String,
    /// Its title in the session's language.
    pub title: String,
    /// Its one-line lesson.
    pub summary: String,
    /// The decision or chapter it belongs to, in words.
    pub belongs: String,
}

/// One row of the fault menu.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaultRow {
    /// The fault.
    pub fault: Fault,
    /// Its name in the session's language.
    pub name: String,
    /// What it does and at which step it fires.
    pub explanation: String,
    /// `None` while it can fire; else why it cannot any more.
    pub blocked: Option<String>,
}

/// The scenarios of the loaded content (so a `--content DIR` scenario is listed), in menu order.
pub fn scenario_rows(session: &Session) -> Vec<ScenarioRow> {
    session
        .content
        .scenarios
        .iter()
        .map(|sc| {
            let text = scenario_text(session, &sc.id);
            ScenarioRow {
                id: sc.id.clone(),
                title: text.map_or_else(|| sc.id.clone(), |t| t.title.clone()),
                summary: text.map(|t| t.summary.clone()).unwrap_or_default(),
                belongs: belongs(session, &sc.id),
            }
        })
        .collect()
}

/// "Decision 3 (chapter 9)", "Chapter 4: Technology" or "free practice": a card's own
/// scenario names its card; else the chapter that names the scenario; else the card one of
/// whose options it plays.
fn belongs(session: &Session, id: &str) -> String {
    let course = session.content.course(session.lang);
    let s = session.strings();
    let card = |d: &Decision| {
        let chapter = course
            .chapter(&d.chapter)
            .map_or_else(String::new, |c| c.number.to_string());
        s.fill(
            "simulator.belongs_decision",
            &[("decision", d.short_title()), ("n", &chapter)],
        )
    };
    if let Some(d) = course.decisions.iter().find(|d| d.scenario == id) {
        return card(d);
    }
    if let Some(c) = course.chapters.iter().find(|c| mentions(c, id)) {
        return s.fill(
            "simulator.belongs_chapter",
            &[("n", &c.number.to_string()), ("title", &c.title)],
        );
    }
    let plays = |d: &&Decision| {
        d.options
            .iter()
            .any(|o| o.run().is_some_and(|(scenario, _)| scenario == id))
    };
    course
        .decisions
        .iter()
        .find(plays)
        .map_or_else(|| s.get("simulator.belongs_none").to_owned(), card)
}

/// True when the chapter names the scenario id as code (`` `lost-ack` ``).
fn mentions(chapter: &Chapter, id: &str) -> bool {
    let hit =
        |inlines: &[content::doc::Inline]| inlines.iter().any(|i| i.style.code && i.text == id);
    chapter.blocks.iter().any(|b| match b {
        Block::Heading { text, .. } | Block::Paragraph(text) => hit(text),
        Block::List(items) => items.iter().any(|i| hit(&i.text)),
        Block::Quote(paragraphs) => paragraphs.iter().any(|p| hit(p)),
        Block::Table { header, rows } => header.iter().chain(rows.iter().flatten()).any(|c| hit(c)),
        Block::Code { .. } | Block::Rule | Block::Directive { .. } => false,
    })
}

/// The string keys of a fault's name and explanation.
pub fn fault_keys(fault: Fault) -> (&'static str, &'static str) {
    match fault {
        Fault::ApiTimeoutAfterCommit => ("fault.api_timeout", "fault.api_timeout_does"),
        Fault::BrokerDown { .. } => ("fault.broker_down", "fault.broker_down_does"),
        Fault::DispatcherCrashAfterPublish => {
            ("fault.dispatcher_crash", "fault.dispatcher_crash_does")
        }
        Fault::ConsumerLostConnectionAfterEffect => {
            ("fault.lost_connection", "fault.lost_connection_does")
        }
        Fault::ConsumerSlowerThanLock => ("fault.slower_than_lock", "fault.slower_than_lock_does"),
        Fault::DuplicateDelivery => ("fault.duplicate_delivery", "fault.duplicate_delivery_does"),
        Fault::PoisonMessage => ("fault.poison", "fault.poison_does"),
        Fault::ProviderTimeoutAfterPerform => {
            ("fault.provider_timeout", "fault.provider_timeout_does")
        }
        Fault::BlobMissing => ("fault.blob_missing", "fault.blob_missing_does"),
        Fault::BlobHashMismatch => ("fault.blob_mismatch", "fault.blob_mismatch_does"),
    }
}

/// The faults in menu order, each with why it cannot fire any more in the run on screen.
pub fn fault_rows(session: &Session, s: &SimState) -> Vec<FaultRow> {
    let strings = session.strings();
    Fault::MENU
        .iter()
        .map(|fault| {
            let (name, mut does) = fault_keys(*fault);
            // Service Bus makes no copies of its own: there the fault is a second send.
            if *fault == Fault::DuplicateDelivery && s.settings.broker == model::BrokerKind::Asb {
                does = "fault.duplicate_delivery_does_asb";
            }
            FaultRow {
                fault: *fault,
                name: strings.get(name).to_owned(),
                explanation: strings.get(does).to_owned(),
                blocked: blocked(session, s, *fault).map(|key| strings.get(key).to_owned()),
            }
        })
        .collect()
}

/// Why `fault` cannot fire any more (a string key), from the run's head and the scenario's setup.
pub fn blocked(session: &Session, s: &SimState, fault: Fault) -> Option<&'static str> {
    if s.timeline.finished {
        return Some("fault.blocked_finished");
    }
    let setup = session
        .content
        .scenarios
        .iter()
        .find(|sc| sc.id == s.scenario_id())
        .map(|sc| &sc.setup)?;
    let stages = s
        .timeline
        .head
        .as_ref()
        .map(|h| h.scalars.stages)
        .unwrap_or_default();
    let to_accept = stages.accepted < u64::from(setup.messages);
    let in_system = stages.outbox_pending + stages.dispatching + stages.queued > 0;
    let work_left = to_accept || in_system;
    let (possible, key) = match fault {
        Fault::ApiTimeoutAfterCommit | Fault::PoisonMessage => {
            (to_accept, "fault.blocked_all_accepted")
        }
        Fault::BlobMissing | Fault::BlobHashMismatch if !setup.claim_check => {
            (false, "fault.blocked_no_claim_check")
        }
        Fault::BlobMissing | Fault::BlobHashMismatch => (to_accept, "fault.blocked_all_accepted"),
        Fault::ProviderTimeoutAfterPerform if !setup.two_phase => {
            (false, "fault.blocked_no_provider")
        }
        Fault::DispatcherCrashAfterPublish => (
            to_accept || stages.outbox_pending + stages.dispatching > 0,
            "fault.blocked_nothing_to_publish",
        ),
        // On Service Bus the duplicate is a retried send: it needs a send still to come.
        Fault::DuplicateDelivery if s.settings.broker == model::BrokerKind::Asb => (
            to_accept || stages.outbox_pending + stages.dispatching > 0,
            "fault.blocked_nothing_to_publish",
        ),
        Fault::BrokerDown { .. } => (true, ""),
        Fault::ProviderTimeoutAfterPerform
        | Fault::ConsumerLostConnectionAfterEffect
        | Fault::ConsumerSlowerThanLock
        | Fault::DuplicateDelivery => (work_left, "fault.blocked_nothing_to_deliver"),
    };
    (!possible).then_some(key)
}
