//! The page in a real browser: headless Chromium driven through WebDriver (the
//! distribution's `chromium` and `chromium-driver`). It loads the page at the published
//! example position, reads the move values it shows, clicks a pit, and checks that the
//! board and the values change as the API says; it saves a screenshot of each step in
//! `target/tmp/` (`page-*.png`), as the build's artifact.
//!
//! Without `chromedriver` and `chromium` on the machine the test says so and passes, unless
//! `MANCALA_BROWSER_TEST=required` (as CI sets it) makes their absence a failure.

mod common;

use common::{esc, get, move_values, start, tables};
use serde_json::{json, Value};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const VU: &str = "1 1 1 1 1 2 4 2 3 0 0 0";
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A WebDriver session of a chromedriver this test started.
struct Browser {
    driver: Child,
    base: String,
    session: String,
}

impl Browser {
    fn start(chromium: &str, chromedriver: &str) -> Browser {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let base = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        while ureq::get(&format!("{base}/status")).call().is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "chromedriver never answered"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = std::env::temp_dir().join(format!("mancala-chromium-{}", std::process::id()));
        // Headless, and nothing that reaches for the network: this machine has none.
        let args = [
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1000,800",
        ];
        let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": args},
        }}});
        let mut b = Browser {
            driver,
            base,
            session: String::new(),
        };
        let v = b.call("POST", "/session", Some(caps));
        b.session = v["sessionId"].as_str().expect("a session").to_string();
        b
    }

    /// A WebDriver command; its `value`.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = if self.session.is_empty() {
            format!("{}{path}", self.base)
        } else {
            format!("{}/session/{}{path}", self.base, self.session)
        };
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let mut r = match (method, body) {
            ("GET", _) => agent.get(&url).call(),
            ("DELETE", _) => agent.delete(&url).call(),
            (_, b) => agent.post(&url).send_json(b.unwrap_or(json!({}))),
        }
        .expect("chromedriver answers");
        let ok = r.status().is_success();
        let v: Value = r.body_mut().read_json().unwrap();
        assert!(ok, "{method} {path}: {v}");
        v["value"].clone()
    }

    fn script(&self, js: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": js, "args": []})),
        )
    }

    /// Waits until `js` returns something other than null (at most 30 s).
    fn wait_for(&self, js: &str) -> Value {
        let started = Instant::now();
        loop {
            let v = self.script(js);
            if !v.is_null() {
                return v;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "timed out: {js}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn click(&self, css: &str) {
        let e = self.call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        let id = e[ELEMENT].as_str().expect("the element").to_string();
        self.call("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    fn screenshot(&self, path: &Path) {
        let b64 = self.call("GET", "/screenshot", None);
        std::fs::write(path, base64(b64.as_str().unwrap())).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = std::panic::catch_unwind(|| self.call("DELETE", "", None));
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Decodes standard base64 (the screenshot).
fn base64(text: &str) -> Vec<u8> {
    let digit = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let clean: Vec<u8> = text
        .bytes()
        .filter(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/')
        .collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for chunk in clean.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= (digit(c) as u32) << (18 - 6 * i);
        }
        out.extend(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// The program on the PATH (or in /usr/bin), if any.
fn find(name: &str) -> Option<String> {
    let path = std::env::var("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([Path::new("/usr/bin").to_path_buf()])
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .map(|p| p.display().to_string())
}

/// The move values the page shows: (pit, value), in pit order, once there are `count`.
const VALUES: &str = "const v = [...document.querySelectorAll('text.value')].map(t => [Number(t.dataset.pit), Number(t.dataset.value)]); return v.length ? v.sort((a, b) => a[0] - b[0]) : null;";
/// The seeds the page shows in each pit, in the order of /api/play's `pits`.
const PITS: &str = "const g = [...document.querySelectorAll('g.pit')]; return g.length ? g.sort((a, b) => a.dataset.index - b.dataset.index).map(e => Number(e.querySelector('text').textContent)) : null;";

#[test]
fn the_page_shows_what_the_api_says_and_plays_a_click() {
    let required = std::env::var("MANCALA_BROWSER_TEST").as_deref() == Ok("required");
    let (Some(chromium), Some(chromedriver)) = (
        find("chromium").or_else(|| find("chromium-browser")),
        find("chromedriver"),
    ) else {
        assert!(
            !required,
            "chromium and chromedriver are required (MANCALA_BROWSER_TEST=required)"
        );
        eprintln!("skipped: no chromium or chromedriver on this machine (apt-get install chromium chromium-driver)");
        return;
    };
    let url = start(tables());
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let browser = Browser::start(&chromium, &chromedriver);
    let page = format!("{url}/?variant=awari&position={}", esc(VU));
    browser.call("POST", "/url", Some(json!({ "url": page })));

    // The values shown are the published ones, and the API's.
    let shown = browser.wait_for(VALUES);
    let (_, q) = get(&format!(
        "{url}/api/query?variant=awari&position={}",
        esc(VU)
    ));
    let want: Vec<Value> = move_values(&q)
        .iter()
        .enumerate()
        .map(|(pit, v)| json!([pit, v]))
        .collect();
    assert_eq!(shown, json!(want), "values shown");
    assert_eq!(move_values(&q), [-1, -1, -2, -2, -2, 0]);
    browser.screenshot(&shots.join("page-1-example.png"));

    // A click on South's last pit plays it: the board is /api/play's after move 5, and the
    // values are North's moves' values there, as /api/query says.
    browser.click("g.pit[data-pit='5'] circle");
    let (_, after) = get(&format!(
        "{url}/api/play?variant=awari&position={}&moves=5",
        esc(VU)
    ));
    assert_eq!(after["to_move"], "north");
    let want_pits = after["pits"].clone();
    let pits = browser.wait_for(&format!(
        "const p = (() => {{ {PITS} }})(); return JSON.stringify(p) === '{}' ? p : null;",
        want_pits
    ));
    assert_eq!(pits, want_pits);
    let position = after["position"].as_str().unwrap();
    let (_, q2) = get(&format!(
        "{url}/api/query?variant=awari&position={}",
        esc(position)
    ));
    let want2: Vec<Value> = q2["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| json!([m["pit"], m["value"]]))
        .collect();
    let shown2 = browser.wait_for(&format!(
        "const v = (() => {{ {VALUES} }})(); return JSON.stringify(v) === '{}' ? v : null;",
        json!(want2)
    ));
    assert_eq!(shown2, json!(want2));
    let status = browser.script("return document.getElementById('status').textContent;");
    assert!(
        status.as_str().unwrap().starts_with("North to move"),
        "{status}"
    );
    // The URL holds the position and the move, to be shared.
    let href = browser.script("return location.search;");
    assert!(href.as_str().unwrap().contains("moves=5"), "{href}");
    browser.screenshot(&shots.join("page-2-after-click.png"));
    eprintln!("screenshots in {}", shots.display());
}
