//! Property tests on tiers too big to walk whole: random ranks of the largest Awari and Kalah
//! tiers round-trip, and random positions' children and predecessors stay consistent with
//! the index.

use mancala_index::Indexer;
use mancala_rules::{Next, Node, Preset, Rules, Variant};
use proptest::prelude::*;
use std::sync::OnceLock;

fn awari() -> &'static (Rules, Indexer) {
    static CELL: OnceLock<(Rules, Indexer)> = OnceLock::new();
    CELL.get_or_init(|| {
        let r = Rules::new(Variant::preset(Preset::Awari));
        let ix = Indexer::new(&r, 48).unwrap();
        (r, ix)
    })
}

fn kalah() -> &'static (Rules, Indexer) {
    static CELL: OnceLock<(Rules, Indexer)> = OnceLock::new();
    CELL.get_or_init(|| {
        let r = Rules::new(Variant::preset(Preset::Kalah));
        let ix = Indexer::new(&r, 72).unwrap();
        (r, ix)
    })
}

fn check(rules: &Rules, ix: &Indexer, n: usize, pick: u64) -> Result<(), TestCaseError> {
    let size = ix.size(n);
    if size == 0 {
        return Ok(());
    }
    let rank = pick % size;
    let b = ix.unrank(n, rank);
    prop_assert_eq!(b.total() as usize, n);
    prop_assert_eq!(ix.rank(b), Some(rank));
    // The next few positions of the walk are the next ranks.
    for (k, w) in ix.walk_from(n, rank).take(3).enumerate() {
        prop_assert_eq!(ix.rank(w), Some(rank + k as u64));
    }
    if let Node::Moves(kids) = rules.node(b) {
        for c in &kids {
            if c.next == Next::Over {
                continue;
            }
            prop_assert!(ix.contains(c.board), "child {:?} of {:?}", c.board, b);
        }
    }
    let mut preds = Vec::new();
    rules.predecessors(b, &mut preds);
    for q in preds {
        let Node::Moves(kids) = rules.node(q) else {
            return Err(TestCaseError::fail("a predecessor has no moves"));
        };
        prop_assert!(kids
            .iter()
            .any(|c| c.board == b && c.gain == 0 && c.next == Next::Opponent));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn awari_random_positions(n in 0usize..=48, pick in any::<u64>()) {
        let (r, ix) = awari();
        check(r, ix, n, pick)?;
    }

    #[test]
    fn kalah_random_positions(n in 1usize..=72, pick in any::<u64>()) {
        let (r, ix) = kalah();
        check(r, ix, n, pick)?;
    }
}
