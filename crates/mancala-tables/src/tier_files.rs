//! The files of a rule set's tiers, found by their names before any is opened: the highest
//! tier present ("built up to") and the tiers missing from a range.

use crate::published;
use crate::table::tier_path;
use mancala_index::Indexer;
use std::path::{Path, PathBuf};

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
            TierFiles::Published { dir } => published::file_path(dir, n),
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
