//! The simulator screen driven through `App::update` with the real engine behind it.

#[path = "support/sim_harness.rs"]
mod harness;

use harness::Harness;
use queuelab::app::{Options, Screen};
use queuelab::content::Lang;

fn open(lang: Lang, w: u16, h: u16, scenario_index: usize) -> Harness {
    let mut h = Harness::new(lang, w, h, Options::default());
    h.keys("5");
    assert!(matches!(h.app.screen, Screen::Simulator(_)));
    if scenario_index > 0 {
        h.keys("c");
        for _ in 0..scenario_index {
            h.keys("j");
        }
        h.keys("\n");
    }
    h
}

#[test]
fn smoke() {
    let mut h = open(Lang::En, 80, 24, 5);
    h.repeat('>', 12);
    println!("{}", h.screen());
    h.keys("\t");
    println!("{}", h.screen());
    h.keys("\t");
    println!("{}", h.screen());
    h.keys("v");
    println!("{}", h.screen());
}
