//! `mancala info`: the built tables of a folder, each rule set's tiers with their sizes,
//! form and win/draw/lose counts.

use crate::searching::DEFAULT_DIR;
use crate::tiers::group;
use anyhow::{bail, Context, Result};
use clap::Args;
use mancala_tables::{top_tier, Payload, Tables, TierFiles, TierSummary, Watching};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct InfoCmd {
    /// Table folder
    #[arg(long, value_name = "D", default_value = DEFAULT_DIR)]
    dir: PathBuf,

    /// Print JSON
    #[arg(long)]
    json: bool,
}

impl InfoCmd {
    pub fn run(&self) -> Result<()> {
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(e) => e,
            Err(e) => bail!(
                "cannot read {}: {e}; build tables with `mancala build`",
                self.dir.display()
            ),
        };
        let mut dirs: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        // A folder whose name is no rule set's key is not a table folder: named, not counted
        // as damaged tables (a folder of tables may hold other things).
        let (sets, others): (Vec<PathBuf>, Vec<PathBuf>) =
            dirs.into_iter().partition(|d| variant_of(d).is_some());
        let sets: Vec<serde_json::Value> = sets.iter().map(|d| describe_set(d)).collect();
        if self.json {
            println!("{}", serde_json::to_string_pretty(&sets)?);
            if sets.iter().any(|s| s.get("error").is_some()) {
                bail!("some folders cannot be read as tables (their \"error\" says why)");
            }
            return Ok(());
        }
        let damaged = sets.iter().filter(|s| s.get("error").is_some()).count();
        if sets.is_empty() {
            println!("no tables in {}", self.dir.display());
        }
        if !others.is_empty() {
            let names: Vec<String> = others
                .iter()
                .map(|d| {
                    d.file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned()
                })
                .collect();
            println!(
                "(not table folders, skipped: {}; a table folder is named by its rule set's key, as `mancala build` names it)",
                names.join(", ")
            );
        }
        for s in &sets {
            println!("{}", s["key"].as_str().unwrap_or("?"));
            if let Some(e) = s.get("error") {
                println!("  {}", e.as_str().unwrap_or("?"));
                continue;
            }
            println!(
                "  tier       positions         bytes  form          win         draw         lose"
            );
            for t in s["tiers"].as_array().into_iter().flatten() {
                println!(
                    "  {:>4} {:>15} {:>13}  {:<5} {:>12} {:>12} {:>12}",
                    t["seeds"],
                    group(t["positions"].as_u64().unwrap_or(0) as u128),
                    group(t["bytes"].as_u64().unwrap_or(0) as u128),
                    if t["compressed"].as_bool() == Some(true) {
                        "zstd"
                    } else {
                        "raw"
                    },
                    group(t["win"].as_u64().unwrap_or(0) as u128),
                    group(t["draw"].as_u64().unwrap_or(0) as u128),
                    group(t["lose"].as_u64().unwrap_or(0) as u128),
                );
            }
            if let Some(first) = s["missing"].as_array().and_then(|m| m.first()) {
                let top = s["tiers"]
                    .as_array()
                    .and_then(|t| t.last())
                    .map(|t| &t["seeds"]);
                println!(
                    "  tier {first} is missing: questions use the tiers below it only; a build of this rule set with --max-seeds {} into {} fills the gap (the tiers built are kept)",
                    top.unwrap_or(&serde_json::Value::Null),
                    self.dir.display()
                );
            }
        }
        if damaged > 0 {
            bail!(
                "{damaged} of the folders above cannot be read as tables (see their lines): `mancala build` of that rule set into {} rebuilds damaged tiers, `mancala verify` names them",
                self.dir.display()
            );
        }
        Ok(())
    }
}
/// The rule set a folder's name is the key of, if it is one.
fn variant_of(dir: &Path) -> Option<mancala_rules::Variant> {
    mancala_rules::Variant::from_key(&dir.file_name()?.to_string_lossy())
}

/// One rule set's folder: every tier's size, form and win/draw/lose counts (for the side to
/// move), the tiers missing below the highest one (`missing`, when there are any), or what
/// is wrong with it.
fn describe_set(dir: &Path) -> serde_json::Value {
    let key = dir
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .to_string();
    let tables = dir.parent().unwrap_or(dir);
    let inner = || -> Result<Vec<TierSummary>> {
        let variant = variant_of(dir).context("not a table folder")?;
        let rules = mancala_rules::Rules::new(variant);
        let max = TierFiles::Built {
            dir: tables,
            key: &key,
        }
        .highest(top_tier(&rules))
        .context("no table files")?;
        // Watched: a file changed in place while it is counted is said to be so, not a fault.
        let mut set = Tables::open_with(tables, &rules, max, Payload::Checked, Watching::On)?;
        set.decode_all()?;
        let tiers = set.summary();
        set.unchanged()?;
        Ok(tiers)
    };
    match inner() {
        Ok(tiers) => {
            let mut v = mancala_oracle::json::table_set(&key, Ok(&tiers));
            let built: std::collections::HashSet<usize> = tiers.iter().map(|t| t.seeds).collect();
            let top = tiers.iter().map(|t| t.seeds).max().unwrap_or(0);
            let missing: Vec<usize> = (0..top).filter(|n| !built.contains(n)).collect();
            if !missing.is_empty() {
                v["missing"] = serde_json::json!(missing);
            }
            v
        }
        Err(e) => mancala_oracle::json::table_set(&key, Err(&format!("{e:#}"))),
    }
}
