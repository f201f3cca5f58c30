//! The statements of docs/rules.md, mankala-2p, mankala-3p, mankala-4p (base game), each as a
//! position -> result test.

use mancala_multi::{new_game, End, MultiGame, Playable};

fn game(preset: &str, pits: u32, position: &str) -> MultiGame {
    new_game(preset, Some(pits), None, &[], Some(position)).unwrap()
}

fn after(mut g: MultiGame, mv: &str) -> MultiGame {
    g.play(mv).unwrap();
    g
}

#[test]
fn start_positions() {
    for (preset, players, seeds) in [
        ("mankala-2p", 2, 48),
        ("mankala-3p", 3, 72),
        ("mankala-4p", 4, 96),
    ] {
        let g = new_game(preset, None, None, &[], None).unwrap();
        assert_eq!(g.pits().len(), 6 * players);
        assert!(g.pits().iter().all(|&c| c == 4));
        assert_eq!(g.pits().iter().sum::<u32>(), seeds);
        assert_eq!(g.stores(), vec![0; players]);
        assert_eq!(g.legal(), vec!["0", "1", "2", "3", "4", "5"]);
        assert_eq!(g.mover(), 0);
    }
    assert_eq!(
        new_game("mankala-2p", None, None, &[], None)
            .unwrap()
            .to_move(),
        "south"
    );
    assert_eq!(
        new_game("mankala-4p", None, None, &[], None)
            .unwrap()
            .to_move(),
        "player 1"
    );
}

/// «pominąwszy ... własny dołek startowy»: 13 seeds from South's pit 0 go round the ring
/// (5 own pits, own house, North's 6 pits, North's house skipped) and the 13th skips the origin.
#[test]
fn origin_is_skipped_on_a_lap() {
    let g = after(game("mankala-2p", 6, "13 0 0 0 0 0 1 1 1 1 1 1"), "0");
    assert_eq!(g.pits(), vec![0, 2, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2]);
    assert_eq!(g.houses(), vec![1, 0]);
    assert_eq!(g.to_move(), "north");
}

/// Own house sown, opponents' houses skipped (3 players, 2 pits each).
#[test]
fn own_house_sown_others_skipped() {
    let g = after(game("mankala-3p", 2, "0 5 1 1 1 1"), "1");
    // P1 house, P2 pits 0 1, (P2 house skipped), P3 pits 0 1
    assert_eq!(g.pits(), vec![0, 0, 2, 2, 2, 2]);
    assert_eq!(g.houses(), vec![1, 0, 0]);
    assert_eq!(g.to_move(), "player 2");
}

/// «Jeśli ostatni kamień zostanie zasiany na własnym domu, gracz otrzymuje wolną turę.»
#[test]
fn last_seed_in_own_house_gives_another_turn() {
    let g = after(game("mankala-3p", 2, "1 1 1 1 1 1"), "1");
    assert_eq!(g.houses(), vec![1, 0, 0]);
    assert_eq!(g.to_move(), "player 1");
    assert_eq!(g.legal(), vec!["0"]);
    let g = after(game("mankala-2p", 6, "4 4 4 4 4 4 4 4 4 4 4 4"), "2");
    assert_eq!(g.to_move(), "south");
}

/// 3 players: a capture takes the same-index pit of both opponents, plus the capturing seed.
#[test]
fn capture_takes_same_index_pit_of_every_opponent_3p() {
    // P1 sows 6 from pit 1: house, P2 0 1, P3 0 1, P1 pit 0 (empty): takes P2 pit 0 and P3 pit 0.
    let g = after(game("mankala-3p", 2, "0 6 1 1 1 1"), "1");
    assert_eq!(g.pits(), vec![0, 0, 0, 2, 0, 2]);
    assert_eq!(g.houses(), vec![1 + 2 + 2 + 1, 0, 0]);
}

#[test]
fn capture_takes_same_index_pit_of_every_opponent_4p() {
    let g = after(game("mankala-4p", 2, "1 0 1 3 1 2 1 5"), "0");
    assert_eq!(g.pits(), vec![0, 0, 1, 0, 1, 0, 1, 0]);
    assert_eq!(g.houses(), vec![3 + 2 + 5 + 1, 0, 0, 0]);
    assert_eq!(g.to_move(), "player 2");
}

/// 2 players: the facing pit is the usual Kalah opposite pit (own pit j faces pit P-1-j).
#[test]
fn two_player_capture_takes_the_facing_pit() {
    let g = after(game("mankala-2p", 3, "2 0 0 4 5 6"), "0");
    // last seed in South's empty pit 2, facing North's pit 0
    assert_eq!(g.pits(), vec![0, 1, 0, 0, 5, 6]);
    assert_eq!(g.houses(), vec![5, 0]);
    let g = after(game("mankala-2p", 3, "1 0 0 4 5 6"), "0");
    // pit 1 faces North's pit 1
    assert_eq!(g.pits(), vec![0, 0, 0, 4, 0, 6]);
    assert_eq!(g.houses(), vec![6, 0]);
    // and North's pit 2 faces South's pit 0
    let g = after(game("mankala-2p", 3, "7 1 1 0 1 0 / / 2"), "1");
    assert_eq!(g.pits(), vec![0, 1, 1, 0, 0, 0]);
    assert_eq!(g.houses(), vec![0, 8]);
}

/// «Jeśli w przeciwnych dołkach nie ma kamieni, nic nie jest zbijane»: the seed stays.
#[test]
fn no_capture_when_the_opposite_pits_are_empty() {
    let g = after(game("mankala-3p", 2, "1 0 1 0 1 0"), "0");
    assert_eq!(g.pits(), vec![0, 1, 1, 0, 1, 0]);
    assert_eq!(g.houses(), vec![0, 0, 0]);
}

/// A last seed in an opponent's empty pit or in an own occupied pit captures nothing.
#[test]
fn no_capture_elsewhere() {
    let g = after(game("mankala-3p", 2, "0 2 0 4 0 4"), "1");
    assert_eq!(g.pits(), vec![0, 0, 1, 4, 0, 4]);
    assert_eq!(g.houses(), vec![1, 0, 0]);
    let g = after(game("mankala-2p", 3, "1 1 0 3 3 3"), "0");
    assert_eq!(g.pits(), vec![0, 2, 0, 3, 3, 3]);
}

/// «Jeśli gracz nie ma kamieni do zasiania, jego tura jest pomijana.»
#[test]
fn a_player_without_seeds_passes() {
    let g = after(game("mankala-3p", 2, "1 0 0 0 2 0"), "0");
    assert_eq!(g.to_move(), "player 3");
    // a given position whose mover is empty: he passes at once
    let g = game("mankala-4p", 1, "0 0 3 1 / / 1");
    assert_eq!(g.to_move(), "player 3");
    // the extra turn of a player who has just emptied his pits passes too
    let g = after(game("mankala-3p", 2, "0 1 1 1 1 1"), "1");
    assert_eq!(g.to_move(), "player 2");
}

/// Play goes on until no seed is left in any pit; the biggest house wins.
#[test]
fn game_ends_when_every_pit_is_empty() {
    let g = after(game("mankala-2p", 2, "0 1 0 0 / 3 4"), "1");
    assert!(g.is_over());
    assert_eq!(g.end(), Some(End::Exhausted));
    assert_eq!(g.houses(), vec![4, 4]);
    assert!(g.legal().is_empty());
    assert!(g.draw().contains("tie"));
    // one player empty is not the end in the base game
    let g = after(game("mankala-3p", 1, "1 0 2"), "0");
    assert!(!g.is_over());
    assert_eq!(g.to_move(), "player 3");
    // a whole game: every seed ends in a house, and the order is P1, P2, P3, P1...
    let mut g = new_game("mankala-3p", Some(3), Some(2), &[], None).unwrap();
    let mut plies = 0;
    while !g.is_over() {
        let mv = g.legal()[0].clone();
        g.play(&mv).unwrap();
        plies += 1;
        assert!(plies < 1000);
    }
    assert_eq!(g.houses().iter().sum::<u32>(), 18);
    assert!(g.pits().iter().all(|&c| c == 0));
}

#[test]
fn turn_order_goes_round_the_table() {
    let g = game("mankala-4p", 2, "1 1 0 1 0 1 0 1");
    let g = after(g, "1");
    assert_eq!(g.to_move(), "player 1"); // pit 1 with 1 seed: own house
    let g = game("mankala-4p", 2, "1 0 1 0 1 0 1 0");
    let g = after(g, "0");
    assert_eq!(g.to_move(), "player 2");
    let g = after(g, "0");
    assert_eq!(g.to_move(), "player 3");
    let g = after(g, "0");
    assert_eq!(g.to_move(), "player 4");
    let g = after(g, "0");
    assert!(g.is_over() || g.to_move() == "player 1");
}

#[test]
fn drawing_and_description() {
    let g = new_game("mankala-2p", None, None, &[], None).unwrap();
    let d = g.draw();
    assert!(d.contains("south to move"), "{d}");
    assert_eq!(g.describe(), "mankala-2p");
    for preset in ["mankala-3p", "mankala-4p"] {
        let g = new_game(
            preset,
            Some(3),
            Some(2),
            &["relay".into(), "rule10=own".into()],
            None,
        )
        .unwrap();
        let d = g.draw();
        assert!(d.contains("player 1: pits"), "{d}");
        assert!(d.contains("player 1 to move"), "{d}");
        assert_eq!(
            g.describe(),
            format!("{preset} (pits 3; seeds 2; rules relay,capture-four=own)")
        );
    }
}
