//! The host database's schema, one migration per step; a database records how many it has run.

pub(super) const MIGRATIONS: &[&str] = &[
    // 1: session, trainees, the event inbox and counters.
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
     CREATE TABLE trainee (id TEXT PRIMARY KEY, name TEXT NOT NULL, token_hash TEXT NOT NULL,
         first_seen_ms INTEGER NOT NULL);
     CREATE TABLE event (seq INTEGER PRIMARY KEY, event_id TEXT NOT NULL,
         trainee_id TEXT NOT NULL REFERENCES trainee (id), body TEXT NOT NULL,
         received_ms INTEGER NOT NULL);
     CREATE UNIQUE INDEX event_inbox ON event (event_id);
     CREATE TABLE counter (name TEXT PRIMARY KEY, value INTEGER NOT NULL);",
    // 2: the instructor's pacing commands, in the order sent.
    "CREATE TABLE pace (id INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, body TEXT NOT NULL);",
    // 3: an event id is unique per trainee, not per session: another trainee's leaked id can
    // no longer make one trainee's event pass for a duplicate. (Every row met the old index,
    // so it meets the new one.)
    "DROP INDEX event_inbox;
     CREATE UNIQUE INDEX event_inbox ON event (trainee_id, event_id);",
    // 4: the instructor removes a trainee: their events go, the row stays as a mark so the
    // same id and token cannot come back.
    "ALTER TABLE trainee ADD COLUMN removed_ms INTEGER;",
    // 5: the instructor acknowledged a trainee's stuck signal (its sequence number), so the
    // acknowledgement survives a restart and the trainee can be told.
    "CREATE TABLE stuck_ack (trainee_id TEXT PRIMARY KEY REFERENCES trainee (id) ON DELETE CASCADE,
         stuck_n INTEGER NOT NULL);",
    // 6: when the host last heard from each trainee's client, so a restart or a rebuilt
    // summary still knows who is active.
    "ALTER TABLE trainee ADD COLUMN contact_ms INTEGER NOT NULL DEFAULT 0;",
    // 7: the trainee's answer to the instructor-copy question of their newest report mailed
    // through the host (NULL: none mailed), for the export.
    "ALTER TABLE trainee ADD COLUMN instructor_copy INTEGER;",
];
