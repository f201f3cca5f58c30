//! Hand-derived smoke checks of the reference rules in `tests/reference/mod.rs`.

mod reference;

use reference::*;

fn moves(node: RefNode) -> Vec<RefChild> {
    match node {
        RefNode::Moves(v) => v,
        RefNode::Terminal { mover, opp } => panic!("unexpected terminal {mover}/{opp}"),
    }
}

fn pits_of(node: &RefNode) -> Vec<usize> {
    match node {
        RefNode::Moves(v) => v.iter().map(|c| c.pit).collect(),
        RefNode::Terminal { .. } => Vec::new(),
    }
}

#[test]
fn awari_start_perft() {
    let start = ref_start(6, 4);
    assert_eq!(ref_perft(ref_awari(), &start, 0), 1);
    assert_eq!(ref_perft(ref_awari(), &start, 1), 6);
    assert_eq!(ref_perft(ref_awari(), &start, 2), 36);
    assert_eq!(ref_perft(ref_oware(), &start, 2), 36);
}

#[test]
fn awari_origin_skip() {
    // 11 seeds from pit 0 end on pit 11 (one seed in every other pit).
    let mut p = vec![0u8; 12];
    p[0] = 11;
    p[6] = 5;
    let c = &moves(ref_node(ref_awari(), &p))[0];
    // pit 11 now holds 1: no capture; rotated board: opponent first.
    assert_eq!(c.mover_gain, 0);
    assert_eq!(c.next, vec![6, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1]);
    // 12 seeds from pit 0 end on pit 1, the origin stays empty.
    p[0] = 12;
    let c = &moves(ref_node(ref_awari(), &p))[0];
    assert_eq!(c.next, vec![6, 1, 1, 1, 1, 1, 0, 2, 1, 1, 1, 1]);
}

#[test]
fn awari_contiguous_vs_wari_all_pits() {
    // own [0,0,0,0,0,4], opp [1,2,1,2,0,5]: sowing 4 from pit 5 -> pits 6..9
    // become 2,3,2,3; last is pit 9.
    let p = ref_parse("0 0 0 0 0 4 1 2 1 2 0 5");
    let c = &moves(ref_node(ref_oware(), &p))[0];
    assert_eq!(c.mover_gain, 10);
    // Contiguous vs all-pits differ when a gap breaks the chain:
    // own [0,0,0,0,0,4], opp [1,2,0,2,0,5] -> 2,3,1,3: contiguous takes only pit 9.
    let p = ref_parse("0 0 0 0 0 4 1 2 0 2 0 5");
    let c = &moves(ref_node(ref_oware(), &p))[0];
    assert_eq!(c.mover_gain, 3);
    let c = &moves(ref_node(ref_wari(RefGrandSlam::NoCapture), &p))[0];
    assert_eq!(c.mover_gain, 8);
}

#[test]
fn grand_slam_options() {
    // own [0,0,0,0,1,2], opp [1,1,0,0,0,0]. Pit 5 sows 6,7 -> 2,2: grand slam of 4.
    let p = ref_parse("0 0 0 0 1 2 1 1 0 0 0 0");
    assert_eq!(pits_of(&ref_node(ref_awari(), &p)), vec![4]);
    let o = moves(ref_node(ref_oware(), &p));
    assert_eq!(o.len(), 2);
    assert_eq!(o[1].mover_gain, 0);
    assert_eq!(
        pits_of(&ref_node(ref_wari(RefGrandSlam::Forbidden), &p)),
        vec![4]
    );
    let c = moves(ref_node(ref_wari(RefGrandSlam::TakeAll), &p))[1].clone();
    assert_eq!((c.mover_gain, c.opp_gain, c.kind), (5, 0, RefNext::Over));
    let c = moves(ref_node(ref_wari(RefGrandSlam::VictimTakesRest), &p))[1].clone();
    assert_eq!((c.mover_gain, c.opp_gain, c.kind), (4, 1, RefNext::Over));
    let c = moves(ref_node(ref_wari(RefGrandSlam::SpareLast), &p))[1].clone();
    assert_eq!((c.mover_gain, c.kind), (4, RefNext::Opponent));
    let c = moves(ref_node(ref_wari(RefGrandSlam::SpareFirst), &p))[1].clone();
    assert_eq!((c.mover_gain, c.kind), (2, RefNext::Opponent));
    let c = moves(ref_node(ref_wari(RefGrandSlam::ExtraMove), &p))[1].clone();
    assert_eq!((c.mover_gain, c.kind.clone()), (4, RefNext::Mover));
    assert_eq!(c.next, ref_parse("0 0 0 0 1 0 0 0 0 0 0 0"));
    // Then the slammer must feed but cannot: he takes the last seed.
    assert_eq!(ref_perft(ref_wari(RefGrandSlam::ExtraMove), &c.next, 1), 0);
    match ref_node(ref_wari(RefGrandSlam::ExtraMove), &c.next) {
        RefNode::Terminal { mover, opp } => assert_eq!((mover, opp), (1, 0)),
        _ => panic!("expected terminal"),
    }
}

#[test]
fn feeding_and_starving() {
    let p = ref_parse("1 0 0 0 0 0 0 0 0 0 0 0");
    match ref_node(ref_oware(), &p) {
        RefNode::Terminal { mover, opp } => assert_eq!((mover, opp), (1, 0)),
        _ => panic!("oware: cannot feed -> terminal"),
    }
    // awari: the only move starves the opponent, so it is legal.
    let c = moves(ref_node(ref_awari(), &p))[0].clone();
    assert_eq!(c.next, ref_parse("0 0 0 0 0 0 0 1 0 0 0 0"));
    match ref_node(ref_awari(), &c.next) {
        RefNode::Terminal { mover, opp } => assert_eq!((mover, opp), (0, 1)),
        _ => panic!("awari: no seeds -> terminal"),
    }
    // Feeding move available: only it is legal.
    let p = ref_parse("1 0 0 0 0 1 0 0 0 0 0 0");
    assert_eq!(pits_of(&ref_node(ref_oware(), &p)), vec![5]);
    assert_eq!(pits_of(&ref_node(ref_awari(), &p)), vec![5]);
}

#[test]
fn kalah_basics() {
    let start = ref_start(6, 4);
    let k = ref_kalah(false);
    let c = moves(ref_node(k, &start))[2].clone();
    assert_eq!((c.mover_gain, c.kind.clone()), (1, RefNext::Mover));
    assert_eq!(c.next, ref_parse("4 4 0 5 5 5 4 4 4 4 4 4"));
    assert_eq!(ref_perft(k, &start, 1), 6);
    assert_eq!(ref_perft(k, &start, 2), 35);

    // Capture that empties the mover's side ends the game.
    let p = ref_parse("1 0 0 0 0 0 1 1 1 1 5 1");
    let c = moves(ref_node(k, &p))[0].clone();
    assert_eq!((c.mover_gain, c.opp_gain, c.kind), (6, 5, RefNext::Over));

    // Empty opposite pit: the seed stays, or is stored with empty_capture.
    let p = ref_parse("1 0 0 0 0 0 1 1 1 1 0 1");
    let c = moves(ref_node(k, &p))[0].clone();
    assert_eq!(c.kind, RefNext::Opponent);
    assert_eq!(c.next, ref_parse("1 1 1 1 0 1 0 1 0 0 0 0"));
    let c = moves(ref_node(ref_kalah(true), &p))[0].clone();
    assert_eq!((c.mover_gain, c.opp_gain, c.kind), (1, 5, RefNext::Over));

    // 13 seeds: no origin skip, the last seed lands in the emptied origin and captures.
    let p = ref_parse("13 0 0 0 0 0 1 1 1 1 1 1");
    let c = moves(ref_node(k, &p))[0].clone();
    assert_eq!(c.mover_gain, 4);
    assert_eq!(c.next, ref_parse("2 2 2 2 2 0 0 1 1 1 1 1"));
}

#[test]
fn conservation_on_small_trees() {
    let rules = [
        ref_awari(),
        ref_oware(),
        ref_wari(RefGrandSlam::Forbidden),
        ref_wari(RefGrandSlam::TakeAll),
        ref_wari(RefGrandSlam::VictimTakesRest),
        ref_wari(RefGrandSlam::SpareLast),
        ref_wari(RefGrandSlam::SpareFirst),
        ref_wari(RefGrandSlam::ExtraMove),
        ref_kalah(false),
        ref_kalah(true),
    ];
    for r in rules {
        let mut frontier = vec![ref_start(3, 3)];
        for _ in 0..6 {
            let mut next = Vec::new();
            for p in &frontier {
                ref_check_conservation(r, p).unwrap();
                if let RefNode::Moves(children) = ref_node(r, p) {
                    for c in children {
                        next.push(c.next);
                    }
                }
            }
            frontier = next;
        }
    }
}
