//! One tier built in this process (its solve, its file, its checkpoint), what a build is
//! told and tells ([`BuildOptions`], [`BuildObserver`], [`TierReport`]), and `pack`; the
//! driver that takes the tiers in order is `driver`.

use crate::build::plan::{self, Rates};
use crate::core::Progress;
use crate::error::{FileError, TableError};
use crate::set::{decode_tier, Decoded};
use crate::solver::{progress_units, solve_tier, Checkpoint, Layout, Resume};
use crate::store::codec;
use crate::store::format::{Encoding, BLOCK};
use crate::store::lock::lock_folder;
use crate::store::table::{write_table, write_table_blocks, write_table_pieces, Table};
use crate::store::tier_files::tier_path;
use mancala_index::Indexer;
use mancala_rules::Rules;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// zstd level of compressed tables: compression happens once, probes decompress often.
const ZSTD_LEVEL: i32 = 15;

/// What to build and where. The default builds tier 0 into the current folder, raw, with no
/// memory budget and no checkpoints: callers name the folder and the tiers and take the rest
/// (`BuildOptions { dir, max_seeds, ..BuildOptions::default() }`).
#[derive(Clone, Debug, Default)]
pub struct BuildOptions {
    /// Tables go to `dir/<variant key>/tier-NNN.mtb`.
    pub dir: PathBuf,
    /// Build tiers `0..=max_seeds`.
    pub max_seeds: usize,
    /// Write compressed files (exit residuals in zstd blocks, see `codec`).
    pub compress: bool,
    /// Memory budget in bytes ([`crate::build::plan`]); `None`: no budget, every tier in memory.
    pub memory: Option<u64>,
    /// Tiers with cycles save their state between thresholds at most this often, and a
    /// build resumes a killed tier from its last save; `None`: no saves.
    pub checkpoint_every: Option<Duration>,
    /// Check every value of a tier already built against its moves before keeping it, and
    /// rebuild a tier with a wrong value like a damaged one (a build otherwise trusts a file
    /// whose checksum holds).
    pub repair: bool,
}

/// What one tier took.
#[derive(Clone, Debug)]
pub struct TierReport {
    /// The tier: seeds in the pits.
    pub seeds: usize,
    /// Positions in the tier.
    pub positions: u64,
    /// Wall-clock time the tier took (0 when reused).
    pub seconds: f64,
    /// Size of the file on disk.
    pub bytes: u64,
    /// Peak resident memory of the process so far, in MiB.
    pub peak_rss_mb: u64,
    /// The tier was already built and valid; nothing was done.
    pub reused: bool,
    /// The tier's file.
    pub path: PathBuf,
    /// Bytes the processes of a distributed build sent each other for the tier (0 in one
    /// process).
    pub sent_bytes: u64,
}

/// Hooks for progress display; the library itself prints nothing.
pub trait BuildObserver: Sync {
    /// A tier starts; `work` progress units will follow.
    fn tier_started(&self, _seeds: usize, _positions: u64, _work: u64) {}
    /// `units` more progress units of the current tier are done.
    fn progress(&self, _units: u64) {}
    /// The current tier entered a phase (`what` names it: "exits", "threshold 12/20").
    fn phase(&self, _what: &str) {}
    /// A tier resumes from a checkpoint, where `from` says (the work it had done is already
    /// counted in `progress`).
    fn resuming(&self, _seeds: usize, _from: Resume) {}
    /// A tier's checkpoint could not be used (damaged, or saved by another version): the
    /// tier starts over, and its first save replaces the file.
    fn starting_over(&self, _seeds: usize) {}
    /// A tier file on disk was unusable and is being rebuilt.
    fn replacing(&self, _err: &TableError) {}
    /// Another build holds the rule set's folder (its lock file is `lock`): this one waits
    /// for it to finish, then goes on with what it left.
    fn waiting(&self, _lock: &Path) {}
    /// A tier is done (built or found valid).
    fn tier_finished(&self, _report: &TierReport) {}
}

impl BuildObserver for () {}

/// A build observer seen as the solver's progress on tier `.1`.
pub(crate) struct Forward<'a>(pub &'a dyn BuildObserver, pub usize);
impl Progress for Forward<'_> {
    fn advance(&self, units: u64) {
        self.0.progress(units)
    }

    fn phase(&self, what: &str) {
        self.0.phase(what)
    }

    fn resumed(&self, from: Option<Resume>) {
        match from {
            Some(from) => self.0.resuming(self.1, from),
            None => self.0.starting_over(self.1),
        }
    }
}

/// The checkpoint of the tier whose table is `path`, saved about every `every`.
fn checkpoint_of(path: &Path, every: Duration, lower: &[Option<Table>]) -> Checkpoint {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    crate::store::table::hash_files(&mut h, lower.iter().map(Option::as_ref));
    Checkpoint {
        path: path.with_extension("ckpt"),
        every,
        lower: h.digest(),
    }
}

/// Removes the checkpoint of the tier whose table is `path` and its exits, if any: the tier
/// is on disk.
pub(crate) fn remove_checkpoint(path: &Path) {
    checkpoint_of(path, Duration::ZERO, &[]).remove();
}

/// A tier to solve: its rules, index, seeds, file, the finished tiers below it and the
/// plan's layout.
pub(crate) struct Tier<'a> {
    pub rules: &'a Rules,
    pub ix: &'a Indexer,
    pub n: usize,
    pub path: &'a Path,
    pub lower: &'a [Option<Table>],
    pub layout: Layout,
}

/// A tier solved and written: its table (opened, or decoded for a compressed build), its
/// file's size and the bytes this process sent the others for it.
pub(crate) struct Solved {
    pub table: Table,
    pub bytes: u64,
    pub sent: u64,
}

/// Solves tier `t` in this process and writes its file (compressed with `compress`, in the
/// form that suits a tier built `beyond_memory`), saving checkpoints as `opts` asks.
pub(crate) fn solve_here(
    t: Tier<'_>,
    opts: &BuildOptions,
    beyond_memory: bool,
    obs: &dyn BuildObserver,
) -> Result<Solved, TableError> {
    let (rules, ix, n, path, lower) = (t.rules, t.ix, t.n, t.path, t.lower);
    let mut layout = t.layout;
    let key = rules.variant().key();
    let size = ix.size(n);
    obs.tier_started(n, size, progress_units(rules, size));
    if layout.exit_file.is_some() {
        layout.exit_file = Some(path.with_extension("exits"));
    }
    if let Some(every) = opts.checkpoint_every {
        layout.checkpoint = Some(checkpoint_of(path, every, lower));
    }
    let values = solve_tier(
        rules,
        ix,
        n,
        &Decoded::new(lower),
        &Forward(obs, n),
        &layout,
    )
    .map_err(|e| {
        let ckpt = layout.checkpoint.as_ref().map(|c| c.path.as_path());
        let file = layout.exit_file.as_deref().or(ckpt).unwrap_or(path);
        TableError::of_solver(e, key.clone(), n, file)
    })?;
    // A compressed tier built beyond memory is stored so that reading it back needs no
    // lower tier (their random reads are what the plan avoids).
    let encoding = opts.compress.then(|| compressed_form(beyond_memory));
    let bytes = write_values(rules, ix, n, path, &values, lower, encoding)?;
    let table = Table::open(path, &key, n, ix, false).map_err(|e| e.of_tier(&key, n))?;
    // Only now that the tier is on disk is its checkpoint of no more use (also one a
    // killed build left that this one, saving none, did not use).
    remove_checkpoint(path);
    let table = if opts.compress {
        table.decoded(values.to_vec())
    } else {
        table
    };
    Ok(Solved {
        table,
        bytes,
        sent: 0,
    })
}

/// How far a tier read back from disk is trusted: its checksum, or each value checked
/// against its moves too (`build --repair`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Values {
    /// The values are those the checksum vouches for.
    Trusted,
    /// Each value must be its best move's value.
    Checked,
}

/// A table opened from disk, tier `n`, decoded if it is compressed (every lower tier is in
/// `lower`). With [`Values::Checked`] the table only if each of its values is its best
/// move's value (its own tier's and the lower tiers' values as `lower` and `t` hold them),
/// else the error for the first wrong one.
pub(crate) fn load(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    t: Table,
    lower: &[Option<Table>],
    values: Values,
) -> Result<Table, TableError> {
    let t = if t.raw().is_some() {
        t
    } else {
        let values = decode_tier(rules, ix, n, &t, &Decoded::new(lower))?;
        t.decoded(values)
    };
    if values == Values::Trusted {
        return Ok(t);
    }
    let value_of = |b: mancala_rules::Board| -> Option<i32> {
        let k = b.total() as usize;
        let table = if k == n {
            Some(&t)
        } else {
            lower.get(k)?.as_ref()
        };
        table?.get(ix.rank(b)?).map(i32::from)
    };
    match crate::verify::first_bad(rules, ix, n, &t, value_of) {
        None => Ok(t),
        Some(bad) => Err(TableError::WrongValue {
            key: rules.variant().key(),
            bad: Box::new(bad),
        }),
    }
}

/// How a compressed tier is stored: exit residuals (a third of the raw size, but a read
/// probes the lower tiers), or for a tier beyond memory the values in zstd blocks (about 45%,
/// read back alone).
fn compressed_form(beyond_memory: bool) -> Encoding {
    if beyond_memory {
        Encoding::Zstd
    } else {
        Encoding::Residual
    }
}

/// Writes tier `n`'s values raw (`None`) or compressed as `encoding` (residuals read the
/// lower tiers).
fn write_values(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    path: &Path,
    values: &[u8],
    lower: &[Option<Table>],
    encoding: Option<Encoding>,
) -> Result<u64, TableError> {
    let key = rules.variant().key();
    debug_assert_eq!(values.len() as u64, ix.size(n));
    let io = |e| FileError::io(path, e);
    let (encoding, blocks) = match encoding {
        None | Some(Encoding::Raw) => {
            return Ok(write_table(path, &key, n, ix, Encoding::Raw, values)?)
        }
        Some(Encoding::Residual) => (
            Encoding::Residual,
            codec::encode(rules, ix, n, values, &Decoded::new(lower), ZSTD_LEVEL).map_err(io)?,
        ),
        Some(Encoding::Zstd) => {
            // Blocks read back alone: compressed a batch at a time, written as they come.
            let batches = values.chunks(BLOCK * batch_blocks()).flat_map(|batch| {
                match codec::encode_plain(batch, ZSTD_LEVEL) {
                    Ok(blocks) => blocks.into_iter().map(Ok).collect::<Vec<_>>(),
                    Err(e) => vec![Err(e)],
                }
            });
            let count = crate::store::format::blocks_for(values.len() as u64);
            return Ok(write_table_blocks(
                path,
                &key,
                n,
                ix,
                Encoding::Zstd,
                count,
                batches,
            )?);
        }
    };
    let table = codec::offset_table(&blocks);
    let pieces = std::iter::once(&table[..]).chain(blocks.iter().map(Vec::as_slice));
    Ok(write_table_pieces(path, &key, n, ix, encoding, pieces)?)
}

/// Decodes every compressed tier of `tables` (the tiers below one whose residuals are
/// worked out or read, which probe them at random), lowest first.
fn decode_lower(
    rules: &Rules,
    ix: &Indexer,
    tables: &mut [Option<Table>],
) -> Result<(), TableError> {
    for k in 0..tables.len() {
        if tables[k].as_ref().is_some_and(Table::is_compressed) {
            let (lower, rest) = tables.split_at_mut(k);
            let t = rest[0].take().expect("present");
            rest[0] = Some(load(rules, ix, k, t, lower, Values::Trusted)?);
        }
    }
    Ok(())
}

/// Blocks compressed or decoded at once when a tier is streamed: enough for every thread,
/// few enough that a batch is a few hundred MB at most (16 blocks, 1 M positions, with 2
/// threads; 256 with 64).
fn batch_blocks() -> usize {
    (4 * rayon::current_num_threads()).max(16)
}

/// Writes tier `n`, stored in blocks read back alone, raw to `path`, a batch of blocks at a
/// time (decoded in parallel, written in order): the tier is never in memory whole.
fn unpack_in_batches(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    t: &Table,
    path: &Path,
) -> Result<u64, TableError> {
    let batch = batch_blocks();
    let none: [Option<Table>; 0] = [];
    let lower = Decoded::new(&none);
    let mut failed = None;
    let written = crate::store::table::write_with(
        path,
        &rules.variant().key(),
        n,
        ix,
        Encoding::Raw,
        |f, hash| {
            let mut len = 0;
            for first in (0..t.blocks()).step_by(batch) {
                let blocks: Result<Vec<Vec<u8>>, FileError> = (first
                    ..(first + batch).min(t.blocks()))
                    .into_par_iter()
                    .map(|i| crate::set::decode_block(rules, ix, n, t, i, &lower))
                    .collect();
                let blocks = blocks.map_err(|e| {
                    let why = std::io::Error::other(e.to_string());
                    failed = Some(e);
                    why
                })?;
                for b in &blocks {
                    std::io::Write::write_all(f, b)?;
                    hash.update(b);
                    len += b.len() as u64;
                }
            }
            Ok(len)
        },
    );
    match failed {
        // The damaged block, not the write it stopped.
        Some(e) => Err(e.into()),
        None => Ok(written?),
    }
}

/// Rewrites the tiers `0..=max` of a rule set in compressed form (or back to raw). Compressing
/// or decoding tier `n` reads every tier below it, so all of them must be present: the
/// built tiers are `0..=k` for some `k` (tiers above `k` are simply not built yet), and a
/// tier missing below a built one is [`TableError::Gap`], before any file is rewritten.
/// Returns (tier, bytes before, bytes after) for each file rewritten.
pub fn pack(
    rules: &Rules,
    dir: &Path,
    max: usize,
    compress: bool,
) -> Result<Vec<(usize, u64, u64)>, TableError> {
    let ix = Indexer::new(rules, max)?;
    let key = rules.variant().key();
    let folder = dir.join(&key);
    if !folder.is_dir() {
        return Err(TableError::Missing {
            tier: 0,
            key,
            dir: dir.to_path_buf(),
        });
    }
    let Some(_lock) = lock_folder(&folder, false, |_| {})? else {
        return Err(TableError::Busy { folder });
    };
    // A gap (a tier missing below a built one) is refused before any file is rewritten:
    // nothing above it can be packed, and a set packed up to the gap and reported done
    // would leave the tiers above it raw (or packed) without a word.
    let built = |n: usize| tier_path(dir, &key, n).exists();
    if let Some(tier) = (0..=max).find(|&n| !built(n)) {
        if let Some(above) = (tier + 1..=max).rev().find(|&n| built(n)) {
            return Err(TableError::Gap {
                tier,
                above,
                key,
                dir: dir.to_path_buf(),
            });
        }
    }
    let mut out = Vec::new();
    let mut tables: Vec<Option<Table>> = Vec::new();
    // Tiers a build on this machine would take beyond memory get the form read back alone.
    // Each built tier is planned on its own: a `max` above the built ones (the game's top
    // tier, when no bound is given) must not make the tiers that are there count as beyond
    // memory because some tier that is not there would not fit.
    let top = (0..=max).take_while(|&n| built(n)).last().unwrap_or(0);
    let plans = plan::plan_each(
        rules,
        top,
        plan::default_budget(),
        rayon::current_num_threads(),
        &Rates::default(),
    )
    .ok();
    for n in 0..=max {
        let path = tier_path(dir, &key, n);
        if !path.exists() {
            // The top of the set: a gap below a built tier was refused above.
            break;
        }
        let t = Table::open(&path, &key, n, &ix, true).map_err(|e| e.of_tier(&key, n))?;
        let was_compressed = t.is_compressed();
        let before = t.file_bytes();
        if t.encoding() == Encoding::Zstd {
            // Blocks read back alone, a tier beyond memory: never decoded whole. Unpacked a
            // batch of blocks at a time, else kept as it is (a tier above that needs it raw
            // decodes it then; in a set this program planned, none does).
            if !compress {
                let after = unpack_in_batches(rules, &ix, n, &t, &path)?;
                out.push((n, before, after));
                drop(t);
                tables.push(Some(
                    Table::open(&path, &key, n, &ix, false).map_err(|e| e.of_tier(&key, n))?,
                ));
            } else {
                tables.push(Some(t));
            }
            continue;
        }
        // A tier no plan fits here is beyond memory, as a build would take it.
        let beyond_memory = plans
            .as_ref()
            .and_then(|p| p[n].as_ref().ok())
            .is_none_or(|p| p.beyond_memory());
        let encoding = compress.then(|| compressed_form(beyond_memory));
        // Residuals, read or worked out, probe the lower tiers at random: raw or decoded.
        if was_compressed || (compress && encoding == Some(Encoding::Residual)) {
            decode_lower(rules, &ix, &mut tables)?;
        }
        let t = load(rules, &ix, n, t, &tables, Values::Trusted)?;
        if was_compressed != compress {
            // Read from the old file's mapping (or its decoded copy): the new file is
            // written beside it and renamed over it, and the mapping keeps the old one.
            let values = t.raw().expect("loaded");
            let after = write_values(rules, &ix, n, &path, values, &tables, encoding)?;
            out.push((n, before, after));
            if !compress {
                // The decoded values are on disk now: mapped from there, not held in memory
                // tier after tier (a whole set unpacked is bigger than the memory).
                drop(t);
                tables.push(Some(
                    Table::open(&path, &key, n, &ix, false).map_err(|e| e.of_tier(&key, n))?,
                ));
                continue;
            }
        }
        tables.push(Some(t));
    }
    Ok(out)
}
