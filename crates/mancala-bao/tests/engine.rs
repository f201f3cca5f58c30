//! The alpha-beta player: legal moves, finds wins, beats a random player.

mod common;

use common::Rng;
use mancala_bao::{best_move, best_move_timed, new_game, BaoGame};

/// Random games from the start, yielding every position along the way.
fn positions(preset: &str, games: usize, seed: u64) -> Vec<BaoGame> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut g = new_game(preset, &[], None).unwrap();
        loop {
            let kids = g.children();
            if kids.is_empty() {
                break;
            }
            out.push(g.clone());
            g = kids[rng.below(kids.len())].1.clone();
        }
    }
    out
}

#[test]
fn returns_a_legal_move() {
    for preset in ["bao-kujifunza", "bao-kiswahili"] {
        for g in positions(preset, 3, 77).iter().step_by(3) {
            let (mv, _) = best_move(g, 2).expect("a move");
            assert!(
                g.legal_names().contains(&mv),
                "{mv} in {}",
                g.position_string()
            );
        }
        let last = positions(preset, 1, 5).pop().unwrap();
        let kids = last.children();
        let done = &kids[0].1;
        if done.children().is_empty() {
            assert!(best_move(done, 3).is_none());
        }
    }
}

fn wins_at_once(g: &BaoGame, mv: &str) -> bool {
    let me = g.side_to_move();
    let mut c = g.clone();
    c.play_name(mv).unwrap();
    c.winner() == Some(me)
}

#[test]
fn finds_a_winning_move() {
    let mut found = 0;
    for preset in ["bao-kujifunza", "bao-kiswahili"] {
        for g in positions(preset, 40, 99) {
            let names = g.legal_names();
            let winning: Vec<&String> = names.iter().filter(|m| wins_at_once(&g, m)).collect();
            if winning.is_empty() || winning.len() == names.len() {
                continue;
            }
            let (mv, score) = best_move(&g, 3).unwrap();
            assert!(wins_at_once(&g, &mv), "{mv} in {}", g.position_string());
            assert!(score > 900_000);
            found += 1;
        }
    }
    assert!(found >= 3, "only {found} test positions");
}

#[test]
fn constructed_win() {
    // North's front row holds one seed (North a4, facing South a5); South's a3 (2 seeds) sown
    // clockwise ends in a5 (occupied) and captures it: North's front row is empty. Sowing a3
    // counter-clockwise or starting elsewhere does not capture, so the capture is compulsory.
    let pos = "2 2 2 2 2 2 2 2  0 0 0 0 1 0 0 0  0 0 2 0 1 0 0 0  0 0 0 0 0 3 0 0";
    let g = new_game("bao-kujifunza", &[], Some(pos)).unwrap();
    assert_eq!(g.legal_names(), vec!["a3>"]);
    let (mv, score) = best_move(&g, 4).unwrap();
    assert_eq!(mv, "a3>");
    assert!(score > 900_000);
    assert!(wins_at_once(&g, "a3>"));
}

#[test]
fn beats_a_random_player() {
    let mut wins = 0;
    let games = 6;
    let mut rng = Rng(2024);
    for i in 0..games {
        let preset = if i % 2 == 0 {
            "bao-kujifunza"
        } else {
            "bao-kiswahili"
        };
        let engine_side = (i / 2) % 2;
        let mut g = new_game(preset, &[], None).unwrap();
        for _ in 0..300 {
            if g.children().is_empty() {
                break;
            }
            if g.side_to_move() == engine_side {
                let (mv, _) = best_move_timed(&g, 40).unwrap();
                g.play_name(&mv).unwrap();
            } else {
                let kids = g.children();
                g = kids[rng.below(kids.len())].1.clone();
            }
        }
        if g.winner() == Some(engine_side) {
            wins += 1;
        }
    }
    assert!(wins >= games - 1, "engine won {wins} of {games}");
}

#[test]
fn start_position_search_is_fast() {
    for preset in ["bao-kujifunza", "bao-kiswahili"] {
        let g = new_game(preset, &[], None).unwrap();
        let t = std::time::Instant::now();
        let (mv, _) = best_move(&g, 64).unwrap();
        assert!(t.elapsed().as_secs_f64() < 3.0);
        assert!(g.legal_names().contains(&mv));
    }
}
