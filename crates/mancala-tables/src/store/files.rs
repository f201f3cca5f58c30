//! How this crate opens the files it writes, in one place, so that nothing planted in a table
//! folder can redirect a write.
//!
//! A table folder may be shared, and the commands may run as root: a symbolic link left at
//! `tier-020.mtb.tmp` or `verify.journal` must not make a build overwrite, or a verification
//! append to, the file it points at; a named pipe there must not hang a command or stop every
//! later build. So a file written from scratch (a temporary file, the exits of a tier) is
//! created exclusively after whatever stood at its name is removed (`O_CREAT | O_EXCL` never
//! follows a link), and a file opened to add to or to lock is opened without following a
//! link (`O_NOFOLLOW`), without waiting on a pipe (`O_NONBLOCK`), and only if it is a regular
//! file.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// The temporary name `path` is written under before it is renamed into place: its name with
/// `.tmp` added (`tier-020.mtb.tmp`, `scores.20.tmp`).
pub fn tmp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

/// What a path that is not a regular file is, in words.
pub fn kind_of(meta: &fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_symlink() {
        "a symbolic link"
    } else if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a named pipe (FIFO)"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else {
        "not a regular file"
    }
}

/// Makes `folder` and its parents (as `create_dir_all`), naming what stands in the way where
/// something that is not a folder has one of their names: the bare "File exists (os error
/// 17)" or "Not a directory (os error 20)" said neither where nor what.
pub fn make_folder(folder: &Path) -> Result<(), crate::error::FileError> {
    use crate::error::FileError;
    fs::create_dir_all(folder).map_err(|e| {
        let blocker = folder.ancestors().find_map(|a| {
            let meta = fs::metadata(a).ok()?;
            (!meta.is_dir()).then(|| {
                let what = match meta.is_file() {
                    true => "a file",
                    false => kind_of(&meta),
                };
                (a.to_path_buf(), what)
            })
        });
        match blocker {
            Some((path, what)) => FileError::NotAFolder { path, what },
            None => FileError::io(folder, e),
        }
    })
}

/// Creates `path` empty, for writing (and reading back, if `read`). Whatever stood at that
/// name is removed first: a stale temporary file of a killed run, a symbolic link (the link
/// goes, never its target), a named pipe. A folder there is an error that says so. The file
/// is then created exclusively, so a link planted between the removal and the creation makes
/// the creation fail instead of being followed.
pub fn create_fresh(path: &Path, read: bool) -> io::Result<File> {
    if let Ok(meta) = fs::symlink_metadata(path) {
        if meta.is_dir() {
            return Err(io::Error::other(format!(
                "{} is a folder where a file is written: remove or rename it",
                path.display()
            )));
        }
        fs::remove_file(path)?;
    }
    OpenOptions::new()
        .read(read)
        .write(true)
        .create_new(true)
        .custom_flags(libc::O_CLOEXEC)
        .open(path)
}

/// Writes `path` under its temporary name ([`tmp_path`], created by [`create_fresh`]), syncs
/// it and renames it into place; on failure the temporary file is removed. A reader never
/// sees a partial file.
pub(crate) fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> io::Result<()> {
    if fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()) {
        return Err(io::Error::other(
            "a folder stands where this file is written: remove or rename it",
        ));
    }
    replace(path, false, |_, e| e, |f, _| write(f))
}

/// The steps of a write that a reader never sees half done, for any error type: `path` is
/// written under its temporary name ([`tmp_path`], created by [`create_fresh`], readable too
/// if `read`) by `write` (given the file and its name), synced and renamed into place; on
/// failure the temporary file is removed. `io` turns an I/O error into an `E` naming the file
/// it happened on (the temporary one, or `path` for the rename).
pub fn replace<T, E>(
    path: &Path,
    read: bool,
    io: impl Fn(&Path, io::Error) -> E,
    write: impl FnOnce(&mut File, &Path) -> Result<T, E>,
) -> Result<T, E> {
    let tmp = tmp_path(path);
    let done = (|| {
        let mut f = create_fresh(&tmp, read).map_err(|e| io(&tmp, e))?;
        let out = write(&mut f, &tmp)?;
        f.sync_all().map_err(|e| io(&tmp, e))?;
        drop(f);
        fs::rename(&tmp, path).map_err(|e| io(path, e))?;
        // The rename itself lasts only once the folder is synced; without it a crash may
        // bring back the old file (whole, either way), so a failure here is not an error.
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let _ = File::open(folder).and_then(|d| d.sync_all());
        Ok(out)
    })();
    if done.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    done
}

/// Opens `path` to add to it (`append`) or to lock it, creating it if absent: never through
/// a symbolic link, never waiting on a named pipe, and only a regular file. Anything else at
/// that name is an error that says what it is and what to do.
pub fn open_own(path: &Path, append: bool) -> io::Result<File> {
    let refused = |what: &str| {
        io::Error::other(format!(
            "{} is {what}, not a regular file: this program never writes through one; remove it",
            path.display()
        ))
    };
    let mut options = OpenOptions::new();
    options
        .read(true)
        .create(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC);
    if append {
        options.append(true);
    } else {
        options.write(true);
    }
    let f = match options.open(path) {
        Ok(f) => f,
        Err(e) => {
            // ELOOP: the last part of the name is a link; ENXIO: a pipe without a reader.
            return Err(match fs::symlink_metadata(path) {
                Ok(meta) if !meta.is_file() => refused(kind_of(&meta)),
                _ => e,
            });
        }
    };
    let meta = f.metadata()?;
    if !meta.is_file() {
        return Err(refused(kind_of(&meta)));
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("mancala-files-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    fn read(path: &Path) -> String {
        let mut s = String::new();
        File::open(path).unwrap().read_to_string(&mut s).unwrap();
        s
    }

    #[test]
    fn a_link_at_a_temporary_name_is_replaced_and_its_target_untouched() {
        let d = scratch("link");
        let target = d.join("precious");
        fs::write(&target, "keep me").unwrap();
        let path = d.join("tier-003.mtb");
        std::os::unix::fs::symlink(&target, tmp_path(&path)).unwrap();
        write_atomically(&path, |f| f.write_all(b"table")).unwrap();
        assert_eq!(read(&target), "keep me");
        assert_eq!(read(&path), "table");
        assert!(!tmp_path(&path).exists());
        // A dangling link too, and a link at the name itself is replaced, not followed.
        std::os::unix::fs::symlink(d.join("nowhere"), tmp_path(&path)).unwrap();
        fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink(&target, &path).unwrap();
        write_atomically(&path, |f| f.write_all(b"again")).unwrap();
        assert_eq!(read(&target), "keep me");
        assert!(!fs::symlink_metadata(&path)
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(!d.join("nowhere").exists());
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_pipe_at_a_name_written_afresh_is_cleared() {
        let d = scratch("fifo");
        let path = d.join("tier-030.exits");
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(made.success());
        let mut f = create_fresh(&path, true).unwrap();
        f.write_all(b"exits").unwrap();
        assert!(fs::metadata(&path).unwrap().is_file());
        assert_eq!(read(&path), "exits");
        // A folder is not removed: it is an error that names it.
        let folder = d.join("tier-031.exits");
        fs::create_dir(&folder).unwrap();
        let e = create_fresh(&folder, false).unwrap_err().to_string();
        assert!(
            e.contains("is a folder") && e.contains("tier-031.exits"),
            "{e}"
        );
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn files_added_to_are_never_links_or_pipes() {
        let d = scratch("append");
        let target = d.join("precious");
        fs::write(&target, "keep me").unwrap();
        let journal = d.join("verify.journal");
        std::os::unix::fs::symlink(&target, &journal).unwrap();
        let e = open_own(&journal, true).unwrap_err().to_string();
        assert!(
            e.contains("symbolic link") && e.contains("verify.journal"),
            "{e}"
        );
        assert_eq!(read(&target), "keep me");
        fs::remove_file(&journal).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(&journal)
            .status()
            .unwrap();
        assert!(made.success());
        // Refused at once: no wait for a reader or a writer.
        let e = open_own(&journal, true).unwrap_err().to_string();
        assert!(e.contains("named pipe"), "{e}");
        let e = open_own(&journal, false).unwrap_err().to_string();
        assert!(e.contains("named pipe"), "{e}");
        fs::remove_file(&journal).unwrap();
        // A regular file (or none) is opened, and appended to.
        let mut f = open_own(&journal, true).unwrap();
        f.write_all(b"line\n").unwrap();
        let mut f = open_own(&journal, true).unwrap();
        f.write_all(b"more\n").unwrap();
        assert_eq!(read(&journal), "line\nmore\n");
        fs::remove_dir_all(&d).unwrap();
    }
}
