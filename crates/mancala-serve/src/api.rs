//! The routes: the page, and the JSON API over the oracles of the rule sets asked for.

use crate::request::{self, flag, ApiError, Pairs};
use crate::sets::{RuleSet, Shared};
use crate::Config;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use mancala_oracle::json;
use mancala_oracle::{PackedFamily, Settings};
use mancala_rules::{Board, GameFamily, Grouped, Preset, Rules, RulesError, Variant};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Instant;

/// The page, served as is: no build step.
const PAGE: &str = include_str!("page.html");

/// Positions one batch query may hold at most: enough for a notebook's or a training
/// script's batch, small enough that one request cannot hold the server for long.
pub const MAX_BATCH: usize = 10_000;

/// The largest request body read (a full batch of positions fits many times over).
const MAX_BODY: usize = 4 << 20;

/// The routes of the web oracle over `config`.
pub fn router(config: Config) -> Router {
    let shared = Arc::new(Shared::new(config));
    Router::new()
        .route("/", get(page))
        .route("/api/variants", get(variants))
        .route("/api/play", get(play))
        .route("/api/query", get(query).post(batch))
        .route("/api/solve", get(solve))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn(cors))
        .with_state(shared)
}

/// Any page may call the API (`access-control-allow-origin: *`): it holds no secrets and
/// changes nothing. A browser's preflight (`OPTIONS`, before a JSON `POST`) is answered here.
async fn cors(request: Request, next: Next) -> Response {
    let mut response = if request.method() == Method::OPTIONS {
        let mut r = StatusCode::NO_CONTENT.into_response();
        let h = r.headers_mut();
        h.insert(
            header::ACCESS_CONTROL_ALLOW_METHODS,
            HeaderValue::from_static("GET, POST, OPTIONS"),
        );
        h.insert(
            header::ACCESS_CONTROL_ALLOW_HEADERS,
            HeaderValue::from_static("content-type"),
        );
        h.insert(
            header::ACCESS_CONTROL_MAX_AGE,
            HeaderValue::from_static("86400"),
        );
        r
    } else {
        next.run(request).await
    };
    response.headers_mut().insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    response
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

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "this method is not allowed here: the API answers GET (and POST of a batch to /api/query)",
    )
}

/// The query string's pairs, or the answer for one that cannot be read.
fn pairs(
    q: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Vec<(String, String)>, ApiError> {
    q.map(|Query(p)| p).map_err(|e| {
        ApiError::bad(format!(
            "the query string cannot be read: {}",
            e.body_text()
        ))
    })
}

/// The rule set a request names.
async fn rule_set(s: &Arc<Shared>, p: &Pairs) -> Result<Arc<RuleSet>, ApiError> {
    let variant = request::spec(p)?.variant().map_err(|e| match e {
        // The name may be a game of this engine that has no tables (played with `mancala
        // play`), or no game at all: either way not one this server answers.
        RulesError::UnknownVariant(name) => ApiError::bad(format!(
            "'{name}' is not a game this server answers: it answers the presets with tables, which /api/variants lists"
        )),
        e => ApiError::bad(format!(
            "{} (/api/variants lists the presets with tables and their options)",
            e.worded(&request::ApiWords)
        )),
    })?;
    s.rule_set(variant).await
}

/// `GET /api/variants`: the presets with tables (as `mancala variants --json` lists them,
/// their sizes in the API's words) and the rule sets with tables on this server, with the
/// seeds they answer up to and the parameters that name them.
async fn variants(
    State(s): State<Arc<Shared>>,
    q: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    if let Some((k, _)) = pairs(q)?.first() {
        return Err(ApiError::bad(format!(
            "unknown parameter '{k}': /api/variants takes none"
        )));
    }
    let family = PackedFamily {
        settings: Settings::default(),
        builds: Arc::new(()),
        searches: Arc::new(()),
    };
    let presets: Vec<Value> = Preset::ALL
        .iter()
        .filter_map(|p| family.info(p.name()))
        .filter(|i| i.tables)
        .map(|i| {
            let mut v = json::preset(&i);
            if let (Some([p0, p1]), Some([s0, s1])) =
                (pair(&v["pits_range"]), pair(&v["seeds_range"]))
            {
                v["sizes"] = json!(format!(
                    "default {} pits x {} seeds; pits {p0}..{p1}, seeds {s0}..{s1}",
                    v["pits"], v["seeds"]
                ));
            }
            v
        })
        .collect();
    let config = s.config.clone();
    let built = tokio::task::spawn_blocking(move || built_sets(&config))
        .await
        .unwrap_or_default();
    Ok(Json(json!({ "presets": presets, "built": built })))
}

/// Two numbers of a JSON array.
fn pair(v: &Value) -> Option<[u64; 2]> {
    Some([v.get(0)?.as_u64()?, v.get(1)?.as_u64()?])
}

/// The rule sets with tables on this server: key, the seeds they answer up to, the
/// parameters that name them, and whose files they are.
fn built_sets(config: &Config) -> Vec<Value> {
    // One rule set open at a time, and only while its reach is read.
    crate::tables::on_server(config)
        .iter()
        .filter_map(|(rules, source)| {
            let up_to = source.open_headers(config, rules)?.complete_up_to()?;
            Some(built(rules, up_to, source.name()?))
        })
        .collect()
}

fn built(rules: &Rules, up_to: usize, source: &str) -> Value {
    json!({
        "key": rules.variant().key(),
        "up_to_seeds": up_to,
        "source": source,
        "params": params_of(rules.variant()),
    })
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
/// as a query takes it, the seeds in the pits, the tables' reach and the side that played
/// each move (`sides`).
async fn play(
    State(s): State<Arc<Shared>>,
    q: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let p = pairs(q)?;
    request::refuse(
        &p,
        &["max_seconds", "tables_only", "exact", "at_least"],
        "/api/play",
        "it plays moves and answers no question (/api/query and /api/solve do)",
    )?;
    let set = rule_set(&s, &p).await?;
    let asked = request::game(&set.rules, &p)?;
    let g = &asked.game;
    let mut v = json::game(g);
    v["sides"] = json!(asked.sides.iter().map(|s| s.name()).collect::<Vec<_>>());
    v["position"] = json!(json::position_text(g));
    v["seeds"] = json!(g.board().total());
    v["tables"] = json!(set.reader.tables_up_to());
    Ok(Json(v))
}

/// How a query wants its answer.
#[derive(Clone, Copy)]
struct Ask {
    /// From the tables or not at all.
    tables_only: bool,
    /// Every move's exact value, above the tables too (as `mancala query --exact`).
    exact: bool,
}

impl Ask {
    fn read(p: &request::Pairs) -> Result<Ask, ApiError> {
        Ok(Ask {
            tables_only: flag(p, "tables_only")?,
            exact: flag(p, "exact")?,
        })
    }
}

/// The answer of one position: from the tables when they hold it and its moves, else by a
/// search within `seconds` (or, with `tables_only`, a 404 that says which tiers are built).
async fn answer(
    s: &Arc<Shared>,
    set: &Arc<RuleSet>,
    b: Board,
    seconds: f64,
    ask: Ask,
) -> Result<Value, ApiError> {
    let n = b.total() as usize;
    let key = set.rules.variant().key();
    if let Some(a) = set
        .reader
        .table_answer(b)
        .map_err(|e| s.oracle_error(set, e))?
    {
        return Ok(json::answer(&a, n));
    }
    if ask.tables_only {
        if let Some(why) = set.reader.cannot_arise(b) {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                format!(
                    "no table of {key} holds this position: it cannot arise in a game of {} ({why}); drop tables_only to have it searched",
                    set.rules.variant().preset.name()
                ),
            ));
        }
        let mut built = match set.reader.tables_up_to() {
            Some(k) => format!("it has tiers 0..={k}"),
            None => "it has none".into(),
        };
        if let Some(why) = &set.damaged {
            built = format!(
                "{built} in use ({why}; `mancala build` of {key} into the server's folder replaces it)"
            );
        }
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "the tables of {key} on this server do not hold this position ({n} seeds) and its moves: {built}; drop tables_only to have it searched"
            ),
        ));
    }
    let a = s
        .search(set.clone(), seconds, move |o| match ask.exact {
            true => o.query_exact(b, &()),
            false => o.query(b, &()),
        })
        .await?;
    Ok(json::answer(&a, n))
}

/// What a question about one position gives: its parameters, rule set, time limit and the
/// position asked.
struct Question {
    params: Vec<(String, String)>,
    set: Arc<RuleSet>,
    seconds: f64,
    position: Board,
}

/// Reads a question about one position from its query string.
async fn question(
    s: &Arc<Shared>,
    q: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Question, ApiError> {
    let params = pairs(q)?;
    let set = rule_set(s, &params).await?;
    let seconds = request::seconds(&params, s.config.max_seconds)?;
    let position = request::game(&set.rules, &params)?.position;
    Ok(Question {
        params,
        set,
        seconds,
        position,
    })
}

/// `GET /api/query`: the value and every move's, as `mancala query --json`.
async fn query(
    State(s): State<Arc<Shared>>,
    q: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let q = question(&s, q).await?;
    // A yes/no question is /api/solve's; here it was taken and ignored (the probe of
    // 2026-12-07), and the client read a plain answer as the answer to its question.
    request::refuse(
        &q.params,
        &["at_least"],
        "/api/query",
        "it asks a yes/no question, which /api/solve answers (/api/query gives the value and every move's)",
    )?;
    let ask = Ask::read(&q.params)?;
    answer(&s, &q.set, q.position, q.seconds, ask)
        .await
        .map(Json)
}

/// `POST /api/query`: many positions of one rule set at once. The body is a JSON object with
/// the variant's parameters as a query string names them, `positions` (each a position
/// string or an array of pit counts, at most [`MAX_BATCH`]) and optionally `tables_only`
/// and `max_seconds` (for the whole request: positions above the tables are searched one
/// after another while time is left). The answer is `{"answers": [...]}`, one per position
/// in order: what `GET /api/query` answers for it, or `{"error", "status"}`.
async fn batch(State(s): State<Arc<Shared>>, request: Request) -> Result<Json<Value>, ApiError> {
    // Every parameter of a batch is in its body; one in the address was ignored (the probe
    // of 2026-12-08: `?variant=kalah` over an Awari body answered Awari).
    if let Some(q) = request.uri().query().filter(|q| !q.is_empty()) {
        return Err(ApiError::bad(format!(
            "a batch takes its parameters from its JSON body, not from the address ('?{q}')"
        )));
    }
    // A body announced bigger than the limit is refused at once, not waited for.
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if let Some(n) = announced.filter(|&n| n > MAX_BODY as u64) {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("a body of {n} bytes: at most {MAX_BODY} are read; split the batch"),
        ));
    }
    // The body is read within a time limit: a client that sends it a byte at a time cannot
    // hold a connection for ever.
    let limit = s.config.header_timeout * 3;
    let bytes = tokio::time::timeout(limit, axum::body::to_bytes(request.into_body(), MAX_BODY))
        .await
        .map_err(|_| {
            ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!("the body did not arrive within {} s", limit.as_secs_f64()),
            )
        })?
        .map_err(|e| {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the body cannot be read: {e} (at most {MAX_BODY} bytes)"),
            )
        })?;
    let body: Value = serde_json::from_slice(&bytes).map_err(|e| {
        ApiError::bad(format!(
            "the body must be a JSON object with the variant's parameters and \"positions\": {e}"
        ))
    })?;
    let Some(fields) = body.as_object() else {
        return Err(ApiError::bad(
            "the body must be a JSON object with the variant's parameters and \"positions\"",
        ));
    };
    let mut p = Vec::new();
    let mut positions = None;
    for (k, v) in fields {
        match (k.as_str(), v) {
            ("positions", Value::Array(list)) => positions = Some(list),
            ("positions", _) => return Err(ApiError::bad("positions must be an array")),
            ("position" | "moves", _) => {
                return Err(ApiError::bad(format!(
                    "{k} is not taken by a batch: give every position in positions"
                )))
            }
            (_, Value::Array(items)) => {
                for item in items {
                    p.push((k.clone(), scalar(k, item)?));
                }
            }
            (_, v) => p.push((k.clone(), scalar(k, v)?)),
        }
    }
    let positions = positions.ok_or_else(|| ApiError::bad("give positions: [...]"))?;
    request::refuse(
        &p,
        &["at_least", "to_move"],
        "a batch",
        "it gives each position's value and every move's (/api/solve asks at_least; a position's side to move is its last word)",
    )?;
    if positions.len() > MAX_BATCH {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "{} positions: a batch holds at most {}; split it",
                Grouped(positions.len() as u128),
                Grouped(MAX_BATCH as u128)
            ),
        ));
    }
    let set = rule_set(&s, &p).await?;
    let seconds = request::seconds(&p, s.config.max_seconds)?;
    let ask = Ask::read(&p)?;
    let boards: Vec<Result<Board, ApiError>> = positions
        .iter()
        .map(|v| position_of(&set.rules, v))
        .collect();
    // Table reads first, on a blocking thread (thousands of them), then the searches.
    let reads = {
        let set = set.clone();
        let boards: Vec<Option<Board>> = boards.iter().map(|b| b.as_ref().ok().copied()).collect();
        let s = s.clone();
        tokio::task::spawn_blocking(move || {
            boards
                .into_iter()
                .map(|b| {
                    let b = b?;
                    Some(
                        set.reader
                            .table_answer(b)
                            .map(|a| a.map(|a| json::answer(&a, b.total() as usize)))
                            .map_err(|e| s.oracle_error(&set, e)),
                    )
                })
                .collect::<Vec<_>>()
        })
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?
    };
    let deadline = Instant::now() + std::time::Duration::from_secs_f64(seconds);
    let mut answers = Vec::with_capacity(boards.len());
    for (i, (b, read)) in boards.into_iter().zip(reads).enumerate() {
        let one = match (b, read) {
            (Err(e), _) => Err(e),
            (Ok(_), Some(Err(e))) => Err(e),
            (Ok(_), Some(Ok(Some(a)))) => Ok(a),
            (Ok(b), _) => {
                let left = deadline
                    .saturating_duration_since(Instant::now())
                    .as_secs_f64();
                if left <= 0.0 && !ask.tables_only {
                    Err(ApiError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "the request's time ran out before this position's search: send it again",
                    ))
                } else {
                    answer(&s, &set, b, left.max(0.001), ask).await
                }
            }
        };
        answers.push(one.unwrap_or_else(|e| {
            let e = at(i, e);
            let mut v = e.json();
            v["status"] = json!(e.status.as_u16());
            v["index"] = json!(i);
            v
        }));
    }
    Ok(Json(json!({ "answers": answers })))
}

/// A batch field's value as a query string would give it.
fn scalar(name: &str, v: &Value) -> Result<String, ApiError> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        _ => Err(ApiError::bad(format!(
            "{name} must be a string, a number or true/false"
        ))),
    }
}

/// A batch position: a position string, or an array of pit counts.
fn position_of(rules: &Rules, v: &Value) -> Result<Board, ApiError> {
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let words: Option<Vec<String>> = items
                .iter()
                .map(|x| match x {
                    Value::Number(n) => Some(n.to_string()),
                    Value::String(s) => Some(s.clone()),
                    _ => None,
                })
                .collect();
            words
                .ok_or_else(|| ApiError::bad("a position's array holds pit counts"))?
                .join(" ")
        }
        _ => {
            return Err(ApiError::bad(
                "a position is a string (\"1 1 1 ...\") or an array of pit counts",
            ))
        }
    };
    request::board(rules, &text)
}

/// An error of the batch's position `i`, which says which.
fn at(i: usize, e: ApiError) -> ApiError {
    ApiError {
        status: e.status,
        message: format!("positions[{i}]: {}", e.message),
    }
}

/// `GET /api/solve`: value (or the bounds proven when the time limit came first), best
/// moves and a principal variation, as `mancala solve --json`. With `at_least=V`, the
/// question "is the value at least V?" instead, as `mancala solve --at-least V --json`: one
/// null-window search, cheaper than the value, with `answer` true, false or null (the time
/// limit came first) and the moves proven to reach V as `best`.
async fn solve(
    State(s): State<Arc<Shared>>,
    q: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Question {
        params,
        set,
        seconds,
        position: b,
    } = question(&s, q).await?;
    request::refuse(
        &params,
        &["tables_only", "exact"],
        "/api/solve",
        "it proves the value by search where the tables stop (/api/query takes tables_only and exact)",
    )?;
    let tables = set.reader.tables_up_to();
    let at_least = request::at_least(&params)?;
    let read = set.reader.table_solve_or_at_least(b, at_least);
    let solution = match read.map_err(|e| s.oracle_error(&set, e))? {
        Some(solution) => solution,
        None => {
            s.search(set, seconds, move |o| o.solve_or_at_least(b, at_least, &()))
                .await?
        }
    };
    Ok(Json(json::solve_reply(&solution, at_least, tables)))
}
