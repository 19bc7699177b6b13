//! The queue a lab runs when the learner's `@accept` writes the messages of a scenario whose
//! order matters (lab 5). A team that sends with a session / message group has a queue made
//! for them: Service Bus with sessions, an SQS FIFO queue. A team that sends without one has a
//! plain queue: a Service Bus queue without sessions, an SQS standard queue (a FIFO queue
//! refuses a send without a `MessageGroupId`, so nobody runs one that way). The first send of
//! the run tells which of the two the team has; the queue keeps that kind for the rest of the
//! run, and a later send that does not fit it meets the broker's own answer.

use super::super::Simulation;

impl Simulation {
    /// Whether each message's session / message group is the one the learner's outbox row
    /// names (`publish()` names none).
    pub(crate) fn lab_groups_from_file(&self) -> bool {
        self.lab.as_ref().is_some_and(|l| l.groups_from_file)
    }

    /// Before a send with `group`: the first send of a run whose groups come from the lab file
    /// decides the queue's kind (sessions / FIFO with a group, a plain queue without).
    pub(crate) fn lab_queue_for_send(&mut self, group: Option<&str>) {
        let Some(l) = &mut self.lab else {
            return;
        };
        if !l.groups_from_file || l.queue_decided {
            return;
        }
        l.queue_decided = true;
        self.spec.settings.ordered = group.is_some();
    }
}
