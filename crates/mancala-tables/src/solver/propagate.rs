//! Phase 2 of a tier: growing `W_t` and `L_t` from their seeds, one breadth-first round at a
//! time (see the module docs of `retrograde`).
//!
//! A round tells the predecessors of newly decided positions. The sets are least fixpoints, so
//! the order in which a round's updates land does not change them, and the result is the
//! same for every thread count.
//!
//! (Sorting a round's updates into rank buckets, so that each bucket's slice of the tier stays
//! in cache and needs no atomics, was tried: moving ~24 bytes per update through memory
//! several times cost more than the cache misses it saved.)

use super::cell::{value, COUNT, COUNT_ONE, DECIDED};
use super::quiet_graph::QuietGraph;
use crate::core::CHUNK;
use crate::prefetch;
use mancala_index::Indexer;
use mancala_rules::{Board, Rules};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

/// Predecessor updates gathered and prefetched before touching the state bytes.
const BATCH: usize = 64;

/// The tier being solved, shared by every task.
pub(crate) struct Ctx<'a> {
    pub rules: &'a Rules,
    pub ix: &'a Indexer,
    pub n: usize,
    pub cells: &'a [AtomicU16],
    /// Quiet predecessors by rank, for rules that cannot un-sow (`None`: un-sow).
    pub graph: Option<&'a QuietGraph>,
}

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

    pub fn is_empty(&self) -> bool {
        self.len() == 0
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
    /// Marks rank `r` decided with value `v` unless it already is. Only the task that owns
    /// the rank's chunk calls this (while seeding), so plain loads and stores suffice.
    #[inline(always)]
    fn decide(&self, r: usize, v: i8) -> bool {
        let c = self.cells[r].load(Relaxed);
        if c & DECIDED != 0 {
            return false;
        }
        self.cells[r].store(c & COUNT | DECIDED | v as u8 as u16, Relaxed);
        true
    }

    /// Positions entering `W_t` or `L_t` by their own exits (no quiet move needed), in the
    /// chunks starting at `chunks`.
    ///
    /// Each task scans its own chunk, four cells at a time, and is its only writer; the
    /// boards of the matches come from a walk that seeks forward from one to the next.
    pub fn seed(&self, t: i8, chunks: &[u64]) -> Frontier {
        let size = self.ix.size(self.n);
        let hi = t as u8 as u64 * 0x0001_0001_0001_0001;
        let lo = (-t) as u8 as u64 * 0x0001_0001_0001_0001;
        chunks
            .par_iter()
            .map(|&start| {
                let end = (start + CHUNK).min(size) as usize;
                let (mut w, mut l) = (Vec::new(), Vec::new());
                let mut walk = self.ix.walk_from(self.n, start);
                let mut board_at = |r: u64| walk.seek(r).expect("rank inside the tier");
                let mut r = start as usize;
                while r < end {
                    if r + 4 <= end {
                        // SAFETY: the 4 cells lie inside `cells`; no task writes this chunk
                        // but this one.
                        let word = unsafe {
                            (self.cells[r..r + 4].as_ptr() as *const u64).read_unaligned()
                        } & VALUE_BYTES;
                        if !has_zero_u16(word ^ hi) && !has_zero_u16(word ^ lo) {
                            r += 4;
                            continue;
                        }
                    }
                    let c = self.cells[r].load(Relaxed);
                    let (s, exit) = (c & !0xff, value(c));
                    if s & DECIDED == 0 {
                        if exit == t {
                            self.decide(r, t);
                            w.push(board_at(r as u64));
                        } else if exit == -t && s & COUNT == 0 {
                            self.decide(r, -t);
                            l.push(board_at(r as u64));
                        }
                    }
                    r += 1;
                }
                (w, l)
            })
            .collect::<Vec<_>>()
            .into_iter()
            .collect()
    }

    /// One breadth-first round: tells the predecessors of every frontier position, and
    /// returns the positions that this decided.
    ///
    /// Predecessors land anywhere in a tier far bigger than the caches, so their ranks are
    /// gathered in batches and prefetched before the state bytes are updated: the misses then
    /// overlap instead of stalling one by one.
    pub fn round(&self, t: i8, frontier: &Frontier) -> Frontier {
        let tasks = 4 * rayon::current_num_threads();
        let per_task = frontier.len().div_ceil(tasks).clamp(256, 1 << 16);
        let mut parts: Vec<(&[Board], bool)> = Vec::new();
        for (list, won) in [(&frontier.wins, true), (&frontier.losses, false)] {
            for v in list {
                parts.extend(v.chunks(per_task).map(|c| (c, won)));
            }
        }
        parts
            .par_iter()
            .map(|&(items, won)| {
                let (mut w, mut l) = (Vec::new(), Vec::new());
                let mut preds = Vec::new();
                let mut batch: Vec<(Board, usize)> = Vec::with_capacity(BATCH + 16);
                for b in items {
                    self.gather(*b, &mut preds, &mut batch);
                    if batch.len() >= BATCH {
                        self.update(t, won, &batch, &mut w, &mut l);
                        batch.clear();
                    }
                }
                self.update(t, won, &batch, &mut w, &mut l);
                (w, l)
            })
            .collect::<Vec<_>>()
            .into_iter()
            .collect()
    }

    /// Adds the in-tier predecessors of `b` and their ranks to `batch`, prefetching their
    /// cells. From a quiet-move graph only the rank is known; the board is worked out (by
    /// [`Ctx::board`]) only for the few predecessors that get decided.
    #[inline]
    fn gather(&self, b: Board, preds: &mut Vec<Board>, batch: &mut Vec<(Board, usize)>) {
        if let Some(g) = self.graph {
            let r = self.ix.rank(b).expect("a frontier position is indexed");
            for &q in g.preds(r) {
                prefetch(&self.cells[q as usize]);
                batch.push((Board::EMPTY, q as usize));
            }
            return;
        }
        self.rules.predecessors(b, preds);
        // A predecessor's opponent is the side to move in `b`, whose row the move did not
        // touch unless the sowing went round: work out its part of the rank once.
        let row = self.ix.rows_of(b).0;
        let known = (row, self.ix.opp_key(self.n, row));
        for &q in preds.iter() {
            if let Some(rq) = self.ix.rank_sharing_opp(q, known) {
                prefetch(&self.cells[rq as usize]);
                batch.push((q, rq as usize));
            }
        }
    }

    /// The board of a gathered predecessor (unranked when it came from the graph).
    #[inline]
    fn board(&self, q: Board, rq: usize) -> Board {
        match self.graph {
            Some(_) => self.ix.unrank(self.n, rq as u64),
            None => q,
        }
    }

    /// Applies a batch of predecessor updates: a child entered `W_t` (`won`) or `L_t`.
    /// Other tasks may update the same positions, hence the atomic read-modify-writes.
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
                // One more quiet move of q reaches W_t. Each quiet move reports once, so the
                // count never runs below zero.
                let before = self.cells[rq].fetch_sub(COUNT_ONE, Relaxed);
                debug_assert!(before & COUNT != 0);
                if before & (DECIDED | COUNT) == COUNT_ONE
                    && value(before) <= -t
                    && self.decide_shared(rq, -t)
                {
                    l.push(self.board(q, rq));
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
        let mut c = self.cells[r].load(Relaxed);
        loop {
            if c & DECIDED != 0 {
                return false;
            }
            let decided = c & COUNT | DECIDED | v as u8 as u16;
            match self.cells[r].compare_exchange_weak(c, decided, Relaxed, Relaxed) {
                Ok(_) => return true,
                Err(now) => c = now,
            }
        }
    }
}

/// The value bytes of four cells read as one word.
const VALUE_BYTES: u64 = 0x00ff_00ff_00ff_00ff;

/// Does any 16-bit lane of `x` equal zero?
#[inline(always)]
fn has_zero_u16(x: u64) -> bool {
    x.wrapping_sub(0x0001_0001_0001_0001) & !x & 0x8000_8000_8000_8000 != 0
}
