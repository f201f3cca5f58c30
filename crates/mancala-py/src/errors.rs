//! The Python exceptions: `ValueError` for a bad position, move or option, `TablesMissing`
//! (a `MancalaError`) for a tier that is not built, `MancalaError` for the engine's other
//! errors; each with the library's message, options named as the package's keyword
//! arguments.

use mancala_oracle::OracleError;
use mancala_rules::{GameError, GameOption, RulesError, Wording};
use mancala_tables::TableError;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use std::fmt::Display;

create_exception!(
    mancala,
    MancalaError,
    PyException,
    "An error of the engine that is not a bad argument: damaged or foreign tables, a search that cannot finish, ..."
);
create_exception!(
    mancala,
    TablesMissing,
    MancalaError,
    "A tier the question needs is not built: `tier` is its seed count, `dir` the folder."
);

/// A `ValueError` with `e`'s message.
pub fn value_error(e: impl Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The package's words for the options the libraries' errors name: its keyword arguments.
pub struct PyWords;

impl Wording for PyWords {
    fn option(&self, option: GameOption) -> String {
        let keyword = match option {
            GameOption::Pits => "pits",
            GameOption::Seeds => "seeds",
            GameOption::EmptyCapture => "empty_capture",
            GameOption::GrandSlam => "grand_slam",
            GameOption::Rule => "rules",
            GameOption::Owners => "owners",
            GameOption::Position => "position",
            // Not keywords of the package: the games that take them have no tables.
            GameOption::Setup => "setup",
            GameOption::Swap => "swap",
        };
        keyword.to_string()
    }

    fn presets(&self) -> Option<&str> {
        Some("mancala.variants()")
    }
}

/// A rules error as a `ValueError`, in the package's words.
pub fn rules_error(e: RulesError) -> PyErr {
    PyValueError::new_err(e.worded(&PyWords))
}

/// A game family's error as a `ValueError` (a rules error in the package's words).
pub fn game_error(e: GameError) -> PyErr {
    match e.downcast::<RulesError>() {
        Ok(rules) => rules_error(*rules),
        Err(e) => value_error(e),
    }
}

/// The exception of an oracle's error: `TablesMissing` with the tier and folder, else
/// `MancalaError`.
pub fn oracle_error(e: OracleError) -> PyErr {
    let missing = match e.table() {
        Some(
            TableError::Missing { tier, dir, .. } | TableError::MissingPublished { tier, dir },
        ) => Some((*tier, dir.display().to_string())),
        _ => None,
    };
    let Some((tier, dir)) = missing else {
        return MancalaError::new_err(e.to_string());
    };
    Python::attach(|py| {
        let err = TablesMissing::new_err(e.to_string());
        let value = err.value(py);
        match value.setattr("tier", tier).and(value.setattr("dir", dir)) {
            Ok(()) => err,
            Err(e) => e,
        }
    })
}

/// A table error, as [`oracle_error`] gives it.
pub fn table_error(e: TableError) -> PyErr {
    oracle_error(e.into())
}
