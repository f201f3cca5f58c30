//! Pinned perft counts for every rule set, read from `tests/perft/*.perft`.
//!
//! What this file proves: [`Rules::perft`] (the number of move sequences of exactly `d` plies,
//! every move a ply, Kalah extra moves too, a game-ending move counted only at the last ply)
//! still equals the counts pinned in the files, from the start position and from midgame
//! positions, for awari, oware, wari, kalah and mancala (standard and empty capture) and small
//! boards. Any change to move generation, captures, feeding or game ends shows up here. The
//! independent reference implementation (`tests/reference`) must agree at every depth up to 6,
//! so the pinned counts were not simply copied from a buggy engine.
//!
//! The file format is documented at the top of each `.perft` file. To (re)compute the counts
//! after adding positions (write `perft <depth> ?` lines), run
//! `cargo test -p mancala-rules --release --test perft -- --ignored regenerate`: it checks the
//! reference to depth 6 and rewrites the counts in place.

mod reference;

use mancala_rules::{parse_position, Board, GrandSlam, Options, Preset, Rules, Variant};
use reference::*;
use std::path::{Path, PathBuf};

/// The deepest level checked against the (slow) reference implementation.
const REF_DEPTH: u32 = 6;

/// One line of a `.perft` file, parsed.
#[derive(Debug)]
enum Line {
    /// Comments and blank lines, kept verbatim by the generator.
    Other(String),
    Variant(Rules, RefRules, String),
    Position(Board, Vec<u8>, String),
    /// Depth and pinned count (`None` for `?`).
    Perft(u32, Option<u64>),
}

fn perft_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft")
}

fn perft_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(perft_dir())
        .expect("tests/perft exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .perft files");
    files
}

/// `variant <preset> [pits N] [seeds N] [empty-capture] [grand-slam NAME]`.
fn parse_variant(words: &[&str], at: &str) -> (Rules, RefRules) {
    let preset: Preset = words
        .first()
        .unwrap_or_else(|| panic!("{at}: variant needs a preset"))
        .parse()
        .unwrap_or_else(|e| panic!("{at}: {e}"));
    let mut opts = Options::default();
    let mut i = 1;
    let number = |i: usize| -> u32 {
        words
            .get(i)
            .and_then(|w| w.parse().ok())
            .unwrap_or_else(|| panic!("{at}: '{}' needs a number", words[i - 1]))
    };
    while i < words.len() {
        match words[i] {
            "pits" => {
                opts.pits = Some(number(i + 1));
                i += 2;
            }
            "seeds" => {
                opts.seeds = Some(number(i + 1));
                i += 2;
            }
            "empty-capture" => {
                opts.empty_capture = true;
                i += 1;
            }
            "grand-slam" => {
                let gs: GrandSlam = words
                    .get(i + 1)
                    .unwrap_or_else(|| panic!("{at}: grand-slam needs a name"))
                    .parse()
                    .unwrap_or_else(|e| panic!("{at}: {e}"));
                opts.grand_slam = Some(gs);
                i += 2;
            }
            w => panic!("{at}: unknown variant option '{w}'"),
        }
    }
    let variant = Variant::new(preset, opts).unwrap_or_else(|e| panic!("{at}: {e}"));
    let reference = match preset {
        Preset::Awari => ref_awari(),
        Preset::Oware => ref_oware(),
        Preset::Wari => ref_wari(match variant.grand_slam {
            GrandSlam::Capture => RefGrandSlam::Capture,
            GrandSlam::Forbidden => RefGrandSlam::Forbidden,
            GrandSlam::NoCapture => RefGrandSlam::NoCapture,
            GrandSlam::TakeAll => RefGrandSlam::TakeAll,
            GrandSlam::VictimTakesRest => RefGrandSlam::VictimTakesRest,
            GrandSlam::SpareLast => RefGrandSlam::SpareLast,
            GrandSlam::SpareFirst => RefGrandSlam::SpareFirst,
            GrandSlam::ExtraMove => RefGrandSlam::ExtraMove,
        }),
        Preset::Kalah | Preset::Mancala => ref_kalah(variant.empty_capture),
        p => {
            panic!("{at}: {p} is a sowing-family preset; its perft files are in tests/perft-sowing")
        }
    };
    (Rules::new(variant), reference)
}

fn parse_file(path: &Path) -> Vec<Line> {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(path).unwrap();
    let mut rules: Option<Rules> = None;
    let mut have_position = false;
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let at = format!("{name}:{}", n + 1);
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            out.push(Line::Other(raw.to_string()));
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[0] {
            "variant" => {
                let (r, rr) = parse_variant(&words[1..], &at);
                rules = Some(r.clone());
                have_position = false;
                out.push(Line::Variant(r, rr, raw.to_string()));
            }
            "position" => {
                let r = rules
                    .as_ref()
                    .unwrap_or_else(|| panic!("{at}: position before any variant"));
                let rest = line["position".len()..].trim();
                let b = parse_position(r, rest).unwrap_or_else(|e| panic!("{at}: {e}"));
                let pits = b.pits(2 * r.pits());
                have_position = true;
                out.push(Line::Position(b, pits, raw.to_string()));
            }
            "perft" => {
                assert!(have_position, "{at}: perft before any position");
                assert_eq!(words.len(), 3, "{at}: expected 'perft <depth> <count>'");
                let depth: u32 = words[1]
                    .parse()
                    .unwrap_or_else(|_| panic!("{at}: bad depth"));
                let count = if words[2] == "?" {
                    None
                } else {
                    Some(
                        words[2]
                            .parse()
                            .unwrap_or_else(|_| panic!("{at}: bad count")),
                    )
                };
                out.push(Line::Perft(depth, count));
            }
            w => panic!("{at}: unknown directive '{w}'"),
        }
    }
    out
}

/// Walks a parsed file, calling `f(rules, reference, board, pits, depth, count, where)` for each
/// perft line.
fn each_perft(
    lines: &[Line],
    name: &str,
    mut f: impl FnMut(&Rules, RefRules, Board, &[u8], u32, Option<u64>, &str),
) {
    let mut cur: Option<(&Rules, RefRules, String)> = None;
    let mut pos: Option<(Board, &[u8], String)> = None;
    for line in lines {
        match line {
            Line::Other(_) => {}
            Line::Variant(r, rr, text) => {
                cur = Some((r, *rr, text.trim().to_string()));
                pos = None;
            }
            Line::Position(b, pits, text) => pos = Some((*b, pits, text.trim().to_string())),
            Line::Perft(d, count) => {
                let (r, rr, vt) = cur.as_ref().unwrap();
                let (b, pits, pt) = pos.as_ref().unwrap();
                let at = format!("{name}: {vt}: {pt}: perft {d}");
                f(r, *rr, *b, pits, *d, *count, &at);
            }
        }
    }
}

/// Checks every perft line of one file; returns how many there were.
fn check_file(path: &Path) -> usize {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let lines = parse_file(path);
    let mut here = 0;
    each_perft(&lines, &name, |r, rr, b, pits, d, count, at| {
        let want = count.unwrap_or_else(|| panic!("{at}: no count (run the generator)"));
        assert_eq!(r.perft(b, d), want, "{at}: engine");
        if d <= REF_DEPTH {
            assert_eq!(ref_perft(rr, pits, d), want, "{at}: reference");
        }
        here += 1;
    });
    assert!(here > 0, "{name}: no perft lines");
    here
}

#[test]
fn pinned_perft_counts() {
    let files = perft_files();
    // One thread a file: the deepest counts take about a second each.
    let checked: usize = std::thread::scope(|s| {
        let handles: Vec<_> = files
            .iter()
            .map(|path| s.spawn(move || check_file(path)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    // Every rule set that must be pinned has its file.
    let names: Vec<String> = files
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for want in [
        "awari.perft",
        "oware.perft",
        "wari.perft",
        "wari-grand-slams.perft",
        "kalah.perft",
        "kalah-empty-capture.perft",
        "mancala.perft",
        "mancala-empty-capture.perft",
        "small-boards.perft",
    ] {
        assert!(names.iter().any(|f| f == want), "missing {want}");
    }
    assert!(checked >= 300, "only {checked} perft lines");
}

/// Perft 0 is 1 and perft 1 is the number of legal moves, for every start position in the files.
#[test]
fn perft_shallow_identities() {
    for path in perft_files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let lines = parse_file(&path);
        each_perft(&lines, &name, |r, _, b, _, d, _, at| {
            if d == 1 {
                assert_eq!(r.perft(b, 0), 1, "{at}");
                let moves = match r.node(b) {
                    mancala_rules::Node::Moves(k) => k.len() as u64,
                    mancala_rules::Node::Terminal { .. } => 0,
                };
                assert_eq!(r.perft(b, 1), moves, "{at}");
            }
        });
    }
}

/// Rewrites the counts of every `.perft` file with the engine's, after checking the reference
/// up to depth 6. Run it with `--ignored regenerate` after adding positions or depths.
#[test]
#[ignore]
fn regenerate() {
    for path in perft_files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let lines = parse_file(&path);
        let mut counts = Vec::new();
        each_perft(&lines, &name, |r, rr, b, pits, d, _, at| {
            let t = std::time::Instant::now();
            let n = r.perft(b, d);
            if d <= REF_DEPTH {
                assert_eq!(ref_perft(rr, pits, d), n, "{at}: reference disagrees");
            }
            eprintln!("{at} = {n} ({:.3}s)", t.elapsed().as_secs_f64());
            counts.push(n);
        });
        let mut counts = counts.into_iter();
        let mut text = String::new();
        for line in &lines {
            match line {
                Line::Other(s) | Line::Variant(_, _, s) | Line::Position(_, _, s) => {
                    text.push_str(s)
                }
                Line::Perft(d, _) => {
                    text.push_str(&format!("perft {d} {}", counts.next().unwrap()))
                }
            }
            text.push('\n');
        }
        std::fs::write(&path, text).unwrap();
    }
}
