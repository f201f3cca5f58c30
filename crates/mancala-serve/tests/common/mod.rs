//! What the server's tests share: tables to serve, a server on a free port, and requests.

#![allow(dead_code)]

use mancala_rules::{Preset, Rules, Variant};
use mancala_tables::{build, BuildOptions};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

#[path = "../../../mancala-cli/tests/common/process_folder.rs"]
mod process_folder;
use process_folder::process_folder;

/// Awari tables up to 16 seeds (the published example position is 16 seeds), built once
/// for every test of the process.
pub fn tables() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = process_folder("serve-tables");
        let opts = BuildOptions {
            dir: dir.clone(),
            max_seeds: 16,
            compress: false,
            memory: None,
            checkpoint_every: None,
            repair: false,
        };
        build(&Rules::new(Variant::preset(Preset::Awari)), &opts, &()).unwrap();
        dir
    })
}

/// Starts a server over `dir` on 127.0.0.1, any free port, with a 10-second search limit;
/// returns its address (`http://127.0.0.1:PORT`). It runs until the test process ends.
pub fn start(dir: &Path) -> String {
    start_with(mancala_serve::Config {
        dir: dir.to_path_buf(),
        max_seconds: 10.0,
        ..mancala_serve::Config::default()
    })
}

/// Starts a server of `config` on 127.0.0.1, any free port; returns its address.
pub fn start_with(config: mancala_serve::Config) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            mancala_serve::serve(listener, config).await.unwrap();
        });
    });
    format!("http://{}", rx.recv().unwrap())
}

/// A client that reads every answer, whatever its status.
pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

/// GETs `url`: the status and the body as JSON.
pub fn get(url: &str) -> (u16, Value) {
    let mut r = agent().get(url).call().unwrap();
    let status = r.status().as_u16();
    let body: Value = r.body_mut().read_json().unwrap();
    (status, body)
}

/// A query string's value, escaped.
pub fn esc(text: &str) -> String {
    text.replace(' ', "%20")
}

/// The values of the moves of a query answer, in pit order.
pub fn move_values(answer: &Value) -> Vec<i64> {
    answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["value"].as_i64().unwrap())
        .collect()
}
