//! The tables of one rule set, opened together and probed by position.

use crate::table::{tier_path, Table};
use crate::TableError;
use mancala_index::Indexer;
use mancala_rules::{Board, Rules};
use std::path::{Path, PathBuf};

/// Every built tier of one rule set under a directory.
pub struct Tables {
    rules: Rules,
    ix: Indexer,
    dir: PathBuf,
    tiers: Vec<Option<Table>>,
}

impl Tables {
    /// Opens the tiers `0..=max` that exist, checking each (a damaged file is an error, a
    /// missing one is not).
    pub fn open(
        dir: &Path,
        rules: &Rules,
        max: usize,
        check_payload: bool,
    ) -> Result<Tables, TableError> {
        let ix = Indexer::new(rules, max)?;
        let key = rules.variant().key();
        let mut tiers = Vec::with_capacity(max + 1);
        for n in 0..=max {
            let path = tier_path(dir, &key, n);
            if path.exists() {
                tiers.push(Some(Table::open(
                    &path,
                    &key,
                    n,
                    ix.size(n),
                    check_payload,
                )?));
            } else {
                tiers.push(None);
            }
        }
        Ok(Tables {
            rules: rules.clone(),
            ix,
            dir: dir.to_path_buf(),
            tiers,
        })
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn indexer(&self) -> &Indexer {
        &self.ix
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The table of tier `n`, if built.
    pub fn tier(&self, n: usize) -> Option<&Table> {
        self.tiers.get(n).and_then(|t| t.as_ref())
    }

    /// The largest `k` such that every tier `0..=k` is built (`None` if tier 0 is missing).
    pub fn complete_up_to(&self) -> Option<usize> {
        let k = self.tiers.iter().take_while(|t| t.is_some()).count();
        k.checked_sub(1)
    }

    /// The table value of an indexed position, or why it cannot be had.
    pub fn probe(&self, b: Board) -> Result<Option<i8>, TableError> {
        let n = b.total() as usize;
        let Some(t) = self.tier(n) else {
            return Err(self.missing(n));
        };
        match self.ix.rank(b) {
            Some(r) => Ok(Some(t.get(r)?)),
            None => Ok(None),
        }
    }

    /// The error for a tier that is not built, with the command that builds it.
    pub fn missing(&self, n: usize) -> TableError {
        let v = self.rules.variant();
        let mut command = format!(
            "mancala build {} --pits {} --seeds {}",
            v.preset, v.pits, v.seeds
        );
        if v.empty_capture {
            command.push_str(" --empty-capture");
        }
        if v.preset == mancala_rules::Preset::Wari {
            command.push_str(&format!(" --grand-slam {}", v.grand_slam.id()));
        }
        command.push_str(&format!(" --max-seeds {n} --dir {}", self.dir.display()));
        TableError::Missing {
            tier: n,
            key: v.key(),
            dir: self.dir.clone(),
            command,
        }
    }
}

/// Peak resident memory of this process in MiB (0 where /proc is unavailable).
pub fn peak_rss_mb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map(|kb| kb / 1024)
        .unwrap_or(0)
}
