//! What the operator sees of a dead-lettered message during triage.

/// One DLQ entry for triage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DlqEntry {
    /// DLQ sequence number.
    pub seq: i64,
    /// The message.
    pub message_id: String,
    /// Dead-letter reason.
    pub reason: String,
    /// The last error seen.
    pub description: String,
    /// Deliveries before it was dead-lettered.
    pub delivery_count: i64,
}
