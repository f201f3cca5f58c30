//! Fuzzing (proptest) of everything that reads what a user or a file gives: the position,
//! move, setup and option parsers of every game family, and table headers and compressed
//! blocks read from bytes. Nothing may panic; a bad input is an error.
//!
//! The case count is proptest's (`PROPTEST_CASES`, default 256 a property); `.ci/run` runs
//! this with a larger fixed budget.

use mancala_bao::BaoFamily;
use mancala_forced::ForcedFamily;
use mancala_multi::MultiFamily;
use mancala_oracle::{PackedFamily, Settings};
use mancala_rules::{parse_moves, parse_position, GameFamily, GameSpec, Preset, Rules, Variant};
use mancala_tables::format::{Header, HEADER_LEN};
use mancala_tables::{build, tier_path, BuildOptions, Table, Tables};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

fn families() -> Vec<Box<dyn GameFamily>> {
    vec![
        Box::new(PackedFamily {
            settings: Settings::default(),
            builds: Arc::new(()),
            searches: Arc::new(()),
        }),
        Box::new(MultiFamily { node_limit: 1000 }),
        Box::new(ForcedFamily),
        Box::new(BaoFamily { depth: 1 }),
    ]
}

/// Every preset name, a few near misses, and noise.
fn preset() -> impl Strategy<Value = String> {
    let mut names: Vec<String> = families()
        .iter()
        .flat_map(|f| f.presets())
        .map(str::to_string)
        .collect();
    names.extend(["", "AWARI", "kalah ", "bao-", "nam-nam-6p"].map(str::to_string));
    prop_oneof![
        4 => proptest::sample::select(names),
        1 => "\\PC{0,12}",
    ]
}

/// Words a user might type into a text option: numbers, letters, signs, junk.
fn words() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9 ,-]{0,60}",
        "(-?[0-9]{1,4} ){0,20}(north|south|n|s)?",
        "[snSN]{0,20}",
        "[a-z0-9>tTL<. ]{0,12}",
        "\\PC{0,40}",
    ]
}

fn spec() -> impl Strategy<Value = GameSpec> {
    (
        preset(),
        proptest::option::of(0u32..20),
        proptest::option::of(0u32..20),
        any::<bool>(),
        proptest::option::of(words()),
        proptest::collection::vec("[a-z0-9=-]{0,12}", 0..3),
        proptest::option::of(words()),
        proptest::option::of(words()),
        proptest::option::of(words()),
        any::<bool>(),
    )
        .prop_map(
            |(
                preset,
                pits,
                seeds,
                empty_capture,
                grand_slam,
                rules,
                owners,
                position,
                setup,
                swapped,
            )| {
                GameSpec {
                    preset,
                    pits,
                    seeds,
                    empty_capture,
                    grand_slam,
                    rules,
                    owners,
                    position,
                    setup,
                    swapped,
                }
            },
        )
}

proptest! {
    /// Any spec makes a game or an error, in every family; a game made takes any move text
    /// (played or refused), and the legal moves it lists are accepted.
    #[test]
    fn game_specs_and_moves(spec in spec(), moves in proptest::collection::vec(words(), 0..6), picks in proptest::collection::vec(any::<u16>(), 0..30)) {
        for family in families() {
            if family.info(&spec.preset).is_none() {
                continue;
            }
            let Ok(mut game) = family.new_game(&spec) else {
                continue;
            };
            for m in &moves {
                let _ = game.play(m);
            }
            for p in &picks {
                let legal = game.legal();
                if legal.is_empty() {
                    break;
                }
                let m = &legal[*p as usize % legal.len()];
                prop_assert!(game.play(m).is_ok(), "legal move {} refused", m);
                let _ = game.draw();
            }
        }
    }

    /// Positions and move lists of the packed presets, any text.
    #[test]
    fn positions_and_move_lists(p in 0usize..Preset::ALL.len(), pits in 1u32..9, text in words()) {
        let preset = Preset::ALL[p];
        let opts = mancala_rules::Options { pits: Some(pits), ..Default::default() };
        if let Ok(v) = Variant::new(preset, opts) {
            let rules = Rules::new(v);
            if let Ok(b) = parse_position(&rules, &text) {
                prop_assert!(b.total() <= rules.max_seeds() as u32);
                let _ = rules.node(b);
            }
            let _ = parse_moves(rules.move_limit(), &text);
        }
        let _ = Variant::from_key(&text);
    }

    /// A table header read from any bytes: an error or a header, never a panic.
    #[test]
    fn table_headers(bytes in proptest::collection::vec(any::<u8>(), 0..200), keep in 0usize..128) {
        let _ = Header::parse(&bytes, Path::new("fuzz"));
        // A real header with some bytes changed.
        let (good, _) = tables();
        let mut h = std::fs::read(good).unwrap()[..HEADER_LEN].to_vec();
        for (i, b) in bytes.iter().enumerate().take(keep.min(h.len())) {
            h[(i * 37 + keep) % HEADER_LEN] ^= b;
        }
        let _ = Header::parse(&h, Path::new("fuzz"));
    }

    /// Compressed tiers whose payload is any bytes, under a header whose checksum matches:
    /// opening and probing every position answers or errs, never panics.
    #[test]
    fn compressed_blocks(noise in proptest::collection::vec(any::<u8>(), 1..4000), at in any::<usize>(), mode in 0u8..3) {
        let (file, dir) = tables();
        let mut bytes = std::fs::read(file).unwrap();
        let payload = bytes.len() - HEADER_LEN;
        match mode {
            // Bytes changed inside the blocks or the offset table.
            0 => for (i, b) in noise.iter().enumerate() {
                let k = HEADER_LEN + (at.wrapping_add(i * 131)) % payload;
                bytes[k] ^= b;
            },
            // Cut short.
            1 => bytes.truncate(HEADER_LEN + at % payload),
            // Replaced whole.
            _ => {
                bytes.truncate(HEADER_LEN);
                bytes.extend_from_slice(&noise);
            }
        }
        let len = (bytes.len() - HEADER_LEN) as u64;
        bytes[32..40].copy_from_slice(&len.to_le_bytes());
        let sum = xxhash_rust::xxh3::xxh3_64(&bytes[HEADER_LEN..]);
        bytes[40..48].copy_from_slice(&sum.to_le_bytes());
        let head = xxhash_rust::xxh3::xxh3_64(&bytes[..120]);
        bytes[120..128].copy_from_slice(&head.to_le_bytes());
        let mine = dir.join("case");
        let key = "awari-6x4";
        let copy = tier_path(&mine, key, 8);
        std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
        for n in 0..8 {
            let _ = std::fs::copy(tier_path(dir, key, n), tier_path(&mine, key, n));
        }
        std::fs::write(&copy, &bytes).unwrap();
        let rules = Rules::new(Variant::preset(Preset::Awari));
        let ix = mancala_index::Indexer::new(&rules, 8).unwrap();
        let _ = Table::open(&copy, key, 8, &ix, true);
        if let Ok(tables) = Tables::open(&mine, &rules, 8, true) {
            for b in ix.walk(8).step_by(97) {
                let _ = tables.probe(b);
            }
            let mut t = tables;
            let _ = t.decode_up_to(8);
        }
    }
}

/// Awari tables up to 8 seeds with tier 8 compressed, built once: (tier 8's file, folder).
fn tables() -> (&'static Path, &'static Path) {
    static DIR: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    let (f, d) = DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("mancala-fuzz-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let rules = Rules::new(Variant::preset(Preset::Awari));
        let opts = BuildOptions {
            dir: dir.clone(),
            max_seeds: 8,
            compress: true,
            memory: None,
            checkpoint_every: None,
            repair: false,
        };
        build(&rules, &opts, &()).unwrap();
        (tier_path(&dir, &rules.variant().key(), 8), dir)
    });
    (f, d)
}
