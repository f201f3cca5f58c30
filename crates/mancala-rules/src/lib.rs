//! Exact rules of the two-row sowing games: Awari, Oware, Wari, Kalah, Mancala and the relay games
//! sown seed by seed (ayo-ayo, nam-nam, congkak, the Kenyan Bao games, two-player Mankala). It also
//! holds what every game crate of the workspace shares: [`Side`], the [`Playable`] game and the
//! [`GameFamily`] / [`Engine`] interface.
//!
//! ```
//! use mancala_rules::{parse_position, Next, Node, Preset, Rules, Variant};
//!
//! let rules = Rules::new(Variant::preset(Preset::Awari));
//! let start = rules.start();
//! assert_eq!(start.pits(12), vec![4; 12]);
//!
//! // Six legal moves at the start, one for each pit of the side to move.
//! let Node::Moves(moves) = rules.node(start) else { panic!("the start has moves") };
//! assert_eq!(moves.len(), 6);
//!
//! // Pit 5 sows its 4 seeds into the opponent's first four pits and captures nothing. The
//! // child is seen from the opponent, who moves next: his row first.
//! let sow = moves.iter().find(|c| c.pit == 5).unwrap();
//! assert_eq!((sow.gain, sow.next), (0, Next::Opponent));
//! assert_eq!(sow.board.pits(12), vec![5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4, 0]);
//!
//! // A capture: the last seed makes the opponent's pit 7 hold 2, and pit 6 before it too.
//! let b = parse_position(&rules, "0 0 0 0 0 2 1 1 3 0 0 0").unwrap();
//! let Node::Moves(moves) = rules.node(b) else { panic!("pit 5 can move") };
//! assert_eq!(moves.len(), 1);
//! assert_eq!(moves.as_slice()[0].gain, 4);
//! ```
//!
//! Positions are packed one byte per pit in a `u128` ([`Board`]), always seen from the side to move
//! (the mover-relative order of docs/rules.md, Conventions). [`Rules`] compiles a [`Variant`] into
//! sowing tables so a move is a handful of word operations; [`Game`] adds what only matters when a
//! game is played move by move: stores, whose turn it is in absolute terms, repetitions and
//! end-of-game sweeps.
//!
//! The layer is split so the other presets fit without touching this hot path: relay sowing,
//! 4-row boards and more players get their own board and rules types behind the same
//! `node`/`predecessors` shape, while two-row single-lap games keep the packed fast path.

#![warn(missing_docs)]

mod board;
mod draw;
mod family;
mod game;
mod namnam;
mod options;
mod parse;
mod playable;
mod rules;
mod sowing;
mod variant;
mod words;

pub use board::{byte_sum, ones, Board, NORTH};
pub use family::{
    downcast, Choice, Engine, Field, GameError, GameFamily, GameSpec, PresetInfo, Report,
};
pub use game::{EndReason, Game, Side};
pub use namnam::{NamNamMatch, Phase, RoundResult, MAX_ROUNDS};
pub use options::{switch_word, Rule, RuleSet, RULES};
pub use parse::{parse_moves, parse_position, position_from_pits};
pub use playable::Playable;
pub use rules::{Child, Children, MoveAt, Next, Node, Rules, MAX_MOVES, PASS, STORE};
pub use variant::{
    CaptureScope, Family, GrandSlam, Options, PlayEnd, Preset, Starving, Variant, MAX_SEEDS,
};
pub use words::{GameOption, Neutral, Wording};

/// A count as people read it, its digits grouped by thousands: `29,775,109`. Every message
/// meant for people (the command line's text, errors, the web oracle's error messages) shows
/// counts this way; JSON numbers stay plain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grouped(pub u128);

impl std::fmt::Display for Grouped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let digits = self.0.to_string();
        let mut out = String::with_capacity(digits.len() * 4 / 3);
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        // Padded as a string, so that `{:>12}` lines columns up.
        f.pad(&out)
    }
}

/// Every way user input or a move can be wrong. Each message says what to do instead, in
/// neutral words; [`RulesError::worded`] names the options as a front end does.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// No preset has this name.
    #[error("{}", self.worded(&Neutral))]
    UnknownVariant(String),
    /// The pits or the seeds per pit are outside the preset's range.
    #[error("{variant} takes {min}..={max} {}, not {got}", per(*option))]
    OutOfRange {
        /// [`GameOption::Pits`] or [`GameOption::Seeds`].
        option: GameOption,
        /// The preset's name.
        variant: &'static str,
        /// The count asked for.
        got: u32,
        /// The fewest the preset takes.
        min: u8,
        /// The most the preset takes.
        max: u8,
    },
    /// An option was given to a preset it does not apply to.
    #[error("{}", self.worded(&Neutral))]
    OptionNotForVariant {
        /// The option.
        option: GameOption,
        /// The preset's name.
        variant: &'static str,
        /// What to do instead.
        hint: &'static str,
    },
    /// `--grand-slam` names no treatment.
    #[error("unknown grand-slam treatment '{0}'; choose one of forbidden (gs1), no-capture (gs2), take-all (gs3a), victim-takes-rest (gs3b), spare-last (gs4), spare-first (gs5), extra-move (gs6)")]
    UnknownGrandSlam(String),
    /// `--rule` names an option the preset does not have.
    #[error("option '{rule}' does not apply to {variant}; its options are: {choices}")]
    UnknownRule {
        /// The option, as typed.
        rule: String,
        /// The preset's name.
        variant: &'static str,
        /// The preset's options, comma-separated.
        choices: String,
    },
    /// The board would hold more seeds than a packed pit byte allows.
    #[error("{}", self.worded(&Neutral))]
    TooManySeeds {
        /// The preset's name.
        variant: &'static str,
        /// The seeds the options add up to.
        got: u32,
        /// The most seeds a game may hold ([`MAX_SEEDS`]).
        max: u32,
    },
    /// A nam-nam match move that is not legal now; the message says why.
    #[error("{0}")]
    BadMatchMove(String),
    /// `--owners` is not a valid ownership string.
    #[error("{}", self.worded(&Neutral))]
    BadOwners(String),
    /// A position string that cannot be read or does not fit the rules.
    #[error("bad position: {0}")]
    BadPosition(String),
    /// A position names a side to move (the word given) where the players own the same pits.
    #[error("{}", self.worded(&Neutral))]
    SideNotNeeded(String),
    /// A position holds more seeds than the game has.
    #[error("{}", self.worded(&Neutral))]
    TooManySeedsInPosition {
        /// The seeds in the position's pits.
        total: u32,
        /// The seeds the game has.
        max: u32,
    },
    /// An option was given to a preset whose family does not take it.
    #[error("{}", self.worded(&Neutral))]
    OptionNotTaken {
        /// The preset's name.
        preset: String,
        /// The option.
        option: GameOption,
    },
    /// Pits or seeds were given to a preset played on one board only.
    #[error("{}", self.worded(&Neutral))]
    FixedBoard {
        /// The preset's name.
        preset: String,
        /// Its board, e.g. `4x8`.
        board: &'static str,
    },
    /// A position was given to a preset that starts from a setup.
    #[error("{}", self.worded(&Neutral))]
    SetupNotPosition {
        /// The preset's name.
        preset: String,
    },
    /// A move name that is not a pit index (with the largest pit index).
    #[error("bad move '{0}': give the mover's pit index 0..{1} (or a letter a..)")]
    BadMove(String, usize),
    /// A pit that is not a legal move in this position.
    #[error("illegal move {pit}: legal moves are [{legal}]")]
    IllegalMove {
        /// The pit asked for.
        pit: usize,
        /// The legal pits, comma-separated.
        legal: String,
    },
    /// A move asked for after the game ended.
    #[error("the game is over; no move {0} can be played")]
    GameOver(usize),
}

/// What a count of `option` counts, for [`RulesError::OutOfRange`].
fn per(option: GameOption) -> &'static str {
    match option {
        GameOption::Pits => "pits per side",
        _ => "seeds per pit",
    }
}

impl RulesError {
    /// The message with the options named in `words` (the [`std::fmt::Display`] of an error
    /// is this in [`Neutral`] words).
    pub fn worded(&self, words: &dyn Wording) -> String {
        let o = |option| words.option(option);
        match self {
            RulesError::UnknownVariant(name) => match words.presets() {
                Some(list) => format!("unknown variant '{name}'; run {list} for the list"),
                None => format!("unknown variant '{name}'"),
            },
            RulesError::OptionNotForVariant {
                option,
                variant,
                hint,
            } => format!("option {} does not apply to {variant}: {hint}", o(*option)),
            RulesError::TooManySeeds { variant, got, max } => format!(
                "{variant} holds at most {max} seeds (one byte a pit, its top bit kept free); {got} is too many: lower {} or {}",
                o(GameOption::Pits),
                o(GameOption::Seeds)
            ),
            RulesError::BadOwners(why) => format!("bad {}: {why}", o(GameOption::Owners)),
            RulesError::SideNotNeeded(side) => format!(
                "bad position: '{side}': a side to move is given only where the players own different pits (nam-nam {}); here the mover's pits come first",
                o(GameOption::Owners)
            ),
            RulesError::TooManySeedsInPosition { total, max } => format!(
                "bad position: {total} seeds in the pits, but this game has only {max} (raise {} or {})",
                o(GameOption::Seeds),
                o(GameOption::Pits)
            ),
            RulesError::OptionNotTaken { preset, option } => format!(
                "{preset} does not take {}: it belongs to {}; drop it",
                o(*option),
                option.takers()
            ),
            RulesError::FixedBoard { preset, board } => format!(
                "{preset} is played on its fixed {board} board: drop {} and {}",
                o(GameOption::Pits),
                o(GameOption::Seeds)
            ),
            RulesError::SetupNotPosition { preset } => format!(
                "{preset} starts from a setup: give {} \"c1 c2 ..\" instead of a position",
                o(GameOption::Setup)
            ),
            e => e.to_string(),
        }
    }
}
