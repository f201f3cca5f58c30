//! The web oracle: one page to explore perfect play in a browser, and a JSON API over HTTP,
//! both answered by [`mancala_oracle::Oracle`], the door the command line uses too.
//!
//! | request | answer |
//! |---|---|
//! | `GET /` | the page (an SVG board, every move's value, perfect play for either side) |
//! | `GET /api/variants` | the presets with tables, and the rule sets built in the folder |
//! | `GET /api/play?variant=V&position=P&moves=M` | the board after the moves (as `mancala play --json`, with `position`: the position as queries take it, and `sides`: who played each move) |
//! | `GET /api/query?variant=V&position=P` | its value and every move's (as `mancala query --json`); `tables_only=true`: from the tables or a 404; `exact=true`: as `query --exact` |
//! | `POST /api/query` | a batch: `{"variant": V, ..., "positions": [P, ...]}` gives `{"answers": [...]}`, each what `GET` gives or `{"error", "status"}` |
//! | `GET /api/solve?variant=V&position=P&max_seconds=S` | value or proven bounds, best moves, a principal variation (as `mancala solve --json`); `at_least=V`: is the value at least V? (as `mancala solve --at-least V --json`: `answer` true, false or null, and the moves proven to reach V) |
//!
//! The variant is named as on the command line: `variant`, and optionally `pits`, `seeds`,
//! `empty_capture=true`, `grand_slam`, `rule` (repeatable) and `owners`. Without `position`,
//! the game's start; `to_move=north` draws a position with North to move (its value is the
//! same). Bad input gets a 4xx answer `{"error": "..."}` that says what to fix, in the API's
//! words. Every answer allows any origin (CORS): any page may call the API.
//!
//! Table reads run on the request threads, many at once over tables opened once per rule
//! set. Searches (positions above the tables) run on their own threads, at most
//! [`Config::searches`] at a time, each within the time limit, so a burst of them cannot
//! starve the table reads. No request names a file: a rule set's tables are found under the
//! folder by its key (or, for Awari, among the published database's files given to the
//! server). Each rule set is opened for its whole variant, seeds included (see `sets`).
//! [`warm`] reads a server's tables into memory when it starts (see `tables`).

#![warn(missing_docs)]

mod api;
mod refusals;
mod request;
mod sets;
mod tables;

pub use api::{router, MAX_BATCH};
/// The shortest time limit a request may give (and so the server's own, at least).
pub use request::LEAST_SECONDS;
/// The query parameters a request may give (any other is refused).
pub use request::NAMES as PARAMETERS;
pub use tables::{warm, Warmed};

use std::path::PathBuf;

/// How the server answers.
#[derive(Clone, Debug)]
pub struct Config {
    /// The table folder (each rule set's tables in a subfolder named by its key).
    pub dir: PathBuf,
    /// A folder of the published Awari database's files (`scores.N`): Awari at its default
    /// size is answered from them instead of from `dir`.
    pub vu_dir: Option<PathBuf>,
    /// The longest a search may take, seconds (a request may ask for less).
    pub max_seconds: f64,
    /// Searches running at once, at most.
    pub searches: usize,
    /// Threads of each search.
    pub search_threads: usize,
    /// Transposition table of each rule set's searcher, MB at most (a search near the tables
    /// takes less).
    pub hash_mb: usize,
    /// Connections open at once, at most: more wait to be accepted. Each holds a file
    /// descriptor, so the cap keeps the server below its limit of them.
    pub max_connections: usize,
    /// How long a connection may take to send a request's headers, and stay idle between
    /// requests, before it is closed: a client that opens connections and sends nothing
    /// cannot keep them.
    pub header_timeout: std::time::Duration,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            dir: PathBuf::from("databases"),
            vu_dir: None,
            max_seconds: 5.0,
            searches: 1,
            search_threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            hash_mb: 64,
            max_connections: 512,
            header_timeout: std::time::Duration::from_secs(10),
        }
    }
}

/// Serves `config` on `listener` until the process ends: at most
/// [`Config::max_connections`] connections at once, each closed when it has sent no complete
/// request headers for [`Config::header_timeout`] (a new connection or an idle kept-alive
/// one). A request hyper cannot read (400, 414, 431) is refused with the API's JSON error too.
pub async fn serve(listener: tokio::net::TcpListener, config: Config) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use std::sync::Arc;
    let slots = Arc::new(tokio::sync::Semaphore::new(config.max_connections.max(1)));
    let timeout = config.header_timeout;
    let app = router(config);
    loop {
        let permit = slots
            .clone()
            .acquire_owned()
            .await
            .map_err(std::io::Error::other)?;
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors or a connection reset before it was taken: wait a
            // moment and go on, as a server must.
            Err(_) => {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                continue;
            }
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let _permit = permit;
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(timeout)
                .serve_connection(TokioIo::new(refusals::JsonRefusals::new(stream)), service);
            // A connection that fails (reset, timed out) concerns only its client.
            let _ = connection.await;
        });
    }
}
