//! The games behind one interface: a [`GameFamily`] is a crate's set of presets (its summary,
//! options and games), an [`Engine`] what plays them (perfect play over the tables, Bao's
//! alpha-beta, max-n for more players).
//!
//! The command line keeps one list of families and asks them, in order, who plays a preset
//! name; everything after that goes through these traits. Adding a game means writing its
//! crate, implementing [`GameFamily`] (and [`Engine`] if something can play it), and adding
//! the family to that one list.

use crate::{GameOption, Playable, RulesError};
use std::error::Error;

/// An error from a game crate, already worded for the user (each crate keeps its own typed
/// error; the interface only needs to show it).
pub type GameError = Box<dyn Error + Send + Sync>;

/// A preset and every option as the user gave them. Each family takes what applies to it and
/// refuses, with a message that says what to drop, what does not.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameSpec {
    /// The preset name, lower case, e.g. `awari`, `bao-kiswahili`.
    pub preset: String,
    /// Pits per side (or per player).
    pub pits: Option<u32>,
    /// Seeds per pit at the start (the forced-move games: seeds in all).
    pub seeds: Option<u32>,
    /// Kalah type: the last seed in an empty own pit is stored even opposite an empty pit.
    pub empty_capture: bool,
    /// Wari: the grand-slam treatment, as typed.
    pub grand_slam: Option<String>,
    /// Named rule options, `name` or `name=value`.
    pub rules: Vec<String>,
    /// Nam-nam, a later round: who owns each pit (`s`/`n` a pit).
    pub owners: Option<String>,
    /// A position to start from, in the family's own format.
    pub position: Option<String>,
    /// The forced-move games: the distributor's setup.
    pub setup: Option<String>,
    /// The forced-move games: the second player took the swap.
    pub swapped: bool,
}

impl GameSpec {
    /// The options given.
    pub fn given(&self) -> Vec<GameOption> {
        GameOption::ALL
            .into_iter()
            .filter(|&option| match option {
                GameOption::Pits => self.pits.is_some(),
                GameOption::Seeds => self.seeds.is_some(),
                GameOption::EmptyCapture => self.empty_capture,
                GameOption::GrandSlam => self.grand_slam.is_some(),
                GameOption::Rule => !self.rules.is_empty(),
                GameOption::Owners => self.owners.is_some(),
                GameOption::Position => self.position.is_some(),
                GameOption::Setup => self.setup.is_some(),
                GameOption::Swap => self.swapped,
            })
            .collect()
    }

    /// Fails on the first option given that is not in `allowed`, saying which games take it
    /// ([`RulesError::OptionNotTaken`]).
    pub fn only(&self, allowed: &[GameOption]) -> Result<(), GameError> {
        match self.given().into_iter().find(|o| !allowed.contains(o)) {
            None => Ok(()),
            Some(option) => Err(RulesError::OptionNotTaken {
                preset: self.preset.clone(),
                option,
            }
            .into()),
        }
    }
}

impl GameSpec {
    /// The packed two-row rule set this spec names (presets of [`crate::Preset`] only).
    pub fn variant(&self) -> Result<crate::Variant, crate::RulesError> {
        use crate::{GrandSlam, Options, Preset, RuleSet, Variant};
        let preset: Preset = self.preset.parse()?;
        let grand_slam = match &self.grand_slam {
            None => None,
            Some(s) => Some(s.parse::<GrandSlam>()?),
        };
        Variant::new(
            preset,
            Options {
                pits: self.pits,
                seeds: self.seeds,
                empty_capture: self.empty_capture,
                grand_slam,
                rules: RuleSet::parse(preset, &self.rules)?,
                // Elsewhere than nam-nam the option itself is the error, whatever its text.
                owners: match &self.owners {
                    Some(t) if preset == Preset::NamNam => Some(Variant::parse_owners(
                        self.pits.unwrap_or(preset.default_size().0 as u32),
                        t,
                    )?),
                    Some(_) => Some(0),
                    None => None,
                },
            },
        )
    }
}

/// What one preset of a family is, for listings (`mancala variants`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PresetInfo {
    /// The name users type.
    pub name: &'static str,
    /// The rule family it belongs to, e.g. `awari`, `kalah`, `sowing`, `bao`, `multi`.
    pub family: &'static str,
    /// One line describing the game.
    pub summary: &'static str,
    /// Its options: (name, one-line help). A name starting with `--` is a flag of its own;
    /// any other is given as `--rule NAME`.
    pub options: Vec<(&'static str, &'static str)>,
    /// Whether endgame tables can be built for it.
    pub tables: bool,
    /// Every move is forced (no choice during play): `mancala play` plays the game out.
    pub forced: bool,
    /// `None` if it can be played, else why not.
    pub unplayable: Option<&'static str>,
}

impl PresetInfo {
    /// A playable preset without tables, if `preset` is one of `names`; its summary and
    /// options come from the family's crate.
    pub fn find(
        preset: &str,
        names: &[&'static str],
        family: &'static str,
        summary: impl Fn(&str) -> Option<&'static str>,
        options: impl Fn(&str) -> Vec<(&'static str, &'static str)>,
    ) -> Option<PresetInfo> {
        let name = *names.iter().find(|&&p| p == preset)?;
        Some(PresetInfo {
            name,
            family,
            summary: summary(name).unwrap_or(""),
            options: options(name),
            tables: false,
            forced: false,
            unplayable: None,
        })
    }
}

/// A crate's presets: what they are and how to start a game of one.
pub trait GameFamily: Sync {
    /// The names of the presets this family plays.
    fn presets(&self) -> Vec<&'static str>;

    /// What `preset` is (`None` if this family does not play it).
    fn info(&self, preset: &str) -> Option<PresetInfo>;

    /// A new game of `spec.preset`, from its start, `spec.position` or `spec.setup`.
    fn new_game(&self, spec: &GameSpec) -> Result<Box<dyn Playable>, GameError>;

    /// Something that plays `spec.preset` (`Ok(None)` when nothing does, e.g. a game without
    /// choices).
    fn engine(&self, spec: &GameSpec) -> Result<Option<Box<dyn Engine>>, GameError> {
        let _ = spec;
        Ok(None)
    }

    /// `mancala solve` for a family without tables: the game's value in the family's own
    /// terms (max-n scores, a setup played both ways), searching at most `node_limit` nodes.
    fn solve(&self, spec: &GameSpec, node_limit: u64) -> Result<Report, GameError> {
        let _ = node_limit;
        Err(format!("{} has no solver", spec.preset).into())
    }
}

/// A family's answer to `mancala solve`: lines for people and fields for `--json`, so the
/// command line prints every family's answer the same way without knowing its types.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// What to print, a line each.
    pub lines: Vec<String>,
    /// The same answer as named fields (a JSON object).
    pub fields: Vec<(&'static str, Field)>,
}

/// A field of a [`Report`]: the shapes JSON has.
#[derive(Clone, Debug, PartialEq)]
pub enum Field {
    /// No value (JSON `null`), e.g. a result not known.
    Null,
    /// A yes/no answer.
    Bool(bool),
    /// A number: a value, a count or a seed total.
    Int(i64),
    /// A string: a move name, a side, a rule.
    Text(String),
    /// A list of fields, e.g. a principal variation.
    List(Vec<Field>),
    /// Named fields, in the order they are printed.
    Object(Vec<(&'static str, Field)>),
}

impl From<bool> for Field {
    fn from(b: bool) -> Field {
        Field::Bool(b)
    }
}

impl From<u32> for Field {
    fn from(n: u32) -> Field {
        Field::Int(n.into())
    }
}

impl From<u64> for Field {
    fn from(n: u64) -> Field {
        Field::Int(n.try_into().unwrap_or(i64::MAX))
    }
}

impl From<usize> for Field {
    fn from(n: usize) -> Field {
        Field::Int(n.try_into().unwrap_or(i64::MAX))
    }
}

impl From<i32> for Field {
    fn from(n: i32) -> Field {
        Field::Int(n.into())
    }
}

impl From<&str> for Field {
    fn from(s: &str) -> Field {
        Field::Text(s.to_string())
    }
}

impl From<String> for Field {
    fn from(s: String) -> Field {
        Field::Text(s)
    }
}

impl<T: Into<Field>> From<Option<T>> for Field {
    fn from(v: Option<T>) -> Field {
        v.map_or(Field::Null, Into::into)
    }
}

impl<T: Into<Field>> From<Vec<T>> for Field {
    fn from(v: Vec<T>) -> Field {
        Field::List(v.into_iter().map(Into::into).collect())
    }
}

/// A move an engine chose, with what it thinks of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move's name, as [`Playable::play`] takes it.
    pub name: String,
    /// One short phrase on why, e.g. `value +2 for south` or `evaluation -3`.
    pub note: String,
}

/// A player of one game: perfect play, a heuristic search, max-n.
///
/// An engine works on the game's own state, so it expects a game made by the same family's
/// [`GameFamily::new_game`] (reached through [`Playable::as_any`]); any other game is an
/// error, not a panic.
pub trait Engine {
    /// The move to play in `game`, which is not over.
    fn choose(&mut self, game: &dyn Playable) -> Result<Choice, GameError>;

    /// Every legal move of `game` with what the engine makes of it, e.g. `("3", "+2")`.
    fn hints(&mut self, game: &dyn Playable) -> Result<Vec<(String, String)>, GameError>;
}

/// The game an engine of family `engine` works on, or the error for a game of another family.
pub fn downcast<'a, T: 'static>(game: &'a dyn Playable, engine: &str) -> Result<&'a T, GameError> {
    game.as_any()
        .downcast_ref::<T>()
        .ok_or_else(|| format!("the {engine} engine was given a game it does not play").into())
}
