//! The tables of one rule set, opened together and probed by position.

use crate::core::{Exits, LowerTiers};
use crate::error::{FileError, TableError};
use crate::store::codec::{self, Unpacked};
use crate::store::format::BLOCK;

use crate::store::table::{Table, Watching};
use crate::store::tier_files::{published_path, tier_path};
use mancala_index::{Indexer, Order};
use mancala_rules::{Board, Next, Node, Rules};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

/// Every built tier of one rule set under a directory.
pub struct Tables {
    rules: Rules,
    ix: Indexer,
    dir: PathBuf,
    tiers: Vec<Option<Table>>,
    /// Recently unpacked blocks of compressed tiers, by (tier, block): a query reads a few
    /// positions of a block, and each position's exit reads a few more below it.
    unpacked: Mutex<HashMap<(usize, usize), Arc<Unpacked>>>,
    /// Values already read from compressed tiers: a position's exit reads its children, whose
    /// exits read theirs, and the same lower positions come up again and again.
    known: Mutex<HashMap<Board, i8>>,
    /// The files are the published Awari database's (`scores.N`), not this program's.
    published: bool,
    /// Every file's payload checksum was checked when it was opened.
    payloads_checked: bool,
    /// The maps are watched ([`Watching::On`]): [`Tables::unchanged`] also looks at the files
    /// behind them, now and then.
    watched: bool,
    /// When the set was opened, and when [`Tables::unchanged`] last looked at its files (in
    /// milliseconds since then, plus one; 0 before the first look).
    opened_at: std::time::Instant,
    files_seen: AtomicU64,
}

/// How often [`Tables::unchanged`] looks at the files themselves (a `stat` a tier, about 1.6
/// microseconds each here: 29 tiers after every answer would cost a table query more than
/// its reading does). A file replaced or written over is thus noticed within this time.
const FILES_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

/// Unpacked blocks kept at most (each up to ~128 KB).
const UNPACKED_BLOCKS: usize = 256;
/// Values of compressed tiers remembered at most (about 32 bytes each).
const KNOWN_VALUES: usize = 1 << 20;

/// How much of each table file opening checks: every file's header is checked; with
/// [`Payload::Checked`] its whole payload is read against the header's checksum too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payload {
    /// The payload is read and checked against its checksum (a build, a verification, a
    /// reader that must vouch for the values).
    Checked,
    /// Only the header is checked: opening is fast, the values are trusted.
    Unchecked,
}

impl From<bool> for Payload {
    /// `true`: [`Payload::Checked`] (for callers that still pass a flag).
    fn from(checked: bool) -> Payload {
        match checked {
            true => Payload::Checked,
            false => Payload::Unchecked,
        }
    }
}

impl Tables {
    /// Opens the tiers `0..=max` that exist, checking each (a damaged file is an error, a
    /// missing one is not); `payload` says whether the payloads are checked too.
    pub fn open(
        dir: &Path,
        rules: &Rules,
        max: usize,
        payload: impl Into<Payload>,
    ) -> Result<Tables, TableError> {
        Tables::open_with(dir, rules, max, payload.into(), Watching::Off)
    }

    /// [`Tables::open`], every map watched from the start or not ([`Watching`]; a watched set
    /// says whether its files are still those opened: [`Tables::unchanged`]).
    pub fn open_with(
        dir: &Path,
        rules: &Rules,
        max: usize,
        payload: Payload,
        watch: Watching,
    ) -> Result<Tables, TableError> {
        let check_payload = payload == Payload::Checked;
        let ix = Indexer::new(rules, max)?;
        let key = rules.variant().key();
        let mut tiers = Vec::with_capacity(max + 1);
        for n in 0..=max {
            let path = tier_path(dir, &key, n);
            if present(&path) {
                let t = Table::open_as(&path, &key, n, &ix, check_payload, watch)
                    .map_err(|e| e.of_tier(&key, n))?;
                tiers.push(Some(t));
            } else {
                tiers.push(None);
            }
        }
        let mut tables = Tables::of(rules, ix, dir, tiers, false);
        tables.payloads_checked = check_payload;
        tables.watched = watch == Watching::On;
        Ok(tables)
    }

    fn of(
        rules: &Rules,
        ix: Indexer,
        dir: &Path,
        tiers: Vec<Option<Table>>,
        published: bool,
    ) -> Tables {
        Tables {
            rules: rules.clone(),
            ix,
            dir: dir.to_path_buf(),
            tiers,
            unpacked: Mutex::new(HashMap::new()),
            known: Mutex::new(HashMap::new()),
            published,
            payloads_checked: false,
            watched: false,
            opened_at: std::time::Instant::now(),
            files_seen: AtomicU64::new(0),
        }
    }

    /// Opens the files `scores.N` of the published Awari database in `dir` for tiers
    /// `0..=max` (any subset of them; each is checked by its size). The rules must order
    /// their tiers as the database does (the Awari type). The start position, which the
    /// database leaves out, gets its value from its moves.
    pub fn open_published(dir: &Path, rules: &Rules, max: usize) -> Result<Tables, TableError> {
        Tables::open_published_with(dir, rules, max, Watching::Off)
    }

    /// [`Tables::open_published`], every map watched or not, as [`Tables::open_with`].
    pub fn open_published_with(
        dir: &Path,
        rules: &Rules,
        max: usize,
        watch: Watching,
    ) -> Result<Tables, TableError> {
        // A folder that is not there is said to be so, not taken for one whose files are all
        // missing.
        if !dir.is_dir() {
            let why = std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "no such folder (it should hold the published database's files scores.0, scores.1, ...)",
            );
            return Err(FileError::io(dir, why).into());
        }
        let ix = Indexer::new(rules, max)?;
        let key = rules.variant().key();
        if ix.order() != Order::Published {
            return Err(TableError::NotPublished { key });
        }
        let mut tiers = Vec::with_capacity(max + 1);
        for n in 0..=max {
            let path = published_path(dir, n);
            tiers.push(match ix.size(n) {
                0 => None,
                _ if present(&path) => Some(
                    Table::open_published_as(&path, &key, n, &ix, watch)
                        .map_err(|e| e.of_tier(&key, n))?,
                ),
                _ => None,
            });
        }
        let mut tables = Tables::of(rules, ix, dir, tiers, true);
        for n in 0..=max {
            let Some(start) = tables.ix.extra(n).filter(|_| tables.tiers[n].is_some()) else {
                continue;
            };
            let v = tables.best_move(start);
            tables.unchanged()?;
            let t = tables.tiers[n].take().expect("present");
            tables.tiers[n] = Some(t.with_extra(v?));
        }
        Ok(tables)
    }

    /// Are the files still those opened? Looks at every watched map ([`Table::unchanged`]):
    /// a reader asks after each answer, and gives none if a file changed under it (cut
    /// short, or another file copied over it); opening the tables again then reads the file
    /// as it is now. A tier decoded into memory is looked at when it is decoded.
    ///
    /// Every [`FILES_EVERY`] it also looks at the files behind the maps: a file written over
    /// in place, a new one renamed over it (as `mancala build` replaces a damaged tier), a
    /// file removed, or a tier that was missing and is now there, makes
    /// [`FileError::Replaced`]. A header cannot show those: the map still reads the file it
    /// was opened on.
    pub fn unchanged(&self) -> Result<(), TableError> {
        for t in self.tiers.iter().flatten() {
            let h = t.header();
            t.unchanged()
                .map_err(|e| e.of_tier(&h.key, h.tier as usize))?;
        }
        if self.files_due() {
            let key = self.rules.variant().key();
            for (n, t) in self.tiers.iter().enumerate() {
                let replaced = match t {
                    Some(t) => t.replaced().then(|| t.path().to_path_buf()),
                    // A published set's missing files are not looked for: it is opened
                    // from whatever subset is there.
                    None if !self.published => {
                        let path = tier_path(&self.dir, &key, n);
                        present(&path).then_some(path)
                    }
                    None => None,
                };
                if let Some(path) = replaced {
                    return Err(FileError::Replaced { path }.of_tier(&key, n));
                }
            }
        }
        Ok(())
    }

    /// Is it time to look at the files again ([`Tables::unchanged`])? At the first question,
    /// then at most every [`FILES_EVERY`]; never for maps not watched.
    fn files_due(&self) -> bool {
        if !self.watched {
            return false;
        }
        let now = self.opened_at.elapsed().as_millis() as u64 + 1;
        let seen = self.files_seen.load(Relaxed);
        let due = seen == 0 || now.saturating_sub(seen) >= FILES_EVERY.as_millis() as u64;
        // One caller looks; others asking at the same moment rely on it.
        due && self
            .files_seen
            .compare_exchange(seen, now, Relaxed, Relaxed)
            .is_ok()
    }

    /// Was every file's payload checksum checked when the tables were opened (the
    /// `check_payload` of [`Tables::open`])? A record of values found right stands for the
    /// same bytes only then.
    pub fn payloads_checked(&self) -> bool {
        self.payloads_checked
    }

    /// Are these the published database's files?
    pub fn is_published(&self) -> bool {
        self.published
    }

    /// The rule set the tables are of.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The index of their tiers.
    pub fn indexer(&self) -> &Indexer {
        &self.ix
    }

    /// The table folder (the rule set's files are in a subfolder named by its key).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Every tier's table (`None` where not built).
    pub(crate) fn tiers(&self) -> &[Option<Table>] {
        &self.tiers
    }

    /// The table of tier `n`, if built.
    pub fn tier(&self, n: usize) -> Option<&Table> {
        self.tiers.get(n).and_then(|t| t.as_ref())
    }

    /// The largest `k` such that every tier `0..=k` is built (`None` if tier 0 is missing).
    pub fn complete_up_to(&self) -> Option<usize> {
        // A tier without positions (47 seeds in Awari) needs no file.
        let k = (0..self.tiers.len())
            .take_while(|&n| self.tiers[n].is_some() || self.ix.size(n) == 0)
            .count();
        k.checked_sub(1)
    }

    /// Decodes every compressed tier into memory, lowest first, so that each later probe is
    /// one byte read. Every tier below a compressed one must be present.
    pub fn decode_all(&mut self) -> Result<(), TableError> {
        self.decode_up_to(self.tiers.len() - 1)
    }

    /// [`Tables::decode_all`] for tiers `0..=max` only.
    pub fn decode_up_to(&mut self, max: usize) -> Result<(), TableError> {
        let top = max.min(self.tiers.len() - 1);
        // Decoded values live in memory: what the machine cannot hold is refused at once,
        // not left to run out of memory tier after tier.
        let needed = (0..=top)
            .filter(|&n| self.tiers[n].as_ref().is_some_and(|t| t.raw().is_none()))
            .fold(0u64, |a, n| a.saturating_add(self.ix.size(n)));
        if let Some(memory) = crate::physical_memory().filter(|&m| needed > m) {
            return Err(TableError::TooBigToDecode {
                key: self.rules.variant().key(),
                needed,
                memory,
            });
        }
        for n in 0..=top {
            let compressed = self.tiers[n].as_ref().is_some_and(|t| t.raw().is_none());
            if !compressed {
                continue;
            }
            if let Some(k) = (0..n).find(|&k| self.tiers[k].is_none() && self.ix.size(k) > 0) {
                return Err(self.missing(k));
            }
            let (lower, rest) = self.tiers.split_at_mut(n);
            let table = rest[0].take().expect("present");
            let values = decode_tier(&self.rules, &self.ix, n, &table, &Decoded::new(lower));
            // Values decoded from files that changed meanwhile are not kept: in memory, they
            // could not be told apart later.
            let changed = (lower.iter().flatten())
                .chain([&table])
                .try_for_each(Table::unchanged);
            match (changed, values) {
                (Ok(()), Ok(values)) => self.tiers[n] = Some(table.decoded(values)),
                (Err(e), _) => {
                    self.tiers[n] = Some(table);
                    return Err(e.into());
                }
                (Ok(()), Err(e)) => {
                    self.tiers[n] = Some(table);
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// The bytes of the tables' files that [`Tables::warm`] reads (those of values already in
    /// memory are not counted).
    pub fn mapped_bytes(&self) -> u64 {
        self.tiers.iter().flatten().map(Table::mapped_bytes).sum()
    }

    /// Reads the tiers' files into memory, lowest tier first, as long as each fits in what
    /// is left of `budget` bytes, calling `done` with the bytes read after every few
    /// megabytes; returns the bytes read. A long-lived reader (the web oracle) does this when
    /// it starts, so that its first questions find the tables in the page cache rather than
    /// waiting on the disk once a probe. Nothing is checked or changed; a file that cannot be
    /// read whole (cut short meanwhile) ends the reading there.
    pub fn warm(&self, budget: u64, done: &mut dyn FnMut(u64)) -> u64 {
        const STEP: usize = 64 << 20;
        let mut read = 0;
        for t in self.tiers.iter().flatten() {
            if t.mapped_bytes() > budget - read {
                break;
            }
            let mut got = 0;
            let whole = t.warm(STEP, &mut |b| {
                got += b;
                done(b)
            });
            read += got;
            if !whole {
                break;
            }
        }
        read
    }

    /// The values of tier `n` when it is raw or decoded.
    pub fn values(&self, n: usize) -> Option<&[u8]> {
        self.tier(n).and_then(Table::raw)
    }

    /// The table value of an indexed position, or why it cannot be had. A compressed tier
    /// that was not decoded is read one position at a time (see `codec`), which probes the
    /// lower tiers for that position's best exit.
    pub fn probe(&self, b: Board) -> Result<Option<i8>, TableError> {
        let n = b.total() as usize;
        let Some(t) = self.tier(n) else {
            return Err(self.missing(n));
        };
        let Some(r) = self.ix.rank(b) else {
            return Ok(None);
        };
        if t.raw().is_some() {
            return Ok(t.get(r));
        }
        if let Some(&v) = self.known.lock().expect("not poisoned").get(&b) {
            return Ok(Some(v));
        }
        let key = self.rules.variant().key();
        let corrupt = |why: String| FileError::corrupt(t.path(), why).of_tier(&key, n);
        let i = r as usize / BLOCK;
        let cached = self
            .unpacked
            .lock()
            .expect("not poisoned")
            .get(&(n, i))
            .cloned();
        let block = match cached {
            Some(block) => block,
            None => {
                let block = Arc::new(
                    codec::unpack_block(
                        &self.ix,
                        n,
                        i,
                        t.block(i).map_err(|e| e.of_tier(&key, n))?,
                        t.encoding(),
                    )
                    .map_err(corrupt)?,
                );
                let mut cache = self.unpacked.lock().expect("not poisoned");
                if cache.len() >= UNPACKED_BLOCKS {
                    cache.clear();
                }
                cache.insert((n, i), block.clone());
                block
            }
        };
        let mut lower_error = None;
        let decoded = codec::decode_one(&self.rules, &self.ix, n, r, b, &block, |pos| {
            self.best_exit(pos).map_err(|e| {
                let why = e.to_string();
                lower_error = Some(e);
                why
            })
        });
        if let Some(e) = lower_error {
            return Err(e);
        }
        let v = decoded.map_err(corrupt)?;
        let mut known = self.known.lock().expect("not poisoned");
        if known.len() >= KNOWN_VALUES {
            known.clear();
        }
        known.insert(b, v);
        Ok(Some(v))
    }

    /// The best value among the moves of `b` that leave its tier, read through
    /// [`Tables::probe`] (the lower tiers may be compressed too).
    fn best_exit(&self, b: Board) -> Result<i8, TableError> {
        let probed = Probed {
            tables: self,
            error: Mutex::new(None),
        };
        let mut exits = Exits::new(&self.rules, &self.ix);
        exits.add(b, b.total() as usize, &probed);
        exits.resolve(&probed);
        match probed.error.into_inner().expect("not poisoned") {
            Some(e) => Err(e),
            None => Ok(exits.positions[0].0),
        }
    }

    /// The value of `b` from its moves, every child read from the tables (a position the
    /// files leave out).
    fn best_move(&self, b: Board) -> Result<i8, TableError> {
        let best = match self.rules.node(b) {
            Node::Terminal { mover, opp } => mover as i32 - opp as i32,
            Node::Moves(kids) => {
                let mut best = i32::MIN;
                for c in &kids {
                    let w = match c.next {
                        Next::Over => 0,
                        _ => self.probe(c.board)?.ok_or_else(|| {
                            FileError::corrupt(
                                &self.dir,
                                format!("position {:?} is not indexed", c.board),
                            )
                        })? as i32,
                    };
                    best = best.max(c.value(w));
                }
                best
            }
        };
        Ok(best as i8)
    }

    /// The error for a tier that is not built (or, for the published database, whose file is
    /// not in the folder).
    pub fn missing(&self, n: usize) -> TableError {
        if self.published {
            return TableError::MissingPublished {
                tier: n,
                dir: self.dir.clone(),
            };
        }
        TableError::Missing {
            tier: n,
            key: self.rules.variant().key(),
            dir: self.dir.clone(),
        }
    }
}

/// Is anything at `path`? A link that leads nowhere (a loop, a missing target) is something:
/// opening it then says what is wrong with it, where `Path::exists` took it for no file.
fn present(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// Lower-tier values read one position at a time through [`Tables::probe`]. The first error
/// is kept for the caller (the solver's interface reads values, not results).
struct Probed<'a> {
    tables: &'a Tables,
    error: Mutex<Option<TableError>>,
}

impl LowerTiers for Probed<'_> {
    fn value(&self, tier: usize, rank: u64) -> i8 {
        let b = self.tables.ix.unrank(tier, rank);
        match self.tables.probe(b) {
            Ok(Some(v)) => v,
            Ok(None) => {
                self.fail(FileError::corrupt(
                    &self.tables.dir,
                    format!("position {b:?} of tier {tier} is not indexed"),
                ));
                0
            }
            Err(e) => {
                self.fail(e);
                0
            }
        }
    }
}

impl Probed<'_> {
    fn fail(&self, e: impl Into<TableError>) {
        let mut slot = self.error.lock().expect("not poisoned");
        if slot.is_none() {
            *slot = Some(e.into());
        }
    }
}

/// Lower tiers, raw or decoded, as the solver and the codec read them: a probe is one byte
/// read. A tier that is not there (one with no positions, or one the caller knows no probe
/// reaches, as the published database's tier 47) reads as empty.
pub(crate) struct Decoded<'a>(Vec<&'a [u8]>, Vec<Option<&'a Table>>);

impl<'a> Decoded<'a> {
    /// # Panics
    ///
    /// If a tier present is still compressed: callers decode every tier below the one they
    /// solve first ([`Tables::decode_all`]). A probe of an absent tier panics too (out of
    /// bounds): callers check first that every tier a probe can reach is there.
    pub fn new(tiers: &'a [Option<Table>]) -> Decoded<'a> {
        let tables: Vec<Option<&Table>> = tiers.iter().map(Option::as_ref).collect();
        let values = tables
            .iter()
            .map(|t| {
                t.map_or(&[][..], |t| {
                    t.raw().expect("lower tiers are raw or decoded")
                })
            })
            .collect();
        Decoded(values, tables)
    }
}

impl LowerTiers for Decoded<'_> {
    #[inline(always)]
    fn value(&self, tier: usize, rank: u64) -> i8 {
        self.0[tier][rank as usize] as i8
    }

    #[inline(always)]
    fn prefetch(&self, tier: usize, rank: u64) {
        crate::prefetch(&self.0[tier][rank as usize])
    }

    fn release_below(&self, tier: usize, rank: u64) {
        if let Some(t) = self.1[tier] {
            t.release_below(rank);
        }
    }
}

/// Decodes a compressed tier `n`, given every lower tier, into one buffer of its size (a
/// tier bigger than the machine's memory is refused at once).
pub(crate) fn decode_tier<L: LowerTiers>(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    table: &Table,
    lower: &L,
) -> Result<Vec<u8>, TableError> {
    let entries = table.entries();
    if let Some(memory) = crate::physical_memory().filter(|&m| entries > m) {
        return Err(TableError::TooBigToDecode {
            key: rules.variant().key(),
            needed: entries,
            memory,
        });
    }
    let mut values = vec![0u8; entries as usize];
    values
        .par_chunks_mut(BLOCK)
        .enumerate()
        .try_for_each(|(i, out)| {
            let of_tier = |e: FileError| e.of_tier(&rules.variant().key(), n);
            let block = decode_block(rules, ix, n, table, i, lower).map_err(of_tier)?;
            if block.len() != out.len() {
                return Err(of_tier(FileError::corrupt(
                    table.path(),
                    format!("block {i} holds {} values, not {}", block.len(), out.len()),
                )));
            }
            out.copy_from_slice(&block);
            Ok(())
        })?;
    Ok(values)
}

/// Block `i` of compressed tier `n`, decoded (a block of the form read back alone needs no
/// lower tier: `lower` may then be empty).
pub(crate) fn decode_block<L: LowerTiers>(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    table: &Table,
    i: usize,
    lower: &L,
) -> Result<Vec<u8>, FileError> {
    let len = BLOCK.min(table.entries() as usize - i * BLOCK);
    codec::decode_block(
        rules,
        ix,
        n,
        i,
        len,
        table.block(i)?,
        table.encoding(),
        lower,
    )
    .map_err(|why| FileError::corrupt(table.path(), format!("block {i}: {why}")))
}
