//! The commands on endgame tables: `build`, `plan`, `query`, `verify`, `info` and `pack`, one
//! file each, and the progress they show (`progress`). Each parses its options, asks the
//! tables library (and the oracle for its JSON) and prints.

mod build;
mod info;
mod pack;
mod plan;
mod progress;
mod query;
mod verify;

pub use build::BuildCmd;
pub use info::InfoCmd;
pub use pack::PackCmd;
pub use plan::PlanCmd;
pub use query::QueryCmd;
pub use verify::VerifyCmd;

use crate::advice::{size_text, Advice};
use crate::args::VariantArgs;
use crate::games::check_tables;
use crate::searching::DEFAULT_DIR;
use anyhow::{bail, Result};
use clap::Args;
use mancala_rules::Rules;
use std::path::PathBuf;

/// The variant and the table folder: what every command on tables names.
#[derive(Args, Debug)]
pub struct TableArgs {
    #[command(flatten)]
    pub variant: VariantArgs,

    /// Table folder; each rule set gets its own subfolder
    #[arg(long, value_name = "D", default_value = DEFAULT_DIR)]
    pub dir: PathBuf,
}

impl TableArgs {
    /// The rule set, which must be one with tables, and a table folder that is not a file.
    pub fn rules(&self) -> Result<Rules> {
        check_tables(&self.variant.name())?;
        crate::args::table_dir(&self.dir)?;
        self.variant.rules()
    }

    pub fn advice(&self) -> Advice<'_> {
        Advice {
            variant: &self.variant,
            dir: &self.dir,
        }
    }
}

/// The rule set, its folder and the tiers of a build: what `build` and `plan` name (`plan`
/// words the help of `--max-seeds` its own way).
#[derive(Args, Debug)]
pub struct BuildTiers {
    #[command(flatten)]
    pub table: TableArgs,

    /// Build every tier 0..=N (seeds in the pits)
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        default_value_t = 16
    )]
    pub max_seeds: usize,
}

/// `--threads` of the commands that run a pool of workers (`build`, `verify`).
#[derive(Args, Debug)]
pub struct Workers {
    /// Worker threads (default: one per core)
    #[arg(long, value_name = "T", allow_negative_numbers = true)]
    pub threads: Option<usize>,
}

/// `--quiet` of the commands that draw progress bars (`build`, `verify`).
#[derive(Args, Debug)]
pub struct Bars {
    /// No progress bars
    #[arg(long, short)]
    pub quiet: bool,
}

/// `--vu-dir` of the commands that read the published database (`query`, `verify`).
#[derive(Args, Debug)]
pub struct VuDir {
    /// Awari type: read the published Awari database's files (scores.N, any subset) in this
    /// folder instead of the engine's own tables
    #[arg(long, value_name = "D")]
    pub vu_dir: Option<PathBuf>,
}

/// `--memory` of a build: at most this machine's memory (`mancala plan` plans for others).
pub fn check_memory(budget: u64) -> Result<()> {
    if let Some(have) = mancala_tables::physical_memory() {
        if budget > have {
            bail!(
                "--memory {}: this machine has {}; give at most that (`mancala plan --memory` plans for bigger machines)",
                size_text(budget),
                size_text(have)
            );
        }
    }
    Ok(())
}
