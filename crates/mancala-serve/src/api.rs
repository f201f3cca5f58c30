//! The routes: the page, and the JSON API over the oracles of the rule sets asked for.

use crate::Config;
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use mancala_oracle::json;
use mancala_oracle::{Options, Oracle, OracleError, PackedFamily, Settings, Solution, TableSize};
use mancala_rules::{
    parse_moves, parse_position, Game, GameFamily, GameSpec, Preset, Rules, Side, Variant,
};
use mancala_search::SearchError;
use mancala_tables::{TableError, Tables, MAX_TIER};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OnceCell, Semaphore};

/// The page, served as is: no build step.
const PAGE: &str = include_str!("page.html");

/// The routes of the web oracle over `config`.
pub fn router(config: Config) -> Router {
    let shared = Arc::new(Shared {
        searches: Arc::new(Semaphore::new(config.searches.max(1))),
        config,
        sets: Mutex::new(Sets::default()),
    });
    Router::new()
        .route("/", get(page))
        .route("/api/variants", get(variants))
        .route("/api/play", get(play))
        .route("/api/query", get(query))
        .route("/api/solve", get(solve))
        .fallback(not_found)
        .with_state(shared)
}

/// Rule sets kept open at most; the one asked for least recently goes first (with its
/// searcher's transposition table), so that requests naming ever new variants cannot make
/// the server's memory grow without bound.
const KEEP: usize = 16;

/// What every request shares: the configuration, the rule sets opened so far, and the
/// permits of the searches.
struct Shared {
    config: Config,
    sets: Mutex<Sets>,
    searches: Arc<Semaphore>,
}

/// The rule sets asked for, by table key: each opened once (by the first request that
/// names it, off the request threads), with when it was last asked for.
#[derive(Default)]
struct Sets {
    open: HashMap<String, (Opening, u64)>,
    clock: u64,
}

/// A rule set once opened (the first request to find it empty opens it).
type Opening = Arc<OnceCell<Arc<RuleSet>>>;

/// One rule set: its tables opened once for every reader, and a searcher made at the first
/// search (one search of a rule set at a time: it keeps its transposition table between
/// questions).
struct RuleSet {
    rules: Rules,
    /// The largest tier with a file in the folder: the tables are indexed up to it only
    /// (a game of 112 seeds cannot be indexed whole, and need not be).
    built: Option<usize>,
    reader: Oracle,
    searcher: Mutex<Option<Oracle>>,
}

/// Locks `m`, whatever a panicking holder left (the maps and oracles stay consistent: a
/// panic never leaves one half changed).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The query string as pairs (a name may come more than once: `rule`).
type Params = Query<Vec<(String, String)>>;

/// A request that cannot be answered: its status and what to do.
#[derive(Debug)]
struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn bad(message: impl std::fmt::Display) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.to_string(),
        }
    }

    fn new(status: StatusCode, message: impl std::fmt::Display) -> ApiError {
        ApiError {
            status,
            message: message.to_string(),
        }
    }

    /// An oracle's error: a tier not built is the client's to fix (404); a search out of
    /// time or a damaged table is the server's side (503, 500).
    fn oracle(e: OracleError, key: &str) -> ApiError {
        match e {
            OracleError::Table(TableError::Missing { tier, .. })
            | OracleError::Search(SearchError::Table(TableError::Missing { tier, .. })) => {
                ApiError::new(
                    StatusCode::NOT_FOUND,
                    format!(
                        "tier {tier} of {key} is not built on this server: ask for a position with fewer seeds, or build the tables (`mancala build`) into its folder"
                    ),
                )
            }
            OracleError::Search(SearchError::OutOfTime { lo, hi }) => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "no exact answer within the time limit (the value lies in [{lo}, {hi}]): /api/solve gives the bounds, or ask for a position with fewer seeds"
                ),
            ),
            OracleError::Search(SearchError::TooBig { .. }) => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("{e}: this server cannot search it; ask for a position with fewer seeds"),
            ),
            e => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

async fn page() -> Response {
    ([(header::CACHE_CONTROL, "no-cache")], Html(PAGE)).into_response()
}

async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such page: the API is /api/variants, /api/play, /api/query and /api/solve",
    )
}

/// The names a request may give.
const NAMES: &[&str] = &[
    "variant",
    "pits",
    "seeds",
    "empty_capture",
    "grand_slam",
    "rule",
    "owners",
    "position",
    "moves",
    "max_seconds",
    "tables_only",
];

/// The one value of `name` (the last one given).
fn param<'a>(p: &'a [(String, String)], name: &str) -> Option<&'a str> {
    p.iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// The variant a request names.
fn spec(p: &[(String, String)]) -> Result<GameSpec, ApiError> {
    if let Some((k, _)) = p.iter().find(|(k, _)| !NAMES.contains(&k.as_str())) {
        return Err(ApiError::bad(format!(
            "unknown parameter '{k}': the parameters are {}",
            NAMES.join(", ")
        )));
    }
    let preset = param(p, "variant").ok_or_else(|| {
        ApiError::bad("give variant=NAME (/api/variants lists the presets with tables)")
    })?;
    let count = |name: &str| -> Result<Option<u32>, ApiError> {
        match param(p, name) {
            None | Some("") => Ok(None),
            Some(v) => match v.parse::<u32>() {
                Ok(n @ 1..=1000) => Ok(Some(n)),
                _ => Err(ApiError::bad(format!(
                    "{name} must be a small positive number, not '{v}'"
                ))),
            },
        }
    };
    let empty_capture = match param(p, "empty_capture") {
        None | Some("false") | Some("0") | Some("") => false,
        Some("true") | Some("1") => true,
        Some(v) => {
            return Err(ApiError::bad(format!(
                "empty_capture must be true or false, not '{v}'"
            )))
        }
    };
    Ok(GameSpec {
        preset: preset.trim().to_ascii_lowercase(),
        pits: count("pits")?,
        seeds: count("seeds")?,
        empty_capture,
        grand_slam: param(p, "grand_slam")
            .filter(|g| !g.is_empty())
            .map(str::to_string),
        rules: p
            .iter()
            .filter(|(k, _)| k == "rule")
            .map(|(_, v)| v.clone())
            .collect(),
        owners: param(p, "owners")
            .filter(|o| !o.is_empty())
            .map(str::to_string),
        ..GameSpec::default()
    })
}

impl Shared {
    /// The rule set a request names, opened at its first request (off the request
    /// threads; other requests wait only for the rule set they name).
    async fn rule_set(self: &Arc<Self>, spec: &GameSpec) -> Result<Arc<RuleSet>, ApiError> {
        let variant = spec.variant().map_err(|e| {
            ApiError::bad(format!(
                "{e} (/api/variants lists the presets with tables and their options)"
            ))
        })?;
        let key = variant.key();
        let cell = {
            let mut sets = lock(&self.sets);
            sets.clock += 1;
            let now = sets.clock;
            let cell = {
                let entry = sets
                    .open
                    .entry(key.clone())
                    .or_insert_with(|| (Arc::new(OnceCell::new()), now));
                entry.1 = now;
                entry.0.clone()
            };
            if sets.open.len() > KEEP {
                let oldest = sets
                    .open
                    .iter()
                    .filter(|(k, _)| **k != key)
                    .min_by_key(|(_, (_, used))| *used)
                    .map(|(k, _)| k.clone());
                if let Some(k) = oldest {
                    sets.open.remove(&k);
                }
            }
            cell
        };
        let shared = self.clone();
        cell.get_or_try_init(|| async move {
            tokio::task::spawn_blocking(move || shared.open(variant))
                .await
                .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?
        })
        .await
        .cloned()
    }

    /// Opens a rule set: its tiers in the folder (headers checked; `mancala verify` checks
    /// every byte), or none.
    fn open(&self, variant: Variant) -> Result<Arc<RuleSet>, ApiError> {
        let rules = Rules::new(variant);
        let built = highest_tier(&self.config.dir, &rules);
        let reader = self.oracle(&rules, built)?;
        Ok(Arc::new(RuleSet {
            rules,
            built,
            reader,
            searcher: Mutex::new(None),
        }))
    }

    /// An oracle over the tiers up to `built` (none: search alone).
    fn oracle(&self, rules: &Rules, built: Option<usize>) -> Result<Oracle, ApiError> {
        let c = &self.config;
        let settings = Settings {
            dir: c.dir.clone(),
            tables: TableSize::Auto,
            search: Options {
                hash_mb: c.hash_mb.max(1),
                threads: c.search_threads.max(1),
                time_limit: Some(c.max_seconds),
                ..Options::default()
            },
        };
        let mut oracle = Oracle::new(rules.clone(), settings);
        if let Some(max) = built {
            oracle
                .open_built_checked(max, false)
                .map_err(|e| ApiError::oracle(e, &rules.variant().key()))?;
        }
        Ok(oracle)
    }

    /// The longest a request's search may take: its `max_seconds`, at most the server's.
    fn seconds(&self, p: &[(String, String)]) -> Result<f64, ApiError> {
        let most = self.config.max_seconds;
        match param(p, "max_seconds") {
            None | Some("") => Ok(most),
            Some(v) => match v.parse::<f64>() {
                Ok(s) if s > 0.0 && s <= most => Ok(s),
                _ => Err(ApiError::bad(format!(
                    "max_seconds must be a number of seconds above 0 and at most {most} (this server's limit), not '{v}'"
                ))),
            },
        }
    }

    /// Runs `f` on the rule set's searcher off the request threads, once a search permit is
    /// free (waiting for one at most `seconds`), with `seconds` as its time limit.
    async fn search<T: Send + 'static>(
        self: &Arc<Self>,
        set: Arc<RuleSet>,
        seconds: f64,
        f: impl FnOnce(&mut Oracle) -> Result<T, OracleError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let key = set.rules.variant().key();
        let wait = Duration::from_secs_f64(seconds);
        let permit = tokio::time::timeout(wait, self.searches.clone().acquire_owned())
            .await
            .map_err(|_| {
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "every search slot is busy: try again in a few seconds",
                )
            })?
            .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "shutting down"))?;
        let shared = self.clone();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let mut searcher = lock(&set.searcher);
            if searcher.is_none() {
                *searcher = Some(shared.oracle(&set.rules, set.built)?);
            }
            let oracle = searcher.as_mut().expect("made above");
            oracle.set_time_limit(Some(seconds));
            f(oracle).map_err(|e| ApiError::oracle(e, &key))
        })
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?
    }
}

/// The largest tier of `rules` with a file in the table folder `dir`.
fn highest_tier(dir: &std::path::Path, rules: &Rules) -> Option<usize> {
    let folder = dir.join(rules.variant().key());
    std::fs::read_dir(folder)
        .ok()?
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            let n = name.strip_prefix("tier-")?.strip_suffix(".mtb")?;
            n.parse::<usize>().ok()
        })
        .filter(|&n| n <= rules.max_seeds().min(MAX_TIER))
        .max()
}

/// The game a request describes: its position (the start without one), then its moves.
fn game_of(rules: &Rules, p: &[(String, String)]) -> Result<Game, ApiError> {
    let mut g = match param(p, "position").filter(|t| !t.trim().is_empty()) {
        Some(text) => {
            let b = parse_position(rules, text).map_err(ApiError::bad)?;
            let side = if b.north() { Side::North } else { Side::South };
            Game::from_position(rules.clone(), b, side)
        }
        None => Game::new(rules.clone()),
    };
    if let Some(text) = param(p, "moves") {
        let moves = parse_moves(rules.move_limit(), text).map_err(ApiError::bad)?;
        for (i, &pit) in moves.iter().enumerate() {
            g.play(pit)
                .map_err(|e| ApiError::bad(format!("move {} of moves: {e}", i + 1)))?;
        }
    }
    Ok(g)
}

/// `GET /api/variants`: the presets with tables (as `mancala variants --json` lists them)
/// and the rule sets built in the folder, with the tiers every one of them has up to and the
/// parameters that name it.
async fn variants(State(s): State<Arc<Shared>>) -> Json<Value> {
    let family = PackedFamily {
        settings: Settings::default(),
        builds: Arc::new(()),
        searches: Arc::new(()),
    };
    let presets: Vec<Value> = Preset::ALL
        .iter()
        .filter_map(|p| family.info(p.name()))
        .filter(|i| i.tables)
        .map(|i| json::preset(&i))
        .collect();
    let dir = s.config.dir.clone();
    let built = tokio::task::spawn_blocking(move || built_sets(&dir))
        .await
        .unwrap_or_default();
    Json(json!({ "presets": presets, "built": built }))
}

/// The rule sets with tiers in `dir`: key, tiers, and the parameters that name them.
fn built_sets(dir: &std::path::Path) -> Vec<Value> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut keys: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    keys.sort();
    keys.into_iter()
        .filter_map(|key| {
            let v = Variant::from_key(&key)?;
            let rules = Rules::new(v);
            let max = rules.max_seeds().min(MAX_TIER);
            let up_to = Tables::open(dir, &rules, max, false)
                .ok()?
                .complete_up_to()?;
            Some(json!({
                "key": key,
                "tiers": up_to,
                "params": params_of(rules.variant()),
            }))
        })
        .collect()
}

/// The request parameters that name `v`.
fn params_of(v: &Variant) -> Value {
    let mut p = json!({
        "variant": v.preset.name(),
        "pits": v.pits,
        "seeds": v.seeds,
    });
    if v.empty_capture {
        p["empty_capture"] = json!(true);
    }
    if v.preset == Preset::Wari {
        p["grand_slam"] = json!(v.grand_slam.id());
    }
    let rules: Vec<&str> = v.rules.iter().map(|r| r.name()).collect();
    if !rules.is_empty() {
        p["rule"] = json!(rules);
    }
    if v.sided() {
        p["owners"] = json!(v.owners_text());
    }
    p
}

/// `GET /api/play`: the board after the moves, as `mancala play --json`, with the position
/// as a query takes it and the seeds in the pits.
async fn play(State(s): State<Arc<Shared>>, Query(p): Params) -> Result<Json<Value>, ApiError> {
    let set = s.rule_set(&spec(&p)?).await?;
    let g = game_of(&set.rules, &p)?;
    let mut v = json::game(&g);
    v["position"] = json!(json::position_text(&g));
    v["seeds"] = json!(g.board().total());
    v["tables"] = json!(set.reader.tables_up_to());
    Ok(Json(v))
}

/// `GET /api/query`: the value and every move's, as `mancala query --json`; from the tables
/// when they hold the position, else by a search within the time limit (or, with
/// `tables_only=true`, a 404 that says which tiers are built).
async fn query(State(s): State<Arc<Shared>>, Query(p): Params) -> Result<Json<Value>, ApiError> {
    let set = s.rule_set(&spec(&p)?).await?;
    let seconds = s.seconds(&p)?;
    let b = game_of(&set.rules, &p)?.board();
    let n = b.total() as usize;
    let key = set.rules.variant().key();
    if let Some(a) = set
        .reader
        .table_answer(b)
        .map_err(|e| ApiError::oracle(e, &key))?
    {
        return Ok(Json(json::answer(&a, n)));
    }
    if param(&p, "tables_only") == Some("true") {
        let built = match set.reader.tables_up_to() {
            Some(k) => format!("it has tiers 0..={k}"),
            None => "it has none".into(),
        };
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "the tables of {key} on this server do not hold this position ({n} seeds) and its moves: {built}; drop tables_only to have it searched"
            ),
        ));
    }
    let a = s.search(set, seconds, move |o| o.query(b, &())).await?;
    Ok(Json(json::answer(&a, n)))
}

/// `GET /api/solve`: value (or the bounds proven when the time limit came first), best
/// moves and a principal variation, as `mancala solve --json`.
async fn solve(State(s): State<Arc<Shared>>, Query(p): Params) -> Result<Json<Value>, ApiError> {
    let set = s.rule_set(&spec(&p)?).await?;
    let seconds = s.seconds(&p)?;
    let b = game_of(&set.rules, &p)?.board();
    let key = set.rules.variant().key();
    let tables = set.reader.tables_up_to();
    let started = std::time::Instant::now();
    let read = |e| ApiError::oracle(e, &key);
    if let Some(a) = set.reader.table_answer(b).map_err(read)? {
        let pv = set.reader.table_line(b).map_err(read)?;
        let solution = Solution {
            value: Some(a.value),
            lo: a.value,
            hi: a.value,
            nodes: 1 + a.moves.len() as u64 + pv.len() as u64,
            best: a.best,
            pv,
            seconds: started.elapsed().as_secs_f64(),
        };
        return Ok(Json(json::solution(&solution, tables)));
    }
    let solution = s.search(set, seconds, move |o| o.solve(b, &())).await?;
    Ok(Json(json::solution(&solution, tables)))
}
