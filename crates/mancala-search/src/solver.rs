//! The public entry point: exact values, best moves, principal variations, move values and
//! fixed-depth runs, all sharing one transposition table across calls.

use crate::driver::{run, Goal, Run, Setup};
use crate::node::Halt;
use crate::probe::Probe;
use crate::progress::Observer;
use crate::reach::{self, Reach};
use crate::root::MoveValue;
use crate::tt::Tt;
use crate::SearchError;
use mancala_rules::{Board, Child, Next, Node, Rules};
use mancala_tables::Tables;
use std::sync::Arc;
use std::time::Instant;

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Transposition table size in MiB (rounded down to a power of two).
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Depth-limited iterations (for move ordering) before the unlimited proof search.
    pub id_depth: u32,
    /// Stop after this many seconds and report the bounds proven so far.
    pub time_limit: Option<f64>,
    /// Awari-type games: solve the positions reachable above the tables backwards when there
    /// are at most this many (see `reach`); beyond, search depth-first.
    pub reach_limit: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 64,
            threads: 1,
            id_depth: 16,
            time_limit: None,
            reach_limit: 32_000_000,
        }
    }
}

/// The answer for one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// Net future gain of the side to move under perfect play; `None` if the time limit came
    /// first.
    pub value: Option<i32>,
    /// Proven lower bound on the value (equal to it when it is known).
    pub lo: i32,
    /// Proven upper bound on the value (equal to it when it is known).
    pub hi: i32,
    /// Every move that achieves `value`, in pit order, each proven.
    pub best: Vec<usize>,
    /// Every legal move's proven interval, in pit order (empty when the game is over). With
    /// the value known, each best move is exact and every other move's upper bound is below
    /// the value; a solve proves no more than that.
    pub moves: Vec<MoveValue>,
    /// A principal variation: each move achieves the value of the position it is played in.
    /// It ends when the game ends, a position repeats (Awari-type endless play), or after
    /// [`PV_LIMIT`] moves.
    pub pv: Vec<usize>,
    /// Positions visited (search nodes, and positions solved backwards).
    pub nodes: u64,
    /// The inner nodes among them: positions whose moves were searched. The rest were
    /// answered on sight (tables, finished games, seed counts, the transposition table).
    /// Other solvers (girving/kalah among them) count only these; a backward solution has
    /// none.
    pub expanded: u64,
    /// Wall-clock time of the search.
    pub seconds: f64,
}

impl Solution {
    /// The moves proven to be worth at least `threshold`, in pit order.
    pub fn moves_reaching(&self, threshold: i32) -> Vec<usize> {
        self.moves
            .iter()
            .filter(|m| m.lo >= threshold)
            .map(|m| m.pit)
            .collect()
    }

    /// The answer to "is the value at least `threshold`?" that the proven bounds give: yes,
    /// no, or `None` while the bounds straddle it (a search stopped early).
    pub fn answers(&self, threshold: i32) -> Option<bool> {
        if self.lo >= threshold {
            Some(true)
        } else if self.hi < threshold {
            Some(false)
        } else {
            None
        }
    }
}

/// The longest principal variation reported.
pub const PV_LIMIT: usize = 400;

/// An exact searcher over one rule set, optionally probing its tables.
pub struct Solver<'a> {
    rules: &'a Rules,
    probe: Option<Probe<'a>>,
    opts: Options,
    memory: Memory,
    /// The size of the transposition table to allocate (the search's need, within
    /// `opts.hash_mb`).
    tt_mb: usize,
    interrupt: Option<crate::Interrupt>,
}

/// What a searcher learns that later searches of the same rule set and tables reuse: its
/// transposition table and its last backward solution. Carry it from one [`Solver`] to the
/// next with [`Solver::with_memory`] and [`Solver::into_memory`] (a game in progress asks
/// the same question of position after position).
#[derive(Default)]
pub struct Memory {
    /// The rule set whose positions it holds: values are those of one rule set (the same
    /// board is worth another value under other rules, or with more seeds in the game), so
    /// a memory handed to a solver of other rules is dropped, never read.
    variant: Option<mancala_rules::Variant>,
    /// Allocated on first use: answers from the tables or a backward solution need none.
    tt: std::sync::OnceLock<Arc<Tt>>,
    /// The table was given (kept in a file, see [`crate::TableFile`]): every search uses it
    /// as it is, never a table of the size the search would pick.
    pinned: bool,
    /// The last backward solution: it holds every position reachable from its root, so the
    /// positions of a game in progress are answered from it without a new one.
    last_reach: std::sync::Mutex<Option<std::sync::Arc<Reach>>>,
}

impl Memory {
    /// A memory holding `tt` for every search of `variant`.
    pub(crate) fn holding(variant: mancala_rules::Variant, tt: Arc<Tt>) -> Memory {
        Memory {
            variant: Some(variant),
            tt: std::sync::OnceLock::from(tt),
            pinned: true,
            last_reach: Default::default(),
        }
    }
}

impl<'a> Solver<'a> {
    /// `tables` are probed for every position whose seed count lies in their complete range
    /// (tiers `0..=k` all present).
    pub fn new(
        rules: &'a Rules,
        tables: Option<&'a Tables>,
        opts: Options,
    ) -> Result<Solver<'a>, SearchError> {
        Solver::with_memory(rules, tables, opts, Memory::default())
    }

    /// [`Solver::new`], reusing what an earlier solver of the same rules, tables and hash
    /// size learned.
    pub fn with_memory(
        rules: &'a Rules,
        tables: Option<&'a Tables>,
        opts: Options,
        memory: Memory,
    ) -> Result<Solver<'a>, SearchError> {
        if opts.threads == 0 {
            return Err(SearchError::NoThreads);
        }
        if opts.hash_mb == 0 {
            return Err(SearchError::NoHash);
        }
        let probe = tables.and_then(|t| t.complete_up_to().and_then(|k| Probe::new(t, k)));
        let mut memory = memory;
        if memory.variant.is_some_and(|v| v != *rules.variant()) {
            memory = Memory::default();
        }
        memory.variant = Some(*rules.variant());
        Ok(Solver {
            rules,
            probe,
            opts,
            memory,
            tt_mb: opts.hash_mb,
            interrupt: None,
        })
    }

    /// Stops every search of this solver once `interrupt` is raised (from another thread), as
    /// if its time had run out.
    pub fn set_interrupt(&mut self, interrupt: Option<crate::Interrupt>) {
        self.interrupt = interrupt;
    }

    /// What this solver learned, for the next one.
    pub fn into_memory(self) -> Memory {
        self.memory
    }

    /// The size of the transposition table in MiB, once a search has allocated it.
    pub fn table_mb(&self) -> Option<usize> {
        self.memory.tt.get().map(|t| t.mb())
    }

    /// The largest seed count answered from the tables, if any.
    pub fn tables_up_to(&self) -> Option<usize> {
        self.probe.as_ref().map(|p| p.max as usize)
    }

    /// The last backward solution, if any.
    fn last_reach(&self) -> Option<std::sync::Arc<Reach>> {
        let last = self.memory.last_reach.lock();
        last.unwrap_or_else(|p| p.into_inner()).clone()
    }

    fn tt(&self) -> Result<&Tt, SearchError> {
        let tt = &self.memory.tt;
        if tt.get().is_none() {
            let _ = tt.set(Arc::new(Tt::new(self.tt_mb)?));
        }
        Ok(tt.get().expect("just set"))
    }

    /// The transposition table for a search from `b`, sized to it (see [`table_mb`]). A table
    /// kept from an earlier search is reused when it is big enough, and replaced (forgetting
    /// what it held) when this search needs a bigger one.
    fn fit_tt(&mut self, b: Board) -> Result<&Tt, SearchError> {
        if self.memory.pinned {
            return self.tt();
        }
        let above = b
            .total()
            .saturating_sub(self.tables_up_to().map_or(0, |k| k as u32));
        let mb = table_mb(above).min(self.opts.hash_mb).max(1);
        // Rounded down to a power of two, as the table is, so that a table of the size
        // asked for is always big enough.
        self.tt_mb = 1 << mb.ilog2();
        if self.memory.tt.get().is_some_and(|t| t.mb() < self.tt_mb) {
            self.memory.tt = std::sync::OnceLock::new();
        }
        self.tt()
    }

    /// The rule set searched.
    pub fn rules(&self) -> &Rules {
        self.rules
    }

    fn setup(&self, deadline: Option<Instant>) -> Result<Setup<'_>, SearchError> {
        Ok(Setup {
            rules: self.rules,
            probe: self.probe.as_ref(),
            tt: self.tt()?,
            threads: self.opts.threads,
            id_depth: self.opts.id_depth,
            seconds_left: deadline
                .map(|d| d.saturating_duration_since(Instant::now()).as_secs_f64()),
            interrupt: self.interrupt.as_ref(),
        })
    }

    fn run(
        &self,
        b: Board,
        goal: Goal,
        obs: &dyn Observer,
        deadline: Option<Instant>,
    ) -> Result<Run, SearchError> {
        run(self.setup(deadline)?, b, goal, obs).map_err(|h| match h {
            Halt::Table(e) => SearchError::Table(e),
            Halt::TooDeep => SearchError::TooDeep(crate::node::MAX_PLY),
            Halt::Panicked => SearchError::Internal("a search thread panicked"),
        })
    }

    fn deadline(&self) -> Option<Instant> {
        self.opts.time_limit.and_then(|t| {
            // A limit too far off to reach (or not a number) is no limit.
            let d = std::time::Duration::try_from_secs_f64(t.max(0.0)).ok()?;
            Instant::now().checked_add(d)
        })
    }

    /// Awari-type positions: every position reachable above the tables, solved backwards, if
    /// there are not too many.
    fn reach(
        &self,
        b: Board,
        deadline: Option<Instant>,
    ) -> Result<Option<(std::sync::Arc<Reach>, u64)>, SearchError> {
        if !self.rules.variant().family().has_cycles() {
            return Ok(None);
        }
        let last = self.last_reach();
        if let Some(r) = last.filter(|r| r.value(b).is_some()) {
            return Ok(Some((r, 0)));
        }
        let above = self.probe.as_ref().map_or(0, |p| p.max as usize + 1);
        if !reach_may_fit(self.rules, above, b.total() as usize, self.opts.reach_limit) {
            return Ok(None);
        }
        let r = reach::solve(
            self.rules,
            self.probe.as_ref(),
            b,
            self.opts.reach_limit,
            deadline,
            self.interrupt.as_ref(),
        )?
        .map(std::sync::Arc::new);
        if let Some(r) = &r {
            *self
                .memory
                .last_reach
                .lock()
                .unwrap_or_else(|p| p.into_inner()) = Some(r.clone());
        }
        Ok(r.map(|r| {
            let k = r.nodes;
            (r, k)
        }))
    }

    /// How to go after an exact value once no backward solution is at hand. In Awari-type
    /// games a depth-first proof cannot cope with the cycles (its paths grow as wide as the
    /// tier), so only depth-limited iterations run, for proven bounds, and only against a
    /// time limit, or once the search was interrupted (the backward solution stops when it is,
    /// and the bounds of the iterations, however few, are the answer then).
    fn exact_goal(&self, classify: bool) -> Result<Goal, SearchError> {
        if !self.rules.variant().family().has_cycles() {
            return Ok(Goal::Exact { classify });
        }
        let interrupted = self.interrupt.as_ref().is_some_and(|i| i.is_raised());
        if self.opts.time_limit.is_some() || interrupted {
            Ok(Goal::Deepen)
        } else {
            Err(SearchError::TooBig {
                limit: self.opts.reach_limit,
            })
        }
    }

    /// The exact value of a position `reach` or the tables answer.
    fn known(&self, reach: &Reach, b: Board) -> Result<Option<i32>, SearchError> {
        if let Some(v) = reach.value(b) {
            return Ok(Some(v));
        }
        match &self.probe {
            Some(p) => Ok(p.exact(b)?.map(i32::from)),
            None => Ok(None),
        }
    }

    /// Each move of `b` with its exact value, from a backward solution.
    fn reach_moves(&self, reach: &Reach, b: Board) -> Result<Vec<(Child, i32)>, SearchError> {
        let mut out = Vec::new();
        if let Node::Moves(kids) = self.rules.node(b) {
            for c in &kids {
                let w = match c.next {
                    Next::Over => 0,
                    _ => match self.known(reach, c.board)? {
                        Some(w) => w,
                        // Every child was enumerated or is in the tables.
                        None => return Err(SearchError::Internal("a child was not solved")),
                    },
                };
                out.push((*c, c.value(w)));
            }
        }
        Ok(out)
    }

    /// The exact value of `b` and the nodes it took.
    pub fn value(&mut self, b: Board, obs: &dyn Observer) -> Result<(i32, u64), SearchError> {
        self.value_by(b, obs, self.deadline())
    }

    /// [`Solver::value`] within `deadline`: the questions of one answer share one deadline,
    /// so that the time limit bounds the whole answer, not each of its parts.
    fn value_by(
        &mut self,
        b: Board,
        obs: &dyn Observer,
        deadline: Option<Instant>,
    ) -> Result<(i32, u64), SearchError> {
        if let Some((r, k)) = self.reach(b, deadline)? {
            let v = self.known(&r, b)?.unwrap_or(0);
            return Ok((v, k));
        }
        self.fit_tt(b)?.new_search();
        let r = self.run(b, self.exact_goal(false)?, obs, deadline)?;
        if r.lo < r.hi {
            return Err(SearchError::OutOfTime { lo: r.lo, hi: r.hi });
        }
        Ok((r.lo, r.nodes))
    }

    /// The value, every best move, every move's proven interval and a principal variation
    /// of `b`.
    pub fn solve(&mut self, b: Board, obs: &dyn Observer) -> Result<Solution, SearchError> {
        self.solve_with(b, obs, true, self.deadline())
    }

    /// [`Solver::solve`] without the principal variation, whose later moves each cost a
    /// search of their own: what a question about `b` and its moves needs.
    pub fn solve_moves(&mut self, b: Board, obs: &dyn Observer) -> Result<Solution, SearchError> {
        self.solve_with(b, obs, false, self.deadline())
    }

    /// Every move's exact value, as [`Solver::move_values`] gives them, for a game without
    /// cycles: the position's value first (a solve: its best moves exact, the others proven
    /// below it), then each other move's own search, all within one deadline. Cut short once
    /// the value is proven, it returns the value with the moves proven so far exact and the
    /// others bounded, rather than nothing: a question with a time limit keeps what it
    /// proved. Cut short before, the solution's bounds are the position's (`value` `None`).
    pub fn exact_moves(&mut self, b: Board, obs: &dyn Observer) -> Result<Solution, SearchError> {
        let deadline = self.deadline();
        let mut s = self.solve_with(b, obs, false, deadline)?;
        let (Some(value), Node::Moves(kids)) = (s.value, self.rules.node(b)) else {
            return Ok(s);
        };
        let open: Vec<usize> = (0..s.moves.len())
            .filter(|&i| s.moves[i].lo < s.moves[i].hi)
            .collect();
        for i in open {
            let Some(c) = kids.iter().find(|c| c.pit as usize == s.moves[i].pit) else {
                continue;
            };
            let (lo, hi) = match c.next {
                Next::Over => (c.value(0), c.value(0)),
                _ => match self.value_by(c.board, obs, deadline) {
                    Ok((w, k)) => {
                        s.nodes += k;
                        (c.value(w), c.value(w))
                    }
                    Err(SearchError::OutOfTime { lo, hi }) => move_bounds(c, lo, hi),
                    Err(e) => return Err(e),
                },
            };
            let m = &mut s.moves[i];
            (m.lo, m.hi) = (m.lo.max(lo), m.hi.min(hi));
            if m.lo < m.hi {
                break;
            }
        }
        s.best = s
            .moves
            .iter()
            .filter(|m| m.lo == value && m.hi == value)
            .map(|m| m.pit)
            .collect();
        Ok(s)
    }

    /// Whether the value of `b` is at least `threshold`: one null-window question, cheaper
    /// than the exact value (which needs a proof on each side of it). The answer is in the
    /// bounds: `lo >= threshold` (yes, `best` lists the moves proven to reach it) or `hi <
    /// threshold` (no), or neither if the time limit came first. A game with cycles whose
    /// positions above the tables are solved backwards answers with the exact value.
    pub fn at_least(
        &mut self,
        b: Board,
        threshold: i32,
        obs: &dyn Observer,
    ) -> Result<Solution, SearchError> {
        if self.rules.variant().family().has_cycles() {
            let s = self.solve_with(b, obs, false, self.deadline())?;
            return Ok(Solution {
                best: s.moves_reaching(threshold),
                ..s
            });
        }
        let started = Instant::now();
        let deadline = self.deadline();
        self.fit_tt(b)?.new_search();
        let goal = Goal::AtLeast {
            threshold,
            deepen: true,
        };
        let r = self.run(b, goal, obs, deadline)?;
        Ok(Solution {
            value: (r.lo == r.hi).then_some(r.lo),
            lo: r.lo,
            hi: r.hi,
            best: if r.lo >= threshold {
                r.best
            } else {
                Vec::new()
            },
            moves: r.moves,
            pv: Vec::new(),
            nodes: r.nodes,
            expanded: r.expanded,
            seconds: started.elapsed().as_secs_f64(),
        })
    }

    fn solve_with(
        &mut self,
        b: Board,
        obs: &dyn Observer,
        line: bool,
        deadline: Option<Instant>,
    ) -> Result<Solution, SearchError> {
        let started = Instant::now();
        if let Some((r, k)) = self.reach(b, deadline)? {
            return self.solve_by_reach(&r, b, started, k);
        }
        self.fit_tt(b)?.new_search();
        let r = self.run(b, self.exact_goal(true)?, obs, deadline)?;
        let mut s = Solution {
            value: None,
            lo: r.lo,
            hi: r.hi,
            best: Vec::new(),
            moves: r.moves,
            pv: Vec::new(),
            nodes: r.nodes,
            expanded: r.expanded,
            seconds: 0.0,
        };
        // A search that proved bounds without a move list (a game with cycles searched
        // beyond --reach-limit) still lists every legal move, with what is known of it: an
        // empty list reads as "the game is over".
        if s.moves.is_empty() {
            s.moves = self.unproven_moves(b, r.hi);
        }
        if r.lo == r.hi {
            s.value = Some(r.lo);
            s.best = r.best;
            if line {
                let (pv, k, e) = self.pv(b, r.lo, s.best.first().copied(), deadline)?;
                s.pv = pv;
                s.nodes += k;
                s.expanded += e;
            }
        }
        s.seconds = started.elapsed().as_secs_f64();
        Ok(s)
    }

    /// Every legal move of `b` with the bounds its position's seeds allow, none above `hi`
    /// (the position's upper bound, which no move exceeds).
    fn unproven_moves(&self, b: Board, hi: i32) -> Vec<MoveValue> {
        let Node::Moves(kids) = self.rules.node(b) else {
            return Vec::new();
        };
        let mut moves: Vec<MoveValue> = kids
            .iter()
            .map(|c| {
                let (lo, h) = seed_bounds(c);
                MoveValue {
                    pit: c.pit as usize,
                    lo: lo.min(hi),
                    hi: h.min(hi),
                }
            })
            .collect();
        moves.sort_by_key(|m| m.pit);
        moves
    }

    fn solve_by_reach(
        &self,
        reach: &Reach,
        root: Board,
        started: Instant,
        nodes: u64,
    ) -> Result<Solution, SearchError> {
        let value = self.known(reach, root)?.unwrap_or(0);
        let mut moves: Vec<MoveValue> = self
            .reach_moves(reach, root)?
            .iter()
            .map(|m| MoveValue::exact(m.0.pit as usize, m.1))
            .collect();
        moves.sort_by_key(|m| m.pit);
        let best: Vec<usize> = moves
            .iter()
            .filter(|m| m.lo == value)
            .map(|m| m.pit)
            .collect();
        let mut pv = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let (mut b, mut v) = (root, value);
        while pv.len() < PV_LIMIT && seen.insert(b) {
            let Some((c, _)) = self.reach_moves(reach, b)?.into_iter().find(|m| m.1 == v) else {
                break;
            };
            pv.push(c.pit as usize);
            if c.next == Next::Over {
                break;
            }
            b = c.board;
            v = self.known(reach, b)?.unwrap_or(0);
        }
        Ok(Solution {
            value: Some(value),
            lo: value,
            hi: value,
            best,
            moves,
            pv,
            nodes,
            expanded: 0,
            seconds: started.elapsed().as_secs_f64(),
        })
    }
    /// Follows moves that achieve the value from `b`, whose value is `v`; the first move is
    /// `first` if known. Returns the line, and the nodes and inner nodes it took.
    fn pv(
        &self,
        b: Board,
        v: i32,
        first: Option<usize>,
        deadline: Option<Instant>,
    ) -> Result<(Vec<usize>, u64, u64), SearchError> {
        let mut pv = Vec::new();
        let (mut nodes, mut expanded) = (0, 0);
        let (mut b, mut v) = (b, v);
        let mut seen = std::collections::HashSet::new();
        while pv.len() < PV_LIMIT && seen.insert(b) {
            let Node::Moves(kids) = self.rules.node(b) else {
                break;
            };
            let pit = match first.filter(|_| pv.is_empty()) {
                Some(p) => p,
                None => {
                    let goal = Goal::AtLeast {
                        threshold: v,
                        deepen: false,
                    };
                    let r = self.run(b, goal, &(), deadline)?;
                    nodes += r.nodes;
                    expanded += r.expanded;
                    match r.best.first() {
                        Some(&p) => p,
                        // Cannot happen for an exact value; stop rather than report a wrong line.
                        None => break,
                    }
                }
            };
            let Some(c) = kids.iter().find(|c| c.pit as usize == pit).copied() else {
                break;
            };
            pv.push(pit);
            let g = c.gain as i32 - c.opp_gain as i32;
            match c.next {
                Next::Over => break,
                Next::Opponent => v = g - v,
                Next::Mover => v -= g,
            }
            b = c.board;
        }
        Ok((pv, nodes, expanded))
    }

    /// The exact value of every legal move of `b`, in pit order (empty if the game is over).
    ///
    /// A time limit or an interrupt that comes first ends it with [`SearchError::OutOfTime`]
    /// carrying the bounds proven on the value of `b` itself, as [`Solver::solve`] gives them:
    /// the moves searched so far, the move under way and the moves not yet reached (bounded by
    /// their seeds) together. The bounds of the move under way alone would be another
    /// position's, seen from its own side to move.
    pub fn move_values(
        &mut self,
        b: Board,
        obs: &dyn Observer,
    ) -> Result<Vec<(usize, i32)>, SearchError> {
        // One deadline for every move's search: the limit is the answer's.
        let deadline = self.deadline();
        if let Some((r, _)) = self.reach(b, deadline)? {
            let moves = self.reach_moves(&r, b)?;
            return Ok(moves.iter().map(|m| (m.0.pit as usize, m.1)).collect());
        }
        let mut out = Vec::new();
        if let Node::Moves(kids) = self.rules.node(b) {
            for (i, c) in kids.iter().enumerate() {
                let w = match c.next {
                    Next::Over => 0,
                    _ => match self.value_by(c.board, obs, deadline) {
                        Ok((w, _)) => w,
                        Err(SearchError::OutOfTime { lo, hi }) => {
                            let rest = kids.iter().skip(i + 1).map(seed_bounds);
                            let done = out.iter().map(|&(_, v)| (v, v));
                            let bounds = done.chain([move_bounds(c, lo, hi)]).chain(rest);
                            let (lo, hi) = bounds
                                .reduce(|(l, h), (a, b)| (l.max(a), h.max(b)))
                                .expect("the move under way");
                            return Err(SearchError::OutOfTime { lo, hi });
                        }
                        Err(e) => return Err(e),
                    },
                };
                out.push((c.pit as usize, c.value(w)));
            }
        }
        Ok(out)
    }

    /// A reproducible fixed-depth run on one thread with a fresh table: the heuristic value at
    /// `depth` plies and the nodes it took. A kept table ([`crate::TableFile`]) is let go for
    /// it: a benchmark must not start from what earlier runs stored.
    pub fn fixed_depth(&mut self, b: Board, depth: u32) -> Result<(i32, u64), SearchError> {
        self.memory.tt = std::sync::OnceLock::new();
        self.memory.pinned = false;
        self.tt_mb = self.opts.hash_mb;
        let r = self.run(b, Goal::Depth(depth), &(), None)?;
        Ok((if r.lo == r.hi { r.lo } else { r.guess }, r.nodes))
    }
}

/// The bounds on the value of move `c` for its mover, given bounds `lo..=hi` on the value
/// of the position it leads to for whoever moves there (the turn passing reverses them).
fn move_bounds(c: &Child, lo: i32, hi: i32) -> (i32, i32) {
    let (a, b) = (c.value(lo), c.value(hi));
    (a.min(b), a.max(b))
}

/// The bounds on the value of move `c` that the seeds left on its board allow (whoever moves
/// there gains at most all of them, loses at most all of them).
fn seed_bounds(c: &Child) -> (i32, i32) {
    let n = c.board.total() as i32;
    move_bounds(c, -n, n)
}

/// The transposition table, in MiB, that a search `above` seeds above the tables (or above
/// an empty board without them) needs: 16 MiB up to 16 seeds, doubling every two seeds after.
///
/// Zeroing fresh memory is not free (256 MiB took 0.2 to 0.3 s here, longer than most
/// questions about a Kalah 6x4 position over 28-seed tables), and such a search does not need
/// it: the 42 positions within two moves of the 6x4 start, 16 to 20 seeds above those tables,
/// took 94.9 M nodes with 16 MiB against 93.9 M with 256 MiB (docs/performance.md).
fn table_mb(above: u32) -> usize {
    16 << (above.saturating_sub(16) / 2).min(20)
}

/// Whether the positions reachable from a root with `n` seeds above tiers `..from` may number
/// at most `limit`. They are indexed positions of tiers `from..=n` (the root aside), so when
/// those tiers together hold many times the limit the enumeration is not tried: it would only
/// find out after minutes and gigabytes.
fn reach_may_fit(rules: &Rules, from: usize, n: usize, limit: usize) -> bool {
    const SLACK: u64 = 8;
    let Ok(ix) = mancala_index::Indexer::new(rules, n) else {
        return false;
    };
    let above: u64 = (from..=n).map(|k| ix.size(k)).sum();
    above <= SLACK * limit as u64
}

#[cfg(test)]
mod tests {
    use super::table_mb;

    #[test]
    fn the_table_grows_with_the_height_above_the_tables() {
        assert_eq!(table_mb(0), 16);
        assert_eq!(table_mb(17), 16);
        assert_eq!(table_mb(18), 32);
        assert_eq!(table_mb(20), 64);
        assert_eq!(table_mb(24), 256);
        // Far above, the table is as big as anyone may ask (the user's size caps it).
        assert_eq!(table_mb(200), 16 << 20);
    }
}
