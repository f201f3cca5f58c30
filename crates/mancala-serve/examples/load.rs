//! A bounded load test of a running `mancala serve`: CLIENTS clients on their own threads,
//! each with one kept-alive connection, send REQUESTS table queries in all (random positions
//! of Awari tiers 8..=16, which the served tables must hold), then the throughput and the
//! latency percentiles are printed, as a line of JSON too.
//!
//! `cargo run --release -p mancala-serve --example load -- http://127.0.0.1:8080 [CLIENTS]
//! [REQUESTS]` (scripts/load-test.sh starts the server and runs this).

use mancala_index::Indexer;
use mancala_rules::{Preset, Rules, Variant};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let url = args
        .get(1)
        .expect("the server's address, e.g. http://127.0.0.1:8080")
        .clone();
    let clients: usize = args.get(2).map_or(64, |a| a.parse().expect("clients"));
    let requests: u64 = args
        .get(3)
        .map_or(100_000, |a| a.parse().expect("requests"));

    // Positions the tables hold: random ranks of tiers 8..=16, with every move's position.
    let rules = Rules::new(Variant::preset(Preset::Awari));
    let ix = Indexer::new(&rules, 16).unwrap();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let queries: Vec<String> = (0..4096)
        .map(|_| {
            let n = 8 + (next() % 9) as usize;
            let b = ix.unrank(n, next() % ix.size(n));
            let text: Vec<String> = b.pits(12).iter().map(|p| p.to_string()).collect();
            format!(
                "{url}/api/query?variant=awari&tables_only=true&position={}",
                text.join("%20")
            )
        })
        .collect();

    let sent = AtomicU64::new(0);
    let errors = AtomicU64::new(0);
    let started = Instant::now();
    let mut latencies: Vec<Duration> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..clients)
            .map(|c| {
                let (queries, sent, errors) = (&queries, &sent, &errors);
                s.spawn(move || {
                    let agent: ureq::Agent = ureq::Agent::config_builder()
                        .http_status_as_error(false)
                        .build()
                        .into();
                    let mut mine = Vec::new();
                    let mut i = c * 61;
                    while sent.fetch_add(1, Relaxed) < requests {
                        let q = &queries[i % queries.len()];
                        i += 1;
                        let t = Instant::now();
                        let ok = agent
                            .get(q)
                            .call()
                            .ok()
                            .filter(|r| r.status().is_success())
                            .and_then(|mut r| r.body_mut().read_to_string().ok())
                            .is_some_and(|body| body.contains("\"value\""));
                        mine.push(t.elapsed());
                        if !ok {
                            errors.fetch_add(1, Relaxed);
                        }
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let seconds = started.elapsed().as_secs_f64();
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize].as_secs_f64() * 1e3;
    let (n, errors) = (latencies.len(), errors.load(Relaxed));
    println!(
        "{n} queries from {clients} clients in {seconds:.2} s: {:.0} a second; latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; {errors} errors",
        n as f64 / seconds,
        at(0.5),
        at(0.99),
        at(1.0)
    );
    println!(
        "{{\"queries\":{n},\"clients\":{clients},\"seconds\":{seconds:.3},\"per_second\":{:.0},\"p50_ms\":{:.3},\"p99_ms\":{:.3},\"max_ms\":{:.3},\"errors\":{errors}}}",
        n as f64 / seconds,
        at(0.5),
        at(0.99),
        at(1.0)
    );
}
