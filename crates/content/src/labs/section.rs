//! The hook points a lab file can fill, and the named parameters each one receives (the one
//! source of truth: the parser checks against it and the briefs document it).

/// A hook point of the engine that learner SQL can take over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Section {
    /// DDL run once after the base schema (instead of the mode's inbox index).
    Schema,
    /// The API's write of an order (lab 2 and later).
    Accept,
    /// The dispatcher's claim of outbox rows (lab 3 and later).
    Claim,
    /// The dispatcher's mark after a publish (lab 3 and later).
    Published,
    /// The consumer's existence check right after a receive; a returned row means "already
    /// processed" and the message is settled as a duplicate.
    Check,
    /// The consumer's work per delivery, after its handling time.
    Handle,
}

impl Section {
    /// Every section, in the order a lab file lists them.
    pub const ALL: [Section; 6] = [
        Section::Schema,
        Section::Accept,
        Section::Claim,
        Section::Published,
        Section::Check,
        Section::Handle,
    ];

    /// The spelling after `-- @`.
    pub fn as_str(self) -> &'static str {
        match self {
            Section::Schema => "schema",
            Section::Accept => "accept",
            Section::Claim => "claim",
            Section::Published => "published",
            Section::Check => "check",
            Section::Handle => "handle",
        }
    }

    /// Parses the spelling after `-- @`.
    pub fn parse(name: &str) -> Option<Section> {
        Section::ALL.into_iter().find(|s| s.as_str() == name)
    }

    /// The named parameters the engine binds in this section.
    pub fn parameters(self) -> &'static [&'static str] {
        match self {
            Section::Schema => &[],
            Section::Accept => &[
                ":order_id",
                ":request_id",
                ":customer",
                ":amount_cents",
                ":message_id",
                ":body",
                ":now_ms",
            ],
            Section::Claim => &[":dispatcher", ":now_ms", ":lease_ms", ":batch"],
            Section::Published => &[":dispatcher", ":outbox_id", ":message_id", ":now_ms"],
            Section::Check => &[":message_id", ":consumer", ":instance", ":now_ms"],
            Section::Handle => &[
                ":message_id",
                ":order_id",
                ":consumer",
                ":instance",
                ":now_ms",
                ":business_key",
                ":amount_cents",
                ":delivery_count",
                ":schema_version",
                ":payload_error",
            ],
        }
    }

    /// The named parameters a scenario sets for the designs that need them (how long a
    /// two-phase claim holds before another delivery may take it over): bound in every run,
    /// documented in the brief of the lab whose design uses them.
    pub fn scenario_parameters(self) -> &'static [&'static str] {
        match self {
            Section::Check | Section::Handle => &[":claim_lease_ms"],
            _ => &[],
        }
    }

    /// Whether the engine binds the parameter `name` (with its colon) in this section.
    pub fn binds(self, name: &str) -> bool {
        self.parameters().contains(&name) || self.scenario_parameters().contains(&name)
    }

    /// The columns the rows of the section's last statement must have: the engine reads
    /// its batch from them (`@claim`'s `RETURNING`). Empty for sections whose rows mean
    /// nothing or only "a row came back" (`@check`).
    pub fn returned_columns(self) -> &'static [&'static str] {
        match self {
            Section::Claim => &["id", "message_id", "order_id", "body", "group_id"],
            _ => &[],
        }
    }

    /// The side-effect functions learner SQL may call in this section, as the brief writes
    /// them: calls outside the database, recorded during a statement and applied by the
    /// engine right after it, so a rollback does not undo them.
    pub fn functions(self) -> &'static [&'static str] {
        match self {
            Section::Accept => &["publish(:message_id, :body)"],
            Section::Handle => &["charge(:key, :amount)", "dead_letter(:reason)"],
            _ => &[],
        }
    }

    /// The section whose [`Section::functions`] offer the function called `name` (without
    /// its parameters), `None` for a name that is no side-effect function.
    pub fn home_of(name: &str) -> Option<Section> {
        Section::ALL.into_iter().find(|s| {
            s.functions()
                .iter()
                .any(|f| f.split('(').next() == Some(name))
        })
    }

    /// The most statements one section may hold: a handler is a few statements, and a bound
    /// keeps a pasted script from turning a check into a batch job.
    pub const MAX_STATEMENTS: usize = 20;
}
