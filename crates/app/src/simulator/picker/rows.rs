//! What the two menus list: every scenario of the loaded content with its title, one-line
//! lesson and the chapter or decision it belongs to; every fault with what it does, where it
//! fires and whether it can still fire in the run on screen.

use super::super::{SimState, scenario_text};
use crate::Session;
use content::doc::Block;
use content::key;
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
            key::simulator::BELONGS_DECISION,
            &[("decision", d.short_title()), ("n", &chapter)],
        )
    };
    if let Some(d) = course.decisions.iter().find(|d| d.scenario == id) {
        return card(d);
    }
    if let Some(c) = course.chapters.iter().find(|c| mentions(c, id)) {
        return s.fill(
            key::simulator::BELONGS_CHAPTER,
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
        .map_or_else(|| s.get(key::simulator::BELONGS_NONE).to_owned(), card)
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
pub fn fault_keys(fault: Fault) -> (content::Key, content::Key) {
    match fault {
        Fault::ApiTimeoutAfterCommit => (key::fault::API_TIMEOUT, key::fault::API_TIMEOUT_DOES),
        Fault::BrokerDown { .. } => (key::fault::BROKER_DOWN, key::fault::BROKER_DOWN_DOES),
        Fault::DispatcherCrashAfterPublish => (
            key::fault::DISPATCHER_CRASH,
            key::fault::DISPATCHER_CRASH_DOES,
        ),
        Fault::ConsumerLostConnectionAfterEffect => (
            key::fault::LOST_CONNECTION,
            key::fault::LOST_CONNECTION_DOES,
        ),
        Fault::ConsumerSlowerThanLock => (
            key::fault::SLOWER_THAN_LOCK,
            key::fault::SLOWER_THAN_LOCK_DOES,
        ),
        Fault::DuplicateDelivery => (
            key::fault::DUPLICATE_DELIVERY,
            key::fault::DUPLICATE_DELIVERY_DOES,
        ),
        Fault::PoisonMessage => (key::fault::POISON, key::fault::POISON_DOES),
        Fault::ProviderTimeoutAfterPerform => (
            key::fault::PROVIDER_TIMEOUT,
            key::fault::PROVIDER_TIMEOUT_DOES,
        ),
        Fault::BlobMissing => (key::fault::BLOB_MISSING, key::fault::BLOB_MISSING_DOES),
        Fault::BlobHashMismatch => (key::fault::BLOB_MISMATCH, key::fault::BLOB_MISMATCH_DOES),
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
                does = key::fault::DUPLICATE_DELIVERY_DOES_ASB;
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
pub fn blocked(session: &Session, s: &SimState, fault: Fault) -> Option<content::Key> {
    if s.timeline.finished {
        return Some(key::fault::BLOCKED_FINISHED);
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
        Fault::BlobMissing | Fault::BlobHashMismatch if !setup.claim_check => {
            (false, key::fault::BLOCKED_NO_CLAIM_CHECK)
        }
        Fault::ApiTimeoutAfterCommit
        | Fault::PoisonMessage
        | Fault::BlobMissing
        | Fault::BlobHashMismatch => (to_accept, key::fault::BLOCKED_ALL_ACCEPTED),
        Fault::ProviderTimeoutAfterPerform if !setup.two_phase => {
            (false, key::fault::BLOCKED_NO_PROVIDER)
        }
        Fault::DispatcherCrashAfterPublish => (
            to_accept || stages.outbox_pending + stages.dispatching > 0,
            key::fault::BLOCKED_NOTHING_TO_PUBLISH,
        ),
        // On Service Bus the duplicate is a retried send: it needs a send still to come.
        Fault::DuplicateDelivery if s.settings.broker == model::BrokerKind::Asb => (
            to_accept || stages.outbox_pending + stages.dispatching > 0,
            key::fault::BLOCKED_NOTHING_TO_PUBLISH,
        ),
        Fault::BrokerDown { .. } => return None,
        Fault::ProviderTimeoutAfterPerform
        | Fault::ConsumerLostConnectionAfterEffect
        | Fault::ConsumerSlowerThanLock
        | Fault::DuplicateDelivery => (work_left, key::fault::BLOCKED_NOTHING_TO_DELIVER),
    };
    (!possible).then_some(key)
}
