//! The page in a real browser: headless Chromium driven through WebDriver (the
//! distribution's `chromium` and `chromium-driver`). It opens the page as a new visitor
//! would (no game in the URL) and reads the move values it shows, clicks a pit, clicks
//! through the best line, follows a link with a bad position, and looks at the page 360 px
//! wide; at each step it checks the board and the values against the API, and saves a
//! screenshot in `target/tmp/` (`page-*.png`), as the build's artifact.
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
    /// Chromium's profile folder, removed with the browser.
    profile: std::path::PathBuf,
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
            profile,
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
        let _ = std::fs::remove_dir_all(&self.profile);
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

/// The page's message: its text and whether it is only a note (not an error).
const MESSAGE: &str =
    "const m = document.getElementById('message'); return [m.textContent, m.className === 'note'];";

/// The seeds the page shows once they are `want` (JSON), or a timeout.
fn wait_for_pits(browser: &Browser, want: &Value) -> Value {
    browser.wait_for(&format!(
        "const p = (() => {{ {PITS} }})(); return JSON.stringify(p) === '{}' ? p : null;",
        want
    ))
}

/// The move values the page shows once they are the API's for `position`.
fn wait_for_values(browser: &Browser, url: &str, position: &str) -> Value {
    let (_, q) = get(&format!(
        "{url}/api/query?variant=awari&position={}",
        esc(position)
    ));
    let want: Vec<Value> = q["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| json!([m["pit"], m["value"]]))
        .collect();
    browser.wait_for(&format!(
        "const v = (() => {{ {VALUES} }})(); return JSON.stringify(v) === '{}' ? v : null;",
        json!(want)
    ))
}

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

    // A new visitor: the tables hold Awari up to 16 seeds, so the page opens on an endgame
    // they hold (the published example), with its values and a note, not an error.
    browser.call("POST", "/url", Some(json!({ "url": format!("{url}/") })));
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
    let message = browser.script(MESSAGE);
    assert_eq!(message[1], true, "only a note: {message}");
    let status = browser.script("return document.getElementById('status').textContent;");
    assert!(
        status.as_str().unwrap().starts_with("South to move draws"),
        "{status}"
    );
    browser.screenshot(&shots.join("page-1-landing.png"));

    // A click on South's last pit plays it: the board is /api/play's after move 5, and the
    // values are North's moves' values there, as /api/query says.
    browser.click("g.pit[data-pit='5'] circle");
    let (_, after) = get(&format!(
        "{url}/api/play?variant=awari&position={}&moves=5",
        esc(VU)
    ));
    assert_eq!(after["to_move"], "north");
    assert_eq!(wait_for_pits(&browser, &after["pits"]), after["pits"]);
    wait_for_values(&browser, &url, after["position"].as_str().unwrap());
    let status = browser.script("return document.getElementById('status').textContent;");
    assert!(
        status.as_str().unwrap().starts_with("North to move"),
        "{status}"
    );
    // The last move is marked, and the URL holds the position and the move, to be shared.
    let last = browser.script("return document.querySelector('g.pit.last').dataset.index;");
    assert_eq!(last, "5");
    let href = browser.script("return location.search;");
    assert!(href.as_str().unwrap().contains("moves=5"), "{href}");
    browser.screenshot(&shots.join("page-2-after-click.png"));

    // The best line's third move, clicked, plays the line up to it.
    let (_, solved) = get(&format!(
        "{url}/api/solve?variant=awari&position={}",
        esc(after["position"].as_str().unwrap())
    ));
    let pv: Vec<String> = solved["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert!(pv.len() >= 3, "{solved}");
    browser.wait_for("const b = document.querySelectorAll('#pv button.mv'); return b.length >= 3 ? b.length : null;");
    browser.click("#pv button.mv:nth-of-type(3)");
    let (_, along) = get(&format!(
        "{url}/api/play?variant=awari&position={}&moves=5,{}",
        esc(VU),
        pv[..3].join(",")
    ));
    assert_eq!(wait_for_pits(&browser, &along["pits"]), along["pits"]);
    let history = browser.script("return document.querySelectorAll('#history button.mv').length;");
    assert_eq!(history, 5, "start and four moves");
    browser.screenshot(&shots.join("page-3-line.png"));

    // A link with a position that cannot be: a message in a player's words, and a valid
    // board (the start), with the URL agreeing with it.
    browser.call(
        "POST",
        "/url",
        Some(json!({ "url": format!("{url}/?variant=awari&position=1%202%203") })),
    );
    let start_pits = json!([4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]);
    assert_eq!(wait_for_pits(&browser, &start_pits), start_pits);
    let message = browser.script(MESSAGE);
    let text = message[0].as_str().unwrap();
    assert_eq!(message[1], false, "an error: {message}");
    assert!(text.contains("cannot be set up"), "{text}");
    assert!(!text.contains("/api/") && !text.contains("--"), "{text}");
    let href = browser.script("return location.search;");
    assert!(!href.as_str().unwrap().contains("position"), "{href}");
    browser.screenshot(&shots.join("page-4-bad-position.png"));

    // A link whose third move cannot be played (moves separated by spaces, as the server
    // reads them): the game before it, and a message that says which move.
    browser.call(
        "POST",
        "/url",
        Some(json!({ "url": format!("{url}/?variant=awari&moves=0+0+0") })),
    );
    let (_, two) = get(&format!("{url}/api/play?variant=awari&moves=0,0"));
    assert_eq!(wait_for_pits(&browser, &two["pits"]), two["pits"]);
    let message = browser.wait_for(
        "const m = document.getElementById('message').textContent; return m.includes('Move 3') ? m : null;",
    );
    assert!(
        message.as_str().unwrap().contains("not a legal move"),
        "{message}"
    );
    let href = browser.script("return location.search;");
    assert!(href.as_str().unwrap().contains("moves=0%2C0"), "{href}");

    // A phone, 360 px wide: the whole board is in view and nothing scrolls sideways.
    browser.call(
        "POST",
        "/window/rect",
        Some(json!({"width": 360, "height": 900})),
    );
    browser.call(
        "POST",
        "/url",
        Some(json!({ "url": format!("{url}/?variant=awari&position={}", esc(VU)) })),
    );
    browser.wait_for(VALUES);
    let fits = browser.script(
        "const b = document.getElementById('board').getBoundingClientRect(); \
         return [window.innerWidth, Math.round(b.left), Math.round(b.right), document.documentElement.scrollWidth];",
    );
    let [inner, left, right, scroll] = [0, 1, 2, 3].map(|i| fits[i].as_i64().unwrap());
    assert!(inner <= 400, "the window is a phone's: {fits}");
    assert!(left >= 0 && right <= inner, "the board is in view: {fits}");
    assert!(scroll <= inner, "no sideways scrolling: {fits}");
    browser.screenshot(&shots.join("page-5-phone.png"));
    eprintln!("screenshots in {}", shots.display());
}
