//! The options that name a rule set, as keyword arguments: the command line's `--pits`,
//! `--seeds`, `--empty-capture`, `--grand-slam`, `--rule` and `--owners`.

use crate::errors::value_error;
use mancala_rules::GameSpec;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// The keyword arguments that name a rule set.
pub struct GameOptions<'a, 'py> {
    pub pits: Option<i64>,
    pub seeds: Option<i64>,
    pub empty_capture: bool,
    pub grand_slam: Option<String>,
    /// One rule name or a sequence of them.
    pub rules: Option<&'a Bound<'py, PyAny>>,
    pub owners: Option<String>,
}

impl GameOptions<'_, '_> {
    /// The game the options name, checked as the command line checks them (the rules check
    /// the rest when the variant is made).
    pub fn spec(&self, variant: &str) -> PyResult<GameSpec> {
        let count = |name: &str, v: Option<i64>| -> PyResult<Option<u32>> {
            match v {
                None => Ok(None),
                Some(n) if (1..=1000).contains(&n) => Ok(Some(n as u32)),
                Some(n) => Err(value_error(format!(
                    "{name} must be a small positive number, not {n}"
                ))),
            }
        };
        let rules = match self.rules {
            None => Vec::new(),
            Some(r) if r.is_instance_of::<PyString>() => vec![r.extract::<String>()?],
            Some(r) => r.extract::<Vec<String>>().map_err(|_| {
                PyTypeError::new_err("rules is a rule name or a sequence of rule names")
            })?,
        };
        Ok(GameSpec {
            preset: variant.trim().to_ascii_lowercase(),
            pits: count("pits", self.pits)?,
            seeds: count("seeds", self.seeds)?,
            empty_capture: self.empty_capture,
            grand_slam: self.grand_slam.clone(),
            rules,
            owners: self.owners.clone(),
            ..GameSpec::default()
        })
    }
}
