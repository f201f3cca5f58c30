//! Iterative deepening with MTD(f), then the proof phase, on a team of threads.
//!
//! The first thread deepens: each depth-limited iteration converges MTD(f) on that depth's
//! heuristic value, which gives the guess and, above all, the move ordering for the next
//! iteration; any proven answer on the way narrows the root interval. The helpers meanwhile
//! run the same iterations a ply deeper into the shared table (see `accompany`). Then the
//! depth limit goes away and every question is split over all threads as root tasks (see
//! `root`), with MTD(f) steps around the guess until the interval closes.

use crate::node::{Halt, Worker};
use crate::probe::Probe;
use crate::progress::Observer;
use crate::root::{participate, step_tasks, MoveValue, Posts, RootMoves, TaskSet};
use crate::shared::Shared;
use crate::tt::{hash, Bound, Tt, Update, NO_MOVE};
use mancala_rules::{Board, Node, Rules};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

/// What every thread needs.
#[derive(Clone, Copy)]
pub struct Setup<'a> {
    pub rules: &'a Rules,
    pub probe: Option<&'a Probe<'a>>,
    pub tt: &'a Tt,
    pub threads: usize,
    /// Depth-limited iterations before the unlimited one.
    pub id_depth: u32,
    /// Stop after this long, with whatever bounds are proven.
    pub seconds_left: Option<f64>,
    /// Raised from outside: stop as if the time were up.
    pub interrupt: Option<&'a crate::Interrupt>,
}

/// What a run is after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The exact value; with `classify`, also which moves achieve it.
    Exact { classify: bool },
    /// Whether the value is at least `threshold`. With `deepen`, depth-limited iterations
    /// order the moves first, as for an exact value: a question asked afresh needs them (a
    /// proof without them starts from an empty table); one asked of a position just searched
    /// (the next move of a principal variation) does not.
    AtLeast { threshold: i32, deepen: bool },
    /// The heuristic value at this depth, on one thread (reproducible node counts).
    Depth(u32),
    /// Proven bounds from ever deeper depth-limited iterations, until the time runs out or
    /// they meet (Awari-type positions too big to solve backwards).
    Deepen,
}

impl Goal {
    /// Whether depth-limited iterations run before the unlimited proof.
    fn deepens(self) -> bool {
        matches!(
            self,
            Goal::Exact { .. } | Goal::AtLeast { deepen: true, .. }
        )
    }

    fn settled(self, lo: i32, hi: i32) -> bool {
        match self {
            Goal::AtLeast { threshold: t, .. } => lo >= t || hi < t,
            _ => lo >= hi,
        }
    }
}

/// Stack for a search thread: the recursion can follow a long game.
const STACK: usize = 256 << 20;

/// The result of a run on one position.
pub struct Run {
    /// Proven bounds (equal for an exact run).
    pub lo: i32,
    pub hi: i32,
    /// The last heuristic value (fixed-depth runs).
    pub guess: i32,
    /// Pits of the moves proven to achieve the value (exact runs with `classify`).
    pub best: Vec<usize>,
    /// Every root move's proven interval, in pit order (runs that reached the proof phase).
    pub moves: Vec<MoveValue>,
    pub nodes: u64,
    /// Inner nodes among them.
    pub expanded: u64,
}

/// Runs the threads on `b` until `goal` is settled.
pub fn run(setup: Setup<'_>, b: Board, goal: Goal, observer: &dyn Observer) -> Result<Run, Halt> {
    let n = b.total() as i32;
    let threads = match goal {
        Goal::Depth(_) | Goal::Deepen => 1,
        _ => setup.threads.max(1),
    };
    let shared = Shared::new(-n, n, setup.seconds_left, threads, setup.interrupt.cloned());
    let posts = Posts::default();
    let deepened = Arc::new(Deepened::default());
    type Out = (u64, u64, Option<Halt>, Led);
    let outs: Vec<Out> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|id| {
                let (shared, posts, deepened) = (&shared, &posts, &deepened);
                let obs = (id == 0).then_some(observer);
                std::thread::Builder::new()
                    .stack_size(STACK)
                    .spawn_scoped(s, move || {
                        // `then`, not `then_some`: a guard made (and dropped) on a helper
                        // would stop the search at once.
                        let _stop = (id == 0).then(|| StopOnDrop(shared, posts));
                        let mut w =
                            Worker::new(setup.rules, setup.probe, setup.tt, shared, id, obs);
                        let out = if id == 0 {
                            let out = lead(&mut w, posts, setup, b, goal, deepened);
                            shared.stop();
                            out
                        } else {
                            if goal.deepens() {
                                accompany(&mut w, b, goal, setup.id_depth, deepened);
                            }
                            help(&mut w, posts);
                            Led::default()
                        };
                        w.flush();
                        (w.nodes, w.expanded, w.halt.take(), out)
                    })
                    .expect("spawn a search thread")
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or((0, 0, Some(Halt::Panicked), Led::default()))
            })
            .collect()
    });
    let (mut nodes, mut expanded) = (0, 0);
    let mut lead_out = Led::default();
    for (i, (k, e, halt, out)) in outs.into_iter().enumerate() {
        if let Some(h) = halt {
            return Err(h);
        }
        nodes += k;
        expanded += e;
        if i == 0 {
            lead_out = out;
        }
    }
    let (lo, hi) = shared.bounds();
    Ok(Run {
        lo,
        hi,
        guess: lead_out.guess,
        best: lead_out.best,
        moves: lead_out.moves,
        nodes,
        expanded,
    })
}

/// Raised by the first thread when its deepening ends: a helper deepening beside it stops
/// then (through its worker's cancel hook, as an abandoned root task does) and joins the
/// proof.
#[derive(Default)]
struct Deepened(AtomicBool);

impl crate::node::Cancel for Deepened {
    fn cancelled(&self, _: usize) -> bool {
        self.0.load(Relaxed)
    }
}

/// Stops the helpers when the first thread ends, however it ends: after a panic (a closed
/// stderr is enough) they would otherwise wait for work forever, and the caller with them.
struct StopOnDrop<'a>(&'a Shared, &'a Posts);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stop();
        self.1.close();
    }
}

/// A helper while the first thread deepens alone: the same iterations one ply deeper, into
/// the shared table, until the first thread's deepening ends. The helper used to wait idle
/// through it, a tenth of a quick proof's time (the deepening to 16 plies is 1.2 M of the
/// 11.1 M nodes of the slowest position two moves into Kalah 6x4); its deeper heuristic
/// entries then order the first thread's iterations and often bring its guess nearer the
/// value. The 42 positions within two moves of the 6x4 start over 28-seed tables, solved in
/// turn: 0.87 to 0.98 of the time (five pairs, median 0.91); two and three plies deeper did
/// no better. Long proofs are unchanged (6x4 over 20-seed tables 1.01, 6x5 over 28 0.90-1.03).
fn accompany(w: &mut Worker<'_>, b: Board, goal: Goal, last: u32, deepened: &Arc<Deepened>) {
    w.cancel = Some((deepened.clone(), 0));
    deepen(w, b, goal, 2, last.saturating_add(1));
    w.cancel = None;
    w.aborted = false;
}

/// A helper thread: works on whatever task set the first thread posts.
fn help(w: &mut Worker<'_>, posts: &Posts) {
    let mut seen = 0;
    while let Some((k, set)) = posts.next(seen) {
        seen = k;
        participate(w, &set);
    }
}

/// What the first thread found besides the bounds.
#[derive(Default)]
struct Led {
    /// The last heuristic value.
    guess: i32,
    /// The moves proven to reach the goal.
    best: Vec<usize>,
    /// Every root move's proven interval (once the proof phase began).
    moves: Vec<MoveValue>,
}

impl Led {
    fn guess(guess: i32) -> Led {
        Led {
            guess,
            ..Led::default()
        }
    }
}

/// The first thread: deepening, then the proof phase.
fn lead(
    w: &mut Worker<'_>,
    posts: &Posts,
    setup: Setup<'_>,
    b: Board,
    goal: Goal,
    deepened: &Deepened,
) -> Led {
    let mut guess = 0;
    match goal {
        Goal::Depth(d) => return Led::guess(deepen(w, b, goal, 1, d)),
        Goal::Deepen => return Led::guess(deepen(w, b, goal, 1, u32::MAX)),
        Goal::Exact { .. } | Goal::AtLeast { deepen: true, .. } => {
            guess = deepen(w, b, goal, 1, setup.id_depth)
        }
        Goal::AtLeast { .. } => {}
    }
    deepened.0.store(true, Relaxed);
    if w.halt.is_some() {
        return Led::guess(guess);
    }
    let mut rm = match RootMoves::new(w, b) {
        Ok(Some(rm)) => rm,
        Ok(None) => {
            if let Node::Terminal { mover, opp } = setup.rules.node(b) {
                let v = mover as i32 - opp as i32;
                w.shared().narrow((v, v));
            }
            return Led::guess(guess);
        }
        Err(e) => {
            w.halt = Some(Halt::Table(e));
            return Led::guess(guess);
        }
    };
    let (guess, best) = prove(w, posts, b, goal, guess, &mut rm);
    // No move is worth more than the root: its bound may have been proven before the
    // moves were searched one by one (in the deepening).
    let (_, hi) = w.shared().bounds();
    let mut moves = rm.intervals();
    for m in &mut moves {
        m.hi = m.hi.min(hi);
    }
    Led { guess, best, moves }
}

/// The unlimited phase: MTD(f) steps as root task sets until the goal is settled.
fn prove(
    w: &mut Worker<'_>,
    posts: &Posts,
    b: Board,
    goal: Goal,
    mut guess: i32,
    rm: &mut RootMoves,
) -> (i32, Vec<usize>) {
    let classify = goal == Goal::Exact { classify: true };
    let h = hash(b);
    let n = b.total();
    w.depth_shown = None;
    // A search with a time limit may not finish its proof; it should still leave bounds worth
    // reporting. MTD(f)'s tests sit at the guess, where each is as hard as the whole proof, so
    // a limited exact search first brackets the guess from far outside (a wide margin is cheap
    // to prove: Kalah 6x6 shows "at least -35" in half a second where "at least -3" takes more
    // than minutes), halving the margin after each pair of tests. Unlimited searches skip it:
    // their node counts stay those of plain MTD(f).
    let height = n as i32 - w.probe().map_or(0, |p| p.max as i32);
    let mut bracket = Bracket::new(goal, w.shared().has_deadline(), height);
    loop {
        // The root is worth at least its best move's lower bound and at most the highest
        // upper bound among its moves.
        w.shared().narrow(rm.bounds());
        let (lo, hi) = w.shared().bounds();
        if goal.settled(lo, hi) {
            break;
        }
        let g = guess.max(lo).min(hi);
        let gamma = match goal {
            Goal::AtLeast { threshold: t, .. } => t,
            _ if g > lo => g,
            _ => g + 1,
        };
        let bracketing = bracket.next(g, lo, hi);
        let gamma = bracketing.unwrap_or(gamma);
        let tt_move = w.tt().probe(h, n).map_or(NO_MOVE, |e| e.mv);
        let (tasks, stop) = step_tasks(rm, gamma, classify && bracketing.is_none(), tt_move);
        // MTD(f) expects a test at or below the guess to succeed, one above it to fail; a
        // classifying pass mostly refutes; a principal-variation step asks for a value known
        // to be reached.
        let expect = stop && (gamma <= g || matches!(goal, Goal::AtLeast { .. }));
        if !run_set(w, posts, rm, tasks, stop, expect) {
            return (guess, Vec::new());
        }
        let (new_lo, new_hi) = rm.bounds();
        // MTD(f): the next guess is the bound the test returned. A classifying pass tests
        // `lo`, not `gamma`; the step after it is `lo + 1`.
        guess = if bracketing.is_some() {
            // The guess stands; a bracket's bounds clamp it next time.
            guess
        } else if !stop || new_lo >= gamma {
            new_lo
        } else {
            new_hi
        };
        remember(w, rm, h, n);
        // The report shows the test's answers beside the bounds they prove.
        w.shared().narrow(rm.bounds());
        w.report_now();
    }
    let mut best = Vec::new();
    if let Goal::AtLeast { threshold: t, .. } = goal {
        // The deepening (or a stored bound) may have proven the root before any move was
        // searched on its own: then one step at `t`, stopping at the first move that reaches
        // it, names a move.
        if w.shared().bounds().0 >= t && rm.lo.iter().all(|&l| l < t) {
            let tt_move = w.tt().probe(h, n).map_or(NO_MOVE, |e| e.mv);
            if !run_set(w, posts, rm, rm.tasks(t, tt_move), true, true) {
                return (guess, best);
            }
        }
        best = (0..rm.moves.len())
            .filter(|&i| rm.lo[i] >= t)
            .map(|i| rm.moves[i].pit as usize)
            .collect();
    }
    if classify {
        let (v, _) = w.shared().bounds();
        let tasks = rm.tasks(v, NO_MOVE);
        if !run_set(w, posts, rm, tasks, false, false) {
            return (guess, best);
        }
        best = (0..rm.moves.len())
            .filter(|&i| rm.lo[i] >= v)
            .map(|i| rm.moves[i].pit as usize)
            .collect();
        best.sort_unstable();
    }
    (guess, best)
}

/// The tests that bracket the guess of a time-limited exact search before MTD(f) takes over:
/// "at least guess - d", then "at most guess + d", for margins d = 32, 16 and 8, when the root
/// is far enough above the tables for its proof to take long.
struct Bracket {
    /// The next margin, 0 once bracketing is over.
    margin: i32,
    /// The next test is the upper one.
    upper: bool,
}

impl Bracket {
    const FIRST: i32 = 32;
    const LAST: i32 = 8;
    /// Seeds above the tables from which a limited search brackets. Below that proofs are
    /// quick (Kalah 6x4 over 28-seed tables: 16 to 20 above), and the brackets would cost
    /// them dearly (+75% nodes over the 42 positions within two moves of the start).
    const HEIGHT: i32 = 40;

    fn new(goal: Goal, limited: bool, height: i32) -> Bracket {
        let exact = matches!(goal, Goal::Exact { .. });
        Bracket {
            margin: if exact && limited && height >= Self::HEIGHT {
                Self::FIRST
            } else {
                0
            },
            upper: false,
        }
    }

    /// The threshold of the next bracketing test around guess `g` within the proven `lo..=hi`
    /// (a test "at least gamma"), or `None` when bracketing is over. Margins that fall outside
    /// the interval are skipped.
    fn next(&mut self, g: i32, lo: i32, hi: i32) -> Option<i32> {
        while self.margin >= Self::LAST {
            let gamma = if self.upper {
                g + self.margin + 1
            } else {
                g - self.margin
            };
            if self.upper {
                self.margin /= 2;
            }
            self.upper = !self.upper;
            if gamma > lo && gamma <= hi {
                return Some(gamma);
            }
        }
        None
    }
}

/// Posts a task set, works on it, and records the answers. False if the search stopped.
fn run_set(
    w: &mut Worker<'_>,
    posts: &Posts,
    rm: &mut RootMoves,
    tasks: Vec<crate::root::Task>,
    stop: bool,
    expect: bool,
) -> bool {
    if tasks.is_empty() {
        return true;
    }
    let set = Arc::new(TaskSet::new(tasks, stop, expect));
    w.step = Some(set.clone());
    posts.post(set.clone());
    participate(w, &set);
    // Between tests, reports show no move under way (`run_task` leaves its last count, which
    // its tests read).
    w.on_move = None;
    if w.halt.is_some() || !set.finished() {
        return false;
    }
    rm.apply(&set);
    true
}

/// Stores the root's proven interval and a best move, for later runs and the ordering.
fn remember(w: &Worker<'_>, rm: &RootMoves, h: crate::tt::Hash, n: u32) {
    let (lo, hi) = rm.bounds();
    let best = (0..rm.moves.len()).max_by_key(|&i| rm.lo[i]);
    let mv = best.map_or(NO_MOVE, |i| rm.moves[i].pit);
    for proven in [(Bound::Lower, lo), (Bound::Upper, hi)] {
        w.tt().store(
            h,
            n,
            Update {
                proven: Some(proven),
                heuristic: None,
                mv,
                work: 63,
            },
        );
    }
}

/// Depth-limited iterations `first..=last` on this thread. Returns the last heuristic value.
fn deepen(w: &mut Worker<'_>, b: Board, goal: Goal, first: u32, last: u32) -> i32 {
    let mut guess = 0;
    for d in first..=last {
        w.depth_shown = Some(d);
        let (mut hl, mut hu) = w.shared().bounds();
        let mut g = guess;
        while hl < hu {
            let (lo, hi) = w.shared().bounds();
            if w.shared().stopped() || goal.settled(lo, hi) {
                return g;
            }
            hl = hl.max(lo);
            hu = hu.min(hi);
            if hl >= hu {
                break;
            }
            g = g.max(hl).min(hu);
            let gamma = if g > hl { g } else { g + 1 };
            let r = w.search(b, gamma, d as i32, 0, true);
            if w.halt.is_some() || w.aborted {
                return g;
            }
            if r.v >= gamma {
                hl = r.v;
                if r.proven {
                    w.shared().raise_lo(r.v);
                }
            } else {
                hu = r.v;
                if r.proven {
                    w.shared().lower_hi(r.v);
                }
            }
            g = r.v;
            w.report_now();
        }
        guess = g;
        let (lo, hi) = w.shared().bounds();
        if goal.settled(lo, hi) {
            break;
        }
    }
    guess
}

#[cfg(test)]
mod tests {
    use super::{Bracket, Goal};

    /// The brackets close in on the guess by halves, lower test first, and skip a test whose
    /// answer the proven interval already gives; only time-limited exact searches far above
    /// the tables bracket at all.
    #[test]
    fn brackets_close_in_on_the_guess() {
        let exact = Goal::Exact { classify: false };
        let mut b = Bracket::new(exact, true, 44);
        let tests: Vec<_> = std::iter::from_fn(|| b.next(5, -70, 72)).collect();
        assert_eq!(tests, vec![-27, 38, -11, 22, -3, 14]);
        // Proven already: at least -20 (so "at least -27" is known) and at most 20 (so "at
        // least 38" and "at least 22" are known false).
        let mut b = Bracket::new(exact, true, 44);
        let tests: Vec<_> = std::iter::from_fn(|| b.next(5, -20, 20)).collect();
        assert_eq!(tests, vec![-11, -3, 14]);
        assert_eq!(Bracket::new(exact, false, 44).next(5, -70, 72), None);
        assert_eq!(Bracket::new(exact, true, 39).next(5, -70, 72), None);
        assert_eq!(
            Bracket::new(
                Goal::AtLeast {
                    threshold: 3,
                    deepen: true
                },
                true,
                44
            )
            .next(5, -70, 72),
            None
        );
    }
}
