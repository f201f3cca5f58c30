//! Each of the 10 optional rules changes play where it should: a position whose result differs
//! with and without it (rule 1, touch-move, must change nothing).

use mancala_multi::{new_game, solve, End, MultiGame, Playable};

fn game(preset: &str, pits: u32, rules: &[&str], position: &str) -> MultiGame {
    let rules: Vec<String> = rules.iter().map(|r| r.to_string()).collect();
    new_game(preset, Some(pits), None, &rules, Some(position)).unwrap()
}

fn after(mut g: MultiGame, mv: &str) -> MultiGame {
    g.play(mv).unwrap();
    g
}

#[test]
fn rule1_touch_move_changes_nothing() {
    for preset in ["mankala-2p", "mankala-3p", "mankala-4p"] {
        let plain = new_game(preset, None, None, &[], None).unwrap();
        let touch = new_game(preset, None, None, &["touch-move".into()], None).unwrap();
        assert_eq!(plain.perft(4), touch.perft(4));
        assert_eq!(plain.pits(), touch.pits());
        assert!(touch.describe().contains("touch-move"));
        let plain = new_game(preset, Some(2), Some(2), &[], None).unwrap();
        let touch = new_game(preset, Some(2), Some(2), &["rule1".into()], None).unwrap();
        let (a, b) = (
            solve(&plain, 1_000_000).unwrap(),
            solve(&touch, 1_000_000).unwrap(),
        );
        assert_eq!((a.scores, a.pv), (b.scores, b.pv));
    }
}

#[test]
fn rule2_three_seeds() {
    let g = new_game("mankala-3p", None, None, &["three-seeds".into()], None).unwrap();
    assert!(g.pits().iter().all(|&c| c == 3));
    assert_eq!(g.pits().iter().sum::<u32>(), 54);
    let g = new_game("mankala-3p", None, None, &[], None).unwrap();
    assert_eq!(g.pits().iter().sum::<u32>(), 72);
    assert!(new_game("mankala-2p", None, Some(5), &["rule2".into()], None).is_err());
    assert!(new_game("mankala-2p", None, Some(3), &["rule2".into()], None).is_ok());
}

#[test]
fn rule3_capturer_stays() {
    let without = after(game("mankala-2p", 3, &[], "2 0 0 4 5 6"), "0");
    let with = after(
        game("mankala-2p", 3, &["capturer-stays"], "2 0 0 4 5 6"),
        "0",
    );
    assert_eq!(without.pits(), vec![0, 1, 0, 0, 5, 6]);
    assert_eq!(without.houses(), vec![5, 0]);
    assert_eq!(with.pits(), vec![0, 1, 1, 0, 5, 6]);
    assert_eq!(with.houses(), vec![4, 0]);
}

#[test]
fn rule4_first_empty_ends() {
    let without = after(game("mankala-2p", 2, &[], "0 1 2 2"), "1");
    assert!(!without.is_over());
    assert_eq!(without.to_move(), "north");
    let with = after(game("mankala-2p", 2, &["first-empty-ends"], "0 1 2 2"), "1");
    assert!(with.is_over());
    assert_eq!(with.end(), Some(End::FirstEmpty(0)));
    // seeds left in North's pits count for nobody
    assert_eq!(with.houses(), vec![1, 0]);
    // a given position with an empty player is already over
    assert!(game("mankala-3p", 1, &["rule4"], "1 0 2").is_over());
    assert!(!game("mankala-3p", 1, &[], "1 0 2").is_over());
}

#[test]
fn rule5_houses_not_sown() {
    let without = after(game("mankala-2p", 2, &[], "0 2 1 1"), "1");
    assert_eq!(without.pits(), vec![0, 0, 2, 1]);
    assert_eq!(without.houses(), vec![1, 0]);
    let with = after(game("mankala-2p", 2, &["houses-not-sown"], "0 2 1 1"), "1");
    assert_eq!(with.pits(), vec![0, 0, 2, 2]);
    assert_eq!(with.houses(), vec![0, 0]);
    // no extra turn either: a single seed next to the house goes on to the next player
    let with = after(game("mankala-3p", 2, &["rule5"], "1 1 1 1 1 1"), "1");
    assert_eq!(with.pits(), vec![1, 0, 2, 1, 1, 1]);
    assert_eq!(with.to_move(), "player 2");
}

#[test]
fn rule6_one_opposite_4p() {
    let without = after(game("mankala-4p", 2, &[], "1 0 1 3 1 2 1 5"), "0");
    assert_eq!(without.houses(), vec![11, 0, 0, 0]);
    let with = after(
        game("mankala-4p", 2, &["one-opposite"], "1 0 1 3 1 2 1 5"),
        "0",
    );
    // only player 3's pit 1 (across the table) is taken
    assert_eq!(with.pits(), vec![0, 0, 1, 3, 1, 0, 1, 5]);
    assert_eq!(with.houses(), vec![3, 0, 0, 0]);
    // it is a 4-player rule
    assert!(new_game("mankala-3p", None, None, &["rule6".into()], None).is_err());
    assert!(new_game("mankala-2p", None, None, &["one-opposite".into()], None).is_err());
}

#[test]
fn rule7_must_feed() {
    // North is empty: South must feed him (only pit 2 reaches North's pits).
    let without = game("mankala-2p", 3, &[], "1 0 3 0 0 0");
    assert_eq!(without.legal(), vec!["0", "2"]);
    let with = game("mankala-2p", 3, &["must-feed"], "1 0 3 0 0 0");
    assert_eq!(with.legal(), vec!["2"]);
    // no feeding move: the game ends and everyone banks his own pits
    let with = game("mankala-2p", 3, &["must-feed"], "1 0 0 0 0 0 / 2 3");
    assert!(with.is_over());
    assert_eq!(with.end(), Some(End::FeedImpossible(0)));
    assert_eq!(with.houses(), vec![3, 3]);
    let without = game("mankala-2p", 3, &[], "1 0 0 0 0 0 / 2 3");
    assert!(!without.is_over());
    // 3 players: the obligation is on the player sitting before the empty one
    // (player 2's pit 1 only reaches his house; pit 0 goes on to player 3's pit 0)
    let with = game("mankala-3p", 2, &["rule7"], "0 1 3 1 0 0 / / 2");
    assert_eq!(with.to_move(), "player 2");
    assert_eq!(with.legal(), vec!["0"]);
    let without = game("mankala-3p", 2, &[], "0 1 3 1 0 0 / / 2");
    assert_eq!(without.legal(), vec!["0", "1"]);
    // player 2's only move (2 seeds: pit 1, house) does not reach player 3
    let with = game("mankala-3p", 2, &["rule7"], "0 1 2 0 0 0 / / 2");
    assert_eq!(with.end(), Some(End::FeedImpossible(1)));
    assert_eq!(with.houses(), vec![1, 2, 0]);
}

#[test]
fn rule8_keep_last_seed() {
    let without = after(game("mankala-3p", 2, &[], "1 0 1 0 1 0"), "0");
    assert_eq!(without.pits(), vec![0, 1, 1, 0, 1, 0]);
    assert_eq!(without.houses(), vec![0, 0, 0]);
    let with = after(
        game("mankala-3p", 2, &["keep-last-seed"], "1 0 1 0 1 0"),
        "0",
    );
    assert_eq!(with.pits(), vec![0, 0, 1, 0, 1, 0]);
    assert_eq!(with.houses(), vec![1, 0, 0]);
}

#[test]
fn rule9_relay() {
    let without = after(game("mankala-2p", 3, &[], "1 1 0 0 0 1"), "0");
    assert_eq!(without.pits(), vec![0, 2, 0, 0, 0, 1]);
    assert_eq!(without.to_move(), "north");
    // the last seed lands on 1 seed: lift both and sow on, ending in South's house
    let with = after(game("mankala-2p", 3, &["relay"], "1 1 0 0 0 1"), "0");
    assert_eq!(with.pits(), vec![0, 0, 1, 0, 0, 1]);
    assert_eq!(with.houses(), vec![1, 0]);
    assert_eq!(with.to_move(), "south");
}

/// A relay that would repeat a state inside the move sows forever: the move is illegal.
/// 2x2, houses not sown: South's pit 1 (3 seeds) relays 4, 2, 3, 4, 2, 3 and is back at
/// pits 4 0 1 1 with the last seed in South's pit 0.
#[test]
fn rule9_endless_relay_is_illegal() {
    let g = game("mankala-2p", 2, &["relay", "houses-not-sown"], "3 3 0 0");
    assert_eq!(g.legal(), vec!["0"]);
    let mut g2 = g.clone();
    assert!(g2.play("1").is_err());
    let g = game("mankala-2p", 2, &["houses-not-sown"], "3 3 0 0");
    assert_eq!(g.legal(), vec!["0", "1"]);
}

#[test]
fn rule10_capture_four() {
    let without = after(game("mankala-2p", 3, &[], "0 0 2 3 0 0"), "2");
    assert_eq!(without.pits(), vec![0, 0, 0, 4, 0, 0]);
    assert_eq!(without.houses(), vec![1, 0]);
    let with = after(game("mankala-2p", 3, &["capture-four"], "0 0 2 3 0 0"), "2");
    assert_eq!(with.pits(), vec![0, 0, 0, 0, 0, 0]);
    assert_eq!(with.houses(), vec![5, 0]);
    let own = after(
        game("mankala-2p", 3, &["capture-four=own"], "0 0 2 3 0 0"),
        "2",
    );
    assert_eq!(own.houses(), vec![1, 0]);
    // it replaces the empty-pit capture
    let without = after(game("mankala-2p", 3, &[], "1 0 0 4 5 6"), "0");
    assert_eq!(without.houses(), vec![6, 0]);
    let with = after(game("mankala-2p", 3, &["rule10"], "1 0 0 4 5 6"), "0");
    assert_eq!(with.houses(), vec![0, 0]);
    assert_eq!(with.pits(), vec![0, 1, 0, 4, 5, 6]);
    // own side too (scope any, the default), and 3 + 1 = 4 is captured in 3 players
    let with = after(game("mankala-3p", 2, &["rule10"], "1 3 0 0 0 0"), "0");
    assert_eq!(with.houses(), vec![4, 0, 0]);
}

#[test]
fn options_can_be_switched_off_and_aliases_work() {
    let g = new_game(
        "mankala-2p",
        None,
        None,
        &["relay".into(), "relay=off".into()],
        None,
    )
    .unwrap();
    assert_eq!(g.describe(), "mankala-2p");
    let g = new_game(
        "mankala-4p",
        None,
        None,
        &["RULE6".into(), "rule9=on".into()],
        None,
    )
    .unwrap();
    assert!(g.options().one_opposite && g.options().relay);
}
