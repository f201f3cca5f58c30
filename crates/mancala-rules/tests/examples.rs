//! The worked examples of the source texts for awari, oware, wari, kalah and mancala, and the
//! rule statements of docs/rules.md, awari, oware, wari, kalah and mancala, and Playing a game
//! move by move, played on concrete boards through the public API.
//!
//! What this file proves: for each preset the engine ships (`awari`, `oware`, `wari` with every
//! grand-slam treatment, `kalah`, `mancala`) the sowing, capture, feeding/starving, extra-move and
//! end-of-game rules give exactly the gains, next player and child board the texts describe, and
//! the play-mode layer ([`Game`]) keeps stores, absolute sides, repetitions and end sweeps right.
//!
//! The diagrams of the source documents did not survive, so each example is rebuilt as a board
//! consistent with the text; the comment above each one quotes the text and says which pit counts
//! were chosen freely.
//!
//! Conventions (docs/rules.md, Conventions): boards are mover-relative, pits `0..m` are the
//! side to move's in its sowing order and `m..2m` the opponent's. The Polish blog post
//! "Mankala (Wari) – klejnot Afryki" numbers the Wari pits 1..12 with S owning 1..6 and N
//! 7..12, so with S to move pit `k` is index `k - 1`.

mod common;

use mancala_rules::{
    Board, Child, EndReason, Game, GrandSlam, Next, Node, Options, Preset, Rules, RulesError, Side,
    Variant, STORE,
};
use std::collections::{HashMap, VecDeque};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn rules_with(preset: Preset, opts: Options) -> Rules {
    Rules::new(Variant::new(preset, opts).unwrap())
}

fn preset(preset: Preset) -> Rules {
    Rules::new(Variant::preset(preset))
}

fn sized(preset: Preset, pits: u32, seeds: u32) -> Rules {
    rules_with(
        preset,
        Options {
            pits: Some(pits),
            seeds: Some(seeds),
            ..Options::default()
        },
    )
}

fn wari(gs: GrandSlam) -> Rules {
    rules_with(
        Preset::Wari,
        Options {
            grand_slam: Some(gs),
            ..Options::default()
        },
    )
}

fn kalah_empty_capture() -> Rules {
    rules_with(
        Preset::Kalah,
        Options {
            empty_capture: true,
            ..Options::default()
        },
    )
}

fn b(pits: &[u8]) -> Board {
    Board::from_pits(pits)
}

/// The legal moves of `board`; panics on a terminal position.
fn moves(r: &Rules, board: &[u8]) -> Vec<Child> {
    match r.node(b(board)) {
        Node::Moves(k) => k.iter().copied().collect(),
        Node::Terminal { mover, opp } => {
            panic!("{board:?} is terminal ({mover}/{opp}), expected moves")
        }
    }
}

fn legal_pits(r: &Rules, board: &[u8]) -> Vec<u8> {
    moves(r, board).iter().map(|c| c.pit).collect()
}

/// The result of playing `pit`; panics if it is not legal.
fn play(r: &Rules, board: &[u8], pit: u8) -> Child {
    moves(r, board)
        .into_iter()
        .find(|c| c.pit == pit)
        .unwrap_or_else(|| panic!("pit {pit} is not legal in {board:?}"))
}

/// `(mover, opp)` of a terminal position; panics if the position has moves.
fn terminal(r: &Rules, board: &[u8]) -> (u8, u8) {
    match r.node(b(board)) {
        Node::Terminal { mover, opp } => (mover, opp),
        Node::Moves(k) => panic!("{board:?} has moves {:?}, expected terminal", k.mask()),
    }
}

fn child(pit: u8, board: &[u8], gain: u8, opp_gain: u8, next: Next) -> Child {
    Child {
        pit,
        board: b(board),
        gain,
        opp_gain,
        next,
    }
}

// ---------------------------------------------------------------------------------------------
// Wari (the Polish blog post) and Abapa (the Wikipedia Oware article) capture examples
// ---------------------------------------------------------------------------------------------

/// docs/rules.md, wari: the capture example of the Polish blog post "Mankala (Wari) – klejnot
/// Afryki", which takes pits that are not contiguous: «Gracz N ma już zbite 5 pionów, gracz S ma
/// dwa. Kolejny ruch wykonuje S. Podejmuje piony z pola 4, w którym ma 8 pionów. Rozsiewa kolejne
/// piony na pola 5, 6, 7, 8, 9, 10, 11 i 12. ... Ostatni pion padł na pole 12, gdzie są 3 piony.
/// ... na polu 10 mamy dwa piony ... i na polu 8 są trzy piony ... Tym jednym ruchem gracz S
/// zdobywa 8 pionów». 3 + 2 + 3 = 8, so pits 9 and 11 (and 7) were not 2 or 3.
///
/// Board (the diagram is missing; chosen to fit the text): 48 - 5 - 2 = 41 seeds on the board, pit
/// 4 holds 8, before the move pit 12 holds 2, pit 10 holds 1, pit 8 holds 2, pit 9 holds 0 (ends
/// with 1), pit 11 holds 5 (ends with 6), pit 7 holds 4 (ends with 5). S's other pits are free
/// choices.
#[test]
fn wari_w1_non_contiguous_capture_of_8() {
    //           S: 1  2  3  4  5  6   N: 7  8  9 10 11 12
    let board = [5, 3, 4, 8, 3, 4, 4, 2, 0, 1, 5, 2];
    assert_eq!(board.iter().map(|&x| x as u32).sum::<u32>(), 41);
    let c = play(&preset(Preset::Wari), &board, 3);
    // After sowing N holds 7:5 8:3 9:1 10:2 11:6 12:3; wari takes 12, 10 and 8 = 8 seeds.
    // The child is in N's layout: N's pits first.
    assert_eq!(
        c,
        child(
            3,
            &[5, 0, 1, 0, 6, 0, 5, 3, 4, 0, 4, 5],
            8,
            0,
            Next::Opponent
        )
    );
    // «5:10 dla S»: S had 2 and now has 10.
    assert_eq!(2 + c.gain, 10);
    // Every grand-slam option agrees: this is no grand slam (N keeps 12 seeds).
    for (_, _, gs) in GrandSlam::CHOICES {
        if gs != GrandSlam::Capture {
            assert_eq!(play(&wari(gs), &board, 3), c, "{gs:?}");
        }
    }
    // awari and oware capture only the contiguous run ending in pit 12: pit 11 (6) breaks it.
    for p in [Preset::Awari, Preset::Oware] {
        assert_eq!(
            play(&preset(p), &board, 3),
            child(
                3,
                &[5, 3, 1, 2, 6, 0, 5, 3, 4, 0, 4, 5],
                3,
                0,
                Next::Opponent
            ),
            "{p}"
        );
    }
}

/// The first capture example of the Polish blog post "Mankala (Wari) – klejnot Afryki"
/// (docs/rules.md, wari): «gracz N ma 7 pionów na polu 9 i z tego pola zaczyna
/// ruch. Piony są rozsiewane na kolejne pola – 10, 11, 12, 1, 2, 3, 4 ... Ostatni pion pada na
/// pole 4. W tym polu są teraz 2 piony, więc gracz S zdobywa te dwa piony.» The capturer is N
/// (the text's "S" is a typo). N to move: N's pits 7..12 are indices 0..5 and S's pits 1..6
/// are 6..11, so pit 9 is index 2 and pit 4 is index 9.
///
/// Board (diagram missing): the start position except that N's pit 9 holds 7 and S's pit 4
/// holds 1 (48 seeds). After the sowing S's pits 1..3 hold 5, so nothing else is taken in any
/// preset.
#[test]
fn wari_first_capture_example_north_takes_2() {
    //           N: 7  8  9 10 11 12   S: 1  2  3  4  5  6
    let board = [4, 4, 7, 4, 4, 4, 4, 4, 4, 1, 4, 4];
    let expected = child(
        2,
        &[5, 5, 5, 0, 4, 4, 4, 4, 0, 5, 5, 5],
        2,
        0,
        Next::Opponent,
    );
    for p in [Preset::Wari, Preset::Awari, Preset::Oware] {
        assert_eq!(play(&preset(p), &board, 2), expected, "{p}");
    }
    // The same move in a game with North to move: North banks the 2 seeds.
    let mut g = Game::from_position(preset(Preset::Wari), b(&board), Side::North);
    g.play(2).unwrap();
    assert_eq!(g.stores(), [0, 2]);
    assert_eq!(g.to_move(), Side::South);
    assert_eq!(g.absolute_pits(), vec![5, 5, 5, 0, 4, 4, 4, 4, 0, 5, 5, 5]);
}

/// The Russian translation of the Wikipedia article "Oware" (Abapa; docs/rules.md, oware):
/// «Нижний игрок готовится посеять с E. После посева e, d и c захватываются,
/// но не a.» and «нижний игрок захватил бы все семена в домах e, d и c, но не b (так как у него
/// четыре семени) или a (так как он не смежный с другими захваченными домами)».
///
/// Board (diagram missing): the lower player's houses A..F are indices 0..5, the opponent's
/// a..f in sowing order are 6..11. E (index 4) holds 6, sown into F, a, b, c, d, e; before the
/// move a = 1, b = 3, c = 2, d = 1, e = 2, f = 0, so after it a = 2, b = 4, c = 3, d = 2, e = 3.
/// The other counts are free choices.
#[test]
fn abapa_capture_e_d_c_not_b_not_a() {
    //           A  B  C  D  E  F   a  b  c  d  e  f
    let board = [4, 4, 4, 4, 6, 4, 1, 3, 2, 1, 2, 0];
    for p in [Preset::Oware, Preset::Awari] {
        // e, d, c: 3 + 2 + 3 = 8; b (4) stops the run, a (2) is left.
        assert_eq!(
            play(&preset(p), &board, 4),
            child(
                4,
                &[2, 4, 0, 0, 0, 0, 4, 4, 4, 4, 0, 5],
                8,
                0,
                Next::Opponent
            ),
            "{p}"
        );
    }
    // The blog post's wari takes a too (every opponent pit with 2 or 3): 10.
    assert_eq!(
        play(&preset(Preset::Wari), &board, 4),
        child(
            4,
            &[0, 4, 0, 0, 0, 0, 4, 4, 4, 4, 0, 5],
            10,
            0,
            Next::Opponent
        )
    );
}

/// The Polish blog post "Mankala (Wari) – klejnot Afryki": «Zakończenie ruchu na własnej połowie
/// nie spowoduje bicia, choćby w ostatnim polu ruchu były 2 lub 3 piony»: a last seed making 2 on
/// the own side captures nothing.
#[test]
fn no_capture_on_own_side() {
    let board = [1, 1, 0, 0, 0, 0, 4, 4, 4, 4, 4, 4];
    for p in [Preset::Awari, Preset::Oware, Preset::Wari] {
        let c = play(&preset(p), &board, 0);
        assert_eq!(
            c,
            child(
                0,
                &[4, 4, 4, 4, 4, 4, 0, 2, 0, 0, 0, 0],
                0,
                0,
                Next::Opponent
            ),
            "{p}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Laps
// ---------------------------------------------------------------------------------------------

/// docs/rules.md, awari: sow counter-clockwise from the next pit; the origin pit is skipped on laps
/// (12+ seeds), so a sowing of exactly 11 (or 22) seeds ends on the pit just before the origin. The
/// Polish blog post "Mankala (Wari) – klejnot Afryki": «Jeśli gracz ma w miseczce 12 lub więcej
/// pionów ... przeskakuje się pole wyjściowe».
#[test]
fn awari_laps_of_11_12_22_and_23_seeds() {
    let r = preset(Preset::Awari);
    let path: Vec<u8> = (1..12).collect();
    assert_eq!(r.path(0), &path[..], "one lap visits the 11 other pits");

    // 11 seeds: one in every other pit, the last in pit 11 (just before the origin), which
    // now holds 2 and is captured; pit 10 (1) stops the run.
    let c = play(&r, &[11, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1], 0);
    assert_eq!(
        c,
        child(
            0,
            &[5, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1],
            2,
            0,
            Next::Opponent
        )
    );

    // 12 seeds: the 12th skips the origin (which stays empty) and lands in pit 1, on the own
    // side: no capture even though pit 11 holds 2.
    let c = play(&r, &[12, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1], 0);
    assert_eq!(
        c,
        child(
            0,
            &[5, 1, 1, 1, 1, 2, 0, 2, 1, 1, 1, 1],
            0,
            0,
            Next::Opponent
        )
    );

    // 22 seeds: two full laps, two seeds in every other pit, the last again in pit 11, which
    // goes 1 -> 3; the run 11, 10, 9, 8, 7 (3 + 2 + 2 + 2 + 2) is taken, pit 6 (3 -> 5) stops it.
    let c = play(&r, &[22, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1], 0);
    assert_eq!(
        c,
        child(
            0,
            &[5, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2],
            11,
            0,
            Next::Opponent
        )
    );

    // 23 seeds: the origin is skipped a second time and the last seed lands in pit 1.
    let c = play(&r, &[23, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1], 0);
    assert_eq!(
        c,
        child(
            0,
            &[5, 2, 2, 2, 2, 3, 0, 3, 2, 2, 2, 2],
            0,
            0,
            Next::Opponent
        )
    );

    // The same from another origin: 11 seeds from pit 3 end on pit 2.
    let c = play(&r, &[0, 0, 0, 11, 0, 0, 0, 0, 0, 0, 0, 0], 3);
    assert_eq!(
        c,
        child(
            3,
            &[1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1],
            0,
            0,
            Next::Opponent
        )
    );
}

/// docs/rules.md, kalah and mancala: the sources do not say whether the origin is skipped on a
/// lap (which needs 13 seeds: 13 sowing positions); it is not. 13 seeds from pit 0 of a 6-pit
/// Kalah board visit pits 1..5, the store, the 6 opponent pits and then the origin itself, which
/// was emptied, so the last seed lands in an own empty pit: a capture (Skiryuk's survey
/// post: «Если последний камень попадает в пустую лунку в своём ряду, а противоположная
/// лунка противника не пуста»).
#[test]
fn kalah_13_seeds_pass_the_origin_and_capture_there() {
    let r = preset(Preset::Kalah);
    assert_eq!(
        r.path(0),
        &[1, 2, 3, 4, 5, STORE, 6, 7, 8, 9, 10, 11, 0][..]
    );
    // Opposite pit 0 is pit 11 (1 + 1 = 2): 1 stored + 2 + the capturing seed = 4.
    let c = play(&r, &[13, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1], 0);
    assert_eq!(
        c,
        child(
            0,
            &[2, 2, 2, 2, 2, 0, 0, 1, 1, 1, 1, 1],
            4,
            0,
            Next::Opponent
        )
    );
    // 14 seeds: the origin gets a seed on the way and the 14th lands in pit 1 (1 -> 2): no capture.
    let c = play(&r, &[14, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1], 0);
    assert_eq!(
        c,
        child(
            0,
            &[2, 2, 2, 2, 2, 2, 1, 2, 1, 1, 1, 1],
            1,
            0,
            Next::Opponent
        )
    );
}

// ---------------------------------------------------------------------------------------------
// Grand slams
// ---------------------------------------------------------------------------------------------

/// One position with a grand slam available, under every treatment of docs/rules.md, wari
/// (GS1 .. GS6), plus `awari` and `oware`.
///
/// Board: mover `[1, 0, 0, 0, 0, 6]`, opponent `[1, 2, 1, 2, 1, 2]` (16 seeds). Pit 5 sows one
/// seed into each opponent pit, giving `[2, 3, 2, 3, 2, 3]` with the last seed in pit 11: every
/// opponent pit holds 2 or 3 and the run reaches pit 6, a capture of all 15 of the opponent's
/// seeds («A grand slam is a move whose capture would take every seed on the opponent's side»).
/// Pit 0 is a quiet alternative that leaves the opponent his seeds.
#[test]
fn every_grand_slam_treatment() {
    let board = [1, 0, 0, 0, 0, 6, 1, 2, 1, 2, 1, 2];
    let quiet = child(
        0,
        &[1, 2, 1, 2, 1, 2, 0, 1, 0, 0, 0, 6],
        0,
        0,
        Next::Opponent,
    );

    // GS1 «Illegal»: only the quiet move is left.
    let r = wari(GrandSlam::Forbidden);
    assert_eq!(moves(&r, &board), vec![quiet]);

    // GS2 «Legal, captures nothing; seeds stay» (also oware, the Abapa rule).
    let no_capture = child(
        5,
        &[2, 3, 2, 3, 2, 3, 1, 0, 0, 0, 0, 0],
        0,
        0,
        Next::Opponent,
    );
    assert_eq!(
        moves(&wari(GrandSlam::NoCapture), &board),
        vec![quiet, no_capture]
    );
    assert_eq!(
        moves(&preset(Preset::Wari), &board),
        vec![quiet, no_capture],
        "wari's default is GS2"
    );
    assert_eq!(
        moves(&preset(Preset::Oware), &board),
        vec![quiet, no_capture]
    );

    // GS3a: «the slammer captures all opponent pits, takes all remaining seeds himself, game
    // over»: 15 + his own 1.
    assert_eq!(
        moves(&wari(GrandSlam::TakeAll), &board),
        vec![quiet, child(5, &[0; 12], 16, 0, Next::Over)]
    );

    // GS3b: «remaining seeds go to "the opponent"», read as the victim (the reading of
    // docs/rules.md, wari): 15 to the slammer, the slammer's own 1 to the victim.
    assert_eq!(
        moves(&wari(GrandSlam::VictimTakesRest), &board),
        vec![quiet, child(5, &[0; 12], 15, 1, Next::Over)]
    );

    // GS4: «the seeds of the last pit on the captured side are not captured» (read as pit 11
    // in sowing order, docs/rules.md, wari; it holds 3): 12 taken.
    assert_eq!(
        moves(&wari(GrandSlam::SpareLast), &board),
        vec![
            quiet,
            child(
                5,
                &[0, 0, 0, 0, 0, 3, 1, 0, 0, 0, 0, 0],
                12,
                0,
                Next::Opponent
            )
        ]
    );

    // GS5: the first pit (pit 6, holding 2) is spared: 13 taken.
    assert_eq!(
        moves(&wari(GrandSlam::SpareFirst), &board),
        vec![
            quiet,
            child(
                5,
                &[2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0],
                13,
                0,
                Next::Opponent
            )
        ]
    );

    // GS6: «captures everything, and the victim also loses his next move»: the slammer moves
    // again in an unrotated board (the reading of docs/rules.md, wari).
    let r = wari(GrandSlam::ExtraMove);
    let extra = child(5, &[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 15, 0, Next::Mover);
    assert_eq!(moves(&r, &board), vec![quiet, extra]);
    // Then he must feed the victim and cannot (pit 0 sows into pit 1): he takes his own seed.
    assert_eq!(terminal(&r, &extra.board.pits(12)), (1, 0));

    // awari: the grand slam captures, but it leaves the opponent without seeds, which is
    // illegal while another move does not (docs/rules.md, awari: a move that leaves the
    // opponent with no seeds, by capturing everything or otherwise, is illegal unless every
    // legal move does so).
    assert_eq!(moves(&preset(Preset::Awari), &board), vec![quiet]);
}

/// When every move is a grand slam: awari captures (the starving rule allows it when forced), GS1
/// takes all seeds without moving (docs/rules.md, wari; Skiryuk's survey post in the Russian rules
/// compilation: if every legal move is a grand slam «игрок не ходит, а забирает все оставшиеся
/// камни с доски в свой «амбар»»), GS2 and oware play it without a capture.
#[test]
fn forced_grand_slam() {
    let board = [0, 0, 0, 0, 0, 6, 1, 2, 1, 2, 1, 2];
    let r = preset(Preset::Awari);
    let c = play(&r, &board, 5);
    assert_eq!(c, child(5, &[0; 12], 15, 0, Next::Opponent));
    assert_eq!(legal_pits(&r, &board), vec![5]);
    // The victim, to move without seeds, ends the game; nothing is left to take.
    assert_eq!(terminal(&r, &[0; 12]), (0, 0));

    assert_eq!(terminal(&wari(GrandSlam::Forbidden), &board), (15, 0));
    let gs2 = child(
        5,
        &[2, 3, 2, 3, 2, 3, 0, 0, 0, 0, 0, 0],
        0,
        0,
        Next::Opponent,
    );
    assert_eq!(moves(&preset(Preset::Oware), &board), vec![gs2]);
    assert_eq!(moves(&wari(GrandSlam::NoCapture), &board), vec![gs2]);
}

// ---------------------------------------------------------------------------------------------
// Feeding and starving
// ---------------------------------------------------------------------------------------------

/// docs/rules.md, oware: if the opponent has no seeds, the mover must feed him if any move
/// does; if none does, the mover captures every seed on his own side and the game ends (the
/// Russian translation of the Wikipedia article "Oware": «Если все
/// дома противника пусты, текущий игрок должен сделать ход, который даст противнику семена.
/// Если такой ход невозможен, текущий игрок захватывает все семена на своей территории»).
#[test]
fn oware_and_wari_must_feed() {
    for r in [
        preset(Preset::Oware),
        preset(Preset::Wari),
        wari(GrandSlam::Forbidden),
        wari(GrandSlam::ExtraMove),
    ] {
        let key = r.variant().key();
        // Pit 0 (1 seed) stays home; pit 5 (2 seeds) reaches the opponent: only pit 5.
        let board = [1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0];
        assert_eq!(
            moves(&r, &board),
            vec![child(
                5,
                &[1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0],
                0,
                0,
                Next::Opponent
            )],
            "{key}"
        );
        // No move reaches the opponent: the mover takes his own 2 seeds.
        assert_eq!(
            terminal(&r, &[1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
            (2, 0),
            "{key}"
        );
        // With seeds on the opponent's side a non-feeding move is fine.
        assert_eq!(
            legal_pits(&r, &[1, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0]),
            vec![0, 5],
            "{key}"
        );
    }
}

/// docs/rules.md, awari: a move that leaves the opponent with no seeds is illegal unless every
/// legal move does so; then every move is legal. A side to move with no seeds: the game is over
/// and the opponent takes all seeds left in the pits.
#[test]
fn awari_starving_rule() {
    let r = preset(Preset::Awari);
    assert_eq!(
        legal_pits(&r, &[1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0]),
        vec![5]
    );
    // Every move starves: all are legal, and the opponent then has nothing to move.
    let board = [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    assert_eq!(
        moves(&r, &board),
        vec![
            child(
                0,
                &[0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0],
                0,
                0,
                Next::Opponent
            ),
            child(
                1,
                &[0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0],
                0,
                0,
                Next::Opponent
            ),
        ]
    );
    assert_eq!(terminal(&r, &[0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0]), (0, 2));
    assert_eq!(terminal(&r, &[0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0]), (0, 3));
    // oware reads a side to move without seeds the same way (docs/rules.md, oware; the
    // translated English page of the Russian rules compilation).
    assert_eq!(
        terminal(
            &preset(Preset::Oware),
            &[0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0]
        ),
        (0, 3)
    );
}

// ---------------------------------------------------------------------------------------------
// Kalah and mancala
// ---------------------------------------------------------------------------------------------

/// Skiryuk's survey post on Kalah (docs/rules.md, kalah and mancala): «Если последний
/// камень попадет в калах, игрок делает ещё один ход.» The child keeps the
/// mover's layout.
#[test]
fn kalah_extra_move() {
    let r = preset(Preset::Kalah);
    let start = [6u8; 12];
    let c = play(&r, &start, 0);
    assert_eq!(
        c,
        child(0, &[0, 7, 7, 7, 7, 7, 6, 6, 6, 6, 6, 6], 1, 0, Next::Mover)
    );
    // The extra move can repeat («несколько раз подряд»): pit 5 (1 seed) into the store again.
    let c = play(&r, &[0, 0, 0, 0, 2, 1, 6, 6, 6, 6, 6, 6], 5);
    assert_eq!(
        c,
        child(5, &[0, 0, 0, 0, 2, 0, 6, 6, 6, 6, 6, 6], 1, 0, Next::Mover)
    );
    let c = play(&r, &c.board.pits(12), 4);
    assert_eq!(
        c,
        child(4, &[0, 0, 0, 0, 0, 1, 6, 6, 6, 6, 6, 6], 1, 0, Next::Mover)
    );
}

/// Kalah capture, Skiryuk's survey post: «Если последний камень попадает в пустую лунку в
/// своём ряду, а противоположная лунка противника не пуста, то все камни из этой полной лунки
/// становятся добычей — их переносят в свой калах (и срубивший их камень тоже).» and «If the
/// opposite pit is empty, nothing is captured and the seed stays.» docs/rules.md, kalah and
/// mancala: with `--empty-capture` the last seed is stored even when the opposite pit is empty.
#[test]
fn kalah_captures_and_empty_capture() {
    // Pit 0 (2 seeds) ends in own empty pit 2, opposite pit 9.
    let r = preset(Preset::Kalah);
    let ec = kalah_empty_capture();
    let full = [2, 0, 0, 0, 0, 1, 1, 1, 1, 4, 1, 1];
    let captured = child(
        0,
        &[1, 1, 1, 0, 1, 1, 0, 1, 0, 0, 0, 1],
        5,
        0,
        Next::Opponent,
    );
    assert_eq!(play(&r, &full, 0), captured);
    assert_eq!(play(&ec, &full, 0), captured);

    let empty = [2, 0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1];
    assert_eq!(
        play(&r, &empty, 0),
        child(
            0,
            &[1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 0, 1],
            0,
            0,
            Next::Opponent
        )
    );
    assert_eq!(
        play(&ec, &empty, 0),
        child(
            0,
            &[1, 1, 1, 0, 1, 1, 0, 1, 0, 0, 0, 1],
            1,
            0,
            Next::Opponent
        )
    );

    // The last seed in an empty pit on the opponent's side captures nothing: pit 5 (3 seeds)
    // sows the store, pit 6 and pit 7 (empty -> 1).
    assert_eq!(
        play(&r, &[1, 0, 0, 0, 0, 3, 0, 0, 5, 0, 0, 1], 5),
        child(
            5,
            &[1, 1, 5, 0, 0, 1, 1, 0, 0, 0, 0, 0],
            1,
            0,
            Next::Opponent
        )
    );
}

/// Kalah's end, Skiryuk's survey post: «Если в конце игры все лунки одного из партнеров
/// останутся пустыми, соперник переносит все оставшиеся в лунках камни в свой калах. (Так поступить
/// он должен даже не в свой ход.)» docs/rules.md, kalah and mancala: as soon as either side is
/// empty (after any move) the game ends and each player stores the seeds on his own side.
#[test]
fn kalah_game_end() {
    let r = preset(Preset::Kalah);
    // The last seed in the store would give an extra move, but the mover's row is now empty.
    assert_eq!(
        play(&r, &[0, 0, 0, 0, 0, 1, 3, 1, 0, 0, 0, 0], 5),
        child(5, &[0; 12], 1, 4, Next::Over)
    );
    // A capture that empties the mover's row: 1 + 5 captured, the opponent keeps his 5.
    assert_eq!(
        play(&r, &[1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 5, 1], 0),
        child(0, &[0; 12], 6, 5, Next::Over)
    );
    // A move that empties the opponent's row (a capture of his last seeds): the mover banks his
    // own row too.
    assert_eq!(
        play(&r, &[1, 0, 0, 3, 0, 0, 0, 0, 0, 0, 2, 0], 0),
        child(0, &[0; 12], 6, 0, Next::Over)
    );
    // A position with an empty row is over before any move.
    assert_eq!(terminal(&r, &[0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0]), (0, 3));
    assert_eq!(terminal(&r, &[1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), (3, 0));
}

/// docs/rules.md, kalah and mancala: `kalah` defaults to 6 x 6, `mancala` to 6 x 4, with the same
/// rules; the "how to play Mancala" page of the Russian rules compilation: «Камни нужно помещать в
/// вашу собственную большую чашу Манкалы, но не в ваших противников.»
#[test]
fn mancala_is_kalah_with_4_seeds() {
    let v = Variant::preset(Preset::Mancala);
    assert_eq!((v.pits, v.seeds), (6, 4));
    assert_eq!(v.total_seeds(), 48);
    assert!(!v.empty_capture);
    assert_eq!(v.key(), "kalah-6p");
    let k = Variant::preset(Preset::Kalah);
    assert_eq!((k.pits, k.seeds), (6, 6));
    // Kalah-type values do not depend on the starting seeds: every seed count shares tables.
    assert_eq!(k.key(), "kalah-6p");
    let empty = Options {
        empty_capture: true,
        pits: Some(4),
        ..Options::default()
    };
    assert_eq!(
        rules_with(Preset::Kalah, empty).variant().key(),
        "kalah-4p-empty"
    );
    assert_eq!(Variant::preset(Preset::Awari).key(), "awari-6x4");
    // Keys name their rule sets: the round trip gives the same key back.
    for key in [
        "awari-6x4",
        "oware-5x3",
        "wari-6x4-gs3b",
        "kalah-6p",
        "kalah-4p-empty",
    ] {
        assert_eq!(
            Variant::from_key(key).map(|v| v.key()).as_deref(),
            Some(key)
        );
    }
    for bad in [
        "",
        "awari",
        "awari-6p",
        "kalah-6x4",
        "wari-6x4-gs9",
        "awari-6x4-empty",
        "go-9x9",
    ] {
        assert!(Variant::from_key(bad).is_none(), "{bad}");
    }

    for empty_capture in [false, true] {
        let opts = Options {
            empty_capture,
            ..Options::default()
        };
        let m = rules_with(Preset::Mancala, opts);
        let k = rules_with(
            Preset::Kalah,
            Options {
                seeds: Some(4),
                ..opts
            },
        );
        assert_eq!(m.variant().key(), k.variant().key());
        assert_eq!(m.start(), k.start());
        assert_eq!(m.start().pits(12), vec![4; 12]);
        for o in 0..6 {
            assert_eq!(m.path(o), k.path(o));
        }
        for d in 0..=5 {
            assert_eq!(m.perft(m.start(), d), k.perft(k.start(), d));
        }
        // Every node along a walk through the tree agrees.
        let mut board = m.start();
        for step in 0..200 {
            let (a, bb) = (m.node(board), k.node(board));
            match (a, bb) {
                (Node::Moves(x), Node::Moves(y)) => {
                    assert_eq!(x.as_slice(), y.as_slice());
                    let live: Vec<&Child> = x.iter().filter(|c| c.next != Next::Over).collect();
                    if live.is_empty() {
                        board = m.start();
                    } else {
                        board = live[(step * 7 + 3) % live.len()].board;
                    }
                }
                (Node::Terminal { mover, opp }, Node::Terminal { mover: y, opp: z }) => {
                    assert_eq!((mover, opp), (y, z));
                    board = m.start();
                }
                (x, y) => panic!("mancala {x:?} vs kalah {y:?}"),
            }
        }
    }
    // The start moves: pit 2 (4 seeds) ends in the store and moves again.
    let m = preset(Preset::Mancala);
    assert_eq!(
        play(&m, &[4; 12], 2),
        child(2, &[4, 4, 0, 5, 5, 5, 4, 4, 4, 4, 4, 4], 1, 0, Next::Mover)
    );
}

// ---------------------------------------------------------------------------------------------
// Game-level play
// ---------------------------------------------------------------------------------------------

/// A whole Kalah game through [`Game`]: stores and pits always account for all 72 seeds, an
/// extra move keeps the side to move, and at the end every seed is in a store.
#[test]
fn full_kalah_game_ends_with_every_seed_stored() {
    for (policy, preset_) in [
        (0usize, Preset::Kalah),
        (5, Preset::Kalah),
        (3, Preset::Mancala),
    ] {
        let mut g = Game::new(preset(preset_));
        let total = g.rules().max_seeds() as u32;
        assert_eq!(g.to_move(), Side::South);
        assert_eq!(g.stores(), [0, 0]);
        let mut plies = 0usize;
        while !g.is_over() {
            let legal = g.legal();
            assert!(!legal.is_empty());
            let pit = legal[(plies * policy + plies / 3) % legal.len()];
            let before = g.to_move();
            let next = match g.rules().node(g.board()) {
                Node::Moves(k) => k.iter().find(|c| c.pit as usize == pit).unwrap().next,
                Node::Terminal { .. } => unreachable!(),
            };
            g.play(pit).unwrap();
            plies += 1;
            let in_pits: u32 = g.absolute_pits().iter().map(|&x| x as u32).sum();
            assert_eq!(in_pits + g.stores()[0] + g.stores()[1], total);
            match next {
                Next::Mover => assert_eq!(g.to_move(), before),
                Next::Opponent => assert_eq!(g.to_move(), before.other()),
                Next::Over => assert!(g.is_over()),
            }
            assert!(plies < 10_000, "kalah game did not end");
        }
        assert_eq!(g.stores()[0] + g.stores()[1], total);
        assert_eq!(g.absolute_pits(), vec![0; 12]);
        assert!(g.legal().is_empty());
        assert_eq!(g.end_reason(), Some(EndReason::MoveEnded));
        assert_eq!(g.play(0), Err(RulesError::GameOver(0)));
    }
}

/// A short Kalah game checked by hand on a 2-pit, 1-seed board.
/// South plays pit 1: its seed goes into the store, South moves again. South plays pit 0: the
/// seed lands in the now-empty pit 1, opposite North's pit 0 (1 seed): both stored (South 3).
/// South's row is empty, so the game ends and North banks its own seed.
#[test]
fn tiny_kalah_game_by_hand() {
    let mut g = Game::new(sized(Preset::Kalah, 2, 1));
    assert_eq!(g.absolute_pits(), vec![1, 1, 1, 1]);
    g.play(1).unwrap();
    assert_eq!(g.to_move(), Side::South);
    assert_eq!(g.stores(), [1, 0]);
    assert_eq!(g.absolute_pits(), vec![1, 0, 1, 1]);
    g.play(0).unwrap();
    assert!(g.is_over());
    assert_eq!(g.stores(), [3, 1]);
    assert_eq!(g.absolute_pits(), vec![0; 4]);
}

/// docs/rules.md, Playing a game move by move: an awari game ends when the side to move has
/// no seeds (the opponent takes every seed left).
#[test]
fn awari_game_side_to_move_empty() {
    let r = preset(Preset::Awari);
    let g = Game::from_position(
        r.clone(),
        b(&[0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0]),
        Side::South,
    );
    assert!(g.is_over());
    assert_eq!(g.end_reason(), Some(EndReason::NoMoves));
    assert_eq!(g.stores(), [0, 3]);
    assert_eq!(g.absolute_pits(), vec![0; 12]);
    assert!(g.legal().is_empty());

    // South's only move starves North (legal because forced); North cannot move, South takes it.
    let mut g = Game::from_position(
        r.clone(),
        b(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        Side::South,
    );
    assert_eq!(g.legal(), vec![0]);
    g.play(0).unwrap();
    assert!(g.is_over());
    assert_eq!(g.stores(), [1, 0]);

    // The same from North's side: stores are absolute.
    let mut g = Game::from_position(r, b(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), Side::North);
    assert_eq!(g.absolute_pits(), vec![0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]);
    g.play(0).unwrap();
    assert_eq!(g.stores(), [0, 1]);

    // oware: the mover who cannot feed takes his own seeds at once.
    let g = Game::from_position(
        preset(Preset::Oware),
        b(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        Side::South,
    );
    assert!(g.is_over());
    assert_eq!(g.stores(), [1, 0]);
}

#[test]
fn illegal_move_lists_the_legal_ones() {
    let mut g = Game::from_position(
        preset(Preset::Awari),
        b(&[0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]),
        Side::South,
    );
    let err = g.play(0).unwrap_err();
    assert_eq!(
        err,
        RulesError::IllegalMove {
            pit: 0,
            legal: "1, 2, 3, 4, 5".into()
        }
    );
    assert!(err.to_string().contains("legal moves are [1, 2, 3, 4, 5]"));
    // The failed move changed nothing.
    assert_eq!(g.to_move(), Side::South);
    assert_eq!(g.stores(), [0, 0]);
    assert_eq!(g.absolute_pits()[0], 0);
    assert!(g.play(7).is_err());

    // A starving move is illegal in awari while a feeding one exists.
    let mut g = Game::from_position(
        preset(Preset::Awari),
        b(&[1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0]),
        Side::South,
    );
    assert_eq!(
        g.play(0),
        Err(RulesError::IllegalMove {
            pit: 0,
            legal: "5".into()
        })
    );
    // ... and so is a forbidden grand slam under GS1.
    let mut g = Game::from_position(
        wari(GrandSlam::Forbidden),
        b(&[1, 0, 0, 0, 0, 6, 1, 2, 1, 2, 1, 2]),
        Side::North,
    );
    assert_eq!(
        g.play(5),
        Err(RulesError::IllegalMove {
            pit: 5,
            legal: "0".into()
        })
    );
}

/// docs/rules.md, Playing a game move by move: in oware a player who has captured more than
/// half of the seeds wins at once, and the seeds left in the pits go to their owners; at
/// exactly half each it is a draw.
#[test]
fn oware_majority_ends_the_game() {
    // 12 seeds. South's pit 5 (3) sows into North's 6, 7, 8 (1, 2, 1 -> 2, 3, 2): 7 captured,
    // more than 6. North's 4 and South's 1 go to their owners.
    let board = b(&[1, 0, 0, 0, 0, 3, 1, 2, 1, 0, 0, 4]);
    let mut g = Game::from_position(preset(Preset::Oware), board, Side::South);
    g.play(5).unwrap();
    assert!(g.is_over());
    assert_eq!(g.end_reason(), Some(EndReason::Majority));
    assert_eq!(g.stores(), [8, 4]);
    assert_eq!(g.absolute_pits(), vec![0; 12]);

    // The same capture in awari does not end the game (it is played to exhaustion).
    let mut g = Game::from_position(preset(Preset::Awari), board, Side::South);
    g.play(5).unwrap();
    assert!(!g.is_over());
    assert_eq!(g.stores(), [7, 0]);
    assert_eq!(g.to_move(), Side::North);

    // With 14 seeds, 7 is exactly half: not more than half, play goes on.
    let board = b(&[1, 0, 0, 0, 0, 3, 1, 2, 1, 0, 0, 6]);
    let mut g = Game::from_position(preset(Preset::Oware), board, Side::South);
    g.play(5).unwrap();
    assert!(!g.is_over());
    assert_eq!(g.stores(), [7, 0]);

    // North captures the majority: the store is North's.
    let board = b(&[1, 0, 0, 0, 0, 3, 1, 2, 1, 0, 0, 4]);
    let mut g = Game::from_position(preset(Preset::Wari), board, Side::North);
    g.play(5).unwrap();
    assert_eq!(g.end_reason(), Some(EndReason::Majority));
    assert_eq!(g.stores(), [4, 8]);
}

/// The moves of a shortest cycle of quiet moves (no capture, turn passes) through some board
/// with `seeds` seeds on a `pits`-pit board, found by a breadth-first search from every board.
/// Returns the start board and the pits played.
fn find_quiet_cycle(r: &Rules, seeds: usize) -> Option<(Board, Vec<usize>)> {
    let m = r.pits();
    let boards = common::boards(m, seeds);
    let quiet = |q: Board| -> Vec<(usize, Board)> {
        match r.node(q) {
            Node::Terminal { .. } => Vec::new(),
            Node::Moves(k) => k
                .iter()
                .filter(|c| c.next == Next::Opponent && c.gain == 0 && c.opp_gain == 0)
                .map(|c| (c.pit as usize, c.board))
                .collect(),
        }
    };
    let mut best: Option<(Board, Vec<usize>)> = None;
    for &start in &boards {
        // BFS from start for a path back to start.
        let mut parent: HashMap<Board, (Board, usize)> = HashMap::new();
        let mut queue = VecDeque::from([start]);
        let mut found = None;
        'bfs: while let Some(q) = queue.pop_front() {
            for (pit, p) in quiet(q) {
                if p == start {
                    found = Some((q, pit));
                    break 'bfs;
                }
                if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(p) {
                    e.insert((q, pit));
                    queue.push_back(p);
                }
            }
        }
        if let Some((mut q, last_pit)) = found {
            let mut path = vec![last_pit];
            while q != start {
                let (prev, pit) = parent[&q];
                path.push(pit);
                q = prev;
            }
            path.reverse();
            let shorter = match &best {
                None => true,
                Some(b) => path.len() < b.1.len(),
            };
            if path.len() >= 2 && shorter {
                best = Some((start, path));
            }
        }
    }
    best
}

/// Plays `cycle` from `start` over and over; returns the plies played when the game ended.
fn plies_until_over(r: &Rules, start: Board, cycle: &[usize]) -> (usize, Game) {
    let mut g = Game::from_position(r.clone(), start, Side::South);
    let mut plies = 0;
    while !g.is_over() {
        g.play(cycle[plies % cycle.len()]).unwrap();
        plies += 1;
        assert!(plies <= 10 * cycle.len() + 10, "no repetition end");
    }
    (plies, g)
}

/// docs/rules.md, Playing a game move by move: awari ends when a position (pits, captures, side to
/// move) occurs for the third time (each side takes the seeds on its own row); oware ends when a
/// position (pits, captures, side to move) repeats. On a 1-pit board with one seed, the seed goes
/// back and forth without capture: the same pits with South to move recur every 2 plies. Then a
/// cycle of quiet moves found by search on a 2-pit board.
#[test]
fn repetition_third_in_awari_second_in_oware() {
    // 1 pit a side: [1, 0] -> sow into the opponent -> [1, 0] for the other side.
    for (p, want_plies) in [(Preset::Awari, 4), (Preset::Oware, 2), (Preset::Wari, 2)] {
        let r = sized(p, 1, 1);
        assert_eq!(
            moves(&r, &[1, 0]),
            vec![child(0, &[1, 0], 0, 0, Next::Opponent)]
        );
        let (plies, g) = plies_until_over(&r, b(&[1, 0]), &[0]);
        assert_eq!(plies, want_plies, "{p}");
        assert_eq!(g.end_reason(), Some(EndReason::Repetition), "{p}");
        // South is to move again and owns the seed.
        assert_eq!(g.stores(), [1, 0], "{p}");
    }

    // 2 pits a side: search for a cycle of quiet moves with 2, 3 and 4 seeds (awari has none
    // with 3) and play it until the game ends. A cycle of `len` plies returns to the same side
    // to move after `even` plies.
    for seeds in [2, 3, 4] {
        for p in [Preset::Awari, Preset::Oware] {
            let r = sized(p, 2, 2);
            let Some((start, cycle)) = find_quiet_cycle(&r, seeds) else {
                continue;
            };
            let even = if cycle.len() % 2 == 0 {
                cycle.len()
            } else {
                2 * cycle.len()
            };
            let (plies, g) = plies_until_over(&r, start, &cycle);
            let want = if p == Preset::Awari { 2 * even } else { even };
            assert_eq!(
                plies, want,
                "{p} {seeds} seeds, cycle {cycle:?} from {start:?}"
            );
            assert_eq!(g.end_reason(), Some(EndReason::Repetition));
            let stores = g.stores();
            assert_eq!(stores[0] + stores[1], seeds as u32);
            // Each side took its own row of the repeated position: South's row of `start`
            // (South is to move there, as at the start).
            let south: u32 = start.pits(2).iter().map(|&x| x as u32).sum();
            assert_eq!(stores, [south, seeds as u32 - south]);
        }
    }
    // The searches above must have found something to play. With 2 seeds the shortest cycle,
    // checked by hand: South [0, 1] North [0, 1]; South 1 (into North's pit 0), North 1 (into
    // South's pit 0), South 0 (into its pit 1), North 0 (into its pit 1): back to the start.
    for p in [Preset::Awari, Preset::Oware] {
        assert_eq!(
            find_quiet_cycle(&sized(p, 2, 2), 2),
            Some((b(&[0, 1, 0, 1]), vec![1, 1, 0, 0])),
            "{p}"
        );
    }
}
