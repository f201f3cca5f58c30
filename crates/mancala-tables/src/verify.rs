//! Re-checking built tables: every header and checksum, then every position against its
//! children (the value must equal the best move's value: docs/rules.md, Conventions).

use crate::set::Tables;
use crate::table::Table;
use crate::TableError;
use mancala_index::Indexer;
use mancala_rules::{Board, Next, Node, Rules};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// The outcome of a verification.
#[derive(Debug, Clone)]
pub struct VerifyReport {
    /// Tiers checked, with their position counts.
    pub tiers: Vec<(usize, u64)>,
    /// The first inconsistency: file, tier, rank, position, stored value, recomputed value.
    pub first_bad: Option<BadEntry>,
}

/// A stored value that disagrees with the position's moves.
#[derive(Debug, Clone)]
pub struct BadEntry {
    /// The tier's file.
    pub path: PathBuf,
    /// The tier.
    pub tier: usize,
    /// The position's rank in its tier.
    pub rank: u64,
    /// Its pits, mover-relative.
    pub position: Vec<u8>,
    /// The value in the file.
    pub stored: i32,
    /// The best move's value from the children (`i32::MIN` when a child's tier is missing).
    pub recomputed: i32,
}

/// Verifies tiers `0..=max` (those present; files are fully checksummed on open).
pub fn verify(rules: &Rules, dir: &Path, max: usize) -> Result<VerifyReport, TableError> {
    let mut tables = Tables::open(dir, rules, max, true)?;
    tables.decode_all()?;
    verify_tables(&tables, max)
}

/// Verifies tiers `0..=max` of tables already open (raw or decoded: the published database's
/// files, say).
pub fn verify_tables(tables: &Tables, max: usize) -> Result<VerifyReport, TableError> {
    let rules = tables.rules();
    let ix = tables.indexer();
    let mut report = VerifyReport {
        tiers: Vec::new(),
        first_bad: None,
    };
    for n in 0..=max.min(ix.max_tier()) {
        let Some(table) = tables.tier(n).filter(|t| t.raw().is_some()) else {
            continue;
        };
        let value_of = |b: mancala_rules::Board| -> Option<i32> {
            let t = b.total() as usize;
            tables.tier(t)?.get(ix.rank(b)?).map(i32::from)
        };
        report.tiers.push((n, ix.size(n)));
        if let Some(bad) = first_bad(rules, ix, n, table, value_of) {
            report.first_bad = Some(bad);
            break;
        }
    }
    Ok(report)
}

/// The first position of tier `n` (in rank order) whose value in `table` is not its best
/// move's value, reading the values of its children with `value_of` (the tier's own and
/// the lower tiers'). `None` if every value agrees.
pub(crate) fn first_bad(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    table: &Table,
    value_of: impl Fn(Board) -> Option<i32> + Sync,
) -> Option<BadEntry> {
    let m = rules.pits();
    let size = ix.size(n);
    let chunk = 1u64 << 14;
    let starts: Vec<u64> = (0..size).step_by(chunk as usize).collect();
    starts
        .par_iter()
        .filter_map(|&start| {
            let len = chunk.min(size - start) as usize;
            for (i, b) in ix.walk_from(n, start).take(len).enumerate() {
                let r = start + i as u64;
                let stored = table.get(r).map_or(i32::MIN, i32::from);
                let recomputed = match rules.node(b) {
                    Node::Terminal { mover, opp } => Some(mover as i32 - opp as i32),
                    Node::Moves(kids) => kids
                        .iter()
                        .map(|c| match c.next {
                            Next::Over => Some(c.value(0)),
                            _ => value_of(c.board).map(|v| c.value(v)),
                        })
                        .try_fold(i32::MIN, |best, v| v.map(|v| best.max(v))),
                };
                let recomputed = recomputed.unwrap_or(i32::MIN);
                if stored != recomputed {
                    return Some(BadEntry {
                        path: table.path().to_path_buf(),
                        tier: n,
                        rank: r,
                        position: b.pits(2 * m),
                        stored,
                        recomputed,
                    });
                }
            }
            None
        })
        .min_by_key(|e| e.rank)
}
