//! `mancala serve`: the web oracle (a page and a JSON API) over the tables of a folder.

use crate::searching::DEFAULT_DIR;
use crate::tiers::bytes_text;
use anyhow::{bail, Context, Result};
use clap::Args;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ServeCmd {
    /// Table folder: every rule set built in it is served (others by search alone)
    #[arg(long, value_name = "D", default_value = DEFAULT_DIR)]
    dir: PathBuf,

    /// A folder of the published Awari database's files (scores.N, any subset): Awari is
    /// answered from them (the other rule sets from --dir)
    #[arg(long, value_name = "D")]
    vu_dir: Option<PathBuf>,

    /// Address to listen on (port 0: any free port; 0.0.0.0 to be reached from other machines)
    #[arg(
        long,
        value_name = "IP:PORT",
        allow_negative_numbers = true,
        default_value = "127.0.0.1:8080"
    )]
    addr: SocketAddr,

    /// The longest a search above the tables may take, seconds (a request may ask for less)
    #[arg(
        long,
        value_name = "S",
        allow_negative_numbers = true,
        default_value_t = 5.0
    )]
    max_seconds: f64,

    /// Searches running at once, at most (table reads are not limited)
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        default_value_t = 1
    )]
    searches: usize,

    /// Threads of each search (default: one per core)
    #[arg(long, value_name = "T", allow_negative_numbers = true)]
    threads: Option<usize>,

    /// Connections open at once, at most (more wait to be accepted)
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        default_value_t = 512
    )]
    max_connections: usize,

    /// Seconds a connection may take to send a request's headers, or stay idle between
    /// requests, before it is closed
    #[arg(
        long,
        value_name = "S",
        allow_negative_numbers = true,
        default_value_t = 10.0
    )]
    header_timeout: f64,

    /// Transposition table of each rule set's searcher, MB at most (a search a few seeds above the tables takes less)
    #[arg(
        long,
        value_name = "MB",
        allow_negative_numbers = true,
        default_value_t = 64
    )]
    hash: usize,

    /// Do not read the tables into memory at the start. By default the server reads every
    /// rule set's files once, smallest first, up to half the machine's memory (or what is
    /// available, if less), while it already answers: after a reboot its first searches would
    /// otherwise wait on the disk for each probe (and could run out of time)
    #[arg(long)]
    no_warm: bool,
}

impl ServeCmd {
    pub fn run(&self) -> Result<()> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        // Below the least a request may ask, every request's own limit would be refused.
        let least = mancala_serve::LEAST_SECONDS;
        if !(least..=3600.0).contains(&self.max_seconds) {
            bail!("--max-seconds must be from {least} to 3600 (an hour)");
        }
        if !(1..=64).contains(&self.searches) {
            bail!("--searches must be between 1 and 64");
        }
        let threads = self.threads.unwrap_or(cores);
        if !(1..=4 * cores).contains(&threads) {
            bail!(
                "--threads must be between 1 and {} (four times this machine's cores)",
                4 * cores
            );
        }
        if !(1..=1_000_000).contains(&self.max_connections) {
            bail!("--max-connections must be between 1 and 1000000");
        }
        if !(self.header_timeout >= 0.1 && self.header_timeout <= 3600.0) {
            bail!("--header-timeout must be between 0.1 and 3600 seconds");
        }
        if !(1..=65536).contains(&self.hash) {
            bail!("--hash must be between 1 and 65536 (MB)");
        }
        if self.dir.exists() && !self.dir.is_dir() {
            bail!(
                "--dir {} is a file, not a folder of tables",
                self.dir.display()
            );
        }
        if !self.dir.exists() {
            bail!(
                "--dir {}: no such folder. Build tables into it first (mancala build awari --max-seeds 16 --dir {0}), or create it empty to answer every question by search",
                self.dir.display()
            );
        }
        if let Some(vu) = &self.vu_dir {
            if !vu.is_dir() {
                bail!(
                    "--vu-dir {}: no such folder (it should hold the published database's files scores.0, scores.1, ...)",
                    vu.display()
                );
            }
            let has_any = (0..=48).any(|n| mancala_tables::published::file_path(vu, n).is_file());
            if !has_any {
                bail!(
                    "--vu-dir {}: no scores.N file in it (the published Awari database has one a seed count, scores.0 to scores.48)",
                    vu.display()
                );
            }
        }
        let config = mancala_serve::Config {
            dir: self.dir.clone(),
            vu_dir: self.vu_dir.clone(),
            max_seconds: self.max_seconds,
            searches: self.searches,
            search_threads: threads,
            hash_mb: self.hash,
            max_connections: self.max_connections,
            header_timeout: std::time::Duration::from_secs_f64(self.header_timeout),
        };
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .context("starting the server's threads")?;
        runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind(self.addr)
                .await
                .with_context(|| format!("cannot listen on {} (is it in use? try --addr 127.0.0.1:0 for any free port)", self.addr))?;
            let addr = listener.local_addr()?;
            match &self.vu_dir {
                Some(vu) => println!(
                    "serving the tables of {} and the published Awari files of {} on http://{addr}/ (Ctrl-C to stop)",
                    self.dir.display(),
                    vu.display()
                ),
                None => println!(
                    "serving the tables of {} on http://{addr}/ (Ctrl-C to stop)",
                    self.dir.display()
                ),
            }
            std::io::stdout().flush()?;
            // Once the address is taken: a server that cannot listen reads nothing.
            if !self.no_warm {
                warm_in_background(&config);
            }
            mancala_serve::serve(listener, config)
                .await
                .context("serving")
        })
    }
}

/// Reads the server's tables into memory on a thread of its own (see `mancala_serve::warm`),
/// saying on standard error what it read and how long it took. At most half the machine's
/// memory, and no more than it has available (within the process's control group); 4 GB
/// where the system does not tell.
fn warm_in_background(config: &mancala_serve::Config) {
    let config = config.clone();
    let half = mancala_tables::physical_memory().map(|m| m / 2);
    let budget = match (half, mancala_tables::available_memory()) {
        (Some(h), Some(a)) => h.min(a),
        (h, a) => h.or(a).unwrap_or(4 << 30),
    };
    let spawned = std::thread::Builder::new()
        .name("warm".into())
        .spawn(move || {
            let started = std::time::Instant::now();
            let mut total = 0u64;
            mancala_serve::warm(&config, budget, &mut |w| {
                total += w.read;
                let took = w.took.as_secs_f64();
                if w.read == w.bytes {
                    eprintln!(
                        "tables of {} read into memory: {} in {took:.1} s",
                        w.key,
                        bytes_text(w.read)
                    );
                } else if w.read > 0 {
                    eprintln!(
                        "tables of {}: {} of {} read into memory in {took:.1} s (the lower tiers; the memory budget of {} allows no more)",
                        w.key,
                        bytes_text(w.read),
                        bytes_text(w.bytes),
                        bytes_text(budget)
                    );
                } else {
                    eprintln!(
                        "tables of {} left on disk ({}: beyond the memory budget of {}); its first questions read them",
                        w.key,
                        bytes_text(w.bytes),
                        bytes_text(budget)
                    );
                }
            });
            // Always said, last: a script waiting for the server to be ready waits for it.
            eprintln!(
                "tables in memory: {} in {:.1} s",
                bytes_text(total),
                started.elapsed().as_secs_f64()
            );
        });
    // Without the thread the server still answers, from the disk at first.
    if let Err(e) = spawned {
        eprintln!("could not start reading the tables into memory ({e}); answering from the disk");
    }
}
