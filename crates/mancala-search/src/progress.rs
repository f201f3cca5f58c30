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

/// How far the proof's latest test at the root ("is a move worth at least `threshold`?",
/// asked of each move in turn) has come. In an hour-long question the bounds stay put until
/// its end; the moves answered are what moves.
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
    /// The move the reporting thread is testing (its pit), and how many of the replies to it
    /// that test has searched, of how many: progress inside one move's proof.
    pub on_move: Option<(u8, u8, u8)>,
}

/// Something that can say how far a root test has come (the root's task sets).
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
