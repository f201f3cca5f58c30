//! The engine's move generator against the independent reference in `common/reference.rs`:
//! same legal move names and same resulting positions, along random games.

mod common;

use common::reference::{parse, RefPos};
use common::Rng;
use mancala_bao::{new_game, BaoGame};

fn engine_list(g: &BaoGame) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = g
        .children()
        .iter()
        .map(|(m, c)| (m.name(), c.position_string()))
        .collect();
    v.sort();
    v
}

fn ref_list(r: &RefPos) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = r
        .moves()
        .iter()
        .map(|(n, q)| (n.clone(), q.to_string_pos()))
        .collect();
    v.sort();
    v
}

/// Checks random games; returns (positions checked, positions with a takasia pit, with a
/// nyumba stop choice, with a taxed move, in the mtaji phase).
fn walk(preset: &str, kis: bool, games: usize, seed: u64) -> [usize; 5] {
    let mut rng = Rng(seed);
    let mut checked = [0; 5];
    for _ in 0..games {
        let mut g = new_game(preset, &[], None).unwrap();
        for _ply in 0..120 {
            let s = g.position_string();
            let r = parse(&s, kis);
            assert_eq!(r.to_string_pos(), s);
            let e = engine_list(&g);
            let f = ref_list(&r);
            assert_eq!(e, f, "position {s}");
            checked[0] += 1;
            checked[1] += s.contains("takasia") as usize;
            checked[2] += e.iter().any(|m| m.0.ends_with('s')) as usize;
            checked[3] += e.iter().any(|m| m.0.contains('t')) as usize;
            checked[4] += s.contains("hand=0,0") as usize;
            if e.is_empty() {
                break;
            }
            let kids = g.children();
            g = kids[rng.below(kids.len())].1.clone();
        }
    }
    checked
}

#[test]
fn kujifunza_matches_reference() {
    let c = walk("bao-kujifunza", false, 30, 0x1234_5678);
    assert!(c[0] > 100, "{c:?}");
}

#[test]
fn kiswahili_matches_reference() {
    let c = walk("bao-kiswahili", true, 60, 0x9876_5432);
    eprintln!("kiswahili coverage {c:?}");
    assert!(c.iter().all(|&k| k > 0), "{c:?}");
}
