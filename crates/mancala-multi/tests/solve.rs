//! The max-n solver against an independent memo-free brute force (tests/reference), the
//! two-player zero-sum cross-check, the principal variation, and the limits.

mod reference;

use std::time::Instant;

use mancala_multi::{new_game, solve, End, MaxN, MultiError, MultiGame, Playable};
use reference::Ref;

fn brute(game: &MultiGame) -> (Vec<u32>, Option<String>, u64) {
    let r = Ref::for_game(game);
    let ring = r.ring(&game.pits(), &game.houses());
    let mut nodes = 0;
    let (fin, best) = r.maxn(&ring, game.mover(), &mut Vec::new(), &mut nodes);
    (fin, best.map(|i| i.to_string()), nodes)
}

fn g(preset: &str, pits: u32, seeds: u32, rules: &[&str], pos: Option<&str>) -> MultiGame {
    let rules: Vec<String> = rules.iter().map(|r| r.to_string()).collect();
    new_game(preset, Some(pits), Some(seeds), &rules, pos).unwrap()
}

/// Plays the PV on a copy of the game: it must be legal, end the game, and give the scores.
fn check_pv(game: &MultiGame, v: &MaxN) -> Option<End> {
    let mut play = game.without_history();
    for (k, mv) in v.pv.iter().enumerate() {
        assert_eq!(play.mover(), v.pv_movers[k]);
        play.play(mv).unwrap();
    }
    assert!(play.is_over(), "PV {:?} does not end the game", v.pv);
    assert_eq!(play.houses(), v.scores, "PV {:?}", v.pv);
    assert_eq!(v.best.as_ref(), v.pv.first());
    play.end()
}

#[test]
fn required_small_boards_are_fast() {
    for (preset, pits, seeds) in [
        ("mankala-3p", 2, 2),
        ("mankala-4p", 1, 2),
        ("mankala-2p", 3, 3),
    ] {
        let game = g(preset, pits, seeds, &[], None);
        let t = Instant::now();
        let v = solve(&game, 10_000_000).unwrap();
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{preset} {pits}x{seeds}: {:?} best {:?} pv {:?} nodes {} in {secs:.3}s",
            v.scores, v.best, v.pv, v.nodes
        );
        assert!(secs < 2.0, "{preset}: {secs}s");
        let players = game.players() as u32;
        assert_eq!(v.scores.iter().sum::<u32>(), players * pits * seeds);
        let _ = check_pv(&game, &v);
    }
}

const OPTION_SETS: [&[&str]; 12] = [
    &[],
    &["capturer-stays"],
    &["first-empty-ends"],
    &["houses-not-sown"],
    &["must-feed"],
    &["keep-last-seed"],
    &["relay"],
    &["capture-four"],
    &["houses-not-sown", "relay"],
    &["houses-not-sown", "keep-last-seed", "must-feed"],
    &["relay", "capture-four=opponents", "capturer-stays"],
    &["first-empty-ends", "keep-last-seed", "houses-not-sown"],
];

/// Compares solve with the brute force on `game` and the positions up to two plies below it.
/// Positions whose solve needs more than `guard` nodes are skipped (the memo-free brute force
/// would be too slow); returns how many were compared.
fn compare_below(game: &MultiGame, guard: u64, what: &str) -> (usize, usize) {
    let mut positions = vec![game.clone()];
    for (_, c) in game.children() {
        positions.push(c.clone());
        positions.extend(c.children().into_iter().map(|(_, cc)| cc));
    }
    let mut compared = 0;
    let mut repeated = 0;
    for pos in positions {
        let Ok(v) = solve(&pos, guard) else { continue };
        let (fin, best, _) = brute(&pos);
        assert_eq!(
            v.scores,
            fin,
            "{what} {:?} mover {}",
            pos.pits(),
            pos.mover()
        );
        assert_eq!(
            v.best,
            best,
            "{what} {:?} mover {}",
            pos.pits(),
            pos.mover()
        );
        if check_pv(&pos, &v) == Some(End::Repetition) {
            repeated += 1;
        }
        compared += 1;
    }
    (compared, repeated)
}

/// The solver (memo, cycle-safe memo rule) equals the memo-free brute force on tiny boards,
/// with every option set (whole-game cycles included), from the start and two plies in.
#[test]
fn solver_equals_brute_force_on_tiny_boards() {
    let boards: [(&str, u32, u32); 6] = [
        ("mankala-2p", 2, 1),
        ("mankala-2p", 1, 3),
        ("mankala-3p", 1, 2),
        ("mankala-4p", 1, 1),
        ("mankala-4p", 1, 2),
        ("mankala-3p", 2, 1),
    ];
    let (mut compared, mut repeated) = (0, 0);
    for (preset, pits, seeds) in boards {
        for opts in OPTION_SETS {
            let start = g(preset, pits, seeds, opts, None);
            let (c, r) =
                compare_below(&start, 20_000, &format!("{preset} {pits}x{seeds} {opts:?}"));
            compared += c;
            repeated += r;
        }
    }
    println!("tiny: {compared} compared, {repeated} principal variations end by repetition");
    assert!(compared > 200, "{compared}");
    // the cycle rule is really exercised
    assert!(repeated > 10, "{repeated}");
}

/// Bigger boards with the option sets whose games rarely cycle.
#[test]
fn solver_equals_brute_force_on_small_boards() {
    let boards: [(&str, u32, u32); 4] = [
        ("mankala-2p", 2, 2),
        ("mankala-2p", 3, 1),
        ("mankala-3p", 2, 2),
        ("mankala-4p", 2, 1),
    ];
    let mut compared = 0;
    for (preset, pits, seeds) in boards {
        for opts in OPTION_SETS
            .iter()
            .filter(|o| !o.contains(&"houses-not-sown"))
        {
            let start = g(preset, pits, seeds, opts, None);
            compared +=
                compare_below(&start, 5_000, &format!("{preset} {pits}x{seeds} {opts:?}")).0;
        }
    }
    println!("small: {compared}");
    assert!(compared > 200, "{compared}");
}

/// Rule 6 needs 4 players; with houses not sown too, and midgame positions.
#[test]
fn solver_equals_brute_force_4p_options() {
    let mut compared = 0;
    for opts in [
        &["one-opposite"][..],
        &["one-opposite", "houses-not-sown"],
        &["relay", "must-feed"],
    ] {
        for pos in [
            "1 0 1 1 0 1 1 0",
            "2 0 0 1 1 0 0 2",
            "0 1 1 0 2 1 0 0 / 1 2 3 4 / 3",
        ] {
            let game = g("mankala-4p", 2, 1, opts, Some(pos));
            compared += compare_below(&game, 20_000, &format!("{opts:?} {pos}")).0;
        }
    }
    println!("4p: {compared}");
    assert!(compared > 20, "{compared}");
}

/// With 2 players and rules that send every seed to a house, maximising one's own total is
/// maximising the margin: the max-n margin equals the zero-sum negamax value.
#[test]
fn two_players_max_n_equals_negamax_margin() {
    let mut checked = 0;
    for (pits, seeds) in [(2, 2), (3, 1), (3, 2), (2, 3), (4, 1), (3, 3)] {
        for opts in [
            &[][..],
            &["capturer-stays"],
            &["keep-last-seed"],
            &["relay"],
            &["capture-four"],
            &["must-feed"],
        ] {
            let start = g("mankala-2p", pits, seeds, opts, None);
            let mut positions = vec![start.clone()];
            positions.extend(start.children().into_iter().map(|(_, c)| c));
            let r = Ref::for_game(&start);
            let mut memo = std::collections::HashMap::new();
            for game in positions {
                if game.is_over() {
                    continue;
                }
                let ring = r.ring(&game.pits(), &game.houses());
                let m = game.mover();
                let want = r.negamax(&ring, m, &mut Vec::new(), &mut memo);
                let v = solve(&game, 50_000_000).unwrap();
                let h = game.houses();
                let got =
                    (v.scores[m] as i64 - h[m] as i64) - (v.scores[1 - m] as i64 - h[1 - m] as i64);
                assert_eq!(got, want, "{pits}x{seeds} {opts:?} {:?}", game.pits());
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn houses_do_not_change_gains() {
    let a = g("mankala-3p", 2, 2, &[], Some("2 2 2 2 2 2 / 0 0 0"));
    let b = g("mankala-3p", 2, 2, &[], Some("2 2 2 2 2 2 / 5 1 9"));
    let (va, vb) = (solve(&a, 1_000_000).unwrap(), solve(&b, 1_000_000).unwrap());
    assert_eq!(va.gains, vb.gains);
    assert_eq!(va.pv, vb.pv);
    assert_eq!(
        vb.scores,
        vec![5 + va.gains[0], 1 + va.gains[1], 9 + va.gains[2]]
    );
    assert_eq!(va.move_values.len(), 2);
}

#[test]
fn finished_game_and_node_limit() {
    let over = g("mankala-2p", 2, 1, &[], Some("0 0 0 0 / 2 2"));
    let v = solve(&over, 10).unwrap();
    assert_eq!(v.scores, vec![2, 2]);
    assert!(v.best.is_none() && v.pv.is_empty());
    let big = new_game("mankala-4p", None, None, &[], None).unwrap();
    let err = solve(&big, 10_000).unwrap_err();
    assert_eq!(err, MultiError::NodeLimit { limit: 10_000 });
    assert!(err.to_string().contains("smaller board"));
}
