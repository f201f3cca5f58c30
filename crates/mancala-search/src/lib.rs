//! Exact alpha-beta search over the rules, probing the endgame tables.
//!
//! Every question is a null-window test ("is the value at least g?") answered with a bound that
//! is either proven or heuristic; see [`node`](crate::node) for why a proven bound never rests
//! on a depth-limited leaf and how repetitions are kept out of the shared table. The driver
//! deepens iteratively with MTD(f) for move ordering, then proves the value without a depth
//! limit. Values are the net future gain of the side to move (docs/rules.md, Conventions).
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

#![warn(missing_docs)]

mod busy;
mod driver;
mod interrupt;
mod kept;
mod node;
mod order;
mod probe;
mod progress;
pub mod projection;
mod reach;
mod root;
mod shared;
mod solver;
mod tt;

pub use interrupt::Interrupt;
pub use kept::{Claim, KeepError, Opened, Saved, TableFile};
pub use progress::{Observer, OnMove, Progress, Step};
pub use root::MoveValue;
pub use solver::{Memory, Options, Solution, Solver, PV_LIMIT};
pub use tt::AllocError;

/// Everything that can stop a search. The messages describe the problem; what to change (a
/// bigger table set, more memory, a time limit) is the caller's to suggest.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// A table could not be read.
    #[error(transparent)]
    Table(#[from] mancala_tables::TableError),
    /// The transposition table could not be allocated.
    #[error(transparent)]
    Alloc(#[from] AllocError),
    /// [`Options::threads`] was 0.
    #[error("the search needs at least one thread")]
    NoThreads,
    /// [`Options::hash_mb`] was 0.
    #[error("the transposition table needs at least 1 MB")]
    NoHash,
    /// A line of play longer than the search's stack allows.
    #[error("a line of play went {0} plies deep without ending; this position cannot be searched")]
    TooDeep(u32),
    /// An Awari-type position whose reachable positions above the tables are too many to
    /// solve backwards, with no time limit to settle for bounds.
    #[error("more positions are reachable above the tables than the {} the search solves backwards (in Awari-type games, where play can cycle, it must solve every one it can reach)", mancala_rules::Grouped(*limit as u128))]
    TooBig {
        /// [`Options::reach_limit`].
        limit: usize,
    },
    /// The time limit came before the value was proven.
    #[error("out of time: the value lies in [{lo}, {hi}]")]
    OutOfTime {
        /// The proven lower bound.
        lo: i32,
        /// The proven upper bound.
        hi: i32,
    },
    /// A bug: the search found itself in a state it should never reach.
    #[error("internal error: {0}")]
    Internal(&'static str),
}
