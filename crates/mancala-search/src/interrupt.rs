//! A way to stop a search from outside it: its asker has gone (a web client that closed its
//! connection), so its answer would be thrown away and its threads are wanted elsewhere.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

/// A flag that a search looks at as often as at its clock (every few thousand nodes, and in
/// every phase of a backward solution). Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct Interrupt(Arc<AtomicBool>);

impl Interrupt {
    /// A flag not yet raised.
    pub fn new() -> Interrupt {
        Interrupt::default()
    }

    /// Asks every search that holds this flag to stop; each ends as if its time had run out.
    pub fn raise(&self) {
        self.0.store(true, Relaxed);
    }

    /// Has it been raised?
    pub fn is_raised(&self) -> bool {
        self.0.load(Relaxed)
    }
}
