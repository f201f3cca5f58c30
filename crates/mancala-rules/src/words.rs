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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RulesError;

    /// A front end that marks every option, to see each one named through it.
    struct Marked;

    impl Wording for Marked {
        fn option(&self, option: GameOption) -> String {
            format!("<{}>", option.name())
        }

        fn presets(&self) -> Option<&str> {
            Some("<list>")
        }
    }

    #[test]
    fn errors_read_neutral_and_name_options_through_a_wording() {
        let e = RulesError::TooManySeeds {
            variant: "awari",
            got: 128,
            max: 127,
        };
        assert!(e
            .to_string()
            .ends_with("128 is too many: lower pits or seeds"));
        assert!(e.worded(&Marked).ends_with("lower <pits> or <seeds>"));
        let e = RulesError::UnknownVariant("nope".into());
        assert_eq!(e.to_string(), "unknown variant 'nope'");
        assert_eq!(
            e.worded(&Marked),
            "unknown variant 'nope'; run <list> for the list"
        );
        let e = RulesError::OptionNotTaken {
            preset: "bao-kiswahili".into(),
            option: GameOption::EmptyCapture,
        };
        assert_eq!(
            e.worded(&Marked),
            "bao-kiswahili does not take <empty capture>: it belongs to kalah and mancala; drop it"
        );
        // An error that names no option reads the same in any words.
        let e = RulesError::GameOver(3);
        assert_eq!(e.worded(&Marked), e.to_string());
    }
}
