//! Long calls run off the interpreter's lock and stop on Ctrl-C: the work runs on a thread
//! of its own while the calling thread looks for a signal every [`EVERY`]; on one it raises
//! the work's [`Interrupt`], waits for the work to stop and returns the signal's exception
//! (`KeyboardInterrupt`).

use crate::errors::MancalaError;
use mancala_search::Interrupt;
use pyo3::prelude::*;
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::Duration;

/// How often the calling thread looks for a signal.
const EVERY: Duration = Duration::from_millis(50);

/// Runs `work` without the interpreter's lock; Ctrl-C raises `interrupt`, which `work` must
/// heed, and the call then ends in `KeyboardInterrupt` whatever `work` returned.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    interrupt: &Interrupt,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    py.detach(|| {
        std::thread::scope(|s| {
            let (done, finished) = channel();
            let worker = s.spawn(move || {
                let out = work();
                // The receiver waits until this is sent (or the thread ends).
                let _ = done.send(());
                out
            });
            let mut signal = None;
            loop {
                match finished.recv_timeout(EVERY) {
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => break,
                    Err(RecvTimeoutError::Timeout) if signal.is_none() => {
                        if let Err(e) = Python::attach(|py| py.check_signals()) {
                            interrupt.raise();
                            signal = Some(e);
                        }
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                }
            }
            let out = worker
                .join()
                .map_err(|_| MancalaError::new_err("internal error: the engine panicked"))?;
            match signal {
                Some(e) => Err(e),
                None => Ok(out),
            }
        })
    })
}
