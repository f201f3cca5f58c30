//! The tables a folder holds, found by their file names before any is opened: what a
//! long-lived reader (the web oracle, the Python package) opens.

use mancala_rules::Rules;
use mancala_tables::{published, MAX_TIER};
use std::path::Path;

/// The largest tier of `rules` with a file in the table folder `dir`.
pub fn highest_tier(dir: &Path, rules: &Rules) -> Option<usize> {
    let folder = dir.join(rules.variant().key());
    std::fs::read_dir(folder)
        .ok()?
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            let n = name.strip_prefix("tier-")?.strip_suffix(".mtb")?;
            n.parse::<usize>().ok()
        })
        .filter(|&n| n <= rules.max_seeds().min(MAX_TIER))
        .max()
}

/// The largest tier of the published database with a file `scores.N` in `dir`.
pub fn highest_published(dir: &Path, rules: &Rules) -> Option<usize> {
    (0..=rules.max_seeds().min(MAX_TIER))
        .rev()
        .find(|&n| published::file_path(dir, n).is_file())
}
