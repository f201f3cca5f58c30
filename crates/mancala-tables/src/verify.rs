//! Re-checking built tables: every header and checksum, then every position against its
//! children (the value must equal the best move's value: docs/rules.md, Conventions).

use crate::set::{Decoded, Tables};
use crate::table::Table;
use crate::TableError;
use mancala_index::Indexer;
use mancala_rules::{Board, Next, Node, Rules};
use rayon::prelude::*;
use std::ops::RangeInclusive;
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

/// Recomputes the values of `tiers` (those present). Every file of the tiers up to the last
/// one, below `tiers` too, has its header and checksum checked on open: the values of the
/// tiers below are what the recomputation reads. Checking only the top tiers of a big build
/// (`34..=36`, say) trusts the tiers below to have been checked before.
pub fn verify(
    rules: &Rules,
    dir: &Path,
    tiers: RangeInclusive<usize>,
) -> Result<VerifyReport, TableError> {
    let mut tables = Tables::open(dir, rules, *tiers.end(), true)?;
    tables.decode_all()?;
    verify_tables(&tables, tiers)
}

/// [`verify`] of tables already open (raw or decoded: the published database's files, say).
pub fn verify_tables(
    tables: &Tables,
    tiers: RangeInclusive<usize>,
) -> Result<VerifyReport, TableError> {
    verify_within(tables, tiers, crate::plan::default_budget())
}

/// [`verify_tables`] within `budget` bytes of memory: a tier that does not fit with every
/// tier below it is checked reading them in order, a slice at a time.
pub fn verify_within(
    tables: &Tables,
    tiers: RangeInclusive<usize>,
    budget: u64,
) -> Result<VerifyReport, TableError> {
    let rules = tables.rules();
    let ix = tables.indexer();
    let mut report = VerifyReport {
        tiers: Vec::new(),
        first_bad: None,
    };
    for n in *tiers.start()..=(*tiers.end()).min(ix.max_tier()) {
        let Some(table) = tables.tier(n).filter(|t| t.raw().is_some()) else {
            continue;
        };
        let size = ix.size(n);
        report.tiers.push((n, size));
        // The tier and every one below it read at random while they fit in memory; beyond,
        // the lower tiers are read in order, a slice of the tier at a time.
        let all: u64 = (0..=n).map(|k| ix.size(k)).sum();
        let bad = if all <= budget {
            let value_of = |b: Board| -> Option<i32> {
                let t = b.total() as usize;
                tables.tier(t)?.get(ix.rank(b)?).map(i32::from)
            };
            first_bad(rules, ix, n, table, value_of)
        } else {
            let room = budget.saturating_sub(size).max(1);
            // A slice costs two bytes a position (quiet-move counts and best exits).
            let slices = ((2 * size).div_ceil(room) as usize).clamp(1, crate::plan::MAX_SLICES);
            first_bad_scanned(tables, n, table, slices)
        };
        if bad.is_some() {
            report.first_bad = bad;
            break;
        }
    }
    Ok(report)
}

/// [`first_bad`] for a tier whose lower tiers do not fit in memory: in `slices` slices, the
/// best exits of a slice are worked out as the builder's scan does (each lower tier read
/// once, in order), and each position's value is checked against its best exit and its quiet
/// moves' values, read from its own tier.
fn first_bad_scanned(tables: &Tables, n: usize, table: &Table, slices: usize) -> Option<BadEntry> {
    let (rules, ix) = (tables.rules(), tables.indexer());
    let lower = Decoded::new(tables.tiers());
    let mut bounds = crate::cluster::split(ix, n, slices, (0, ix.size(n)));
    bounds.dedup();
    for w in bounds.windows(2) {
        let (lo, hi) = (w[0], w[1]);
        let exits = crate::solver::best_exits(rules, ix, n, &lower, (lo, hi));
        let bad = first_mismatch(rules, ix, n, table, (lo, hi), |r, b| {
            let exit = exits[(r - lo) as usize] as i8;
            match rules.node(b) {
                Node::Terminal { .. } => Some(exit as i32),
                Node::Moves(kids) => kids
                    .iter()
                    .filter(|c| c.is_quiet())
                    .map(|c| {
                        let v = table.get(ix.rank(c.board)?)?;
                        Some(c.value(v as i32))
                    })
                    .try_fold(exit as i32, |best, v| v.map(|v| best.max(v))),
            }
        });
        if bad.is_some() {
            return bad;
        }
    }
    None
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
    first_mismatch(rules, ix, n, table, (0, ix.size(n)), |_, b| {
        match rules.node(b) {
            Node::Terminal { mover, opp } => Some(mover as i32 - opp as i32),
            Node::Moves(kids) => kids
                .iter()
                .map(|c| match c.next {
                    Next::Over => Some(c.value(0)),
                    _ => value_of(c.board).map(|v| c.value(v)),
                })
                .try_fold(i32::MIN, |best, v| v.map(|v| best.max(v))),
        }
    })
}

/// The first position of ranks `lo..hi` of tier `n` whose value in `table` differs from
/// `recompute(rank, position)` (`None` from it: a child's tier is missing), walked in
/// parallel chunks; the two verifiers differ only in how they recompute.
fn first_mismatch(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    table: &Table,
    (lo, hi): (u64, u64),
    recompute: impl Fn(u64, Board) -> Option<i32> + Sync,
) -> Option<BadEntry> {
    let m = rules.pits();
    let chunk = 1u64 << 14;
    let starts: Vec<u64> = (lo..hi).step_by(chunk as usize).collect();
    starts
        .par_iter()
        .filter_map(|&start| {
            let len = chunk.min(hi - start) as usize;
            for (i, b) in ix.walk_from(n, start).take(len).enumerate() {
                let r = start + i as u64;
                let stored = table.get(r).map_or(i32::MIN, i32::from);
                let recomputed = recompute(r, b).unwrap_or(i32::MIN);
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
