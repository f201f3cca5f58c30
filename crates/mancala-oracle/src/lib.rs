//! One door to perfect play: open the tables of a rule set and ask for the value of a
//! position, the value of every move, the best moves and a principal variation. The oracle
//! reads the tables where they hold the position and every position its moves lead to, and
//! searches exactly above them otherwise; it says which it did.
//!
//! ```
//! use mancala_oracle::{Oracle, Settings, Source, TableSize};
//! use mancala_rules::{parse_position, Preset, Rules, Variant};
//!
//! let dir = std::env::temp_dir().join(format!("mancala-oracle-doc-{}", std::process::id()));
//! let settings = Settings { dir: dir.clone(), tables: TableSize::UpTo(12), ..Settings::default() };
//! let mut oracle = Oracle::new(Rules::new(Variant::preset(Preset::Awari)), settings);
//!
//! // Build tiers 0..=12 (a fraction of a second) and open them.
//! let plan = oracle.plan_tables(12).unwrap().unwrap();
//! assert!(plan.build);
//! oracle.use_tables(&plan, &()).unwrap();
//!
//! // Sowing the last pit's two seeds captures the opponent's pit of one seed made two.
//! let b = parse_position(oracle.rules(), "0 0 0 0 0 2 1 1 0 0 0 0").unwrap();
//! let a = oracle.query(b, &()).unwrap();
//! assert_eq!(a.source, Source::Table);
//! assert_eq!(a.best, vec![5]);
//! assert_eq!(oracle.principal_variation(b).unwrap()[0], 5);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```
//!
//! [`PackedFamily`] puts the packed two-row presets (the ones with tables) behind the common
//! game interface of `mancala-rules`, with the oracle as their engine.

#![warn(missing_docs)]

mod family;
pub mod json;
mod oracle;
mod present;
mod settings;

pub use family::{family_name, game, preset_options, PackedFamily};
pub use mancala_index::Unreachable;
pub use mancala_search::{
    Claim, Interrupt, KeepError, MoveValue, Observer, OnMove, Opened, Options, Progress, Saved,
    Solution, Step, TableFile,
};
pub use oracle::{open_checked, Answer, Oracle, Source, TablePlan};
pub use present::{highest_published, highest_tier};
pub use settings::{default_tables, Settings, TableSize};

use mancala_rules::Board;
use std::path::PathBuf;

/// Why a question could not be answered. Errors about a table file stay inside
/// [`mancala_tables::TableError`]; the others are about the question.
#[derive(Debug, thiserror::Error)]
pub enum OracleError {
    /// The tables are missing, damaged or cannot be built.
    #[error(transparent)]
    Table(#[from] mancala_tables::TableError),
    /// The search could not finish.
    #[error(transparent)]
    Search(#[from] mancala_search::SearchError),
    /// A child of a covered position is not in the index: the rules and the index disagree.
    #[error("position {position:?} is not in the index")]
    NotIndexed {
        /// The position.
        position: Board,
    },
    /// A stored value disagrees with the values of the position's moves.
    #[error("the tables of {key} in {dir} say {stored} for the position {text} but its moves give {best}: the tables are inconsistent")]
    Inconsistent {
        /// The position.
        position: Board,
        /// The position as a command takes it: its pit counts, the side to move's first.
        text: String,
        /// Whether the tables are the published database's files (`dir` is then their
        /// folder, which `mancala verify` does not read: the files are to be fetched again).
        published: bool,
        /// The value stored for it.
        stored: i32,
        /// The best of its moves' values.
        best: i32,
        /// The rule set's key.
        key: String,
        /// The table folder.
        dir: PathBuf,
    },
}

impl OracleError {
    /// The tables' error, whichever way it came: from the oracle's own reads or from the
    /// search's (a tier not built, a damaged file); the one place to ask for it.
    pub fn table(&self) -> Option<&mancala_tables::TableError> {
        match self {
            OracleError::Table(t) | OracleError::Search(mancala_search::SearchError::Table(t)) => {
                Some(t)
            }
            _ => None,
        }
    }
}
