//! Endgame tables for the two-row sowing games: one file per rule set and tier, built by
//! parallel retrograde analysis, memory-mapped for probing, optionally zstd-compressed,
//! checksummed and verified.
//!
//! ```
//! use mancala_rules::{Preset, Rules, Variant};
//! use mancala_tables::{build, BuildOptions, Tables};
//!
//! let rules = Rules::new(Variant::preset(Preset::Awari));
//! let dir = std::env::temp_dir().join(format!("mancala-tables-doc-{}", std::process::id()));
//! let opts = BuildOptions { dir: dir.clone(), max_seeds: 8, compress: false, memory: None, checkpoint_every: None, repair: false };
//! let reports = build(&rules, &opts, &()).unwrap();
//! assert_eq!(reports.len(), 9); // tiers 0..=8
//! assert_eq!(reports[8].positions, 75_504);
//!
//! // Two seeds each in front of the mover's last pit and the opponent's first: the mover
//! // sows one seed across and captures two, and cannot lose the rest.
//! let tables = Tables::open(&dir, &rules, 8, true).unwrap();
//! let b = mancala_rules::parse_position(&rules, "0 0 0 0 0 1 1 0 0 0 0 0").unwrap();
//! assert_eq!(tables.probe(b).unwrap(), Some(2));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```
//!
//! A table value is the net future gain of the side to move (docs/rules.md, Conventions), so
//! one table serves every score. A capture or a store leaves the tier for a lower one, so tier
//! `n` only ever waits on itself: lower tiers are final before it starts.
//!
//! The crate's parts: [`core`] (what every tier solver shares), the solvers ([`solve_tier`]),
//! the file format ([`format`], [`Table`]), the compressed form (`codec`), a set of tiers
//! opened together ([`Tables`]), the builder ([`build`], [`pack`]) and the verifier
//! ([`verify`]).

#![warn(missing_docs)]

mod build;
mod bytes;
pub mod checked;
pub mod cluster;
mod codec;
pub mod core;
mod distributed;
mod files;
pub mod format;
mod lock;
mod machine;
mod mapped;
pub mod plan;
pub mod published;
mod set;
mod solver;
mod table;
mod verify;

pub use build::{build, pack, BuildObserver, BuildOptions, TierReport};
pub use bytes::Bytes;
pub use cluster::Cluster;
pub use core::{LowerTiers, Progress, MAX_TIER};
pub use distributed::build_distributed;
pub use machine::{peak_rss_mb, physical_memory};
pub use set::Tables;
pub use solver::{progress_units, solve_tier, Checkpoint, Layout, Resume, MAX_STATE_TIER};
pub use table::{tier_path, write_table, write_table_from_parts, Table};
pub use verify::{
    open_checked, verify, verify_tables, verify_with, verify_within, BadEntry, VerifyObserver,
    VerifyOptions, VerifyReport, JOURNAL,
};

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
    /// A table of another format version.
    #[error(
        "{path}: table format version {found}; this program reads version {}",
        format::VERSION
    )]
    Version {
        /// The file.
        path: PathBuf,
        /// The version in its header.
        found: u32,
    },
    /// Something other than a regular file is where a table should be.
    #[error("{path} is {what}, not a table file")]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What is there: "a folder", "a named pipe (FIFO)", ...
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
            | FileError::NotAFile { path, .. }
            | FileError::WrongVariant { path, .. } => path,
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
    /// A table file is unreadable, damaged or foreign.
    #[error(transparent)]
    File(#[from] FileError),
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
    #[error("{} (tier {} of {key}) stores {} at rank {} (position {:?}), but its moves give {}", bad.path.display(), bad.tier, bad.stored, mancala_rules::Grouped(bad.rank as u128), bad.position, bad.recomputed)]
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

impl TableError {
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
            FileError::io(file, e).into()
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

/// Hints the CPU to fetch the cache line holding `x`.
#[inline(always)]
pub fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and has no visible effect; SSE is part of x86_64.
    unsafe {
        std::arch::x86_64::_mm_prefetch(x as *const T as *const i8, std::arch::x86_64::_MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
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
            matches!(&e, TableError::File(f) if f.path() == file),
            "{e:?}"
        );
    }
}
