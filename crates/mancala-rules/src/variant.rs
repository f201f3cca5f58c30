//! Presets and rule options: the exact rule set a position is played under.
//!
//! A [`Variant`] is plain data (what the user chose); [`crate::Rules`] compiles it into the
//! lookup tables the hot path uses. The table key ([`Variant::key`]) names every choice that
//! can change a position's value, so tables of different rule sets never mix.

use crate::RulesError;
use std::fmt;
use std::str::FromStr;

/// The two families of two-row, single-lap games the fast path knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// No stores in the sowing cycle; captures of 2 or 3 on the opponent's row; origin skip.
    Awari,
    /// Stores sown into; extra move on the own store; capture opposite an empty own pit.
    Kalah,
}

/// Which opponent pits a capture by the last seed takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptureScope {
    /// The last pit and the unbroken run of preceding opponent pits holding 2 or 3.
    Contiguous,
    /// The last pit and every other opponent pit holding 2 or 3 (seed 001's Wari).
    AllOpponentPits,
}

/// What happens to a grand slam: a capture that would empty the opponent's row.
/// The ids follow seed-rules.md 3.1.3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GrandSlam {
    /// Captures like any other capture (`awari`, where the starving rule decides legality).
    Capture,
    /// GS1: illegal; a player whose every move is a grand slam takes all seeds left.
    Forbidden,
    /// GS2: legal, captures nothing (Abapa, the tournament rule).
    NoCapture,
    /// GS3a: legal; the slammer takes every seed on the board and the game ends.
    TakeAll,
    /// GS3b: legal; the slammer keeps the capture, the victim takes the rest, game over.
    VictimTakesRest,
    /// GS4: legal, but the opponent's last pit in sowing order is not captured.
    SpareLast,
    /// GS5: legal, but the opponent's first pit in sowing order is not captured.
    SpareFirst,
    /// GS6: captures everything and the victim loses his next move.
    ExtraMove,
}

impl GrandSlam {
    /// Names accepted by `--grand-slam`, with the seed-rules.md id they stand for.
    pub const CHOICES: [(&'static str, &'static str, GrandSlam); 8] = [
        ("forbidden", "gs1", GrandSlam::Forbidden),
        ("no-capture", "gs2", GrandSlam::NoCapture),
        ("take-all", "gs3a", GrandSlam::TakeAll),
        ("victim-takes-rest", "gs3b", GrandSlam::VictimTakesRest),
        ("spare-last", "gs4", GrandSlam::SpareLast),
        ("spare-first", "gs5", GrandSlam::SpareFirst),
        ("extra-move", "gs6", GrandSlam::ExtraMove),
        ("capture", "awari", GrandSlam::Capture),
    ];

    pub fn name(self) -> &'static str {
        Self::CHOICES
            .iter()
            .find(|c| c.2 == self)
            .map(|c| c.0)
            .unwrap_or("capture")
    }

    pub fn id(self) -> &'static str {
        Self::CHOICES
            .iter()
            .find(|c| c.2 == self)
            .map(|c| c.1)
            .unwrap_or("awari")
    }
}

impl FromStr for GrandSlam {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim().to_ascii_lowercase();
        let s = if s == "gs3" { "gs3a".to_string() } else { s };
        GrandSlam::CHOICES
            .iter()
            .find(|c| c.0 == s || c.1 == s)
            .map(|c| c.2)
            .ok_or_else(|| RulesError::UnknownGrandSlam(s.clone()))
    }
}

/// What a player may do to an opponent without seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Starving {
    /// `awari`: a move that leaves the opponent empty is illegal unless every move does so.
    IllegalUnlessForced,
    /// `oware`/`wari`: feed an empty opponent if any move can; if none can, take your own row.
    MustFeed,
}

/// How a game played move by move ends (tables never depend on this).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayEnd {
    /// `awari`: play to exhaustion; a third occurrence of a position ends it, rows to owners.
    Exhaust,
    /// `oware`/`wari`: more than half the seeds wins at once; a repeated position ends it.
    Majority,
    /// Kalah type: the game ends when a row is empty.
    EmptyRow,
}

/// The named presets of RULES.md with exact rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    Awari,
    Oware,
    Wari,
    Kalah,
    Mancala,
}

impl Preset {
    pub const ALL: [Preset; 5] = [
        Preset::Awari,
        Preset::Oware,
        Preset::Wari,
        Preset::Kalah,
        Preset::Mancala,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Preset::Awari => "awari",
            Preset::Oware => "oware",
            Preset::Wari => "wari",
            Preset::Kalah => "kalah",
            Preset::Mancala => "mancala",
        }
    }

    pub fn family(self) -> Family {
        match self {
            Preset::Awari | Preset::Oware | Preset::Wari => Family::Awari,
            Preset::Kalah | Preset::Mancala => Family::Kalah,
        }
    }

    /// Default pits per side and seeds per pit.
    pub fn default_size(self) -> (u8, u8) {
        match self {
            Preset::Kalah => (6, 6),
            _ => (6, 4),
        }
    }

    /// One line for `mancala variants`.
    pub fn summary(self) -> &'static str {
        match self {
            Preset::Awari => "Awari as solved by Romein & Bal (2002): grand slams capture, starving the opponent is illegal unless forced",
            Preset::Oware => "Oware Abapa, the tournament rule: a grand slam captures nothing, an empty opponent must be fed",
            Preset::Wari => "Wari of seed 001: a capture takes every opponent pit holding 2 or 3; six grand-slam treatments",
            Preset::Kalah => "Kalah: stores are sown, the last seed in the own store moves again, capture opposite an empty own pit",
            Preset::Mancala => "The US 4-seed Mancala: Kalah rules with 4 seeds a pit",
        }
    }

    /// The allowed range of pits per side.
    pub fn pit_range(self) -> (u8, u8) {
        match self.family() {
            Family::Awari => (1, 8),
            Family::Kalah => (1, 6),
        }
    }

    /// The allowed range of seeds per pit.
    pub fn seed_range(self) -> (u8, u8) {
        match self.family() {
            Family::Awari => (1, 8),
            Family::Kalah => (1, 10),
        }
    }
}

impl FromStr for Preset {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let low = s.trim().to_ascii_lowercase();
        Preset::ALL
            .iter()
            .copied()
            .find(|p| p.name() == low)
            .ok_or_else(|| RulesError::UnknownVariant(s.trim().to_string()))
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The options a user may set on top of a preset. `None` keeps the preset's default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub pits: Option<u32>,
    pub seeds: Option<u32>,
    pub empty_capture: bool,
    pub grand_slam: Option<GrandSlam>,
}

/// A fully specified rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    pub preset: Preset,
    /// Pits per side.
    pub pits: u8,
    /// Seeds per pit at the start.
    pub seeds: u8,
    pub capture_scope: CaptureScope,
    pub grand_slam: GrandSlam,
    pub starving: Starving,
    /// Kalah type: the last seed in an empty own pit is stored even if the opposite pit is empty.
    pub empty_capture: bool,
}

impl Variant {
    /// The preset with its defaults.
    pub fn preset(preset: Preset) -> Variant {
        Variant::new(preset, Options::default()).expect("defaults are valid")
    }

    /// The preset with the user's options, checked.
    pub fn new(preset: Preset, opts: Options) -> Result<Variant, RulesError> {
        let (dp, ds) = preset.default_size();
        let (pmin, pmax) = preset.pit_range();
        let (smin, smax) = preset.seed_range();
        let pits = opts.pits.unwrap_or(dp as u32);
        if pits < pmin as u32 || pits > pmax as u32 {
            return Err(RulesError::PitsOutOfRange {
                variant: preset.name(),
                got: pits,
                min: pmin,
                max: pmax,
            });
        }
        let seeds = opts.seeds.unwrap_or(ds as u32);
        if seeds < smin as u32 || seeds > smax as u32 {
            return Err(RulesError::SeedsOutOfRange {
                variant: preset.name(),
                got: seeds,
                min: smin,
                max: smax,
            });
        }
        let family = preset.family();
        if opts.empty_capture && family != Family::Kalah {
            return Err(RulesError::OptionNotForVariant {
                option: "--empty-capture",
                variant: preset.name(),
                hint: "it applies to kalah and mancala",
            });
        }
        if opts.grand_slam.is_some() && preset != Preset::Wari {
            return Err(RulesError::OptionNotForVariant {
                option: "--grand-slam",
                variant: preset.name(),
                hint: "it applies to wari (awari captures, oware captures nothing)",
            });
        }
        if opts.grand_slam == Some(GrandSlam::Capture) {
            return Err(RulesError::UnknownGrandSlam(
                "capture (use the awari preset for that rule)".into(),
            ));
        }
        let (capture_scope, grand_slam, starving) = match preset {
            Preset::Awari => (
                CaptureScope::Contiguous,
                GrandSlam::Capture,
                Starving::IllegalUnlessForced,
            ),
            Preset::Oware => (
                CaptureScope::Contiguous,
                GrandSlam::NoCapture,
                Starving::MustFeed,
            ),
            Preset::Wari => (
                CaptureScope::AllOpponentPits,
                opts.grand_slam.unwrap_or(GrandSlam::NoCapture),
                Starving::MustFeed,
            ),
            Preset::Kalah | Preset::Mancala => (
                CaptureScope::Contiguous,
                GrandSlam::Capture,
                Starving::IllegalUnlessForced,
            ),
        };
        Ok(Variant {
            preset,
            pits: pits as u8,
            seeds: seeds as u8,
            capture_scope,
            grand_slam,
            starving,
            empty_capture: opts.empty_capture,
        })
    }

    pub fn family(&self) -> Family {
        self.preset.family()
    }

    /// Seeds in the game at the start.
    pub fn total_seeds(&self) -> u32 {
        2 * self.pits as u32 * self.seeds as u32
    }

    /// How a game played move by move ends.
    pub fn play_end(&self) -> PlayEnd {
        match self.preset {
            Preset::Awari => PlayEnd::Exhaust,
            Preset::Oware | Preset::Wari => PlayEnd::Majority,
            Preset::Kalah | Preset::Mancala => PlayEnd::EmptyRow,
        }
    }

    /// The name of the table folder: the preset and every option that changes a value.
    ///
    /// Kalah-type values do not depend on the seeds the game started with, so `kalah` and
    /// `mancala` of every seed count share one set (`kalah-6p`). Awari-type sets keep the seed
    /// count: the start position is indexed in the top tier, and the tier just below it is
    /// unreachable (`awari-6x4`).
    pub fn key(&self) -> String {
        let mut k = match self.family() {
            Family::Kalah => format!("kalah-{}p", self.pits),
            Family::Awari => format!("{}-{}x{}", self.preset.name(), self.pits, self.seeds),
        };
        if self.empty_capture {
            k.push_str("-empty");
        }
        if self.preset == Preset::Wari {
            k.push('-');
            k.push_str(self.grand_slam.id());
        }
        k
    }
}

impl Variant {
    /// The rule set a table key names: the inverse of [`Variant::key`]. Kalah-type keys do
    /// not record the starting seeds (the tables do not depend on them), so the preset's
    /// default is used.
    pub fn from_key(key: &str) -> Option<Variant> {
        let mut parts = key.split('-');
        let preset: Preset = parts.next()?.parse().ok()?;
        let size = parts.next()?;
        let (pits, seeds) = match preset.family() {
            Family::Kalah => (size.strip_suffix('p')?.parse().ok()?, None),
            Family::Awari => {
                let (p, s) = size.split_once('x')?;
                (p.parse().ok()?, Some(s.parse().ok()?))
            }
        };
        let mut opts = Options {
            pits: Some(pits),
            seeds,
            ..Options::default()
        };
        for option in parts {
            match option {
                "empty" => opts.empty_capture = true,
                gs if preset == Preset::Wari => opts.grand_slam = Some(gs.parse().ok()?),
                _ => return None,
            }
        }
        let v = Variant::new(preset, opts).ok()?;
        (v.key() == key).then_some(v)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({} pits x {} seeds",
            self.preset, self.pits, self.seeds
        )?;
        if self.empty_capture {
            f.write_str(", empty capture")?;
        }
        if self.preset == Preset::Wari {
            write!(
                f,
                ", grand slam {} ({})",
                self.grand_slam.name(),
                self.grand_slam.id()
            )?;
        }
        f.write_str(")")
    }
}
