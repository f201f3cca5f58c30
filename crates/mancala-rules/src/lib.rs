//! Exact rules of the two-row sowing games (Awari, Oware, Wari, Kalah, Mancala).
//!
//! Positions are packed one byte per pit in a `u128` ([`Board`]), always seen from the side to
//! move (RULES.md's mover-relative order). [`Rules`] compiles a [`Variant`] into sowing tables so
//! a move is a handful of word operations; [`Game`] adds what only matters when a game is played
//! move by move: stores, whose turn it is in absolute terms, repetitions and end-of-game sweeps.
//!
//! The layer is split so the other presets of RULES.md fit later without touching this hot path:
//! relay sowing, 4-row boards and more players get their own board and rules types behind the same
//! `node`/`predecessors` shape, while two-row single-lap games keep the packed fast path.

mod board;
mod game;
mod namnam;
mod options;
mod parse;
mod playable;
mod rules;
mod sowing;
mod variant;

pub use board::{byte_sum, ones, Board, NORTH};
pub use game::{EndReason, Game, Side};
pub use namnam::{NamNamMatch, Phase, RoundResult, MAX_ROUNDS};
pub use options::{Rule, RuleSet, RULES};
pub use parse::{parse_moves, parse_position};
pub use playable::Playable;
pub use rules::{Child, Children, Next, Node, Rules, MAX_MOVES, PASS, STORE};
pub use variant::{
    CaptureScope, Family, GrandSlam, Options, PlayEnd, Preset, Starving, Variant, MAX_SEEDS,
};

/// Every way user input or a move can be wrong. Each message says what to do instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error("unknown variant '{0}'; run `mancala variants` for the list")]
    UnknownVariant(String),
    #[error("{variant} takes {min}..={max} pits per side, not {got}")]
    PitsOutOfRange {
        variant: &'static str,
        got: u32,
        min: u8,
        max: u8,
    },
    #[error("{variant} takes {min}..={max} seeds per pit, not {got}")]
    SeedsOutOfRange {
        variant: &'static str,
        got: u32,
        min: u8,
        max: u8,
    },
    #[error("option {option} does not apply to {variant}: {hint}")]
    OptionNotForVariant {
        option: &'static str,
        variant: &'static str,
        hint: &'static str,
    },
    #[error("unknown grand-slam treatment '{0}'; choose one of forbidden (gs1), no-capture (gs2), take-all (gs3a), victim-takes-rest (gs3b), spare-last (gs4), spare-first (gs5), extra-move (gs6)")]
    UnknownGrandSlam(String),
    #[error("option '{rule}' does not apply to {variant}; its options are: {choices}")]
    UnknownRule {
        rule: String,
        variant: &'static str,
        choices: String,
    },
    #[error("{variant} holds at most {max} seeds (one byte a pit, its top bit kept free); {got} is too many: lower --pits or --seeds")]
    TooManySeeds {
        variant: &'static str,
        got: u32,
        max: u32,
    },
    #[error("{0}")]
    BadMatchMove(String),
    #[error("bad --owners: {0}")]
    BadOwners(String),
    #[error("bad position: {0}")]
    BadPosition(String),
    #[error("bad move '{0}': give the mover's pit index 0..{1} (or a letter a..)")]
    BadMove(String, usize),
    #[error("illegal move {pit}: legal moves are [{legal}]")]
    IllegalMove { pit: usize, legal: String },
    #[error("the game is over; no move {0} can be played")]
    GameOver(usize),
}
