//! [`Oracle`]: the value of a position, of each of its moves, its best moves and a principal
//! variation, from the tables where they hold the position and by exact search above them.

use crate::settings::{default_tables, Settings, TableSize};
use crate::OracleError;
use mancala_index::{Spec, Unreachable};
use mancala_rules::{Board, Next, Node, Rules};
use mancala_search::{
    Claim, Interrupt, KeepError, Memory, MoveValue, Observer, Opened, SearchError, Solution,
    Solver, TableFile, PV_LIMIT,
};
use mancala_tables::checked::Stamp;
use mancala_tables::{build, BuildObserver, BuildOptions, Payload, Tables, Watching, MAX_TIER};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Perfect play for one rule set: tables opened from one folder, and a searcher above them
/// whose transposition table is kept from one question to the next.
pub struct Oracle {
    rules: Rules,
    settings: Settings,
    tables: Option<Tables>,
    /// The searcher's memory between questions (`None` only while a search runs).
    memory: Option<Memory>,
    /// Raised from outside to stop the searches under way.
    interrupt: Option<Interrupt>,
}

/// Where an answer came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Table reads: the tables hold the position and every position its moves lead to.
    Table,
    /// An exact search over the tiers that are built.
    Search,
}

impl Source {
    /// `table` or `search`, as the command line's JSON says it.
    pub fn name(self) -> &'static str {
        match self {
            Source::Table => "table",
            Source::Search => "search",
        }
    }
}

/// The value of a position and of each of its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Net future gain of the side to move under perfect play.
    pub value: i32,
    /// Every legal move (the mover's pit index) with its value, in pit order; empty when the
    /// game is over. From the tables (and from [`Oracle::query_exact`]) every value is exact;
    /// by search, the best moves are exact and the others carry the bounds the proof of the
    /// position's value gave, each below that value.
    pub moves: Vec<MoveValue>,
    /// The moves worth `value`, in pit order.
    pub best: Vec<usize>,
    /// Where the values came from.
    pub source: Source,
    /// Why no game reaches the position, if none does (no table holds it, whatever was
    /// built; its value is still the exact value of play from it).
    pub cannot_arise: Option<Unreachable>,
}

/// The tables a search of a position will probe, before any is built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TablePlan {
    /// Tiers `0..=up_to` will be probed.
    pub up_to: usize,
    /// Some of them are missing and will be built first.
    pub build: bool,
    /// The rule set's key: its tables live in `dir/key`.
    pub key: String,
    /// The table folder.
    pub dir: PathBuf,
}

impl Oracle {
    /// An oracle for `rules` with nothing opened yet: [`Oracle::use_tables`] or
    /// [`Oracle::open_built`] opens the tables, and a question without tables is answered by
    /// search alone.
    pub fn new(rules: Rules, settings: Settings) -> Oracle {
        Oracle {
            rules,
            settings,
            tables: None,
            memory: Some(Memory::default()),
            interrupt: None,
        }
    }

    /// Stops the searches of this oracle once `interrupt` is raised (from another thread), as
    /// if their time had run out: a server whose client has gone frees the search's threads.
    pub fn set_interrupt(&mut self, interrupt: Option<Interrupt>) {
        self.interrupt = interrupt;
    }

    /// Keeps the searches' transposition table in the file `claim` holds (see
    /// [`TableFile::claim`], made for this oracle's rules): read back now if it exists (its
    /// size wins over the settings' hash size), else an empty table of that size. Every later
    /// search of this oracle uses it; [`TableFile::save`] writes it, also from another thread
    /// while a search runs. What the oracle learned before is dropped.
    pub fn keep_table(&mut self, claim: Claim) -> Result<(TableFile, Opened), KeepError> {
        let (file, memory, opened) = claim.open(&self.rules, self.settings.search.hash_mb)?;
        self.memory = Some(memory);
        Ok((file, opened))
    }

    /// The rule set.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The settings it was made with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Sets the time limit of the searches to come (`None`: none), in seconds.
    pub fn set_time_limit(&mut self, seconds: Option<f64>) {
        self.settings.search.time_limit = seconds;
    }

    /// The tables opened, if any.
    pub fn tables(&self) -> Option<&Tables> {
        self.tables.as_ref()
    }

    /// The largest seed count a search answers from the tables (every tier up to it is open).
    pub fn tables_up_to(&self) -> Option<usize> {
        self.tables.as_ref().and_then(Tables::complete_up_to)
    }

    /// The tables a search of a position with `seeds` seeds should probe: the size asked for
    /// in the settings or, by default, the size that answers fastest
    /// ([`crate::default_tables`]), or a larger complete set already in the folder. `None`
    /// when the settings ask for no tables.
    pub fn plan_tables(&self, seeds: usize) -> Result<Option<TablePlan>, OracleError> {
        let cap = seeds.min(self.rules.max_seeds()).min(MAX_TIER);
        let want = match self.settings.tables {
            TableSize::Off => return Ok(None),
            TableSize::UpTo(n) => n.min(cap),
            TableSize::Auto => default_tables(&self.rules, seeds).min(cap),
        };
        let present = Tables::open_with(
            &self.settings.dir,
            &self.rules,
            cap,
            Payload::Unchecked,
            Watching::On,
        )?
        .complete_up_to();
        let (up_to, build) = match present {
            // A larger complete set costs nothing more to use, unless a size was asked for.
            Some(k) if k >= want && self.settings.tables == TableSize::Auto => (k, false),
            Some(k) if k >= want => (want, false),
            _ => (want, true),
        };
        Ok(Some(TablePlan {
            up_to,
            build,
            key: self.rules.variant().key(),
            dir: self.settings.dir.clone(),
        }))
    }

    /// Opens the tables of `plan`, building the missing tiers first (`obs` sees the build),
    /// and decodes compressed tiers into memory so that each probe of the search is one byte
    /// read. Returns the positions decoded.
    pub fn use_tables(
        &mut self,
        plan: &TablePlan,
        obs: &dyn BuildObserver,
    ) -> Result<u64, OracleError> {
        if plan.build {
            // Within most of the machine's memory: a size beyond it fails at once with what
            // it would need, instead of thrashing.
            let opts = BuildOptions {
                dir: plan.dir.clone(),
                max_seeds: plan.up_to,
                compress: false,
                memory: Some(mancala_tables::plan::default_budget()),
                checkpoint_every: None,
                repair: false,
            };
            build(&self.rules, &opts, obs)?;
        }
        let mut tables = open_checked(&plan.dir, &self.rules, plan.up_to)?;
        let packed = compressed_positions(&tables);
        if packed > 0 {
            tables.decode_up_to(plan.up_to)?;
        }
        self.tables = Some(tables);
        Ok(packed)
    }

    /// Opens the published Awari database's files `scores.N` in `dir` for tiers `0..=max`
    /// (any subset; a question they do not cover is searched over the complete range among
    /// them, as with [`Oracle::open_built`]).
    pub fn use_published(&mut self, dir: &Path, max: usize) -> Result<(), OracleError> {
        let max = max.min(self.rules.max_seeds()).min(MAX_TIER);
        self.tables = Some(Tables::open_published_with(
            dir,
            &self.rules,
            max,
            Watching::On,
        )?);
        Ok(())
    }

    /// Opens whatever tiers `0..=max` are built, without building any: a question the tables
    /// do not cover is then searched over the complete range among them.
    pub fn open_built(&mut self, max: usize) -> Result<(), OracleError> {
        self.open_built_checked(max, true)
    }

    /// [`Oracle::open_built`], checking each file's header but its payload's checksum only
    /// if `check_payload` (reading every byte of big tables takes a while: a server that must
    /// answer at once leaves that to `verify`).
    pub fn open_built_checked(
        &mut self,
        max: usize,
        check_payload: bool,
    ) -> Result<(), OracleError> {
        let max = max.min(self.rules.max_seeds()).min(MAX_TIER);
        self.tables = Some(match check_payload {
            true => open_checked(&self.settings.dir, &self.rules, max)?,
            false => Tables::open_with(
                &self.settings.dir,
                &self.rules,
                max,
                Payload::Unchecked,
                Watching::On,
            )?,
        });
        Ok(())
    }

    /// The value of `b` and of each move: from the tables when they hold `b` and every
    /// position its moves lead to, else by search over the tiers that are built (with no
    /// tier built at all, the error that names the tier to build). Above the tables a
    /// question costs what [`Oracle::solve`] costs: the best moves are exact, and the
    /// others are only proven worse (see [`Answer::moves`]).
    ///
    /// A time limit in the settings, or an interrupt (see [`Oracle::set_interrupt`]), that
    /// comes before the value is proven ends the search with
    /// [`mancala_search::SearchError::OutOfTime`] and the bounds proven on the value of `b`:
    /// an answer has exact values, so bounds are not one (a caller reports them as such).
    pub fn query(&mut self, b: Board, obs: &dyn Observer) -> Result<Answer, OracleError> {
        let a = self.query_unchecked(b, obs, false);
        self.checked(a).map(|a| self.noted(b, a))
    }

    /// [`Oracle::query`] with every move's exact value, above the tables too: the position's
    /// value first, then a search of each other move's position (a losing move's proof can
    /// cost many times the position's). Cut short before the value is proven, the same error
    /// as [`Oracle::query`], with the bounds on the value of `b`; after it, the answer, whose
    /// moves not yet searched keep the bounds proven on them (in a game with cycles, the
    /// error, as before the value).
    pub fn query_exact(&mut self, b: Board, obs: &dyn Observer) -> Result<Answer, OracleError> {
        let a = self.query_unchecked(b, obs, true);
        self.checked(a).map(|a| self.noted(b, a))
    }

    /// `a`, an answer about `b`, with why `b` cannot arise, if it cannot.
    fn noted(&self, b: Board, a: Answer) -> Answer {
        Answer {
            cannot_arise: self.cannot_arise(b),
            ..a
        }
    }

    /// Why no game of these rules reaches `b`, if none does (no table holds such a
    /// position: its value is that of play from it, found by search).
    pub fn cannot_arise(&self, b: Board) -> Option<mancala_index::Unreachable> {
        Spec::for_rules(&self.rules).cannot_arise(b)
    }

    /// `answer`, unless a table file changed in place while it was worked out (cut short, or
    /// another file copied over it: see [`Tables::unchanged`]); then the error that names
    /// the file, whatever the answer was. Opening the tables again reads the file as it is.
    fn checked<T>(&self, answer: Result<T, OracleError>) -> Result<T, OracleError> {
        if let Some(t) = &self.tables {
            t.unchanged()?;
        }
        answer
    }

    fn query_unchecked(
        &mut self,
        b: Board,
        obs: &dyn Observer,
        exact: bool,
    ) -> Result<Answer, OracleError> {
        // A position without a move is valued by the rules alone, with or without tables.
        if let Node::Terminal { mover, opp } = self.rules.node(b) {
            let source = match self.covered(b) {
                true => Source::Table,
                false => Source::Search,
            };
            return Ok(answer(mover as i32 - opp as i32, Vec::new(), source));
        }
        if self.covered(b) {
            let (value, moves) = self.read_tables(b)?;
            return Ok(answer(value, moves, Source::Table));
        }
        let n = b.total() as usize;
        match &mut self.tables {
            Some(t) if t.complete_up_to().is_some() => {
                // Only the complete range is probed (see `Solver::new`).
                if let Some(k) = t.complete_up_to().filter(|_| compressed_positions(t) > 0) {
                    t.decode_up_to(k)?;
                }
            }
            // The first tier missing below the question's, as verify names it.
            Some(t) => {
                let k = (0..=n.min(t.indexer().max_tier()))
                    .find(|&k| t.tier(k).is_none() && t.indexer().size(k) > 0)
                    .unwrap_or(n);
                return Err(t.missing(k).into());
            }
            None => {}
        }
        if exact && self.rules.variant().family().has_cycles() {
            let moves = self.with_solver(|s| s.move_values(b, obs))?;
            let value = moves.iter().map(|m| m.1).max().unwrap_or(0);
            return Ok(answer(value, moves, Source::Search));
        }
        // With `exact`, cut short after the value, the moves not yet searched keep their
        // bounds.
        let s = match exact {
            true => self.with_solver(|s| s.exact_moves(b, obs))?,
            false => self.with_solver(|s| s.solve_moves(b, obs))?,
        };
        let Some(value) = s.value else {
            return Err(SearchError::OutOfTime { lo: s.lo, hi: s.hi }.into());
        };
        Ok(Answer {
            value,
            moves: s.moves,
            best: s.best,
            source: Source::Search,
            cannot_arise: None,
        })
    }

    /// The value of `b` and of each move read from the tables, if they hold `b` and every
    /// position its moves lead to (`None` otherwise). Needs no search, so many threads may
    /// ask one oracle at once.
    pub fn table_answer(&self, b: Board) -> Result<Option<Answer>, OracleError> {
        if !self.covered(b) {
            return Ok(None);
        }
        let read = self.read_tables(b);
        let (value, moves) = self.checked(read)?;
        Ok(Some(self.noted(b, answer(value, moves, Source::Table))))
    }

    /// The value of `b` as its tier stores it, if that tier is open and indexes `b` (`None`
    /// otherwise: a position above the tables, or one the index leaves out, such as a
    /// finished Kalah position). One index lookup and one read, without the check of
    /// [`Oracle::query`] that the value is its best move's: the fast path of a batch of
    /// values. Needs no search, so many threads may ask one oracle at once.
    pub fn table_value(&self, b: Board) -> Result<Option<i32>, OracleError> {
        match &self.tables {
            Some(t) if t.tier(b.total() as usize).is_some() => Ok(t.probe(b)?.map(i32::from)),
            _ => Ok(None),
        }
    }

    /// The principal variation from `b` as far as the tables hold it (see
    /// [`Oracle::principal_variation`], which searches on from there).
    pub fn table_line(&self, b: Board) -> Result<Vec<usize>, OracleError> {
        let line = self.table_line_unchecked(b);
        self.checked(line)
    }

    fn table_line_unchecked(&self, b: Board) -> Result<Vec<usize>, OracleError> {
        let mut pv = Vec::new();
        let mut seen = HashSet::new();
        let mut b = b;
        while pv.len() < PV_LIMIT && seen.insert(b) && self.covered(b) {
            match self.best_step(b)? {
                Some((pit, Some(next))) => {
                    pv.push(pit);
                    b = next;
                }
                Some((pit, None)) => {
                    pv.push(pit);
                    break;
                }
                None => break,
            }
        }
        Ok(pv)
    }

    /// The first best move of a covered position and the position it leads to (`None` once
    /// the game is over), or `None` without a move.
    fn best_step(&self, b: Board) -> Result<Option<(usize, Option<Board>)>, OracleError> {
        let (value, moves) = self.read_tables(b)?;
        let Some(&(pit, _)) = moves.iter().find(|m| m.1 == value) else {
            return Ok(None);
        };
        let Node::Moves(kids) = self.rules.node(b) else {
            return Ok(None);
        };
        let Some(c) = kids.iter().find(|c| c.pit as usize == pit) else {
            return Ok(None);
        };
        Ok(Some((pit, (c.next != Next::Over).then_some(c.board))))
    }

    /// The value of `b`, every best move and a principal variation: read from the tables
    /// when they hold `b` and its moves, else by search over the open tables (with a time
    /// limit in the settings, possibly only proven bounds).
    pub fn solve(&mut self, b: Board, obs: &dyn Observer) -> Result<Solution, OracleError> {
        let s = self.solve_unchecked(b, obs);
        self.checked(s)
    }

    /// Whether the value of `b` is at least `threshold`, and the moves proven to reach it
    /// (see [`Solver::at_least`]): read from the tables when they hold `b` and its moves, else
    /// one null-window search, cheaper than the exact value. The answer is in the bounds.
    pub fn at_least(
        &mut self,
        b: Board,
        threshold: i32,
        obs: &dyn Observer,
    ) -> Result<Solution, OracleError> {
        // The table read checks the tables itself; a search is checked once it is done.
        if let Some(s) = self.table_at_least(b, threshold)? {
            return Ok(s);
        }
        let s = self.with_solver(|s| s.at_least(b, threshold, obs));
        self.checked(s)
    }

    /// What `mancala solve` answers: [`Oracle::at_least`] when a threshold is given, else
    /// [`Oracle::solve`]. The command line, the server and the Python package ask this one.
    pub fn solve_or_at_least(
        &mut self,
        b: Board,
        at_least: Option<i32>,
        obs: &dyn Observer,
    ) -> Result<Solution, OracleError> {
        match at_least {
            Some(t) => self.at_least(b, t, obs),
            None => self.solve(b, obs),
        }
    }

    /// [`Oracle::solve_or_at_least`] from the tables alone, if they hold `b` and its moves
    /// (`None` otherwise): [`Oracle::table_at_least`] or [`Oracle::table_solution`]. Needs no
    /// search, so many threads may ask one oracle at once.
    pub fn table_solve_or_at_least(
        &self,
        b: Board,
        at_least: Option<i32>,
    ) -> Result<Option<Solution>, OracleError> {
        match at_least {
            Some(t) => self.table_at_least(b, t),
            None => self.table_solution(b),
        }
    }

    /// [`Oracle::at_least`] from the tables alone, if they hold `b` and its moves (`None`
    /// otherwise), without a line: the question asks for no more. Needs no search, so many
    /// threads may ask one oracle at once.
    pub fn table_at_least(
        &self,
        b: Board,
        threshold: i32,
    ) -> Result<Option<Solution>, OracleError> {
        let started = std::time::Instant::now();
        let Some(a) = self.table_answer(b)? else {
            return Ok(None);
        };
        let s = read_solution(a, Vec::new(), started);
        Ok(Some(Solution {
            best: s.moves_reaching(threshold),
            ..s
        }))
    }

    fn solve_unchecked(&mut self, b: Board, obs: &dyn Observer) -> Result<Solution, OracleError> {
        if self.covered(b) {
            let started = std::time::Instant::now();
            let (value, moves) = self.read_tables(b)?;
            let a = answer(value, moves, Source::Table);
            let pv = self.principal_variation(b)?;
            return Ok(read_solution(a, pv, started));
        }
        self.with_solver(|s| s.solve(b, obs))
    }

    /// [`Oracle::solve`] from the tables alone, if they hold `b` and its moves (`None`
    /// otherwise): the line goes as far as they hold it. Needs no search, so many threads
    /// may ask one oracle at once.
    pub fn table_solution(&self, b: Board) -> Result<Option<Solution>, OracleError> {
        let started = std::time::Instant::now();
        let Some(a) = self.table_answer(b)? else {
            return Ok(None);
        };
        let pv = self.table_line(b)?;
        Ok(Some(read_solution(a, pv, started)))
    }

    /// A principal variation from `b`: each move achieves the value of the position it is
    /// played in. Read from the tables while they cover the line, else found by search. It
    /// ends when the game ends, a position repeats (endless play) or after
    /// [`PV_LIMIT`] moves.
    pub fn principal_variation(&mut self, b: Board) -> Result<Vec<usize>, OracleError> {
        let pv = self.principal_variation_unchecked(b);
        self.checked(pv)
    }

    fn principal_variation_unchecked(&mut self, b: Board) -> Result<Vec<usize>, OracleError> {
        let mut pv = Vec::new();
        let mut seen = HashSet::new();
        let mut b = b;
        while pv.len() < PV_LIMIT && seen.insert(b) {
            if !self.covered(b) {
                let rest = self.solve(b, &())?.pv;
                pv.extend(rest.into_iter().take(PV_LIMIT - pv.len()));
                break;
            }
            match self.best_step(b)? {
                Some((pit, next)) => {
                    pv.push(pit);
                    match next {
                        Some(next) => b = next,
                        None => break,
                    }
                }
                None => break,
            }
        }
        Ok(pv)
    }

    /// Runs `f` on a searcher over the open tables, keeping its memory for the next question.
    fn with_solver<T>(
        &mut self,
        f: impl FnOnce(&mut Solver<'_>) -> Result<T, SearchError>,
    ) -> Result<T, OracleError> {
        let memory = self.memory.take().unwrap_or_default();
        let mut solver = Solver::with_memory(
            &self.rules,
            self.tables.as_ref(),
            self.settings.search,
            memory,
        )?;
        solver.set_interrupt(self.interrupt.clone());
        let out = f(&mut solver);
        self.memory = Some(solver.into_memory());
        Ok(out?)
    }

    /// Do the open tables hold `b` and every position its moves lead to?
    fn covered(&self, b: Board) -> bool {
        let Some(tables) = &self.tables else {
            return false;
        };
        if tables
            .complete_up_to()
            .is_none_or(|k| k < b.total() as usize)
        {
            return false;
        }
        let ix = tables.indexer();
        match self.rules.node(b) {
            Node::Terminal { .. } => true,
            Node::Moves(kids) => {
                ix.contains(b)
                    && kids
                        .iter()
                        .all(|c| c.next == Next::Over || ix.contains(c.board))
            }
        }
    }

    /// The value of a covered position and of each move, read from the tables; the stored
    /// value must be the best move's.
    fn read_tables(&self, b: Board) -> Result<(i32, Vec<(usize, i32)>), OracleError> {
        let tables = self.tables.as_ref().expect("covered");
        match self.rules.node(b) {
            Node::Terminal { mover, opp } => Ok((mover as i32 - opp as i32, Vec::new())),
            Node::Moves(kids) => {
                let mut moves = Vec::new();
                for c in &kids {
                    let v = match c.next {
                        Next::Over => c.value(0),
                        _ => {
                            let child = tables
                                .probe(c.board)?
                                .ok_or(OracleError::NotIndexed { position: c.board })?;
                            c.value(child as i32)
                        }
                    };
                    moves.push((c.pit as usize, v));
                }
                let best = moves.iter().map(|m| m.1).max().unwrap_or(i32::MIN);
                if let Some(stored) = tables.probe(b)? {
                    if stored as i32 != best {
                        // Written as a command takes it (`json::position_text`).
                        let mover = match b.north() {
                            true => mancala_rules::Side::North,
                            false => mancala_rules::Side::South,
                        };
                        let game = mancala_rules::Game::from_position(self.rules.clone(), b, mover);
                        return Err(OracleError::Inconsistent {
                            position: b,
                            text: format!("'{}'", crate::json::position_text(&game)),
                            published: tables.is_published(),
                            stored: stored as i32,
                            best,
                            key: self.rules.variant().key(),
                            dir: tables.dir().to_path_buf(),
                        });
                    }
                }
                Ok((best, moves))
            }
        }
    }
}

/// Tiers `0..=max` of `rules` in `dir`, watched, every payload's checksum read unless these
/// very files were checked before (see [`Stamp`]): for a big set that read costs more than
/// the search a question needs. What [`Oracle::open_built`] opens; a server that reads its
/// tables when it starts opens them this way too, so that the check is done by then.
pub fn open_checked(dir: &Path, rules: &Rules, max: usize) -> Result<Tables, OracleError> {
    let stamp = Stamp::now(dir, &rules.variant().key(), max);
    let recorded = stamp.recorded();
    let payload = match recorded {
        true => Payload::Unchecked,
        false => Payload::Checked,
    };
    let tables = Tables::open_with(dir, rules, max, payload, Watching::On)?;
    if !recorded {
        stamp.record();
    }
    Ok(tables)
}

/// A solution read from the tables: `a` and the line `pv`, begun at `started`.
fn read_solution(a: Answer, pv: Vec<usize>, started: std::time::Instant) -> Solution {
    Solution {
        value: Some(a.value),
        lo: a.value,
        hi: a.value,
        nodes: 1 + a.moves.len() as u64 + pv.len() as u64,
        // The position and each one on the line had their moves read.
        expanded: 1 + pv.len() as u64,
        moves: a.moves,
        best: a.best,
        pv,
        seconds: started.elapsed().as_secs_f64(),
    }
}

fn answer(value: i32, moves: Vec<(usize, i32)>, source: Source) -> Answer {
    let best = moves.iter().filter(|m| m.1 == value).map(|m| m.0).collect();
    Answer {
        value,
        moves: moves.iter().map(|&(p, v)| MoveValue::exact(p, v)).collect(),
        best,
        source,
        cannot_arise: None,
    }
}

/// Positions of the complete range of `tables` that are stored compressed and not decoded.
fn compressed_positions(tables: &Tables) -> u64 {
    let Some(max) = tables.complete_up_to() else {
        return 0;
    };
    (0..=max)
        .filter_map(|n| tables.tier(n))
        .filter(|t| t.is_compressed() && t.raw().is_none())
        .map(|t| t.entries())
        .sum()
}
