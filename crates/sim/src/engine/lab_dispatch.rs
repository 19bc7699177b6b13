//! The dispatcher's claim and mark, with the engine's own SQL or, in a lab that opens them, the
//! learner's `@claim` and `@published` (lab 3). Both run on the dispatcher's own connection;
//! what they left in the outbox row (lease owner, lease end, attempts, published time) is read
//! back for the picture, so the screen shows the learner's lease, not the engine's. Releasing a
//! batch while the broker is down and giving a row up stay the engine's own SQL.
//!
//! A claim is the rows its last statement with result columns returned (a `RETURNING` or a
//! `SELECT`; `BEGIN` and `COMMIT` around it return none). A row claimed while another live
//! dispatcher's claim on it is still valid breaks `two-dispatchers-one-row` once it is published: the
//! outbox promises at least once after a crash, never two live dispatchers on one row.

use std::sync::Arc;

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension};

use super::action::Claimed;
use super::lab_probe::Boundary;
use super::outbox::{claim, mark, owner};
use super::{SimError, Simulation, SqlContext};
use crate::lab::hooks::{Returned, StatementError, query_statement, run_statement};
use crate::lab::probe::Strike;
use crate::lab::{LabFileError, LabFileErrorKind, Section, Statement, TrailEntry};
use crate::model::Actor;

mod rival;
mod watch;

/// What an event of the learner's `@claim` shows in the SQL view.
pub(crate) const LAB_CLAIM_SQL: &[&str] = &["-- @claim (your lab file)"];
/// The same for `@published`.
pub(crate) const LAB_PUBLISHED_SQL: &[&str] = &["-- @published (your lab file)"];

const SQL_ROW_STATE: &str =
    "SELECT lease_owner, lease_until_ms, attempts, published_ms FROM outbox WHERE id = ?1";

/// An outbox row's dispatcher columns as text for the picture ("" for NULL).
#[derive(Debug, Clone, Default)]
pub(crate) struct RowState {
    pub owner: String,
    pub until: String,
    pub attempts: String,
    pub published: String,
}

fn row_state(conn: &Connection, id: i64) -> rusqlite::Result<RowState> {
    let text = |v: Value| match v {
        Value::Integer(n) => n.to_string(),
        Value::Text(t) => t,
        Value::Real(r) => r.to_string(),
        Value::Null | Value::Blob(_) => String::new(),
    };
    conn.prepare_cached(SQL_ROW_STATE)?
        .query_row([id], |r| {
            Ok(RowState {
                owner: text(r.get(0)?),
                until: text(r.get(1)?),
                attempts: text(r.get(2)?),
                published: text(r.get(3)?),
            })
        })
        .optional()
        .map(Option::unwrap_or_default)
}

fn int(n: u64) -> Value {
    Value::Integer(i64::try_from(n).unwrap_or(i64::MAX))
}

/// A statement's failure as a reason the file cannot run, at the statement.
fn cannot_run(stmt: &Statement, e: StatementError) -> SimError {
    SimError::Lab(match e {
        StatementError::Learner(e) => e,
        StatementError::Runtime(e) => LabFileError {
            line: stmt.line,
            column: stmt.column,
            kind: LabFileErrorKind::Sql(e.to_string()),
        },
    })
}

/// Rolls back what a failed section left open (best effort: the run stops with the file's
/// error anyway); without a failure, the section ended with a transaction open, at `line`.
fn end_of_section(conn: &Connection, line: usize, failed: Option<SimError>) -> SimError {
    if !conn.is_autocommit() {
        let _ = conn.execute_batch("ROLLBACK");
    }
    failed.unwrap_or(SimError::Lab(LabFileError {
        line,
        column: 1,
        kind: LabFileErrorKind::OpenTransaction,
    }))
}

/// The batch from the rows of `@claim`'s last statement with columns, by column name.
fn read_batch(stmt: &Statement, returned: &Returned) -> Result<Vec<Claimed>, SimError> {
    let shape = |column: &str| {
        SimError::Lab(LabFileError {
            line: stmt.line,
            column: stmt.column,
            kind: LabFileErrorKind::ClaimShape(column.to_owned()),
        })
    };
    let mut at = Vec::new();
    for name in Section::Claim.returned_columns() {
        let i = (returned.columns.iter())
            .position(|c| c.eq_ignore_ascii_case(name))
            .ok_or_else(|| shape(name))?;
        at.push((*name, i));
    }
    let integer = |row: &[Value], (name, i): (&str, usize)| match &row[i] {
        Value::Integer(n) => Ok(*n),
        _ => Err(shape(name)),
    };
    let text = |row: &[Value], (name, i): (&str, usize)| match &row[i] {
        Value::Text(t) => Ok(Some(t.clone())),
        Value::Null if name == "group_id" => Ok(None),
        _ => Err(shape(name)),
    };
    let mut batch = Vec::with_capacity(returned.rows.len());
    for row in &returned.rows {
        batch.push(Claimed {
            id: integer(row, at[0])?,
            message_id: text(row, at[1])?.unwrap_or_default(),
            order_id: integer(row, at[2])?,
            body: text(row, at[3])?.unwrap_or_default(),
            group_id: text(row, at[4])?,
        });
    }
    // The outbox order, whatever order RETURNING gave.
    batch.sort_by_key(|c| c.id);
    batch.dedup_by_key(|c| c.id);
    Ok(batch)
}

impl Simulation {
    /// Whether the lab's `@claim` claims for the dispatchers.
    pub(crate) fn lab_claims(&self) -> bool {
        self.lab
            .as_ref()
            .is_some_and(|l| l.sql.opens(Section::Claim))
    }

    /// Whether the lab's `@published` marks for the dispatchers.
    pub(crate) fn lab_marks(&self) -> bool {
        (self.lab.as_ref()).is_some_and(|l| l.sql.opens(Section::Published))
    }

    pub(super) fn dispatch_entry(
        &self,
        d: u8,
        message_id: &str,
        section: Section,
        stmt: &Statement,
    ) -> TrailEntry {
        TrailEntry {
            at_ms: self.clock.now,
            message_id: message_id.to_owned(),
            instance: owner(d),
            section,
            line: stmt.line,
            column: stmt.column,
        }
    }

    /// Dispatcher `d` claims up to `batch` rows until now + `lease_ms`: the rows and what the
    /// claim left in each.
    pub(crate) fn claim_rows(
        &mut self,
        d: u8,
        lease_ms: u64,
        batch: u32,
    ) -> Result<Vec<(Claimed, RowState)>, SimError> {
        let actor = Actor::Dispatcher(d);
        let i = usize::from(d);
        let now = self.clock.now;
        if !self.lab_claims() {
            let rows = claim(&self.conns.dispatchers[i], &owner(d), now, lease_ms, batch)
                .ctx(actor, "claim outbox rows")?;
            let until = (now + lease_ms).to_string();
            return Ok(rows
                .into_iter()
                .map(|(c, attempts)| {
                    let state = RowState {
                        owner: owner(d),
                        until: until.clone(),
                        attempts: attempts.to_string(),
                        published: String::new(),
                    };
                    (c, state)
                })
                .collect());
        }
        let Some(lab) = &self.lab else {
            return Ok(Vec::new());
        };
        let sql = Arc::clone(&lab.sql);
        let guard = lab.dispatch_guards[i].clone();
        let binds = [
            (":dispatcher", Value::Text(owner(d))),
            (":now_ms", int(now)),
            (":lease_ms", int(lease_ms)),
            (":batch", Value::Integer(i64::from(batch))),
        ];
        let mut last = None;
        let mut rival = Vec::new();
        let statements = sql.statements(Section::Claim);
        for (index, stmt) in statements.iter().enumerate() {
            let conn = &self.conns.dispatchers[i];
            let boundary = Boundary::before(conn, index, statements.len());
            match query_statement(conn, &guard, stmt, &binds) {
                Ok(r) if r.columns.is_empty() => {}
                Ok(r) => last = Some((stmt, r)),
                Err(e) => return Err(end_of_section(conn, 0, Some(cannot_run(stmt, e)))),
            }
            let kinds = boundary.after(&self.conns.dispatchers[i], stmt);
            match self.lab_boundary(Section::Claim, index, kinds) {
                None => {}
                Some(Strike::Crash { .. }) => {
                    self.lab_dispatcher_crash(d);
                    return Ok(Vec::new());
                }
                Some(Strike::Compete) => rival = self.lab_rival_claim(d, lease_ms, batch)?,
            }
        }
        let conn = &self.conns.dispatchers[i];
        if !conn.is_autocommit() {
            return Err(end_of_section(conn, sql.section_line(Section::Claim), None));
        }
        let Some((stmt, returned)) = last else {
            return Err(SimError::Lab(LabFileError {
                line: sql.section_line(Section::Claim),
                column: 1,
                kind: LabFileErrorKind::ClaimShape("id".into()),
            }));
        };
        let claimed = read_batch(stmt, &returned)?;
        self.count_claims(stmt, &claimed)?;
        let conn = &self.conns.dispatchers[i];
        let mut rows = Vec::with_capacity(claimed.len());
        for c in claimed {
            let state = row_state(conn, c.id).ctx(actor, "read the claimed row")?;
            rows.push((c, state));
        }
        self.note_claim(d, lease_ms, stmt, &rows);
        self.note_rival(d, Section::Claim, stmt, &rows, &rival);
        Ok(rows)
    }

    /// Dispatcher `d` marks `batch` published: how many rows were marked, and each row's
    /// state afterwards (a row the learner's mark left unpublished has an empty `published`;
    /// the engine's picture shows its whole batch published, as the broker has it).
    pub(crate) fn mark_rows(
        &mut self,
        d: u8,
        batch: &[Claimed],
    ) -> Result<(usize, Vec<(i64, RowState)>), SimError> {
        let actor = Actor::Dispatcher(d);
        let i = usize::from(d);
        let now = self.clock.now;
        if !self.lab_marks() {
            let ids: Vec<i64> = batch.iter().map(|c| c.id).collect();
            let marked = mark(&self.conns.dispatchers[i], &owner(d), &ids, now)
                .ctx(actor, "mark published")?;
            let state = RowState {
                published: now.to_string(),
                ..RowState::default()
            };
            let states = ids.into_iter().map(|id| (id, state.clone())).collect();
            return Ok((marked, states));
        }
        let Some(lab) = &self.lab else {
            return Ok((0, Vec::new()));
        };
        let sql = Arc::clone(&lab.sql);
        let guard = lab.dispatch_guards[i].clone();
        let mut out = Vec::with_capacity(batch.len());
        for c in batch {
            let binds = [
                (":dispatcher", Value::Text(owner(d))),
                (":outbox_id", Value::Integer(c.id)),
                (":message_id", Value::Text(c.message_id.clone())),
                (":now_ms", int(now)),
            ];
            // The statement after which the row first reads as published wrote the mark.
            let mut wrote = None;
            let statements = sql.statements(Section::Published);
            for (index, stmt) in statements.iter().enumerate() {
                let conn = &self.conns.dispatchers[i];
                let boundary = Boundary::before(conn, index, statements.len());
                if let Err(e) = run_statement(conn, &guard, stmt, &binds) {
                    return Err(end_of_section(conn, 0, Some(cannot_run(stmt, e))));
                }
                if wrote.is_none()
                    && !row_state(conn, c.id)
                        .ctx(actor, "read the row")?
                        .published
                        .is_empty()
                {
                    wrote = Some(stmt);
                }
                let kinds = boundary.after(&self.conns.dispatchers[i], stmt);
                match self.lab_boundary(Section::Published, index, kinds) {
                    None => {}
                    Some(Strike::Crash { .. }) => {
                        self.lab_dispatcher_crash(d);
                        let state = row_state(&self.conns.dispatchers[i], c.id)
                            .ctx(actor, "read the marked row")?;
                        out.push((c.id, state));
                        return Ok(self.marked_so_far(out));
                    }
                    Some(Strike::Compete) => {
                        let rival = self.lab_rival_claim(d, 0, u32::MAX)?;
                        let held = [(c.clone(), RowState::default())];
                        self.note_rival(d, Section::Published, stmt, &held, &rival);
                        // Published already: the rival's copy is a second publish of a row
                        // the first dispatcher still holds.
                        self.lab_note_published(d, std::slice::from_ref(c));
                    }
                }
            }
            let conn = &self.conns.dispatchers[i];
            if !conn.is_autocommit() {
                return Err(end_of_section(
                    conn,
                    sql.section_line(Section::Published),
                    None,
                ));
            }
            let state = row_state(conn, c.id).ctx(actor, "read the marked row")?;
            if let (Some(stmt), false) = (wrote, state.published.is_empty()) {
                let entry = self.dispatch_entry(d, &c.message_id, Section::Published, stmt);
                if let Some(l) = &mut self.lab {
                    l.trail.entries.push(entry);
                }
            }
            out.push((c.id, state));
        }
        Ok(self.marked_so_far(out))
    }

    /// How many of `out` are marked, with `out`.
    #[allow(clippy::unused_self)] // beside the marks it counts
    fn marked_so_far(&self, out: Vec<(i64, RowState)>) -> (usize, Vec<(i64, RowState)>) {
        let marked = out
            .iter()
            .filter(|(_, st)| !st.published.is_empty())
            .count();
        (marked, out)
    }
}
