//! `mancala export` and `mancala import`: the engine's tables to and from the published Awari
//! database's files (`scores.N`, one signed byte a position in the database's order).

use crate::args::VariantArgs;
use crate::searching::DEFAULT_DIR;
use crate::tiers::group;
use anyhow::{bail, Result};
use clap::Args;
use mancala_tables::published::{self, Written};
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(
    about = "Write the published Awari database's files (scores.N) from built tables",
    long_about = "Write the published Awari database's files (scores.N) from built tables.\n\n\
Awari-type tiers are built in the database's order, so each file is the tier's table without \
its header, byte for byte; the start position, which the database leaves out, is dropped from \
its tier. Compare with a downloaded file with `cmp`.",
    after_help = "Example:\n  mancala build awari --max-seeds 20\n  \
mancala export awari --vu --out vu\n  cmp vu/scores.16 downloaded/scores.16"
)]
pub struct ExportCmd {
    #[command(flatten)]
    variant: VariantArgs,

    /// Write the published Awari database's format (scores.N files); the only format so far
    #[arg(long, required = true)]
    vu: bool,

    /// Table folder to read
    #[arg(long, value_name = "D", default_value = DEFAULT_DIR)]
    dir: PathBuf,

    /// Folder to write scores.N into (created if missing)
    #[arg(long, value_name = "O")]
    out: PathBuf,

    /// Export tiers 0..=N (default: every tier built, up to the first missing one)
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    max_seeds: Option<usize>,
}

impl ExportCmd {
    pub fn run(&self) -> Result<()> {
        crate::games::check_tables(&self.variant.name())?;
        let rules = self.variant.rules()?;
        let max = self.max_seeds.unwrap_or(rules.max_seeds());
        if max > rules.max_seeds() {
            bail!(
                "this game has {} seeds; --max-seeds can be at most that",
                rules.max_seeds()
            );
        }
        let advice = crate::advice::Advice {
            variant: &self.variant,
            dir: &self.dir,
        };
        if self.out.exists() && !self.out.is_dir() {
            anyhow::bail!(
                "--out {}: a file is there, not a folder; give a folder for the files scores.0, scores.1, ... (it is made if missing)",
                self.out.display()
            );
        }
        let written =
            published::export(&rules, &self.dir, &self.out, max).map_err(|e| advice.table(e))?;
        report(&written, "written");
        Ok(())
    }
}

#[derive(Args, Debug)]
#[command(
    about = "Turn the published Awari database's files (scores.N) into tables",
    long_about = "Turn the published Awari database's files (scores.N) into the engine's tables, \
with headers and checksums; the start position gets its value from its moves. Every file \
found is imported, each checked by its size.",
    after_help = "Example:\n  mancala import awari --vu-dir downloaded --dir databases\n  \
mancala verify awari"
)]
pub struct ImportCmd {
    #[command(flatten)]
    variant: VariantArgs,

    /// Folder holding the published scores.N files
    #[arg(long, value_name = "D")]
    vu_dir: PathBuf,

    /// Table folder to write
    #[arg(long, value_name = "D", default_value = DEFAULT_DIR)]
    dir: PathBuf,

    /// Import tiers 0..=N (default: every file found)
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    max_seeds: Option<usize>,
}

impl ImportCmd {
    pub fn run(&self) -> Result<()> {
        crate::games::check_tables(&self.variant.name())?;
        let rules = self.variant.rules()?;
        let max = self
            .max_seeds
            .unwrap_or(rules.max_seeds())
            .min(rules.max_seeds());
        let advice = crate::advice::Advice {
            variant: &self.variant,
            dir: &self.dir,
        };
        let written =
            published::import(&rules, &self.vu_dir, &self.dir, max).map_err(|e| advice.table(e))?;
        if written.is_empty() {
            bail!(
                "no scores.N files in {} (the published database names its files scores.0 .. scores.48)",
                self.vu_dir.display()
            );
        }
        report(&written, "imported");
        Ok(())
    }
}

fn report(written: &[Written], what: &str) {
    for w in written {
        println!(
            "tier {:>3}: {:>15} bytes  {}",
            w.tier,
            group(w.bytes as u128),
            w.path.display()
        );
    }
    let total: u64 = written.iter().map(|w| w.bytes).sum();
    println!(
        "{} files {what}, {} bytes",
        written.len(),
        group(total as u128)
    );
}
