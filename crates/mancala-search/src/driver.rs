//! Iterative deepening with MTD(f) null-window tests, run by every thread on a shared table.
//!
//! Each depth-limited iteration converges MTD(f) on that depth's heuristic value (a cheap
//! guess and, above all, move ordering for the next iteration); any test whose result is
//! proven narrows the shared root interval. After `id_depth` plies the depth limit goes away:
//! every test is then proven, and bisection around the guess closes the interval.
//!
//! With two or more threads, odd threads test the neighbouring value (`gamma + 1`): the final
//! answer needs both "at least g" and "not at least g + 1", so the two proofs run at once. A
//! test that another thread's result makes moot is abandoned. Odd threads also start one
//! iteration deeper and try quiet moves in another order (lazy SMP).

use crate::node::{Halt, Worker, UNLIMITED};
use crate::probe::Probe;
use crate::progress::Observer;
use crate::shared::Shared;
use crate::tt::Tt;
use mancala_rules::{Board, Rules};

/// What every thread needs.
#[derive(Clone, Copy)]
pub struct Setup<'a> {
    pub rules: &'a Rules,
    pub probe: Option<&'a Probe<'a>>,
    pub tt: &'a Tt,
    pub threads: usize,
    /// Depth-limited iterations before the unlimited one.
    pub id_depth: u32,
}

/// Stack for a search thread: the recursion can follow a long game.
const STACK: usize = 256 << 20;

/// The result of a run on one position.
pub struct Run {
    /// Proven bounds (equal unless the run was a fixed-depth one).
    pub lo: i32,
    pub hi: i32,
    /// The last heuristic value (fixed-depth runs).
    pub guess: i32,
    pub nodes: u64,
}

/// What a run is after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The exact value.
    Exact,
    /// Whether the value is at least this.
    AtLeast(i32),
    /// The heuristic value at this depth, on one thread (reproducible node counts).
    Depth(u32),
}

impl Goal {
    fn settled(self, lo: i32, hi: i32) -> bool {
        match self {
            Goal::AtLeast(t) => lo >= t || hi < t,
            _ => lo >= hi,
        }
    }
}

/// Runs the threads on `b` until `goal` is settled.
pub fn run(setup: Setup<'_>, b: Board, goal: Goal, observer: &dyn Observer) -> Result<Run, Halt> {
    let n = b.total() as i32;
    let shared = Shared::new(-n, n);
    let fixed_depth = match goal {
        Goal::Depth(d) => Some(d),
        _ => None,
    };
    let probe = setup.probe;
    let threads = if fixed_depth.is_some() {
        1
    } else {
        setup.threads.max(1)
    };
    let results: Vec<Result<(u64, i32), Halt>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|id| {
                let shared = &shared;
                let obs = (id == 0).then_some(observer);
                std::thread::Builder::new()
                    .stack_size(STACK)
                    .spawn_scoped(s, move || {
                        let mut w = Worker::new(setup.rules, probe, setup.tt, shared, id, obs);
                        let guess = drive(&mut w, setup, b, goal);
                        w.flush();
                        match w.halt.take() {
                            Some(h) => Err(h),
                            None => Ok((w.nodes, guess)),
                        }
                    })
                    .expect("spawn a search thread")
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err(Halt::TooDeep)))
            .collect()
    });
    let mut nodes = 0;
    let mut guess = 0;
    for (i, r) in results.into_iter().enumerate() {
        let (k, g) = r?;
        nodes += k;
        if i == 0 {
            guess = g;
        }
    }
    let (lo, hi) = shared.bounds();
    Ok(Run {
        lo,
        hi,
        guess,
        nodes,
    })
}

/// One thread's iterations. Returns its last heuristic value.
fn drive(w: &mut Worker<'_>, setup: Setup<'_>, b: Board, goal: Goal) -> i32 {
    let shared_bounds = |w: &Worker<'_>| w.shared().bounds();
    let fixed_depth = match goal {
        Goal::Depth(d) => Some(d),
        _ => None,
    };
    let last = fixed_depth.unwrap_or(setup.id_depth);
    let mut d = 1 + (w.id % 2) as u32;
    let mut guess = 0;
    w.abort_when_moot = fixed_depth.is_none();
    loop {
        let unlimited = d > last;
        if unlimited && fixed_depth.is_some() {
            return guess;
        }
        let depth = if unlimited { UNLIMITED } else { d as i32 };
        w.depth_shown = (!unlimited).then_some(d);
        let (mut hl, mut hu) = shared_bounds(w);
        let mut g = guess;
        while hl < hu {
            let (lo, hi) = shared_bounds(w);
            if w.shared().stopped() || goal.settled(lo, hi) {
                w.shared().stop();
                return g;
            }
            hl = hl.max(lo);
            hu = hu.min(hi);
            if hl >= hu {
                break;
            }
            g = g.max(hl).min(hu);
            let mut gamma = if g > hl { g } else { g + 1 };
            if w.id % 2 == 1 && gamma < hu {
                gamma += 1;
            }
            if let Goal::AtLeast(t) = goal {
                gamma = t;
            }
            w.gamma = gamma;
            w.aborted = false;
            let r = w.search(b, gamma, depth, 0);
            if w.halt.is_some() {
                return g;
            }
            if w.aborted {
                continue;
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
            if w.id == 0 {
                w.report_now();
            }
            if let Goal::AtLeast(_) = goal {
                // One test per depth: repeating it at the same depth would give the same answer.
                break;
            }
        }
        guess = g;
        let (lo, hi) = shared_bounds(w);
        if goal.settled(lo, hi) {
            w.shared().stop();
            return guess;
        }
        if fixed_depth == Some(d) {
            return guess;
        }
        if !unlimited {
            d += 1;
        }
    }
}
