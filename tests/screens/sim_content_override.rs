//! One source of truth: a scenario changed under a `--content DIR` copy is what the TUI
//! simulator runs. The test drives the same `SimDriver` the simulator thread uses and reads the
//! number of orders from the run's `service.db`.

use std::path::Path;
use std::sync::Arc;

use queuelab::app::simulator::{RunSpec, SimCommand, SimReply};
use queuelab::content::{ContentSource, load};
use queuelab::runtime::sim_worker::SimDriver;
use queuelab::sim::{BrokerKind, Mode};

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

fn orders_in_a_tui_run(content_dir: Option<&Path>) -> i64 {
    let source = content_dir.map_or(ContentSource::Embedded, |d| ContentSource::Disk(d.into()));
    let content = Arc::new(load(&source).expect("valid content"));
    let runs = tempfile::tempdir().expect("tempdir");
    let mut driver = SimDriver::without_stamp(runs.path(), content);
    let spec = RunSpec {
        scenario: "happy-path".into(),
        mode: Mode::Safe,
        broker: BrokerKind::Asb,
        seed: 1,
        lab: None,
    };
    let replies = driver.handle(SimCommand::Start { run: 1, spec });
    let [SimReply::Started { dir, .. }] = &replies[..] else {
        panic!("started: {replies:?}")
    };
    let dir = dir.clone();
    driver.handle(SimCommand::ToEnd { run: 1 });
    let db = rusqlite::Connection::open(Path::new(&dir).join("service.db")).expect("open");
    db.query_row("SELECT count(*) FROM orders", [], |r| r.get(0))
        .expect("count")
}

#[test]
fn a_scenario_changed_under_content_dir_is_what_the_tui_simulator_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let copy = tempfile::tempdir().expect("tempdir");
    for top in ["lessons", "quiz", "assets"] {
        copy_tree(&root.join(top), &copy.path().join(top));
    }
    let file = copy.path().join("assets/scenarios/happy-path.toml");
    let text = std::fs::read_to_string(&file).expect("read");
    assert!(
        text.contains("messages = 10"),
        "the embedded size this test changes"
    );
    std::fs::write(&file, text.replace("messages = 10", "messages = 3")).expect("write");

    assert_eq!(orders_in_a_tui_run(None), 10, "embedded: ten orders");
    assert_eq!(
        orders_in_a_tui_run(Some(copy.path())),
        3,
        "the override's three"
    );
}

#[test]
fn a_scenario_only_under_content_dir_is_in_the_picker_and_runs() {
    use queuelab::app::input::{Key, KeyCode};
    use queuelab::app::simulator::scenario_rows;
    use queuelab::app::{App, Effect, Info, Msg, Options};
    use queuelab::content::Lang;
    use queuelab::domain::Progress;

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let copy = tempfile::tempdir().expect("tempdir");
    for top in ["lessons", "quiz", "assets"] {
        copy_tree(&root.join(top), &copy.path().join(top));
    }
    let text = std::fs::read_to_string(copy.path().join("assets/scenarios/happy-path.toml"))
        .expect("read");
    let drill = text
        .replace("id = \"happy-path\"", "id = \"my-drill\"")
        .replace("position = 1\n", "position = 99\n")
        .replace("title = \"Happy path\"", "title = \"My own drill\"");
    assert!(drill.contains("position = 99") && drill.contains("My own drill"));
    std::fs::write(copy.path().join("assets/scenarios/my-drill.toml"), drill).expect("write");
    let content = Arc::new(load(&ContentSource::Disk(copy.path().into())).expect("valid content"));
    let mut app = App::new(
        content,
        Lang::En,
        Progress::default(),
        Options::default(),
        Info::default(),
    );
    app.update(Msg::Resized {
        width: 100,
        height: 30,
    });
    let rows = scenario_rows(&app.session);
    let last = rows.last().expect("rows");
    assert_eq!(
        (last.id.as_str(), last.title.as_str()),
        ("my-drill", "My own drill")
    );
    assert_eq!(rows.len(), queuelab::sim::scenario::IDS.len() + 1);
    app.update(Msg::Key(Key::char('5')));
    app.update(Msg::Key(Key::char('c')));
    app.update(Msg::Key(Key::plain(KeyCode::End)));
    let effects = app.update(Msg::Key(Key::plain(KeyCode::Enter)));
    let started = effects.iter().find_map(|e| match e {
        Effect::Sim(SimCommand::Start { spec, .. }) => Some(spec.scenario.clone()),
        _ => None,
    });
    assert_eq!(started.as_deref(), Some("my-drill"));
}
