//! The distributed build's transport over MPI (the `mpi` feature): `mpirun -np N mancala
//! build ... --mpi` runs N processes, each a member of one [`Cluster`].
//!
//! Updates go in bulk all-to-all exchanges. MPI counts elements with 32-bit integers, so a
//! big exchange is cut into rounds of at most `2^31 / N` elements a pair (every process
//! takes as many rounds as the one that needs the most); `MANCALA_MPI_CHUNK` sets a smaller
//! limit, which the tests use to go through several rounds (the smallest any process was
//! given holds for all).

use anyhow::{Context, Result};
use mancala_tables::Cluster;
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::{Count, Threading};

/// This process's membership of the job `mpirun` started.
pub struct Mpi {
    // Finalizes MPI when dropped, after the communicator.
    world: SimpleCommunicator,
    _universe: Universe,
    /// Elements a pair exchanges at most in one round.
    chunk: u64,
}

impl Mpi {
    /// Joins the job. Only the thread that calls this talks to MPI (the solver's own
    /// threads never do).
    pub fn init() -> Result<Mpi> {
        let (universe, _) = mpi::initialize_with_threading(Threading::Funneled)
            .context("MPI could not start (is this run under mpirun?)")?;
        // A panic in any process stops them all: otherwise it would unwind into MPI's
        // finalize while the others wait for it in a collective step, for ever.
        let report = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            report(info);
            // SAFETY: MPI is initialised (this hook is set after it), and MPI_Abort may be
            // called from any thread; it does not return.
            unsafe {
                mpi::ffi::MPI_Abort(mpi::ffi::RSMPI_COMM_WORLD, 101);
            }
        }));
        let world = universe.world();
        let most = (i32::MAX as u64) / world.size().max(1) as u64;
        let asked = std::env::var("MANCALA_MPI_CHUNK")
            .ok()
            .and_then(|c| c.parse::<u64>().ok())
            .map_or(most, |c| c.clamp(1, most));
        let mut mpi = Mpi {
            world,
            _universe: universe,
            chunk: most,
        };
        // Every process must cut the exchanges alike: the smallest chunk any asked for.
        mpi.chunk = u64::MAX - mpi.max(u64::MAX - asked);
        Ok(mpi)
    }

    /// How many processes of the job run on this machine (they share its cores).
    pub fn on_this_machine(&self) -> usize {
        self.world.split_shared(self.world.rank()).size() as usize
    }

    /// Stops every process of the job with `code`.
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }
}

impl Cluster for Mpi {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn exchange(&self, out: Vec<Vec<u64>>) -> Vec<Vec<u64>> {
        let p = self.size();
        assert_eq!(out.len(), p, "one list for each process");
        let sends: Vec<u64> = out.iter().map(|v| v.len() as u64).collect();
        let mut receives = vec![0u64; p];
        self.world.all_to_all_into(&sends[..], &mut receives[..]);
        let chunk = self.chunk;
        let rounds_here = sends
            .iter()
            .chain(&receives)
            .map(|&c| c.div_ceil(chunk))
            .max()
            .unwrap_or(0);
        let rounds = self.max(rounds_here);
        let mut received: Vec<Vec<u64>> = receives
            .iter()
            .map(|&c| Vec::with_capacity(c as usize))
            .collect();
        // The part of a list of `len` elements that goes in round `k`.
        let piece = |len: u64, k: u64| (k * chunk).min(len)..((k + 1) * chunk).min(len);
        let displacements = |counts: &[Count]| -> Vec<Count> {
            counts
                .iter()
                .scan(0, |at, &c| {
                    let d = *at;
                    *at += c;
                    Some(d)
                })
                .collect()
        };
        for k in 0..rounds {
            let mut send = Vec::new();
            let send_counts: Vec<Count> = out
                .iter()
                .map(|v| {
                    let r = piece(v.len() as u64, k);
                    send.extend_from_slice(&v[r.start as usize..r.end as usize]);
                    (r.end - r.start) as Count
                })
                .collect();
            let receive_counts: Vec<Count> = receives
                .iter()
                .map(|&c| {
                    let r = piece(c, k);
                    (r.end - r.start) as Count
                })
                .collect();
            let (sd, rd) = (displacements(&send_counts), displacements(&receive_counts));
            let total: Count = receive_counts.iter().sum();
            let mut buf = vec![0u64; total as usize];
            {
                let s = Partition::new(&send[..], &send_counts[..], &sd[..]);
                let mut r = PartitionMut::new(&mut buf[..], &receive_counts[..], &rd[..]);
                self.world.all_to_all_varcount_into(&s, &mut r);
            }
            for (from, list) in received.iter_mut().enumerate() {
                let at = rd[from] as usize;
                list.extend_from_slice(&buf[at..at + receive_counts[from] as usize]);
            }
        }
        received
    }

    fn sum(&self, x: u64) -> u64 {
        let mut total = 0u64;
        self.world
            .all_reduce_into(&x, &mut total, SystemOperation::sum());
        total
    }

    fn max(&self, x: u64) -> u64 {
        let mut most = 0u64;
        self.world
            .all_reduce_into(&x, &mut most, SystemOperation::max());
        most
    }
}
