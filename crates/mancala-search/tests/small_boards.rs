//! The searcher agrees with a plain memoised Kalah solver (its own rules, no shared code) on
//! every small board of both capture rules: from the start and along pseudo-random games.

mod common;

use common::{game_positions, kalah, Lcg, PlainKalah};
use mancala_search::{Options, Solver};

fn check(pits: u32, seeds: u32, empty_capture: bool, threads: usize) {
    let rules = kalah(pits, seeds, empty_capture);
    let m = pits as usize;
    let mut plain = PlainKalah::new(m, empty_capture);
    let opts = Options {
        hash_mb: 4,
        threads,
        ..Options::default()
    };
    let mut solver = Solver::new(&rules, None, opts).unwrap();
    let mut rng = Lcg(pits as u64 * 1000 + seeds as u64 * 10 + empty_capture as u64);
    let mut positions = vec![rules.start()];
    for _ in 0..3 {
        positions.extend(game_positions(&rules, rules.start(), &mut rng));
    }
    for b in positions {
        let pitv = b.pits(2 * m);
        let s = solver.solve(b, &()).unwrap();
        let want = plain.value(&pitv);
        assert_eq!(
            s.value,
            Some(want),
            "{pits}x{seeds} ec={empty_capture} {pitv:?}"
        );
        let best: Vec<usize> = (0..m)
            .filter(|&o| pitv[o] > 0 && plain.move_value(&pitv, o) == want)
            .collect();
        assert_eq!(s.best, best, "{pits}x{seeds} ec={empty_capture} {pitv:?}");
        assert_eq!(s.pv.first().copied(), best.first().copied());
    }
}

#[test]
fn kalah_small_boards_agree_with_a_plain_solver() {
    for pits in 1..=4 {
        for seeds in 1..=3 {
            for ec in [false, true] {
                check(pits, seeds, ec, 1);
            }
        }
    }
}

#[test]
fn two_threads_agree_too() {
    for ec in [false, true] {
        check(4, 3, ec, 2);
        check(3, 4, ec, 2);
    }
}
