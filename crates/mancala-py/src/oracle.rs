//! `mancala.Oracle`: perfect play for one rule set, over the tables of one folder (or the
//! published Awari database's files), with batch calls for training code.

use crate::convert::{self, to_py};
use crate::errors::{oracle_error, rules_error, table_error, value_error, PyWords};
use crate::spec::GameOptions;
use crate::watch::interruptible;
use mancala_oracle::{
    highest_published, highest_tier, json, Answer, Interrupt, Options, OracleError, Settings,
    TableSize,
};
use mancala_rules::{position_from_pits, Board, Rules, RulesError};
use mancala_tables::{build, tier_path, BuildOptions, MAX_TIER};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Duration;

/// Positions of a batch read between two looks for Ctrl-C (a few hundredths of a second).
const BLOCK: usize = 1 << 16;
/// Positions a worker thread takes at a time within a block.
const SLICE: usize = 1 << 10;
/// The longest time limit: a year, as the command line's `--max-seconds`.
const YEAR_SECONDS: f64 = 365.0 * 24.0 * 3600.0;
/// A build saves its state inside a tier with cycles this often, as the command line's
/// default `--checkpoint-minutes`.
const CHECKPOINT: Duration = Duration::from_secs(600);

/// Perfect play for one rule set: the tables of one folder (or the published Awari
/// database's files) and an exact search above them.
#[pyclass(module = "mancala")]
pub struct Oracle {
    inner: mancala_oracle::Oracle,
    /// The published database's folder, when the tables are its files.
    vu_dir: Option<PathBuf>,
}

/// The positions of a batch: boards read already, or rows of `width` pit counts (one byte
/// each) still to be checked.
enum Batch {
    Boards(Vec<Board>),
    Rows { bytes: Vec<u8>, width: usize },
}

impl Batch {
    fn len(&self) -> usize {
        match self {
            Batch::Boards(b) => b.len(),
            Batch::Rows { bytes, width } => bytes.len() / width,
        }
    }

    /// Position `i`, checked as a typed position is.
    fn board(&self, rules: &Rules, i: usize) -> Result<Board, RulesError> {
        match self {
            Batch::Boards(b) => Ok(b[i]),
            Batch::Rows { bytes, width } => {
                let mut counts = [0i64; 16];
                let row = &bytes[i * width..(i + 1) * width];
                for (c, &p) in counts.iter_mut().zip(row) {
                    *c = p as i64;
                }
                position_from_pits(rules, &counts[..*width], false)
            }
        }
    }
}

/// Why a batch stopped: a position that is not one, or the oracle's error.
enum Failure {
    Position(usize, RulesError),
    Oracle(OracleError),
}

impl From<OracleError> for Failure {
    fn from(e: OracleError) -> Failure {
        Failure::Oracle(e)
    }
}

impl From<Failure> for PyErr {
    fn from(f: Failure) -> PyErr {
        match f {
            Failure::Position(i, e) => {
                PyValueError::new_err(format!("positions[{i}]: {}", e.worded(&PyWords)))
            }
            Failure::Oracle(e) => oracle_error(e),
        }
    }
}

/// The error of a batch's position `i`, of the same type with the index in front.
fn at(py: Python<'_>, i: usize, e: PyErr) -> PyErr {
    PyErr::from_type(e.get_type(py), format!("positions[{i}]: {}", e.value(py)))
}

impl Oracle {
    /// Opens every tier in the folder (headers checked: `mancala verify` checks every
    /// byte), or the published files.
    fn open(&mut self) -> PyResult<()> {
        let rules = self.inner.rules().clone();
        let top = rules.max_seeds().min(MAX_TIER);
        match &self.vu_dir {
            Some(vu) => {
                let max = highest_published(vu, &rules).unwrap_or(0);
                self.inner.use_published(vu, max)
            }
            None => {
                let max = highest_tier(&self.inner.settings().dir, &rules).unwrap_or(top);
                self.inner.open_built_checked(max, false)
            }
        }
        .map_err(oracle_error)
    }

    /// Builds the missing tiers `0..=max` into the folder and opens them. A build stops
    /// on Ctrl-C once the tier under way is written (each tier is its own file, so the
    /// next build goes on from there).
    fn build_up_to(&mut self, py: Python<'_>, max: usize) -> PyResult<()> {
        if self.vu_dir.is_some() {
            return Err(value_error(
                "this oracle reads the published database's files (vu_dir): it builds nothing",
            ));
        }
        let rules = self.inner.rules().clone();
        let dir = self.inner.settings().dir.clone();
        let key = rules.variant().key();
        let interrupt = Interrupt::new();
        let built = interruptible(py, &interrupt, || {
            // One tier a build, so that Ctrl-C stops between tiers; the last build checks
            // every tier below it, as `mancala build` does.
            for k in 0..=max {
                if interrupt.is_raised() {
                    break;
                }
                if k < max && tier_path(&dir, &key, k).exists() {
                    continue;
                }
                let opts = BuildOptions {
                    dir: dir.clone(),
                    max_seeds: k,
                    compress: false,
                    memory: Some(mancala_tables::plan::default_budget()),
                    checkpoint_every: Some(CHECKPOINT),
                    repair: false,
                };
                build(&rules, &opts, &())?;
            }
            Ok(())
        });
        self.open()?;
        built?.map_err(table_error)
    }

    /// The value of `b` and of each move: read from the tables, else searched (Ctrl-C stops
    /// the search).
    fn answer(&mut self, py: Python<'_>, b: Board, exact: bool) -> PyResult<Answer> {
        if let Some(a) = self.inner.table_answer(b).map_err(oracle_error)? {
            return Ok(a);
        }
        let interrupt = Interrupt::new();
        self.inner.set_interrupt(Some(interrupt.clone()));
        let inner = &mut self.inner;
        let out = interruptible(py, &interrupt, || match exact {
            true => inner.query_exact(b, &()),
            false => inner.query(b, &()),
        });
        self.inner.set_interrupt(None);
        out?.map_err(oracle_error)
    }

    /// The positions of a batch: a sequence of positions, or a NumPy array of shape
    /// `(n, 2m)` (read as bytes in one go when every count fits).
    fn batch(&self, py: Python<'_>, positions: &Bound<'_, PyAny>) -> PyResult<(Batch, bool)> {
        let rules = self.inner.rules();
        let width = 2 * rules.pits();
        if positions.hasattr("__array_interface__")? {
            let np = py.import("numpy")?;
            let array = np.call_method1("asarray", (positions,))?;
            let shape: Vec<usize> = array.getattr("shape")?.extract()?;
            if shape.len() != 2 || shape[1] != width {
                return Err(value_error(format!(
                    "an array of positions has shape (n, {width}) here ({} pits a side), not {shape:?}",
                    rules.pits()
                )));
            }
            let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
            if kind != "i" && kind != "u" {
                return Err(PyTypeError::new_err(format!(
                    "an array of positions holds integers, not {}",
                    array.getattr("dtype")?.str()?
                )));
            }
            let fits = shape[0] == 0
                || (array.call_method0("min")?.extract::<i64>()? >= 0
                    && array.call_method0("max")?.extract::<i64>()? <= rules.max_seeds() as i64);
            if fits {
                let bytes = np
                    .call_method1("ascontiguousarray", (array, "uint8"))?
                    .call_method0("tobytes")?;
                let bytes = bytes.cast::<PyBytes>()?.as_bytes().to_vec();
                return Ok((Batch::Rows { bytes, width }, true));
            }
            // A count out of range: each row is read as a list, so the error names it.
            let rows = array.call_method0("tolist")?;
            return Ok((self.batch(py, &rows)?.0, true));
        }
        let mut boards = Vec::new();
        for (i, p) in positions.try_iter()?.enumerate() {
            boards.push(convert::board(rules, &p?).map_err(|e| at(py, i, e))?);
        }
        Ok((Batch::Boards(boards), false))
    }

    /// Fills `out` with an answer for every position of `batch`: `read` from the tables on
    /// the worker threads, `BLOCK` positions at a time with a look for Ctrl-C in between
    /// (`read` says whether the tables answered); then, one after another, `searched` from
    /// [`Oracle::answer`] for the positions the tables did not answer.
    fn answer_all<T: Send>(
        &mut self,
        py: Python<'_>,
        batch: &Batch,
        out: &mut [T],
        read: impl Fn(&mancala_oracle::Oracle, Board, &mut T) -> Result<bool, OracleError> + Sync,
        searched: impl Fn(Answer, Board) -> T,
    ) -> PyResult<()> {
        let rules = self.inner.rules();
        let inner = &self.inner;
        let mut misses = Vec::new();
        for (k, block) in out.chunks_mut(BLOCK).enumerate() {
            py.check_signals()?;
            let start = k * BLOCK;
            let found = py.detach(|| {
                block
                    .par_chunks_mut(SLICE)
                    .enumerate()
                    .map(|(s, slice)| {
                        let mut miss = Vec::new();
                        for (j, o) in slice.iter_mut().enumerate() {
                            let i = start + s * SLICE + j;
                            let b = batch.board(rules, i).map_err(|e| Failure::Position(i, e))?;
                            if !read(inner, b, o)? {
                                miss.push(i);
                            }
                        }
                        Ok(miss)
                    })
                    .collect::<Result<Vec<Vec<usize>>, Failure>>()
            })?;
            misses.extend(found.into_iter().flatten());
        }
        let rules = rules.clone();
        for i in misses {
            let b = batch
                .board(&rules, i)
                .map_err(|e| Failure::Position(i, e))?;
            out[i] = searched(self.answer(py, b, false)?, b);
        }
        Ok(())
    }

    /// The value of every position of `batch`: read from the tables where they index it,
    /// else as [`Oracle::answer`] gives it.
    fn values_of(&mut self, py: Python<'_>, batch: &Batch) -> PyResult<Vec<i32>> {
        let mut values = vec![0i32; batch.len()];
        self.answer_all(
            py,
            batch,
            &mut values,
            |oracle, b, v| Ok(oracle.table_value(b)?.map(|x| *v = x).is_some()),
            |a, _| a.value,
        )?;
        Ok(values)
    }
}

/// The interpreter's cycle collector paused while a batch's answers are made: they hold no
/// cycles, and the collector, woken every few hundred new containers, would go over the
/// growing list again and again (two thirds of the time of a batch of 300,000). Resumed when
/// dropped, if it
/// was running.
struct GcPaused<'py> {
    gc: Option<Bound<'py, PyModule>>,
}

impl<'py> GcPaused<'py> {
    fn new(py: Python<'py>) -> PyResult<GcPaused<'py>> {
        let gc = py.import("gc")?;
        if !gc.call_method0("isenabled")?.extract::<bool>()? {
            return Ok(GcPaused { gc: None });
        }
        gc.call_method0("disable")?;
        Ok(GcPaused { gc: Some(gc) })
    }
}

impl Drop for GcPaused<'_> {
    fn drop(&mut self) {
        if let Some(gc) = &self.gc {
            // Enabling it again cannot fail; were it to, the collector stays off (no harm
            // beyond memory held by cycles longer).
            let _ = gc.call_method0("enable");
        }
    }
}

#[pymethods]
impl Oracle {
    #[new]
    #[pyo3(signature = (variant, dir=PathBuf::from("databases"), *, pits=None, seeds=None, empty_capture=false, grand_slam=None, rules=None, owners=None, vu_dir=None, hash_mb=256, threads=None, tables=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        variant: &str,
        dir: PathBuf,
        pits: Option<i64>,
        seeds: Option<i64>,
        empty_capture: bool,
        grand_slam: Option<String>,
        rules: Option<&Bound<'_, PyAny>>,
        owners: Option<String>,
        vu_dir: Option<PathBuf>,
        hash_mb: i64,
        threads: Option<i64>,
        tables: Option<i64>,
    ) -> PyResult<Oracle> {
        let spec = GameOptions {
            pits,
            seeds,
            empty_capture,
            grand_slam,
            rules,
            owners,
        }
        .spec(variant)?;
        let rules = Rules::new(spec.variant().map_err(rules_error)?);
        if dir.exists() && !dir.is_dir() {
            return Err(value_error(format!(
                "dir {} is a file, not a folder: give the folder the tables are (or will be) in",
                dir.display()
            )));
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = match threads {
            None => cores,
            Some(t) if (1..=4 * cores as i64).contains(&t) => t as usize,
            Some(t) => {
                return Err(value_error(format!(
                    "threads {t}: give 1 to {} (four times this machine's {cores} cores)",
                    4 * cores
                )))
            }
        };
        let most_mb = mancala_tables::physical_memory().map_or(1 << 20, |b| (b >> 20) as i64);
        if !(1..=most_mb).contains(&hash_mb) {
            return Err(value_error(format!(
                "hash_mb {hash_mb}: give 1 to {most_mb} MB (this machine's memory)"
            )));
        }
        let top = rules.max_seeds().min(MAX_TIER) as i64;
        let tables = match tables {
            None => TableSize::Auto,
            Some(0) => TableSize::Off,
            Some(n) if (1..=top).contains(&n) => TableSize::UpTo(n as usize),
            Some(n) => {
                return Err(value_error(format!(
                    "tables {n}: give 0 (none) to {top} (the seeds of {})",
                    rules.variant()
                )))
            }
        };
        let settings = Settings {
            dir,
            tables,
            search: Options {
                hash_mb: hash_mb as usize,
                threads,
                ..Options::default()
            },
        };
        let mut oracle = Oracle {
            inner: mancala_oracle::Oracle::new(rules, settings),
            vu_dir,
        };
        oracle.open()?;
        Ok(oracle)
    }

    /// The rule set's table key, e.g. `awari-6x4`: its tables are in `dir/<key>`.
    #[getter]
    fn key(&self) -> String {
        self.inner.rules().variant().key()
    }

    /// Pits a side: a position has twice as many counts.
    #[getter]
    fn pits(&self) -> usize {
        self.inner.rules().pits()
    }

    /// The largest seed count up to which every tier is open (`None`: tier 0 is missing).
    #[getter]
    fn tables_up_to(&self) -> Option<usize> {
        self.inner.tables_up_to()
    }

    /// The table folder.
    #[getter]
    fn dir(&self) -> PathBuf {
        self.inner.settings().dir.clone()
    }

    fn __repr__(&self) -> String {
        let tables = match (&self.vu_dir, self.inner.tables_up_to()) {
            (Some(vu), Some(k)) => format!("published files in {} up to {k} seeds", vu.display()),
            (None, Some(k)) => format!(
                "tables in {} up to {k} seeds",
                self.inner.settings().dir.display()
            ),
            (_, None) => "no tables".to_string(),
        };
        format!(
            "<mancala.Oracle {}: {tables}>",
            self.inner.rules().variant()
        )
    }

    /// Builds the tiers `0..=max_seeds` that are missing into the folder and opens them.
    fn build(&mut self, py: Python<'_>, max_seeds: i64) -> PyResult<()> {
        let top = self.inner.rules().max_seeds().min(MAX_TIER);
        if !(0..=top as i64).contains(&max_seeds) {
            return Err(value_error(format!(
                "max_seeds {max_seeds}: {} has {} seeds, so its tables go from 0 to {top}",
                self.inner.rules().variant(),
                self.inner.rules().max_seeds()
            )));
        }
        self.build_up_to(py, max_seeds as usize)
    }

    /// The value of a position and of each move, as `mancala query --json` prints it
    /// (`exact`: as `mancala query --exact --json`).
    #[pyo3(signature = (position, exact=false))]
    fn query<'py>(
        &mut self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
        exact: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let b = convert::board(self.inner.rules(), position)?;
        let a = self.answer(py, b, exact)?;
        Ok(convert::answer_dict(py, &a, b.total() as usize)?.into_any())
    }

    /// The exact value, every best move and a principal variation, as `mancala solve
    /// --json` prints it; missing tables of the planned size are built first. With
    /// `at_least`, the question "is the value at least this?" instead, as `mancala solve
    /// --at-least --json` prints it (`answer`: true, false or None).
    #[pyo3(signature = (position=None, max_seconds=None, at_least=None))]
    fn solve<'py>(
        &mut self,
        py: Python<'py>,
        position: Option<&Bound<'py, PyAny>>,
        max_seconds: Option<f64>,
        at_least: Option<i32>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let b = match position {
            Some(p) => convert::board(self.inner.rules(), p)?,
            None => self.inner.rules().start(),
        };
        if let Some(s) = max_seconds.filter(|s| !(0.0..=YEAR_SECONDS).contains(s)) {
            return Err(value_error(format!(
                "max_seconds {s}: give a number of seconds from 0 to {YEAR_SECONDS} (a year)"
            )));
        }
        let n = b.total() as usize;
        let open = self.inner.tables_up_to();
        if self.vu_dir.is_none() && open.is_none_or(|k| k < n) {
            if let Some(plan) = self.inner.plan_tables(n).map_err(oracle_error)? {
                if plan.build {
                    self.build_up_to(py, plan.up_to)?;
                } else if open.is_none_or(|k| k < plan.up_to) {
                    self.open()?;
                }
            }
        }
        let interrupt = Interrupt::new();
        self.inner.set_interrupt(Some(interrupt.clone()));
        self.inner.set_time_limit(max_seconds);
        let inner = &mut self.inner;
        let out = interruptible(py, &interrupt, || inner.solve_or_at_least(b, at_least, &()));
        self.inner.set_interrupt(None);
        self.inner.set_time_limit(None);
        let s = out?.map_err(oracle_error)?;
        to_py(
            py,
            &json::solve_reply(&s, at_least, self.inner.tables_up_to()),
        )
    }

    /// The answers of many positions, each as `query` gives it: table reads on every core,
    /// searches (above the tables) one after another.
    fn query_many<'py>(
        &mut self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let (batch, _) = self.batch(py, positions)?;
        // Each answer with the seeds of its position.
        let mut answers: Vec<Option<(Answer, usize)>> = vec![None; batch.len()];
        let seeds = |b: Board| b.total() as usize;
        self.answer_all(
            py,
            &batch,
            &mut answers,
            |oracle, b, v| {
                *v = oracle.table_answer(b)?.map(|a| (a, seeds(b)));
                Ok(v.is_some())
            },
            |a, b| Some((a, seeds(b))),
        )?;
        let _paused = GcPaused::new(py)?;
        let mut dicts = Vec::with_capacity(answers.len());
        for (a, n) in answers.iter().flatten() {
            dicts.push(convert::answer_dict(py, a, *n)?);
        }
        let list = PyList::new(py, dicts)?;
        Ok(list)
    }

    /// The value of every position: a list for a sequence, a NumPy array (int16) for an
    /// array of shape `(n, 2m)`.
    fn values<'py>(
        &mut self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (batch, numpy) = self.batch(py, positions)?;
        let values = self.values_of(py, &batch)?;
        if !numpy {
            return Ok(PyList::new(py, values)?.into_any());
        }
        let bytes: Vec<u8> = values.iter().map(|&v| v as i8 as u8).collect();
        py.import("numpy")?
            .call_method1("frombuffer", (PyBytes::new(py, &bytes), "int8"))?
            .call_method1("astype", ("int16",))
    }
}
