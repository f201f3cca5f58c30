//! The processes of a distributed build and the collective steps they take together.
//!
//! Awari tiers form a chain (each needs every tier below it), so handing whole tiers to
//! processes gains nothing: one tier is split across all of them. Each process holds the
//! working state of one slice of the tier, a contiguous run of ranks that starts at a block
//! of the published order (one opponent's row), so the slices are balanced by positions.
//! A process works out the best exits of its own slice alone (the lower tiers are final and
//! every process reads them from the shared folder); only the threshold rounds cross
//! slices, when a newly decided position tells a predecessor that lies in another slice.
//! Those updates go out in one bulk exchange a round, eight bytes each.
//!
//! The trait is what the solver needs of a transport; the `mancala` binary implements it
//! over MPI (its `mpi` feature), and the tests over threads of one process.

use mancala_index::{Indexer, Order};
use std::sync::{Arc, Barrier, Mutex};

/// A group of processes building one tier together. Every method is collective: every
/// process calls it, in the same order, from the thread that drives its build.
pub trait Cluster {
    /// This process's number, `0..size()`.
    fn rank(&self) -> usize;
    /// How many processes there are.
    fn size(&self) -> usize;
    /// Sends `out[r]` to process `r` (`out` has `size()` lists) and returns what each
    /// process sent to this one, by sender.
    fn exchange(&self, out: Vec<Vec<u64>>) -> Vec<Vec<u64>>;
    /// The sum of `x` over every process.
    fn sum(&self, x: u64) -> u64;
    /// The largest `x` of any process.
    fn max(&self, x: u64) -> u64;
}

/// The first rank of each of `parts` slices of tier `n`, then the tier's size: `parts + 1`
/// bounds, rising (a slice may be empty). Each slice starts at the first block at or after
/// its equal share when the order has blocks (the published order: a block is one
/// opponent's row, which the scan of phase 1 takes whole), else exactly at its share.
pub fn split(ix: &Indexer, n: usize, parts: usize, (lo, hi): (u64, u64)) -> Vec<u64> {
    let parts = parts.max(1) as u64;
    let len = hi - lo;
    let target = |k: u64| lo + (len as u128 * k as u128 / parts as u128) as u64;
    let mut bounds = vec![lo];
    if ix.order() == Order::Published {
        let mut blocks = ix.blocks(n).map(|(_, start)| start).peekable();
        for k in 1..parts {
            let want = target(k);
            while blocks.peek().is_some_and(|&s| s < want) {
                blocks.next();
            }
            let at = blocks.peek().copied().unwrap_or(hi).clamp(lo, hi);
            bounds.push(at.max(*bounds.last().expect("one")));
        }
    } else {
        bounds.extend((1..parts).map(target));
    }
    bounds.push(hi);
    bounds
}

/// The bounds of [`split`] for work that goes on from rank `from` (the ranks before it done
/// by an earlier run): `from`, then the bounds above it. Each slice still starts at a block
/// when `from` does, so a run cut at the same bounds goes on with the same slices.
pub fn split_from(
    ix: &Indexer,
    n: usize,
    parts: usize,
    (lo, hi): (u64, u64),
    from: u64,
) -> Vec<u64> {
    let mut bounds = split(ix, n, parts, (lo, hi));
    bounds.retain(|&b| b > from);
    bounds.insert(0, from);
    bounds.dedup();
    bounds
}

/// The slice of `bounds` ([`split`]) that holds `rank`.
#[inline]
pub(crate) fn owner(bounds: &[u64], rank: u64) -> usize {
    bounds.partition_point(|&b| b <= rank) - 1
}

/// Processes played by threads of one process: each thread holds one of the clusters
/// [`LocalCluster::new`] makes and runs the build with it. For tests of the distributed
/// build, and for trying it without MPI.
pub struct LocalCluster {
    rank: usize,
    shared: Arc<Shared>,
}

struct Shared {
    size: usize,
    barrier: Barrier,
    /// `mail[from][to]`.
    mail: Mutex<Vec<Vec<Vec<u64>>>>,
    slots: Mutex<Vec<u64>>,
}

impl LocalCluster {
    /// `size` members of one cluster, by rank.
    pub fn new(size: usize) -> Vec<LocalCluster> {
        let shared = Arc::new(Shared {
            size,
            barrier: Barrier::new(size),
            mail: Mutex::new(vec![Vec::new(); size]),
            slots: Mutex::new(vec![0; size]),
        });
        (0..size)
            .map(|rank| LocalCluster {
                rank,
                shared: shared.clone(),
            })
            .collect()
    }

    fn reduce(&self, x: u64, f: impl Fn(u64, u64) -> u64) -> u64 {
        let s = &self.shared;
        s.slots.lock().expect("no panic holds it")[self.rank] = x;
        s.barrier.wait();
        let r = s
            .slots
            .lock()
            .expect("no panic holds it")
            .iter()
            .copied()
            .reduce(f);
        s.barrier.wait();
        r.expect("one member at least")
    }
}

impl Cluster for LocalCluster {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.shared.size
    }

    fn exchange(&self, out: Vec<Vec<u64>>) -> Vec<Vec<u64>> {
        let s = &self.shared;
        assert_eq!(out.len(), s.size, "one list for each member");
        s.mail.lock().expect("no panic holds it")[self.rank] = out;
        s.barrier.wait();
        let received = {
            let mut mail = s.mail.lock().expect("no panic holds it");
            (0..s.size)
                .map(|from| std::mem::take(&mut mail[from][self.rank]))
                .collect()
        };
        s.barrier.wait();
        received
    }

    fn sum(&self, x: u64) -> u64 {
        self.reduce(x, |a, b| a + b)
    }

    fn max(&self, x: u64) -> u64 {
        self.reduce(x, u64::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::{Preset, Rules, Variant};

    #[test]
    fn slices_start_at_blocks_and_cover_the_tier() {
        for preset in [Preset::Awari, Preset::Kalah] {
            let rules = Rules::new(Variant::preset(preset));
            let ix = Indexer::new(&rules, 14).unwrap();
            for n in [0, 1, 5, 14] {
                let size = ix.size(n);
                let published = ix.order() == Order::Published;
                let starts: Vec<u64> = if published {
                    ix.blocks(n).map(|(_, s)| s).collect()
                } else {
                    Vec::new()
                };
                for parts in [1, 2, 3, 7] {
                    let b = split(&ix, n, parts, (0, size));
                    assert_eq!(b.len(), parts + 1);
                    assert_eq!((b[0], b[parts]), (0, size));
                    assert!(b.windows(2).all(|w| w[0] <= w[1]), "{preset} {n}: {b:?}");
                    if published {
                        for &x in &b[1..parts] {
                            assert!(x == size || starts.contains(&x), "{preset} {n}: {x}");
                        }
                    }
                    for r in [0, size / 2, size.saturating_sub(1)]
                        .into_iter()
                        .filter(|&r| r < size)
                    {
                        let o = owner(&b, r);
                        assert!(b[o] <= r && r < b[o + 1]);
                    }
                }
            }
            // Big tiers split evenly to within a block.
            let b = split(&ix, 14, 2, (0, ix.size(14)));
            let half = ix.size(14) / 2;
            assert!(b[1].abs_diff(half) < half / 10, "{preset}: {b:?}");
        }
    }
}
