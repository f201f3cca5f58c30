//! The tables a folder holds, found by their file names before any is opened: what a
//! long-lived reader (the web oracle, the Python package) opens.

use mancala_rules::Rules;
use mancala_tables::{top_tier, TierFiles};
use std::path::Path;

/// The largest tier of `rules` with a file in the table folder `dir`.
pub fn highest_tier(dir: &Path, rules: &Rules) -> Option<usize> {
    let key = rules.variant().key();
    TierFiles::Built { dir, key: &key }.highest(top_tier(rules))
}

/// The largest tier of the published database with a file `scores.N` in `dir`.
pub fn highest_published(dir: &Path, rules: &Rules) -> Option<usize> {
    TierFiles::Published { dir }.highest(top_tier(rules))
}
