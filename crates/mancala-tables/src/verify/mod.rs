//! Re-checking built tables: every header and checksum, then every position against its
//! children (the value must equal the best move's value: docs/rules.md, Conventions).

mod journal;

pub use journal::JOURNAL;

use crate::core::Progress;
use crate::error::{BadEntry, TableError};
use crate::set::{Decoded, Payload, Tables};
use crate::store::table::Table;
use journal::Journal;
use mancala_index::{Indexer, Order};
use mancala_rules::{Board, Next, Node, Rules};
use rayon::prelude::*;
use std::ops::RangeInclusive;
use std::path::Path;

/// The outcome of a verification.
#[derive(Debug, Clone)]
pub struct VerifyReport {
    /// Tiers checked, with their position counts.
    pub tiers: Vec<(usize, u64)>,
    /// The first inconsistency: file, tier, rank, position, stored value, recomputed value.
    pub first_bad: Option<BadEntry>,
    /// Tiers of which an earlier run had checked the first ranks (in the same files, by the
    /// journal), with how many: this run went on from there.
    pub earlier: Vec<(usize, u64)>,
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
    verify_tables(&open_checked(rules, dir, *tiers.end())?, tiers)
}

/// The tables of `rules` in `dir` up to tier `max`, every header and checksum checked, decoded
/// for [`verify_with`].
pub fn open_checked(rules: &Rules, dir: &Path, max: usize) -> Result<Tables, TableError> {
    let mut tables = Tables::open(dir, rules, max, Payload::Checked)?;
    tables.decode_all()?;
    Ok(tables)
}

/// [`verify`] of tables already open (raw or decoded: the published database's files, say).
pub fn verify_tables(
    tables: &Tables,
    tiers: RangeInclusive<usize>,
) -> Result<VerifyReport, TableError> {
    verify_within(tables, tiers, crate::build::plan::default_budget())
}

/// [`verify_tables`] within `budget` bytes of memory: a tier that does not fit with every
/// tier below it is checked reading them in order, a slice at a time.
pub fn verify_within(
    tables: &Tables,
    tiers: RangeInclusive<usize>,
    budget: u64,
) -> Result<VerifyReport, TableError> {
    verify_with(
        tables,
        tiers,
        &VerifyOptions {
            budget,
            ..VerifyOptions::default()
        },
    )
}

/// What a verification reports as it goes (the CLI draws a progress bar from it).
pub trait VerifyObserver: Sync {
    /// Tier `tier`, of `positions`, starts; `done` of them were checked by an earlier run
    /// (from the journal) and `work` units of progress will follow.
    fn tier_started(&self, _tier: usize, _positions: u64, _done: u64, _work: u64) {}
    /// `units` more of the tier's work done: a position checked, or a position's best exit
    /// worked out by a scan of the lower tiers (such a tier counts each position twice).
    fn progress(&self, _units: u64) {}
    /// The journal at `path` cannot be written: what this run checks will be checked again
    /// if it is killed.
    fn cannot_record(&self, _path: &Path, _err: &std::io::Error) {}
}

impl VerifyObserver for () {}

/// How [`verify_with`] goes.
pub struct VerifyOptions<'a> {
    /// Bytes of memory it may use: a tier that does not fit with every tier below it is
    /// checked reading them in order, a slice at a time.
    pub budget: u64,
    /// Skip what the journal of the tables' folder says an earlier run found right in the
    /// same files ([`JOURNAL`]). Only for tables opened with every payload checked
    /// ([`open_checked`]; [`Tables::payloads_checked`]), and not for the published
    /// database's files: the journal is not read or written otherwise.
    pub resume: bool,
    /// Append what this run finds right to that journal, stretch by stretch.
    pub record: bool,
    /// Told of the progress.
    pub observer: &'a dyn VerifyObserver,
}

impl Default for VerifyOptions<'_> {
    /// The default budget, no journal, no observer.
    fn default() -> Self {
        VerifyOptions {
            budget: crate::build::plan::default_budget(),
            resume: false,
            record: false,
            observer: &(),
        }
    }
}

/// Positions checked between two lines of the journal when the tier and every tier below it
/// are read at random (a tier read in order records each of its slices).
const STRETCH: u64 = 1 << 28;

/// About how much work a slice of a tier read in order is cut to, at most.
const RECORD_EVERY: std::time::Duration = std::time::Duration::from_secs(600);

/// Positions a thread checks a second in a slice of a tier whose lower tiers are read in
/// order: the best exits by the scan, then every value against the tier's own moves at random
/// (Awari's tiers 34 and 36 with 3 seeds a pit: 3.34 M a second on 2 threads, with the opening
/// and checksumming of the tables). The build's phase 1 alone runs faster
/// ([`crate::build::plan::PHASE1_PER_THREAD`]); a verifier's slice does more.
const CHECK_PER_THREAD: f64 = 2.0e6;

/// [`verify_tables`] as `opts` say: within a budget, going on from and recording to the
/// journal, reporting progress. A tier read in order needs every lower tier with positions
/// raw or decoded: the first one absent (or still compressed: [`open_checked`] decodes them)
/// is the error, as missing.
pub fn verify_with(
    tables: &Tables,
    tiers: RangeInclusive<usize>,
    opts: &VerifyOptions<'_>,
) -> Result<VerifyReport, TableError> {
    let rules = tables.rules();
    let ix = tables.indexer();
    let obs = opts.observer;
    // Only the program's own files, with every payload checked on opening: a record
    // stands for the bytes that were found right.
    let own = !tables.is_published() && tables.payloads_checked();
    let mut journal = (own && (opts.resume || opts.record))
        .then(|| Journal::read(&tables.dir().join(rules.variant().key()).join(JOURNAL)));
    let resume = opts.resume && journal.is_some();
    let mut recording = opts.record;
    let mut report = VerifyReport {
        tiers: Vec::new(),
        first_bad: None,
        earlier: Vec::new(),
    };
    for n in *tiers.start()..=(*tiers.end()).min(ix.max_tier()) {
        let Some(table) = tables.tier(n).filter(|t| t.raw().is_some()) else {
            continue;
        };
        let size = ix.size(n);
        report.tiers.push((n, size));
        let files = journal::files_hash(tables, n);
        let earlier = match &journal {
            Some(j) if resume => snap_to_block(ix, n, j.done(n, files).min(size)),
            _ => 0,
        };
        if earlier > 0 {
            report.earlier.push((n, earlier));
        }
        // The tier and every one below it read at random while they fit in memory; beyond,
        // the lower tiers are read in order, a slice of the tier at a time.
        let all: u64 = (0..=n).map(|k| ix.size(k)).sum();
        let scanned = all > opts.budget;
        // A position's moves may lead to any lower tier: one that is missing is named as
        // such (its file, what to do), never reported as a position whose moves give nothing.
        let absent =
            (0..n).find(|&k| ix.size(k) > 0 && tables.tier(k).and_then(Table::raw).is_none());
        if let Some(k) = absent {
            return Err(tables.missing(k));
        }
        let pieces = if scanned {
            let room = opts.budget.saturating_sub(size).max(1);
            // A slice costs two bytes a position (quiet-move counts and best exits), and is
            // recorded when it is done: slices of about ten minutes' work each at most, so
            // that a kill loses little (each slice reads the lower tiers once more).
            let threads = rayon::current_num_threads();
            let by_work =
                crate::build::plan::slices_of_work(size, RECORD_EVERY, threads, CHECK_PER_THREAD);
            let by_memory = (2 * size).div_ceil(room) as usize;
            by_memory
                .max(by_work)
                .clamp(1, crate::build::plan::MAX_SLICES)
        } else {
            size.div_ceil(STRETCH) as usize
        };
        let bounds = crate::build::cluster::split_from(ix, n, pieces, (0, size), earlier);
        let left = size - earlier;
        // A tier read in order checks each position against its quiet children, anywhere in
        // the tier: when the tier fits beside its biggest slice, a resident copy on huge pages
        // serves those reads (see `Table::resident`).
        let biggest = bounds.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        let resident = (scanned && left > 0 && size.saturating_add(2 * biggest) <= opts.budget)
            .then(|| table.resident())
            .flatten();
        let table = resident.as_ref().unwrap_or(table);
        obs.tier_started(n, size, earlier, if scanned { 2 * left } else { left });
        for w in bounds.windows(2) {
            let bad = if scanned {
                first_bad_scanned(tables, n, table, (w[0], w[1]), obs)?
            } else {
                let value_of = |b: Board| -> Option<i32> {
                    let t = b.total() as usize;
                    tables.tier(t)?.get(ix.rank(b)?).map(i32::from)
                };
                first_bad_in(rules, ix, n, table, (w[0], w[1]), value_of, obs)
            };
            if bad.is_some() {
                report.first_bad = bad;
                return Ok(report);
            }
            if let Some(j) = journal.as_mut().filter(|_| recording) {
                if let Err(e) = j.record(n, files, w[1]) {
                    // The records read stay good for the tiers still to come.
                    obs.cannot_record(j.path(), &e);
                    recording = false;
                }
            }
        }
    }
    Ok(report)
}

/// The first rank of the block that holds rank `r` of tier `n` in the published order (a
/// slice read in order starts at a block), else `r`.
fn snap_to_block(ix: &Indexer, n: usize, r: u64) -> u64 {
    if r == 0 || r >= ix.size(n) || ix.order() != Order::Published {
        return r;
    }
    ix.blocks(n)
        .map(|(_, start)| start)
        .take_while(|&s| s <= r)
        .last()
        .unwrap_or(0)
}

/// Progress of a scan, told to the observer.
struct Told<'a>(&'a dyn VerifyObserver);

impl Progress for Told<'_> {
    fn advance(&self, units: u64) {
        self.0.progress(units)
    }
}

/// [`first_bad`] of ranks `lo..hi` of a tier whose lower tiers do not fit in memory: the best
/// exits of the slice are worked out as the builder's scan does (each lower tier read once,
/// in order), and each position's value is checked against its best exit and its quiet
/// moves' values, read from its own tier. Fails only when the slice's arrays cannot be had.
fn first_bad_scanned(
    tables: &Tables,
    n: usize,
    table: &Table,
    (lo, hi): (u64, u64),
    obs: &dyn VerifyObserver,
) -> Result<Option<BadEntry>, TableError> {
    let (rules, ix) = (tables.rules(), tables.indexer());
    let lower = Decoded::new(&tables.tiers()[..n]);
    let exits = crate::solver::best_exits(rules, ix, n, &lower, (lo, hi), &Told(obs))
        .map_err(|e| TableError::of_solver(e, rules.variant().key(), n, table.path()))?;
    Ok(first_mismatch(
        rules,
        ix,
        n,
        table,
        (lo, hi),
        obs,
        |r, b| {
            let exit = exits[(r - lo) as usize] as i8;
            match rules.node(b) {
                Node::Terminal { .. } => Some(exit as i32),
                Node::Moves(kids) => {
                    // The quiet children's values lie anywhere in the tier: all their reads are
                    // started before the first is waited for.
                    let quiet = || kids.iter().filter(|c| c.is_quiet());
                    let mut ranks = [0u64; mancala_rules::MAX_MOVES];
                    for (rank, c) in ranks.iter_mut().zip(quiet()) {
                        *rank = ix.rank(c.board)?;
                        table.prefetch(*rank);
                    }
                    quiet()
                        .zip(ranks)
                        .map(|(c, rank)| Some(c.value(table.get(rank)? as i32)))
                        .try_fold(exit as i32, |best, v| v.map(|v| best.max(v)))
                }
            }
        },
    ))
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
    first_bad_in(rules, ix, n, table, (0, ix.size(n)), value_of, &())
}

/// [`first_bad`] of ranks `lo..hi`, with progress told to `obs`.
fn first_bad_in(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    table: &Table,
    (lo, hi): (u64, u64),
    value_of: impl Fn(Board) -> Option<i32> + Sync,
    obs: &dyn VerifyObserver,
) -> Option<BadEntry> {
    first_mismatch(rules, ix, n, table, (lo, hi), obs, |_, b| {
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
    obs: &dyn VerifyObserver,
    recompute: impl Fn(u64, Board) -> Option<i32> + Sync,
) -> Option<BadEntry> {
    let m = rules.pits();
    let chunk = 1u64 << 14;
    let starts: Vec<u64> = (lo..hi).step_by(chunk as usize).collect();
    starts
        .par_iter()
        .filter_map(|&start| {
            let len = chunk.min(hi - start) as usize;
            obs.progress(len as u64);
            for (i, b) in ix.walk_from(n, start).take(len).enumerate() {
                let r = start + i as u64;
                let stored = table.get(r).map_or(i32::MIN, i32::from);
                let recomputed = recompute(r, b);
                if recomputed != Some(stored) {
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
