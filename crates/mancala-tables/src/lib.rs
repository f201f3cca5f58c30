//! Endgame tables for the two-row sowing games: one file per rule set and tier, built by
//! parallel retrograde analysis, memory-mapped for probing, optionally zstd-compressed,
//! checksummed and verified.
//!
//! ```
//! use mancala_rules::{Preset, Rules, Variant};
//! use mancala_tables::{build, BuildOptions, Payload, Tables};
//!
//! let rules = Rules::new(Variant::preset(Preset::Awari));
//! let dir = std::env::temp_dir().join(format!("mancala-tables-doc-{}", std::process::id()));
//! let opts = BuildOptions { dir: dir.clone(), max_seeds: 8, ..BuildOptions::default() };
//! let reports = build(&rules, &opts, &()).unwrap();
//! assert_eq!(reports.len(), 9); // tiers 0..=8
//! assert_eq!(reports[8].positions, 75_504);
//!
//! // Two seeds each in front of the mover's last pit and the opponent's first: the mover
//! // sows one seed across and captures two, and cannot lose the rest.
//! let tables = Tables::open(&dir, &rules, 8, Payload::Checked).unwrap();
//! let b = mancala_rules::parse_position(&rules, "0 0 0 0 0 1 1 0 0 0 0 0").unwrap();
//! assert_eq!(tables.probe(b).unwrap(), Some(2));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```
//!
//! A table value is the net future gain of the side to move (docs/rules.md, Conventions), so
//! one table serves every score. A capture or a store leaves the tier for a lower one, so tier
//! `n` only ever waits on itself: lower tiers are final before it starts.
//!
//! The crate's homes: `error` (its errors, at the bottom), [`core`] (what every tier solver
//! shares), `solver/` (the solvers, [`solve_tier`]), `store/` (the files: their names, the
//! format ([`format`], [`Table`]), the compressed form, the atomic writes and the lock, the
//! published database's files), `set` and `summary` (a set of tiers opened together,
//! [`Tables`]), `build/` (the driver [`build`] and [`build_distributed`], the tier built in one
//! process or split across a [`cluster`], the [`plan`], [`pack`]) and `verify/` (the verifier,
//! [`verify`]).

#![warn(missing_docs)]

mod build;
mod bytes;
pub mod core;
mod error;
mod machine;
mod set;
mod solver;
mod store;
mod summary;
mod verify;

pub use build::cluster::{self, Cluster};
pub use build::plan;
pub use build::single::{pack, BuildObserver, BuildOptions, TierReport};
pub use build::{build, build_distributed};
pub use bytes::Bytes;
pub use core::{top_tier, LowerTiers, Progress, MAX_TIER};
pub use error::{BadEntry, FileError, NotDistributed, TableError};
pub use machine::{available_memory, peak_rss_mb, physical_memory};
pub use set::{Payload, Tables};
pub use solver::{progress_units, solve_tier, Checkpoint, Layout, Resume, MAX_STATE_TIER};
pub use store::checked;
pub use store::files;
pub use store::format;
pub use store::published;
pub use store::table::{write_table, write_table_from_parts, Identity, Table, Watching};
pub use store::tier_files::{tier_path, TierFiles};
pub use summary::TierSummary;
pub use verify::{
    open_checked, verify, verify_tables, verify_with, verify_within, VerifyObserver, VerifyOptions,
    VerifyReport, JOURNAL,
};

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
