//! Presets and rule options: the exact rule set a position is played under.
//!
//! A [`Variant`] is plain data (what the user chose); [`crate::Rules`] compiles it into the
//! lookup tables the hot path uses. The table key ([`Variant::key`]) names every choice that
//! can change a position's value, so tables of different rule sets never mix.

use crate::{GameOption, Rule, RuleSet, RulesError};
use std::fmt;
use std::str::FromStr;

/// Seeds a game may hold: one byte a pit with its top bit free (see [`crate::Board`]).
pub const MAX_SEEDS: u32 = 127;

/// How a preset's moves are generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// No stores in the sowing cycle; captures of 2 or 3 on the opponent's row; origin skip.
    /// Precomputed single-lap sowings (the fast path).
    Awari,
    /// Stores sown into; extra move on the own store; capture opposite an empty own pit.
    /// Precomputed single-lap sowings (the fast path).
    Kalah,
    /// The other two-player games whose seeds leave the board (relay sowing, captures of
    /// four, passes, round ends): sown one seed at a time by `crate::sowing`.
    Sowing,
}

impl Family {
    /// Can quiet moves (nothing banked, turn passes) form cycles inside a tier? Only Kalah
    /// type sowings provably cannot (they carry every seed toward the mover's store).
    pub fn has_cycles(self) -> bool {
        self != Family::Kalah
    }
}

/// Which opponent pits a capture by the last seed takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptureScope {
    /// The last pit and the unbroken run of preceding opponent pits holding 2 or 3.
    Contiguous,
    /// The last pit and every other opponent pit holding 2 or 3 (the Wari of the Polish blog
    /// post "Mankala (Wari) – klejnot Afryki").
    AllOpponentPits,
}

/// What happens to a grand slam: a capture that would empty the opponent's row.
/// The ids follow docs/rules.md, wari.
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
    /// Wari's treatments (`--grand-slam`), every one; `Capture` is Awari's rule.
    pub const WARI: [GrandSlam; 7] = [
        GrandSlam::Forbidden,
        GrandSlam::NoCapture,
        GrandSlam::TakeAll,
        GrandSlam::VictimTakesRest,
        GrandSlam::SpareLast,
        GrandSlam::SpareFirst,
        GrandSlam::ExtraMove,
    ];

    /// Names accepted by `--grand-slam`, with the id (docs/rules.md, wari) they stand for.
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

    /// The name `--grand-slam` takes for this treatment, e.g. `no-capture`.
    pub fn name(self) -> &'static str {
        Self::CHOICES
            .iter()
            .find(|c| c.2 == self)
            .map(|c| c.0)
            .unwrap_or("capture")
    }

    /// The short id of this treatment, e.g. `gs2` (`awari` for [`GrandSlam::Capture`]).
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

/// The two-player presets played on the packed board, each with its section of docs/rules.md
/// (the others live in their own crates: `mancala-bao`, `mancala-multi`, `mancala-forced`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// The rules of the published Awari solution (docs/rules.md, awari): grand slams capture,
    /// starving the opponent is illegal unless forced.
    Awari,
    /// Oware Abapa, the tournament rule (docs/rules.md, oware): a grand slam captures nothing,
    /// an empty opponent must be fed.
    Oware,
    /// Wari (docs/rules.md, wari): a capture takes every opponent pit holding 2 or 3, with a
    /// choice of grand-slam treatments.
    Wari,
    /// Kalah, 6 seeds a pit (docs/rules.md, kalah and mancala): stores sown, extra move in the
    /// own store, capture opposite an empty own pit.
    Kalah,
    /// The US 4-seed Mancala: Kalah's rules with 4 seeds a pit (docs/rules.md, kalah and
    /// mancala).
    Mancala,
    /// Mankala uniwersalna for two players (docs/rules.md, mankala-2p, mankala-3p, mankala-4p).
    Mankala2p,
    /// Congkak (docs/rules.md, congkak), on the documented default board 2x7 with stores, 7
    /// seeds a pit.
    Congkak,
    /// The Kenyan children's Bao (docs/rules.md, bao-kenya): 2x8 with stores, 3 seeds a pit.
    BaoKenya,
    /// The Kenyan Bao "with laps" (docs/rules.md, bao-kenya-laps): 2x8, 2 seeds, relay sowing.
    BaoKenyaLaps,
    /// Ayo-ayo (docs/rules.md, ayo-ayo): relay sowing, the mover takes every pit that reaches
    /// four.
    AyoAyo,
    /// Oware Nam Nam (docs/rules.md, nam-nam), one round: the owner takes a pit that reaches
    /// four.
    NamNam,
}

impl Preset {
    /// Every preset, in the order `mancala variants` lists them.
    pub const ALL: [Preset; 11] = [
        Preset::Awari,
        Preset::Oware,
        Preset::Wari,
        Preset::Kalah,
        Preset::Mancala,
        Preset::Mankala2p,
        Preset::Congkak,
        Preset::BaoKenya,
        Preset::BaoKenyaLaps,
        Preset::AyoAyo,
        Preset::NamNam,
    ];

    /// The name users type, e.g. `awari`, `bao-kenya-laps`.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Awari => "awari",
            Preset::Oware => "oware",
            Preset::Wari => "wari",
            Preset::Kalah => "kalah",
            Preset::Mancala => "mancala",
            Preset::Mankala2p => "mankala-2p",
            Preset::Congkak => "congkak",
            Preset::BaoKenya => "bao-kenya",
            Preset::BaoKenyaLaps => "bao-kenya-laps",
            Preset::AyoAyo => "ayo-ayo",
            Preset::NamNam => "nam-nam",
        }
    }

    /// How its moves are generated: the packed fast path (Awari, Kalah) or seed by seed.
    pub fn family(self) -> Family {
        match self {
            Preset::Awari | Preset::Oware | Preset::Wari => Family::Awari,
            Preset::Kalah | Preset::Mancala => Family::Kalah,
            _ => Family::Sowing,
        }
    }

    /// Default pits per side and seeds per pit.
    pub fn default_size(self) -> (u8, u8) {
        match self {
            Preset::Kalah => (6, 6),
            Preset::Congkak => (7, 7),
            Preset::BaoKenya => (8, 3),
            Preset::BaoKenyaLaps => (8, 2),
            _ => (6, 4),
        }
    }

    /// One line for `mancala variants`.
    pub fn summary(self) -> &'static str {
        match self {
            Preset::Awari => "Awari as solved by Romein & Bal (2002): grand slams capture, starving the opponent is illegal unless forced",
            Preset::Oware => "Oware Abapa, the tournament rule: a grand slam captures nothing, an empty opponent must be fed",
            Preset::Wari => "Wari of the Polish blog post \"Mankala (Wari) - klejnot Afryki\": a capture takes every opponent pit holding 2 or 3; six grand-slam treatments",
            Preset::Kalah => "Kalah: stores are sown, the last seed in the own store moves again, capture opposite an empty own pit",
            Preset::Mancala => "The US 4-seed Mancala: Kalah rules with 4 seeds a pit",
            Preset::Mankala2p => "Mankala uniwersalna, 2 players: Kalah with the origin always skipped, empty players pass, play until the pits are empty; 10 optional rules",
            Preset::Congkak => "Congkak (partial source): relay sowing through the own store, extra move in it, capture opposite an empty own pit; 2x7, 7 seeds by default",
            Preset::BaoKenya => "Kenyan children's Bao: 2x8 with stores, extra move in the own store, capture opposite an empty own pit",
            Preset::BaoKenyaLaps => "Kenyan Bao with laps: relay sowing, capture opposite an empty own pit, single seeds move only when no pit holds two",
            Preset::AyoAyo => "Ayo-ayo: relay sowing, the mover takes every pit that reaches four; a player with no seeds ends the game",
            Preset::NamNam => "Oware Nam Nam: relay sowing, a pit reaching four goes to its owner (to the mover on the last seed); at eight seeds the next capture takes all and ends the round; later rounds with --owners, every round with play --match",
        }
    }

    /// The allowed range of pits per side.
    pub fn pit_range(self) -> (u8, u8) {
        match self.family() {
            Family::Awari | Family::Sowing => (1, 8),
            Family::Kalah => (1, 6),
        }
    }

    /// The allowed range of seeds per pit.
    pub fn seed_range(self) -> (u8, u8) {
        match self.family() {
            Family::Awari => (1, 8),
            Family::Kalah => (1, 10),
            Family::Sowing => (1, 7),
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
    /// Pits per side (`--pits`).
    pub pits: Option<u32>,
    /// Seeds per pit at the start (`--seeds`).
    pub seeds: Option<u32>,
    /// Kalah type: the last seed in an empty own pit is stored even if the opposite pit is
    /// empty (`--empty-capture`).
    pub empty_capture: bool,
    /// Wari: the grand-slam treatment (`--grand-slam`).
    pub grand_slam: Option<GrandSlam>,
    /// Named rule options of the sowing-family presets (see [`Rule`]).
    pub rules: RuleSet,
    /// Nam-nam rounds after the first: the pits South owns, bit `i` for pit `i` in the
    /// position order with South to move (his row, then North's row in North's sowing order).
    /// `None`: each player owns his own row.
    pub owners: Option<u16>,
}

/// A fully specified rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// The preset the rule set starts from.
    pub preset: Preset,
    /// Pits per side.
    pub pits: u8,
    /// Seeds per pit at the start.
    pub seeds: u8,
    /// Awari type: which opponent pits a capture by the last seed takes.
    pub capture_scope: CaptureScope,
    /// Awari type: what a grand slam does.
    pub grand_slam: GrandSlam,
    /// Awari type: what a player may do to an opponent without seeds.
    pub starving: Starving,
    /// Kalah type: the last seed in an empty own pit is stored even if the opposite pit is empty.
    pub empty_capture: bool,
    /// Named rule options (sowing family only).
    pub rules: RuleSet,
    /// The pits South owns (see [`Options::owners`]): his row unless a nam-nam round gave
    /// pits to the other player.
    pub owners: u16,
}

impl Variant {
    /// The preset with its defaults.
    pub fn preset(preset: Preset) -> Variant {
        Variant::new(preset, Options::default()).expect("defaults are valid")
    }

    /// The preset with the user's options, checked.
    pub fn new(preset: Preset, opts: Options) -> Result<Variant, RulesError> {
        let (dp, mut ds) = preset.default_size();
        if opts.rules.has(Rule::ThreeSeeds) {
            ds = 3;
        }
        let pits = opts.pits.unwrap_or(dp as u32);
        let seeds = opts.seeds.unwrap_or(ds as u32);
        for (option, got, (min, max)) in [
            (GameOption::Pits, pits, preset.pit_range()),
            (GameOption::Seeds, seeds, preset.seed_range()),
        ] {
            if got < min as u32 || got > max as u32 {
                return Err(RulesError::OutOfRange {
                    option,
                    variant: preset.name(),
                    got,
                    min,
                    max,
                });
            }
        }
        let family = preset.family();
        if 2 * pits * seeds > MAX_SEEDS {
            return Err(RulesError::TooManySeeds {
                variant: preset.name(),
                got: 2 * pits * seeds,
                max: MAX_SEEDS,
            });
        }
        let row = (1u16 << pits) - 1;
        let owners = match opts.owners {
            None => row,
            Some(_) if preset != Preset::NamNam => {
                return Err(RulesError::OptionNotForVariant {
                    option: GameOption::Owners,
                    variant: preset.name(),
                    hint: "pits change hands only in nam-nam",
                })
            }
            // In u32: with 8 pits a side the mask fills all 16 bits of a u16.
            Some(o)
                if o as u32 >> (2 * pits) != 0
                    || o == 0
                    || o as u32 == (1u32 << (2 * pits)) - 1 =>
            {
                return Err(RulesError::BadOwners(
                    "each player must own at least one pit (one who owns them all has won)".into(),
                ))
            }
            Some(o) => o,
        };
        if opts.empty_capture && family != Family::Kalah {
            return Err(RulesError::OptionNotForVariant {
                option: GameOption::EmptyCapture,
                variant: preset.name(),
                hint: "it applies to kalah and mancala",
            });
        }
        if opts.grand_slam.is_some() && preset != Preset::Wari {
            return Err(RulesError::OptionNotForVariant {
                option: GameOption::GrandSlam,
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
            _ => (
                CaptureScope::Contiguous,
                GrandSlam::Capture,
                Starving::IllegalUnlessForced,
            ),
        };
        if let Some(r) = opts
            .rules
            .iter()
            .next()
            .filter(|_| family != Family::Sowing)
        {
            return Err(Rule::parse(preset, r.name()).unwrap_err());
        }
        Ok(Variant {
            preset,
            pits: pits as u8,
            seeds: seeds as u8,
            capture_scope,
            grand_slam,
            starving,
            empty_capture: opts.empty_capture,
            rules: opts.rules,
            owners,
        })
    }

    /// How this rule set's moves are generated (its preset's [`Family`]).
    pub fn family(&self) -> Family {
        self.preset.family()
    }

    /// Do the two players own different pits (a later nam-nam round)? Then a position says
    /// whose turn it is (the board's [`crate::NORTH`] flag), since South's and North's
    /// moves differ on the same pits.
    pub fn sided(&self) -> bool {
        self.owners != (1 << self.pits) - 1
    }

    /// [`Variant::owners`] as text: one letter a pit, `s` or `n`, in position order with
    /// South to move.
    pub fn owners_text(&self) -> String {
        Variant::owners_to_text(self.pits as u32, self.owners)
    }

    /// An ownership mask as text (see [`Variant::owners_text`]); the inverse of
    /// [`Variant::parse_owners`].
    pub fn owners_to_text(pits: u32, owners: u16) -> String {
        (0..2 * pits)
            .map(|i| if owners >> i & 1 == 1 { 's' } else { 'n' })
            .collect()
    }

    /// Parses an ownership string (`ssssssnnsnnn`: one letter a pit, South's pits first,
    /// then North's in North's sowing order) for a board of `pits` pits a side.
    pub fn parse_owners(pits: u32, text: &str) -> Result<u16, RulesError> {
        let t: Vec<char> = text.trim().to_ascii_lowercase().chars().collect();
        if t.len() != 2 * pits as usize || t.iter().any(|c| !matches!(c, 's' | 'n')) {
            return Err(RulesError::BadOwners(format!(
                "'{}' should be {} letters s or n, one a pit: South's {pits} pits, then North's in his sowing order (e.g. {}{})",
                text.trim(),
                2 * pits,
                "s".repeat(pits as usize),
                "n".repeat(pits as usize)
            )));
        }
        Ok(t.iter()
            .enumerate()
            .map(|(i, &c)| ((c == 's') as u16) << i)
            .sum())
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
            Preset::BaoKenya => PlayEnd::Majority,
            _ => PlayEnd::Exhaust,
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
            Family::Sowing => format!("{}-{}p", self.preset.name(), self.pits),
        };
        for r in self.rules.iter().filter(|r| r.changes_values()) {
            k.push('-');
            k.push_str(r.name());
        }
        if self.empty_capture {
            k.push_str("-empty");
        }
        if self.preset == Preset::Wari {
            k.push('-');
            k.push_str(self.grand_slam.id());
        }
        if self.sided() {
            k.push_str("-owners-");
            k.push_str(&self.owners_text());
        }
        k
    }
}

impl Variant {
    /// The rule set a table key names: the inverse of [`Variant::key`]. Kalah-type keys do
    /// not record the starting seeds (the tables do not depend on them), so the preset's
    /// default is used.
    pub fn from_key(key: &str) -> Option<Variant> {
        // Preset names may hold dashes themselves (`bao-kenya-laps`): take the longest match.
        let preset = Preset::ALL
            .iter()
            .copied()
            .filter(|p| key.starts_with(&format!("{}-", p.name())))
            .max_by_key(|p| p.name().len())?;
        let mut parts = key[preset.name().len() + 1..].split('-');
        let size = parts.next()?;
        let (pits, seeds) = match preset.family() {
            Family::Kalah | Family::Sowing => (size.strip_suffix('p')?.parse().ok()?, None),
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
        let mut rest: Vec<&str> = parts.collect();
        if let [.., "owners", text] = rest[..] {
            opts.owners = Some(Variant::parse_owners(pits, text).ok()?);
            rest.truncate(rest.len() - 2);
        }
        let mut i = 0;
        while i < rest.len() {
            // Rule names hold dashes too: the longest run of parts that names a rule.
            if preset.family() == Family::Sowing {
                let found = (i + 1..=rest.len()).rev().find_map(|j| {
                    Rule::parse(preset, &rest[i..j].join("-"))
                        .ok()
                        .map(|r| (r, j))
                });
                let (r, j) = found?;
                opts.rules = opts.rules.with(r);
                i = j;
                continue;
            }
            let option = rest[i];
            i += 1;
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
        for r in self.rules.iter() {
            write!(f, ", {}", r.name())?;
        }
        if self.sided() {
            write!(f, ", owners {}", self.owners_text())?;
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
