//! The null-window node search: the hot path.
//!
//! `search(b, gamma, depth)` answers "is the value of `b` at least `gamma`?" with a fail-soft
//! bound and a flag saying whether that bound is **proven**. Leaves are finished games, table
//! values, seed-count bounds (a side cannot gain more than the seeds left), proven table entries
//! and path repetitions: all exact. Only a leaf cut off by the depth limit is heuristic, so a
//! proven result never depends on one, and a search without a depth limit proves everything.
//!
//! Awari-type games can cycle. A position repeated on the current path scores 0, as in the
//! tables; the score then holds for this path only, so each result carries the ply of the
//! oldest ancestor a repetition below it referred to. A result that refers to no ancestor
//! above its own node is the position's true value and goes into the table as proven; any
//! other is stored as heuristic only (graph-history interaction).

use crate::probe::Probe;
use crate::progress::{Observer, OnMove, Progress, Step, Tally};
use crate::shared::Shared;
use crate::tt::{hash, Bound, Tt, Update, NO_MOVE};
use mancala_rules::{byte_sum, Board, Child, Children, Next, Rules, MAX_MOVES};
use mancala_tables::TableError;
use std::sync::Arc;

/// A child the tables do not hold (in a node's array of its children's ranks).
const NOT_TABLED: u64 = u64::MAX;
/// A depth that never runs out.
pub const UNLIMITED: i32 = 1 << 24;
/// No repetition below.
const NO_REP: u32 = u32::MAX;
/// Nodes between looks at the clock and the other threads.
const POLL: u64 = 4096;
/// Enhanced transposition cutoffs are tried where an earlier visit took at least 2^(this-1)
/// nodes: elsewhere the extra probes cost more than the cutoffs they find.
const ETC_WORK: u8 = 10;
/// Nodes with at least this many seeds above the tables share their moves between threads
/// (see `busy`). Most of a proof lies within a few seeds of the tables, and that is where two
/// threads repeated each other: with marks from 10 seeds up, two threads expanded 30% more
/// nodes than one at one seed above the tables and 4% more at ten. From 2 up, paired: 6x4
/// over 20-seed tables 0.96 of the time of 6 (itself 0.92 of 10), 6x5 over 28-seed tables 0.85
/// of 10 (docs/performance.md). At 1 the marks cost what they save.
const DEFER_HEIGHT: i32 = 2;
/// Deepest path followed before giving up (far beyond any real game).
pub const MAX_PLY: u32 = 100_000;

/// A fail-soft bound: at least `v` if `v >= gamma`, else at most `v`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    pub v: i32,
    pub proven: bool,
    /// The ply of the oldest ancestor a repetition below referred to, or `NO_REP`.
    rep: u32,
}

impl Score {
    fn proven(v: i32) -> Score {
        Score {
            v,
            proven: true,
            rep: NO_REP,
        }
    }

    fn heuristic(v: i32) -> Score {
        Score {
            v,
            proven: false,
            rep: NO_REP,
        }
    }
}

/// Why a worker stopped early.
#[derive(Debug)]
pub enum Halt {
    Table(TableError),
    TooDeep,
    /// A search thread panicked (a bug); the others were stopped.
    Panicked,
}

/// Whether a task a worker is on should be abandoned. The root's task sets (`root`) answer
/// it; a worker only asks, which keeps this module free of the root's types.
pub trait Cancel: Send + Sync {
    /// Should the search of task `i` stop?
    fn cancelled(&self, i: usize) -> bool;
}

/// One search thread's state.
pub struct Worker<'a> {
    rules: &'a Rules,
    /// Positions with at most `probe.max` seeds are answered by the tables.
    probe: Option<&'a Probe<'a>>,
    tt: &'a Tt,
    shared: &'a Shared,
    pub id: usize,
    pub nodes: u64,
    /// Inner nodes: positions whose moves were generated and searched (a peer's "nodes").
    pub expanded: u64,
    unpublished: u64,
    cycles: bool,
    /// The positions from the root to the current node's parent, with their seed counts.
    path: Vec<(Board, u32)>,
    /// The task under way: abandoned once its set is finished or another thread did it.
    pub cancel: Option<(Arc<dyn Cancel>, usize)>,
    pub aborted: bool,
    pub halt: Option<Halt>,
    /// Periodic progress (thread 0 only) and the depth to report.
    observer: Option<&'a dyn Observer>,
    pub depth_shown: Option<u32>,
    last_report: f64,
    /// The root test under way, for progress reports (thread 0, which reports, runs them).
    pub step: Option<Arc<dyn Tally>>,
    /// The root move this thread is testing, and how far its search has come.
    pub on_move: Option<OnMove>,
}

impl<'a> Worker<'a> {
    pub fn new(
        rules: &'a Rules,
        probe: Option<&'a Probe<'a>>,
        tt: &'a Tt,
        shared: &'a Shared,
        id: usize,
        observer: Option<&'a dyn Observer>,
    ) -> Worker<'a> {
        Worker {
            rules,
            probe,
            tt,
            shared,
            id,
            nodes: 0,
            expanded: 0,
            unpublished: 0,
            cycles: rules.variant().family().has_cycles(),
            path: Vec::with_capacity(1024),
            cancel: None,
            aborted: false,
            halt: None,
            observer,
            depth_shown: None,
            last_report: 0.0,
            step: None,
            on_move: None,
        }
    }

    pub fn shared(&self) -> &'a Shared {
        self.shared
    }

    pub fn rules(&self) -> &'a Rules {
        self.rules
    }

    pub fn probe(&self) -> Option<&'a Probe<'a>> {
        self.probe
    }

    pub fn tt(&self) -> &'a Tt {
        self.tt
    }

    /// Publishes the node count and looks at the other threads and the clock.
    #[cold]
    fn poll(&mut self) {
        self.shared.add_nodes(self.unpublished);
        self.unpublished = 0;
        self.shared.check_time();
        if self.shared.stopped() {
            self.aborted = true;
        }
        if let Some((set, i)) = &self.cancel {
            if set.cancelled(*i) {
                self.aborted = true;
            }
        }
        if let Some(obs) = self.observer {
            let t = self.shared.seconds();
            if t - self.last_report >= 1.0 {
                self.report(obs, t);
            }
        }
    }

    fn report(&mut self, obs: &dyn Observer, t: f64) {
        self.last_report = t;
        let (lo, hi) = self.shared.bounds();
        obs.progress(&Progress {
            depth: self.depth_shown,
            lo,
            hi,
            nodes: self.shared.nodes() + self.unpublished,
            seconds: t,
            step: self.step.as_ref().map(|s| Step {
                on_move: self.on_move,
                ..s.tally()
            }),
        });
    }

    /// Reports now (after a finished test).
    pub fn report_now(&mut self) {
        self.shared.add_nodes(self.unpublished);
        self.unpublished = 0;
        if let Some(obs) = self.observer {
            let t = self.shared.seconds();
            self.report(obs, t);
        }
    }

    /// Publishes the nodes not yet counted in the shared total.
    pub fn flush(&mut self) {
        self.shared.add_nodes(self.unpublished);
        self.unpublished = 0;
    }

    fn stop_with(&mut self, h: Halt) -> Score {
        if self.halt.is_none() {
            self.halt = Some(h);
        }
        self.aborted = true;
        self.shared.stop();
        Score::heuristic(0)
    }

    /// Is the value of `b` at least `gamma`? `depth` plies before heuristic leaves (or
    /// [`UNLIMITED`]); `ply` is the distance from the root; `cut` says whether a cutoff is
    /// expected here (then one good move should do) or every move will need refuting.
    pub fn search(&mut self, b: Board, gamma: i32, depth: i32, ply: u32, cut: bool) -> Score {
        self.nodes += 1;
        self.unpublished += 1;
        if self.unpublished >= POLL {
            self.poll();
        }
        if self.aborted {
            return Score::heuristic(0);
        }
        let n = b.total() as i32;
        // Seed-count bounds: nobody gains more than the seeds left.
        if gamma > n {
            return Score::proven(n);
        }
        if gamma <= -n {
            return Score::proven(-n);
        }
        if let Some(p) = self.probe {
            match p.exact(b) {
                Ok(Some(v)) => return Score::proven(v as i32),
                Ok(None) => {}
                Err(e) => return self.stop_with(Halt::Table(e)),
            }
        }
        if self.cycles {
            for (q, &(p, s)) in self.path.iter().enumerate().rev() {
                if s != n as u32 {
                    break;
                }
                if p == b {
                    return Score {
                        v: 0,
                        proven: true,
                        rep: q as u32,
                    };
                }
            }
        }
        let h = hash(b);
        // Start loading the table entry; the work below hides the wait.
        self.tt.prefetch(h);
        // Moves are generated in place (a move list is a few hundred bytes, worth not copying).
        let mut kids = Children::new();
        if self.cycles {
            // Awari type: only move generation knows whether the game is over.
            if let Some((mover, opp)) = self.rules.moves_into(b, &mut kids) {
                return Score::proven(mover as i32 - opp as i32);
            }
        } else {
            // Kalah type: over exactly when a row is empty, and each side keeps its row.
            let m = self.rules.pits();
            let (own, opp) = (byte_sum(b.own(m)), byte_sum(b.opp(m)));
            if own == 0 || opp == 0 {
                return Score::proven(own as i32 - opp as i32);
            }
            // The moves are generated before the table entry is read, although a cutoff there
            // makes them useless: the entry's load (started above, usually a cache miss) then
            // completes behind the generation instead of stalling the probe. 6x4 over 20-seed
            // tables: 0.94 of the time on one thread, 0.97 on two, the same nodes. A leaf of a
            // depth-limited search only reads its entry, so it needs none.
            if depth > 0 {
                self.rules.moves_into(b, &mut kids);
            }
        }
        if ply >= MAX_PLY {
            return self.stop_with(Halt::TooDeep);
        }
        // The loads the expansion will wait for are started before the entry is read, so that
        // its miss and theirs overlap instead of following each other (a cutoff by the entry
        // wastes this work): each child inside the tables is ranked and its value's load
        // started, each other child hashed (once: for the cutoffs and the busy marks too) and
        // its entry's load started. 6x4 over 20-seed tables, one thread: 0.95 for the first,
        // 0.94 for the second, the same nodes. Not at a depth-limited leaf, which expands
        // nothing.
        let mut ranks = [NOT_TABLED; MAX_MOVES];
        let mut hashes = [h; MAX_MOVES];
        if depth > 0 {
            for (i, c) in kids.as_slice().iter().enumerate() {
                if c.next == Next::Over {
                    continue;
                }
                let nc = c.board.total();
                let tabled = self.probe.filter(|p| nc <= p.max);
                if let Some(r) = tabled.and_then(|p| p.locate(c.board, nc)) {
                    ranks[i] = r;
                } else {
                    let ch = hash(c.board);
                    self.tt.prefetch(ch);
                    hashes[i] = ch;
                }
            }
        }
        let (mut lo, mut hi, mut tt_move, mut work) = (-n, n, NO_MOVE, 0);
        if let Some(e) = self.tt.probe(h, n as u32) {
            lo = lo.max(e.lo);
            hi = hi.min(e.hi);
            if lo >= gamma {
                return Score::proven(lo);
            }
            if hi < gamma {
                return Score::proven(hi);
            }
            if let Some((bound, v, d)) = e.heuristic {
                if d as i32 >= depth {
                    match bound {
                        Bound::Lower if v >= gamma => return Score::heuristic(v),
                        Bound::Upper if v < gamma => return Score::heuristic(v),
                        _ => {}
                    }
                }
            }
            tt_move = e.mv;
            work = e.work;
        }
        if depth <= 0 {
            return Score::heuristic(0.max(lo).min(hi));
        }
        let etc = work >= ETC_WORK;
        self.expand(
            b,
            h,
            n,
            kids.as_slice(),
            gamma,
            (depth, ply, cut),
            (lo, hi),
            tt_move,
            etc,
            &ranks,
            &hashes,
        )
    }

    /// Searches the moves of an inner node and records the result.
    ///
    /// One long function on purpose: it is the hot path, and its stages (order the moves,
    /// read the table children, try transposition cutoffs, search with the threads' busy
    /// marks, record) share the node's fixed-size arrays on the stack; each stage is a
    /// commented block.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn expand(
        &mut self,
        b: Board,
        h: crate::tt::Hash,
        n: i32,
        kids: &[Child],
        gamma: i32,
        (depth, ply, cut): (i32, u32, bool),
        (lo, hi): (i32, i32),
        tt_move: u8,
        etc: bool,
        ranks: &[u64; MAX_MOVES],
        hashes: &[crate::tt::Hash; MAX_MOVES],
    ) -> Score {
        let start = self.nodes;
        self.expanded += 1;
        let mut order = [0u8; MAX_MOVES];
        let mut keys = [0i32; MAX_MOVES];
        let mut count = 0;
        let mut tabled = [(0u8, 0u64); MAX_MOVES];
        let mut tabled_count = 0;
        let mut best = i32::MIN;
        let m = self.rules.pits();
        for (i, c) in kids.iter().enumerate() {
            let g = c.gain as i32 - c.opp_gain as i32;
            if c.next == Next::Over {
                // A move that ends the game has an exact value: no search needed.
                if g >= gamma {
                    return self.finish(h, n, gamma, Score::proven(g), c.pit, ply, depth, start);
                }
                best = best.max(g);
                continue;
            }
            // Seed-count bounds on the move, before any search.
            let nc = c.board.total();
            if g - nc as i32 >= gamma {
                let s = Score::proven(g - nc as i32);
                return self.finish(h, n, gamma, s, c.pit, ply, depth, start);
            }
            if g + (nc as i32) < gamma {
                best = best.max(g + nc as i32);
                continue;
            }
            // A child inside the tables (ranked before the entry was read) is read below.
            if ranks[i] != NOT_TABLED {
                tabled[tabled_count] = (i as u8, ranks[i]);
                tabled_count += 1;
                continue;
            }
            let key = crate::order::key(c, tt_move, b.get(c.pit as usize), m);
            let mut j = count;
            while j > 0 && keys[j - 1] < key {
                keys[j] = keys[j - 1];
                order[j] = order[j - 1];
                j -= 1;
            }
            keys[j] = key;
            order[j] = i as u8;
            count += 1;
        }
        // Children inside the tables are exact: read them (their loads are already under way)
        // before searching anything.
        if let Some(p) = self.probe {
            for &(i, r) in &tabled[..tabled_count] {
                let c = &kids[i as usize];
                self.nodes += 1;
                self.unpublished += 1;
                let w = match p.value(c.board, c.board.total(), r) {
                    Ok(w) => w as i32,
                    Err(e) => return self.stop_with(Halt::Table(e)),
                };
                let v = c.value(w);
                if v >= gamma {
                    return self.finish(h, n, gamma, Score::proven(v), c.pit, ply, depth, start);
                }
                best = best.max(v);
            }
        }
        // Enhanced transposition cutoffs, where an earlier visit showed the subtree is big: a
        // child already proven good enough settles the node before any move is searched.
        if etc {
            for &i in &order[..count] {
                let c = &kids[i as usize];
                if let Some(e) = self.tt.probe(hashes[i as usize], c.board.total()) {
                    let g = c.gain as i32 - c.opp_gain as i32;
                    let v = match c.next {
                        Next::Opponent => g - e.hi,
                        _ => g + e.lo,
                    };
                    if v >= gamma {
                        let s = Score::proven(v);
                        return self.finish(h, n, gamma, s, c.pit, ply, depth, start);
                    }
                }
            }
        }
        if self.cycles {
            self.path.push((b, n as u32));
        }
        // Two threads share out a big node's moves through the busy marks; below that size
        // (or on one thread) the marks are not worth their cost.
        let height = n - self.probe.map_or(0, |p| p.max as i32);
        let busy = self.shared.busy.as_ref().filter(|_| height >= DEFER_HEIGHT);
        // Every move of an expected all-node needs refuting, so a second thread on a small
        // subtree takes them in the opposite order: the two meet in the middle through the
        // table instead of repeating each other.
        if busy.is_none() && !cut && self.id % 2 == 1 {
            order[..count].reverse();
        }
        let mut proven = true;
        let mut rep = NO_REP;
        let mut deferred = [0u8; MAX_MOVES];
        let mut deferred_count = 0;
        // A root task's first node: its moves to search, for progress reports.
        if ply == 0 {
            if let Some(on) = &mut self.on_move {
                (on.searched, on.of) = (0, count as u8);
            }
        }
        for pass in 0..2 {
            let (list, len) = if pass == 0 {
                (order, count)
            } else {
                (deferred, deferred_count)
            };
            for (k, &i) in list[..len].iter().enumerate() {
                let c = &kids[i as usize];
                let first = pass == 0 && k == 0;
                let key = hashes[i as usize].key;
                if let Some(bz) = busy {
                    if pass == 0 && !first && bz.marked(key) {
                        deferred[deferred_count] = i;
                        deferred_count += 1;
                        continue;
                    }
                    bz.enter(key);
                }
                let g = c.gain as i32 - c.opp_gain as i32;
                // The first move of a cut node is expected to succeed, every other move to
                // fail. After a pass the child is the opponent, so success means it fails low
                // (an all-node); after an extra move it is the same side, so success means a
                // cutoff.
                let success = cut && first;
                let child_cut = if c.next == Next::Opponent {
                    !success
                } else {
                    success
                };
                let (r, v) = match c.next {
                    Next::Opponent => {
                        let r = self.search(c.board, g - gamma + 1, depth - 1, ply + 1, child_cut);
                        (r, g - r.v)
                    }
                    _ => {
                        let r = self.search(c.board, gamma - g, depth - 1, ply + 1, child_cut);
                        (r, g + r.v)
                    }
                };
                if let Some(bz) = busy {
                    bz.leave(key);
                }
                if self.aborted {
                    if self.cycles {
                        self.path.pop();
                    }
                    return Score::heuristic(0);
                }
                if ply == 0 {
                    if let Some(on) = &mut self.on_move {
                        on.searched += 1;
                    }
                }
                if v >= gamma {
                    if self.cycles {
                        self.path.pop();
                    }
                    let s = Score {
                        v,
                        proven: r.proven,
                        rep: r.rep,
                    };
                    return self.finish(h, n, gamma, s, c.pit, ply, depth, start);
                }
                best = best.max(v);
                proven &= r.proven;
                rep = rep.min(r.rep);
            }
        }
        if self.cycles {
            self.path.pop();
        }
        let s = Score {
            // Both ends are true bounds; max then min cannot panic on a damaged entry.
            v: best.max(lo).min(hi),
            proven,
            rep,
        };
        self.finish(h, n, gamma, s, NO_MOVE, ply, depth, start)
    }

    /// Stores a node's result and returns it.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn finish(
        &mut self,
        h: crate::tt::Hash,
        n: i32,
        gamma: i32,
        s: Score,
        mv: u8,
        ply: u32,
        depth: i32,
        start: u64,
    ) -> Score {
        let bound = if s.v >= gamma {
            Bound::Lower
        } else {
            Bound::Upper
        };
        let done = self.nodes - start;
        let work = (64 - done.leading_zeros()) as u8;
        let independent = s.rep == NO_REP || s.rep >= ply;
        let u = if s.proven && independent {
            Update {
                proven: Some((bound, s.v)),
                heuristic: None,
                mv,
                work,
            }
        } else {
            Update {
                proven: None,
                heuristic: Some((bound, s.v, depth.clamp(0, 255) as u8)),
                mv,
                work,
            }
        };
        self.tt.store(h, n as u32, u);
        s
    }
}
