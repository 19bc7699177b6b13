//! The join dialog at 80x24 in German: a long join URL is shown whole (wrapped), so its start
//! (the host) stays readable, the leave dialog is titled as leaving, and a mistyped code is
//! named in German before the name is asked.

use crate::support::screen as support;

use queuelab::app::{Info, Options, WorkshopLine};
use queuelab::content::Lang;
use support::{new_app, press, screen};

const URL: &str = "https://192.168.178.20:7443/join/ABCD-1234#sha256=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

#[test]
fn a_long_join_url_is_shown_whole_and_leaving_is_titled_as_leaving() {
    let mut app = new_app(Lang::De, Options::default(), Info::default(), 80, 24);
    press(&mut app, "w");
    press(&mut app, URL);
    let shown = screen(&app);
    assert!(shown.contains("> https://192.168.178.20:7443"), "{shown}");
    insta::assert_snapshot!("join_long_url_de_80x24", shown);

    let mut joined = new_app(Lang::De, Options::default(), Info::default(), 80, 24);
    joined.session.workshop = Some(WorkshopLine {
        session: "Resilienz-Tag".into(),
        reachable: true,
        pending: 0,
    });
    press(&mut joined, "w");
    let leaving = screen(&joined);
    assert!(leaving.contains("Workshop verlassen"), "{leaving}");
    assert!(!leaving.contains("Workshop beitreten"), "{leaving}");
    insta::assert_snapshot!("join_leave_de_80x24", leaving);
}

#[test]
fn a_mistyped_code_is_named_in_german_before_the_name() {
    let mut app = new_app(Lang::De, Options::default(), Info::default(), 80, 24);
    press(&mut app, "w");
    press(&mut app, "192.168.178.20:8740 K7Q2M9O");
    press(&mut app, "\n");
    let shown = screen(&app);
    assert!(shown.contains("> 192.168.178.20:8740 K7Q2M9O"), "{shown}");
    assert!(shown.contains("Falscher Beitrittscode"), "{shown}");
    assert!(!shown.contains("Dein Name ("), "{shown}");
    insta::assert_snapshot!("join_wrong_code_de_80x24", shown);
}
