//! Which positions other threads are searching right now (simplified ABDADA).
//!
//! Two threads on the same proof follow the same move order, so without help they walk into
//! the same subtrees and repeat each other's work until one of them stores a result. Before
//! searching any move but a node's first, a thread asks whether another thread is inside that
//! child; if so it defers the move to the end of its list and takes the next one. Nodes right
//! above the tables are not marked (`DEFER_HEIGHT` in `node`): there a subtree is a few nodes
//! and the bookkeeping costs what it saves. Marks only reorder moves, so results stay exact.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

const SLOTS: usize = 1 << 15;

pub struct Busy {
    slots: Vec<AtomicU64>,
}

impl Default for Busy {
    fn default() -> Self {
        Busy {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl Busy {
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key as usize) & (SLOTS - 1)]
    }

    /// Is another thread searching the position with this key?
    #[inline]
    pub fn marked(&self, key: u64) -> bool {
        self.slot(key).load(Relaxed) == key
    }

    /// Marks the position as being searched (a collision just overwrites: marks are hints).
    #[inline]
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key, Relaxed);
    }

    /// Clears the mark, unless the slot now belongs to another position (a mark made in the
    /// instant between the look and the clearing is lost: a lost hint).
    #[inline]
    pub fn leave(&self, key: u64) {
        // A load and a store rather than a compare-and-swap: the swap's locked instruction is
        // paid at nearly every node, and losing a race only loses a hint.
        let slot = self.slot(key);
        if slot.load(Relaxed) == key {
            slot.store(0, Relaxed);
        }
    }
}
