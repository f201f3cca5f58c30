//! The sowing-family presets (mankala-2p, congkak, bao-kenya, bao-kenya-laps, ayo-ayo,
//! nam-nam): the rules stated in docs/rules.md as worked positions, each rule option changing
//! play where it should, every move of random positions against the plain reference
//! (`tests/sowing_reference`), and pinned perft counts (`tests/perft-sowing/*.perft`).
//!
//! Perft file format, one directive a line ('#' comments):
//!   variant <preset> [pits N] [seeds N] [rule NAME]...
//!   position <2m counts, mover-relative> | start
//!   perft <depth> <count>
//! Counts are checked against `Rules::perft` at every depth and against the reference up to
//! depth 5.

mod sowing_reference;

use mancala_rules::{
    parse_position, Board, Family, Next, Node, Options, Preset, Rule, RuleSet, Rules, Variant,
};
use sowing_reference::{After, Ref, RefNode};
use std::path::Path;

/// Every preset sown seed by seed (each new one is covered here without a change).
fn presets() -> impl Iterator<Item = Preset> {
    Preset::ALL
        .into_iter()
        .filter(|p| p.family() == Family::Sowing)
}

fn rules_of(preset: Preset, pits: u32, seeds: u32, rules: &[Rule]) -> Rules {
    let set = rules.iter().fold(RuleSet::default(), |s, &r| s.with(r));
    let opts = Options {
        pits: Some(pits),
        seeds: Some(seeds),
        rules: set,
        ..Options::default()
    };
    Rules::new(Variant::new(preset, opts).unwrap())
}

fn pos(r: &Rules, text: &str) -> Board {
    parse_position(r, text).unwrap()
}

/// The move from `pit`: (mover's gain, opponent's gain, next, child pits).
fn play(r: &Rules, b: Board, pit: u8) -> (u8, u8, Next, Vec<u8>) {
    match r.node(b) {
        Node::Moves(k) => {
            let c = k.iter().find(|c| c.pit == pit).expect("legal move");
            (c.gain, c.opp_gain, c.next, c.board.pits(2 * r.pits()))
        }
        Node::Terminal { .. } => panic!("terminal"),
    }
}

fn legal(r: &Rules, b: Board) -> Vec<u8> {
    match r.node(b) {
        Node::Moves(k) => k.iter().map(|c| c.pit).collect(),
        Node::Terminal { .. } => vec![],
    }
}

#[test]
fn ayo_ayo_mover_takes_every_four_and_relays() {
    let r = rules_of(Preset::AyoAyo, 3, 4, &[]);
    // Pit 0 (3 seeds) sows 1, 2, 3: pit 1 reaches 4 on the way (taken, the sowing goes on),
    // pit 2 gets 1 (4 -> 0? no: 0 + 1), pit 3 (the opponent's, 2 -> 3): occupied, relay
    // lifts 3 and sows 4, 5, 0: pit 0 was emptied, so it ends there.
    let b = pos(&r, "3 3 0 2 1 0");
    let (g, og, next, child) = play(&r, b, 0);
    assert_eq!((g, og, next), (4, 0, Next::Opponent));
    // Mover layout after: [1, 0, 1, 0, 2, 1] -> flipped for the opponent.
    assert_eq!(child, vec![0, 2, 1, 1, 0, 1]);
    // The last seed making four is taken and ends the move (docs/rules.md, ayo-ayo).
    let b = pos(&r, "1 3 0 0 0 1");
    assert_eq!(
        play(&r, b, 0),
        (4, 0, Next::Opponent, vec![0, 0, 1, 0, 0, 0])
    );
    // The player to move with no seeds ends the game; the rest counts for nobody
    // (docs/rules.md, ayo-ayo), or goes to the opponent with `opponent-takes-rest`.
    let b = pos(&r, "0 0 0 1 2 0");
    assert_eq!(r.node(b).terminal_value(), Some(0));
    let r2 = rules_of(Preset::AyoAyo, 3, 4, &[Rule::OpponentTakesRest]);
    assert_eq!(r2.node(b).terminal_value(), Some(-3));
}

#[test]
fn nam_nam_owner_takes_fours_and_the_last_four_is_the_movers() {
    let r = rules_of(Preset::NamNam, 3, 4, &[]);
    // Pit 2 (3 seeds) sows 3, 4, 5: pit 3 (opponent's, 3 -> 4) is his on the way; pit 5
    // (3 -> 4) with the last seed is the mover's, whoever owns it.
    let b = pos(&r, "0 1 3 3 1 3");
    assert_eq!(
        play(&r, b, 2),
        (4, 4, Next::Opponent, vec![0, 2, 0, 0, 1, 0])
    );
    // At eight seeds on the board the next capture takes all eight and ends the round.
    let b = pos(&r, "0 0 3 3 1 1");
    assert_eq!(play(&r, b, 2).0 + play(&r, b, 2).1, 8);
    assert_eq!(play(&r, b, 2).2, Next::Over);
    // A player who owns no seeds passes: his only move, pit 0, hands the turn over.
    let b = pos(&r, "0 0 0 1 2 1");
    assert_eq!(
        play(&r, b, 0),
        (0, 0, Next::Opponent, vec![1, 2, 1, 0, 0, 0])
    );
}

#[test]
fn kenyan_bao_extra_move_capture_origin_skip() {
    let r = rules_of(Preset::BaoKenya, 3, 3, &[]);
    // 1 seed from pit 2 lands in the store: move again.
    let b = pos(&r, "1 0 1 2 2 2");
    assert_eq!(play(&r, b, 2), (1, 0, Next::Mover, vec![1, 0, 0, 2, 2, 2]));
    // Last seed in an empty own pit (1): the opposite pit's seeds (pit 4, 2 seeds) go to the
    // store, the capturing seed stays.
    let b = pos(&r, "1 0 0 2 2 5");
    assert_eq!(
        play(&r, b, 0),
        (2, 0, Next::Opponent, vec![2, 0, 5, 0, 1, 0])
    );
    let r2 = rules_of(Preset::BaoKenya, 3, 3, &[Rule::CaptureWithLast]);
    assert_eq!(
        play(&r2, b, 0),
        (3, 0, Next::Opponent, vec![2, 0, 5, 0, 0, 0])
    );
    // 7 seeds from pit 0 go round (7 sowing places: 2 pits, store, 3 pits, then pit 0 is
    // skipped): the 7th seed lands in pit 1.
    let b = pos(&r, "7 0 0 0 0 0");
    let (g, _, _, child) = play(&r, b, 0);
    assert_eq!(g, 1);
    assert_eq!(child, vec![1, 1, 1, 0, 2, 1]);
    // A player who cannot move loses the seeds left to the other.
    assert_eq!(r.node(pos(&r, "0 0 0 1 1 1")).terminal_value(), Some(-3));
}

#[test]
fn kenyan_laps_single_seeds_and_relay() {
    let r = rules_of(Preset::BaoKenyaLaps, 3, 2, &[]);
    // Single seeds may start a move only when no own pit holds two or more.
    assert_eq!(legal(&r, pos(&r, "1 2 1 1 1 1")), vec![1]);
    assert_eq!(legal(&r, pos(&r, "1 0 1 1 1 1")), vec![0, 2]);
    // Relay: pit 1 (2) sows 2, 3: pit 3 held 1 -> 2, lift and sow 4, 5 -> 5 held 1 -> 2,
    // lift and sow 0, 1: pit 1 was emptied, so the last seed lands in an empty own pit and
    // takes the opposite pit 4's seeds.
    let b = pos(&r, "0 2 0 1 0 1");
    let (g, og, next, _) = play(&r, b, 1);
    assert_eq!((g, og, next), (1, 0, Next::Opponent));
}

#[test]
fn mankala_origin_skip_house_capture_with_last_seed_and_passes() {
    let r = rules_of(Preset::Mankala2p, 3, 4, &[]);
    // Capture takes the opposite pit and the capturing seed (the Mankala uniwersalna rules
    // page).
    let b = pos(&r, "1 0 0 0 3 1");
    assert_eq!(play(&r, b, 0).0, 4);
    let r3 = rules_of(Preset::Mankala2p, 3, 4, &[Rule::CapturerStays]);
    assert_eq!(play(&r3, b, 0).0, 3);
    // The origin is always skipped: 8 seeds from pit 0 make a lap of 6 other places
    // (2 pits, house, 3 pits) and go on into pits 1 and 2, never into pit 0.
    let b = pos(&r, "8 0 0 0 0 0");
    let (g, _, _, child) = play(&r, b, 0);
    assert_eq!(g, 1);
    assert_eq!(child[3..], [0, 2, 2]);
    // The base game has no sweep: a player whose row is empty passes and play goes on.
    let b = pos(&r, "0 0 0 1 0 2");
    assert_eq!(legal(&r, b), vec![0]);
    assert_eq!(r.node(b).terminal_value(), None);
    // Rule 4: the first empty row ends the game, seeds left count for nobody.
    let r4 = rules_of(Preset::Mankala2p, 3, 4, &[Rule::FirstEmptyEnds]);
    assert_eq!(r4.node(b).terminal_value(), Some(0));
}

#[test]
fn congkak_relay_ends_in_store_or_empty_pit() {
    let r = rules_of(Preset::Congkak, 3, 3, &[]);
    // Pit 2 (1) goes into the store: another move.
    let b = pos(&r, "2 2 1 1 1 1");
    assert_eq!(play(&r, b, 2).2, Next::Mover);
    // Pit 1 (2): pit 2 (1 -> 2), store. Ends in the store, 1 banked, move again.
    assert_eq!(play(&r, b, 1), (1, 0, Next::Mover, vec![2, 0, 2, 1, 1, 1]));
    // Pit 0 (2): pits 1, 2 -> 2 is occupied (1 -> 2): relay: store, pit 3 (1 -> 2): relay
    // 4, 5 -> pit 5 (1 -> 2): relay: pit 0 (emptied -> 1), pit 1 (3 -> 4): relay ...
    let (_, _, _, child) = play(&r, b, 0);
    assert_eq!(
        child.iter().map(|&x| x as u32).sum::<u32>() + play(&r, b, 0).0 as u32,
        8
    );
}

/// Each rule option changes some position's moves: the reference and the engine agree on
/// it, and it differs from the default.
#[test]
fn every_rule_option_changes_play_somewhere() {
    for preset in presets() {
        let base = rules_of(preset, 3, 3, &[]);
        for row in Rule::for_preset(preset) {
            let with = rules_of(preset, 3, 3, &[row.0]);
            let differs = (0..20_000u64).any(|i| {
                let b = random_board(i, 6, 14);
                with.node(b).terminal_value() != base.node(b).terminal_value()
                    || format!("{:?}", with.node(b)) != format!("{:?}", base.node(b))
            });
            let cosmetic = matches!(row.0, Rule::TouchMove | Rule::ThreeSeeds);
            assert_eq!(differs, !cosmetic, "{preset} option {}", row.1);
        }
    }
    // three-seeds changes the start position only.
    let three = Variant::new(
        Preset::Mankala2p,
        Options {
            rules: RuleSet::default().with(Rule::ThreeSeeds),
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(three.seeds, 3);
}

/// A pseudo-random board of `cells` pits with at most `max` seeds (splitmix64).
fn random_board(i: u64, cells: usize, max: u32) -> Board {
    let mut x = i
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(0x1234_5678);
    let mut next = || {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let total = (next() % (max as u64 + 1)) as u32;
    let mut pits = vec![0u8; cells];
    for _ in 0..total {
        pits[(next() % cells as u64) as usize] += 1;
    }
    Board::from_pits(&pits)
}

fn to_ref(r: &Rules, b: Board) -> RefNode {
    let m = r.pits();
    match r.node(b) {
        Node::Terminal { mover, opp } => RefNode::Over(mover as u32, opp as u32),
        Node::Moves(k) => RefNode::Moves(
            k.iter()
                .map(|c| {
                    let pits: Vec<u32> = c.board.pits(2 * m).iter().map(|&x| x as u32).collect();
                    let after = match c.next {
                        Next::Opponent => After::Opponent(pits),
                        Next::Mover => After::Mover(pits),
                        Next::Over => After::Over,
                    };
                    (c.pit as usize, c.gain as u32, c.opp_gain as u32, after)
                })
                .collect(),
        ),
    }
}

#[test]
fn every_move_of_random_positions_matches_the_reference() {
    for preset in presets() {
        let mut sets: Vec<Vec<Rule>> = vec![vec![]];
        sets.extend(Rule::for_preset(preset).map(|r| vec![r.0]));
        if preset == Preset::Mankala2p {
            sets.push(vec![Rule::Relay, Rule::HousesNotSown, Rule::MustFeed]);
            sets.push(vec![Rule::Relay, Rule::CaptureFour]);
        }
        for set in &sets {
            for (pits, max) in [(2usize, 12u32), (3, 20), (6, 40), (8, 60)] {
                let r = rules_of(preset, pits as u32, 7, set);
                let reference = Ref::new(
                    preset,
                    pits,
                    set.iter().fold(RuleSet::default(), |s, &x| s.with(x)),
                );
                for i in 0..1500u64 {
                    let b =
                        random_board(i * 7 + pits as u64, 2 * pits, max.min(r.max_seeds() as u32));
                    let pits_now: Vec<u32> = b.pits(2 * pits).iter().map(|&x| x as u32).collect();
                    assert_eq!(
                        to_ref(&r, b),
                        reference.node(&pits_now),
                        "{preset} {set:?} position {pits_now:?}"
                    );
                }
            }
        }
    }
}

/// Fills in `perft <depth> ?` lines: `cargo test -p mancala-rules --release --test sowing --
/// --ignored regenerate`.
#[test]
#[ignore]
fn regenerate() {
    perft_files(true);
}

#[test]
fn pinned_perft_counts() {
    perft_files(false);
}

fn perft_files(fill: bool) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft-sowing");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut checked = 0;
    for file in files
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
    {
        let text = std::fs::read_to_string(file).unwrap();
        let mut out = String::new();
        let mut rules: Option<(Rules, Ref)> = None;
        let mut board = None;
        for (no, line) in text.lines().enumerate() {
            let at = format!("{}:{}", file.display(), no + 1);
            let w: Vec<&str> = line.split_whitespace().collect();
            let mut line = line.to_string();
            match w.first().copied() {
                None => {}
                Some(c) if c.starts_with('#') => {}
                Some("variant") => {
                    let preset: Preset = w[1].parse().unwrap();
                    let mut opts = Options::default();
                    let mut i = 2;
                    while i < w.len() {
                        match w[i] {
                            "pits" => opts.pits = Some(w[i + 1].parse().unwrap()),
                            "seeds" => opts.seeds = Some(w[i + 1].parse().unwrap()),
                            "rule" => {
                                opts.rules = opts.rules.with(Rule::parse(preset, w[i + 1]).unwrap())
                            }
                            x => panic!("{at}: unknown word {x}"),
                        }
                        i += 2;
                    }
                    let r = Rules::new(Variant::new(preset, opts).unwrap());
                    let reference = Ref::new(preset, r.pits(), opts.rules);
                    rules = Some((r, reference));
                }
                Some("position") => {
                    let (r, _) = rules.as_ref().expect("variant first");
                    board = Some(if w[1] == "start" {
                        r.start()
                    } else {
                        pos(r, &w[1..].join(" "))
                    });
                }
                Some("perft") => {
                    let (r, reference) = rules.as_ref().unwrap();
                    let b = board.unwrap();
                    let depth: u32 = w[1].parse().unwrap();
                    let count: u64 = if fill && w[2] == "?" {
                        line = format!("perft {depth} {}", r.perft(b, depth));
                        r.perft(b, depth)
                    } else {
                        w[2].parse().unwrap()
                    };
                    assert_eq!(r.perft(b, depth), count, "{at}");
                    if depth <= 5 {
                        let pits: Vec<u32> =
                            b.pits(2 * r.pits()).iter().map(|&x| x as u32).collect();
                        assert_eq!(reference.perft(&pits, depth), count, "{at}: reference");
                    }
                    checked += 1;
                }
                Some(x) => panic!("{at}: unknown directive {x}"),
            }
            out.push_str(&line);
            out.push('\n');
        }
        if fill {
            std::fs::write(file, out).unwrap();
        }
    }
    assert!(checked >= 30, "only {checked} perft lines");
}
