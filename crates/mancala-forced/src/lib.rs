//! The forced-move sowing games: La'b madjnuni (Syria, 2x7, 98 seeds; seed-rules.md 3.4),
//! Mankaleh Leab el-akil (Cairo, 2x6, 72 seeds; 3.5) and Leab el-ghasheem (Cairo children;
//! 3.6).
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
//! * The mover empties his **head**, his rightmost pit (own index `m-1`: South pit `m-1`, North
//!   pit `2m-1`). If the head cannot be played, `head-empty=leftward` (the *Reading*, default)
//!   takes the nearest playable pit to its left; `head-empty=wrap` takes "the next pit in his row"
//!   in sowing order instead: his leftmost pit, then rightwards.
//! * A pit is playable when it holds 2+ seeds, or 1 seed under `single=playable` (default; the
//!   alternative `single=unplayable` is el-akil's ambiguity (c)).
//! * Seeds are sown one per pit from the next pit on, **the origin is not skipped**.
//! * Where the last seed falls, with `c` the pit's new count: `c == 1` ends the move; `c` = 2 or
//!   4 captures that pit, then the **serial capture**, and ends the move; `c` = 3 or 5+ is a relay:
//!   the pit is lifted and sowing goes on from the next pit.
//! * Captures happen on both halves. The serial capture takes further pits holding 2 or 4:
//!   `serial=forward` (madjnuni default, its literal text: pits further along in sowing order),
//!   `serial=backward` (el-akil / el-ghasheem default: the preceding pits) or `serial=off`.
//!   `chain=all` (default, the *Reading*) takes the whole run; `chain=one` at most one more pit
//!   (el-akil's text names one pit). `serial-cross=yes` (default, madjnuni (d)) lets the run cross
//!   into the other half; `no` stops it at the half's edge.
//!
//! # Infinite relay (within a move)
//! Inside one move no seed leaves the board until the move ends, so a relay that reaches the same
//! (pits, pit to lift) state twice would sow forever. RULES.md makes such a move illegal; here it is
//! the only move, so **the move is void and the game ends: each side takes the seeds on its own
//! row** (as it was before the move). End reason `infinite-relay`.
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
//!   side takes the seeds on its own row** (`cycle`), the convention RULES.md uses for repetitions
//!   in played games.
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
//! «Первый игрок, который последовательно доводил счёт захваченных камней до шестидесяти,
//! выигрывал весь сет»: [`play_match`] plays rounds, each a fresh game with all `total` seeds,
//! until one player's captures over the rounds reach the target ([`MATCH_TARGET`] = 60). The
//! players are called A and B. The source leaves the following open; the readings are:
//! * **Setup**: the same layout every round, laid out by that round's distributor (as South).
//! * **Distributor**: A in round 1, then **alternating** (A, B, A, ...), as in madjnuni's
//!   "return game, the roles swap" (3.4). "The loser distributes" would need a rule for a drawn
//!   round, which the source does not give.
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

mod game;
mod matchplay;
mod playable;
mod rules;
mod setup;
mod solve;

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
    #[error("unknown forced-move preset '{0}'; choose one of madjnuni, el-akil, el-ghasheem")]
    UnknownPreset(String),
    #[error("{preset} takes 1..=16 pits per side, not {got}")]
    BadPits { preset: &'static str, got: u32 },
    #[error("{preset} with {pits} pits per side needs {min}..={max} seeds in all, not {got}; pass another total")]
    BadTotal {
        preset: &'static str,
        pits: u32,
        got: u32,
        min: u32,
        max: u32,
    },
    #[error("unknown rule '{name}' for {preset}; its rules are: {known}")]
    UnknownRule {
        name: String,
        preset: &'static str,
        known: String,
    },
    #[error("rule {name} takes one of: {allowed}; not '{value}'")]
    BadRuleValue {
        name: String,
        value: String,
        allowed: &'static str,
    },
    #[error("{name} given twice with different values ({a} and {b}); give it once")]
    Conflict { name: &'static str, a: u32, b: u32 },
    #[error("bad setup: {0}")]
    BadSetup(String),
    #[error("bad move '{got}': moves are forced; play 'next' or the forced pit {legal}")]
    BadMove { got: String, legal: String },
    #[error("illegal move {got}: moves are forced and the only legal move is {legal} (or 'next')")]
    IllegalMove { got: String, legal: String },
    #[error("the game is over ({0}); start a new game")]
    GameOver(String),
    #[error("about {count} setups to try, more than the limit {limit}; use fewer pits or seeds")]
    TooManySetups { count: u128, limit: u64 },
    #[error("{preset} has no match play in the source; play a match of el-akil or el-ghasheem")]
    NoMatchPlay { preset: &'static str },
    #[error("the match target must be at least 1 captured seed, not {got}")]
    BadTarget { got: u32 },
    #[error("nobody reached {target} seeds in {limit} rounds (A {a}, B {b}); raise the round limit or lower the target")]
    RoundLimit {
        limit: u32,
        target: u32,
        a: u32,
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
