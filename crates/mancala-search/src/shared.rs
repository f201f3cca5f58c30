//! State the search threads share besides the transposition table: the proven root bounds,
//! the stop flag and the node count.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

pub struct Shared {
    lo: AtomicI32,
    hi: AtomicI32,
    stop: AtomicBool,
    /// Nodes published by the threads (each adds its count in batches).
    nodes: AtomicU64,
    pub started: Instant,
}

impl Shared {
    pub fn new(lo: i32, hi: i32) -> Shared {
        Shared {
            lo: AtomicI32::new(lo),
            hi: AtomicI32::new(hi),
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            started: Instant::now(),
        }
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

    pub fn seconds(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }
}
