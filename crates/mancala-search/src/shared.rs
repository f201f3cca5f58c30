//! State the search threads share besides the transposition table: the proven root bounds,
//! the stop flag and the node count.

use crate::busy::Busy;
use crate::interrupt::Interrupt;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

pub struct Shared {
    lo: AtomicI32,
    hi: AtomicI32,
    stop: AtomicBool,
    /// Nodes published by the threads (each adds its count in batches).
    nodes: AtomicU64,
    pub started: Instant,
    /// Seconds after `started` at which the search stops.
    deadline: Option<f64>,
    /// Subtrees under way, when more than one thread searches.
    pub busy: Option<Busy>,
    /// Raised from outside when the answer is no longer wanted.
    interrupt: Option<Interrupt>,
}

impl Shared {
    pub fn new(
        lo: i32,
        hi: i32,
        deadline: Option<f64>,
        threads: usize,
        interrupt: Option<Interrupt>,
    ) -> Shared {
        Shared {
            lo: AtomicI32::new(lo),
            hi: AtomicI32::new(hi),
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            started: Instant::now(),
            deadline,
            busy: (threads > 1).then(Busy::default),
            interrupt,
        }
    }

    /// Does the search stop at a set time?
    pub fn has_deadline(&self) -> bool {
        self.deadline.is_some()
    }

    /// Proven bounds on the root value.
    pub fn bounds(&self) -> (i32, i32) {
        (self.lo.load(Relaxed), self.hi.load(Relaxed))
    }

    pub fn raise_lo(&self, v: i32) {
        self.lo.fetch_max(v, Relaxed);
    }

    pub fn lower_hi(&self, v: i32) {
        self.hi.fetch_min(v, Relaxed);
    }

    /// Both ends at once: the root is worth at least `lo` and at most `hi`.
    pub fn narrow(&self, (lo, hi): (i32, i32)) {
        self.raise_lo(lo);
        self.lower_hi(hi);
    }

    pub fn stop(&self) {
        self.stop.store(true, Relaxed);
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Relaxed)
    }

    pub fn add_nodes(&self, n: u64) {
        self.nodes.fetch_add(n, Relaxed);
    }

    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }

    /// Stops the search if its time is up or its asker has gone.
    pub fn check_time(&self) {
        let gone = self.interrupt.as_ref().is_some_and(Interrupt::is_raised);
        if gone || self.deadline.is_some_and(|d| self.seconds() >= d) {
            self.stop();
        }
    }

    pub fn seconds(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }
}
