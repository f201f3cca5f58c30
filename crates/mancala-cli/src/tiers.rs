//! `mancala tiers`: how many positions each tier of the index holds.

use crate::args::VariantArgs;
use anyhow::{bail, Result};
use clap::Args;
use mancala_index::Spec;
use serde_json::json;

#[derive(Args, Debug)]
pub struct TiersCmd {
    #[command(flatten)]
    variant: VariantArgs,

    /// List tiers 0..=N only (default: every tier up to the seeds of the game)
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    max_seeds: Option<usize>,

    /// Print a JSON list [{"seeds": n, "positions": k}, ...]
    #[arg(long)]
    json: bool,
}

impl TiersCmd {
    pub fn run(&self) -> Result<()> {
        crate::games::check_tables(&self.variant.name())?;
        let rules = self.variant.rules()?;
        let all = rules.max_seeds();
        let max = self.max_seeds.unwrap_or(all);
        if max > all {
            bail!("this game has {all} seeds; --max-seeds can be at most {all}");
        }
        let sizes = Spec::for_rules(&rules).tier_sizes(max);
        if self.json {
            let list: Vec<_> = sizes
                .iter()
                .enumerate()
                .map(|(n, &k)| json!({"seeds": n, "positions": k as u64}))
                .collect();
            println!("{}", serde_json::Value::Array(list));
            return Ok(());
        }
        println!(
            "{}: positions indexed per tier (side to move implied; stores not part of a position)",
            rules.variant()
        );
        println!("{:>5}  {:>26}", "seeds", "positions");
        for (n, &k) in sizes.iter().enumerate() {
            println!("{n:>5}  {:>26}", group(k));
        }
        let total: u128 = sizes.iter().sum();
        println!("total  {:>26}", group(total));
        Ok(())
    }
}

/// The sum of durations, seconds: 0 for none. (`Iterator::sum` of no `f64` is -0.0, which
/// is printed "-0.00 s", and `-0.0` in JSON.)
pub fn seconds_sum(durations: impl IntoIterator<Item = f64>) -> f64 {
    durations.into_iter().fold(0.0, |a, b| a + b)
}

/// A size for a person: kilobytes below a megabyte, megabytes below a gigabyte, else
/// gigabytes.
pub fn bytes_text(bytes: u64) -> String {
    if bytes < 1_000_000 {
        format!("{} kB", bytes.div_ceil(1000))
    } else if bytes < 1_000_000_000 {
        format!("{:.1} MB", bytes as f64 / 1e6)
    } else {
        format!("{:.2} GB", bytes as f64 / 1e9)
    }
}

/// 889063398406 -> 889,063,398,406 (see [`mancala_rules::Grouped`]).
pub fn group(n: u128) -> String {
    mancala_rules::Grouped(n).to_string()
}
