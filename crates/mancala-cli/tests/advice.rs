//! The command line turns the libraries' neutral errors into advice: the command it names,
//! run as printed, must mend the problem.

mod common;

use common::{json, mancala, scratch};

/// The first command quoted in backticks in `text`, as words (the scratch folders have no
/// spaces, so a split on spaces is what a shell would do).
fn quoted_command(text: &str) -> Vec<String> {
    let start = text.find('`').expect("a quoted command") + 1;
    let len = text[start..].find('`').expect("the closing backtick");
    text[start..start + len]
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// Queries a position in an empty folder, runs the build command the error names, and
/// queries again: now from the tables, with the value `expected`.
fn missing_tables_advice_mends(options: &[&str], position: &str, expected: i64) {
    let dir = scratch(&format!("advice-{}", options.join("-")));
    let d = dir.to_str().unwrap();
    let mut query = vec!["query"];
    query.extend(options);
    query.extend([position, "--dir", d, "--json", "-q"]);

    let out = mancala(&query);
    assert!(
        !out.status.success(),
        "{query:?} succeeded in an empty folder"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let command = quoted_command(&err);
    assert_eq!(command[..2], ["mancala", "build"], "{err}");
    // Every option the user gave is in the command, so it builds the tables of this rule set.
    for o in options.iter().skip(1) {
        assert!(
            command.iter().any(|w| w == o),
            "{o} missing from {command:?}"
        );
    }

    let args: Vec<&str> = command[1..].iter().map(String::as_str).collect();
    let built = mancala(&[&args[..], &["-q"]].concat());
    assert!(
        built.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&built.stderr)
    );
    let v = json(&query);
    assert_eq!(v["source"], "table", "{v}");
    assert_eq!(v["value"], expected, "{v}");
}

#[test]
fn the_missing_tables_command_of_a_rule_option_builds_them() {
    // Relay sowing with houses not sown; the tables must agree with a search without them.
    let options = [
        "mankala-2p",
        "--pits",
        "3",
        "--rule",
        "relay",
        "--rule",
        "houses-not-sown",
    ];
    let position = "1 0 2 1 0 1";
    missing_tables_advice_mends(&options, position, expected_value(&options, position));
}

#[test]
fn the_missing_tables_command_of_an_ownership_builds_them() {
    // South owns North's middle pit: +12 to South (see the nam-nam test in cli.rs).
    missing_tables_advice_mends(
        &["nam-nam", "--pits", "3", "--owners", "sssnsn"],
        "2 2 2 2 2 2",
        12,
    );
}

/// The value of a small position by search alone (no tables), to compare with the tables'.
fn expected_value(options: &[&str], position: &str) -> i64 {
    let mut args = vec!["solve"];
    args.extend(options);
    args.extend([position, "--tables", "0", "--json", "-q"]);
    json(&args)["value"].as_i64().expect("an exact value")
}

/// Awari tables up to 8 seeds built in a fresh folder `name`.
fn awari_to_8(name: &str) -> common::Scratch {
    let dir = scratch(name);
    let d = dir.to_str().unwrap();
    assert!(
        mancala(&["build", "awari", "--max-seeds", "8", "--dir", d, "-q"])
            .status
            .success()
    );
    dir
}

/// A query of an 8-seed Awari position over the tables in `d`.
fn query_8(d: &str) -> [&str; 6] {
    [
        "query",
        "awari",
        "0 0 0 0 2 2 1 1 0 1 1 0",
        "--dir",
        d,
        "--json",
    ]
}

/// Damages tier 8's last payload byte in `dir`; then `query` fails with a message that names
/// the file and its checksum, which is returned.
fn damage_tier_8(dir: &std::path::Path, query: &[&str]) -> String {
    let file = dir.join("awari-6x4").join("tier-008.mtb");
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&file, bytes).unwrap();
    let out = mancala(query);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(err.contains("tier-008.mtb"), "{err}");
    assert!(err.contains("checksum"), "{err}");
    err
}

/// A damaged table: the message names the file and the command that replaces it, and that
/// command does.
#[test]
fn a_damaged_table_names_the_build_that_replaces_it() {
    let dir = awari_to_8("advice-damaged");
    let query = query_8(dir.to_str().unwrap());
    let err = damage_tier_8(&dir, &query);
    let command = quoted_command(&err);
    assert_eq!(command[..2], ["mancala", "build"], "{err}");
    let args: Vec<&str> = command[1..].iter().map(String::as_str).collect();
    assert!(mancala(&[&args[..], &["-q"]].concat()).status.success());
    assert_eq!(json(&query)["source"], "table");
}

/// Questions record the files whose payloads they checked (`payloads-checked`) and skip
/// reading them again while they are unchanged; a file damaged after that is still caught.
#[test]
fn a_table_damaged_after_a_checked_question_is_caught() {
    let dir = awari_to_8("advice-damaged-later");
    let query = query_8(dir.to_str().unwrap());
    // The record vouches only for files more than a second older than itself.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    let first = json(&query);
    let record = dir.join("awari-6x4").join("payloads-checked");
    assert!(record.is_file(), "the first question records its check");
    assert_eq!(json(&query), first, "recorded files answer the same");
    damage_tier_8(&dir, &query);
}
