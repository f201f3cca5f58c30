//! The crate's errors, at the bottom of its imports: what is wrong with one table file
//! ([`FileError`]), and why a set of tables cannot answer or be built ([`TableError`]). They
//! say what is wrong, in neutral words; what to do about it is the caller's to say (the
//! command line and the web oracle each turn them into their own advice).

use std::path::{Path, PathBuf};

/// What is wrong with one table file. Each error names the file; what to do about it is the
/// caller's to say (the command line suggests the command that rebuilds it).
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file could not be read or written.
    #[error("{path}: {cause}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said (part of the message, so not repeated as a
        /// source).
        cause: std::io::Error,
    },
    /// The file is not a table as this program writes them, or is damaged in its structure.
    #[error("{path}: {why}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong, e.g. "payload is 10 bytes, the header says 20 (truncated or padded)".
        why: String,
    },
    /// A table of a format version this program does not read (for this rule set: an
    /// Awari-type table reads only the versions of its order).
    #[error("{path}: table format version {found}; this program reads {}", versions(*first, *last))]
    Version {
        /// The file.
        path: PathBuf,
        /// The version in its header.
        found: u32,
        /// The oldest version read.
        first: u32,
        /// The newest version read (the one written).
        last: u32,
    },
    /// Something other than a regular file is where a table should be.
    #[error("{path} is {what}, not a table file")]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What is there: "a folder", "a named pipe (FIFO)", ...
        what: &'static str,
    },
    /// Something other than a folder is where a table folder (or one of its parents) should be.
    #[error("{path} is {what}, not a folder (tables are written into a folder of that name)")]
    NotAFolder {
        /// The path.
        path: PathBuf,
        /// What is there: "a file", "a named pipe (FIFO)", ...
        what: &'static str,
    },
    /// The payload does not match the checksum in the header.
    #[error("{path}: payload checksum mismatch (the file is damaged)")]
    Checksum {
        /// The file.
        path: PathBuf,
    },
    /// The file was changed in place while it was open (cut short, or another file copied
    /// over it): what was read from it since cannot be trusted. Tables are replaced by
    /// writing a new file and renaming it over the old one, which never does this.
    #[error(
        "{path} was changed in place while it was open (cut short, or another file copied over it)"
    )]
    Changed {
        /// The file.
        path: PathBuf,
    },
    /// The file behind an open table is no longer the one opened: written since, another file
    /// renamed over it (as `mancala build` replaces a damaged tier), removed, or a tier that
    /// was missing is now there. Whatever was read came from the file as it was opened, which
    /// a long-lived reader must not go on answering from.
    #[error(
        "{path} was replaced, written or removed after the tables were opened (a build or repair beside this reader?)"
    )]
    Replaced {
        /// The file.
        path: PathBuf,
    },
    /// A table of another rule set.
    #[error("{path}: built for rule set '{found}', not '{expected}'")]
    WrongVariant {
        /// The file.
        path: PathBuf,
        /// The rule set in its header.
        found: String,
        /// The rule set asked for.
        expected: String,
    },
}

impl FileError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            FileError::Io { path, .. }
            | FileError::Corrupt { path, .. }
            | FileError::Version { path, .. }
            | FileError::Checksum { path }
            | FileError::Changed { path }
            | FileError::Replaced { path }
            | FileError::NotAFile { path, .. }
            | FileError::NotAFolder { path, .. }
            | FileError::WrongVariant { path, .. } => path,
        }
    }

    /// This error as one of tier `tier` of the rule set `key`.
    pub(crate) fn of_tier(self, key: &str, tier: usize) -> TableError {
        TableError::File {
            file: self,
            key: Some(key.into()),
            tier: Some(tier as u32),
        }
    }

    pub(crate) fn io(path: &Path, cause: std::io::Error) -> FileError {
        FileError::Io {
            path: path.to_path_buf(),
            cause,
        }
    }

    pub(crate) fn corrupt(path: &Path, why: impl Into<String>) -> FileError {
        FileError::Corrupt {
            path: path.to_path_buf(),
            why: why.into(),
        }
    }
}

/// Why a set of tables cannot answer, or cannot be built: a file's problem ([`FileError`]),
/// or one of the request itself (a tier that is not built, one too large to build).
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// A table file is unreadable, damaged or foreign: the file's own error, with the rule
    /// set and the tier whose file it is when it is one tier's (a caller then needs not read
    /// them back out of the file's name).
    #[error("{file}")]
    File {
        /// What is wrong with the file.
        file: FileError,
        /// The rule set's key, when the file is one of its tiers (boxed: the error stays
        /// small, as every `Result` that carries it).
        key: Option<Box<str>>,
        /// The tier, when the file is one tier's.
        tier: Option<u32>,
    },
    /// A tier that the question needs is not built.
    #[error("tier {tier} of {key} is not built in {dir}")]
    Missing {
        /// The seeds of the missing tier.
        tier: usize,
        /// The rule set's key (its folder name).
        key: String,
        /// The table folder.
        dir: PathBuf,
    },
    /// A tier is missing below tiers that are built (its file deleted or lost). Every tier
    /// above it is compressed or decoded from the tiers below, so [`crate::pack`] refuses
    /// the set before it rewrites a file, rather than stop at the gap and leave the tiers
    /// above it as they were.
    #[error(
        "tier {tier} of {key} is not built in {dir}, but tiers above it are (up to tier {above})"
    )]
    Gap {
        /// The seeds of the lowest missing tier.
        tier: usize,
        /// The highest tier built above it.
        above: usize,
        /// The rule set's key (its folder name).
        key: String,
        /// The table folder.
        dir: PathBuf,
    },
    /// A tier's file of the published Awari database is not in the folder.
    #[error("scores.{tier}, the published database's file of tier {tier}, is not in {dir}")]
    MissingPublished {
        /// The seeds of the missing tier.
        tier: usize,
        /// The folder of the published files.
        dir: PathBuf,
    },
    /// The rule set does not order its tiers as the published Awari database does.
    #[error("{key} is not in the published database's order (only the Awari type is)")]
    NotPublished {
        /// The rule set's key.
        key: String,
    },
    /// A tier cannot be built: too many seeds, or too many positions for this builder.
    #[error("tier {tier} of {key} cannot be built: {why}")]
    TooLarge {
        /// The seeds of the tier.
        tier: usize,
        /// The rule set's key.
        key: String,
        /// Why, with the limit that was passed.
        why: String,
    },
    /// Another build (or pack) is writing the rule set's folder.
    #[error("another build or pack is writing {folder} (it holds {})", folder.join(".lock").display())]
    Busy {
        /// The rule set's folder.
        folder: PathBuf,
    },
    /// A distributed build cannot do what was asked.
    #[error("{key}: {what}")]
    NotDistributed {
        /// The rule set's key.
        key: String,
        /// What it cannot do.
        what: NotDistributed,
    },
    /// Another process of a distributed build failed; its own error says why.
    #[error("tier {tier} of {key}: {why}")]
    Cluster {
        /// The seeds of the tier.
        tier: usize,
        /// The rule set's key.
        key: String,
        /// What this process knows of it.
        why: String,
    },
    /// A tier's file is whole, but a value in it is not its best move's value.
    #[error("{} (tier {} of {key}) stores {} at rank {} (position {:?}), but its moves give {}", bad.path.display(), bad.tier, bad.stored, mancala_rules::Grouped(bad.rank as u128), bad.position, bad.recomputed_text())]
    WrongValue {
        /// The rule set's key.
        key: String,
        /// The first wrong value.
        bad: Box<BadEntry>,
    },
    /// No plan builds the tier within the memory budget.
    #[error("tier {tier} of {key} does not fit in a budget of {} of memory: {needed_mb} MB would do", budget_text(*budget), needed_mb = needed.div_ceil(1 << 20))]
    Memory {
        /// The seeds of the tier (the first one that does not fit).
        tier: usize,
        /// The rule set's key.
        key: String,
        /// Bytes the smallest plan needs: of the tier, or, from a plan of several tiers, of
        /// the one that needs the most (a budget that lets every tier through).
        needed: u64,
        /// Bytes allowed.
        budget: u64,
    },
    /// A build holds the compressed tiers below the one it builds decoded in memory (every
    /// tier, with `--compress`; else those packed already), and those of this tier would not
    /// fit in the machine's.
    #[error("tier {tier} of {key}: the build would hold the compressed tiers below it decoded in memory, {needed_mb} MB with the tier's own, and this machine has {memory_mb} MB", needed_mb = needed.div_ceil(1 << 20), memory_mb = memory >> 20)]
    CompressedTooBig {
        /// The seeds of the tier.
        tier: usize,
        /// The rule set's key.
        key: String,
        /// Bytes it would hold.
        needed: u64,
        /// The machine's physical memory, bytes.
        memory: u64,
    },
    /// Reading these tables needs their compressed tiers decoded in memory (the search and
    /// the verifier probe them at random), more than the machine has.
    #[error("the compressed tiers of {key} take {needed_mb} MB decoded in memory, and this machine has {memory_mb} MB", needed_mb = needed.div_ceil(1 << 20), memory_mb = memory >> 20)]
    TooBigToDecode {
        /// The rule set's key.
        key: String,
        /// Bytes the decoded tiers would take.
        needed: u64,
        /// The machine's physical memory, bytes.
        memory: u64,
    },
    /// The memory for a tier's working arrays could not be had (an address-space limit such
    /// as `ulimit -v`, or a kernel that does not overcommit).
    #[error("tier {tier} of {key}: {why}")]
    OutOfMemory {
        /// The seeds of the tier.
        tier: usize,
        /// The rule set's key.
        key: String,
        /// What could not be had, and the system's reason.
        why: String,
    },
    /// The rule set cannot be indexed to that size.
    #[error(transparent)]
    Index(#[from] mancala_index::IndexError),
}

impl From<FileError> for TableError {
    /// A file's error with no tier known (a folder, or a file no tier owns).
    fn from(file: FileError) -> TableError {
        TableError::File {
            file,
            key: None,
            tier: None,
        }
    }
}

impl TableError {
    /// The file's error, when this is one.
    pub fn file(&self) -> Option<&FileError> {
        match self {
            TableError::File { file, .. } => Some(file),
            _ => None,
        }
    }

    /// The error of a solver's run on tier `tier`: its memory, or else the I/O of `file`
    /// (the solver writes only its exit file and its checkpoint).
    pub(crate) fn of_solver(
        e: std::io::Error,
        key: String,
        tier: usize,
        file: &Path,
    ) -> TableError {
        if e.kind() == std::io::ErrorKind::OutOfMemory {
            TableError::OutOfMemory {
                tier,
                key,
                why: e.to_string(),
            }
        } else {
            FileError::io(file, e).of_tier(&key, tier)
        }
    }
}

/// A stored value that disagrees with the position's moves.
#[derive(Debug, Clone)]
pub struct BadEntry {
    /// The tier's file.
    pub path: PathBuf,
    /// The tier.
    pub tier: usize,
    /// The position's rank in its tier.
    pub rank: u64,
    /// Its pits, mover-relative.
    pub position: Vec<u8>,
    /// The value in the file.
    pub stored: i32,
    /// The best move's value from the children (`None` when a child's tier is missing).
    pub recomputed: Option<i32>,
}

impl BadEntry {
    /// What the moves give, in words: the value, or that a lower tier is missing.
    pub fn recomputed_text(&self) -> String {
        match self.recomputed {
            Some(v) => v.to_string(),
            None => "nothing (a lower tier is missing)".to_string(),
        }
    }
}

/// What a distributed build cannot do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NotDistributed {
    /// Its processes find predecessors by un-sowing, which relay sowing does not allow.
    #[error(
        "a distributed build finds predecessors by un-sowing, and relay sowing cannot be un-sown"
    )]
    RelaySowing,
    /// It writes raw tables.
    #[error("a distributed build writes raw tables (they can be compressed once built)")]
    Compression,
}

/// The versions read, in words: "version 3", "versions 2 and 3", "versions 1 to 3".
fn versions(first: u32, last: u32) -> String {
    match last - first {
        0 => format!("version {last}"),
        1 => format!("versions {first} and {last}"),
        _ => format!("versions {first} to {last}"),
    }
}

/// A budget in words: whole MB from 1 MB up, KB or bytes below (a budget of 1K is not "0 MB").
fn budget_text(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 => format!("{} MB", b >> 20),
        b if b >= 1 << 10 => format!("{} KB", b >> 10),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solver's failure to get memory names the tier, not a file; any other failure is
    /// the I/O of the file it names.
    #[test]
    fn a_solvers_error_is_its_memory_or_its_file() {
        let file = Path::new("t/awari-6x4/tier-018.exits");
        let oom = std::io::Error::new(std::io::ErrorKind::OutOfMemory, "32 MB of memory");
        let e = TableError::of_solver(oom, "awari-6x4".into(), 18, file);
        assert!(
            matches!(&e, TableError::OutOfMemory { tier: 18, key, .. } if key == "awari-6x4"),
            "{e:?}"
        );
        assert_eq!(e.to_string(), "tier 18 of awari-6x4: 32 MB of memory");
        let full = std::io::Error::new(std::io::ErrorKind::StorageFull, "no space");
        let e = TableError::of_solver(full, "awari-6x4".into(), 18, file);
        assert!(
            matches!(&e, TableError::File { file: f, tier: Some(18), .. } if f.path() == file),
            "{e:?}"
        );
    }
}
