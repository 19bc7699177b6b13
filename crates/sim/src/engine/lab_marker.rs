//! Which section of the learner's lab file an event ran. The engine writes no SQL of its own for
//! such an event, only a marker line (`-- @handle (your lab file)`); views ask here which section
//! that is, so they never depend on the marker's words.

use super::lab_accept::LAB_ACCEPT_SQL;
use super::lab_consumer::{LAB_CHECK_SQL, LAB_HANDLE_SQL};
use super::lab_dispatch::{LAB_CLAIM_SQL, LAB_PUBLISHED_SQL};
use crate::lab::Section;

/// The section of the learner's file whose statements an event with this `sql` ran; `None` for
/// the engine's own SQL.
pub fn marked_section(sql: &[&str]) -> Option<Section> {
    [
        (LAB_ACCEPT_SQL, Section::Accept),
        (LAB_CLAIM_SQL, Section::Claim),
        (LAB_PUBLISHED_SQL, Section::Published),
        (LAB_CHECK_SQL, Section::Check),
        (LAB_HANDLE_SQL, Section::Handle),
    ]
    .into_iter()
    .find(|(marker, _)| *marker == sql)
    .map(|(_, section)| section)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_marker_names_its_section_and_the_engines_own_sql_none() {
        assert_eq!(marked_section(LAB_HANDLE_SQL), Some(Section::Handle));
        assert_eq!(marked_section(LAB_CHECK_SQL), Some(Section::Check));
        assert_eq!(marked_section(LAB_ACCEPT_SQL), Some(Section::Accept));
        assert_eq!(marked_section(LAB_CLAIM_SQL), Some(Section::Claim));
        assert_eq!(marked_section(LAB_PUBLISHED_SQL), Some(Section::Published));
        assert_eq!(marked_section(&["SELECT 1 FROM inbox"]), None);
        assert_eq!(marked_section(&[]), None);
    }
}
