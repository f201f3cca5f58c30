//! The names of the tier files (the engine's own and the published database's) and what a
//! folder holds, found by those names before any file is opened: the highest tier present
//! ("built up to") and the tiers missing from a range. It imports nothing of the crate.

use mancala_index::Indexer;
use std::path::{Path, PathBuf};

/// The file of tier `tier` of the rule set `key` under `dir`.
pub fn tier_path(dir: &Path, key: &str, tier: usize) -> PathBuf {
    dir.join(key).join(format!("tier-{tier:03}.mtb"))
}

/// The published database's file of tier `n` in `dir`: `scores.N`.
pub fn published_path(dir: &Path, n: usize) -> PathBuf {
    dir.join(format!("scores.{n}"))
}

/// The length of the published file of tier `n`: its positions, less the start position.
pub fn published_len(ix: &Indexer, n: usize) -> u64 {
    ix.size(n) - ix.extra(n).is_some() as u64
}

/// Where the files of one rule set's tiers are.
#[derive(Clone, Copy, Debug)]
pub enum TierFiles<'a> {
    /// The engine's own tables: `dir/<key>/tier-NNN.mtb`.
    Built {
        /// The table folder.
        dir: &'a Path,
        /// The rule set's key.
        key: &'a str,
    },
    /// The published Awari database's files: `dir/scores.N`.
    Published {
        /// The folder of the files.
        dir: &'a Path,
    },
}

impl TierFiles<'_> {
    /// The file of tier `n`.
    pub fn path(&self, n: usize) -> PathBuf {
        match *self {
            TierFiles::Built { dir, key } => tier_path(dir, key, n),
            TierFiles::Published { dir } => published_path(dir, n),
        }
    }

    /// The folder the files are in.
    pub fn folder(&self) -> &Path {
        match *self {
            TierFiles::Built { dir, .. } | TierFiles::Published { dir } => dir,
        }
    }

    /// The highest tier of `0..=top` with something at its file's path: the tiers are built
    /// up to it (a file that is not a table is found too, and opening it says what is
    /// wrong with it).
    pub fn highest(&self, top: usize) -> Option<usize> {
        (0..=top).rev().find(|&n| self.path(n).exists())
    }

    /// The tiers of `0..=max` that hold positions and have no file: what a check of every
    /// tier up to `max` cannot find.
    pub fn missing(&self, ix: &Indexer, max: usize) -> Vec<usize> {
        (0..=max)
            .filter(|&n| ix.size(n) > 0 && !self.path(n).exists())
            .collect()
    }
}
