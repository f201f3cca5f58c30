//! The JSON API on a server started on 127.0.0.1 (any free port), answers checked against the
//! library's: the published example position's move values, Kalah 6x3 by search, boards after
//! moves; every kind of bad input gets its 4xx and a message that says what to fix.

mod common;

use common::{esc, get, move_values, start, tables};
use mancala_rules::{Game, Preset, Rules, Variant};

const VU: &str = "1 1 1 1 1 2 4 2 3 0 0 0";

#[test]
fn the_published_example_from_the_tables() {
    let url = start(tables());
    let (status, a) = get(&format!(
        "{url}/api/query?variant=awari&position={}",
        esc(VU)
    ));
    assert_eq!(status, 200, "{a}");
    // Romein & Bal's database: value 0, moves -1 -1 -2 -2 -2 0.
    assert_eq!(a["value"], 0);
    assert_eq!(move_values(&a), [-1, -1, -2, -2, -2, 0]);
    assert_eq!(a["best"], serde_json::json!([5]));
    assert_eq!(
        (a["source"].as_str(), a["seeds"].as_u64()),
        (Some("table"), Some(16))
    );
    // The solve reads the same from the tables, with a line of play that keeps the value.
    let (status, s) = get(&format!(
        "{url}/api/solve?variant=awari&position={}",
        esc(VU)
    ));
    assert_eq!(status, 200, "{s}");
    assert_eq!(
        (s["value"].as_i64(), s["bounds"][0].as_i64()),
        (Some(0), Some(0))
    );
    assert_eq!(s["pv"][0], 5);
    assert_eq!(s["tables"], 16);
    // Every move of the line is a best move of the position it is played in, as /api/play
    // and /api/query say.
    let pv: Vec<String> = s["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.to_string())
        .collect();
    for k in 0..pv.len().min(8) {
        let moves = pv[..k].join(",");
        let extra = if k > 0 {
            format!("&moves={moves}")
        } else {
            String::new()
        };
        let (st, g) = get(&format!(
            "{url}/api/play?variant=awari&position={}{extra}",
            esc(VU)
        ));
        assert_eq!(st, 200, "{g}");
        let pos = g["position"].as_str().unwrap().to_string();
        let (_, q) = get(&format!(
            "{url}/api/query?variant=awari&position={}",
            esc(&pos)
        ));
        let next: usize = pv[k].parse().unwrap();
        assert!(
            q["best"]
                .as_array()
                .unwrap()
                .contains(&serde_json::json!(next)),
            "{q}"
        );
    }
}

#[test]
fn kalah_6x3_from_search() {
    // No Kalah tables in the folder: the search answers (+2, best move 4, in about a second).
    let url = start(tables());
    let (status, s) = get(&format!("{url}/api/solve?variant=kalah&seeds=3"));
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["value"], 2);
    assert_eq!(s["best"], serde_json::json!([4]));
    let (status, q) = get(&format!("{url}/api/query?variant=kalah&seeds=3"));
    assert_eq!(status, 200, "{q}");
    assert_eq!(
        (q["value"].as_i64(), q["source"].as_str()),
        (Some(2), Some("search"))
    );
    assert_eq!(q["best"], serde_json::json!([4]));
}

#[test]
fn at_least_asks_a_yes_or_no_question_of_tables_and_search() {
    let url = start(tables());
    // From the tables: the published example (value 0; moves -1 -1 -2 -2 -2 0).
    for (t, answer, best) in [
        (-1, true, vec![0, 1, 5]),
        (0, true, vec![5]),
        (1, false, vec![]),
    ] {
        let (status, a) = get(&format!(
            "{url}/api/solve?variant=awari&position={}&at_least={t}",
            esc(VU)
        ));
        assert_eq!(status, 200, "{a}");
        assert_eq!(
            (&a["at_least"], &a["answer"], &a["best"], &a["value"]),
            (
                &serde_json::json!(t),
                &serde_json::json!(answer),
                &serde_json::json!(best),
                &serde_json::json!(0)
            ),
            "at least {t}: {a}"
        );
    }
    // By search (no Kalah tables here): 6x3 is worth +2, so "at least +2" holds by the
    // one best move (4) and "at least +3" does not, each from the bounds the search proved.
    let (status, yes) = get(&format!("{url}/api/solve?variant=kalah&seeds=3&at_least=2"));
    assert_eq!(status, 200, "{yes}");
    assert_eq!(
        (&yes["answer"], &yes["best"]),
        (&serde_json::json!(true), &serde_json::json!([4]))
    );
    assert!(yes["bounds"][0].as_i64().unwrap() >= 2, "{yes}");
    let (status, no) = get(&format!("{url}/api/solve?variant=kalah&seeds=3&at_least=3"));
    assert_eq!(status, 200, "{no}");
    assert_eq!(
        (&no["answer"], &no["best"]),
        (&serde_json::json!(false), &serde_json::json!([]))
    );
    assert!(no["bounds"][1].as_i64().unwrap() < 3, "{no}");
    // A threshold that is not a number says so.
    let (status, bad) = get(&format!(
        "{url}/api/solve?variant=kalah&seeds=3&at_least=two"
    ));
    assert_eq!(status, 400, "{bad}");
    assert!(bad["error"].as_str().unwrap().contains("at_least"), "{bad}");
}

#[test]
fn boards_after_moves_are_the_rules_boards() {
    let url = start(tables());
    for (variant, query, moves) in [
        ("awari", "variant=awari", vec![0, 3, 5, 1]),
        ("kalah 6x4", "variant=kalah&pits=6&seeds=4", vec![2, 5, 0]),
        ("oware 5x3", "variant=oware&pits=5&seeds=3", vec![4, 4]),
    ] {
        let list: Vec<String> = moves.iter().map(|m: &usize| m.to_string()).collect();
        let (status, g) = get(&format!("{url}/api/play?{query}&moves={}", list.join(",")));
        assert_eq!(status, 200, "{variant}: {g}");
        let v = match variant {
            "awari" => Variant::preset(Preset::Awari),
            "kalah 6x4" => Variant::new(
                Preset::Kalah,
                mancala_rules::Options {
                    pits: Some(6),
                    seeds: Some(4),
                    ..Default::default()
                },
            )
            .unwrap(),
            _ => Variant::new(
                Preset::Oware,
                mancala_rules::Options {
                    pits: Some(5),
                    seeds: Some(3),
                    ..Default::default()
                },
            )
            .unwrap(),
        };
        let mut game = Game::new(Rules::new(v));
        for m in moves {
            game.play(m).unwrap();
        }
        assert_eq!(
            g["pits"],
            serde_json::json!(game.absolute_pits()),
            "{variant}"
        );
        assert_eq!(g["stores"], serde_json::json!(game.stores()), "{variant}");
        assert_eq!(g["to_move"], game.to_move().name(), "{variant}");
        assert_eq!(g["legal"], serde_json::json!(game.legal()), "{variant}");
    }
}

#[test]
fn bad_input_gets_a_4xx_that_says_what_to_fix() {
    let url = start(tables());
    let cases: &[(&str, u16, &str)] = &[
        ("/api/query?variant=nope", 400, "'nope' is not a game this server answers"),
        // A game of the engine without tables is not called unknown, nor offered.
        ("/api/query?variant=mankala-3p", 400, "answers the presets with tables, which /api/variants lists"),
        ("/api/query?position=1", 400, "give variant=NAME"),
        ("/api/query?variant=awari&position=1%202%203", 400, "expected 12 pit counts"),
        ("/api/query?variant=awari&pits=9", 400, "pits"),
        ("/api/query?variant=awari&pits=abc", 400, "small positive number"),
        ("/api/query?variant=awari&position=40%2040%200%200%200%200%200%200%200%200%200%200", 400, "seeds"),
        ("/api/play?variant=awari&moves=0,1,0", 400, "move 3 of moves"),
        ("/api/play?variant=awari&moves=7", 400, "bad move"),
        ("/api/query?variant=awari&color=red", 400, "unknown parameter 'color'"),
        ("/api/solve?variant=awari&max_seconds=1e30", 400, "max_seconds"),
        ("/api/solve?variant=awari&max_seconds=-1", 400, "max_seconds"),
        ("/api/solve?variant=awari&max_seconds=0.000001", 400, "from 0.01"),
        ("/api/query?variant=awari&at_least=3", 400, "/api/solve"),
        // Parameters an endpoint would take and ignore are refused, named.
        ("/api/play?variant=awari&max_seconds=1", 400, "max_seconds does not apply to /api/play"),
        ("/api/play?variant=awari&at_least=3", 400, "at_least does not apply to /api/play"),
        ("/api/solve?variant=awari&tables_only=true", 400, "tables_only does not apply to /api/solve"),
        ("/api/solve?variant=awari&exact=true", 400, "exact does not apply to /api/solve"),
        ("/api/query?variant=kalah&empty_capture=maybe", 400, "empty_capture"),
        ("/api/query?variant=wari&grand_slam=gs9", 400, "grand"),
        // 20 seeds, above the 16-seed tables.
        ("/api/query?variant=awari&position=2%202%202%202%202%202%202%202%201%201%200%200&tables_only=true", 404, "tiers 0..=16"),
        // No request names a file: a variant is a name, never a path.
        ("/api/query?variant=..%2F..%2Fetc%2Fpasswd", 400, "is not a game this server answers"),
        ("/../../etc/passwd", 404, "no such page"),
        ("/api/nothing", 404, "no such page"),
        ("/api/variants?x=1", 400, "unknown parameter 'x'"),
    ];
    for &(path, want, needle) in cases {
        let (status, body) = get(&format!("{url}{path}"));
        assert_eq!(status, want, "{path}: {body}");
        let msg = body["error"].as_str().unwrap_or_default();
        assert!(msg.contains(needle), "{path}: '{msg}' lacks '{needle}'");
    }
}

#[test]
fn the_variants_list_the_presets_and_the_tables_built() {
    let url = start(tables());
    let (status, v) = get(&format!("{url}/api/variants"));
    assert_eq!(status, 200);
    let names: Vec<&str> = v["presets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    for p in ["awari", "oware", "wari", "kalah", "mancala", "nam-nam"] {
        assert!(names.contains(&p), "{names:?}");
    }
    let built = v["built"].as_array().unwrap();
    assert_eq!(built.len(), 1, "{built:?}");
    assert_eq!(built[0]["key"], "awari-6x4");
    assert_eq!(built[0]["up_to_seeds"], 16);
    assert_eq!(built[0]["source"], "tables");
    assert_eq!(built[0]["params"]["variant"], "awari");
    // The page is served from the binary.
    let page = ureq::get(&url)
        .call()
        .unwrap()
        .body_mut()
        .read_to_string()
        .unwrap();
    assert!(page.contains("<svg id=\"board\""), "the page");
}

#[test]
fn every_answer_allows_any_origin_and_preflights_are_answered() {
    let url = start(tables());
    let agent = common::agent();
    for path in [
        "/api/variants",
        "/api/query?variant=awari&position=0%200%201%202%200%203%201%200%200%202%200%201",
        "/api/query?variant=nope",
        "/api/nothing",
    ] {
        let r = agent.get(&format!("{url}{path}")).call().unwrap();
        assert_eq!(
            r.headers()
                .get("access-control-allow-origin")
                .map(|v| v.to_str().unwrap()),
            Some("*"),
            "{path}"
        );
    }
    // A page elsewhere POSTing JSON asks first.
    let r = agent
        .run(
            ureq::http::Request::builder()
                .method("OPTIONS")
                .uri(format!("{url}/api/query"))
                .header("origin", "https://example.org")
                .header("access-control-request-method", "POST")
                .header("access-control-request-headers", "content-type")
                .body(())
                .unwrap(),
        )
        .unwrap();
    assert!(r.status().is_success(), "{}", r.status());
    let h = |name: &str| {
        r.headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default()
    };
    assert_eq!(h("access-control-allow-origin"), "*");
    assert!(h("access-control-allow-methods").contains("POST"));
    assert!(h("access-control-allow-headers").contains("content-type"));
}

#[test]
fn a_batch_answers_as_the_single_calls_do() {
    let url = start(tables());
    // Positions of 0..16 seeds from random play, a terminal one, one above the tables (17
    // seeds, answered without the tables) and a bad one.
    let rules = Rules::new(Variant::preset(Preset::Awari));
    let mut positions: Vec<String> = Vec::new();
    let mut seed = 12345u64;
    while positions.len() < 300 {
        let mut g = Game::from_position(
            rules.clone(),
            mancala_rules::parse_position(&rules, "2 2 2 2 1 1 1 1 1 1 1 1").unwrap(),
            mancala_rules::Side::South,
        );
        while !g.is_over() {
            let legal = g.legal();
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            g.play(legal[(seed >> 33) as usize % legal.len()]).unwrap();
            let words: Vec<String> = g.board().pits(12).iter().map(|p| p.to_string()).collect();
            positions.push(words.join(" "));
        }
    }
    positions.push("0 0 0 0 0 0 5 3 0 0 0 0".into());
    // 17 seeds, South without a seed: the game is over, valued above the tables (-17).
    positions.push("0 0 0 0 0 0 5 4 3 2 2 1".into());
    positions.push("1 2 3".into());
    let mut list: Vec<serde_json::Value> = positions.iter().map(|p| serde_json::json!(p)).collect();
    // A position may also be an array of pit counts.
    list.push(serde_json::json!([1, 1, 1, 1, 1, 2, 4, 2, 3, 0, 0, 0]));
    positions.push(VU.into());
    let body = serde_json::json!({"variant": "awari", "positions": list});
    let agent = common::agent();
    let mut r = agent
        .post(&format!("{url}/api/query"))
        .send_json(&body)
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let v: serde_json::Value = r.body_mut().read_json().unwrap();
    let answers = v["answers"].as_array().unwrap();
    assert_eq!(answers.len(), positions.len());
    for (p, a) in positions.iter().zip(answers) {
        let (status, single) = get(&format!(
            "{url}/api/query?variant=awari&position={}",
            esc(p)
        ));
        if status == 200 {
            assert_eq!(a, &single, "{p}");
        } else {
            assert_eq!(a["status"], status, "{p}: {a}");
            assert!(a["error"].as_str().unwrap().contains("positions["), "{a}");
        }
    }
    assert_eq!(answers.last().unwrap()["value"], 0);
    assert_eq!(
        move_values(answers.last().unwrap()),
        [-1, -1, -2, -2, -2, 0]
    );
    assert_eq!(answers[answers.len() - 2]["status"], 400);
    assert_eq!(answers[answers.len() - 3]["source"], "search");
    assert_eq!(answers[answers.len() - 3]["value"], -17);
    // A batch is bounded, and a malformed body is a 400 that says what to send.
    let many = vec![serde_json::json!(VU); mancala_serve::MAX_BATCH + 1];
    let r = agent
        .post(&format!("{url}/api/query"))
        .send_json(serde_json::json!({"variant": "awari", "positions": many}))
        .unwrap();
    assert_eq!(r.status().as_u16(), 413);
    for (body, needle) in [
        ("[1, 2]", "JSON object"),
        ("{\"variant\": \"awari\"}", "positions"),
        ("{\"variant\": \"awari\", \"positions\": 3}", "array"),
        ("{\"positions\": []}", "variant"),
        ("not json", "JSON"),
        // Parameters a batch would ignore are refused (the probe of 2026-12-08).
        (
            "{\"variant\": \"awari\", \"positions\": [], \"at_least\": 3}",
            "at_least does not apply to a batch",
        ),
    ] {
        let mut r = agent
            .post(&format!("{url}/api/query"))
            .header("content-type", "application/json")
            .send(body)
            .unwrap();
        assert_eq!(r.status().as_u16(), 400, "{body}");
        let e: serde_json::Value = r.body_mut().read_json().unwrap();
        assert!(e["error"].as_str().unwrap().contains(needle), "{body}: {e}");
    }
    // A batch's parameters are in its body: one in the address is refused, not ignored.
    let mut r = agent
        .post(&format!("{url}/api/query?variant=kalah"))
        .send_json(&body)
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    let e: serde_json::Value = r.body_mut().read_json().unwrap();
    assert!(e["error"].as_str().unwrap().contains("JSON body"), "{e}");
}

#[test]
fn refusals_at_the_http_level_are_json_too() {
    let url = start(tables());
    let agent = common::agent();
    let mut r = agent.delete(&format!("{url}/api/query")).call().unwrap();
    assert_eq!(r.status().as_u16(), 405);
    let e: serde_json::Value = r.body_mut().read_json().unwrap();
    assert!(e["error"].as_str().unwrap().contains("GET"), "{e}");
    // Yes/no parameters are spelled one way: another spelling is refused, not read as no.
    let (status, e) = get(&format!("{url}/api/query?variant=awari&tables_only=yes"));
    assert_eq!(status, 400);
    assert!(e["error"].as_str().unwrap().contains("tables_only"), "{e}");
    // Messages speak of parameters, not of command-line flags.
    let (status, e) = get(&format!(
        "{url}/api/query?variant=awari&position=9%209%209%209%209%209%209%209%209%209%209%209"
    ));
    assert_eq!(status, 400);
    let msg = e["error"].as_str().unwrap();
    assert!(!msg.contains("--"), "{msg}");
    // Requests that hyper refuses itself, before any route: a URL too long, headers too
    // many or too large, a malformed request line, header or version. Each answer is the
    // API's JSON error (they had empty bodies).
    let addr = url.trim_start_matches("http://");
    let many: String = (0..200).map(|i| format!("x-{i}: y\r\n")).collect();
    let cases: [(Vec<u8>, u16, &str); 7] = [
        (
            format!(
                "GET /api/query?{} HTTP/1.1\r\nhost: x\r\n\r\n",
                "a".repeat(70_000)
            )
            .into(),
            414,
            "POST /api/query",
        ),
        (
            format!("GET / HTTP/1.1\r\nhost: x\r\n{many}\r\n").into(),
            431,
            "headers",
        ),
        (
            format!("GET / HTTP/1.1\r\nx: {}\r\n\r\n", "y".repeat(2_000_000)).into(),
            431,
            "headers",
        ),
        (b"GARBAGE\r\n\r\n".to_vec(), 400, "HTTP/1.1"),
        (
            b"GET / HTTP/1.1\r\nno colon here\r\n\r\n".to_vec(),
            400,
            "HTTP/1.1",
        ),
        (b"GET / HTTP/9.1\r\n\r\n".to_vec(), 400, "HTTP/1.1"),
        // A batch announced bigger than the limit is refused at once (it waited for the body
        // the length announced, then answered 408), its body never sent.
        (
            b"POST /api/query HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 999999999\r\n\r\n".to_vec(),
            413,
            "at most",
        ),
    ];
    for (request, status, needle) in cases {
        let shown = String::from_utf8_lossy(&request[..40.min(request.len())]).to_string();
        let (head, e) = raw_request(addr, &request);
        let got: u16 = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        assert_eq!(got, status, "{shown}: {head}");
        let json = head
            .to_ascii_lowercase()
            .contains("content-type: application/json");
        assert!(json, "{shown}: {head}");
        assert!(
            e["error"].as_str().unwrap().contains(needle),
            "{shown}: {e}"
        );
    }
}

/// Sends `request` on a new connection to `addr` and reads the answer to its end: its head
/// and its body as JSON.
fn raw_request(addr: &str, request: &[u8]) -> (String, serde_json::Value) {
    use std::io::{Read, Write};
    let mut c = std::net::TcpStream::connect(addr).unwrap();
    c.set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    // The server may answer and close before the whole request is sent.
    let _ = c.write_all(request);
    let mut out = Vec::new();
    let _ = c.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let json = serde_json::from_str(body).unwrap_or_default();
    (head.to_string(), json)
}

#[test]
fn the_published_files_are_served_as_awari() {
    // The published database's form of the 16-seed tables (`mancala export --vu`): Awari is
    // answered from them, the published example with its published values.
    let vu = std::env::temp_dir().join(format!("mancala-serve-vu-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&vu);
    let rules = Rules::new(Variant::preset(Preset::Awari));
    mancala_tables::published::export(&rules, tables(), &vu, 16).unwrap();
    let empty = vu.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let url = common::start_with(mancala_serve::Config {
        dir: empty.clone(),
        vu_dir: Some(vu.clone()),
        ..mancala_serve::Config::default()
    });
    let (status, a) = get(&format!(
        "{url}/api/query?variant=awari&position={}",
        esc(VU)
    ));
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["value"], 0);
    assert_eq!(move_values(&a), [-1, -1, -2, -2, -2, 0]);
    assert_eq!(a["source"], "table");
    let (_, v) = get(&format!("{url}/api/variants"));
    assert_eq!(v["built"][0]["key"], "awari-6x4");
    assert_eq!(v["built"][0]["source"], "published");
    assert_eq!(v["built"][0]["up_to_seeds"], 16);
    std::fs::remove_dir_all(&vu).unwrap();
}

/// Idle connections cannot starve the server: each is closed once it has sent no request for
/// the header timeout, and at most `max_connections` are open at once, so a real client gets
/// through while many idle sockets (a bounded number, on loopback) are held open.
#[test]
fn idle_connections_are_closed_and_capped() {
    use std::io::Read;
    use std::net::TcpStream;
    use std::time::{Duration, Instant};
    let url = common::start_with(mancala_serve::Config {
        dir: tables().to_path_buf(),
        max_connections: 16,
        header_timeout: Duration::from_secs(1),
        ..mancala_serve::Config::default()
    });
    let addr = url.trim_start_matches("http://").to_string();
    // Three times the cap of sockets that never send a byte.
    let idle: Vec<TcpStream> = (0..48)
        .map(|_| TcpStream::connect(&addr).unwrap())
        .collect();
    let started = Instant::now();
    let (status, v) = get(&format!("{url}/api/variants"));
    assert_eq!(status, 200, "{v}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "answered after {:?}",
        started.elapsed()
    );
    // The first idle socket was closed by the server (end of stream), not left open.
    let mut first = &idle[0];
    first
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut buf = [0u8; 16];
    assert_eq!(first.read(&mut buf).unwrap(), 0, "closed by the server");
}

/// A table file changed in place under a running server (cut short with `truncate`, or
/// another tier's file copied over it with `cp`) does not kill it (it died of SIGBUS,
/// printing nothing): the question that meets the change gets a JSON error that says so,
/// the next one opens the tables again and reads the file as it is (a JSON error naming
/// what is wrong with it, or the right answer once the file is whole). The same for the
/// published database's files, which have no header: one copied over with a bigger file
/// does not fault, and is told by its size and time stamps.
#[test]
fn a_table_changed_in_place_does_not_kill_the_server() {
    let (dir, rules, key) = awari_copy("changed", 12);
    let tier = |n: usize| dir.join(format!("{key}/tier-{n:03}.mtb"));
    let url = start(&dir);
    // Eleven seeds: tier 11 and the tiers below hold it and its moves.
    let q = format!(
        "{url}/api/query?variant=awari&position={}",
        esc("1 1 1 1 2 2 1 1 0 0 0 1")
    );
    let (status, right) = get(&q);
    assert_eq!(
        (status, right["source"].as_str()),
        (200, Some("table")),
        "{right}"
    );
    let changed = |status: u16, e: &serde_json::Value| {
        ask_again(status, e, "tier-011.mtb", "changed in place")
    };
    // Opened again without the damaged tier: the question is searched (the right value),
    // and a question for the tables alone names what is wrong with the file.
    let searched = |what: &str| {
        let (status, a) = get(&q);
        assert_eq!((status, a["source"].as_str()), (200, Some("search")), "{a}");
        assert_eq!((&a["value"], &a["best"]), (&right["value"], &right["best"]));
        let (status, e) = get(&format!("{q}&tables_only=true"));
        assert_eq!(status, 404, "{e}");
        let msg = e["error"].as_str().unwrap();
        assert!(msg.contains("tier-011.mtb") && msg.contains(what), "{msg}");
    };
    let later = || std::thread::sleep(std::time::Duration::from_millis(1100));
    // Cut short: the read faults, and is answered with an error, not a dead server.
    cut(&tier(11), 1000);
    let (status, e) = get(&q);
    changed(status, &e);
    searched("truncated");
    // Whole again (copied over in place, as `cp` does): the right answer, from the tables
    // once the server looks at the file again (every second).
    std::fs::copy(tables().join(format!("{key}/tier-011.mtb")), tier(11)).unwrap();
    later();
    assert_eq!(get(&q), (200, right.clone()));
    // Another tier's file copied over it: its header says so, faults or not.
    std::fs::copy(tier(12), tier(11)).unwrap();
    let (status, e) = get(&q);
    changed(status, &e);
    searched("tier 12");
    std::fs::copy(tables().join(format!("{key}/tier-011.mtb")), tier(11)).unwrap();
    later();
    assert_eq!(get(&q), (200, right.clone()));

    // The published files: scores.11 copied over with the bigger scores.12.
    let vu = dir.join("vu");
    mancala_tables::published::export(&rules, tables(), &vu, 12).unwrap();
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let url = common::start_with(mancala_serve::Config {
        dir: empty,
        vu_dir: Some(vu.clone()),
        ..mancala_serve::Config::default()
    });
    let q = q.replace(q.split("/api").next().unwrap(), &url);
    assert_eq!(get(&q), (200, right.clone()));
    std::fs::copy(vu.join("scores.12"), vu.join("scores.11")).unwrap();
    let (status, e) = get(&q);
    assert_eq!(status, 503, "{e}");
    assert!(e["error"].as_str().unwrap().contains("scores.11"), "{e}");
    let (status, e) = get(&q);
    assert_eq!(status, 500, "{e}");
    assert!(e["error"].as_str().unwrap().contains("scores.11"), "{e}");
    // And cut short under it.
    std::fs::copy(tables().join(format!("{key}/tier-011.mtb")), tier(11)).unwrap();
    mancala_tables::published::export(&rules, &dir, &vu, 12).unwrap();
    assert_eq!(get(&q), (200, right.clone()));
    cut(&vu.join("scores.11"), 10);
    let (status, e) = get(&q);
    assert_eq!(status, 503, "{e}");
    assert_eq!(get(&format!("{url}/api/variants")).0, 200, "still up");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A table written over or replaced behind a running server, with its header untouched, is
/// noticed (the probe of 2026-12-07: a payload zeroed in place was answered from for as long
/// as the server ran, and a tier repaired by `mancala build`, which renames a new file over
/// the old one, was never read). The question after the change gets a 503 that says the file
/// was replaced; the server then opens its tables again checking every payload, so a damaged
/// one is named with the command that repairs it, and a whole one answers right. A tier built
/// beside the server is answered from within a second, as `/api/variants` already says.
#[test]
fn a_table_replaced_behind_the_server_is_read_again() {
    let (dir, _, key) = awari_copy("replaced", 11);
    let name = |n: usize| format!("{key}/tier-{n:03}.mtb");
    // A file put in place as `mancala build` does: written beside, renamed over.
    let put = |n: usize| {
        let beside = dir.join(format!("{key}/new.tmp"));
        std::fs::copy(tables().join(name(n)), &beside).unwrap();
        std::fs::rename(&beside, dir.join(name(n))).unwrap();
    };
    // Past `Tables::unchanged`'s look at the files (every 100 ms).
    let later = |ms: u64| std::thread::sleep(std::time::Duration::from_millis(ms));
    let url = start(&dir);
    let q = format!(
        "{url}/api/query?variant=awari&position={}",
        esc("1 1 1 1 2 2 1 1 0 0 0 1")
    );
    let (status, right) = get(&q);
    assert_eq!(
        (status, right["source"].as_str()),
        (200, Some("table")),
        "{right}"
    );
    let replaced =
        |(status, e): (u16, serde_json::Value)| ask_again(status, &e, "tier-011.mtb", "replaced");

    // The payload zeroed in place, the header left as it was.
    {
        use std::io::{Seek, SeekFrom, Write};
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .open(dir.join(name(11)))
            .unwrap();
        let len = f.metadata().unwrap().len();
        f.seek(SeekFrom::Start(len / 2)).unwrap();
        f.write_all(&vec![0u8; 4096]).unwrap();
    }
    later(150);
    replaced(get(&q));
    // Opened again, every payload checked: the damaged tier is left out, the tiers below it
    // answer and its positions are searched: the right values, never the damaged file's.
    let (status, a) = get(&q);
    assert_eq!((status, a["source"].as_str()), (200, Some("search")), "{a}");
    assert_eq!((&a["value"], &a["best"]), (&right["value"], &right["best"]));
    // A question for the tables alone names the damage, with the repair.
    let (status, e) = get(&format!("{q}&tables_only=true"));
    assert_eq!(status, 404, "{e}");
    let msg = e["error"].as_str().unwrap();
    assert!(
        msg.contains("tiers 0..=10") && msg.contains("tier-011.mtb") && msg.contains("checksum"),
        "{msg}"
    );
    assert!(msg.contains("mancala build"), "{msg}");
    // Repaired by a rename: from the tables again, once the server looks (every second).
    put(11);
    later(1100);
    assert_eq!(get(&q), (200, right.clone()));
    // A new file renamed over a whole one (the same values): noticed, then read again.
    put(11);
    later(150);
    replaced(get(&q));
    assert_eq!(get(&q), (200, right.clone()));

    // Tier 12 built beside the server: a 12-seed question with `tables_only` is refused
    // until the server looks again, then answered from the tables, as the server says.
    let q12 = format!(
        "{url}/api/query?variant=awari&position={}&tables_only=true",
        esc("1 1 1 1 2 2 1 1 0 0 0 2")
    );
    assert_eq!(get(&q12).0, 404);
    put(12);
    let (_, variants) = get(&format!("{url}/api/variants"));
    assert!(
        variants.to_string().contains("\"up_to_seeds\":12"),
        "{variants}"
    );
    later(1100);
    let (status, a) = get(&q12);
    assert_eq!((status, a["source"].as_str()), (200, Some("table")), "{a}");
    // The same value the full tables give.
    let whole = start(tables());
    let (_, b) = get(&q12.replace(q12.split("/api").next().unwrap(), &whole));
    assert_eq!(a, b);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A scratch folder with a copy of the shared Awari tiers `0..=max` (a server over it may see
/// them changed without harm to other tests): the folder, the rules and their key.
/// A server started over a tier whose payload is damaged with its header intact (the probe
/// of 2026-12-08: it answered that file's zeros as values, 200 and "table", where `mancala
/// query` refused it) checks every payload when it opens a rule set: the tiers below the
/// damaged one answer, the positions from it on are searched, and the game goes on.
#[test]
fn a_server_started_over_a_damaged_tier_never_answers_from_it() {
    let (dir, _, key) = awari_copy("damaged-start", 10);
    let path = dir.join(format!("{key}/tier-008.mtb"));
    {
        use std::io::{Seek, SeekFrom, Write};
        let mut f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        let len = f.metadata().unwrap().len();
        f.seek(SeekFrom::Start(128)).unwrap();
        f.write_all(&vec![0u8; (len - 128) as usize]).unwrap();
    }
    let url = start(&dir);
    let whole = start(tables());
    for p in ["2 2 0 0 0 0 1 1 1 1 0 0", "1 1 1 1 2 2 1 1 0 0 0 0"] {
        let path = format!("/api/query?variant=awari&position={}", esc(p));
        let (status, a) = get(&format!("{url}{path}"));
        let (_, b) = get(&format!("{whole}{path}"));
        assert_eq!(status, 200, "{a}");
        assert_eq!((&a["value"], &a["best"]), (&b["value"], &b["best"]), "{p}");
        assert_eq!(a["source"], "search", "{a}");
    }
    // A pipe where a tier's file goes is left out the same way, and nothing blocks on it.
    let fifo = dir.join(format!("{key}/tier-010.mtb"));
    std::fs::remove_file(&fifo).unwrap();
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.unwrap().success());
    let url = start(&dir);
    let path = format!(
        "/api/query?variant=awari&position={}",
        esc("2 2 2 2 1 1 0 0 0 0 0 0")
    );
    let (status, a) = get(&format!("{url}{path}"));
    let (_, b) = get(&format!("{whole}{path}"));
    assert_eq!(status, 200, "{a}");
    assert_eq!((&a["value"], &a["best"]), (&b["value"], &b["best"]));
    // Below the damaged tier, the tables.
    let (status, a) = get(&format!(
        "{url}/api/query?variant=awari&position={}&tables_only=true",
        esc("1 1 1 1 1 1 1 0 0 0 0 0")
    ));
    assert_eq!((status, a["source"].as_str()), (200, Some("table")), "{a}");
    let (status, g) = get(&format!("{url}/api/play?variant=awari&moves=0,3"));
    assert_eq!(status, 200, "{g}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn awari_copy(name: &str, max: usize) -> (std::path::PathBuf, Rules, String) {
    let dir = std::env::temp_dir().join(format!("mancala-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let rules = Rules::new(Variant::preset(Preset::Awari));
    let key = rules.variant().key();
    std::fs::create_dir_all(dir.join(&key)).unwrap();
    for n in 0..=max {
        let name = format!("{key}/tier-{n:03}.mtb");
        std::fs::copy(tables().join(&name), dir.join(&name)).unwrap();
    }
    (dir, rules, key)
}

/// The 503 of a question that met a table file changed under the server: it names the file
/// and what happened, and says to ask again (the server opens its tables again).
fn ask_again(status: u16, e: &serde_json::Value, file: &str, what: &str) {
    assert_eq!(status, 503, "{e}");
    let msg = e["error"].as_str().unwrap();
    assert!(msg.contains(file) && msg.contains(what), "{msg}");
    assert!(msg.contains("ask again"), "{msg}");
}

/// Cuts the file at `path` to `len` bytes in place, as `truncate` does.
fn cut(path: &std::path::Path, len: u64) {
    let f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    f.set_len(len).unwrap();
}

/// A position no game reaches is answered with why (`cannot_arise`), as the command line's
/// `query --json` says it; one that arises has no such field.
#[test]
fn a_position_that_cannot_arise_is_said_to_be_so() {
    let url = start(tables());
    let (status, a) = get(&format!(
        "{url}/api/query?variant=awari&position={}",
        esc("1 1 0 0 0 0 1 1 1 1 1 1")
    ));
    assert_eq!(status, 200, "{a}");
    assert!(a["cannot_arise"].as_str().unwrap().contains("empty"), "{a}");
    assert_eq!(a["value"], -8, "{a}");
    // For the tables alone, the reason no table holds it (it said the 8-seed position lay
    // beyond tables that went up to 16 seeds).
    let (status, e) = get(&format!(
        "{url}/api/query?variant=awari&position={}&tables_only=true",
        esc("1 1 0 0 0 0 1 1 1 1 1 1")
    ));
    assert_eq!(status, 404, "{e}");
    let msg = e["error"].as_str().unwrap();
    assert!(
        msg.contains("cannot arise") && msg.contains("empty"),
        "{msg}"
    );
    let (status, a) = get(&format!(
        "{url}/api/query?variant=awari&position={}",
        esc("1 1 0 0 0 0 1 1 1 1 1 0")
    ));
    assert_eq!(status, 200, "{a}");
    assert!(a.get("cannot_arise").is_none(), "{a}");
}
