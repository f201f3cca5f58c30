//! Endgame tables for the two-row sowing games: one file per rule set and tier, built by
//! parallel retrograde analysis, memory-mapped for probing, optionally zstd-compressed.
//!
//! A table value is the net future gain of the side to move (RULES.md), so one table serves
//! every score. Tier `n` only ever waits on itself: lower tiers are final before it starts.

mod build;
mod bytes;
mod codec;
pub mod format;
mod graph;
mod kalah_rows;
mod levels;
mod rounds;
mod set;
mod solve;
mod table;
mod verify;

pub use build::{build, pack, BuildObserver, BuildOptions, TierReport};
pub use set::{peak_rss_mb, Tables};
pub use solve::{progress_units, solve_tier, LowerTiers, Progress};
pub use table::{tier_path, write_table, Table};
pub use verify::{verify, VerifyReport};

use std::path::{Path, PathBuf};

/// Everything that can go wrong with a table, with what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {why}; delete it and run `mancala build` again")]
    Corrupt { path: PathBuf, why: String },
    #[error("{path}: table format version {found}, this program reads version {}; rebuild it with `mancala build`", format::VERSION)]
    Version { path: PathBuf, found: u32 },
    #[error("{path}: payload checksum mismatch (the file is damaged); delete it and run `mancala build` again")]
    Checksum { path: PathBuf },
    #[error(
        "{path}: built for rule set '{found}', not '{expected}'; point --dir elsewhere or rebuild"
    )]
    WrongVariant {
        path: PathBuf,
        found: String,
        expected: String,
    },
    #[error("tier {tier} of {key} is not built in {dir}; run `{command}`")]
    Missing {
        tier: usize,
        key: String,
        dir: PathBuf,
        command: String,
    },
    #[error("{0}")]
    Index(#[from] mancala_index::IndexError),
    #[error("tier {tier} is too large for this build ({why})")]
    TooLarge { tier: usize, why: String },
}

impl TableError {
    pub(crate) fn io(path: &Path, source: std::io::Error) -> TableError {
        TableError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
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
