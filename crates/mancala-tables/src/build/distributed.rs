//! The distributed build: every tier split across the processes of a [`Cluster`], each
//! holding only its slice's working state, the table files the same as a single process
//! writes (see [`crate::build::cluster`] for the design).
//!
//! Every process reads the finished lower tiers from the shared folder. A tier is solved
//! slice by slice at once; each process writes its slice's values to a part file beside the
//! table; process 0 streams the parts into the table (header and checksum as
//! [`crate::write_table`] writes them), which appears under its name only when whole. A
//! build that stops (a process killed, a disk full) is run again with the same command and
//! resumes at the first tier that is not built and valid.

use crate::build::cluster::{split, Cluster};
use crate::build::single::{remove_checkpoint, BuildObserver, Forward, Solved, Tier};
use crate::error::{FileError, TableError};
use crate::set::Decoded;
use crate::solver::solve_slice;
use crate::store::table::{write_table_from_parts, Table};
use std::cell::Cell;
use std::path::{Path, PathBuf};

/// Solves this process's slice of tier `t` (the slices balanced by [`split`]), writes it to
/// its part file, and (process 0) puts the parts together into the table; every process
/// then opens it. An error inside the solve leaves the other processes in a collective
/// step: it returns at once, for the caller to stop the whole job.
pub(crate) fn solve_split(
    t: Tier<'_>,
    cluster: &dyn Cluster,
    obs: &dyn BuildObserver,
) -> Result<Solved, TableError> {
    let (rules, ix, n, path, lower) = (t.rules, t.ix, t.n, t.path, t.lower);
    let mut layout = t.layout;
    let key = rules.variant().key();
    let (me, processes) = (cluster.rank(), cluster.size());
    let bounds = split(ix, n, processes, (0, ix.size(n)));
    let (lo, hi) = (bounds[me], bounds[me + 1]);
    // Every tier is solved with thresholds here: two passes' worth of units.
    obs.tier_started(n, hi - lo, 2 * (hi - lo));
    if layout.exit_file.is_some() {
        layout.exit_file = Some(path.with_extension(format!("exits-{me}")));
    }
    let counted = Counted {
        inner: cluster,
        sent: Cell::new(0),
    };
    let values = solve_slice(
        rules,
        ix,
        n,
        &Decoded::new(lower),
        &Forward(obs, n),
        &layout,
        &bounds,
        &counted,
    )
    .map_err(|e| {
        let file = layout.exit_file.as_deref().unwrap_or(path);
        TableError::of_solver(e, key.clone(), n, file)
    })?;
    let part = part_path(path, me);
    let written = write_part(&part, &values);
    drop(values);
    let failed = cluster.sum(written.is_err() as u64);
    written?;
    if failed > 0 {
        return Err(TableError::Cluster {
            tier: n,
            key,
            why: format!("{failed} other process(es) could not write their slice"),
        });
    }
    // Process 0 puts the table together; the others wait for its word.
    let assembled = if me == 0 {
        let parts: Vec<PathBuf> = (0..processes).map(|r| part_path(path, r)).collect();
        let done = write_table_from_parts(path, &key, n, ix, &parts);
        if done.is_ok() {
            remove_parts(path);
            // A one-process build of the tier that was killed left it.
            remove_checkpoint(path);
        }
        done.map(Some)
    } else {
        Ok(None)
    };
    if cluster.sum(assembled.is_err() as u64) > 0 {
        assembled?;
        return Err(TableError::Cluster {
            tier: n,
            key,
            why: "process 0 could not write the table".into(),
        });
    }
    let table = Table::open(path, &key, n, ix, false).map_err(|e| e.of_tier(&key, n))?;
    Ok(Solved {
        bytes: table.file_bytes(),
        table,
        sent: cluster.sum(counted.sent.get()),
    })
}

/// Removes every part file of the tier whose table is `table`, whatever process wrote it
/// (an earlier run may have had more processes).
fn remove_parts(table: &Path) {
    let (Some(dir), Some(stem)) = (table.parent(), table.file_stem()) else {
        return;
    };
    let prefix = format!("{}.part-", stem.to_string_lossy());
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with(&prefix) {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
}

/// The file of process `rank`'s slice of the tier whose table is `table`.
fn part_path(table: &Path, rank: usize) -> PathBuf {
    table.with_extension(format!("part-{rank}"))
}

/// Writes a slice's values and makes them durable.
fn write_part(path: &Path, values: &[u8]) -> Result<(), FileError> {
    use std::io::Write;
    let io = |e| FileError::io(path, e);
    if let Some(parent) = path.parent() {
        crate::store::files::make_folder(parent)?;
    }
    let mut f = crate::store::files::create_fresh(path, false).map_err(io)?;
    f.write_all(values).map_err(io)?;
    f.sync_all().map_err(io)
}

/// A cluster that counts the bytes this process sends to the others.
struct Counted<'a> {
    inner: &'a dyn Cluster,
    sent: Cell<u64>,
}

impl Cluster for Counted<'_> {
    fn rank(&self) -> usize {
        self.inner.rank()
    }

    fn size(&self) -> usize {
        self.inner.size()
    }

    fn exchange(&self, out: Vec<Vec<u64>>) -> Vec<Vec<u64>> {
        let me = self.rank();
        let bytes: usize = out
            .iter()
            .enumerate()
            .filter(|&(r, _)| r != me)
            .map(|(_, v)| 8 * v.len())
            .sum();
        self.sent.set(self.sent.get() + bytes as u64);
        self.inner.exchange(out)
    }

    fn sum(&self, x: u64) -> u64 {
        self.inner.sum(x)
    }

    fn max(&self, x: u64) -> u64 {
        self.inner.max(x)
    }
}
