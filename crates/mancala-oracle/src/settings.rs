//! How an [`crate::Oracle`] answers: its table folder, the tables a search probes, and the
//! searcher's options; and the default table size.

use mancala_index::Indexer;
use mancala_rules::{Family, Rules};
use mancala_search::Options;
use mancala_tables::{physical_memory, MAX_TIER};
use std::path::PathBuf;

/// How an oracle answers.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The table folder: each rule set's tables are in a subfolder named by its key.
    pub dir: PathBuf,
    /// Which tables a search probes (see [`crate::Oracle::plan_tables`]).
    pub tables: TableSize,
    /// The searcher's options (hash size, threads, time limit, ...).
    pub search: Options,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            dir: PathBuf::from("databases"),
            tables: TableSize::Auto,
            search: Options::default(),
        }
    }
}

/// The tables a search probes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableSize {
    /// The size that answers the position fastest ([`default_tables`]), or a larger complete
    /// set already built.
    Auto,
    /// Every tier up to this many seeds.
    UpTo(usize),
    /// None: search alone.
    Off,
}

/// Kalah type: the table size for a position of `seeds` seeds. Two more tiers halve the
/// search while each tier costs about 1.6 times the one below it to build, so the best size
/// grows with the position, and it shrinks as the search gets better. Measured from nothing
/// on this project's 2-core machine (paired runs, docs/performance.md), 6x3 (36 seeds) is
/// fastest with 12 (10: 1.08x the time, 14: 1.36x, 16: 3.2x), 6x4 (48) with 18 (16: 1.24x,
/// 17: 1.07x, 20: 1.39x; empty capture, 20: 1.67x), and 6x5 (60) with 26 (2026-11-27,
/// tables and two-thread search in seconds: standard 24: 36 + 284, 26: 36 + about 60 + 126,
/// 28: 36 + 219 + 53; empty capture 24: 36 + 93, 26: 36 + about 60 + 40, 28: 36 + 219 + 22).
/// The rule runs through those points: a third of the seeds up to 36, then one tier for
/// every two seeds up to 48, then two for every three.
fn kalah_tables(seeds: usize) -> usize {
    match seeds {
        0..=36 => seeds / 3,
        37..=48 => 12 + (seeds - 36) / 2,
        _ => 18 + (seeds - 48) * 2 / 3,
    }
}

/// Awari type: cyclic tiers cost more to build and help a search less; 14 seeds take
/// seconds.
const AWARI_TABLES: usize = 14;

/// The searcher reads the tables at random, so they must stay in memory: a default size keeps
/// them to at most this share of the machine's memory.
const MEMORY_SHARE: u64 = 2;
/// The memory assumed where the system does not say.
const ASSUMED_MEMORY: u64 = 8 << 30;

/// The table size a search of a position with `seeds` seeds answers fastest with, by
/// default: see the constants above; never more than the game has, nor more than fits in
/// half the machine's memory.
pub fn default_tables(rules: &Rules, seeds: usize) -> usize {
    let want = match rules.variant().family() {
        Family::Kalah => kalah_tables(seeds),
        Family::Awari | Family::Sowing => AWARI_TABLES,
    }
    .min(rules.max_seeds())
    .min(MAX_TIER);
    let budget = physical_memory().unwrap_or(ASSUMED_MEMORY) / MEMORY_SHARE;
    let Ok(ix) = Indexer::new(rules, want) else {
        return want;
    };
    let mut total = 0u64;
    for n in 0..=want {
        total = total.saturating_add(ix.size(n));
        if total > budget {
            return n.saturating_sub(1);
        }
    }
    want
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The measured optima of the published Kalah boards.
    #[test]
    fn kalah_sizes_follow_the_measurements() {
        assert_eq!(kalah_tables(36), 12);
        assert_eq!(kalah_tables(48), 18);
        assert_eq!(kalah_tables(60), 26);
        // Between the points it never shrinks as seeds are added.
        assert!((0..=120).all(|s| kalah_tables(s) <= kalah_tables(s + 1)));
    }
}
