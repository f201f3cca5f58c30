//! What a running search tells its caller. The library prints nothing itself.

/// A snapshot of a search in progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// The depth of the current iteration in plies, or `None` in the final, unlimited one
    /// (every leaf is then a finished game, a table value, or a seed-count bound).
    pub depth: Option<u32>,
    /// Proven lower bound on the root value so far.
    pub lo: i32,
    /// Proven upper bound on the root value so far.
    pub hi: i32,
    /// Nodes visited by every thread.
    pub nodes: u64,
    /// Time since the search started.
    pub seconds: f64,
    /// The proof's latest test at the root, move by move (once the proof phase began).
    pub step: Option<Step>,
}

/// How far the proof's latest test at the root has come: "is each move worth at least
/// `threshold`?", asked of each move still open (a test that stops at the first move that
/// reaches it, or a classifying one that asks them all). In an hour-long question the
/// bounds stay put until its end; the moves answered, and inside a move the moves under it,
/// are what moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The test: at least this much, for the side to move at the root.
    pub threshold: i32,
    /// Root moves the test asks about (those whose proven interval does not answer it).
    pub moves: usize,
    /// Moves proven below the threshold so far.
    pub below: usize,
    /// Moves proven to reach it so far.
    pub reached: usize,
    /// The root move the first search thread (the one that reports) is testing, if any.
    pub on_move: Option<OnMove>,
}

/// Inside one root move's test: how many of the moves under it the first thread's search has
/// finished. Only moves that need a search count: moves that end the game, positions in the
/// tables and moves settled by the seeds left are answered before any of them, and do not.
/// A thread that joins a test already under way counts from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OnMove {
    /// The root move's pit.
    pub pit: u8,
    /// Moves under it searched to the end so far.
    pub searched: u8,
    /// Moves under it that need a search (0 until its first node has sorted them).
    pub of: u8,
}

/// A test at the root that can say how far it has come (the root's task sets). A trait, as
/// [`crate::node::Cancel`] is, so that the search threads need not know the root's types.
pub(crate) trait Tally: Send + Sync {
    fn tally(&self) -> Step;
}

impl Progress {
    /// Nodes a second so far.
    pub fn nodes_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.nodes as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// Receives progress from the first search thread: after every null-window test, and about
/// once a second during long ones.
pub trait Observer: Sync {
    /// Called with the latest snapshot.
    fn progress(&self, _p: &Progress) {}
}

impl Observer for () {}

impl<F: Fn(&Progress) + Sync> Observer for F {
    fn progress(&self, p: &Progress) {
        self(p)
    }
}
