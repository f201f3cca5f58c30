//! `mancala pack`: compress built tables in place, or make them raw again.

use super::TableArgs;
use crate::tiers::group;
use anyhow::Result;
use clap::Args;
use mancala_tables::pack;

#[derive(Args, Debug)]
pub struct PackCmd {
    #[command(flatten)]
    table: TableArgs,

    /// Rewrite tiers 0..=N (default: all)
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    max_seeds: Option<usize>,

    /// Turn compressed tables back into raw ones
    #[arg(long)]
    unpack: bool,
}

impl PackCmd {
    pub fn run(&self) -> Result<()> {
        let rules = self.table.rules()?;
        let max = self
            .max_seeds
            .unwrap_or(usize::MAX)
            .min(mancala_tables::top_tier(&rules));
        let advice = self.table.advice();
        let done = pack(&rules, &self.table.dir, max, !self.unpack).map_err(|e| advice.table(e))?;
        for (n, before, after) in &done {
            println!(
                "tier {n:>3}: {} -> {} bytes ({:.1}%)",
                group(*before as u128),
                group(*after as u128),
                100.0 * *after as f64 / (*before).max(1) as f64
            );
        }
        let (b, a) = done.iter().fold((0, 0), |(b, a), t| (b + t.1, a + t.2));
        println!(
            "{} files rewritten: {} -> {} bytes",
            done.len(),
            group(b as u128),
            group(a as u128)
        );
        Ok(())
    }
}
