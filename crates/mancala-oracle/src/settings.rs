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

/// Kalah type: the table size for a position of `seeds` seeds is a third of them plus 4,
/// and a third more of every seed beyond 48. Two more tiers halve the search while each tier
/// costs about 1.6 times the one below it to build, so the best size grows with the
/// position: measured from nothing on this project's 2-core machine, 6x3 (36 seeds) is
/// fastest with 16 (about a second), 6x4 (48) with 20 (13 s; 18: 15 s, 22: 21 s, 24: 45 s),
/// and 6x5 (60) with 28 (299 s; 24: 621 s), which this rule gives.
fn kalah_tables(seeds: usize) -> usize {
    seeds / 3 + 4 + seeds.saturating_sub(48) / 3
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
        assert_eq!(kalah_tables(36), 16);
        assert_eq!(kalah_tables(48), 20);
        assert_eq!(kalah_tables(60), 28);
    }
}
