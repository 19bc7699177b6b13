//! The SQL view of a lab's run: an event at a hook point the learner's file filled carries no
//! SQL of the engine's own; below it go that section's statements from the file as it was
//! checked, each with its `line:column`, so the learner reads their own code beside the step it
//! ran at.

use app::simulator::LabRun;

/// `line:column  statement` for each statement of the section an event's `sql` marks, from
/// `lab`'s file; nothing for an event of the engine's own SQL or a file that does not parse.
pub fn statements(lab: &LabRun, sql: &[&str]) -> Vec<String> {
    let Some(section) = sim::engine::marked_section(sql) else {
        return Vec::new();
    };
    lab.file
        .section(section)
        .map(|text| {
            text.statements
                .iter()
                .map(|st| {
                    // One line per statement: the file's own line breaks and indentation
                    // would leave holes once the view wraps it to its width.
                    let words: Vec<&str> = st.sql.split_whitespace().collect();
                    format!("{}:{}  {}", st.line, st.column, words.join(" "))
                })
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marked_event_shows_its_sections_statements_with_their_lines() {
        let lab = LabRun::new(
            "01".into(),
            1,
            "-- @schema\nCREATE TABLE t (x);\n-- @handle\nBEGIN IMMEDIATE;\n  INSERT INTO effects (order_id)\n      VALUES (:order_id);\nCOMMIT;\n".into(),
        );
        let shown = statements(&lab, &["-- @handle (your lab file)"]);
        assert_eq!(
            shown,
            [
                "4:1  BEGIN IMMEDIATE",
                "5:3  INSERT INTO effects (order_id) VALUES (:order_id)",
                "7:1  COMMIT"
            ]
        );
        assert!(
            statements(&lab, &["SELECT 1 FROM inbox"]).is_empty(),
            "the engine's own"
        );
        assert!(
            statements(&lab, &["-- @accept (your lab file)"]).is_empty(),
            "not in the file"
        );
        let broken = LabRun::new("01".into(), 1, "SELECT 1;".into());
        assert!(statements(&broken, &["-- @handle (your lab file)"]).is_empty());
    }
}
