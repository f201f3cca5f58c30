//! The named rule options of the sowing-family presets (`--rule NAME`): the alternatives to the
//! readings chosen where a source is silent or unclear (docs/rules.md, ayo-ayo, nam-nam, congkak,
//! bao-kenya and bao-kenya-laps), and Mankala uniwersalna's ten optional rules (docs/rules.md,
//! mankala-2p, mankala-3p, mankala-4p).

use crate::{Preset, RulesError};

/// One named rule option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Mankala rule 1: a touched pit must be played. Physical play only: changes nothing here.
    TouchMove,
    /// Mankala rule 2: 3 seeds a pit (when `--seeds` is not given).
    ThreeSeeds,
    /// Mankala rule 3: the capturing seed stays on the board.
    CapturerStays,
    /// Mankala rule 4: the first player to empty his pits ends the game; seeds left in the
    /// other's pits count for nobody.
    FirstEmptyEnds,
    /// Mankala rule 5: the houses are not sown; captures are the only way to bank seeds.
    HousesNotSown,
    /// Mankala rule 7: an empty player must be fed; if no move feeds him, each side banks its
    /// own seeds and the game ends.
    MustFeed,
    /// Mankala rule 8: a last seed in an own empty pit is banked even when the opposite pit
    /// is empty.
    KeepLastSeed,
    /// Mankala rule 9: relay sowing (a last seed in an occupied pit lifts it and sows on).
    Relay,
    /// Mankala rule 10: the pit the last seed makes four (either side) is captured, and only
    /// it; replaces the capture opposite an empty pit.
    CaptureFour,
    /// Congkak and the Kenyan Bao games: the capturing seed is banked with the capture (the
    /// default leaves it, as the texts say nothing of it or say it stays).
    CaptureWithLast,
    /// Congkak: a player without seeds passes and play goes on until the pits are empty (the
    /// default is Kalah's end: the game ends when a row is empty, each banks his own row).
    PassWhenEmpty,
    /// Relay games without a stated origin rule (ayo-ayo, nam-nam, the Kenyan laps): skip
    /// the pit a sowing started from when it comes round again.
    OriginSkip,
    /// Ayo-ayo: the player with no seeds to move loses them all to the opponent (the default
    /// ends the game with the seeds left counting for nobody).
    OpponentTakesRest,
}

/// Name, alias, presets it applies to, one line of help.
type RuleRow = (
    Rule,
    &'static str,
    &'static str,
    &'static [Preset],
    &'static str,
);

const MANKALA: &[Preset] = &[Preset::Mankala2p];

/// Every rule option.
pub const RULES: [RuleRow; 13] = [
    (Rule::TouchMove, "touch-move", "rule1", MANKALA, "a touched pit must be played (physical play only; changes nothing here)"),
    (Rule::ThreeSeeds, "three-seeds", "rule2", MANKALA, "3 seeds a pit at the start"),
    (Rule::CapturerStays, "capturer-stays", "rule3", MANKALA, "the capturing seed stays on the board; only the opposite seeds are taken"),
    (Rule::FirstEmptyEnds, "first-empty-ends", "rule4", MANKALA, "the first player to empty his pits ends the game; seeds left count for nobody"),
    (Rule::HousesNotSown, "houses-not-sown", "rule5", MANKALA, "houses are skipped when sowing; only captures bank seeds"),
    (Rule::MustFeed, "must-feed", "rule7", MANKALA, "an empty opponent must be fed; if no move feeds him, each banks his own seeds"),
    (Rule::KeepLastSeed, "keep-last-seed", "rule8", MANKALA, "a last seed in an own empty pit is banked even if the opposite pit is empty"),
    (Rule::Relay, "relay", "rule9", MANKALA, "relay sowing: a last seed in an occupied pit lifts it and sows on"),
    (Rule::CaptureFour, "capture-four", "rule10", MANKALA, "a pit the last seed makes four is captured (only those four), instead of the capture opposite an empty pit"),
    (Rule::CaptureWithLast, "capture-with-last", "", &[Preset::Congkak, Preset::BaoKenya, Preset::BaoKenyaLaps], "the capturing seed is banked with the captured pit"),
    (Rule::PassWhenEmpty, "pass-when-empty", "", &[Preset::Congkak], "a player without seeds passes; play goes on until the pits are empty"),
    (Rule::OriginSkip, "origin-skip", "", &[Preset::AyoAyo, Preset::NamNam, Preset::BaoKenyaLaps, Preset::Congkak], "a sowing that comes round skips the pit it started from"),
    (Rule::OpponentTakesRest, "opponent-takes-rest", "", &[Preset::AyoAyo], "a player with no seeds to move loses the seeds left to the opponent"),
];

impl Rule {
    /// The name `--rule` takes, e.g. `relay`.
    pub fn name(self) -> &'static str {
        RULES.iter().find(|r| r.0 == self).map_or("?", |r| r.1)
    }

    /// Does the option change any position's value (and so the table key)?
    pub fn changes_values(self) -> bool {
        !matches!(self, Rule::TouchMove | Rule::ThreeSeeds)
    }

    /// Parses `name` (or its alias, e.g. `rule9`) for `preset`.
    pub fn parse(preset: Preset, name: &str) -> Result<Rule, RulesError> {
        let low = name.trim().to_ascii_lowercase();
        let row = RULES
            .iter()
            .find(|r| r.1 == low || (!r.2.is_empty() && r.2 == low));
        match row {
            Some(r) if r.3.contains(&preset) => Ok(r.0),
            _ => Err(RulesError::UnknownRule {
                rule: name.trim().to_string(),
                variant: preset.name(),
                choices: Rule::choices(preset),
            }),
        }
    }

    /// The options of `preset`, comma-separated (for messages).
    pub fn choices(preset: Preset) -> String {
        let names: Vec<&str> = Rule::for_preset(preset).map(|r| r.1).collect();
        if names.is_empty() {
            "none".into()
        } else {
            names.join(", ")
        }
    }

    /// The option rows of `preset`.
    pub fn for_preset(preset: Preset) -> impl Iterator<Item = &'static RuleRow> {
        RULES.iter().filter(move |r| r.3.contains(&preset))
    }
}

/// A set of [`Rule`]s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuleSet(u16);

impl RuleSet {
    fn bit(r: Rule) -> u16 {
        1 << RULES.iter().position(|x| x.0 == r).unwrap_or(0)
    }

    /// The set with `r` added.
    pub fn with(mut self, r: Rule) -> RuleSet {
        self.0 |= RuleSet::bit(r);
        self
    }

    /// Is `r` in the set?
    pub fn has(self, r: Rule) -> bool {
        self.0 & RuleSet::bit(r) != 0
    }

    /// No option set: the preset's own rules.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The options set, in table order.
    pub fn iter(self) -> impl Iterator<Item = Rule> {
        RULES.iter().map(|r| r.0).filter(move |&r| self.has(r))
    }

    /// Parses a list of option names for `preset`.
    pub fn parse<S: AsRef<str>>(preset: Preset, names: &[S]) -> Result<RuleSet, RulesError> {
        names.iter().try_fold(RuleSet::default(), |set, n| {
            Ok(set.with(Rule::parse(preset, n.as_ref())?))
        })
    }
}

/// The words a rule option that is on or off takes (`--rule name=on`), for every game crate:
/// `on`, `yes`, `true` or `1`, and `off`, `no`, `false` or `0`; `None` for any other word.
pub fn switch_word(v: &str) -> Option<bool> {
    match v {
        "on" | "yes" | "true" | "1" => Some(true),
        "off" | "no" | "false" | "0" => Some(false),
        _ => None,
    }
}
