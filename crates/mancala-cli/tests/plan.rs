//! `mancala plan` and `build --memory`: the plan a user reads before buying a machine, and a
//! budget too small refused before anything is built.

mod common;

use common::{json, mancala, scratch};

#[test]
fn plans_name_each_tiers_layout_and_needs() {
    let free = json(&[
        "plan",
        "awari",
        "--max-seeds",
        "20",
        "--memory",
        "20G",
        "--json",
    ]);
    let t20 = &free["tiers"][20];
    assert_eq!(t20["positions"], 80_214_915);
    assert_eq!(t20["fits"], true);
    assert_eq!(t20["exits_on_disk"], false);
    assert!(t20["memory"].as_u64().unwrap() >= 2 * 80_214_915);
    assert_eq!(free["fits"], true);

    let tight = json(&[
        "plan",
        "awari",
        "--max-seeds",
        "20",
        "--memory",
        "200M",
        "--json",
    ]);
    let t20 = &tight["tiers"][20];
    assert_eq!(t20["exits_on_disk"], true, "{t20}");
    assert!(t20["slices"].as_u64().unwrap() >= 2, "{t20}");
    assert!(t20["memory"].as_u64().unwrap() <= 200 << 20, "{t20}");
    assert_eq!(tight["tiers"][19]["exits_on_disk"], false);

    let short = json(&[
        "plan",
        "awari",
        "--max-seeds",
        "20",
        "--memory",
        "150M",
        "--json",
    ]);
    assert_eq!(short["fits"], false);
    assert_eq!(short["tiers"][20]["fits"], false);
    assert!(short["tiers"][20]["memory"].as_u64().unwrap() > 150 << 20);
}

#[test]
fn a_budget_too_small_is_refused_with_the_size_to_give() {
    let dir = scratch("plan-tiny");
    let d = dir.to_str().unwrap();
    let out = mancala(&[
        "build",
        "awari",
        "--max-seeds",
        "12",
        "--dir",
        d,
        "--memory",
        "1M",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("MB of memory") && err.contains("give --memory"),
        "{err}"
    );
    assert!(!dir.join("awari-6x4").join("tier-000.mtb").exists());
    for bad in ["20x", "0", "-5G"] {
        let out = mancala(&[
            "build",
            "awari",
            "--max-seeds",
            "4",
            "--dir",
            d,
            "--memory",
            bad,
        ]);
        assert_eq!(out.status.code(), Some(2), "--memory {bad}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
