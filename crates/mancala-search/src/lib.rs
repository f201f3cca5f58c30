//! Exact alpha-beta search over the rules, probing the endgame tables.
//!
//! Every question is a null-window test ("is the value at least g?") answered with a bound that
//! is either proven or heuristic; see [`node`](crate::node) for why a proven bound never rests
//! on a depth-limited leaf and how repetitions are kept out of the shared table. The driver
//! deepens iteratively with MTD(f) for move ordering, then proves the value without a depth
//! limit. Values follow RULES.md: the net future gain of the side to move.
//!
//! ```
//! use mancala_rules::{Options, Preset, Rules, Variant};
//! use mancala_search::{Solver, Options as SearchOptions};
//!
//! let v = Variant::new(Preset::Kalah, Options { pits: Some(3), seeds: Some(2), ..Default::default() }).unwrap();
//! let rules = Rules::new(v);
//! let mut solver = Solver::new(&rules, None, SearchOptions::default()).unwrap();
//! let s = solver.solve(rules.start(), &()).unwrap();
//! // Without a time limit the value is exact, and the principal variation starts with a best move.
//! assert_eq!(s.value, Some(s.lo));
//! assert!(s.best.contains(&s.pv[0]));
//! ```

mod busy;
mod driver;
mod node;
mod order;
mod probe;
mod progress;
mod reach;
mod root;
mod shared;
mod solver;
mod tt;

pub use progress::{Observer, Progress};
pub use solver::{Options, Solution, Solver, PV_LIMIT};
pub use tt::AllocError;

/// Everything that can stop a search.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error(transparent)]
    Table(#[from] mancala_tables::TableError),
    #[error(transparent)]
    Alloc(#[from] AllocError),
    #[error("the search needs at least one thread")]
    NoThreads,
    #[error("the transposition table needs at least 1 MB")]
    NoHash,
    #[error("a line of play went {0} plies deep without ending; this position cannot be searched")]
    TooDeep(u32),
    #[error("too many positions lie above the tables (the search solves at most {limit} of them, and in Awari-type games, where play can cycle, it must solve every one it can reach); build bigger tables, raise --reach-limit if memory allows, or give a time limit for proven bounds")]
    TooBig { limit: usize },
    #[error("out of time: the value lies in [{lo}, {hi}]")]
    OutOfTime { lo: i32, hi: i32 },
    #[error("internal error: {0}")]
    Internal(&'static str),
}
