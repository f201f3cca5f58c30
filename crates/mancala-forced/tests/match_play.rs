//! El-akil / el-ghasheem match play: rounds to a cumulative target.

use mancala_forced::*;
use proptest::prelude::*;

fn opts(target: u32) -> MatchOptions {
    MatchOptions {
        target,
        ..MatchOptions::default()
    }
}

// El-akil on a 2x2 board with 6 seeds, setup "1 2 2 1" (South 1 2, North 2 1; a mirror setup:
// pit 0 pairs with 3, pit 1 with 2). Played as laid out (North, the second player, first):
//   1. N: head 3 (1) -> pit 0 makes 2: captured, N 2. Backward, pit 3 is empty. [0 2 2 0]
//   2. S: head 1 (2) -> pits 2, 3; pit 3 makes 1. [0 0 3 1]
//   3. N: head 3 (1) -> pit 0 makes 1. [1 0 3 0]
//   4. S: head 1 empty, pit 0 (1) -> pit 1 makes 1. [0 1 3 0]
//   5. N: head 3 empty, pit 2 (3) -> 3, 0, 1; pit 1 makes 2: captured, N 4. Backward, pit 0
//      holds 1. [1 0 0 1]: one seed on each half, each takes his: S 1, N 5.
// Swapped, the board is [2 1 1 2] and South moves first: the same game with the roles
// exchanged, so the distributor gets 5 and the second player 1. Keeping gives the second player
// 5 > 1: he keeps. So in every round the non-distributor captures 2 at move 1 and 2 at move 5,
// then the sweep gives each player 1.
const TINY: &str = "1 2 2 1";

fn tiny(o: &MatchOptions) -> Result<MatchReport, ForcedError> {
    play_match("el-akil", Some(2), Some(6), &[], Some(TINY), o)
}

fn round(
    number: u32,
    distributor: MatchPlayer,
    swapped: bool,
    captured: [u32; 2],
    totals: [u32; 2],
    moves: u64,
    end: Option<EndReason>,
) -> MatchRound {
    let first_mover = if swapped {
        distributor
    } else {
        distributor.other()
    };
    MatchRound {
        number,
        setup: vec![1, 2, 2, 1],
        distributor,
        swapped,
        first_mover,
        captured,
        totals,
        moves,
        end,
    }
}

#[test]
fn the_tiny_games_are_as_traced() {
    let v = solve_setup("el-akil", Some(2), Some(6), &[], Some(TINY)).unwrap();
    assert_eq!((v.kept.distributor, v.kept.second, v.kept.moves), (1, 5, 5));
    assert_eq!((v.swapped.distributor, v.swapped.second), (5, 1));
    assert!(!v.second_swaps);
    let mut g = new_game("el-akil", Some(2), Some(6), &[], Some(TINY), false).unwrap();
    let caps: Vec<(Side, u32)> = std::iter::from_fn(|| g.step().ok())
        .map(|r| (r.side, r.captured))
        .collect();
    use Side::{North as N, South as S};
    assert_eq!(caps, [(N, 2), (S, 0), (N, 0), (S, 0), (N, 2)]);
    assert_eq!(g.captured(), [1, 5]);
    assert_eq!(g.end_reason(), Some(EndReason::OneEach));
}

#[test]
fn hand_checked_match_alternates_the_distributor_and_ends_mid_round() {
    use MatchPlayer::{A, B};
    // Round 1, A distributes: A 1, B 5. Round 2, B distributes: A 5, B 1; totals 6:6.
    // Round 3, A distributes: B captures 2 with the first move and reaches 8.
    let m = tiny(&opts(8)).unwrap();
    assert_eq!(
        m.rounds,
        vec![
            round(1, A, false, [1, 5], [1, 5], 5, Some(EndReason::OneEach)),
            round(2, B, false, [5, 1], [6, 6], 5, Some(EndReason::OneEach)),
            round(3, A, false, [0, 2], [6, 8], 1, None),
        ]
    );
    assert_eq!(m.winner, Some(B));
    assert_eq!(m.winner_str(), "b");
    assert_eq!(m.decided_in, 3);
    assert_eq!(m.reached, Reached::Capture { moves: 1 });
    assert_eq!(m.totals, [6, 8]);
    assert_eq!(m.target, 8);
    assert_eq!(m.description, "el-akil pits=2 total=6");
    // Target 7 is reached by the same capture (6 + 2 >= 7).
    let m7 = tiny(&opts(7)).unwrap();
    assert_eq!((m7.decided_in, m7.totals, m7.winner), (3, [6, 8], Some(B)));
    // Target 9: in round 3 B captures 2 at move 1 (8) and 2 at move 5 (10).
    let m9 = tiny(&opts(9)).unwrap();
    assert_eq!(m9.rounds[2], round(3, A, false, [0, 4], [6, 10], 5, None));
    assert_eq!(m9.reached, Reached::Capture { moves: 5 });
}

#[test]
fn the_end_of_round_sweep_counts_toward_the_target() {
    use MatchPlayer::{A, B};
    // Target 5: B has 4 after his two captures in round 1; the one-each sweep brings him to 5.
    let m = tiny(&opts(5)).unwrap();
    assert_eq!(
        m.rounds,
        vec![round(
            1,
            A,
            false,
            [1, 5],
            [1, 5],
            5,
            Some(EndReason::OneEach)
        )]
    );
    assert_eq!(
        (m.winner, m.reached, m.decided_in),
        (Some(B), Reached::EndOfRound, 1)
    );
    // Target 6: in round 2 A reaches 1 + 4 = 5 by captures; the sweep then gives both players
    // 1, bringing both to 6 at once: equal totals draw the set.
    let d = tiny(&opts(6)).unwrap();
    assert_eq!(d.rounds.len(), 2);
    assert_eq!(d.totals, [6, 6]);
    assert_eq!(
        (d.winner, d.reached, d.decided_in),
        (None, Reached::EndOfRound, 2)
    );
    assert_eq!(d.winner_str(), "draw");
}

#[test]
fn a_fixed_swap_is_used_in_every_round() {
    use MatchPlayer::{A, B};
    // Swapped, the distributor moves first and plays the winning part of the game: A takes round
    // 1 5:1, B round 2 5:1, and A reaches 8 with the first capture of round 3.
    let o = MatchOptions {
        swap: Some(true),
        ..opts(8)
    };
    let m = tiny(&o).unwrap();
    assert_eq!(
        m.rounds,
        vec![
            round(1, A, true, [5, 1], [5, 1], 5, Some(EndReason::OneEach)),
            round(2, B, true, [1, 5], [6, 6], 5, Some(EndReason::OneEach)),
            round(3, A, true, [2, 0], [8, 6], 1, None),
        ]
    );
    assert_eq!(m.winner, Some(A));
    // Fixing the swap to the valuation's own choice gives the valuation's match.
    let kept = MatchOptions {
        swap: Some(false),
        ..opts(8)
    };
    assert_eq!(tiny(&kept).unwrap(), tiny(&opts(8)).unwrap());
}

/// One round replayed with the single-game API: the captures `[A, B]` at the first capture that
/// brings the mover to `target` (and that mover), or at the end of the game.
fn replay_round(
    preset: &str,
    swapped: bool,
    distributor: MatchPlayer,
    base: [u32; 2],
    target: u32,
) -> ([u32; 2], u64, Option<MatchPlayer>) {
    let mut g = new_game(preset, None, None, &[], None, swapped).unwrap();
    let of = |s: Side| {
        if s == Side::South {
            distributor
        } else {
            distributor.other()
        }
    };
    let as_ab = |c: [u32; 2]| {
        let mut out = [0; 2];
        out[of(Side::South).index()] = c[0];
        out[of(Side::North).index()] = c[1];
        out
    };
    while !g.over() {
        let r = g.step().unwrap();
        let now = as_ab(g.captured());
        let p = of(r.side);
        if r.captured > 0 && base[p.index()] + now[p.index()] >= target {
            // No sweep yet: the game is still on here in these matches.
            assert!(!g.over());
            return (now, g.moves_played(), Some(p));
        }
    }
    (as_ab(g.captured()), g.moves_played(), None)
}

#[test]
fn default_el_akil_match_agrees_with_the_single_game_api() {
    use MatchPlayer::{A, B};
    let m = play_match("el-akil", None, None, &[], None, &MatchOptions::default()).unwrap();
    assert_eq!(m.target, MATCH_TARGET);
    assert_eq!(MATCH_TARGET, 60);
    // Round 1: the symmetric default setup; B swaps (43 > 29) and A, moving first, gets 29.
    let v = solve_setup("el-akil", None, None, &[], None).unwrap();
    assert!(v.second_swaps);
    let (c1, n1, w1) = replay_round("el-akil", true, A, [0, 0], 60);
    assert_eq!((c1, n1, w1), ([29, 43], 67, None));
    assert_eq!(c1, [v.swapped.distributor, v.swapped.second]);
    // Round 2: B distributes; B reaches 60 mid-round.
    let (c2, n2, w2) = replay_round("el-akil", true, B, c1, 60);
    assert_eq!((c2, n2, w2), ([14, 18], 15, Some(B)));
    assert_eq!(
        m.rounds,
        vec![
            MatchRound {
                number: 1,
                setup: v.setup.clone(),
                distributor: A,
                swapped: true,
                first_mover: A,
                captured: c1,
                totals: [29, 43],
                moves: 67,
                end: Some(EndReason::OneEach),
            },
            MatchRound {
                number: 2,
                setup: v.setup.clone(),
                distributor: B,
                swapped: true,
                first_mover: B,
                captured: c2,
                totals: [43, 61],
                moves: 15,
                end: None,
            },
        ]
    );
    assert_eq!((m.winner, m.decided_in), (Some(B), 2));
    assert_eq!(m.reached, Reached::Capture { moves: 15 });
    assert_eq!(m.totals, [43, 61]);
}

#[test]
fn default_el_ghasheem_match() {
    use MatchPlayer::{A, B};
    let m = play_match(
        "el-ghasheem",
        None,
        None,
        &[],
        None,
        &MatchOptions::default(),
    )
    .unwrap();
    // The second player keeps (45 > 27) and moves first.
    let v = solve_setup("el-ghasheem", None, None, &[], None).unwrap();
    assert!(!v.second_swaps);
    assert_eq!((v.kept.distributor, v.kept.second), (27, 45));
    let (c2, n2, w2) = replay_round("el-ghasheem", false, B, [27, 45], 60);
    assert_eq!((c2, n2, w2), ([28, 16], 24, Some(B)));
    let summary: Vec<_> = m
        .rounds
        .iter()
        .map(|r| {
            (
                r.distributor,
                r.swapped,
                r.first_mover,
                r.captured,
                r.totals,
                r.moves,
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (A, false, B, [27, 45], [27, 45], 53),
            (B, false, A, [28, 16], [55, 61], 24),
        ]
    );
    assert_eq!((m.winner, m.decided_in, m.totals), (Some(B), 2, [55, 61]));
    assert_eq!(m.reached, Reached::Capture { moves: 24 });
}

#[test]
fn the_round_limit_is_an_error() {
    // Each el-akil round shares out 72 seeds 29:43; two rounds give 72:72, short of 200.
    let o = MatchOptions {
        target: 200,
        round_limit: 2,
        swap: None,
    };
    let e = play_match("el-akil", None, None, &[], None, &o).unwrap_err();
    assert_eq!(
        e,
        ForcedError::RoundLimit {
            limit: 2,
            target: 200,
            a: 72,
            b: 72
        }
    );
    assert_eq!(
        e.to_string(),
        "nobody reached 200 seeds in 2 rounds (A 72, B 72); raise the round limit or lower the target"
    );
    let zero = MatchOptions {
        round_limit: 0,
        ..MatchOptions::default()
    };
    assert_eq!(
        play_match("el-akil", None, None, &[], None, &zero).unwrap_err(),
        ForcedError::RoundLimit {
            limit: 0,
            target: 60,
            a: 0,
            b: 0
        }
    );
    // With room, the 200 match runs: five whole rounds (A, B, A, B, A distributing) of 72 seeds,
    // then B reaches 201 in round 6.
    let m = play_match("el-akil", None, None, &[], None, &opts(200)).unwrap();
    assert_eq!(m.decided_in, 6);
    let dist: Vec<MatchPlayer> = m.rounds.iter().map(|r| r.distributor).collect();
    use MatchPlayer::{A, B};
    assert_eq!(dist, [A, B, A, B, A, B]);
    let totals: Vec<[u32; 2]> = m.rounds.iter().map(|r| r.totals).collect();
    assert_eq!(
        totals,
        [
            [29, 43],
            [72, 72],
            [101, 115],
            [144, 144],
            [173, 187],
            [183, 201]
        ]
    );
    assert_eq!(m.winner, Some(B));
    assert_eq!(m.reached, Reached::Capture { moves: 9 });
    // And exactly six rounds are enough.
    let six = MatchOptions {
        round_limit: 6,
        ..opts(200)
    };
    assert_eq!(
        play_match("el-akil", None, None, &[], None, &six).unwrap(),
        m
    );
    assert_eq!(MATCH_ROUND_LIMIT, MatchOptions::default().round_limit);
}

#[test]
fn madjnuni_and_bad_requests_are_refused() {
    let e = play_match("madjnuni", None, None, &[], None, &MatchOptions::default()).unwrap_err();
    assert_eq!(e, ForcedError::NoMatchPlay { preset: "madjnuni" });
    assert_eq!(
        e.to_string(),
        "madjnuni has no match play in the source; play a match of el-akil or el-ghasheem"
    );
    // Refused before the setup is even looked at.
    let e = play_match("madjnuni", None, None, &[], Some("junk"), &opts(60)).unwrap_err();
    assert_eq!(e, ForcedError::NoMatchPlay { preset: "madjnuni" });
    assert_eq!(
        tiny(&opts(0)).unwrap_err(),
        ForcedError::BadTarget { got: 0 }
    );
    assert!(matches!(
        play_match("el-akil", None, None, &[], Some("1 2 3"), &opts(60)),
        Err(ForcedError::BadSetup(_))
    ));
    assert!(matches!(
        play_match("awari", None, None, &[], None, &opts(60)),
        Err(ForcedError::UnknownPreset(_))
    ));
}

#[test]
fn player_helpers() {
    use MatchPlayer::{A, B};
    assert_eq!((A.other(), B.other()), (B, A));
    assert_eq!((A.index(), B.index()), (0, 1));
    assert_eq!((A.as_str(), B.as_str()), ("a", "b"));
    let d: Vec<MatchPlayer> = (1..=4).map(MatchPlayer::distributor_of_round).collect();
    assert_eq!(d, [A, B, A, B]);
}

fn small_setup() -> impl Strategy<Value = (String, u32, Vec<u32>)> {
    // el-akil on 2x2 with mirror pairs, or el-ghasheem on 2x2 (every pit 4+).
    prop_oneof![
        (1u32..6, 1u32..6, 1u32..6, 1u32..6).prop_map(|(a, b, c, d)| (
            "el-akil".to_string(),
            2,
            vec![a, b, c, d]
        )),
        (4u32..9, 4u32..9, 4u32..9, 4u32..9).prop_map(|(a, b, c, d)| (
            "el-ghasheem".to_string(),
            2,
            vec![a, b, c, d]
        )),
    ]
}

proptest! {
    #[test]
    fn match_bookkeeping((preset, m, setup) in small_setup(), target in 1u32..80,
                         swap in proptest::option::of(any::<bool>())) {
        let total: u32 = setup.iter().sum();
        let text: Vec<String> = setup.iter().map(|c| c.to_string()).collect();
        let o = MatchOptions { swap, target, round_limit: MATCH_ROUND_LIMIT };
        let r = play_match(&preset, Some(m), Some(total), &[], Some(&text.join(" ")), &o).unwrap();
        let mut sum = [0u32; 2];
        let n = r.rounds.len();
        for (k, round) in r.rounds.iter().enumerate() {
            prop_assert_eq!(round.number as usize, k + 1);
            prop_assert_eq!(round.distributor, MatchPlayer::distributor_of_round(k as u32 + 1));
            prop_assert_eq!(&round.setup, &setup);
            sum = [sum[0] + round.captured[0], sum[1] + round.captured[1]];
            prop_assert_eq!(round.totals, sum);
            if k + 1 < n {
                // A whole round: every seed ends in a barn, and nobody has reached the target.
                prop_assert_eq!(round.captured[0] + round.captured[1], total);
                prop_assert!(round.end.is_some());
                prop_assert!(sum[0] < target && sum[1] < target);
            }
            prop_assert_eq!(round.swapped, r.rounds[0].swapped);
        }
        prop_assert_eq!(r.totals, sum);
        prop_assert_eq!(r.decided_in as usize, n);
        // A match always ends within `target` rounds (each round shares out total >= 2 seeds).
        prop_assert!(n as u32 <= target);
        let last = &r.rounds[n - 1];
        match r.reached {
            Reached::Capture { moves } => {
                let w = r.winner.expect("a capture has a winner");
                prop_assert!(sum[w.index()] >= target && sum[w.other().index()] < target);
                prop_assert_eq!(last.end, None);
                prop_assert_eq!(last.moves, moves);
            }
            Reached::EndOfRound => {
                prop_assert!(last.end.is_some());
                prop_assert!(sum[0] >= target || sum[1] >= target);
                match r.winner {
                    Some(w) => prop_assert!(sum[w.index()] > sum[w.other().index()]),
                    None => prop_assert_eq!(sum[0], sum[1]),
                }
            }
        }
    }
}
