//! The tier index against closed formulas, the published counts, and itself on whole tiers.

use mancala_index::{Indexer, Order, Spec};
use mancala_rules::{Board, Node, Options, Preset, Rules, Variant};

fn binom(n: i64, k: i64) -> u128 {
    if k < 0 || n < k || n < 0 {
        return 0;
    }
    let mut r = 1u128;
    for i in 0..k as u128 {
        r = r * (n as u128 - i) / (i + 1);
    }
    r
}

/// A later nam-nam round: the players own different pits, so positions carry the side to move.
fn nam_nam_round(pits: u32, seeds: u32, owners: &str) -> Rules {
    Rules::new(
        Variant::new(
            Preset::NamNam,
            Options {
                pits: Some(pits),
                seeds: Some(seeds),
                owners: Some(Variant::parse_owners(pits, owners).unwrap()),
                ..Options::default()
            },
        )
        .unwrap(),
    )
}

fn rules(preset: Preset, pits: u32, seeds: u32) -> Rules {
    Rules::new(
        Variant::new(
            preset,
            Options {
                pits: Some(pits),
                seeds: Some(seeds),
                ..Options::default()
            },
        )
        .unwrap(),
    )
}

#[test]
fn awari_tier_sizes_match_the_published_formula_and_total() {
    let r = rules(Preset::Awari, 6, 4);
    let sizes = Spec::for_rules(&r).tier_sizes(48);
    for (n, &s) in sizes.iter().enumerate() {
        let n = n as i64;
        let expect = if n == 47 {
            0 // never reached: a capture takes at least 2 seeds
        } else {
            binom(n + 11, 11) - binom(n + 5, 11) + (n == 48) as u128
        };
        assert_eq!(s, expect, "tier {n}");
    }
    assert_eq!(sizes.iter().sum::<u128>(), 889_063_398_406);
}

#[test]
fn kalah_tier_sizes_match_the_published_formula_and_total() {
    let r = rules(Preset::Kalah, 6, 6);
    let sizes = Spec::for_rules(&r).tier_sizes(72);
    assert_eq!(sizes[0], 0);
    for n in 1..=72i64 {
        let expect = binom(n + 11, 11) - 2 * binom(n + 5, 5);
        assert_eq!(sizes[n as usize], expect, "tier {n}");
    }
    assert_eq!(sizes[1..=34].iter().sum::<u128>(), 38_902_940_896);
}

/// Every rank of every small tier: unrank, rank back, walk in the same order, and every
/// position is well formed (right total, row rules).
fn check_whole_tiers(r: &Rules, max: usize) {
    let ix = Indexer::new(r, max).unwrap();
    let spec = *ix.spec();
    for n in 0..=max {
        let mut walk = ix.walk(n);
        let mut prev: Option<Board> = None;
        for k in 0..ix.size(n) {
            let b = ix.unrank(n, k);
            assert_eq!(b.total() as usize, n);
            assert_eq!(ix.rank(b), Some(k), "{b:?}");
            assert_eq!(walk.next(), Some(b), "walk differs at rank {k} of tier {n}");
            assert!(spec.rows_ok(b) || Some(b) == spec.extra);
            // A sided tier: South to move in the first half, North in the second, the same
            // pits in the same order.
            assert_eq!(b.north(), k >= ix.half(n));
            if b.north() {
                assert_eq!(b.pits_only(), ix.unrank(n, k - ix.half(n)));
                if k == ix.half(n) {
                    prev = None;
                }
            }
            if let (Some(p), true) = (prev, spec.rows_ok(b)) {
                // Mover first: by the seeds on the mover's row, then each row
                // lexicographically with pit 0 most significant, the mover's row first.
                // Published: lexicographically over every pit, the last pit most significant.
                let key = |b: Board| {
                    let mut pits = b.pits(2 * r.pits());
                    let own: u32 = pits[..r.pits()].iter().map(|&x| x as u32).sum();
                    match ix.order() {
                        Order::MoverFirst => (own, pits),
                        Order::Published => {
                            pits.reverse();
                            (0, pits)
                        }
                    }
                };
                assert!(key(p) < key(b), "{:?} !< {:?}", key(p), key(b));
            }
            prev = Some(b);
        }
        assert_eq!(walk.next(), None);
    }
}

#[test]
fn whole_tiers_round_trip_awari() {
    check_whole_tiers(&rules(Preset::Awari, 6, 4), 12);
    check_whole_tiers(&rules(Preset::Awari, 3, 2), 12);
    check_whole_tiers(&rules(Preset::Awari, 1, 3), 6);
    check_whole_tiers(&rules(Preset::Awari, 8, 1), 5);
}

#[test]
fn whole_tiers_round_trip_kalah() {
    check_whole_tiers(&rules(Preset::Kalah, 6, 4), 8);
    check_whole_tiers(&rules(Preset::Kalah, 2, 3), 12);
    check_whole_tiers(&rules(Preset::Kalah, 1, 5), 10);
}

#[test]
fn whole_tiers_round_trip_sided() {
    let r = nam_nam_round(3, 2, "sssnsn");
    assert!(Spec::for_rules(&r).sided);
    let plain = Spec::for_rules(&rules(Preset::NamNam, 3, 2)).tier_sizes(12);
    let sided = Spec::for_rules(&r).tier_sizes(12);
    for n in 0..=12 {
        assert_eq!(sided[n], 2 * plain[n], "tier {n}");
    }
    check_whole_tiers(&r, 12);
    check_whole_tiers(&nam_nam_round(6, 4, "ssssssnnsnnn"), 6);
}

#[test]
fn walk_from_the_middle() {
    let r = rules(Preset::Awari, 6, 4);
    let ix = Indexer::new(&r, 10).unwrap();
    let n = 10;
    let start = ix.size(n) / 3;
    let got: Vec<Board> = ix.walk_from(n, start).take(1000).collect();
    let want: Vec<Board> = (start..start + 1000).map(|k| ix.unrank(n, k)).collect();
    assert_eq!(got, want);
}

/// Seeking forward by every kind of gap (a step, a jump within the mover's row, a jump to
/// another row, onto the extra position) lands where unranking does, and the walk goes on.
#[test]
fn seek_lands_on_the_rank() {
    for (preset, pits, seeds, n) in [
        (Preset::Awari, 6, 4, 10),
        (Preset::Kalah, 3, 3, 12),
        (Preset::Awari, 2, 2, 8),
        (Preset::NamNam, 3, 2, 9),
    ] {
        let r = match preset {
            Preset::NamNam => nam_nam_round(pits, seeds, "snssnn"),
            _ => rules(preset, pits, seeds),
        };
        let ix = Indexer::new(&r, n).unwrap();
        let size = ix.size(n);
        for stride in [1u64, 5, 13, 40, 997, size / 3 + 1] {
            let mut walk = ix.walk(n);
            let mut rank = 0;
            while rank < size {
                assert_eq!(
                    walk.seek(rank),
                    Some(ix.unrank(n, rank)),
                    "rank {rank} stride {stride}"
                );
                assert_eq!(walk.seek(rank), Some(ix.unrank(n, rank)), "again at {rank}");
                if rank + 1 < size {
                    assert_eq!(walk.next(), Some(ix.unrank(n, rank + 1)));
                    rank += 1;
                }
                rank += stride;
            }
            assert_eq!(walk.seek(0), None, "backwards");
        }
    }
}

#[test]
fn the_start_position_has_the_last_rank_of_its_tier() {
    for (pits, seeds) in [(6, 4), (3, 2), (2, 1)] {
        let r = rules(Preset::Awari, pits, seeds);
        let n = r.max_seeds();
        let ix = Indexer::new(&r, n.min(24)).unwrap();
        if n <= 24 {
            assert_eq!(ix.rank(r.start()), Some(ix.size(n) - 1));
            assert_eq!(ix.unrank(n, ix.size(n) - 1), r.start());
        }
    }
    // Kalah's start has seeds on both rows: an ordinary member.
    let r = rules(Preset::Kalah, 2, 2);
    let ix = Indexer::new(&r, 8).unwrap();
    assert!(ix.contains(r.start()));
}

/// Every child of an indexed position that stays a position is indexed too, for every
/// preset, on whole small tiers.
#[test]
fn children_of_indexed_positions_are_indexed() {
    let variants = [
        rules(Preset::Awari, 6, 4),
        rules(Preset::Oware, 6, 4),
        rules(Preset::Wari, 6, 4),
        rules(Preset::Kalah, 6, 4),
        rules(Preset::Awari, 3, 3),
        rules(Preset::Kalah, 3, 3),
        nam_nam_round(3, 3, "ssssnn"),
        nam_nam_round(6, 4, "nnsnnnnnnnnn"),
    ];
    for r in &variants {
        let max = 9.min(r.max_seeds());
        let ix = Indexer::new(r, max).unwrap();
        for n in 0..=max {
            for b in ix.walk(n) {
                if let Node::Moves(kids) = r.node(b) {
                    for c in &kids {
                        if c.next == mancala_rules::Next::Over {
                            continue;
                        }
                        // After an extra move the child keeps the mover's layout: check the
                        // position the mover faces, which is what gets ranked.
                        assert!(
                            ix.contains(c.board)
                                || matches!(r.node(c.board), Node::Terminal { .. }),
                            "{}: child {:?} of {:?} (pit {}) is not indexed",
                            r.variant().key(),
                            c.board,
                            b,
                            c.pit
                        );
                    }
                }
            }
        }
    }
}

/// Walking a sided tier from a rank in its North half starts there.
#[test]
fn walk_from_the_north_half() {
    let r = nam_nam_round(3, 2, "sssnsn");
    let ix = Indexer::new(&r, 8).unwrap();
    let n = 8;
    for start in [0, ix.half(n) - 1, ix.half(n), ix.half(n) + 7] {
        let got: Vec<Board> = ix.walk_from(n, start).collect();
        let want: Vec<Board> = (start..ix.size(n)).map(|k| ix.unrank(n, k)).collect();
        assert_eq!(got, want, "from {start}");
    }
}

/// The published Awari database's test vectors: a board's byte offset in its `scores.N` file.
#[test]
fn published_order_test_vectors() {
    let r = rules(Preset::Awari, 6, 4);
    let ix = Indexer::new(&r, 48).unwrap();
    assert_eq!(ix.order(), Order::Published);
    for (pits, rank) in [
        ("0 1 2 0 0 0 0 1 2 0 0 0", 2726u64),
        ("6 0 0 0 0 0 0 0 0 0 0 0", 0),
        ("0 0 0 0 0 0 0 0 0 0 0 6", 12374),
        ("1 1 1 1 1 2 4 2 3 0 0 0", 588953),
        ("4 4 4 4 4 4 0 5 5 5 5 4", 132755017782),
        ("5 5 5 5 4 4 4 4 4 4 4 0", 30844431882),
    ] {
        let b = mancala_rules::parse_position(&r, pits).unwrap();
        assert_eq!(ix.rank(b), Some(rank), "{pits}");
        assert_eq!(ix.unrank(b.total() as usize, rank), b, "{pits}");
    }
    // Tier 48: the published count, and the start position one past it.
    assert_eq!(ix.size(48), 203_648_015_936);
    assert_eq!(ix.rank(r.start()), Some(203_648_015_935));
    assert_eq!(ix.unrank(48, 203_648_015_935), r.start());
    assert_eq!(ix.size(47), 0);
}

/// The published order is the lexicographic order of the boards read from the last pit, among
/// those whose opponent's row has an empty pit: every board of small tiers, sorted, gets its
/// place as its rank.
#[test]
fn published_order_is_the_sorted_boards() {
    for (pits, seeds, max) in [(6usize, 4, 6usize), (3, 2, 9), (2, 3, 8), (1, 3, 4)] {
        let r = rules(Preset::Awari, pits as u32, seeds);
        let ix = Indexer::new(&r, max).unwrap();
        for n in 0..=max.min(r.max_seeds() - 2) {
            let mut boards: Vec<Vec<u8>> = Vec::new();
            let mut pits_now = vec![0u8; 2 * pits];
            every_board(&mut pits_now, 0, n as u8, &mut |b| {
                if b[pits..].contains(&0) {
                    let mut key = b.to_vec();
                    key.reverse();
                    boards.push(key);
                }
            });
            boards.sort();
            for (k, key) in boards.iter().enumerate() {
                let mut b = key.clone();
                b.reverse();
                assert_eq!(ix.rank(Board::from_pits(&b)), Some(k as u64), "{b:?}");
            }
            assert_eq!(boards.len() as u64, ix.size(n), "tier {n}");
        }
    }
}

fn every_board(pits: &mut [u8], i: usize, left: u8, f: &mut impl FnMut(&[u8])) {
    if i + 1 == pits.len() {
        pits[i] = left;
        f(pits);
        return;
    }
    for x in 0..=left {
        pits[i] = x;
        every_board(pits, i + 1, left - x, f);
    }
}

/// The published order's blocks, each a run of the mover's rows in `mover_rows` order,
/// are the whole tier in rank order (the scan that builds Awari tiers by block relies on it).
#[test]
fn blocks_and_mover_rows_are_the_walk() {
    for (pits, seeds) in [(6u32, 4u32), (3, 4)] {
        let r = rules(Preset::Awari, pits, seeds);
        let ix = Indexer::new(&r, 12).unwrap();
        let m = r.pits();
        for n in 0..=12 {
            let mut walk = ix.walk(n);
            let mut rank = 0u64;
            for (opp, start) in ix.blocks(n) {
                assert_eq!(start, rank, "tier {n}");
                let a = n - mancala_rules::byte_sum(opp) as usize;
                for (k, own) in ix.mover_rows(a).enumerate() {
                    let b = Board(own as u128 | (opp as u128) << (8 * m));
                    assert_eq!(walk.next(), Some(b), "tier {n} rank {rank}");
                    assert_eq!(ix.mover_rank(own, a), Some(k as u64));
                    rank += 1;
                }
            }
            let extra = ix.extra(n).is_some() as u64;
            assert_eq!(rank + extra, ix.size(n), "tier {n}");
        }
    }
}
