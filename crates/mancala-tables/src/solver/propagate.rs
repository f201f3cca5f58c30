//! Phase 2 of a tier: growing `W_t` and `L_t` from their seeds, one breadth-first round at a
//! time (see the module docs of `retrograde`).
//!
//! A round tells the predecessors of newly decided positions. The sets are least fixpoints, so
//! the order in which a round's updates land does not change them, and the result is the
//! same for every thread count.
//!
//! (Sorting a round's updates into rank buckets, so that each bucket's slice of the tier stays
//! in cache and needs no atomics, was tried: moving ~24 bytes per update through memory
//! several times cost more than the cache misses it saved. Sorting a big round's positions
//! by the block of ranks their predecessors share, so that the updates sweep the state
//! upwards, was tried on tiers of 0.38 G and 0.77 G positions: the propagation took as long
//! as unsorted; see docs/performance.md.)

use super::exit_file::ExitFile;
use super::quiet_graph::QuietGraph;
use super::state::{decided, is_undecided, COUNT, ELIGIBLE};
use crate::core::{CHUNK, NO_EXIT};
use crate::prefetch;
use mancala_index::Indexer;
use mancala_rules::{Board, Rules};
use rayon::prelude::*;
use std::io;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// Predecessor updates gathered and prefetched before touching the state bytes.
const BATCH: usize = 64;

/// The tier being solved (this process's ranks `lo..hi` of it), shared by every task.
pub(crate) struct Ctx<'a> {
    pub rules: &'a Rules,
    pub ix: &'a Indexer,
    pub n: usize,
    pub lo: u64,
    pub hi: u64,
    /// One state byte a position of `lo..hi` ([`super::state`]), by `rank - lo`.
    pub states: &'a [AtomicU8],
    /// Each position's best exit, by `rank - lo`, read when a threshold starts.
    pub exits: ExitSource<'a>,
    /// Quiet predecessors by rank, for rules that cannot un-sow (`None`: un-sow).
    pub graph: Option<&'a QuietGraph>,
}

/// Where the best exits are: in memory (an `i8` a rank) or in a file.
#[derive(Clone, Copy)]
pub(crate) enum ExitSource<'a> {
    Memory(&'a [u8]),
    File(&'a ExitFile),
}

/// What a task found decided: wins and losses.
type Found = (Vec<Board>, Vec<Board>);

/// Newly decided positions that have not yet told their predecessors, in the pieces the tasks
/// found them in (concatenating them would only copy).
#[derive(Default)]
pub(crate) struct Frontier {
    wins: Vec<Vec<Board>>,
    losses: Vec<Vec<Board>>,
}

impl Frontier {
    pub fn len(&self) -> usize {
        self.wins.iter().chain(&self.losses).map(Vec::len).sum()
    }

    fn push(&mut self, (w, l): (Vec<Board>, Vec<Board>)) {
        if !w.is_empty() {
            self.wins.push(w);
        }
        if !l.is_empty() {
            self.losses.push(l);
        }
    }
}

impl Frontier {
    /// Adds another frontier's positions.
    pub fn extend(&mut self, other: Frontier) {
        self.wins
            .extend(other.wins.into_iter().filter(|v| !v.is_empty()));
        self.losses
            .extend(other.losses.into_iter().filter(|v| !v.is_empty()));
    }
}

impl FromIterator<(Vec<Board>, Vec<Board>)> for Frontier {
    fn from_iter<I: IntoIterator<Item = (Vec<Board>, Vec<Board>)>>(iter: I) -> Self {
        let mut f = Frontier::default();
        for piece in iter {
            f.push(piece);
        }
        f
    }
}

impl Ctx<'_> {
    /// Starts threshold `t` on the chunks starting at `chunks`: positions whose best exit is
    /// `t` enter `W_t`; those whose exit is `-t` (or who have no exit, at the first threshold)
    /// become eligible for `L_t`, and enter it at once if every quiet move already reaches
    /// `W_t`.
    ///
    /// Each task scans its own chunk, eight exits at a time, and is its only writer; the
    /// boards of the matches come from a walk that seeks forward from one to the next. Exits
    /// in a file are read a chunk at a time, and only for the chunks that hold `t` or `-t`.
    pub fn seed(&self, t: i8, chunks: &[u64]) -> io::Result<Frontier> {
        let (lo, hi) = (self.lo, self.hi);
        let first = t as usize == self.n;
        let splat = |v: i8| v as u8 as u64 * 0x0101_0101_0101_0101;
        let (up, down, none) = (splat(t), splat(-t), splat(NO_EXIT));
        let pieces = chunks
            .par_iter()
            .map(|&start| {
                let end = (start + CHUNK).min(hi);
                let (a, b) = ((start - lo) as usize, (end - lo) as usize);
                let (mut w, mut l) = (Vec::new(), Vec::new());
                let mut buf = Vec::new();
                let exits: &[u8] = match self.exits {
                    ExitSource::Memory(all) => &all[a..b],
                    ExitSource::File(f) => {
                        if !f.may_hold(start - lo, t, first) {
                            return Ok((w, l));
                        }
                        buf.resize(b - a, 0);
                        f.read(start - lo, &mut buf)?;
                        &buf
                    }
                };
                let mut walk = self.ix.walk_from(self.n, start);
                let mut board_at =
                    |i: usize| walk.seek(start + i as u64).expect("rank inside the tier");
                let states = &self.states[a..b];
                let mut i = 0;
                while i < exits.len() {
                    if i + 8 <= exits.len() {
                        let x = u64::from_le_bytes(exits[i..i + 8].try_into().expect("8"));
                        let hit = has_zero_byte(x ^ up)
                            || has_zero_byte(x ^ down)
                            || first && has_zero_byte(x ^ none);
                        if !hit {
                            i += 8;
                            continue;
                        }
                    }
                    let s = states[i].load(Relaxed);
                    if is_undecided(s) {
                        let exit = exits[i] as i8;
                        if exit == t {
                            states[i].store(decided(t), Relaxed);
                            w.push(board_at(i));
                        } else if exit <= -t && s & ELIGIBLE == 0 {
                            if s & COUNT == 0 {
                                states[i].store(decided(-t), Relaxed);
                                l.push(board_at(i));
                            } else {
                                states[i].store(s | ELIGIBLE, Relaxed);
                            }
                        }
                    }
                    i += 1;
                }
                Ok((w, l))
            })
            .collect::<io::Result<Vec<_>>>()?;
        Ok(pieces.into_iter().collect())
    }

    /// One breadth-first round: tells the predecessors of every frontier position, and
    /// returns the positions that this decided, and the updates for predecessors outside
    /// this process's ranks (see [`Ctx::remote_rank`]).
    ///
    /// Predecessors land anywhere in a tier far bigger than the caches, so their ranks are
    /// gathered in batches and prefetched before the state bytes are updated: the misses then
    /// overlap instead of stalling one by one.
    pub fn round(&self, t: i8, frontier: &Frontier) -> (Frontier, Vec<Vec<u64>>) {
        let tasks = 4 * rayon::current_num_threads();
        let per_task = frontier.len().div_ceil(tasks).clamp(256, 1 << 16);
        let mut parts: Vec<(&[Board], bool)> = Vec::new();
        for (list, won) in [(&frontier.wins, true), (&frontier.losses, false)] {
            for v in list {
                parts.extend(v.chunks(per_task).map(|c| (c, won)));
            }
        }
        let done: Vec<(Found, Vec<u64>)> = parts
            .par_iter()
            .map(|&(items, won)| {
                let (mut w, mut l) = (Vec::new(), Vec::new());
                let mut preds = Vec::new();
                let mut remote = Vec::new();
                let mut batch: Vec<(Board, usize)> = Vec::with_capacity(BATCH + 16);
                for b in items {
                    self.gather(*b, won, &mut preds, &mut batch, &mut remote);
                    if batch.len() >= BATCH {
                        self.update(t, won, &batch, &mut w, &mut l);
                        batch.clear();
                    }
                }
                self.update(t, won, &batch, &mut w, &mut l);
                ((w, l), remote)
            })
            .collect();
        let mut remote = Vec::new();
        let mut next = Frontier::default();
        for (found, r) in done {
            next.push(found);
            if !r.is_empty() {
                remote.push(r);
            }
        }
        (next, remote)
    }

    /// The update of a predecessor of rank `rank` outside this process's ranks, whose child
    /// entered `W_t` (`won`) or `L_t`, as sent to the process that holds it.
    #[inline]
    fn remote_update(rank: u64, won: bool) -> u64 {
        rank << 1 | won as u64
    }

    /// The rank a remote update is for.
    #[inline]
    pub fn remote_rank(u: u64) -> u64 {
        u >> 1
    }

    /// Applies the updates other processes sent for this process's ranks, and returns the
    /// positions that this decided.
    pub fn apply(&self, t: i8, received: &[Vec<u64>]) -> Frontier {
        received
            .par_iter()
            .flat_map(|v| v.par_chunks(1 << 14))
            .map(|updates| {
                let (mut w, mut l) = (Vec::new(), Vec::new());
                let mut batch: Vec<(Board, usize)> = Vec::with_capacity(BATCH);
                for won in [true, false] {
                    for &u in updates.iter().filter(|&&u| (u & 1 == 1) == won) {
                        let r = (Self::remote_rank(u) - self.lo) as usize;
                        prefetch(&self.states[r]);
                        batch.push((Board::EMPTY, r));
                        if batch.len() >= BATCH {
                            self.update(t, won, &batch, &mut w, &mut l);
                            batch.clear();
                        }
                    }
                    self.update(t, won, &batch, &mut w, &mut l);
                    batch.clear();
                }
                (w, l)
            })
            .collect::<Vec<_>>()
            .into_iter()
            .collect()
    }

    /// Adds the in-tier predecessors of `b` among this process's ranks and their indices
    /// (`rank - lo`) to `batch`, prefetching their cells, and the updates of the others to
    /// `remote`. From a quiet-move graph only the rank is known; the board is worked out (by
    /// [`Ctx::board`]) only for the few predecessors that get decided.
    #[inline]
    fn gather(
        &self,
        b: Board,
        won: bool,
        preds: &mut Vec<Board>,
        batch: &mut Vec<(Board, usize)>,
        remote: &mut Vec<u64>,
    ) {
        if let Some(g) = self.graph {
            let r = self.ix.rank(b).expect("a frontier position is indexed");
            for &q in g.preds(r) {
                prefetch(&self.states[q as usize]);
                batch.push((Board::EMPTY, q as usize));
            }
            return;
        }
        self.rules.predecessors(b, preds);
        // A predecessor's opponent is the side to move in `b`, whose row the move did not
        // touch unless the sowing reached it: work out that row's part of the rank once, and
        // only when some predecessor shares it (in Awari most sowings reach the other row).
        let row = self.ix.rows_of(b).0;
        let mut key = None;
        for &q in preds.iter() {
            if let Some(rq) = self.ix.rank_sharing_opp(q, row, &mut key) {
                if (self.lo..self.hi).contains(&rq) {
                    let i = (rq - self.lo) as usize;
                    prefetch(&self.states[i]);
                    batch.push((q, i));
                } else {
                    remote.push(Self::remote_update(rq, won));
                }
            }
        }
    }

    /// The board of a gathered predecessor of index `i` (unranked when only its rank is
    /// known: from the graph, or sent by another process).
    #[inline]
    fn board(&self, q: Board, i: usize) -> Board {
        if q == Board::EMPTY {
            self.ix.unrank(self.n, self.lo + i as u64)
        } else {
            q
        }
    }

    /// Applies a batch of predecessor updates: a child entered `W_t` (`won`) or `L_t`.
    /// Other tasks may update the same positions, hence the compare-and-swap loops.
    #[inline]
    fn update(
        &self,
        t: i8,
        won: bool,
        batch: &[(Board, usize)],
        w: &mut Vec<Board>,
        l: &mut Vec<Board>,
    ) {
        for &(q, rq) in batch {
            if won {
                // One more quiet move of q reaches W_t (each quiet move reports once, so the
                // count never runs below zero): q enters L_t when none is left and its best
                // exit is low enough.
                let cell = &self.states[rq];
                let mut s = cell.load(Relaxed);
                while is_undecided(s) {
                    debug_assert!(s & COUNT != 0);
                    let lost = s & COUNT == 1 && s & ELIGIBLE != 0;
                    let next = if lost { decided(-t) } else { s - 1 };
                    match cell.compare_exchange_weak(s, next, Relaxed, Relaxed) {
                        Ok(_) => {
                            if lost {
                                l.push(self.board(q, rq));
                            }
                            break;
                        }
                        Err(now) => s = now,
                    }
                }
            } else if self.decide_shared(rq, t) {
                w.push(self.board(q, rq));
            }
        }
    }

    /// Marks rank `r` decided with value `v`; false if it already was. Safe against other
    /// tasks deciding or counting down the same rank.
    #[inline]
    fn decide_shared(&self, r: usize, v: i8) -> bool {
        let mut s = self.states[r].load(Relaxed);
        while is_undecided(s) {
            match self.states[r].compare_exchange_weak(s, decided(v), Relaxed, Relaxed) {
                Ok(_) => return true,
                Err(now) => s = now,
            }
        }
        false
    }
}

/// Does any byte of `x` equal zero?
#[inline(always)]
fn has_zero_byte(x: u64) -> bool {
    x.wrapping_sub(0x0101_0101_0101_0101) & !x & 0x8080_8080_8080_8080 != 0
}
