//! The forced-move sowing games: La'b madjnuni (Syria, 2x7, 98 seeds; docs/rules.md, madjnuni),
//! Mankaleh Leab el-akil (Cairo, 2x6, 72 seeds) and Leab el-ghasheem (Cairo children; both
//! docs/rules.md, el-akil and el-ghasheem). Their source is Skiryuk's post on them in the Russian
//! rules compilation, which retells Culin (madjnuni) and E. W. Lane (el-akil, el-ghasheem).
//!
//! ```
//! use mancala_forced::{new_game, solve_setup, Side};
//! use mancala_rules::Playable;
//!
//! // Madjnuni's default setup: 7 seeds in each of the 14 pits; the distributor (South) moves
//! // first.
//! let mut g = new_game("madjnuni", None, None, &[], None, false).unwrap();
//! assert_eq!(g.board(), &[7; 14]);
//! assert_eq!(g.side_to_move(), Side::South);
//! // Nobody chooses: the one legal move is the head, the mover's rightmost pit.
//! assert_eq!(g.legal(), vec!["6"]);
//!
//! // This move relays through five sowings and ends by capturing a pit of 2.
//! let report = g.step().unwrap();
//! assert_eq!((report.laps, report.captured), (5, 2));
//! assert_eq!(g.captured(), [2, 0]);
//! assert_eq!(g.side_to_move(), Side::North);
//!
//! // The decisions are the setup and the swap: the default setup played out both ways.
//! let value = solve_setup("madjnuni", None, None, &[], None).unwrap();
//! assert!(!value.second_swaps);
//! assert_eq!(value.distributor_value, 54); // 54 of the 98 seeds: the distributor wins
//! ```
//!
//! In these games nobody chooses anything during play: each player always empties a pit fixed by
//! the rules. The decisions are the distributor's setup and the second player's swap (pie rule).
//! A game is therefore a deterministic simulation; [`solve_setup`] plays a setup out both with and
//! without the swap, and [`best_setup`] searches every setup of a tiny board.
//!
//! # Board and names
//! Two rows of `m` pits (`pits`, default 7 for madjnuni, 6 otherwise) and `total` seeds (default
//! 98 / 72). Absolute order: South's pits `0..m-1` left to right, then North's `m..2m-1` in sowing
//! order; sowing is counter-clockwise, `i -> i+1 mod 2m`. **South is always the distributor**:
//! the setup string lists the `2m` counts in that order, separated by spaces or commas. A swap
//! rotates the laid-out board half a turn (South's pit `i` gets what was laid out in pit
//! `i+m mod 2m`), so the second player (North) plays the row the distributor laid out for himself.
//! Barns (stores) are not sown; captured seeds never return.
//!
//! # The move (all presets)
//! * The mover empties his **head**, his rightmost pit (own index `m-1`: South pit `m-1`, North pit
//!   `2m-1`). If the head cannot be played, `head-empty=leftward` (the reading of docs/rules.md,
//!   madjnuni; the default) takes the nearest playable pit to its left; `head-empty=wrap` takes
//!   "the next pit in his row" in sowing order instead: his leftmost pit, then rightwards.
//! * A pit is playable when it holds 2+ seeds, or 1 seed under `single=playable` (default; the
//!   alternative `single=unplayable` is a question the el-akil text leaves open, see
//!   docs/rules.md, el-akil and el-ghasheem).
//! * Seeds are sown one per pit from the next pit on, **the origin is not skipped**.
//! * Where the last seed falls, with `c` the pit's new count: `c == 1` ends the move; `c` = 2 or
//!   4 captures that pit, then the **serial capture**, and ends the move; `c` = 3 or 5+ is a relay:
//!   the pit is lifted and sowing goes on from the next pit.
//! * Captures happen on both halves. The serial capture takes further pits holding 2 or 4:
//!   `serial=forward` (madjnuni default, its literal text: pits further along in sowing order),
//!   `serial=backward` (el-akil / el-ghasheem default: the preceding pits) or `serial=off`.
//!   `chain=all` (default, the reading of docs/rules.md, el-akil and el-ghasheem) takes the whole
//!   run; `chain=one` at most one more pit (el-akil's text names one pit). `serial-cross=yes`
//!   (default, the reading of docs/rules.md, madjnuni) lets the run cross into the other half;
//!   `no` stops it at the half's edge.
//!
//! # Infinite relay (within a move)
//! Inside one move no seed leaves the board until the move ends, so a relay that reaches the same
//! (pits, pit to lift) state twice would sow forever. docs/rules.md, Conventions, makes such a move
//! illegal; here it is the only move, so **the move is void and the game ends: each side takes the
//! seeds on its own row** (as it was before the move). End reason `infinite-relay`.
//!
//! # No move, feeding and starvation
//! A player with no playable pit when his turn comes **passes** (passes are not counted as moves).
//! * Madjnuni (the «общепринятым» convention): the opponent makes his forced move; if the starved
//!   player still has no move afterwards, the game ends and the opponent takes every seed left
//!   (`starvation`).
//! * El-akil / el-ghasheem (feeding is obligatory, but the move is forced): the opponent's forced
//!   move is looked at first. If it gives the starved player a move, it is played; if not, the game
//!   ends **before** it and each side takes the seeds on its own row (`no-feed`; Lane's gap case).
//!
//! With `single=playable` the starved player's row is empty, so both treatments give every seed
//! left to the other player; they differ only in the move count. If neither player can move
//! (possible only with `single=unplayable`) each takes his own row (`both-stuck`).
//!
//! # End and score
//! * The board is empty (`board-empty`).
//! * `singles-end=yes` (el-akil / el-ghasheem default; off for madjnuni): when each half holds
//!   exactly one seed, each player takes his (`one-each`).
//! * Starvation / no-feed as above; infinite relay as above.
//! * **Whole-game cycle**: the game is deterministic, so a repeated state (pits, side to move,
//!   who is waiting to be fed) means it loops forever. It ends at the first repetition and **each
//!   side takes the seeds on its own row** (`cycle`), the convention for repetitions in played
//!   games (docs/rules.md, Playing a game move by move).
//!
//! At the end every seed is in a barn. More seeds wins; equal is a draw (madjnuni: 50+ of 98 wins,
//! 49:49 draws; el-akil's 36:36 is likewise a draw). El-akil and el-ghasheem are also played as
//! a set of rounds, see *Match play*.
//!
//! # Setups and the pie rule
//! * madjnuni: every pit at least 2, all `total` seeds laid out; the distributor **always moves
//!   first**, swapped or not.
//! * el-akil: `setup=mirror` (default): the seeds lie in one or more pits of South's row and the
//!   **corresponding** pits of North's row, every other pit empty; a pit holds seeds iff its
//!   partner does (counts may differ). `pairing=opposite` (default) pairs South pit `i` with the
//!   pit straight across, `2m-1-i`; `pairing=rotated` with North's own pit `i` (`m+i`). Lane's
//!   "central four pits" is the same set either way. `setup=leftmost` is Lane's alternative: seeds
//!   only in each player's leftmost pit (`0` and `m`), both non-empty. The **second player moves
//!   first unless he swaps**; then the distributor moves first.
//! * el-ghasheem: every pit at least 4, all seeds laid out; first move as el-akil.
//! * Default setup (`setup` = None): an even spread over every pit (madjnuni, el-ghasheem); el-akil
//!   an even spread over the central pits `1..m-2` of South's row and their partners (every pit when
//!   `m < 3`), or the two leftmost pits with `setup=leftmost`. Leftover seeds go one each to the
//!   lowest-numbered of those pits.
//!
//! [`solve_setup`] plays both games; the second player **swaps iff that gives him strictly more
//! seeds** (a tie keeps the board as laid out).
//!
//! # Match play (el-akil, el-ghasheem)
//! «Первый игрок, который последовательно доводил счёт захваченных камней до шестидесяти, выигрывал
//! весь сет» (the el-akil text of the Russian rules compilation): [`play_match`] plays rounds, each
//! a fresh game with all `total` seeds, until one player's captures over the rounds reach the
//! target ([`MATCH_TARGET`] = 60). The players are called A and B. The source leaves the following
//! open; the readings are:
//! * **Setup**: the same layout every round, laid out by that round's distributor (as South).
//! * **Distributor**: A in round 1, then **alternating** (A, B, A, ...), as in madjnuni's "return
//!   game, the roles swap" (docs/rules.md, madjnuni). "The loser distributes" would need a rule for
//!   a drawn round, which the source does not give.
//! * **Swap**: the non-distributor decides each round with the valuation of [`solve_setup`]
//!   (he swaps iff that round played swapped gives him strictly more seeds), or a fixed choice
//!   ([`MatchOptions::swap`]). With one setup for the whole match the choice is the same every
//!   round. The valuation looks at the round only, not at the race to the target.
//! * **When the target counts**: "the first to bring the count to 60" is checked **after every
//!   capture**, so a set is usually decided mid-round; that round stops there and the seeds left
//!   on the board are not counted. The end-of-round sweep (each side taking seeds at `one-each`,
//!   `no-feed`, `cycle`, ...) counts as captured too; if it brings both players to the target at
//!   once, the larger total wins and equal totals draw the set.
//! * **Round limit**: every round puts all its seeds into the barns, so a match ends within
//!   `target` rounds; still, at most [`MATCH_ROUND_LIMIT`] rounds (or
//!   [`MatchOptions::round_limit`]) are played, then [`ForcedError::RoundLimit`].
//! * Madjnuni has no set rule in the source: [`ForcedError::NoMatchPlay`].
//!
//! # Playable
//! [`ForcedGame`] implements [`mancala_rules::Playable`]: `pits()` in absolute order, `stores()`
//! = [South, North] captured, the one legal move is the mover's own pit index (`play` also takes
//! `next` or a letter `a..`).

#![warn(missing_docs)]

mod family;
mod game;
mod matchplay;
mod playable;
mod rules;
mod setup;
mod solve;

pub use family::ForcedFamily;
pub use game::{first_mover, EndReason, ForcedGame, MoveReport};
pub use mancala_rules::Side;
pub use matchplay::{
    MatchOptions, MatchPlayer, MatchReport, MatchRound, Reached, MATCH_ROUND_LIMIT, MATCH_TARGET,
};
pub use rules::{
    AkilSetup, ForcedRules, HeadEmpty, Pairing, Preset, SerialDir, MAX_PITS, MAX_TOTAL,
};
pub use setup::{default_setup, parse_setup, partner, validate_setup};
pub use solve::{BestSetup, Outcome, Role, SetupValue};

/// Everything that can be wrong with a request; each message says what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ForcedError {
    /// Not one of `madjnuni`, `el-akil`, `el-ghasheem`.
    #[error("unknown forced-move preset '{0}'; choose one of madjnuni, el-akil, el-ghasheem")]
    UnknownPreset(String),
    /// Pits per side outside 1..=16.
    #[error("{preset} takes 1..=16 pits per side, not {got}")]
    BadPits {
        /// The preset's name.
        preset: &'static str,
        /// The pits asked for.
        got: u32,
    },
    /// A seed total the board cannot hold under the preset's setup rules.
    #[error("{preset} with {pits} pits per side needs {min}..={max} seeds in all, not {got}; pass another total")]
    BadTotal {
        /// The preset's name.
        preset: &'static str,
        /// Pits per side.
        pits: u32,
        /// The total asked for.
        got: u32,
        /// The fewest seeds a setup can hold.
        min: u32,
        /// The most seeds accepted.
        max: u32,
    },
    /// A rule option the preset does not have.
    #[error("unknown rule '{name}' for {preset}; its rules are: {known}")]
    UnknownRule {
        /// The option as given.
        name: String,
        /// The preset's name.
        preset: &'static str,
        /// The preset's options, comma-separated.
        known: String,
    },
    /// A rule option with a value it does not take.
    #[error("rule {name} takes one of: {allowed}; not '{value}'")]
    BadRuleValue {
        /// The option's name.
        name: String,
        /// The value as given.
        value: String,
        /// The values it takes.
        allowed: &'static str,
    },
    /// Pits or the seed total given both as a parameter and as a rule option, with different
    /// values.
    #[error("{name} given twice with different values ({a} and {b}); give it once")]
    Conflict {
        /// The setting's name.
        name: &'static str,
        /// The first value.
        a: u32,
        /// The second value.
        b: u32,
    },
    /// A setup string that cannot be read or breaks the preset's setup rules.
    #[error("bad setup: {0}")]
    BadSetup(String),
    /// A move name that is not `next` or a pit of the mover's row (index or letter).
    #[error("bad move '{got}': moves are forced; play 'next' or the forced pit {legal}")]
    BadMove {
        /// The move as given.
        got: String,
        /// The forced pit.
        legal: String,
    },
    /// A pit other than the forced one.
    #[error("illegal move {got}: moves are forced and the only legal move is {legal} (or 'next')")]
    IllegalMove {
        /// The move as given.
        got: String,
        /// The forced pit.
        legal: String,
    },
    /// A move asked for after the game ended (with the end reason).
    #[error("the game is over ({0}); start a new game")]
    GameOver(String),
    /// The best-setup search would try more setups than allowed.
    #[error("about {} setups to try, more than the limit {}; use fewer pits or seeds", mancala_rules::Grouped(*count), mancala_rules::Grouped(*limit as u128))]
    TooManySetups {
        /// The number of setups the board has.
        count: u128,
        /// The most setups the search tries.
        limit: u64,
    },
    /// Match play asked for a game without a set rule (madjnuni).
    #[error("{preset} has no match play in the source; play a match of el-akil or el-ghasheem")]
    NoMatchPlay {
        /// The preset's name.
        preset: &'static str,
    },
    /// A match target of 0.
    #[error("the match target must be at least 1 captured seed, not {got}")]
    BadTarget {
        /// The target asked for.
        got: u32,
    },
    /// A match that reached its round limit before anybody reached the target.
    #[error("nobody reached {target} seeds in {limit} rounds (A {a}, B {b}); raise the round limit or lower the target")]
    RoundLimit {
        /// The round limit.
        limit: u32,
        /// The target.
        target: u32,
        /// A's captures so far.
        a: u32,
        /// B's captures so far.
        b: u32,
    },
}

/// The forced-move presets.
pub fn preset_names() -> &'static [&'static str] {
    &["madjnuni", "el-akil", "el-ghasheem"]
}

/// One line describing `preset`, for `mancala variants`.
pub fn summary(preset: &str) -> Option<&'static str> {
    match Preset::from_name(preset)? {
        Preset::Madjnuni => Some(
            "La'b madjnuni (Syria): 2x7, 98 seeds, forced moves from the head pit, relay, 2/4 capture on both halves, serial capture forward; distributor moves first",
        ),
        Preset::ElAkil => Some(
            "Mankaleh Leab el-akil (Cairo): 2x6, 72 seeds in paired pits, forced moves, relay, 2/4 capture, serial capture backward; second player moves first unless he swaps",
        ),
        Preset::ElGhasheem => Some(
            "Leab el-ghasheem (Cairo children): el-akil with every pit holding at least 4 of the 72 seeds",
        ),
    }
}

/// The `--rule NAME=VALUE` options of `preset` as (name, one-line help); empty if unknown.
pub fn options_help(preset: &str) -> Vec<(&'static str, &'static str)> {
    Preset::from_name(preset).map_or_else(Vec::new, rules::options_for)
}

fn rules_and_setup(
    preset: &str,
    pits: Option<u32>,
    total: Option<u32>,
    rules: &[String],
    setup: Option<&str>,
) -> Result<(ForcedRules, Vec<u32>), ForcedError> {
    let r = ForcedRules::build(preset, pits, total, rules)?;
    let s = match setup {
        Some(text) => parse_setup(text)?,
        None => default_setup(&r),
    };
    validate_setup(&r, &s)?;
    Ok((r, s))
}

/// A new game. `pits`/`total` override the preset's size (they may also be given as rules
/// `pits=`/`total=`), `rules` are `NAME=VALUE` strings (see [`options_help`]), `setup` is the
/// distributor's layout (None: the default setup described in the crate docs), `swapped` whether
/// the second player took the swap.
pub fn new_game(
    preset: &str,
    pits: Option<u32>,
    total: Option<u32>,
    rules: &[String],
    setup: Option<&str>,
    swapped: bool,
) -> Result<ForcedGame, ForcedError> {
    let (r, s) = rules_and_setup(preset, pits, total, rules, setup)?;
    Ok(ForcedGame::from_setup(r, s, swapped))
}

/// Values a setup: both games (kept and swapped) and the second player's choice.
pub fn solve_setup(
    preset: &str,
    pits: Option<u32>,
    total: Option<u32>,
    rules: &[String],
    setup: Option<&str>,
) -> Result<SetupValue, ForcedError> {
    let (r, s) = rules_and_setup(preset, pits, total, rules, setup)?;
    Ok(solve::value_setup(&r, &s))
}

/// The default cap on the setups [`best_setup`] enumerates.
pub const BEST_SETUP_LIMIT: u64 = 200_000;

/// Tries every valid setup and reports the distributor's best, the second player choosing his
/// side. Refuses when more than `limit` (default [`BEST_SETUP_LIMIT`]) setups may exist.
pub fn best_setup(
    preset: &str,
    pits: Option<u32>,
    total: Option<u32>,
    rules: &[String],
    limit: Option<u64>,
) -> Result<BestSetup, ForcedError> {
    let r = ForcedRules::build(preset, pits, total, rules)?;
    solve::search(&r, limit.unwrap_or(BEST_SETUP_LIMIT))
}

/// Plays an el-akil / el-ghasheem match (a set): rounds of the same `setup` (None: the default
/// setup), the distributor alternating from player A, until one player's captures over the rounds
/// reach `opts.target`. `preset`, `pits`, `total`, `rules` and `setup` are as for [`new_game`];
/// the readings are in the crate docs (*Match play*). Madjnuni is refused
/// ([`ForcedError::NoMatchPlay`]), as are a target of 0 and a match not decided within
/// `opts.round_limit` rounds ([`ForcedError::RoundLimit`]).
pub fn play_match(
    preset: &str,
    pits: Option<u32>,
    total: Option<u32>,
    rules: &[String],
    setup: Option<&str>,
    opts: &MatchOptions,
) -> Result<MatchReport, ForcedError> {
    if Preset::from_name(preset) == Some(Preset::Madjnuni) {
        return Err(ForcedError::NoMatchPlay {
            preset: Preset::Madjnuni.name(),
        });
    }
    let (r, s) = rules_and_setup(preset, pits, total, rules, setup)?;
    matchplay::run_match(&r, &s, opts)
}
