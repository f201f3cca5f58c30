//! The three presets, their sizes and their named rule options.

use crate::ForcedError;

/// One of the three forced-move games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// La'b madjnuni (docs/rules.md, madjnuni): 2x7, 98 seeds.
    Madjnuni,
    /// Mankaleh Leab el-akil (docs/rules.md, el-akil and el-ghasheem): 2x6, 72 seeds, seeds in
    /// mirrored pits.
    ElAkil,
    /// Leab el-ghasheem (docs/rules.md, el-akil and el-ghasheem): el-akil with every pit holding
    /// at least 4 seeds.
    ElGhasheem,
}

impl Preset {
    /// The preset called `name` (`madjnuni`, `el-akil`, `el-ghasheem`).
    pub fn from_name(name: &str) -> Option<Preset> {
        match name.trim().to_ascii_lowercase().as_str() {
            "madjnuni" => Some(Preset::Madjnuni),
            "el-akil" => Some(Preset::ElAkil),
            "el-ghasheem" => Some(Preset::ElGhasheem),
            _ => None,
        }
    }

    /// The name users type: `madjnuni`, `el-akil` or `el-ghasheem`.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Madjnuni => "madjnuni",
            Preset::ElAkil => "el-akil",
            Preset::ElGhasheem => "el-ghasheem",
        }
    }

    /// Pits per side by default: 7 for madjnuni, 6 for the Cairo games.
    pub fn default_pits(self) -> u32 {
        match self {
            Preset::Madjnuni => 7,
            _ => 6,
        }
    }

    /// Seeds in play by default: 98 for madjnuni, 72 for the Cairo games.
    pub fn default_total(self) -> u32 {
        match self {
            Preset::Madjnuni => 98,
            _ => 72,
        }
    }

    /// The fewest seeds a setup may put in a pit (madjnuni 2, el-ghasheem 4, el-akil 0).
    pub fn min_per_pit(self) -> u32 {
        match self {
            Preset::Madjnuni => 2,
            Preset::ElAkil => 0,
            Preset::ElGhasheem => 4,
        }
    }
}

/// Where the serial capture looks after the capturing pit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SerialDir {
    /// The pits further along in sowing order (madjnuni's literal text).
    Forward,
    /// The preceding pits in sowing order (el-akil's text).
    Backward,
    /// No serial capture: only the pit of the last seed is taken.
    Off,
}

/// Which pit a player empties when his head (rightmost pit) cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeadEmpty {
    /// The nearest playable pit to the head's left (the reading of docs/rules.md, madjnuni and
    /// el-akil and el-ghasheem).
    Leftward,
    /// "The next pit in his row" in sowing order: his leftmost pit, then rightwards.
    Wrap,
}

/// El-akil's setup shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AkilSetup {
    /// Seeds in one or more pits of South's row and the corresponding pits of North's row.
    Mirror,
    /// Lane's alternative: seeds only in each player's leftmost pit.
    Leftmost,
}

/// Which North pit "corresponds" to a South pit in el-akil's mirror setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pairing {
    /// The pit straight across the board: South pit `i` pairs with absolute pit `2m-1-i`.
    Opposite,
    /// The same place in the owner's own row: South pit `i` pairs with absolute pit `m+i`.
    Rotated,
}

/// Every rule of one game: the preset, the board size and the options.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ForcedRules {
    /// Which of the three games.
    pub preset: Preset,
    /// Pits per side (m).
    pub pits: u32,
    /// Seeds in play at the start.
    pub total: u32,
    /// Where the serial capture looks after the capturing pit (`serial`).
    pub serial: SerialDir,
    /// The serial capture takes a whole run of 2s and 4s (true) or at most one more pit.
    pub chain_all: bool,
    /// The serial capture may cross from one half of the board to the other.
    pub serial_cross: bool,
    /// The pit played when the head cannot be (`head-empty`).
    pub head_empty: HeadEmpty,
    /// A pit holding a single seed may be played.
    pub single_playable: bool,
    /// The game ends as soon as each half holds exactly one seed (el-akil's end rule).
    pub singles_end: bool,
    /// El-akil: which pits a setup may fill (`setup`).
    pub setup_kind: AkilSetup,
    /// El-akil's mirror setup: which North pit pairs with a South pit (`pairing`).
    pub pairing: Pairing,
}

/// The largest pits-per-side accepted.
pub const MAX_PITS: u32 = 16;
/// The largest seed total accepted.
pub const MAX_TOTAL: u32 = 5000;

struct OptionSpec {
    name: &'static str,
    help: &'static str,
    allowed: &'static str,
    /// Only el-akil takes it.
    akil_only: bool,
}

const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "pits",
        help: "pits per side (default 7 for madjnuni, 6 for el-akil and el-ghasheem)",
        allowed: "a number 1..=16",
        akil_only: false,
    },
    OptionSpec {
        name: "total",
        help: "seeds in play (default 98 for madjnuni, 72 otherwise); alias seeds=",
        allowed: "a number",
        akil_only: false,
    },
    OptionSpec {
        name: "serial",
        help: "serial capture direction: forward (madjnuni default), backward (el-akil/el-ghasheem default) or off",
        allowed: "forward, backward, off",
        akil_only: false,
    },
    OptionSpec {
        name: "chain",
        help: "serial capture length: all (default, a whole run of 2s and 4s) or one (at most one more pit)",
        allowed: "all, one",
        akil_only: false,
    },
    OptionSpec {
        name: "serial-cross",
        help: "yes (default): the serial capture may cross to the other half; no: it stops at the half's edge",
        allowed: "yes, no",
        akil_only: false,
    },
    OptionSpec {
        name: "head-empty",
        help: "pit played when the head is empty: leftward (default, nearest pit to its left) or wrap (own leftmost pit, then rightwards)",
        allowed: "leftward, wrap",
        akil_only: false,
    },
    OptionSpec {
        name: "single",
        help: "playable (default): a lone seed may be played; unplayable: only pits with 2+ seeds are played",
        allowed: "playable, unplayable",
        akil_only: false,
    },
    OptionSpec {
        name: "singles-end",
        help: "yes: the game ends when each half holds exactly one seed (default yes for el-akil/el-ghasheem, no for madjnuni)",
        allowed: "yes, no",
        akil_only: false,
    },
    OptionSpec {
        name: "setup",
        help: "el-akil setup shape: mirror (default, paired pits) or leftmost (Lane's alternative: each player's leftmost pit)",
        allowed: "mirror, leftmost",
        akil_only: true,
    },
    OptionSpec {
        name: "pairing",
        help: "el-akil mirror pairing: opposite (default, South pit i with the pit across, 2m-1-i) or rotated (with North's own pit i, m+i)",
        allowed: "opposite, rotated",
        akil_only: true,
    },
];

/// The (name, help) pairs of the options `preset` takes; empty for an unknown preset.
pub fn options_for(preset: Preset) -> Vec<(&'static str, &'static str)> {
    OPTIONS
        .iter()
        .filter(|o| !o.akil_only || preset == Preset::ElAkil)
        .map(|o| (o.name, o.help))
        .collect()
}

fn yes_no(name: &str, value: &str, allowed: &'static str) -> Result<bool, ForcedError> {
    match value {
        "" => Ok(true),
        _ => mancala_rules::switch_word(value).ok_or_else(|| bad_value(name, value, allowed)),
    }
}

fn bad_value(name: &str, value: &str, allowed: &'static str) -> ForcedError {
    ForcedError::BadRuleValue {
        name: name.to_string(),
        value: value.to_string(),
        allowed,
    }
}

fn parse_count(name: &str, value: &str, allowed: &'static str) -> Result<u32, ForcedError> {
    value
        .parse::<u32>()
        .map_err(|_| bad_value(name, value, allowed))
}

impl ForcedRules {
    /// The preset's default rules and size.
    pub fn new(preset: Preset) -> ForcedRules {
        let akil = preset != Preset::Madjnuni;
        ForcedRules {
            preset,
            pits: preset.default_pits(),
            total: preset.default_total(),
            serial: if akil {
                SerialDir::Backward
            } else {
                SerialDir::Forward
            },
            chain_all: true,
            serial_cross: true,
            head_empty: HeadEmpty::Leftward,
            single_playable: true,
            singles_end: akil,
            setup_kind: AkilSetup::Mirror,
            pairing: Pairing::Opposite,
        }
    }

    /// The preset's rules with `pits`/`total` and the `--rule` strings applied, size checked.
    pub fn build(
        preset: &str,
        pits: Option<u32>,
        total: Option<u32>,
        rules: &[String],
    ) -> Result<ForcedRules, ForcedError> {
        let p = Preset::from_name(preset)
            .ok_or_else(|| ForcedError::UnknownPreset(preset.to_string()))?;
        let mut r = ForcedRules::new(p);
        let mut rule_pits = None;
        let mut rule_total = None;
        for raw in rules {
            let raw = raw.trim();
            let (name, value) = match raw.split_once('=') {
                Some((n, v)) => (n.trim(), v.trim()),
                None => (raw, ""),
            };
            let name_l = name.to_ascii_lowercase();
            let value_l = value.to_ascii_lowercase();
            let value = value_l.as_str();
            let spec = OPTIONS
                .iter()
                .find(|o| o.name == name_l || (name_l == "seeds" && o.name == "total"))
                .filter(|o| !o.akil_only || p == Preset::ElAkil)
                .ok_or_else(|| ForcedError::UnknownRule {
                    name: name.to_string(),
                    preset: p.name(),
                    known: options_for(p)
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", "),
                })?;
            let allowed = spec.allowed;
            match spec.name {
                "pits" => rule_pits = Some(parse_count(spec.name, value, allowed)?),
                "total" => rule_total = Some(parse_count(spec.name, value, allowed)?),
                "serial" => {
                    r.serial = match value {
                        "forward" => SerialDir::Forward,
                        "backward" => SerialDir::Backward,
                        "off" | "none" => SerialDir::Off,
                        _ => return Err(bad_value(spec.name, value, allowed)),
                    }
                }
                "chain" => {
                    r.chain_all = match value {
                        "all" => true,
                        "one" => false,
                        _ => return Err(bad_value(spec.name, value, allowed)),
                    }
                }
                "serial-cross" => r.serial_cross = yes_no(spec.name, value, allowed)?,
                "head-empty" => {
                    r.head_empty = match value {
                        "leftward" => HeadEmpty::Leftward,
                        "wrap" => HeadEmpty::Wrap,
                        _ => return Err(bad_value(spec.name, value, allowed)),
                    }
                }
                "single" => {
                    r.single_playable = match value {
                        "playable" => true,
                        "unplayable" => false,
                        _ => return Err(bad_value(spec.name, value, allowed)),
                    }
                }
                "singles-end" => r.singles_end = yes_no(spec.name, value, allowed)?,
                "setup" => {
                    r.setup_kind = match value {
                        "mirror" => AkilSetup::Mirror,
                        "leftmost" => AkilSetup::Leftmost,
                        _ => return Err(bad_value(spec.name, value, allowed)),
                    }
                }
                "pairing" => {
                    r.pairing = match value {
                        "opposite" => Pairing::Opposite,
                        "rotated" => Pairing::Rotated,
                        _ => return Err(bad_value(spec.name, value, allowed)),
                    }
                }
                _ => unreachable!("every option in OPTIONS is handled"),
            }
        }
        r.pits = merge("pits", pits, rule_pits)?.unwrap_or(r.pits);
        r.total = merge("total", total, rule_total)?.unwrap_or(r.total);
        r.check_size()?;
        Ok(r)
    }

    /// Checks that the board size and the seed total allow a setup.
    pub fn check_size(&self) -> Result<(), ForcedError> {
        if self.pits == 0 || self.pits > MAX_PITS {
            return Err(ForcedError::BadPits {
                preset: self.preset.name(),
                got: self.pits,
            });
        }
        // El-akil needs one non-empty pair (or the two leftmost pits); the others a full board.
        let min = match self.preset {
            Preset::ElAkil => 2,
            p => p.min_per_pit() * 2 * self.pits,
        };
        if self.total < min || self.total > MAX_TOTAL {
            return Err(ForcedError::BadTotal {
                preset: self.preset.name(),
                pits: self.pits,
                got: self.total,
                min,
                max: MAX_TOTAL,
            });
        }
        Ok(())
    }

    /// The preset and every rule that differs from the preset's default.
    pub fn describe(&self) -> String {
        let d = ForcedRules::new(self.preset);
        let mut s = self.preset.name().to_string();
        if self.pits != d.pits {
            s += &format!(" pits={}", self.pits);
        }
        if self.total != d.total {
            s += &format!(" total={}", self.total);
        }
        if self.serial != d.serial {
            s += match self.serial {
                SerialDir::Forward => " serial=forward",
                SerialDir::Backward => " serial=backward",
                SerialDir::Off => " serial=off",
            };
        }
        if self.chain_all != d.chain_all {
            s += if self.chain_all {
                " chain=all"
            } else {
                " chain=one"
            };
        }
        if self.serial_cross != d.serial_cross {
            s += if self.serial_cross {
                " serial-cross=yes"
            } else {
                " serial-cross=no"
            };
        }
        if self.head_empty != d.head_empty {
            s += match self.head_empty {
                HeadEmpty::Leftward => " head-empty=leftward",
                HeadEmpty::Wrap => " head-empty=wrap",
            };
        }
        if self.single_playable != d.single_playable {
            s += if self.single_playable {
                " single=playable"
            } else {
                " single=unplayable"
            };
        }
        if self.singles_end != d.singles_end {
            s += if self.singles_end {
                " singles-end=yes"
            } else {
                " singles-end=no"
            };
        }
        if self.setup_kind != d.setup_kind {
            s += match self.setup_kind {
                AkilSetup::Mirror => " setup=mirror",
                AkilSetup::Leftmost => " setup=leftmost",
            };
        }
        if self.pairing != d.pairing {
            s += match self.pairing {
                Pairing::Opposite => " pairing=opposite",
                Pairing::Rotated => " pairing=rotated",
            };
        }
        s
    }
}

fn merge(name: &'static str, a: Option<u32>, b: Option<u32>) -> Result<Option<u32>, ForcedError> {
    match (a, b) {
        (Some(x), Some(y)) if x != y => Err(ForcedError::Conflict { name, a: x, b: y }),
        (Some(x), _) => Ok(Some(x)),
        (None, y) => Ok(y),
    }
}
