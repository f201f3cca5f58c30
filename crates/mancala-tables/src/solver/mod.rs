//! The tier solvers: each turns the final values of the lower tiers into tier `n`'s values,
//! one signed byte a rank.
//!
//! - [`retrograde`]: retrograde analysis by score thresholds, for rules whose quiet moves can
//!   cycle (Awari type); in-tier predecessors come from un-sowing ([`Rules::predecessors`]),
//!   or from [`quiet_graph`] where moves cannot be un-sown (relay sowing). The decided
//!   positions of each threshold are spread to their predecessors by [`propagate`].
//! - [`one_pass`]: one pass by potential, for rules whose quiet moves raise a potential, so
//!   no tier has cycles (Kalah type); Kalah's moves are worked out on whole rows
//!   ([`kalah_rows`]).
//!
//! Both give values that do not depend on the thread count (the tests below check that they
//! agree where both apply).

mod checkpoint;
mod exit_file;
mod kalah_rows;
mod one_pass;
mod propagate;
mod quiet_graph;
mod retrograde;
mod scan;
mod state;

use crate::build::cluster::Cluster;
use crate::bytes::Bytes;
use crate::core::{LowerTiers, Progress, MAX_TIER};
pub use checkpoint::{Checkpoint, Resume};
use mancala_index::Indexer;
use mancala_rules::Rules;
pub use state::MAX_STATE_TIER;

/// Solves tier `n`, given the final values of every lower tier. Returns one signed byte per
/// rank. Tiers without cycles (Kalah type) are solved in one pass by potential, the others by
/// retrograde analysis with thresholds.
///
/// Progress: [`progress_units`] units in all.
///
/// `layout` says how the threshold solver keeps its state (the one-pass solver keeps one byte
/// a position and reads the lower tiers at random, whatever it says). Fails only on the I/O
/// of a file the layout asks for.
pub fn solve_tier<L: LowerTiers>(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    lower: &L,
    progress: &dyn Progress,
    layout: &Layout,
) -> std::io::Result<Bytes> {
    let job = Job {
        progress,
        ..Job::new(rules, ix, n, lower)
    };
    if rules.quiet_moves_raise_potential() {
        one_pass::solve(job, true)
    } else {
        retrograde::solve(job, retrograde::GROUP_CHUNKS, layout.scan, layout, None)
    }
}

/// Solves this process's slice of tier `n` in a distributed build: the ranks
/// `bounds[c.rank()]..bounds[c.rank() + 1]` of it, the other slices (`bounds`, from
/// [`crate::build::cluster::split`]) being solved at the same time by the other processes of `c`.
/// Returns the slice's values. Every rule set that can un-sow is solved by retrograde
/// analysis with thresholds here (the one-pass solver's order does not split); its values
/// are the same.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_slice<L: LowerTiers>(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    lower: &L,
    progress: &dyn Progress,
    layout: &Layout,
    bounds: &[u64],
    c: &dyn Cluster,
) -> std::io::Result<Bytes> {
    debug_assert!(rules.can_unsow(), "checked by the distributed build");
    debug_assert_eq!(bounds.len(), c.size() + 1);
    let job = Job {
        progress,
        bounds: bounds.into(),
        slice: c.rank(),
        ..Job::new(rules, ix, n, lower)
    };
    retrograde::solve(job, retrograde::GROUP_CHUNKS, layout.scan, layout, Some(c))
}

/// Phase 1 of tier `n` on its ranks `lo..hi` alone (at block starts in the published
/// order): each position's best exit ([`crate::core::NO_EXIT`] if none), by the scan in the
/// lower tiers' order where the rules and the order allow, else position by position; one
/// unit of `progress` a position. For a verifier of tiers whose lower tiers do not fit in
/// memory. Fails only when the memory of the slice's arrays cannot be had.
pub(crate) fn best_exits<L: LowerTiers>(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    lower: &L,
    (lo, hi): (u64, u64),
    progress: &dyn Progress,
) -> std::io::Result<Bytes> {
    let job = Job {
        progress,
        bounds: vec![lo, hi].into(),
        slice: 0,
        ..Job::new(rules, ix, n, lower)
    };
    Ok(retrograde::phase1(&job, true)?.1)
}

/// How the threshold solver lays a tier out (see [`crate::build::plan`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// Phase 1 takes the tier in this many slices of ranks (0 and 1: the whole tier at
    /// once), one pass over the lower tiers each when it scans. With an exit file, one
    /// slice's exits are in memory at a time; with the exits in memory, the slices only let
    /// a checkpoint fall inside phase 1 (they are taken so only with a checkpoint).
    pub slices: usize,
    /// The best exits wait in this file during the thresholds instead of in memory.
    pub exit_file: Option<std::path::PathBuf>,
    /// Save the state between thresholds, and resume from a saved one.
    pub checkpoint: Option<Checkpoint>,
    /// Phase 1 reads the lower tiers in order (the scan) where the rules and the order
    /// allow: for lower tiers that do not stay in memory, and for big tiers whose lower
    /// tiers do ([`crate::plan::SCAN_FROM`]); else it works position by position, reading
    /// them at random (faster on smaller tiers, whose lower tiers nearly fit the caches).
    pub scan: bool,
}

/// One tier to solve: the rules, the index, the tier's seeds, the final lower tiers, where
/// progress goes, and which ranks this process solves.
pub(crate) struct Job<'a, L> {
    rules: &'a Rules,
    ix: &'a Indexer,
    n: usize,
    lower: &'a L,
    progress: &'a dyn Progress,
    /// The first rank of each process's slice, then the tier's size (one process: `[0,
    /// size]`), and this process's slice in it.
    bounds: std::borrow::Cow<'a, [u64]>,
    slice: usize,
}

impl<'a, L> Job<'a, L> {
    /// A tier to solve without progress reports.
    fn new(rules: &'a Rules, ix: &'a Indexer, n: usize, lower: &'a L) -> Job<'a, L> {
        assert!(
            n <= MAX_TIER,
            "tier {n} is above the largest tier, {MAX_TIER}"
        );
        Job {
            rules,
            ix,
            n,
            lower,
            progress: &(),
            bounds: vec![0, ix.size(n)].into(),
            slice: 0,
        }
    }

    /// This process's ranks of the tier: `lo..hi`.
    fn part(&self) -> (u64, u64) {
        (self.bounds[self.slice], self.bounds[self.slice + 1])
    }
}

/// The work units [`solve_tier`] reports for a tier of `size` positions: one pass over the
/// positions for the one-pass solver, two (exits, then thresholds) for the retrograde one.
pub fn progress_units(rules: &Rules, size: u64) -> u64 {
    if rules.quiet_moves_raise_potential() {
        size
    } else {
        2 * size
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::{Preset, Variant};

    struct Memory(Vec<Vec<u8>>);
    impl LowerTiers for Memory {
        fn value(&self, tier: usize, rank: u64) -> i8 {
            self.0[tier][rank as usize] as i8
        }
    }

    /// Retrograde analysis of `job` in one process, the default layout, seeding `group`
    /// chunks at a time (with the scan of phase 1 if `scan`).
    fn retro(job: Job<'_, Memory>, group: usize, scan: bool) -> Bytes {
        retrograde::solve(job, group, scan, &Layout::default(), None).unwrap()
    }

    fn kalah(pits: u32, empty_capture: bool) -> Rules {
        let opts = mancala_rules::Options {
            pits: Some(pits),
            empty_capture,
            ..Default::default()
        };
        Rules::new(Variant::new(Preset::Kalah, opts).unwrap())
    }

    /// The one-pass solver of Kalah-type tiers and the retrograde analysis agree byte for
    /// byte on every tier up to 14 seeds, for both capture rules.
    #[test]
    fn one_pass_agrees_with_retrograde_analysis_on_kalah() {
        for empty_capture in [false, true] {
            for pits in [3u32, 6] {
                let rules = kalah(pits, empty_capture);
                let ix = Indexer::new(&rules, 14).unwrap();
                let mut lower = Memory(Vec::new());
                for n in 0..=14 {
                    let job = || Job::new(&rules, &ix, n, &lower);
                    let one_pass = one_pass::solve(job(), true).unwrap();
                    let analysed = retro(job(), retrograde::GROUP_CHUNKS, true);
                    assert_eq!(one_pass[..], analysed[..], "kalah {pits} pits tier {n}");
                    lower.0.push(analysed.to_vec());
                }
            }
        }
    }

    /// Kalah-type moves worked out on whole rows give the rules' move generator's values,
    /// byte for byte, on every tier up to 14 seeds of every board width and both capture
    /// rules.
    #[test]
    fn row_moves_agree_with_the_move_generator() {
        for empty_capture in [false, true] {
            for pits in 1u32..=6 {
                let rules = kalah(pits, empty_capture);
                let max = rules.max_seeds().min(if pits <= 4 { 16 } else { 13 });
                let ix = Indexer::new(&rules, max).unwrap();
                let mut lower = Memory(Vec::new());
                for n in 0..=max {
                    let rows = one_pass::solve(Job::new(&rules, &ix, n, &lower), true).unwrap();
                    let generic = one_pass::solve(Job::new(&rules, &ix, n, &lower), false).unwrap();
                    assert_eq!(rows[..], generic[..], "kalah {pits} pits tier {n}");
                    lower.0.push(generic.to_vec());
                }
            }
        }
    }

    /// How the one-pass solver cuts a level into parallel tasks does not change a byte: tasks
    /// of one position's worth (every mover's row its own task), of 37 (groups cut at odd
    /// places, tasks starting inside a group) and of the default size agree, on every tier up
    /// to 11 seeds of Kalah 5x and 6x with both capture rules.
    #[test]
    fn the_one_pass_solver_gives_the_same_bytes_for_any_task_size() {
        for empty_capture in [false, true] {
            for pits in [5u32, 6] {
                let rules = kalah(pits, empty_capture);
                let max = 11;
                let ix = Indexer::new(&rules, max).unwrap();
                let mut lower = Memory(Vec::new());
                for n in 0..=max {
                    let whole = one_pass::solve(Job::new(&rules, &ix, n, &lower), true).unwrap();
                    for task in [1, 37] {
                        let job = Job::new(&rules, &ix, n, &lower);
                        let cut = one_pass::solve_in_tasks(job, true, task).unwrap();
                        assert_eq!(cut[..], whole[..], "kalah {pits} pits tier {n} task {task}");
                    }
                    lower.0.push(whole.to_vec());
                }
            }
        }
    }

    /// Phase 1 by the scan in the lower tiers' order gives the rank-order walk's exits and
    /// counts byte for byte, for every Awari-type rule set (Wari with each grand slam,
    /// including the one that moves again, whose children the scan reads at random).
    #[test]
    fn the_scan_agrees_with_the_walk() {
        // On two threads, as on the machine the tests were written for: pieces of a few
        // hundred sowings, so a piece's sowings with as many seeds fill several tiles (on
        // dozens of threads the pieces would be too small for that).
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("a pool of two threads")
            .install(|| {
                use mancala_rules::{GrandSlam, Options};
                let wari = |gs| {
                    let opts = Options {
                        grand_slam: Some(gs),
                        ..Default::default()
                    };
                    Rules::new(Variant::new(Preset::Wari, opts).unwrap())
                };
                let mut sets = vec![
                    Rules::new(Variant::preset(Preset::Awari)),
                    Rules::new(Variant::preset(Preset::Oware)),
                ];
                sets.extend(GrandSlam::WARI.map(wari));
                for rules in sets {
                    let ix = Indexer::new(&rules, 11).unwrap();
                    let mut lower = Memory(Vec::new());
                    for n in 0..=11 {
                        let job = Job::new(&rules, &ix, n, &lower);
                        let (scan_states, scan_exits) = retrograde::phase1(&job, true).unwrap();
                        let (walk_states, walk_exits) = retrograde::phase1(&job, false).unwrap();
                        let key = rules.variant().key();
                        assert_eq!(scan_exits[..], walk_exits[..], "{key} tier {n} exits");
                        assert_eq!(scan_states[..], walk_states[..], "{key} tier {n} counts");
                        let values = retro(job, retrograde::GROUP_CHUNKS, true);
                        lower.0.push(values.to_vec());
                    }
                }
            });
    }

    /// A tier split across 2 and 3 processes (threads here) gives the one process's values
    /// byte for byte, for Awari-type rules (the scan of phase 1 by slices) and Kalah (the
    /// rank-order walk), with one seeding group and with a group a chunk (so that processes
    /// with fewer chunks take empty groups), with the exits in memory and in files.
    #[test]
    fn slices_solved_apart_agree_with_the_whole_tier() {
        use crate::build::cluster::{split, LocalCluster};
        let sets = [
            (Rules::new(Variant::preset(Preset::Awari)), 12),
            (Rules::new(Variant::preset(Preset::Oware)), 11),
            (kalah(6, false), 10),
            (kalah(4, true), 11),
        ];
        let dir = std::env::temp_dir().join(format!("mancala-slices-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (rules, max) in sets {
            let key = rules.variant().key();
            let ix = Indexer::new(&rules, max).unwrap();
            let mut lower = Memory(Vec::new());
            for n in 0..=max {
                let job = Job::new(&rules, &ix, n, &lower);
                let whole = retro(job, retrograde::GROUP_CHUNKS, true).to_vec();
                for (processes, group, on_disk) in [(2, usize::MAX, false), (3, 1, true)] {
                    let bounds = split(&ix, n, processes, (0, ix.size(n)));
                    let members = LocalCluster::new(processes);
                    let parts: Vec<Vec<u8>> = std::thread::scope(|s| {
                        let handles: Vec<_> = members
                            .iter()
                            .map(|c| {
                                let (bounds, lower, dir) = (&bounds, &lower, &dir);
                                let (rules, ix) = (&rules, &ix);
                                s.spawn(move || {
                                    let layout = Layout {
                                        slices: 2,
                                        exit_file: on_disk
                                            .then(|| dir.join(format!("exits-{}", c.rank()))),
                                        checkpoint: None,
                                        scan: true,
                                    };
                                    let job = Job {
                                        bounds: bounds.as_slice().into(),
                                        slice: c.rank(),
                                        ..Job::new(rules, ix, n, lower)
                                    };
                                    retrograde::solve(job, group, true, &layout, Some(c))
                                        .unwrap()
                                        .to_vec()
                                })
                            })
                            .collect();
                        handles.into_iter().map(|h| h.join().unwrap()).collect()
                    });
                    assert_eq!(
                        parts.concat(),
                        whole,
                        "{key} tier {n}, {processes} processes"
                    );
                }
                lower.0.push(whole);
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Seeding a chunk at a time (many groups) gives the same values as seeding all at once.
    #[test]
    fn seed_groups_do_not_change_values() {
        for preset in [Preset::Awari, Preset::Oware] {
            let rules = Rules::new(Variant::preset(preset));
            let ix = Indexer::new(&rules, 12).unwrap();
            let mut lower = Memory(Vec::new());
            for n in 0..=12 {
                let all = retro(Job::new(&rules, &ix, n, &lower), usize::MAX, true);
                let one = retro(Job::new(&rules, &ix, n, &lower), 1, false);
                assert_eq!(all[..], one[..], "{preset} tier {n}");
                lower.0.push(all.to_vec());
            }
            assert!(
                ix.size(12) > 10 * crate::core::CHUNK,
                "tier 12 spans many chunks"
            );
        }
    }
}
