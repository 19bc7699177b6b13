//! The lab file before any run: syntax errors, unknown parameters, forbidden statements and
//! misplaced side-effect functions at their line and column; and one statement run by name.

use super::*;

const OPEN: &[Section] = &[Section::Schema, Section::Check, Section::Handle];

fn err(text: &str) -> LabFileError {
    LabSql::prepare(text, OPEN).expect_err("must be refused")
}

#[test]
fn a_syntax_error_is_located_inside_its_statement() {
    let e = err("-- @handle\nSELECT 1;\nINSERT INTO inbox\n  VALUSE (1);\n");
    assert_eq!((e.line, e.column), (4, 3), "{e}");
    assert!(matches!(e.kind, LabFileErrorKind::Sql(_)));
}

#[test]
fn an_unknown_parameter_is_named_at_its_place() {
    let e = err("-- @check\nSELECT 1 FROM inbox WHERE message_id = :msg_id");
    assert_eq!((e.line, e.column), (2, 40), "{e}");
    assert!(
        matches!(e.kind, LabFileErrorKind::UnknownParameter { ref name, .. } if name == ":msg_id")
    );
    let e = err("-- @check\nSELECT ?1");
    assert!(matches!(e.kind, LabFileErrorKind::UnknownParameter { .. }));
}

#[test]
fn forbidden_statements_are_refused_before_any_run() {
    let e = err("-- @schema\nCREATE INDEX a ON inbox(id);\nATTACH 'x.db' AS x;");
    assert_eq!(e.line, 3);
    assert_eq!(e.kind, LabFileErrorKind::Forbidden("ATTACH".into()));
    let e = err("-- @handle\nPRAGMA foreign_keys = OFF");
    assert_eq!(
        e.kind,
        LabFileErrorKind::Forbidden("PRAGMA foreign_keys".into())
    );
}

#[test]
fn a_side_effect_function_outside_its_section_is_refused_at_its_place() {
    let e = err("-- @handle\nBEGIN;\nSELECT 1,\n  publish(:message_id, 'x');\nCOMMIT;");
    assert_eq!((e.line, e.column), (4, 3), "{e}");
    assert!(
        matches!(
            e.kind,
            LabFileErrorKind::FunctionNotHere {
                home: Section::Accept,
                ..
            }
        ),
        "{e}"
    );
    let e = err("-- @check\nSELECT CHARGE(:message_id, 1)");
    assert!(
        matches!(
            e.kind,
            LabFileErrorKind::FunctionNotHere {
                section: Section::Check,
                home: Section::Handle,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn later_sections_see_the_schema_and_a_good_file_prepares() {
    let text = "-- @schema\nCREATE TABLE seen (id TEXT PRIMARY KEY);\n-- @handle\nINSERT INTO seen VALUES (:message_id);";
    let lab = LabSql::prepare(text, OPEN).expect("prepares");
    assert_eq!(lab.statements(Section::Handle).len(), 1);
    assert!(!lab.has(Section::Check));
}

#[test]
fn run_statement_binds_by_name_and_reports_a_runaway() {
    let mut conn = Connection::open_in_memory().expect("db");
    let guard = Guard::install(&mut conn).expect("guard");
    let stmt = Statement {
        sql: "SELECT :message_id WHERE :message_id = 'm-1'".into(),
        line: 3,
        column: 1,
    };
    let binds = [(":message_id", Value::Text("m-1".into()))];
    assert!(run_statement(&conn, &guard, &stmt, &binds).expect("runs"));
    let runaway = Statement {
        sql: "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT max(i) FROM n"
            .into(),
        line: 7,
        column: 1,
    };
    match run_statement(&conn, &guard, &runaway, &[]) {
        Err(StatementError::Learner(e)) => {
            assert_eq!((e.line, e.kind), (7, LabFileErrorKind::TooLong));
        }
        other => panic!("expected a runaway, got {other:?}"),
    }
}
