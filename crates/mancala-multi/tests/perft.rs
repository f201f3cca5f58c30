//! Perft files (tests/perft/*.perft): pinned counts checked against the crate's move generator
//! at every depth and against the independent reference in tests/reference up to depth 5.

mod reference;

use mancala_multi::{new_game, MultiGame, Playable};
use reference::Ref;

const FILES: [&str; 3] = ["mankala-2p", "mankala-3p", "mankala-4p"];

/// Up to this depth the reference generator recomputes each count too.
const REFERENCE_DEPTH: u32 = 5;

struct Check {
    line: usize,
    game: MultiGame,
    depth: u32,
    count: Option<u64>,
}

fn parse(name: &str) -> Vec<Check> {
    let path = format!("{}/tests/perft/{name}.perft", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut preset = String::new();
    let mut pits = None;
    let mut seeds = None;
    let mut rules: Vec<String> = Vec::new();
    let mut game: Option<MultiGame> = None;
    let mut out = Vec::new();
    for (k, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "variant" => {
                let toks: Vec<&str> = rest.split_whitespace().collect();
                preset = toks[0].to_string();
                pits = None;
                seeds = None;
                rules.clear();
                let mut i = 1;
                while i < toks.len() {
                    match toks[i] {
                        "pits" => pits = Some(toks[i + 1].parse().unwrap()),
                        "seeds" => seeds = Some(toks[i + 1].parse().unwrap()),
                        "rule" => rules.push(toks[i + 1].to_string()),
                        t => panic!("{path}:{}: unknown variant word {t}", k + 1),
                    }
                    i += 2;
                }
                game = Some(new_game(&preset, pits, seeds, &rules, None).unwrap());
            }
            "position" => {
                let pos = if rest.trim() == "start" {
                    None
                } else {
                    Some(rest)
                };
                game = Some(
                    new_game(&preset, pits, seeds, &rules, pos)
                        .unwrap_or_else(|e| panic!("{path}:{}: {e}", k + 1)),
                );
            }
            "perft" => {
                let (d, c) = rest.split_once(' ').unwrap();
                out.push(Check {
                    line: k + 1,
                    game: game.clone().expect("perft before a variant"),
                    depth: d.parse().unwrap(),
                    count: if c.trim() == "?" {
                        None
                    } else {
                        Some(c.trim().parse().unwrap())
                    },
                });
            }
            _ => panic!("{path}:{}: unknown directive {word}", k + 1),
        }
    }
    out
}

fn reference_count(game: &MultiGame, depth: u32) -> u64 {
    let r = Ref::for_game(game);
    let ring = r.ring(&game.pits(), &game.houses());
    r.perft(&ring, game.mover(), depth)
}

#[test]
fn perft_files_match_the_generator_and_the_reference() {
    let mut checked = 0;
    for name in FILES {
        for c in parse(name) {
            let want = c
                .count
                .unwrap_or_else(|| panic!("{name}:{}: count is '?'", c.line));
            assert_eq!(c.game.perft(c.depth), want, "{name}.perft line {}", c.line);
            if c.depth <= REFERENCE_DEPTH {
                assert_eq!(
                    reference_count(&c.game, c.depth),
                    want,
                    "reference, {name}.perft line {}",
                    c.line
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} perft lines");
}

/// Perft through the public API (children()) equals the internal perft on a few positions.
#[test]
fn perft_by_children_agrees() {
    fn by_children(g: &MultiGame, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        g.children()
            .iter()
            .map(|(_, c)| {
                if depth == 1 {
                    1
                } else if c.is_over() {
                    0
                } else {
                    by_children(c, depth - 1)
                }
            })
            .sum()
    }
    for preset in FILES {
        let g = new_game(preset, Some(3), Some(3), &[], None).unwrap();
        assert_eq!(by_children(&g, 4), g.perft(4), "{preset}");
    }
}

/// Prints every count (fills in '?'): cargo test -p mancala-multi --release --test perft --
/// --ignored regenerate --nocapture
#[test]
#[ignore]
fn regenerate() {
    for name in FILES {
        for c in parse(name) {
            println!(
                "{name}:{} perft {} {} (reference {})",
                c.line,
                c.depth,
                c.game.perft(c.depth),
                if c.depth <= REFERENCE_DEPTH {
                    reference_count(&c.game, c.depth).to_string()
                } else {
                    "-".into()
                }
            );
        }
    }
}
