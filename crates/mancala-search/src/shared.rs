//! State the search threads share besides the transposition table: the proven root bounds,
//! the stop flag and the node count.

use crate::busy::Busy;
use crate::interrupt::Interrupt;
use crate::root::TaskSet;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex};
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
    /// The task set the helpers should work on, numbered.
    work: Mutex<(u64, Option<Arc<TaskSet>>)>,
    posted: Condvar,
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
            work: Mutex::new((0, None)),
            posted: Condvar::new(),
            busy: (threads > 1).then(Busy::default),
            interrupt,
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
        let _guard = self.work.lock().unwrap_or_else(|e| e.into_inner());
        self.posted.notify_all();
    }

    /// Hands a task set to the helpers.
    pub fn post(&self, set: Arc<TaskSet>) {
        let mut w = self.work.lock().unwrap_or_else(|e| e.into_inner());
        w.0 += 1;
        w.1 = Some(set);
        self.posted.notify_all();
    }

    /// Waits for a task set newer than number `seen`; `None` once the search stops.
    pub fn next_work(&self, seen: u64) -> Option<(u64, Arc<TaskSet>)> {
        let mut w = self.work.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if self.stopped() {
                return None;
            }
            if w.0 > seen {
                if let Some(set) = &w.1 {
                    return Some((w.0, set.clone()));
                }
            }
            w = self.posted.wait(w).unwrap_or_else(|e| e.into_inner());
        }
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
