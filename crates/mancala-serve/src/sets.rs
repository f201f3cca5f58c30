//! The rule sets the requests name, each opened once: its tables for every reader, and a
//! searcher that keeps its transposition table between questions.
//!
//! A rule set is kept by its whole [`Variant`], never by its table key alone. Kalah's key
//! (`kalah-6p`) leaves out the starting seeds because the tables do not depend on them, but
//! the rules do: the start position, the seeds a pit can hold (the sowings are worked out up to
//! the game's total) and so every answer above the tables. Keyed by the table key, the first
//! request's 3-seed rules once answered for 4 seeds. Two rule sets of one key open the same
//! files; the operating system shares their mapped pages.

use crate::request::ApiError;
use crate::tables::Source;
use crate::Config;
use axum::http::StatusCode;
use mancala_oracle::{Interrupt, Options, Oracle, OracleError, Settings, TableSize};
use mancala_rules::{Rules, Variant};
use mancala_tables::{tier_path, FileError, Identity, TableError};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OnceCell, Semaphore};

/// Rule sets kept open at most; the one asked for least recently goes first (with its
/// searcher's transposition table), so that requests naming ever new variants cannot make
/// the server's memory grow without bound.
const KEEP: usize = 16;

/// What every request shares: the configuration, the rule sets opened so far, and the
/// permits of the searches.
pub struct Shared {
    pub config: Config,
    sets: Mutex<Sets>,
    searches: Arc<Semaphore>,
}

/// The rule sets asked for, by variant: each opened once (by the first request that names
/// it, off the request threads), with when it was last asked for.
#[derive(Default)]
struct Sets {
    open: HashMap<Variant, (Opening, u64)>,
    clock: u64,
}

/// How often a request looks whether its rule set's tables on disk still are those opened
/// (a tier built beside the server since): a directory listing's worth of `stat`s.
const LOOK_EVERY: Duration = Duration::from_secs(1);

/// A rule set once opened (the first request to find it empty opens it).
type Opening = Arc<OnceCell<Arc<RuleSet>>>;

/// One rule set: its tables opened once for every reader, and a searcher made at the first
/// search (one search of a rule set at a time: it keeps its transposition table between
/// questions).
pub struct RuleSet {
    pub rules: Rules,
    /// Where its tables come from: the largest tier opened, and whether they are the
    /// published database's files.
    tables: Source,
    /// What the folder held when it was opened: [`RuleSet::tables`], or more when a damaged
    /// tier kept the tiers from it on out (see [`RuleSet::damaged`]).
    found: Source,
    /// Why tiers of the folder are not used: a damaged tier, named with its error (the
    /// tiers below it answer, the positions from it on are searched).
    pub damaged: Option<String>,
    /// The damaged tier's file as it was then: once it changes (a build replaced it), the
    /// rule set is opened again.
    damaged_file: Option<FileStat>,
    pub reader: Oracle,
    searcher: Mutex<Option<Oracle>>,
    /// When a request last looked whether [`RuleSet::tables`] is still what the folder holds.
    looked: Mutex<std::time::Instant>,
}

/// Locks `m`, whatever a panicking holder left (the maps and oracles stay consistent: a
/// panic never leaves one half changed).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Shared {
    pub fn new(config: Config) -> Shared {
        Shared {
            searches: Arc::new(Semaphore::new(config.searches.max(1))),
            config,
            sets: Mutex::new(Sets::default()),
        }
    }

    /// The rule set of `variant`, opened at its first request (off the request threads;
    /// other requests wait only for the rule set they name).
    ///
    /// A rule set whose folder now holds other tiers than it opened (a bigger tier built
    /// beside the server: `/api/variants` already names it) is closed and opened again, so
    /// that what the server says it has and what it answers from agree.
    pub async fn rule_set(self: &Arc<Self>, variant: Variant) -> Result<Arc<RuleSet>, ApiError> {
        let set = self.rule_set_as_opened(variant).await?;
        if !set.due()
            || (Source::of(&self.config, &set.rules) == set.found
                && set.damaged_file.as_ref().is_none_or(FileStat::same))
        {
            return Ok(set);
        }
        self.close(&set);
        self.rule_set_as_opened(variant).await
    }

    /// Forgets `set` if it is still the one open for its variant: the next request opens it
    /// again.
    fn close(&self, set: &Arc<RuleSet>) {
        let variant = *set.rules.variant();
        let mut sets = lock(&self.sets);
        let same = sets
            .open
            .get(&variant)
            .and_then(|(cell, _)| cell.get())
            .is_some_and(|open| Arc::ptr_eq(open, set));
        if same {
            sets.open.remove(&variant);
        }
    }

    /// The rule set of `variant` as opened, however long ago.
    async fn rule_set_as_opened(
        self: &Arc<Self>,
        variant: Variant,
    ) -> Result<Arc<RuleSet>, ApiError> {
        let cell = {
            let mut sets = lock(&self.sets);
            sets.clock += 1;
            let now = sets.clock;
            let cell = {
                let entry = sets
                    .open
                    .entry(variant)
                    .or_insert_with(|| (Arc::new(OnceCell::new()), now));
                entry.1 = now;
                entry.0.clone()
            };
            if sets.open.len() > KEEP {
                let oldest = sets
                    .open
                    .iter()
                    .filter(|(v, _)| **v != variant)
                    .min_by_key(|(_, (_, used))| *used)
                    .map(|(v, _)| *v);
                if let Some(v) = oldest {
                    sets.open.remove(&v);
                }
            }
            cell
        };
        let shared = self.clone();
        cell.get_or_try_init(|| async move {
            tokio::task::spawn_blocking(move || shared.open(variant))
                .await
                .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?
        })
        .await
        .cloned()
    }

    /// Opens a rule set: for Awari (the published database's rule set, at its default size)
    /// the published files when the server was given them, else its tiers in the folder, or
    /// none.
    ///
    /// Every payload is checked against its checksum, as `mancala query` checks it: a file
    /// damaged with its header intact would otherwise be answered from. The oracle's record
    /// of checked files makes this a read of the files once, not at every opening. A damaged
    /// tier does not take the rule set down: the tiers below it answer, the positions from it
    /// on are searched, and a `tables_only` question says why, until a build replaces it.
    fn open(&self, variant: Variant) -> Result<Arc<RuleSet>, ApiError> {
        let rules = Rules::new(variant);
        let key = rules.variant().key();
        let found = Source::of(&self.config, &rules);
        // Each damaged tier met leaves the tiers below it (a lower one may be damaged too).
        let (mut tables, mut damaged) = (found, None);
        let reader = loop {
            match self.oracle(&rules, tables) {
                Ok(reader) => break reader,
                Err(e) => match (tables, damaged_tier(&e)) {
                    // Lower every time (a tier named above those opened would loop).
                    (Source::Built(max), Some(k)) if k as usize <= max => {
                        // Stat first: a build that replaces the file from now on is noticed.
                        let file = FileStat::of(tier_path(&self.config.dir, &key, k as usize));
                        damaged = Some((e.to_string(), file));
                        tables = match k {
                            0 => Source::None,
                            k => Source::Built(k as usize - 1),
                        };
                    }
                    _ => return Err(ApiError::oracle(e, &key)),
                },
            }
        };
        let (damaged, damaged_file) = damaged.unzip();
        Ok(Arc::new(RuleSet {
            rules,
            tables,
            found,
            damaged,
            damaged_file,
            reader,
            searcher: Mutex::new(None),
            looked: Mutex::new(std::time::Instant::now()),
        }))
    }

    /// An oracle over `tables`, every payload checked against its checksum (once: see
    /// [`Shared::open`]).
    fn oracle(&self, rules: &Rules, tables: Source) -> Result<Oracle, OracleError> {
        let c = &self.config;
        let settings = Settings {
            dir: c.dir.clone(),
            tables: TableSize::Auto,
            search: Options {
                hash_mb: c.hash_mb.max(1),
                threads: c.search_threads.max(1),
                time_limit: Some(c.max_seconds),
                ..Options::default()
            },
        };
        let mut oracle = Oracle::new(rules.clone(), settings);
        match (tables, &c.vu_dir) {
            (Source::Built(max), _) => oracle.open_built(max)?,
            (Source::Published(max), Some(vu)) => oracle.use_published(vu, max)?,
            _ => {}
        }
        Ok(oracle)
    }

    /// The answer for an oracle's error about `set`. A table file changed in place under
    /// it, or replaced behind it (see `mancala_tables::Tables::unchanged`), closes the rule
    /// set: the next request opens its tables again, checks their payloads (the record of
    /// a check no longer vouches for files that changed), and reads the files as they are
    /// then (or is told what is wrong with them).
    pub fn oracle_error(&self, set: &Arc<RuleSet>, e: OracleError) -> ApiError {
        if ApiError::changed(&e) {
            self.close(set);
        }
        ApiError::oracle(e, &set.rules.variant().key())
    }

    /// Runs `f` on the rule set's searcher off the request threads, once a search permit is
    /// free (waiting for one at most `seconds`), with `seconds` as its time limit.
    pub async fn search<T: Send + 'static>(
        self: &Arc<Self>,
        set: Arc<RuleSet>,
        seconds: f64,
        f: impl FnOnce(&mut Oracle) -> Result<T, OracleError> + Send + 'static,
    ) -> Result<T, ApiError> {
        // The limit is the request's: the wait for a slot comes out of it.
        let arrived = std::time::Instant::now();
        let wait = Duration::from_secs_f64(seconds);
        let permit = tokio::time::timeout(wait, self.searches.clone().acquire_owned())
            .await
            .map_err(|_| {
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "every search slot is busy: try again in a few seconds",
                )
            })?
            .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "shutting down"))?;
        let seconds = seconds - arrived.elapsed().as_secs_f64();
        if seconds <= 0.0 {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "every search slot was busy for the whole time limit: try again in a few seconds",
            ));
        }
        let shared = self.clone();
        // Raised when this request's future is dropped (its client closed the connection)
        // before the search ends: the search stops, and its slot is free for the next.
        let gone = RaiseOnDrop(Interrupt::new());
        let interrupt = gone.0.clone();
        let answer = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let mut searcher = lock(&set.searcher);
            if searcher.is_none() {
                let key = set.rules.variant().key();
                let opened = shared.oracle(&set.rules, set.tables);
                *searcher = Some(opened.map_err(|e| ApiError::oracle(e, &key))?);
            }
            let oracle = searcher.as_mut().expect("made above");
            oracle.set_time_limit(Some(seconds));
            oracle.set_interrupt(Some(interrupt));
            f(oracle).map_err(|e| shared.oracle_error(&set, e))
        })
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))
        .and_then(|r| r);
        // Raising the flag of a search that has ended changes nothing: the next search of
        // this rule set gets a flag of its own.
        drop(gone);
        answer
    }
}

impl RuleSet {
    /// Is it time to look at the folder again ([`LOOK_EVERY`])? Says yes to one caller a
    /// period.
    fn due(&self) -> bool {
        let mut looked = lock(&self.looked);
        let due = looked.elapsed() >= LOOK_EVERY;
        if due {
            *looked = std::time::Instant::now();
        }
        due
    }
}

/// A file as `stat` saw it, to tell when it was replaced or written.
#[derive(Debug)]
struct FileStat {
    path: PathBuf,
    seen: Option<Identity>,
}

impl FileStat {
    fn of(path: PathBuf) -> FileStat {
        let seen = Identity::at(&path);
        FileStat { path, seen }
    }

    /// Is the file still as it was?
    fn same(&self) -> bool {
        Identity::at(&self.path) == self.seen
    }
}

/// The tier whose file `e` finds damaged (its payload, header or version) or not a file at
/// all (a pipe or a folder in its place), if it is one.
fn damaged_tier(e: &OracleError) -> Option<u32> {
    match e {
        OracleError::Table(TableError::File {
            file:
                FileError::Checksum { .. }
                | FileError::Corrupt { .. }
                | FileError::Version { .. }
                | FileError::NotAFile { .. },
            tier,
            ..
        }) => *tier,
        _ => None,
    }
}

/// Raises its flag when dropped: held across a search's `await`, it tells the search that
/// nobody waits for it any more (a request's future is dropped when its client goes).
struct RaiseOnDrop(Interrupt);

impl Drop for RaiseOnDrop {
    fn drop(&mut self) {
        self.0.raise();
    }
}
