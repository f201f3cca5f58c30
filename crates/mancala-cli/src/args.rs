//! Arguments every command that names a variant shares.

use anyhow::{bail, Result};
use clap::Args;
use mancala_rules::{GrandSlam, Options, Preset, RuleSet, Rules, Variant};

#[derive(Args, Debug, Clone)]
pub struct VariantArgs {
    /// The preset, e.g. awari, oware, kalah, congkak (`mancala variants` lists them all)
    pub variant: String,

    /// Pits per side (awari type 1..8, kalah type 1..6; default 6)
    #[arg(long, allow_negative_numbers = true, value_name = "N")]
    pub pits: Option<i64>,

    /// Seeds per pit at the start (default 4; kalah 6)
    #[arg(long, allow_negative_numbers = true, value_name = "N")]
    pub seeds: Option<i64>,

    /// Kalah type: a last seed in an empty own pit is stored even if the opposite pit is empty
    #[arg(long)]
    pub empty_capture: bool,

    /// Wari: grand-slam treatment, gs1..gs6 or its name: forbidden, no-capture (default),
    /// take-all, victim-takes-rest, spare-last, spare-first, extra-move
    #[arg(long, value_name = "TREATMENT")]
    pub grand_slam: Option<String>,

    /// A named rule option, repeatable, e.g. `--rule relay --rule must-feed` (mankala-2p's
    /// optional rules, also as rule1..rule10); `mancala variants` lists each preset's options
    #[arg(long = "rule", value_name = "NAME")]
    pub rules: Vec<String>,
    /// Nam-nam, a round after the first: who owns each pit, one letter s or n a pit, South's
    /// pits then North's in North's sowing order, e.g. ssssssnnsnnn (South won a pit of North's
    /// row). A position then ends with the side to move: `... north`
    #[arg(long, value_name = "SN...")]
    pub owners: Option<String>,
}

impl VariantArgs {
    /// `--pits` and `--seeds`, checked to be small positive numbers.
    pub fn sizes(&self) -> Result<(Option<u32>, Option<u32>)> {
        let count = |name: &str, v: Option<i64>| -> Result<Option<u32>> {
            match v {
                None => Ok(None),
                Some(n) if (1..=1000).contains(&n) => Ok(Some(n as u32)),
                Some(n) => bail!("--{name} must be a small positive number, not {n}"),
            }
        };
        Ok((count("pits", self.pits)?, count("seeds", self.seeds)?))
    }

    pub fn variant(&self) -> Result<Variant> {
        let preset: Preset = self.variant.parse()?;
        let (pits, seeds) = self.sizes()?;
        let grand_slam = match &self.grand_slam {
            None => None,
            Some(s) => Some(s.parse::<GrandSlam>()?),
        };
        Ok(Variant::new(
            preset,
            Options {
                pits,
                seeds,
                empty_capture: self.empty_capture,
                grand_slam,
                rules: RuleSet::parse(preset, &self.rules)?,
                // Elsewhere than nam-nam the option itself is the error, whatever its text.
                owners: match &self.owners {
                    Some(t) if preset == Preset::NamNam => Some(Variant::parse_owners(
                        pits.unwrap_or(preset.default_size().0 as u32),
                        t,
                    )?),
                    Some(_) => Some(0),
                    None => None,
                },
            },
        )?)
    }

    pub fn rules(&self) -> Result<Rules> {
        Ok(Rules::new(self.variant()?))
    }
}
