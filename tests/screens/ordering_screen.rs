//! Snapshots of the ordering game's states: fresh deal, a wrong pick with its hint, halfway,
//! solved with the summary (both languages, 80x24 and an odd size).

use crate::support::sim_harness as harness;

use harness::Harness;
use queuelab::app::{Options, Screen};
use queuelab::content::Lang;

fn key_of(h: &Harness, step: usize) -> char {
    let Screen::Ordering(state) = &h.app.screen else {
        panic!("not the ordering game")
    };
    let pos = state
        .game
        .deck()
        .iter()
        .position(|s| *s == step)
        .expect("dealt");
    char::from(b'1' + pos as u8)
}

#[test]
fn ordering_game_states() {
    for (lang, w, hgt) in [(Lang::En, 80, 24), (Lang::De, 80, 24), (Lang::En, 97, 31)] {
        let mut h = Harness::new(lang, w, hgt, Options::default());
        h.keys("4");
        insta::assert_snapshot!(format!("ordering_new_{lang}_{w}x{hgt}"), h.screen());
        let wrong = key_of(&h, 5);
        h.keys(&wrong.to_string());
        insta::assert_snapshot!(format!("ordering_wrong_{lang}_{w}x{hgt}"), h.screen());
        for step in 0..3 {
            let k = key_of(&h, step);
            h.keys(&k.to_string());
        }
        insta::assert_snapshot!(format!("ordering_half_{lang}_{w}x{hgt}"), h.screen());
        for step in 3..7 {
            let k = key_of(&h, step);
            h.keys(&k.to_string());
        }
        insta::assert_snapshot!(format!("ordering_solved_{lang}_{w}x{hgt}"), h.screen());
    }
}
