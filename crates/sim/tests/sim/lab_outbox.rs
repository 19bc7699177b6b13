//! Lab 2's particulars, the transactional outbox, checked for real: the starting file (commit,
//! then `publish`) loses an order at its publish; `publish` is refused outside `@accept` before
//! any run; a publish before a rollback, an order refused for good and an outbox row per attempt
//! are each named at their statement. What every lab must do is `lab_catalogue.rs`.

use crate::support::lab as support;

use content::Lang;
use content::key;
use queuelab_sim::MomentKind;
use queuelab_sim::lab::lab_check::broken_details;
use queuelab_sim::lab::probe::Probe;
use queuelab_sim::lab::{CheckOutcome, LabFileErrorKind, LabSql, Section};
use support::{broken, check, failed_as, lab, start_failure};

#[test]
fn the_starting_file_loses_an_order_on_its_named_seed() {
    let lab = lab(2);
    let f = start_failure(&lab);
    assert_eq!(failed_as(&f), lab.start_fails.moment);
    let moment = f.moment.as_ref().expect("a moment");
    assert_eq!(moment.kind, MomentKind::LostOrder);
    assert!(f.checker_agrees, "{:?}", f.violations);
    assert!(
        f.violations.iter().any(|v| v.contains("(lost)")),
        "{:?}",
        f.violations
    );
    // The statement that lost it: the publish the broker refused, line 10 of start.sql.
    let statement = f.statement.as_ref().expect("the statement is named");
    assert_eq!((statement.line, statement.column), (10, 1));
    assert_eq!(statement.section, Section::Accept);
    assert_eq!(statement.message_id, moment.message_id);
}

/// `publish` belongs to `@accept`: called anywhere else it is refused at its place before any
/// run, and `charge` is refused in `@accept`.
#[test]
fn publish_outside_accept_is_refused_at_its_line_and_column() {
    let all = [
        Section::Schema,
        Section::Accept,
        Section::Check,
        Section::Handle,
    ];
    let text = "-- @accept\nBEGIN IMMEDIATE;\nCOMMIT;\n-- @handle\nSELECT 1;\nSELECT :message_id,\n       publish(:message_id, 'x');\n";
    let e = LabSql::prepare(text, &all).expect_err("refused");
    assert_eq!((e.line, e.column), (7, 8), "{e}");
    assert!(
        matches!(
            e.kind,
            LabFileErrorKind::FunctionNotHere {
                section: Section::Handle,
                home: Section::Accept,
                ..
            }
        ),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("publish(:message_id, :body) can only be called in @accept"),
        "{e}"
    );
    let e =
        LabSql::prepare("-- @accept\nSELECT charge(:message_id, 1);", &all).expect_err("refused");
    assert_eq!((e.line, e.column), (2, 8), "{e}");
}

/// A publish is not undone by a rollback: the file that publishes inside its transaction breaks
/// `published-without-order` when the API crashes right after the publish (a durable point
/// inside the transaction: the message is out, the order rolls back), named at its publish
/// statement.
#[test]
fn a_message_published_before_a_rollback_breaks_published_without_order() {
    let lab = lab(2);
    let name = "publish-before-commit.sql";
    let text = &lab.wrong.iter().find(|(n, _)| n == name).expect(name).1;
    let f = broken(name, check(&lab, text));
    let breach = f.breach.as_ref().expect("a lab invariant");
    assert_eq!(breach.invariant.as_str(), "published-without-order");
    assert_eq!((breach.statement.line, breach.statement.column), (11, 1));
    assert_eq!(breach.statement.section, Section::Accept);
    let struck = f.struck.expect("a statement-level fault broke it");
    assert_eq!((struck.line, struck.column), (11, 1));
    assert!(matches!(struck.probe, Probe::Crash { .. }), "{struck:?}");
}

/// A message published for an order that was never saved is the cause the learner must see
/// first. The harm that follows in the same run is its consequence (SQLite gives the
/// rolled-back order's id to the next order, whose effect then looks like a duplicate), so
/// the check leads with the lab invariant and its `publish` statement, not with the
/// `duplicate-effect` moment; the engine's broken invariants are still listed.
#[test]
fn published_without_order_is_reported_before_the_harm_it_causes() {
    let lab = lab(2);
    let name = "publish-before-commit.sql";
    let text = &lab.wrong.iter().find(|(n, _)| n == name).expect(name).1;
    let f = broken(name, check(&lab, text));
    assert_eq!(failed_as(&f), "published-without-order", "{:?}", f.moment);
    assert!(f.moment.is_none(), "{:?}", f.moment);
    let statement = f.statement.as_ref().expect("the statement is named");
    assert_eq!((statement.line, statement.column), (11, 1));
    assert!(
        f.violations.iter().any(|v| v.contains("2 effects")),
        "{:?}",
        f.violations
    );
    let content = content::load(&content::ContentSource::Embedded).expect("content loads");
    for lang in Lang::ALL {
        let lines = broken_details(&content, lang, name, &f);
        let breach = content
            .course(lang)
            .strings
            .get(key::lab::INVARIANT_PUBLISHED_WITHOUT_ORDER);
        let lead = breach
            .split('{')
            .next()
            .expect("text before the first field");
        assert!(lines[0].starts_with(lead), "{lang}: {lines:?}");
    }
}

/// A statement that fails while the broker is up, before any order is saved, is the file's
/// own error (the file cannot run): an API that refuses every order must not pass.
#[test]
fn an_accept_that_refuses_every_order_cannot_run() {
    let lab = lab(2);
    let text = "-- @accept\nBEGIN IMMEDIATE;\nSELECT json('not json');\nCOMMIT;\n";
    match check(&lab, text) {
        CheckOutcome::CannotRun(e) => assert_eq!((e.line, e.column), (3, 1), "{e}"),
        other => panic!("must not run: {other:?}"),
    }
    let text = "-- @accept\nSELECT 1;\n";
    match check(&lab, text) {
        CheckOutcome::CannotRun(e) => {
            assert_eq!(e.kind, LabFileErrorKind::NoOrder, "{e}");
        }
        other => panic!("must not run: {other:?}"),
    }
}

/// The outbox row names the order the insert wrote, never the client's number: the run's first
/// request reaches the API only on its retry, so the numbers part, and a row naming the client's
/// number is refused at its statement (its order does not exist yet) before any run passes.
#[test]
fn an_outbox_row_naming_the_clients_number_is_refused_at_its_statement() {
    let lab = lab(2);
    let text = "-- @accept\nBEGIN IMMEDIATE;\n\
                INSERT INTO orders (request_id, customer, amount_cents, created_ms)\n\
                VALUES (:request_id, :customer, :amount_cents, :now_ms)\n\
                ON CONFLICT (request_id) DO NOTHING;\n\
                INSERT INTO outbox (message_id, order_id, body, created_ms)\n\
                SELECT :message_id, :order_id, :body, :now_ms WHERE changes() = 1;\n\
                COMMIT;\n";
    match check(&lab, text) {
        CheckOutcome::CannotRun(e) => {
            assert_eq!((e.line, e.column), (6, 1), "{e}");
            assert!(e.to_string().contains("FOREIGN KEY"), "{e}");
        }
        other => panic!("must not pass: {other:?}"),
    }
}

/// A client retry carries a new message id: an outbox row written on every attempt sends the
/// order a second message, and the failure names that insert, after the crash that made the
/// client retry.
#[test]
fn an_outbox_row_on_every_attempt_is_a_second_message_named_at_its_insert() {
    let lab = lab(2);
    let text = "-- @accept\nBEGIN IMMEDIATE;\n\
                INSERT INTO orders (request_id, customer, amount_cents, created_ms)\n\
                VALUES (:request_id, :customer, :amount_cents, :now_ms)\n\
                ON CONFLICT (request_id) DO NOTHING;\n\
                INSERT INTO outbox (message_id, order_id, body, created_ms)\n\
                SELECT :message_id, id, :body, :now_ms FROM orders WHERE request_id = :request_id\n\
                ON CONFLICT (message_id) DO NOTHING;\n\
                COMMIT;\n";
    let f = broken("every attempt", check(&lab, text));
    assert_eq!(failed_as(&f), "duplicate-effect");
    assert!(f.checker_agrees, "{:?}", f.violations);
    let statement = f.statement.as_ref().expect("the statement is named");
    assert_eq!((statement.section, statement.line), (Section::Accept, 6));
    let struck = f.struck.as_ref().expect("a crash made the client retry");
    assert!(
        matches!(
            struck.probe,
            Probe::Crash {
                client_retry: true,
                ..
            }
        ),
        "{struck:?}"
    );
}
