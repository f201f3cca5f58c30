//! Perft files: `tests/perft/<preset>.perft`. Format, one entry per line (`#` starts a
//! comment): `DEPTH COUNT POSITION`, where POSITION is `start` or a position string in the
//! crate's format (`mancala_bao::POSITION_FORMAT`), and COUNT is the number of move sequences of
//! exactly DEPTH plies (a finished game contributes no further plies). The counts were
//! computed by the independent reference generator in `tests/common/reference.rs`; this test
//! checks the engine against the file and re-checks the reference for depths up to 3.

mod common;

use common::reference::{self, RefPos};
use common::Rng;
use mancala_bao::{new_game, BaoGame};

fn perft(g: &BaoGame, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let kids = g.children();
    if depth == 1 {
        return kids.len() as u64;
    }
    kids.iter().map(|(_, c)| perft(c, depth - 1)).sum()
}

fn check_file(preset: &str, kis: bool) -> usize {
    let path = format!("{}/tests/perft/{preset}.perft", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut n = 0;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut it = line.splitn(3, ' ');
        let depth: u32 = it.next().unwrap().parse().unwrap();
        let count: u64 = it.next().unwrap().parse().unwrap();
        let pos = it.next().unwrap();
        let g = if pos == "start" {
            new_game(preset, &[], None).unwrap()
        } else {
            new_game(preset, &[], Some(pos)).unwrap()
        };
        assert_eq!(perft(&g, depth), count, "engine, {line}");
        if depth <= 3 {
            let r = if pos == "start" {
                RefPos::new_start(kis)
            } else {
                reference::parse(pos, kis)
            };
            assert_eq!(reference::perft(&r, depth), count, "reference, {line}");
        }
        n += 1;
    }
    n
}

#[test]
fn kujifunza_perft() {
    assert!(check_file("bao-kujifunza", false) >= 6);
}

#[test]
fn kiswahili_perft() {
    assert!(check_file("bao-kiswahili", true) >= 6);
}

/// Prints perft lines computed by the reference (run with `--ignored --nocapture` to
/// regenerate the files).
#[test]
#[ignore]
fn generate() {
    for (preset, kis) in [("bao-kujifunza", false), ("bao-kiswahili", true)] {
        println!("== {preset}");
        let start = RefPos::new_start(kis);
        for d in 1..=5 {
            println!("{d} {} start", reference::perft(&start, d));
        }
        let mut rng = Rng(0xBA0 + kis as u64);
        // Midgame positions: games where each side mostly picks the move that leaves the
        // opponent the most replies (random play ends games too soon), plus, for Kiswahili,
        // positions with a takasia pit and with a nyumba stop choice.
        let mut picked: Vec<RefPos> = Vec::new();
        let mut takasia = None;
        let mut stop_choice = None;
        for game in 0..40 {
            let mut r = RefPos::new_start(kis);
            for ply in 0..120 {
                let m = r.moves();
                if m.is_empty() {
                    break;
                }
                if r.takasia.is_some() && takasia.is_none() {
                    takasia = Some(r.clone());
                }
                if m.iter().any(|x| x.0.ends_with('s')) && stop_choice.is_none() {
                    stop_choice = Some(r.clone());
                }
                if game < 2 && [10, 25, 44, 52, 64, 80].contains(&ply) {
                    picked.push(r.clone());
                }
                let i = if rng.below(3) == 0 {
                    rng.below(m.len())
                } else {
                    (0..m.len()).max_by_key(|&i| m[i].1.moves().len()).unwrap()
                };
                r = m[i].1.clone();
            }
        }
        picked.extend(takasia);
        picked.extend(stop_choice);
        for r in picked {
            let s = r.to_string_pos();
            for d in 1..=4 {
                println!("{d} {} {s}", reference::perft(&r, d));
            }
        }
    }
}
