//! The Python package `mancala`: the extension module `mancala._mancala` that
//! `python/mancala` re-exports. It is a thin door onto [`mancala_oracle`], the door the
//! command line and the web oracle use, and its answers are theirs: every dict is the JSON
//! object of `mancala play --json`, `query --json` or `solve --json`, made by
//! [`mancala_oracle::json`].
//!
//! Built with maturin (`pip install .` at the repository's root); without the `python`
//! feature the crate is empty, so the workspace builds and tests without Python.

#![cfg(feature = "python")]

mod convert;
mod errors;
mod oracle;
mod spec;
mod watch;

use mancala_oracle::PackedFamily;
use mancala_rules::{GameFamily, Playable, Preset};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::Arc;

/// The presets with tables, each as `mancala variants --json` lists it: name, family,
/// description, options, default and allowed sizes, table key.
#[pyfunction]
fn variants(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let family = PackedFamily {
        settings: Default::default(),
        builds: Arc::new(()),
        searches: Arc::new(()),
    };
    let list = PyList::empty(py);
    for p in Preset::ALL {
        if let Some(info) = family.info(p.name()) {
            list.append(convert::to_py(py, &mancala_oracle::json::preset(&info))?)?;
        }
    }
    Ok(list)
}

/// The board after `moves` from the start (or from `position`, South to move), as
/// `mancala play --json` prints it.
#[pyfunction]
#[pyo3(signature = (variant, moves=None, position=None, *, pits=None, seeds=None, empty_capture=false, grand_slam=None, rules=None, owners=None))]
#[allow(clippy::too_many_arguments)]
fn play<'py>(
    py: Python<'py>,
    variant: &str,
    moves: Option<&Bound<'py, PyAny>>,
    position: Option<&Bound<'py, PyAny>>,
    pits: Option<i64>,
    seeds: Option<i64>,
    empty_capture: bool,
    grand_slam: Option<String>,
    rules: Option<&Bound<'py, PyAny>>,
    owners: Option<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut spec = spec::GameOptions {
        pits,
        seeds,
        empty_capture,
        grand_slam,
        rules,
        owners,
    }
    .spec(variant)?;
    spec.position = position.map(convert::position_text).transpose()?;
    let mut game = mancala_oracle::game(&spec).map_err(errors::game_error)?;
    for (i, mv) in convert::move_names(moves)?.iter().enumerate() {
        let who = Playable::to_move(&game);
        Playable::play(&mut game, mv)
            .map_err(|e| errors::value_error(format!("move #{} ({who} to move): {e}", i + 1)))?;
    }
    let v = mancala_oracle::json::game(&game);
    Ok(convert::to_py(py, &v)?.cast_into::<PyDict>()?)
}

#[pymodule]
#[pyo3(name = "_mancala")]
fn mancala_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(play, m)?)?;
    m.add_class::<oracle::Oracle>()?;
    m.add("MancalaError", py.get_type::<errors::MancalaError>())?;
    m.add("TablesMissing", py.get_type::<errors::TablesMissing>())?;
    Ok(())
}
