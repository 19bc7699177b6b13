//! The story panel's state: the moments of the run so far, the jump to a
//! moment's cause and back, and "next moment". Pure: indexes only, the pictures come from the
//! engine thread like every other step.

use model::Moment;

/// What the story remembers for the simulator screen.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StoryState {
    /// Every moment of the run so far, in the order they became visible.
    pub moments: Vec<Moment>,
    /// After a jump to a cause: where the learner came from (`None` = the head of the run).
    pub came_from: Option<Option<u64>>,
    /// The moment the learner jumped from (its explanation stays in the panel at the cause).
    pub jumped: Option<usize>,
}

impl StoryState {
    /// Takes in the moments an engine reply carries (the reply after a restart carries all).
    pub fn extend(&mut self, moments: &[Moment]) {
        self.moments.extend_from_slice(moments);
    }

    /// The moment the panel explains at event `shown`: after a jump the moment jumped from,
    /// else the newest moment made visible at or before `shown`.
    pub fn current(&self, shown: Option<u64>) -> Option<&Moment> {
        if let Some(i) = self.jumped {
            return self.moments.get(i);
        }
        let shown = shown?;
        self.moments.iter().rev().find(|m| m.event <= shown)
    }

    /// True when the story panel explains a moment instead of showing the shown event's
    /// caption: at the moment's own event, or at its cause after a jump.
    pub fn explains(&self, shown: Option<u64>) -> bool {
        self.current(shown)
            .is_some_and(|m| shown == Some(m.event) || self.came_from.is_some())
    }

    /// Position of [`StoryState::current`] in the list (for "moment 2 of 5").
    pub fn position(&self, shown: Option<u64>) -> Option<usize> {
        let current = self.current(shown)?;
        self.moments.iter().position(|m| m == current)
    }

    /// The first moment after event `shown` that is already known.
    pub fn next_after(&self, shown: Option<u64>) -> Option<&Moment> {
        self.moments
            .iter()
            .find(|m| shown.is_none_or(|s| m.event > s))
    }

    /// The last moment before event `shown` (`None`: the head, event `head`).
    pub fn prev_before(&self, shown: Option<u64>, head: Option<u64>) -> Option<&Moment> {
        let before = shown.or(head)?;
        self.moments.iter().rev().find(|m| m.event < before)
    }

    /// The jump key: from a moment to its cause (remembering where we were), or back again.
    /// Returns the event to show (`None` inside the result = back to the head), or nothing to do.
    pub fn toggle_jump(&mut self, cursor: Option<u64>, shown: Option<u64>) -> Option<Option<u64>> {
        if let Some(back) = self.came_from.take() {
            self.jumped = None;
            return Some(back);
        }
        let i = self.position(shown)?;
        let cause = self.moments[i].cause_event;
        self.came_from = Some(cursor);
        self.jumped = Some(i);
        Some(Some(cause))
    }

    /// Any other move of the time cursor ends a jump.
    pub fn forget_jump(&mut self) {
        self.came_from = None;
        self.jumped = None;
    }

    /// True when a known moment became visible exactly at event `index`.
    pub fn at(&self, index: u64) -> bool {
        self.moments.iter().any(|m| m.event == index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::MomentKind;

    fn moment(event: u64, cause: u64) -> Moment {
        Moment {
            kind: MomentKind::DuplicateEffect,
            at_ms: event * 10,
            event,
            cause_event: cause,
            cause_ms: cause * 10,
            order: 3,
            message_id: "msg-000003".into(),
            text: "moment.duplicate-effect.other",
            args: Vec::new(),
        }
    }

    #[test]
    fn the_panel_explains_the_newest_moment_up_to_the_cursor() {
        let mut s = StoryState::default();
        s.extend(&[moment(10, 4), moment(20, 12)]);
        assert_eq!(s.current(Some(5)), None);
        assert_eq!(s.current(Some(10)).map(|m| m.event), Some(10));
        assert_eq!(s.current(Some(25)).map(|m| m.event), Some(20));
        assert_eq!(s.next_after(Some(10)).map(|m| m.event), Some(20));
        assert_eq!(s.next_after(Some(20)), None);
    }

    #[test]
    fn jump_goes_to_the_cause_and_back_to_where_it_started() {
        let mut s = StoryState::default();
        s.extend(&[moment(10, 4)]);
        assert_eq!(s.toggle_jump(None, Some(15)), Some(Some(4)));
        // At the cause the panel still explains the moment we came from.
        assert_eq!(s.current(Some(4)).map(|m| m.event), Some(10));
        assert_eq!(s.toggle_jump(Some(4), Some(4)), Some(None));
        assert_eq!(s.current(Some(3)), None);
        assert_eq!(s.toggle_jump(None, Some(3)), None, "no moment, no jump");
    }
}
