//! The proof phase at the root, split over the threads.
//!
//! Every root question becomes a set of tasks, one per move: "is this move worth at least
//! `t`?". Each task searches the child as a root of its own (with an empty path), so its answer
//! is a proven bound on the move's true value whatever happens elsewhere. A set that stops at
//! the first success is finished as soon as one task succeeds; all threads take its first task
//! together (lazy SMP: it is the likeliest cutoff and often the biggest proof), and the others
//! are handed out one by one. A set that needs every answer (a classifying pass) hands out
//! every task one by one from the first: two threads on one task split it less well than two
//! tasks (6x4 over 20-seed tables on two threads: 0.88 of the time). A thread with nothing
//! left joins a task still running.
//!
//! Keeping a proven interval per move lets one pass answer two questions: when the value is
//! known to be at least `v`, testing the other moves against `v` (rather than `v + 1`) both
//! bounds the value from above and tells which moves are best.

use crate::node::{Cancel, Worker, UNLIMITED};
use crate::progress::{OnMove, Step, Tally};
use mancala_rules::{Board, Child, Next, Node};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex};

/// One question: is `child`'s move worth at least `t`?
#[derive(Clone, Copy, Debug)]
pub struct Task {
    pub child: Child,
    pub t: i32,
    /// The move's index in the root's move list.
    pub slot: usize,
}

/// A proven bound on a move's value: at least `v` if `success`, else at most `v`.
#[derive(Clone, Copy, Debug)]
pub struct Answer {
    pub v: i32,
    pub success: bool,
}

pub struct TaskSet {
    pub tasks: Vec<Task>,
    stop_on_success: bool,
    /// The first task is expected to succeed (node types below follow from it).
    expect_success: bool,
    next: AtomicUsize,
    done: Vec<AtomicBool>,
    answers: Mutex<Vec<Option<Answer>>>,
    remaining: AtomicUsize,
    finished: AtomicBool,
}

impl TaskSet {
    pub fn new(tasks: Vec<Task>, stop_on_success: bool, expect_success: bool) -> TaskSet {
        let k = tasks.len();
        TaskSet {
            done: (0..k).map(|_| AtomicBool::new(false)).collect(),
            answers: Mutex::new(vec![None; k]),
            remaining: AtomicUsize::new(k),
            finished: AtomicBool::new(k == 0),
            // A set that stops at the first success runs its first task on every thread (see
            // `participate`); the others hand out every task one by one.
            next: AtomicUsize::new(stop_on_success as usize),
            tasks,
            stop_on_success,
            expect_success,
        }
    }

    pub fn finished(&self) -> bool {
        self.finished.load(Relaxed)
    }

    fn record(&self, i: usize, a: Answer) {
        if self.done[i].swap(true, Relaxed) {
            return;
        }
        self.answers.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(a);
        let left = self.remaining.fetch_sub(1, Relaxed) - 1;
        if left == 0 || (a.success && self.stop_on_success) {
            self.finished.store(true, Relaxed);
        }
    }

    /// The answers so far, by task.
    pub fn answers(&self) -> Vec<Option<Answer>> {
        self.answers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

/// Where the first thread posts task sets for the helpers, numbered, until it closes it.
#[derive(Default)]
pub struct Posts {
    latest: Mutex<Posted>,
    changed: Condvar,
}

#[derive(Default)]
struct Posted {
    number: u64,
    set: Option<Arc<TaskSet>>,
    closed: bool,
}

impl Posts {
    /// Hands a task set to the helpers.
    pub fn post(&self, set: Arc<TaskSet>) {
        let mut p = self.latest.lock().unwrap_or_else(|e| e.into_inner());
        p.number += 1;
        p.set = Some(set);
        self.changed.notify_all();
    }

    /// No more sets: the helpers waiting return.
    pub fn close(&self) {
        self.latest.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
        self.changed.notify_all();
    }

    /// Waits for a task set newer than number `seen`; `None` once closed.
    pub fn next(&self, seen: u64) -> Option<(u64, Arc<TaskSet>)> {
        let mut p = self.latest.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if p.closed {
                return None;
            }
            if p.number > seen {
                if let Some(set) = &p.set {
                    return Some((p.number, set.clone()));
                }
            }
            p = self.changed.wait(p).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Takes tasks of `set` until it is finished (or the search stops).
pub fn participate(w: &mut Worker<'_>, set: &Arc<TaskSet>) {
    let k = set.tasks.len();
    if k == 0 {
        return;
    }
    if set.stop_on_success {
        run_task(w, set, 0);
    }
    loop {
        if set.finished() || w.shared().stopped() {
            return;
        }
        let i = set.next.fetch_add(1, Relaxed);
        if i >= k {
            break;
        }
        run_task(w, set, i);
    }
    // Everything is handed out: help with a task still running.
    let mut from = w.id;
    while !set.finished() && !w.shared().stopped() {
        let open = (0..k).map(|x| (x + from) % k).find(|&x| !set.cancelled(x));
        match open {
            Some(x) => run_task(w, set, x),
            None => std::thread::yield_now(),
        }
        from += 1;
    }
}

impl Tally for TaskSet {
    fn tally(&self) -> Step {
        let answers = self.answers();
        let answered = answers.iter().flatten();
        Step {
            threshold: self.tasks.first().map_or(0, |t| t.t),
            moves: self.tasks.len(),
            below: answered.clone().filter(|a| !a.success).count(),
            reached: answered.filter(|a| a.success).count(),
            on_move: None,
        }
    }
}

impl Cancel for TaskSet {
    fn cancelled(&self, i: usize) -> bool {
        self.finished() || self.done[i].load(Relaxed)
    }
}

fn run_task(w: &mut Worker<'_>, set: &Arc<TaskSet>, i: usize) {
    if set.cancelled(i) {
        return;
    }
    let Task { child: c, t, .. } = set.tasks[i];
    w.cancel = Some((set.clone(), i));
    w.aborted = false;
    w.on_move = Some(OnMove {
        pit: c.pit,
        searched: 0,
        of: 0,
    });
    let g = c.gain as i32 - c.opp_gain as i32;
    // The child's test, and whether the move is expected to succeed (the child then fails
    // low: an all-node).
    let (gc, sign) = match c.next {
        Next::Opponent => (g - t + 1, -1),
        _ => (t - g, 1),
    };
    let success = set.expect_success && i == 0;
    let cut = if c.next == Next::Opponent {
        !success
    } else {
        success
    };
    let v = if c.next == Next::Over {
        g
    } else {
        g + sign * w.search(c.board, gc, UNLIMITED, 0, cut).v
    };
    let aborted = w.aborted;
    w.cancel = None;
    w.aborted = false;
    if !aborted {
        // Without a depth limit every bound is proven.
        set.record(i, Answer { v, success: v >= t });
        if v >= t {
            // A move's lower bound is the root's: reports show it while the set goes on.
            w.shared().raise_lo(v);
        }
    }
}

/// A move's proven value: `lo <= value <= hi`, exact when they meet. After an exact solve
/// each best move is exact and every other move's `hi` lies below the position's value, which
/// is all a player needs to know; the exact value of a losing move can cost many times the
/// solve (see [`crate::Solver::move_values`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The mover's pit index.
    pub pit: usize,
    /// Proven lower bound.
    pub lo: i32,
    /// Proven upper bound.
    pub hi: i32,
}

impl MoveValue {
    /// A move whose value is known.
    pub fn exact(pit: usize, value: i32) -> MoveValue {
        MoveValue {
            pit,
            lo: value,
            hi: value,
        }
    }

    /// The value, if proven exactly.
    pub fn value(&self) -> Option<i32> {
        (self.lo == self.hi).then_some(self.lo)
    }
}

/// `+3` for an exact value; `at most +6` for a move only proven worse than the best (its
/// lower bound is rarely of interest to a player and is left to the JSON).
impl std::fmt::Display for MoveValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.value() {
            Some(v) => write!(f, "{v:+}"),
            None => write!(f, "at most {:+}", self.hi),
        }
    }
}

/// The root's moves with proven intervals on their values.
pub struct RootMoves {
    /// The root position and its pits a side (for the move ordering).
    board: Board,
    pits: usize,
    pub moves: Vec<Child>,
    pub lo: Vec<i32>,
    pub hi: Vec<i32>,
}

impl RootMoves {
    /// The moves of `b`, with the intervals nothing needs searching for: finished games and
    /// table positions exactly, the rest from the seeds left. `None` if the game is over.
    pub fn new(w: &Worker<'_>, b: Board) -> Result<Option<RootMoves>, mancala_tables::TableError> {
        let Node::Moves(kids) = w.rules().node(b) else {
            return Ok(None);
        };
        let moves: Vec<Child> = kids.iter().copied().collect();
        let mut lo = Vec::with_capacity(moves.len());
        let mut hi = Vec::with_capacity(moves.len());
        for c in &moves {
            let g = c.gain as i32 - c.opp_gain as i32;
            let nc = c.board.total();
            let exact = match (c.next, w.probe()) {
                (Next::Over, _) => Some(g),
                (_, Some(p)) => p.exact(c.board)?.map(|v| c.value(v as i32)),
                _ => None,
            };
            let (l, h) = exact.map_or((g - nc as i32, g + nc as i32), |v| (v, v));
            lo.push(l);
            hi.push(h);
        }
        Ok(Some(RootMoves {
            board: b,
            pits: w.rules().pits(),
            moves,
            lo,
            hi,
        }))
    }

    /// Every move's proven interval, in pit order.
    pub fn intervals(&self) -> Vec<MoveValue> {
        let mut out: Vec<MoveValue> = (0..self.moves.len())
            .map(|i| MoveValue {
                pit: self.moves[i].pit as usize,
                lo: self.lo[i],
                hi: self.hi[i],
            })
            .collect();
        out.sort_by_key(|m| m.pit);
        out
    }

    /// Proven bounds on the root value.
    pub fn bounds(&self) -> (i32, i32) {
        (
            *self.lo.iter().max().expect("a move"),
            *self.hi.iter().max().expect("a move"),
        )
    }

    /// One task per move whose interval does not already answer "at least `t`", in search
    /// order: the move the table remembers, then by the usual ordering.
    pub fn tasks(&self, t: i32, tt_move: u8) -> Vec<Task> {
        let mut tasks: Vec<Task> = (0..self.moves.len())
            .filter(|&i| self.lo[i] < t && t <= self.hi[i])
            .map(|i| Task {
                child: self.moves[i],
                t,
                slot: i,
            })
            .collect();
        let (b, m) = (self.board, self.pits);
        tasks
            .sort_by_key(|k| -crate::order::key(&k.child, tt_move, b.get(k.child.pit as usize), m));
        tasks
    }

    pub fn apply(&mut self, set: &TaskSet) {
        for (task, a) in set.tasks.iter().zip(set.answers()) {
            if let Some(a) = a {
                let i = task.slot;
                if a.success {
                    self.lo[i] = self.lo[i].max(a.v);
                } else {
                    self.hi[i] = self.hi[i].min(a.v);
                }
            }
        }
    }
}

/// The tasks for one step and whether that step stops at the first success.
pub fn step_tasks(rm: &RootMoves, gamma: i32, classify: bool, tt_move: u8) -> (Vec<Task>, bool) {
    let (lo, _) = rm.bounds();
    if classify && gamma == lo + 1 {
        // Settle every open move against `lo` first; the moves that reach it are then tested
        // against `lo + 1`.
        let tasks = rm.tasks(lo, tt_move);
        if !tasks.is_empty() {
            return (tasks, false);
        }
    }
    (rm.tasks(gamma, tt_move), true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::Shared;
    use crate::tt::{Tt, NO_MOVE};
    use mancala_rules::{Options, Preset, Rules, Variant};

    /// What progress reports show inside a root move: a move that reaches the test has every
    /// move under it refuted, so its count ends full; a move refuted needs one answer under
    /// it. Kalah 6x3 (worth +2 by pit 4; pit 3 ends in the store and is worth -2, pit 0 -14),
    /// each task on a fresh table so that its first node is searched.
    #[test]
    fn a_root_task_counts_the_moves_under_it() {
        let options = Options {
            pits: Some(6),
            seeds: Some(3),
            ..Default::default()
        };
        let rules = Rules::new(Variant::new(Preset::Kalah, options).unwrap());
        for (pit, reaches, all) in [(4, true, true), (0, false, false), (3, false, true)] {
            let tt = Tt::new(16).unwrap();
            let shared = Shared::new(-36, 36, None, 1, None);
            let mut w = Worker::new(&rules, None, &tt, &shared, 0, None);
            let rm = RootMoves::new(&w, rules.start()).unwrap().unwrap();
            let tasks: Vec<Task> = rm
                .tasks(2, NO_MOVE)
                .into_iter()
                .filter(|k| k.child.pit == pit)
                .collect();
            let set = Arc::new(TaskSet::new(tasks, false, false));
            run_task(&mut w, &set, 0);
            let answer = set.answers()[0].expect("answered");
            let on = w.on_move.expect("a root move");
            assert_eq!((on.pit, answer.success), (pit, reaches), "{on:?}");
            assert!(
                on.of > 0 && on.searched >= 1 && on.searched <= on.of,
                "{on:?}"
            );
            assert_eq!(on.searched == on.of, all, "{on:?}");
            // A move that reaches the test is a lower bound on the root.
            assert_eq!(shared.bounds().0 >= 2, reaches);
        }
    }
}
