//! Property tests: arbitrary positions, option strings and move names never panic, and every
//! listed move is accepted.

mod common;

use common::Rng;
use mancala_bao::{best_move_timed, new_game};
use mancala_rules::Playable;
use proptest::prelude::*;

fn position() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(0u8..6, 32),
        0u8..12,
        0u8..12,
        any::<bool>(),
        any::<(bool, bool)>(),
        prop::option::of(1u8..9),
    )
        .prop_map(|(pits, hs, hn, north, ny, tk)| {
            let mut v: Vec<String> = pits.iter().map(|p| p.to_string()).collect();
            v.push(format!("hand={hs},{hn}"));
            v.push(if north { "north" } else { "south" }.to_string());
            v.push(format!("nyumba={}{}", ny.0 as u8, ny.1 as u8));
            if let Some(t) = tk {
                v.push(format!("takasia=a{t}"));
            }
            v.join(" ")
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn arbitrary_positions_play_out(p in position(), seed in any::<u64>(), wiki in any::<bool>()) {
        let opts: Vec<String> = if wiki { vec!["wikipedia".into()] } else { vec![] };
        // Too many seeds is an error, not a panic.
        let Ok(mut g) = new_game("bao-kiswahili", &opts, Some(&p)) else { return Ok(()); };
        let mut rng = Rng(seed | 1);
        for _ in 0..30 {
            let names = g.legal();
            let _ = g.draw();
            if names.is_empty() {
                prop_assert!(g.is_over());
                break;
            }
            let mv = names[rng.below(names.len())].clone();
            prop_assert!(g.play(&mv).is_ok());
        }
    }

    #[test]
    fn arbitrary_kujifunza_positions(pits in prop::collection::vec(0u8..3, 32), north in any::<bool>()) {
        let mut v: Vec<String> = pits.iter().map(|p| p.to_string()).collect();
        v.push(if north { "north".into() } else { "south".into() });
        let g = new_game("bao-kujifunza", &[], Some(&v.join(" "))).unwrap();
        for mv in g.legal() {
            let mut c = g.clone();
            prop_assert!(c.play(&mv).is_ok());
        }
        if let Some((mv, _)) = best_move_timed(&g, 5) {
            prop_assert!(g.legal().contains(&mv));
        }
    }

    #[test]
    fn arbitrary_strings_do_not_panic(s in ".{0,80}", mv in ".{0,8}", opt in ".{0,20}") {
        let _ = new_game("bao-kiswahili", std::slice::from_ref(&opt), None);
        let _ = new_game("bao-kujifunza", &[opt], Some(&s));
        let _ = new_game("bao-kiswahili", &[], Some(&s));
        let mut g = new_game("bao-kiswahili", &[], None).unwrap();
        let _ = g.play(&mv);
    }
}
