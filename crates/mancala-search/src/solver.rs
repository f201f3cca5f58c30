//! The public entry point: exact values, best moves, principal variations, move values and
//! fixed-depth runs, all sharing one transposition table across calls.

use crate::driver::{run, Goal, Run, Setup};
use crate::node::Halt;
use crate::probe::Probe;
use crate::progress::Observer;
use crate::tt::Tt;
use crate::SearchError;
use mancala_rules::{Board, Next, Node, Rules};
use mancala_tables::Tables;
use std::time::Instant;

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in MiB (rounded down to a power of two).
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Depth-limited iterations (for move ordering) before the unlimited proof search.
    pub id_depth: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 64,
            threads: 1,
            id_depth: 16,
        }
    }
}

/// The answer for one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// Net future gain of the side to move under perfect play.
    pub value: i32,
    /// Every move that achieves `value`, in pit order, each proven.
    pub best: Vec<usize>,
    /// A principal variation: each move achieves the value of the position it is played in.
    /// It ends when the game ends, a position repeats (Awari-type endless play), or after
    /// [`PV_LIMIT`] moves.
    pub pv: Vec<usize>,
    pub nodes: u64,
    pub seconds: f64,
}

/// The longest principal variation reported.
pub const PV_LIMIT: usize = 400;

/// An exact searcher over one rule set, optionally probing its tables.
pub struct Solver<'a> {
    rules: &'a Rules,
    probe: Option<Probe<'a>>,
    tt: Tt,
    opts: Options,
}

impl<'a> Solver<'a> {
    /// `tables` are probed for every position whose seed count lies in their complete range
    /// (tiers `0..=k` all present).
    pub fn new(
        rules: &'a Rules,
        tables: Option<&'a Tables>,
        opts: Options,
    ) -> Result<Solver<'a>, SearchError> {
        if opts.threads == 0 {
            return Err(SearchError::NoThreads);
        }
        if opts.hash_mb == 0 {
            return Err(SearchError::NoHash);
        }
        let tt = Tt::new(opts.hash_mb)?;
        let probe = match tables.and_then(|t| t.complete_up_to().map(|k| (t, k))) {
            Some((t, k)) => Probe::new(t, k)?,
            None => None,
        };
        Ok(Solver {
            rules,
            probe,
            tt,
            opts,
        })
    }

    /// The largest seed count answered from the tables, if any.
    pub fn tables_up_to(&self) -> Option<usize> {
        self.probe.as_ref().map(|p| p.max as usize)
    }

    /// Bytes of transposition table in use.
    pub fn hash_bytes(&self) -> u64 {
        self.tt.bytes()
    }

    pub fn rules(&self) -> &Rules {
        self.rules
    }

    fn setup(&self) -> Setup<'_> {
        Setup {
            rules: self.rules,
            probe: self.probe.as_ref(),
            tt: &self.tt,
            threads: self.opts.threads,
            id_depth: self.opts.id_depth,
        }
    }

    fn run(&self, b: Board, goal: Goal, obs: &dyn Observer) -> Result<Run, SearchError> {
        run(self.setup(), b, goal, obs).map_err(|h| match h {
            Halt::Table(e) => SearchError::Table(e),
            Halt::TooDeep => SearchError::TooDeep(crate::node::MAX_PLY),
        })
    }

    /// The exact value of `b` and the nodes it took.
    pub fn value(&mut self, b: Board, obs: &dyn Observer) -> Result<(i32, u64), SearchError> {
        self.tt.new_search();
        let r = self.run(b, Goal::Exact { classify: false }, obs)?;
        Ok((r.lo, r.nodes))
    }

    /// The value, every best move and a principal variation of `b`.
    pub fn solve(&mut self, b: Board, obs: &dyn Observer) -> Result<Solution, SearchError> {
        let started = Instant::now();
        self.tt.new_search();
        let r = self.run(b, Goal::Exact { classify: true }, obs)?;
        let (pv, k) = self.pv(b, r.lo, r.best.first().copied())?;
        Ok(Solution {
            value: r.lo,
            best: r.best,
            pv,
            nodes: r.nodes + k,
            seconds: started.elapsed().as_secs_f64(),
        })
    }

    /// Follows moves that achieve the value from `b`, whose value is `v`; the first move is
    /// `first` if known.
    fn pv(&self, b: Board, v: i32, first: Option<usize>) -> Result<(Vec<usize>, u64), SearchError> {
        let mut pv = Vec::new();
        let mut nodes = 0;
        let (mut b, mut v) = (b, v);
        let mut seen = std::collections::HashSet::new();
        while pv.len() < PV_LIMIT && seen.insert(b) {
            let Node::Moves(kids) = self.rules.node(b) else {
                break;
            };
            let pit = match first.filter(|_| pv.is_empty()) {
                Some(p) => p,
                None => {
                    let r = self.run(b, Goal::AtLeast(v), &())?;
                    nodes += r.nodes;
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
        Ok((pv, nodes))
    }

    /// The exact value of every legal move of `b`, in pit order (empty if the game is over).
    pub fn move_values(
        &mut self,
        b: Board,
        obs: &dyn Observer,
    ) -> Result<Vec<(usize, i32)>, SearchError> {
        let mut out = Vec::new();
        if let Node::Moves(kids) = self.rules.node(b) {
            for c in &kids {
                let w = match c.next {
                    Next::Over => 0,
                    _ => self.value(c.board, obs)?.0,
                };
                out.push((c.pit as usize, c.value(w)));
            }
        }
        Ok(out)
    }

    /// A reproducible fixed-depth run on one thread with a fresh table: the heuristic value at
    /// `depth` plies and the nodes it took.
    pub fn fixed_depth(&mut self, b: Board, depth: u32) -> Result<(i32, u64), SearchError> {
        self.tt = Tt::new(self.opts.hash_mb)?;
        let r = self.run(b, Goal::Depth(depth), &())?;
        Ok((if r.lo == r.hi { r.lo } else { r.guess }, r.nodes))
    }
}
