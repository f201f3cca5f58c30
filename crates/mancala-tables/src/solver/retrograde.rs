//! Exact values of one tier by parallel retrograde analysis with counters and score thresholds.
//!
//! Lower tiers are final, so every move that banks a seed has a known value; only quiet moves
//! (nothing banked, turn passes) stay inside the tier, and they may form cycles. For each
//! threshold `t = n, n-1, .., 1` we grow two sets as least fixpoints:
//!
//! - `W_t` (value `>= t`): the best exit is worth `>= t`, or some quiet move reaches `L_t`;
//! - `L_t` (value `<= -t`): the best exit is worth `<= -t` and every quiet move reaches `W_t`.
//!
//! Infinite play is worth 0, below every `t >= 1`, so a least fixpoint never credits a cycle.
//! Both sets only grow as `t` falls, so one counter per position (quiet moves whose child is not
//! yet in `W`) serves every threshold. A position first entering `W` at threshold `t` has value
//! exactly `t`, one first entering `L` exactly `-t`; what is left at the end is worth 0.
//!
//! Memory: one byte of state per position ([`super::state`]) and one of best exit, which
//! is only read, in rank order, when a threshold starts. The values are unique, so the result
//! does not depend on the thread count or on timing.

use super::checkpoint::{Clock, Exits as CheckpointExits, Resume, Resumed};
use super::exit_file::ExitFile;
use super::propagate::{Ctx, ExitSource};
use super::quiet_graph::QuietGraph;
use super::scan;
use super::state::{final_value, undecided};
use super::Checkpoint;
use super::{Job, Layout};
use crate::build::cluster::{owner, split_from, Cluster};
use crate::bytes::Bytes;
use crate::core::{Exits, LowerTiers, CHUNK};
use mancala_index::Order;
use rayon::prelude::*;
use std::io;
use std::sync::atomic::Ordering::Relaxed;

/// Chunks seeded together before propagating (64 Mi positions).
pub(crate) const GROUP_CHUNKS: usize = 2048;

/// Solves tier `n` of rules whose quiet moves may cycle, seeding `group_chunks` chunks at a
/// time, laid out as `layout` says. With `scan`, phase 1 reads the lower tiers in order where
/// the rules and the order allow ([`super::scan`]), else it walks the tier in rank order.
/// Progress: `2 * size` units. Fails only on the exit file's I/O.
///
/// With a cluster, this process solves only its slice of the tier (`job.part()`) and the
/// other processes theirs: predecessors in other slices are told in one bulk exchange a
/// round, and every loop that ends on a condition ends on the condition of all processes.
/// Returns the values of the process's ranks.
///
/// Long because it is the whole method in order (phase 1: exits and move counts, or a
/// checkpoint's; phase 2: thresholds from high to low, seeded a group of chunks at a time;
/// then endless play), each phase a commented block over the same counters and chunk state;
/// the work inside each phase lives in the functions it calls.
pub(crate) fn solve<L: LowerTiers>(
    job: Job<'_, L>,
    group_chunks: usize,
    scan: bool,
    layout: &Layout,
    cluster: Option<&dyn Cluster>,
) -> io::Result<Bytes> {
    let (rules, ix, n) = (job.rules, job.ix, job.n);
    let (lo, hi) = job.part();
    let size = ix.size(n);
    let len = hi - lo;
    let graph = (!rules.can_unsow()).then(|| QuietGraph::build(rules, ix, n));
    debug_assert!(
        graph.is_none() || len == size,
        "relay rules are solved whole"
    );

    let profile = std::env::var_os("MANCALA_PROFILE").is_some();
    let clock = std::time::Instant::now();
    // Phase 1: every position's best exit and its number of quiet moves, unless a checkpoint
    // of the tier gives them back (with the thresholds already done, or some slices of phase
    // 1). Only a tier solved whole is checkpointed.
    let key = rules.variant().key();
    let checkpoint = layout.checkpoint.as_ref().filter(|_| len == size);
    let resumed = checkpoint
        .and_then(|c| c.load(&key, n, size))
        .filter(|r| resumes_at_a_bound(&job, r.from));
    if resumed.is_none() && checkpoint.is_some_and(|c| c.path.exists()) {
        job.progress.resumed(None);
    }
    job.progress.phase("best exits");
    let saver = checkpoint.map(|c| (c, key.as_str()));
    let (mut state, exits, first) = match resumed {
        Some(Resumed {
            state,
            exits,
            from: Resume::Threshold(next),
        }) => {
            let done = n as u64 - next.max(0) as u64;
            job.progress.advance(len + len / n.max(1) as u64 * done);
            job.progress.resumed(Some(Resume::Threshold(next)));
            (state, Stored::File(Box::new(exits)), next)
        }
        Some(Resumed {
            state,
            exits,
            from: Resume::Exits { done },
        }) => {
            job.progress.advance(done);
            job.progress.resumed(Some(Resume::Exits { done }));
            let (state, exits) = phase1_sliced(&job, scan, layout, state, exits, saver)?;
            (state, exits, n as i8)
        }
        None => {
            let (state, exits) = match (&layout.exit_file, saver) {
                // In slices, so that a checkpoint can fall between two: the exits stay in
                // memory and go to the checkpoint's exit file as each slice ends.
                (None, Some((c, _))) if layout.slices > 1 => {
                    let file = ExitFile::create(&c.exits_path())?.for_checkpoint();
                    let state = Bytes::zeroed(len as usize)?;
                    phase1_sliced(&job, scan, layout, state, file, saver)?
                }
                (None, _) => {
                    let (state, exits) = phase1(&job, scan)?;
                    (state, Stored::Memory(exits, None))
                }
                (Some(path), _) => {
                    // The checkpoint's exit file when there is one (the same path).
                    let mut file = ExitFile::create(path)?;
                    if saver.is_some() {
                        file = file.for_checkpoint();
                    }
                    let state = Bytes::zeroed(len as usize)?;
                    phase1_sliced(&job, scan, layout, state, file, saver)?
                }
            };
            (state, exits, n as i8)
        }
    };
    let chunks: Vec<u64> = (lo..hi).step_by(CHUNK as usize).collect();
    let cs = CHUNK as usize;
    let ctx = Ctx {
        rules,
        ix,
        n,
        lo,
        hi,
        states: state.atomic_bytes(),
        exits: match &exits {
            Stored::Memory(bytes, _) => ExitSource::Memory(bytes),
            Stored::File(file) => ExitSource::File(file),
        },
        graph: graph.as_ref(),
    };
    let bounds = &job.bounds;
    // Every process takes as many seeding groups as the one with the most, so that the
    // rounds, which are collective, line up.
    let local_groups = chunks.len().div_ceil(group_chunks.max(1)) as u64;
    let groups = cluster.map_or(local_groups, |c| c.max(local_groups)) as usize;
    let all = |x: u64| cluster.map_or(x, |c| c.sum(x));

    let phase1 = clock.elapsed();
    if profile && first == n as i8 {
        eprintln!("tier {n}: exits done in {:.3}s", phase1.as_secs_f64());
    }
    let (mut seeding, mut seeded, mut rounds) = (std::time::Duration::ZERO, 0usize, 0usize);
    let mut sent = 0u64;
    // Phase 2: thresholds from high to low.
    let per_threshold = len / n.max(1) as u64;
    let mut since_checkpoint = Clock::new();
    for t in (1..=first).rev() {
        job.progress.phase(&format!("threshold {t}/{n}"));
        // Seeds are taken a group of chunks at a time and propagated to closure before the
        // next group, which bounds the frontier's memory on big tiers. The sets are least
        // fixpoints, so the order in which their members are found does not change them.
        for g in 0..groups {
            let group = chunks
                .chunks(group_chunks.max(1))
                .nth(g)
                .unwrap_or_default();
            let c = std::time::Instant::now();
            let mut frontier = ctx.seed(t, group)?;
            seeding += c.elapsed();
            seeded += frontier.len();
            while all(frontier.len() as u64) > 0 {
                rounds += 1;
                let (next, remote) = ctx.round(t, &frontier);
                frontier = next;
                if let Some(c) = cluster {
                    let out = by_owner(bounds, remote, c.size());
                    sent += out.iter().map(|v| 8 * v.len() as u64).sum::<u64>();
                    let received = c.exchange(out);
                    frontier.extend(ctx.apply(t, &received));
                } else {
                    debug_assert!(remote.iter().all(Vec::is_empty), "one slice");
                }
            }
        }
        job.progress.advance(per_threshold);
        if let Some(c) = &layout.checkpoint {
            if t > 1 && len == size && since_checkpoint.due(c) {
                let exits = match &exits {
                    Stored::Memory(_, Some(file)) | Stored::File(file) => {
                        CheckpointExits::File(file)
                    }
                    Stored::Memory(bytes, None) => CheckpointExits::Memory(bytes),
                };
                c.save(&key, n, ctx.states, exits, Resume::Threshold(t - 1))?;
            }
        }
    }
    if profile {
        eprintln!(
            "tier {n}: {len} positions; exits {:.3}s, seeding {:.3}s ({seeded} seeds), propagation {:.3}s ({rounds} rounds), {sent} bytes sent",
            phase1.as_secs_f64(),
            seeding.as_secs_f64(),
            (clock.elapsed() - phase1 - seeding).as_secs_f64()
        );
    }
    job.progress.advance(len - per_threshold * n as u64);

    // What was never decided is endless play: worth 0. The checkpoint stays until the
    // caller has written the tier: a kill before that resumes from it.
    drop(exits);
    state
        .bytes_mut()
        .par_chunks_mut(cs)
        .for_each(|c| c.iter_mut().for_each(|s| *s = final_value(*s)));
    Ok(state)
}

/// The updates for other slices, by the process that owns each rank.
fn by_owner(bounds: &[u64], remote: Vec<Vec<u64>>, processes: usize) -> Vec<Vec<u64>> {
    let mut out = vec![Vec::new(); processes];
    for piece in remote {
        for u in piece {
            out[owner(bounds, Ctx::remote_rank(u))].push(u);
        }
    }
    out
}

/// Where phase 1 left the best exits.
enum Stored {
    /// In memory, and in the checkpoint's exit file too when phase 1 was checkpointed.
    Memory(Bytes, Option<Box<ExitFile>>),
    File(Box<ExitFile>),
}

/// Phase 1: every position's state (undecided, with its count of quiet moves) and its best
/// exit ([`crate::core::NO_EXIT`] if none), by the scan in the lower tiers' order when
/// `scan` and the rules and the order allow it, else by a walk in rank order.
pub(crate) fn phase1<L: LowerTiers>(job: &Job<'_, L>, scan: bool) -> io::Result<(Bytes, Bytes)> {
    let (lo, hi) = job.part();
    let mut state = Bytes::zeroed((hi - lo) as usize)?;
    let mut exits = Bytes::zeroed((hi - lo) as usize)?;
    exits_of_slice(job, scan, &mut state, (lo, hi), exits.bytes_mut());
    Ok((state, exits))
}

/// Phase 1 in the layout's slices, going on from the first rank without an exit in `file`
/// (`state` holds the ranks before it), the exits left where the layout plans them: in
/// memory (those already in `file` read back) and in `file` too, or in `file` alone.
fn phase1_sliced<L: LowerTiers>(
    job: &Job<'_, L>,
    scan: bool,
    layout: &Layout,
    mut state: Bytes,
    mut file: ExitFile,
    checkpoint: Option<(&Checkpoint, &str)>,
) -> io::Result<(Bytes, Stored)> {
    let slices = layout.slices;
    if layout.exit_file.is_some() {
        phase1_in_slices(job, scan, slices, &mut state, &mut file, None, checkpoint)?;
        return Ok((state, Stored::File(Box::new(file))));
    }
    let mut exits = Bytes::zeroed(state.len())?;
    file.read(0, &mut exits.bytes_mut()[..file.len() as usize])?;
    let keep = Some(&mut exits);
    phase1_in_slices(job, scan, slices, &mut state, &mut file, keep, checkpoint)?;
    Ok((state, Stored::Memory(exits, Some(Box::new(file)))))
}

/// [`phase1`] in `slices` slices of the process's ranks (each a pass over the lower tiers
/// when it scans), going on from the first rank without an exit in `file` (`state` holds the
/// ranks before it: a new file and a zeroed state, or what a checkpoint gave back). Each
/// slice's exits are appended to `file`; with `keep`, they are also kept there (the whole
/// process's exits), else only one slice's are in memory at a time. With a checkpoint (and
/// the rule set's key), the state is saved between slices when one is due, and after every
/// slice with `keep` (those slices were cut to the checkpoint's interval: a save only when
/// one is due would skip every other one).
fn phase1_in_slices<L: LowerTiers>(
    job: &Job<'_, L>,
    scan: bool,
    slices: usize,
    state: &mut Bytes,
    file: &mut ExitFile,
    mut keep: Option<&mut Bytes>,
    checkpoint: Option<(&Checkpoint, &str)>,
) -> io::Result<()> {
    let (lo, hi) = job.part();
    let from = lo + file.len();
    // The slices a whole phase 1 would take, cut at the first rank to do (a slice boundary
    // when the same plan saved the checkpoint).
    let bounds = split_from(job.ix, job.n, slices.max(1), (lo, hi), from);
    let mut clock = Clock::new();
    for w in bounds.windows(2) {
        let mut alone = None;
        let exits = match keep.as_deref_mut() {
            Some(all) => &mut all.bytes_mut()[(w[0] - lo) as usize..(w[1] - lo) as usize],
            None => alone
                .insert(Bytes::zeroed((w[1] - w[0]) as usize)?)
                .bytes_mut(),
        };
        exits_of_slice(job, scan, state, (w[0], w[1]), exits);
        file.append(exits)?;
        if let Some((c, key)) = checkpoint {
            // Half the interval: slices are cut to about one interval of work each (or
            // smaller), so a save due only after a whole one would skip every other slice.
            if w[1] < hi && (keep.is_some() || clock.due_after(c.every / 2)) {
                let exits = CheckpointExits::File(file);
                let done = Resume::Exits { done: w[1] - lo };
                c.save(key, job.n, state.atomic_bytes(), exits, done)?;
            }
        }
    }
    Ok(())
}

/// Does a checkpoint resume phase 1 where a slice may start? Every slice of a tier in the
/// published order starts at a block (one opponent's row, which the scan takes whole), and
/// so does every checkpoint this solver saves; one that does not was not saved by it.
fn resumes_at_a_bound<L>(job: &Job<'_, L>, from: Resume) -> bool {
    match from {
        Resume::Exits { done } if job.ix.order() == Order::Published => {
            done == job.ix.size(job.n) || job.ix.blocks(job.n).any(|(_, start)| start == done)
        }
        _ => true,
    }
}

/// Can phase 1 scan the lower tiers in order?
fn can_scan<L>(job: &Job<'_, L>, scan: bool) -> bool {
    scan && job.rules.sows_own_row_alone() && job.ix.order() == Order::Published
}

/// Phase 1 on ranks `lo..hi`: their states into `state` (the process's ranks') and their
/// exits into `exits` (the slice's).
fn exits_of_slice<L: LowerTiers>(
    job: &Job<'_, L>,
    scan: bool,
    state: &mut Bytes,
    (lo, hi): (u64, u64),
    exits: &mut [u8],
) {
    let (rules, ix, n, lower) = (job.rules, job.ix, job.n, job.lower);
    let base = job.part().0;
    let (a, b) = ((lo - base) as usize, (hi - base) as usize);
    if can_scan(job, scan) {
        let states = &state.atomic_bytes()[a..b];
        states
            .par_iter()
            .for_each(|s| s.store(undecided(0), Relaxed));
        scan::exits_and_counts(job, states, crate::bytes::atomic_signed(exits), (lo, hi));
        return;
    }
    let cs = CHUNK as usize;
    let starts: Vec<u64> = (lo..hi).step_by(cs).collect();
    state.bytes_mut()[a..b]
        .par_chunks_mut(cs)
        .zip(exits.par_chunks_mut(cs))
        .zip(&starts)
        .for_each(|((states, exits), &start)| {
            let mut i = 0;
            let len = states.len();
            Exits::new(rules, ix).of_range(n, start, len, lower, |exit, quiet| {
                exits[i] = exit as u8;
                states[i] = undecided(quiet);
                i += 1;
            });
            job.progress.advance(len as u64);
        });
}
