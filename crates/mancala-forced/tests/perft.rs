//! The pinned whole-game results in `tests/perft/forced.perft`, checked against the engine and
//! against the independent reference simulator in `tests/reference/`.
//!
//! File format: one game per line, `#` starts a comment. Whitespace-separated fields:
//! `preset pits total rules setup swap moves south north end` where `rules` is `-` or
//! `;`-separated `NAME=VALUE` options, `setup` the distributor's 2m counts comma-separated
//! (absolute order), `swap` is `kept` or `swapped`, `moves` the forced moves played, `south` /
//! `north` the final captured seeds of the distributor / second player, and `end` the end reason.

mod reference;

use mancala_forced::{new_game, parse_setup};

struct Line {
    preset: String,
    pits: u32,
    total: u32,
    rules: Vec<String>,
    setup: String,
    swapped: bool,
    moves: u64,
    south: u32,
    north: u32,
    end: String,
}

fn load() -> Vec<Line> {
    let text = include_str!("perft/forced.perft");
    let mut out = Vec::new();
    for raw in text.lines() {
        let l = raw.split('#').next().unwrap().trim();
        if l.is_empty() {
            continue;
        }
        let f: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(f.len(), 10, "bad perft line: {raw}");
        out.push(Line {
            preset: f[0].to_string(),
            pits: f[1].parse().unwrap(),
            total: f[2].parse().unwrap(),
            rules: if f[3] == "-" {
                vec![]
            } else {
                f[3].split(';').map(String::from).collect()
            },
            setup: f[4].to_string(),
            swapped: match f[5] {
                "kept" => false,
                "swapped" => true,
                s => panic!("bad swap field {s}"),
            },
            moves: f[6].parse().unwrap(),
            south: f[7].parse().unwrap(),
            north: f[8].parse().unwrap(),
            end: f[9].to_string(),
        });
    }
    out
}

#[test]
fn perft_file_matches_engine_and_reference() {
    let lines = load();
    assert!(lines.len() >= 20, "the perft file should pin many games");
    let mut ends = std::collections::BTreeSet::new();
    for l in &lines {
        let want = (l.moves, l.south, l.north, l.end.as_str());
        let mut g = new_game(
            &l.preset,
            Some(l.pits),
            Some(l.total),
            &l.rules,
            Some(&l.setup),
            l.swapped,
        )
        .unwrap_or_else(|e| panic!("{} {}: {e}", l.preset, l.setup));
        g.run();
        let [s, n] = g.captured();
        let got = (g.moves_played(), s, n, g.end_reason().unwrap().as_str());
        assert_eq!(got, want, "engine: {} {} {:?}", l.preset, l.setup, l.rules);

        let setup = parse_setup(&l.setup).unwrap();
        let rules: Vec<&str> = l.rules.iter().map(String::as_str).collect();
        let r = reference::simulate(&l.preset, l.pits as usize, &setup, l.swapped, &rules);
        assert_eq!(
            (r.moves, r.south, r.north, r.end),
            want,
            "reference: {} {} {:?}",
            l.preset,
            l.setup,
            l.rules
        );
        ends.insert(l.end.clone());
    }
    // The file exercises the main ways a game ends.
    for e in [
        "board-empty",
        "starvation",
        "cycle",
        "infinite-relay",
        "one-each",
        "no-feed",
    ] {
        assert!(ends.contains(e), "no pinned game ends by {e}");
    }
}

/// Prints candidate perft lines computed by the reference simulator alone (run with
/// `--ignored --nocapture` to regenerate; then check the engine agrees via the test above).
#[test]
#[ignore]
fn print_reference_lines() {
    let mut seed = 2024u64;
    let mut rnd = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as u32
    };
    // Setups as in the perft file (comma-separated), so that each case fits on one line.
    let case = |p, m, t, r, s: &str| (p, m, t, r, parse_setup(s).unwrap());
    let mut cases: Vec<(&str, u32, u32, &str, Vec<u32>)> = vec![
        case("madjnuni", 7, 98, "-", "7,7,7,7,7,7,7,7,7,7,7,7,7,7"),
        case("madjnuni", 7, 98, "-", "6,7,6,12,6,7,7,10,4,5,8,9,4,7"),
        case(
            "madjnuni",
            7,
            98,
            "serial=backward",
            "7,7,7,7,7,7,7,7,7,7,7,7,7,7",
        ),
        case(
            "madjnuni",
            7,
            98,
            "chain=one",
            "7,7,7,7,7,7,7,7,7,7,7,7,7,7",
        ),
        case("madjnuni", 2, 8, "-", "2,2,2,2"),
        case("madjnuni", 3, 14, "-", "2,2,3,2,2,3"),
        case("madjnuni", 1, 7, "-", "5,2"),
        case("el-akil", 6, 72, "-", "0,9,9,9,9,0,0,9,9,9,9,0"),
        case("el-akil", 6, 72, "-", "0,0,36,0,0,0,0,0,0,36,0,0"),
        case("el-akil", 6, 72, "-", "0,10,8,12,6,0,0,9,11,7,9,0"),
        case(
            "el-akil",
            6,
            72,
            "setup=leftmost",
            "36,0,0,0,0,0,36,0,0,0,0,0",
        ),
        case(
            "el-akil",
            6,
            72,
            "serial=forward",
            "0,9,9,9,9,0,0,9,9,9,9,0",
        ),
        case("el-akil", 6, 72, "chain=one", "0,9,9,9,9,0,0,9,9,9,9,0"),
        case("el-akil", 3, 12, "-", "1,3,0,0,1,7"),
        case("el-akil", 2, 8, "-", "6,0,0,2"),
        case("el-ghasheem", 6, 72, "-", "6,6,6,6,6,6,6,6,6,6,6,6"),
        case("el-ghasheem", 2, 20, "-", "4,7,4,5"),
        case(
            "el-ghasheem",
            6,
            72,
            "serial=off",
            "6,6,6,6,6,6,6,6,6,6,6,6",
        ),
    ];
    for _ in 0..6 {
        let mut s = vec![2u32; 14];
        for _ in 0..70 {
            s[(rnd() % 14) as usize] += 1;
        }
        cases.push(("madjnuni", 7, 98, "-", s));
    }
    for _ in 0..6 {
        let mut s = vec![4u32; 12];
        for _ in 0..24 {
            s[(rnd() % 12) as usize] += 1;
        }
        cases.push(("el-ghasheem", 6, 72, "-", s));
    }
    for _ in 0..6 {
        let mut s = vec![0u32; 12];
        let pairs: Vec<usize> = (0..6).filter(|_| rnd() % 2 == 0).collect();
        let pairs = if pairs.is_empty() { vec![2] } else { pairs };
        let mut at = vec![];
        for &i in &pairs {
            at.push(i);
            at.push(11 - i);
        }
        for &i in &at {
            s[i] = 1;
        }
        for _ in 0..(72 - at.len()) {
            s[at[(rnd() as usize) % at.len()]] += 1;
        }
        cases.push(("el-akil", 6, 72, "-", s));
    }
    for _ in 0..6 {
        let mut s = vec![2u32; 6];
        for _ in 0..6 {
            s[(rnd() % 6) as usize] += 1;
        }
        cases.push(("madjnuni", 3, 18, "-", s));
    }
    for (p, m, t, r, s) in cases {
        let rules: Vec<&str> = if r == "-" {
            vec![]
        } else {
            r.split(';').collect()
        };
        for swapped in [false, true] {
            let res = reference::simulate(p, m as usize, &s, swapped, &rules);
            let txt: Vec<String> = s.iter().map(|c| c.to_string()).collect();
            println!(
                "{p} {m} {t} {r} {} {} {} {} {} {}",
                txt.join(","),
                if swapped { "swapped" } else { "kept" },
                res.moves,
                res.south,
                res.north,
                res.end
            );
        }
    }
}
