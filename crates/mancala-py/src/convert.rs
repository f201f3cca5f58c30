//! Between Python and the engine: JSON answers to Python objects, positions and moves from
//! Python objects.

use crate::errors::rules_error;
use mancala_oracle::{Answer, Source};
use mancala_rules::{parse_position, position_from_pits, Board, Rules};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use pyo3::{intern, IntoPyObjectExt};
use serde_json::Value;

/// A JSON value as the Python object `json.loads` would give.
pub fn to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    match v {
        Value::Null => Ok(py.None().into_bound(py)),
        Value::Bool(b) => b.into_bound_py_any(py),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_bound_py_any(py),
            (None, Some(u)) => u.into_bound_py_any(py),
            _ => n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py),
        },
        Value::String(s) => s.into_bound_py_any(py),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for x in items {
                list.append(to_py(py, x)?)?;
            }
            Ok(list.into_any())
        }
        Value::Object(fields) => {
            let dict = PyDict::new(py);
            for (k, x) in fields {
                dict.set_item(k, to_py(py, x)?)?;
            }
            Ok(dict.into_any())
        }
    }
}

/// An answer as [`mancala_oracle::json::answer`] writes it (`query --json`), made directly:
/// a batch makes hundreds of thousands a second, and the JSON tree between would cost as
/// much again as the dicts. The tests compare the two (`python/tests`, with the command
/// line's output).
pub fn answer_dict<'py>(py: Python<'py>, a: &Answer, seeds: usize) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item(intern!(py, "value"), a.value)?;
    let moves = PyList::empty(py);
    for mv in &a.moves {
        let m = PyDict::new(py);
        m.set_item(intern!(py, "pit"), mv.pit)?;
        m.set_item(intern!(py, "value"), mv.value())?;
        if mv.value().is_none() {
            m.set_item(intern!(py, "bounds"), PyList::new(py, [mv.lo, mv.hi])?)?;
        }
        moves.append(m)?;
    }
    dict.set_item(intern!(py, "moves"), moves)?;
    dict.set_item(intern!(py, "best"), PyList::new(py, &a.best)?)?;
    dict.set_item(intern!(py, "seeds"), seeds)?;
    let source = match a.source {
        Source::Table => intern!(py, "table"),
        Source::Search => intern!(py, "search"),
    };
    dict.set_item(intern!(py, "source"), source)?;
    if let Some(why) = a.cannot_arise {
        dict.set_item(intern!(py, "cannot_arise"), why.to_string())?;
    }
    Ok(dict)
}

/// What a position may be, for the error that says it is none of them.
const POSITION_KINDS: &str =
    "a position is a string such as \"1 1 1 1 1 2 4 2 3 0 0 0\" or a sequence of pit counts";

/// The pit counts of a position given as a sequence (`None` for a string).
fn counts(position: &Bound<'_, PyAny>) -> PyResult<Option<Vec<i64>>> {
    if position.is_instance_of::<PyString>() {
        return Ok(None);
    }
    position.extract::<Vec<i64>>().map(Some).map_err(|_| {
        let kind = position
            .get_type()
            .name()
            .map_or_else(|_| "?".to_string(), |n| n.to_string());
        PyTypeError::new_err(format!("{POSITION_KINDS}, not {kind}"))
    })
}

/// A position: the command line's string (mover's pits first; a last word `north` where
/// the players own different pits) or a sequence of `2m` pit counts.
pub fn board(rules: &Rules, position: &Bound<'_, PyAny>) -> PyResult<Board> {
    match counts(position)? {
        Some(c) => position_from_pits(rules, &c, false),
        None => parse_position(rules, &position.extract::<String>()?),
    }
    .map_err(rules_error)
}

/// A position as the command line's text, for the game families that read it.
pub fn position_text(position: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(match counts(position)? {
        Some(c) => c
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(" "),
        None => position.extract::<String>()?,
    })
}

/// Moves: a string `"0,3,5"` (or `"a d f"`), or a sequence of pit numbers or names.
pub fn move_names(moves: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    let Some(moves) = moves else {
        return Ok(Vec::new());
    };
    if let Ok(text) = moves.extract::<String>() {
        return Ok(text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect());
    }
    let bad = || PyTypeError::new_err("moves are a string \"0,3,5\" or a sequence of pit numbers");
    let mut names = Vec::new();
    for item in moves.try_iter().map_err(|_| bad())? {
        let item = item?;
        if let Ok(pit) = item.extract::<i64>() {
            names.push(pit.to_string());
        } else if let Ok(name) = item.extract::<String>() {
            names.push(name);
        } else {
            return Err(bad());
        }
    }
    Ok(names)
}
