//! Fuzzing (proptest) of everything that reads what a user or a file gives: the position,
//! move, setup and option parsers of every game family, table headers and compressed
//! blocks read from bytes, the web oracle's requests (any query string, any batch body, sent
//! over loopback to a server of this process) and the import of the published database's
//! files (`scores.N` damaged in every way). Nothing may panic; a bad input is an error (for
//! the server, a JSON error with a 4xx status).
//!
//! The case count is proptest's (`PROPTEST_CASES`, default 256 a property); `.ci/run` runs
//! this with a larger fixed budget.

mod common;

use mancala_bao::BaoFamily;
use mancala_forced::ForcedFamily;
use mancala_multi::MultiFamily;
use mancala_oracle::{PackedFamily, Settings};
use mancala_rules::{parse_moves, parse_position, GameFamily, GameSpec, Preset, Rules, Variant};
use mancala_tables::format::{Header, HEADER_LEN};
use mancala_tables::{build, tier_path, BuildOptions, Payload, Table, Tables};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

fn families() -> Vec<Box<dyn GameFamily>> {
    vec![
        Box::new(PackedFamily {
            settings: Settings::default(),
            builds: Arc::new(()),
            searches: Arc::new(()),
        }),
        Box::new(MultiFamily { node_limit: 1000 }),
        Box::new(ForcedFamily),
        Box::new(BaoFamily { depth: 1 }),
    ]
}

/// Every preset name, a few near misses, and noise.
fn preset() -> impl Strategy<Value = String> {
    let mut names: Vec<String> = families()
        .iter()
        .flat_map(|f| f.presets())
        .map(str::to_string)
        .collect();
    names.extend(["", "AWARI", "kalah ", "bao-", "nam-nam-6p"].map(str::to_string));
    prop_oneof![
        4 => proptest::sample::select(names),
        1 => "\\PC{0,12}",
    ]
}

/// Words a user might type into a text option: numbers, letters, signs, junk.
fn words() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9 ,-]{0,60}",
        "(-?[0-9]{1,4} ){0,20}(north|south|n|s)?",
        "[snSN]{0,20}",
        "[a-z0-9>tTL<. ]{0,12}",
        "\\PC{0,40}",
    ]
}

fn spec() -> impl Strategy<Value = GameSpec> {
    (
        preset(),
        proptest::option::of(0u32..20),
        proptest::option::of(0u32..20),
        any::<bool>(),
        proptest::option::of(words()),
        proptest::collection::vec("[a-z0-9=-]{0,12}", 0..3),
        proptest::option::of(words()),
        proptest::option::of(words()),
        proptest::option::of(words()),
        any::<bool>(),
    )
        .prop_map(
            |(
                preset,
                pits,
                seeds,
                empty_capture,
                grand_slam,
                rules,
                owners,
                position,
                setup,
                swapped,
            )| {
                GameSpec {
                    preset,
                    pits,
                    seeds,
                    empty_capture,
                    grand_slam,
                    rules,
                    owners,
                    position,
                    setup,
                    swapped,
                }
            },
        )
}

proptest! {
    /// Any spec makes a game or an error, in every family; a game made takes any move text
    /// (played or refused), and the legal moves it lists are accepted.
    #[test]
    fn game_specs_and_moves(spec in spec(), moves in proptest::collection::vec(words(), 0..6), picks in proptest::collection::vec(any::<u16>(), 0..30)) {
        for family in families() {
            if family.info(&spec.preset).is_none() {
                continue;
            }
            let Ok(mut game) = family.new_game(&spec) else {
                continue;
            };
            for m in &moves {
                let _ = game.play(m);
            }
            for p in &picks {
                let legal = game.legal();
                if legal.is_empty() {
                    break;
                }
                let m = &legal[*p as usize % legal.len()];
                prop_assert!(game.play(m).is_ok(), "legal move {} refused", m);
                let _ = game.draw();
            }
        }
    }

    /// Positions and move lists of the packed presets, any text.
    #[test]
    fn positions_and_move_lists(p in 0usize..Preset::ALL.len(), pits in 1u32..9, text in words()) {
        let preset = Preset::ALL[p];
        let opts = mancala_rules::Options { pits: Some(pits), ..Default::default() };
        if let Ok(v) = Variant::new(preset, opts) {
            let rules = Rules::new(v);
            if let Ok(b) = parse_position(&rules, &text) {
                prop_assert!(b.total() <= rules.max_seeds() as u32);
                let _ = rules.node(b);
            }
            let _ = parse_moves(rules.move_limit(), &text);
        }
        let _ = Variant::from_key(&text);
    }

    /// A table header read from any bytes: an error or a header, never a panic.
    #[test]
    fn table_headers(bytes in proptest::collection::vec(any::<u8>(), 0..200), keep in 0usize..128) {
        let _ = Header::parse(&bytes, Path::new("fuzz"));
        // A real header with some bytes changed.
        let (good, _) = tables();
        let mut h = std::fs::read(good).unwrap()[..HEADER_LEN].to_vec();
        for (i, b) in bytes.iter().enumerate().take(keep.min(h.len())) {
            h[(i * 37 + keep) % HEADER_LEN] ^= b;
        }
        let _ = Header::parse(&h, Path::new("fuzz"));
    }

    /// Compressed tiers whose payload is any bytes, under a header whose checksum matches:
    /// opening and probing every position answers or errs, never panics.
    #[test]
    fn compressed_blocks(noise in proptest::collection::vec(any::<u8>(), 1..4000), at in any::<usize>(), mode in 0u8..3) {
        let (file, dir) = tables();
        let mut bytes = std::fs::read(file).unwrap();
        let payload = bytes.len() - HEADER_LEN;
        match mode {
            // Bytes changed inside the blocks or the offset table.
            0 => for (i, b) in noise.iter().enumerate() {
                let k = HEADER_LEN + (at.wrapping_add(i * 131)) % payload;
                bytes[k] ^= b;
            },
            // Cut short.
            1 => bytes.truncate(HEADER_LEN + at % payload),
            // Replaced whole.
            _ => {
                bytes.truncate(HEADER_LEN);
                bytes.extend_from_slice(&noise);
            }
        }
        let len = (bytes.len() - HEADER_LEN) as u64;
        bytes[32..40].copy_from_slice(&len.to_le_bytes());
        let sum = xxhash_rust::xxh3::xxh3_64(&bytes[HEADER_LEN..]);
        bytes[40..48].copy_from_slice(&sum.to_le_bytes());
        let head = xxhash_rust::xxh3::xxh3_64(&bytes[..120]);
        bytes[120..128].copy_from_slice(&head.to_le_bytes());
        let mine = dir.join("case");
        let key = "awari-6x4";
        let copy = tier_path(&mine, key, 8);
        std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
        for n in 0..8 {
            let _ = std::fs::copy(tier_path(dir, key, n), tier_path(&mine, key, n));
        }
        std::fs::write(&copy, &bytes).unwrap();
        let rules = Rules::new(Variant::preset(Preset::Awari));
        let ix = mancala_index::Indexer::new(&rules, 8).unwrap();
        let _ = Table::open(&copy, key, 8, &ix, true);
        if let Ok(tables) = Tables::open(&mine, &rules, 8, Payload::Checked) {
            for b in ix.walk(8).step_by(97) {
                let _ = tables.probe(b);
            }
            let mut t = tables;
            let _ = t.decode_up_to(8);
        }
    }

    /// Any query string to any route of the API, its names and values escaped or not: the
    /// server answers every one with JSON, an error with a 4xx status (or a 503 when a search
    /// runs out of time), never a 500, never a dropped connection.
    #[test]
    fn http_query_strings(
        route in proptest::sample::select(vec!["/api/query", "/api/solve", "/api/play", "/api/variants", "/api/nothing"]),
        base in proptest::option::of((
            proptest::sample::select(vec!["awari", "oware", "kalah", "wari"]),
            proptest::collection::vec(proptest::sample::select(vec![0u8, 0, 0, 1, 1, 2]), 12),
        )),
        pairs in proptest::collection::vec((param_name(), param_value(), any::<bool>()), 0..4),
        tail in "\\PC{0,10}",
        raw in any::<bool>(),
    ) {
        // Half the cases start from a question the server answers (a game and a position
        // it can read), so that what follows reaches the tables and the search.
        let mut query: Vec<String> = base
            .iter()
            .map(|(variant, pits)| {
                let p: Vec<String> = pits.iter().map(|c| c.to_string()).collect();
                format!("variant={variant}&position={}", p.join("%20"))
            })
            .collect();
        query.extend(pairs.iter().map(|(k, v, eq)| match eq {
            true => format!("{}={}", encode(k, raw), encode(v, raw)),
            false => encode(k, raw),
        }));
        let mut target = format!("{route}?{}", query.join("&"));
        if raw {
            target.push_str(&encode(&tail, true));
        }
        let request = format!("GET {target} HTTP/1.1\r\nhost: fuzz\r\nconnection: close\r\n\r\n");
        let (status, body, json) = ask(request.as_bytes());
        prop_assert!(json, "{target}: status {status}, not JSON");
        prop_assert!(body.is_object(), "{target}: {status} {body}");
        match status {
            200 => prop_assert!(body.get("error").is_none(), "{target}: {body}"),
            400..=499 | 503 => prop_assert!(body["error"].is_string(), "{target}: {status} {body}"),
            _ => prop_assert!(false, "{target}: status {status} {body}"),
        }
    }

    /// Any batch body (JSON or not) to `POST /api/query`: JSON answers, every position's
    /// error in its place, never a 500.
    #[test]
    fn http_batch_bodies(
        pairs in proptest::collection::vec((param_name(), param_value()), 0..5),
        positions in proptest::collection::vec(words(), 0..6),
        mode in 0u8..3,
        noise in "\\PC{0,40}",
    ) {
        let mut fields: Vec<String> = pairs
            .iter()
            .map(|(k, v)| format!("{}: {}", serde_json::json!(k), serde_json::json!(v)))
            .collect();
        fields.push(format!("\"positions\": {}", serde_json::json!(positions)));
        let body = match mode {
            0 => format!("{{{}}}", fields.join(", ")),
            1 => format!("{{{}{noise}", fields.join(", ")),
            _ => noise.clone(),
        };
        let request = format!(
            "POST /api/query HTTP/1.1\r\nhost: fuzz\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        );
        let (status, answer, json) = ask(request.as_bytes());
        prop_assert!(json && answer.is_object(), "{body}: {status} {answer}");
        match status {
            200 => {
                let answers = answer["answers"].as_array().unwrap();
                prop_assert_eq!(answers.len(), positions.len());
                for a in answers {
                    let bad = a.get("error").is_some();
                    prop_assert!(!bad || (a["status"].as_u64().unwrap_or(0) / 100 == 4 || a["status"] == 503), "{}", a);
                }
            }
            400..=499 | 503 => prop_assert!(answer["error"].is_string(), "{body}: {answer}"),
            _ => prop_assert!(false, "{body}: status {status} {answer}"),
        }
    }

    /// The published files damaged in every way (bytes changed, cut short or lengthened,
    /// replaced, removed, a folder or a link in their place): `import` either stops with an
    /// error, or imports tables whose values are the files' bytes exactly.
    #[test]
    fn import_of_damaged_published_files(
        tier in 0usize..=8,
        mode in 0u8..6,
        noise in proptest::collection::vec(any::<u8>(), 1..300),
        at in any::<usize>(),
        case in any::<u64>(),
    ) {
        let vu = published();
        let root = vu.parent().unwrap().join(format!("import-{case}"));
        let _ = std::fs::remove_dir_all(&root);
        let (from, out) = (root.join("vu"), root.join("tables"));
        std::fs::create_dir_all(&from).unwrap();
        for n in 0..=8 {
            std::fs::copy(vu.join(format!("scores.{n}")), from.join(format!("scores.{n}"))).unwrap();
        }
        let file = from.join(format!("scores.{tier}"));
        let mut bytes = std::fs::read(&file).unwrap();
        match mode {
            0 if !bytes.is_empty() => {
                for (i, b) in noise.iter().enumerate() {
                    let k = at.wrapping_add(i * 131) % bytes.len();
                    bytes[k] ^= b;
                }
            }
            1 => bytes.truncate(at % (bytes.len() + 1)),
            2 => bytes.extend_from_slice(&noise),
            3 => {
                let len = bytes.len();
                bytes = noise.iter().cycle().take(len).copied().collect();
            }
            _ => {}
        }
        std::fs::write(&file, &bytes).unwrap();
        match mode {
            4 => std::fs::remove_file(&file).unwrap(),
            5 if at % 2 == 0 => {
                std::fs::remove_file(&file).unwrap();
                std::fs::create_dir(&file).unwrap();
            }
            5 => {
                std::fs::remove_file(&file).unwrap();
                std::os::unix::fs::symlink(&file, &file).unwrap();
            }
            _ => {}
        }
        let rules = Rules::new(Variant::preset(Preset::Awari));
        if let Ok(written) = mancala_tables::published::import(&rules, &from, &out, 8) {
            let tables = Tables::open(&out, &rules, 8, Payload::Checked).unwrap();
            for w in &written {
                let given = std::fs::read(from.join(format!("scores.{}", w.tier))).unwrap();
                let values = tables.values(w.tier).unwrap();
                prop_assert_eq!(&values[..given.len()], &given[..], "tier {}", w.tier);
            }
        }
        std::fs::remove_dir_all(&root).unwrap();
    }
}

/// A query string's parameter names: the API's, near misses, and noise.
fn param_name() -> impl Strategy<Value = String> {
    let mut names: Vec<String> = mancala_serve::PARAMETERS
        .iter()
        .map(|n| n.to_string())
        .collect();
    names.extend(["Variant", "seed", ""].map(str::to_string));
    prop_oneof![
        4 => proptest::sample::select(names),
        1 => "[a-z_%=&+ ]{0,10}",
        1 => "\\PC{0,8}",
    ]
}

/// A parameter's value: what the API takes, numbers of any size, yes/no spellings, noise.
fn param_value() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => preset(),
        3 => words(),
        // Positions the tables hold, or a little above them.
        2 => proptest::collection::vec(0u8..3, 12).prop_map(|p| {
            p.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
        }),
        1 => "-?[0-9]{1,30}(\\.[0-9]{0,5})?(e[0-9]{1,4})?",
        1 => proptest::sample::select(
            ["true", "false", "1", "0", "yes", "north", "south", "NaN", "inf", "-0"]
                .map(str::to_string)
                .to_vec()
        ),
    ]
}

/// Percent-encodes what a URL's query cannot hold as it is; `raw` leaves some bytes as they
/// are (a malformed escape, a space, a non-ASCII byte), which the server must refuse cleanly.
fn encode(text: &str, raw: bool) -> String {
    let mut out = String::new();
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b'%' | b' ' if raw && i % 2 == 0 => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// A server of the fuzz tables (Awari up to 8 seeds, tier 8 compressed) on 127.0.0.1, one
/// for the process, with a short search limit: its address (`127.0.0.1:PORT`).
fn server() -> &'static str {
    static ADDR: OnceLock<String> = OnceLock::new();
    ADDR.get_or_init(|| {
        let (_, dir) = tables();
        let config = mancala_serve::Config {
            dir: dir.to_path_buf(),
            max_seconds: 0.3,
            search_threads: 1,
            hash_mb: 1,
            ..mancala_serve::Config::default()
        };
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                tx.send(listener.local_addr().unwrap()).unwrap();
                mancala_serve::serve(listener, config).await.unwrap();
            });
        });
        rx.recv().unwrap().to_string()
    })
}

/// Sends `request` to the server and reads its answer to the end: the status, and the body
/// as JSON (`Null` if it is not JSON), and whether the answer said it was JSON.
fn ask(request: &[u8]) -> (u16, serde_json::Value, bool) {
    use std::io::{Read, Write};
    let mut c = std::net::TcpStream::connect(server()).unwrap();
    c.set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    let _ = c.write_all(request);
    let mut out = Vec::new();
    let _ = c.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let json = head
        .to_ascii_lowercase()
        .contains("content-type: application/json");
    (status, serde_json::from_str(body).unwrap_or_default(), json)
}

/// The published files of the fuzz tables (`scores.0` .. `scores.8`), exported once.
fn published() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let (_, dir) = tables();
        let vu = dir.join("vu");
        let rules = Rules::new(Variant::preset(Preset::Awari));
        mancala_tables::published::export(&rules, dir, &vu, 8).unwrap();
        vu
    })
}

/// Awari tables up to 8 seeds with tier 8 compressed, built once: (tier 8's file, folder).
fn tables() -> (&'static Path, &'static Path) {
    static DIR: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    let (f, d) = DIR.get_or_init(|| {
        let dir = common::process_folder::process_folder("fuzz-tables");
        let rules = Rules::new(Variant::preset(Preset::Awari));
        let opts = BuildOptions {
            dir: dir.clone(),
            max_seeds: 8,
            compress: true,
            memory: None,
            checkpoint_every: None,
            repair: false,
        };
        build(&rules, &opts, &()).unwrap();
        (tier_path(&dir, &rules.variant().key(), 8), dir)
    });
    (f, d)
}
