//! The words an error uses for what the user gave. The libraries name a game's options
//! neutrally (`pits`, `owners`); each front end names them its own way (the command line
//! `--pits`, the web API its parameter `pits`) through a [`Wording`], so one error reads
//! right wherever it is shown.

use std::fmt;

/// An option of a game, as an error names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameOption {
    /// Pits per side (or per player).
    Pits,
    /// Seeds per pit (the forced-move games: seeds in all).
    Seeds,
    /// Kalah type: the last seed in an empty own pit is stored even opposite an empty pit.
    EmptyCapture,
    /// Wari's grand-slam treatment.
    GrandSlam,
    /// A named rule option.
    Rule,
    /// Nam-nam, a later round: who owns each pit.
    Owners,
    /// A position to start from.
    Position,
    /// The forced-move games: the distributor's setup.
    Setup,
    /// The forced-move games: the second player took the swap.
    Swap,
}

impl GameOption {
    /// Every option, in the order a [`crate::GameSpec`] holds them.
    pub const ALL: [GameOption; 9] = [
        GameOption::Pits,
        GameOption::Seeds,
        GameOption::EmptyCapture,
        GameOption::GrandSlam,
        GameOption::Rule,
        GameOption::Owners,
        GameOption::Position,
        GameOption::Setup,
        GameOption::Swap,
    ];

    /// Its neutral name: `pits`, `empty capture`.
    pub fn name(self) -> &'static str {
        match self {
            GameOption::Pits => "pits",
            GameOption::Seeds => "seeds",
            GameOption::EmptyCapture => "empty capture",
            GameOption::GrandSlam => "grand slam",
            GameOption::Rule => "rule",
            GameOption::Owners => "owners",
            GameOption::Position => "position",
            GameOption::Setup => "setup",
            GameOption::Swap => "swap",
        }
    }

    /// The games that take it, for an error saying it was given to another.
    pub fn takers(self) -> &'static str {
        match self {
            GameOption::EmptyCapture => "kalah and mancala",
            GameOption::GrandSlam => "wari",
            GameOption::Owners => "nam-nam",
            GameOption::Setup | GameOption::Swap => {
                "the forced-move games (madjnuni, el-akil, el-ghasheem)"
            }
            GameOption::Position => "the games that start from a position",
            _ => "other games",
        }
    }
}

impl fmt::Display for GameOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a front end names what the libraries' errors point the user to.
pub trait Wording {
    /// How the user gives `option` here, e.g. `--pits` or `pits`.
    fn option(&self, option: GameOption) -> String;

    /// Where the user finds the list of presets here, if anywhere, e.g. "`mancala variants`".
    fn presets(&self) -> Option<&str>;
}

/// The libraries' own words: the neutral names, no place to look things up.
#[derive(Clone, Copy, Debug, Default)]
pub struct Neutral;

impl Wording for Neutral {
    fn option(&self, option: GameOption) -> String {
        option.name().to_string()
    }

    fn presets(&self) -> Option<&str> {
        None
    }
}
