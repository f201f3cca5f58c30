//! One writer at a time in a rule set's folder: an advisory lock on `<folder>/.lock`, held by
//! a build (or a pack) from its start to its end. Readers take no lock: every file appears
//! under its name only once whole (written under a temporary name, then renamed), so they
//! never see a partial one.

use crate::error::FileError;
use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};

/// The lock, released when dropped (or when the process ends, however it ends).
pub(crate) struct FolderLock {
    _file: File,
}

/// The lock file of a rule set's folder.
pub(crate) fn lock_path(folder: &Path) -> PathBuf {
    folder.join(".lock")
}

/// Takes the lock of `folder` (made if missing). If another process holds it, `busy` is
/// called with the lock's path and then, if `wait`, the lock is waited for; else
/// `Ok(None)`.
pub(crate) fn lock_folder(
    folder: &Path,
    wait: bool,
    busy: impl FnOnce(&Path),
) -> Result<Option<FolderLock>, FileError> {
    crate::store::files::make_folder(folder)?;
    let path = lock_path(folder);
    let io = |e| FileError::io(&path, e);
    let file = crate::store::files::open_own(&path, false).map_err(io)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            busy(&path);
            if !wait {
                return Ok(None);
            }
            file.lock().map_err(io)?;
        }
        Err(TryLockError::Error(e)) => return Err(io(e)),
    }
    Ok(Some(FolderLock { _file: file }))
}
