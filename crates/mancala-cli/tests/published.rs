//! The published Awari database's format: tables built here, exported as `scores.N` files,
//! read back directly (`--vu-dir`), imported again, and checked.

mod common;

use common::{json, mancala, move_values, scratch};
use std::path::Path;

fn ok(args: &[&str]) -> String {
    let out = mancala(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Awari up to 16 seeds: the published test position read from exported files, its byte at
/// its published offset, import giving back the very files built, and the verifier over the
/// exported files catching one changed byte.
#[test]
fn awari_tables_are_the_published_files() {
    let dir = scratch("vu-awari");
    let (tables, vu, back) = (dir.join("t"), dir.join("vu"), dir.join("back"));
    let (t, v, b) = (
        tables.to_str().unwrap(),
        vu.to_str().unwrap(),
        back.to_str().unwrap(),
    );
    ok(&["build", "awari", "--max-seeds", "16", "--dir", t, "-q"]);
    ok(&["export", "awari", "--vu", "--dir", t, "--out", v]);

    // The published example: value 0, moves -1 -1 -2 -2 -2 0, at offset 588953 of scores.16.
    let q = json(&[
        "query",
        "awari",
        "1 1 1 1 1 2 4 2 3 0 0 0",
        "--vu-dir",
        v,
        "--json",
    ]);
    assert_eq!(q["value"], 0);
    assert_eq!(q["source"], "table");
    assert_eq!(move_values(&q), [-1, -1, -2, -2, -2, 0]);
    let scores16 = std::fs::read(vu.join("scores.16")).unwrap();
    assert_eq!(scores16.len(), 12_685_179);
    assert_eq!(scores16[588_953], 0);
    // Another position by its published offset: `0 1 2 0 0 0 0 1 2 0 0 0` is byte 2726 of
    // scores.6, and the file's byte is the tables' value of that position.
    let six = std::fs::read(vu.join("scores.6")).unwrap();
    let q6 = json(&[
        "query",
        "awari",
        "0 1 2 0 0 0 0 1 2 0 0 0",
        "--dir",
        t,
        "--json",
    ]);
    assert_eq!(six[2726] as i8 as i64, q6["value"].as_i64().unwrap());

    // Import gives back the tables byte for byte.
    ok(&["import", "awari", "--vu-dir", v, "--dir", b]);
    for n in 0..=16 {
        let name = format!("awari-6x4/tier-{n:03}.mtb");
        assert_eq!(
            std::fs::read(tables.join(&name)).unwrap(),
            std::fs::read(back.join(&name)).unwrap(),
            "{name}"
        );
    }

    // The verifier passes the exported files and names the one position changed.
    let out = ok(&["verify", "awari", "--vu-dir", v]);
    assert!(out.contains("ok: 17 tiers"), "{out}");
    flip(&vu.join("scores.12"), 1000);
    let out = mancala(&["verify", "awari", "--vu-dir", v]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("scores.12: tier 12 rank 1,000 position"),
        "{err}"
    );
}

/// A smaller board whose top tier holds the start position, which the published files leave
/// out: solving the start from the exported files gives what a search without tables gives.
#[test]
fn the_start_position_comes_from_its_moves() {
    let dir = scratch("vu-start");
    let (tables, vu) = (dir.join("t"), dir.join("vu"));
    let (t, v) = (tables.to_str().unwrap(), vu.to_str().unwrap());
    let game = ["awari", "--pits", "3", "--seeds", "2"];
    ok(&[
        &["build"][..],
        &game,
        &["--max-seeds", "12", "--dir", t, "-q"],
    ]
    .concat());
    ok(&[&["export"][..], &game, &["--vu", "--dir", t, "--out", v]].concat());
    // No file for the 11-seed tier, which no game reaches; the 12-seed file lacks the start.
    assert!(!vu.join("scores.11").exists());
    let twelve = std::fs::metadata(vu.join("scores.12")).unwrap().len();
    let tier = json(&[&["tiers"][..], &game, &["--json"]].concat());
    assert_eq!(twelve + 1, tier[12]["positions"].as_u64().unwrap());

    let from_files = json(&[&["solve"][..], &game, &["--vu-dir", v, "--json", "-q"]].concat());
    let by_search = json(
        &[
            &["solve"][..],
            &game,
            &["--tables", "0", "--dir", t, "--json", "-q"],
        ]
        .concat(),
    );
    assert_eq!(from_files["value"], by_search["value"]);
    assert_eq!(from_files["best"], by_search["best"]);
    assert_eq!(from_files["tables"], 12);
}

/// Bad uses: a file of the wrong size, a missing tier, a rule set outside the Awari type.
#[test]
fn published_files_are_checked() {
    let dir = scratch("vu-bad");
    let (tables, vu) = (dir.join("t"), dir.join("vu"));
    let (t, v) = (tables.to_str().unwrap(), vu.to_str().unwrap());
    ok(&["build", "awari", "--max-seeds", "8", "--dir", t, "-q"]);
    ok(&["export", "awari", "--vu", "--dir", t, "--out", v]);
    // A folder without the files: the message names the one the question needs.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    common::assert_one_line_errors(&[(
        &[
            "query",
            "awari",
            "0 0 0 0 2 2 1 1 0 1 1 1",
            "--vu-dir",
            empty.to_str().unwrap(),
        ],
        "scores.0, the published database's file of tier 0, is not in",
    )]);
    let eight = vu.join("scores.8");
    let bytes = std::fs::read(&eight).unwrap();
    std::fs::write(&eight, &bytes[..bytes.len() - 1]).unwrap();
    common::assert_one_line_errors(&[
        (
            &["query", "awari", "0 0 0 0 2 2 1 1 0 1 1 0", "--vu-dir", v],
            "75,503 bytes, but tier 8 of awari-6x4 has 75,504 positions",
        ),
        (&["verify", "awari", "--vu-dir", v], "download it again"),
        (&["export", "kalah", "--vu", "--dir", t, "--out", v], "only"),
    ]);
    // A file that is a link leading nowhere (a loop) is named with what is wrong, not taken
    // for a missing file (the query searched, import skipped it).
    let three = vu.join("scores.3");
    std::fs::remove_file(&three).unwrap();
    std::os::unix::fs::symlink("scores.3", &three).unwrap();
    let imported = dir.join("imported");
    let i = imported.to_str().unwrap();
    common::assert_one_line_errors(&[
        (
            &["query", "awari", "0 0 0 0 1 1 1 1 1 1 0 0", "--vu-dir", v],
            "scores.3",
        ),
        (&["import", "awari", "--vu-dir", v, "--dir", i], "scores.3"),
    ]);
}

fn flip(file: &Path, at: usize) {
    let mut bytes = std::fs::read(file).unwrap();
    bytes[at] = bytes[at].wrapping_add(3);
    std::fs::write(file, bytes).unwrap();
}

/// A published file of impossible values (all 0x7f, or all 0x80) is refused by `import`,
/// naming the file, the rank and the value, and nothing is written for it: a checksum made
/// over forged values would vouch for them.
#[test]
fn import_refuses_values_no_position_can_have() {
    let dir = scratch("vu-range");
    let (tables, vu, into) = (dir.join("t"), dir.join("vu"), dir.join("into"));
    let (t, v, i) = (
        tables.to_str().unwrap(),
        vu.to_str().unwrap(),
        into.to_str().unwrap(),
    );
    ok(&["build", "awari", "--max-seeds", "6", "--dir", t, "-q"]);
    ok(&["export", "awari", "--vu", "--dir", t, "--out", v]);
    // The honest files import.
    ok(&["import", "awari", "--vu-dir", v, "--dir", i]);
    for (byte, shown) in [(0x7fu8, "127"), (0x80, "-128")] {
        let five = vu.join("scores.5");
        let len = std::fs::metadata(&five).unwrap().len() as usize;
        std::fs::write(&five, vec![byte; len]).unwrap();
        let _ = std::fs::remove_dir_all(&into);
        let out = mancala(&["import", "awari", "--vu-dir", v, "--dir", i]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{err}");
        assert!(
            err.contains("scores.5") && err.contains("rank 0") && err.contains(shown),
            "{err}"
        );
        assert!(
            !into.join("awari-6x4/tier-005.mtb").exists(),
            "nothing written for the forged tier"
        );
    }
}

/// What is wrong with a folder of published files is said of the folder or the file itself:
/// a folder that is not there, and the first file missing (scores.0, not the question's tier).
#[test]
fn a_missing_folder_or_file_is_named() {
    let dir = scratch("vu-names");
    let (tables, vu) = (dir.join("t"), dir.join("vu"));
    let (t, v) = (tables.to_str().unwrap(), vu.to_str().unwrap());
    ok(&["build", "awari", "--max-seeds", "10", "--dir", t, "-q"]);
    ok(&["export", "awari", "--vu", "--dir", t, "--out", v]);
    let nowhere = dir.join("nowhere");
    let n = nowhere.to_str().unwrap();
    let position = "0 0 1 2 0 3 1 0 0 2 0 1";
    common::assert_one_line_errors(&[
        (
            &["query", "awari", position, "--vu-dir", n],
            "no such folder",
        ),
        (&["verify", "awari", "--vu-dir", n], "no such folder"),
    ]);
    std::fs::remove_file(vu.join("scores.0")).unwrap();
    common::assert_one_line_errors(&[
        (&["query", "awari", position, "--vu-dir", v], "scores.0,"),
        (&["verify", "awari", "--vu-dir", v], "scores.0,"),
    ]);
}
