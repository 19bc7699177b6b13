use super::*;
use crate::doc_layout::DocLine;
use crate::input::{Key, KeyCode};
use crate::test_app::test_app;
use crate::{App, Msg, ShareFailure, ShareRequest};
use content::Lang;
use content::key;

fn app(map_url: Option<&str>, width: u16, height: u16) -> App {
    let mut app = test_app(Lang::En, width, height);
    app.session.map = MapSetup::new(map_url.map(str::to_owned), 8737);
    app
}

fn press(app: &mut App, c: char) -> Vec<Effect> {
    app.update(Msg::Key(Key::char(c)))
}

#[test]
fn home_opens_the_map_and_back_returns() {
    let mut a = app(Some("https://example.org/lab"), 100, 40);
    press(&mut a, '3');
    assert_eq!(a.screen, Screen::Map(MapState::default()));
    a.update(Msg::Key(Key::plain(KeyCode::Esc)));
    assert!(matches!(a.screen, Screen::Home(_)));
}

#[test]
fn s_starts_and_stops_sharing_and_the_qr_follows_the_url() {
    let mut a = app(None, 100, 40);
    press(&mut a, '3');
    assert!(a.session.map.qr().is_none(), "no URL, no code");
    assert_eq!(
        press(&mut a, 's'),
        vec![Effect::Share(ShareRequest::Start {
            port: 8737,
            lang: Lang::En
        })]
    );
    assert_eq!(a.session.map.sharing, Sharing::Starting);
    assert_eq!(
        press(&mut a, 's'),
        Vec::new(),
        "no second start while starting"
    );
    let url = "http://192.168.1.20:8737/";
    a.update(Msg::ShareStarted(Ok(url.to_owned())));
    assert_eq!(a.session.map.url(), Some(url));
    assert_eq!(a.session.map.qr(), QrMatrix::encode(url).ok().as_ref());
    assert_eq!(press(&mut a, 's'), vec![Effect::Share(ShareRequest::Stop)]);
    assert_eq!(a.session.map.sharing, Sharing::Off);
    assert!(a.session.map.qr().is_none());
}

#[test]
fn no_lan_address_is_worded_by_the_app_in_its_language() {
    let mut a = app(None, 100, 40);
    press(&mut a, '3');
    press(&mut a, 's');
    a.update(Msg::ShareStarted(Err(ShareFailure::NoLan)));
    assert_eq!(a.session.map.sharing, Sharing::Off);
    let status = a.session.status.clone().expect("a status line");
    let no_lan = a.session.strings().get(key::share::NO_LAN).to_owned();
    assert!(status.error && status.text.contains(&no_lan), "{status:?}");
}

#[test]
fn a_failed_share_says_why_and_falls_back_to_the_config_url() {
    let mut a = app(Some("https://example.org/lab"), 100, 40);
    press(&mut a, '3');
    press(&mut a, 's');
    a.update(Msg::ShareStarted(Err(ShareFailure::Bind(
        "port 8737 is taken".to_owned(),
    ))));
    assert_eq!(a.session.map.sharing, Sharing::Off);
    let status = a.session.status.clone().expect("a status line");
    assert!(status.error && status.text.contains("port 8737 is taken"));
    assert_eq!(a.session.map.url(), Some("https://example.org/lab"));
}

#[test]
fn scrolling_stays_inside_the_text() {
    let mut a = app(Some("https://example.org/lab"), 80, 24);
    press(&mut a, '3');
    press(&mut a, 'G');
    let Screen::Map(state) = a.screen else {
        panic!("map screen");
    };
    let areas = current_areas(&a.session);
    let total = lines(&a.session, usize::from(areas.text.width)).len();
    assert!(state.scroll > 0);
    assert_eq!(
        usize::from(state.scroll) + usize::from(areas.text.height),
        total
    );
    press(&mut a, 'j');
    assert_eq!(a.screen, Screen::Map(state), "no scrolling past the end");
}

#[test]
fn the_code_fits_or_the_panel_says_so() {
    let qr = QrMatrix::encode("http://192.168.178.20:8737/").expect("encodes");
    let size = qr_size(&qr, false);
    let (w, h) = needed_size(size);
    assert!(areas(w, h, Some(size)).qr_fits);
    assert!(!areas(w - 1, h, Some(size)).qr_fits);
    assert!(!areas(w, h - 1, Some(size)).qr_fits);
    assert!(
        areas(100, 40, Some(size)).qr_fits,
        "100x40 shows a LAN code"
    );
    assert!(areas(80, 24, Some(size)).qr_fits, "so does 80x24");
    assert!(
        !areas(60, 18, Some(size)).qr_fits,
        "60x18 is too small for it"
    );
    for (width, height) in [(60, 18), (61, 19), (80, 24), (100, 40), (300, 100)] {
        let a = areas(width, height, Some(size));
        for area in [a.text, a.panel] {
            assert!(
                area.x + area.width <= width && area.y + area.height <= height - 2,
                "{area:?} in {width}x{height}"
            );
        }
        if a.qr_fits {
            assert!(a.panel.width >= size.0 && a.panel.height >= size.1);
            assert!(
                a.text.x + a.text.width < a.panel.x,
                "text and code do not overlap"
            );
        }
    }
}

#[test]
fn the_text_holds_the_flow_the_checklist_and_the_runbook() {
    let a = app(None, 100, 40);
    let text: Vec<String> = lines(&a.session, 60).iter().map(DocLine::text).collect();
    let all = text.join("\n");
    assert!(all.contains("API → DB + Outbox → Dispatcher"), "{all}");
    assert!(all.contains("↳ Retry"), "{all}");
    assert!(text.iter().filter(|l| l.starts_with("[ ]")).count() == 10);
    for signal in &a.session.course().reference.runbook {
        assert!(
            all.contains(&format!("{}:", signal.name)),
            "{}",
            signal.name
        );
    }
    assert!(text.iter().all(|l| crate::doc_layout::wrap::width(l) <= 60));
}
