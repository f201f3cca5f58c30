//! Arguments every command that names a variant shares, and the command lines built back
//! from them (so that advice repeats every option the user gave).

use anyhow::{bail, Context, Result};
use clap::Args;
use mancala_rules::{GameSpec, Rules};
use std::path::Path;

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
    /// The preset name as the families know it.
    pub fn name(&self) -> String {
        self.variant.trim().to_ascii_lowercase()
    }

    /// `--pits` and `--seeds`, checked to be small positive numbers.
    fn sizes(&self) -> Result<(Option<u32>, Option<u32>)> {
        let count = |name: &str, v: Option<i64>| -> Result<Option<u32>> {
            match v {
                None => Ok(None),
                Some(n) if (1..=1000).contains(&n) => Ok(Some(n as u32)),
                Some(n) => bail!("--{name} must be a small positive number, not {n}"),
            }
        };
        Ok((count("pits", self.pits)?, count("seeds", self.seeds)?))
    }

    /// Everything the user said about the game, for the game families.
    pub fn spec(&self) -> Result<GameSpec> {
        let (pits, seeds) = self.sizes()?;
        Ok(GameSpec {
            preset: self.name(),
            pits,
            seeds,
            empty_capture: self.empty_capture,
            grand_slam: self.grand_slam.clone(),
            rules: self.rules.clone(),
            owners: self.owners.clone(),
            ..GameSpec::default()
        })
    }

    /// The packed rule set (the presets with tables).
    pub fn rules(&self) -> Result<Rules> {
        Ok(Rules::new(self.spec()?.variant()?))
    }

    /// `mancala <command> <variant> <every option given>`, quoted where a shell needs it.
    pub fn command(&self, command: &str) -> String {
        let mut words = vec!["mancala".to_string(), command.to_string(), self.name()];
        if let Some(p) = self.pits {
            words.push(format!("--pits {p}"));
        }
        if let Some(s) = self.seeds {
            words.push(format!("--seeds {s}"));
        }
        if self.empty_capture {
            words.push("--empty-capture".into());
        }
        if let Some(g) = &self.grand_slam {
            words.push(format!("--grand-slam {}", quote(g)));
        }
        for r in &self.rules {
            words.push(format!("--rule {}", quote(r)));
        }
        if let Some(o) = &self.owners {
            words.push(format!("--owners {}", quote(o)));
        }
        words.join(" ")
    }

    /// The `mancala build` command that builds tiers `0..=max` of this rule set into `dir`.
    pub fn build_command(&self, max: usize, dir: &Path) -> String {
        format!(
            "{} --max-seeds {max} --dir {}",
            self.command("build"),
            quote(&dir.display().to_string())
        )
    }
}

/// This machine's cores.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `--threads`: at least 1 and at most four times this machine's cores (more only waits);
/// default: one per core.
pub fn threads(given: Option<usize>) -> Result<usize> {
    let most = 4 * cores();
    match given {
        None => Ok(cores()),
        Some(t) if (1..=most).contains(&t) => Ok(t),
        Some(t) => bail!(
            "--threads {t}: give 1 to {most} (four times this machine's {} cores)",
            cores()
        ),
    }
}

/// Starts the worker pool with `--threads` threads (default: one per core).
pub fn set_threads(given: Option<usize>) -> Result<()> {
    let t = threads(given)?;
    if given.is_some() {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build_global()
            .context("starting the thread pool")?;
    }
    Ok(())
}

/// `--hash MB`: at least 1 and at most this machine's memory.
pub fn hash_mb(mb: usize) -> Result<usize> {
    let most = mancala_tables::physical_memory().map_or(1 << 20, |b| (b >> 20) as usize);
    if !(1..=most).contains(&mb) {
        bail!("--hash {mb}: give 1 to {most} MB (this machine's memory)");
    }
    Ok(mb)
}

/// A year, the longest time limit: anything longer is no limit at all.
pub const YEAR_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// `--max-seconds`: a number of seconds from 0 to a year.
pub fn max_seconds(s: Option<f64>) -> Result<Option<f64>> {
    match s {
        Some(t) if !(0.0..=YEAR_SECONDS).contains(&t) => {
            // Echoed as typed would be, not as 300 digits: 1e300, -5, 4e7.
            let shown = if t.abs() >= 1e6 {
                format!("{t:e}")
            } else {
                format!("{t}")
            };
            bail!(
                "--max-seconds {shown}: give a number of seconds from 0 to {YEAR_SECONDS} (a year)"
            )
        }
        s => Ok(s),
    }
}

/// `--dir`: a folder, or nothing yet (it is made when tables are built), never a file.
pub fn table_dir(dir: &Path) -> Result<&Path> {
    if dir.exists() && !dir.is_dir() {
        bail!(
            "--dir {} is a file, not a folder: give the folder the tables are (or will be) in",
            dir.display()
        );
    }
    Ok(dir)
}

/// A word as a POSIX shell reads it back.
fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Parses a memory size: a number with a unit K, M, G or T (powers of 1024; `B` or `iB` may
/// follow), or a plain number of MB. `--memory 20G`, `--memory 1T`, `--memory 512`.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (number, unit) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&t[..i], c.to_ascii_uppercase()),
        _ => (t, 'M'),
    };
    let shift = match unit {
        'K' => 10,
        'M' => 20,
        'G' => 30,
        'T' => 40,
        _ => {
            return Err(format!(
                "unknown unit in `{text}`: use K, M, G or T (20G, 1T)"
            ))
        }
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a size: give a number and a unit (20G, 1T, 512M)"))?;
    let bytes = value * (1u64 << shift) as f64;
    if !(bytes >= 1.0 && bytes < (1u64 << 60) as f64) {
        return Err(format!(
            "`{text}` is out of range: give a size above zero and up to 1000000T"
        ));
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_repeat_every_option() {
        let a = VariantArgs {
            variant: "Nam-Nam".into(),
            pits: Some(3),
            seeds: None,
            empty_capture: false,
            grand_slam: None,
            rules: vec!["pass-when-empty".into()],
            owners: Some("sssnsn".into()),
        };
        assert_eq!(
            a.build_command(12, Path::new("my tables")),
            "mancala build nam-nam --pits 3 --rule pass-when-empty --owners sssnsn --max-seeds 12 --dir 'my tables'"
        );
    }

    #[test]
    fn sizes_parse_with_units_and_fail_with_a_reason() {
        assert_eq!(parse_size("20G"), Ok(20 << 30));
        assert_eq!(parse_size("1T"), Ok(1 << 40));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("512"), Ok(512 << 20));
        assert_eq!(parse_size("64kB"), Ok(64 << 10));
        for bad in ["", "G", "20x", "-1G", "1e30T", "nan"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}
