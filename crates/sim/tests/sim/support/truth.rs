//! The truth checker of the simulator's texts: one finished run — its events, its moments, its
//! files — and every caption and moment checked against them. Each duration a caption states must
//! equal the interval the events record, each claim ("went to someone else", "reachable again")
//! must hold in the history, each time and count a moment names must be on record (an event, the
//! inbox row, the DLQ entry).

mod counts;
mod events;
mod kinds;
mod moment_claims;
use super::sim_run;
mod words;

use std::collections::HashMap;
use std::path::Path;

use content::Captions;
use queuelab_sim::{BrokerKind, Event, Mode, Moment, RunReport, Simulation, Story};
use rusqlite::Connection;

/// What a finished run left behind: every event, every moment, the report, the files' facts.
pub struct Run {
    pub what: String,
    /// The broker the run spoke to: its captions use that broker's words.
    pub broker: BrokerKind,
    pub events: Vec<Event>,
    pub moments: Vec<Moment>,
    pub report: RunReport,
    /// Per message id, the `received_ms` of its inbox rows.
    pub inbox_received: HashMap<String, Vec<u64>>,
    /// Per message id, the delivery counts of its DLQ entries.
    pub dlq_counts: HashMap<String, Vec<u64>>,
}

/// Runs `id` headless as `sim` does (events, facts, story) and reads its files.
pub fn run(id: &str, mode: Mode, broker: BrokerKind, seed: u64, dir: &Path) -> Run {
    let sim = sim_run::start_in(dir, sim_run::named(id), mode, broker, seed);
    let what = format!("{id} {} {} seed {seed}", mode.as_str(), broker.as_str());
    play(sim, what, |_| {})
}

/// Plays `sim` to its end, calling `operator` after every step (to fix a cause, replay the
/// DLQ, ...), and reads its files.
pub fn play(mut sim: Simulation, what: String, mut operator: impl FnMut(&mut Simulation)) -> Run {
    let mut story = Story::for_run(&sim);
    let mut events = Vec::new();
    while sim.step().expect("step").is_some() {
        let (e, facts) = sim.last_step().expect("the event just stepped");
        story.observe(e, facts);
        events.push(e.clone());
        operator(&mut sim);
    }
    story.finish();
    let report = sim.report().expect("report");
    let paths = sim.paths().clone();
    let broker = sim.profile().kind;
    drop(sim);
    let pairs = |db: &Path, sql: &str| -> Vec<(String, u64)> {
        let conn = Connection::open(db).expect("open run file");
        let mut stmt = conn.prepare(sql).expect("prepare");
        stmt.query_map([], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64))
        })
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows")
    };
    let group = |rows: Vec<(String, u64)>| {
        let mut map: HashMap<String, Vec<u64>> = HashMap::new();
        for (k, v) in rows {
            map.entry(k).or_default().push(v);
        }
        map
    };
    Run {
        what,
        broker,
        inbox_received: group(pairs(
            &paths.service_db,
            "SELECT message_id, received_ms FROM inbox",
        )),
        dlq_counts: group(pairs(
            &paths.broker_db,
            "SELECT message_id, delivery_count FROM dlq",
        )),
        events,
        moments: story.moments().to_vec(),
        report,
    }
}

/// Which checks to skip: the ones whose engine side is fixed on another branch.
#[derive(Debug, Clone, Copy, Default)]
pub struct Skip {
    /// "The broker is reachable again" while an overlapping outage still runs (the engine says it
    /// only when the last overlapping outage ends).
    pub overlapping_outage: bool,
}

/// Every falsehood in the run's captions (in `captions`, both languages) and moments.
pub fn falsehoods(run: &Run, captions: &Captions, texts: &Captions, skip: Skip) -> Vec<String> {
    let mut out = Vec::new();
    events::caption_falsehoods(run, captions, skip, &mut out);
    for m in &run.moments {
        moment_claims::moment_falsehoods(run, m, texts, &mut out);
    }
    counts::count_falsehoods(run, &mut out);
    out
}
