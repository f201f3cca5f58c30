//! How big the proof of a Kalah start position is above tables of a given size, projected
//! from proofs this searcher has made: what `mancala plan --search` reports.
//!
//! The proofs of the starts of Kalah 6x3, 6x4 and 6x5 (standard and empty capture) were
//! solved over tables of 4 to 28 seeds, one thread each, and their node counts fitted as
//!
//! ```text
//! ln(nodes) = a + b * height + c * seeds_a_pit      (height: seeds above the tables)
//! ```
//!
//! (docs/performance.md, "How a start position's proof grows"; `scripts/kalah-growth.py`
//! refits it). Within those 18 proofs the fit is never off by more than 2.4 times. Beyond
//! them, each seed a pit is a step into the unknown: on Kalah 6x6 with empty capture one half
//! of the proof alone took 2.6 times the whole proof's projection (docs/results.md), so there
//! the projection is a floor to plan from, not a promise. The projection says so by its [`ProofProjection::beyond`].

use mancala_rules::{Preset, Variant};

/// A projected proof of a start position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProofProjection {
    /// Seeds above the tables.
    pub height: u32,
    /// Projected nodes, every position visited as `solve` counts them.
    pub nodes: f64,
    /// Seeds a pit beyond the measured boards (0 for 6x3 to 6x5): how far the fit is
    /// extrapolated.
    pub beyond: u32,
}

/// The fit's coefficients: (a, b, c) of `ln(nodes) = a + b h + c s`, standard rules first.
/// Least squares over the 9 proofs of each capture rule (6x3 and 6x4 at 20, 24, 28 and 32
/// seeds above their tables, 6x5 at 32), measured on 2026-11-27.
const FIT: [(f64, f64, f64); 2] = [
    (1.918_486_5, 0.268_778_9, 1.829_458_3),
    (2.842_671_1, 0.234_936_9, 1.664_447_2),
];

/// The largest seeds a pit among the measured proofs.
const MEASURED_SEEDS: u32 = 5;

/// The worst factor by which the fit misses one of the proofs it was made from.
pub const FIT_SPREAD: f64 = 2.4;

/// Search nodes a core visits a second, at two threads, on the proofs of Kalah 6x5 and 6x6
/// (12.9 M a second on two threads for 6x5 over 26-seed tables, 2026-11-28; 6.0 to 11 M for
/// 6x6 over 28- and 31-seed tables): the rate a plan divides the nodes by.
pub const NODES_PER_CORE_SECOND: f64 = 4.0e6;

/// A question about a start position beyond the fit's data, asked here: what a plan shows
/// beside its projection, since the fit alone cannot say how far off it is there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    /// Seeds a pit of the Kalah 6-pit board.
    pub seeds: u8,
    /// Empty-capture rules.
    pub empty_capture: bool,
    /// The table size searched over.
    pub tables: usize,
    /// What was asked, and the answer if it came.
    pub question: &'static str,
    /// Nodes visited (all threads).
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Search threads.
    pub threads: usize,
    /// Whether the question was answered (else it was stopped after `nodes`).
    pub finished: bool,
}

/// Every such question (docs/performance.md and docs/results.md tell each run).
pub const MEASURED: &[Measured] = &[
    Measured {
        seeds: 6,
        empty_capture: true,
        tables: 28,
        question: "the exact value (MTD(f)'s first test, at +5, did not finish)",
        nodes: 27_700_000_000,
        seconds: 4602.0,
        threads: 2,
        finished: false,
    },
    Measured {
        seeds: 6,
        empty_capture: true,
        tables: 31,
        question: "at least +2 (yes)",
        nodes: 14_544_781_146,
        seconds: 1869.4,
        threads: 2,
        finished: true,
    },
    Measured {
        seeds: 6,
        empty_capture: true,
        tables: 31,
        question: "at least +3 (not settled)",
        nodes: 81_879_821_956,
        seconds: 8105.2,
        threads: 2,
        finished: false,
    },
];

/// The questions measured on the board of `v`.
pub fn measured(v: &Variant) -> impl Iterator<Item = &'static Measured> + '_ {
    MEASURED
        .iter()
        .filter(move |m| fitted(v) && m.seeds == v.seeds && m.empty_capture == v.empty_capture)
}

/// Whether the fit reaches `v`: only Kalah with 6 pits a side was measured.
fn fitted(v: &Variant) -> bool {
    v.preset == Preset::Kalah && v.pits == 6 && !v.sided()
}

/// The proof of the start of `v` above tables of `tables` seeds, or `None` where the fit does
/// not reach (see [`fitted`]).
pub fn kalah_start_proof(v: &Variant, tables: usize) -> Option<ProofProjection> {
    if !fitted(v) {
        return None;
    }
    let seeds = v.total_seeds();
    let height = seeds.saturating_sub(tables as u32);
    let (a, b, c) = FIT[usize::from(v.empty_capture)];
    let s = f64::from(v.seeds);
    Some(ProofProjection {
        height,
        nodes: (a + b * f64::from(height) + c * s).exp(),
        beyond: u32::from(v.seeds).saturating_sub(MEASURED_SEEDS),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::Options;

    fn kalah(seeds: u32, empty_capture: bool) -> Variant {
        let opts = Options {
            pits: Some(6),
            seeds: Some(seeds),
            empty_capture,
            ..Options::default()
        };
        Variant::new(Preset::Kalah, opts).unwrap()
    }

    /// The fit reproduces the proofs it was made from within its spread: 6x4 standard over
    /// 20-seed tables took 24,648,140 nodes, 6x5 with empty capture over 28-seed tables
    /// 154,067,215 (docs/performance.md).
    #[test]
    fn the_fit_meets_its_own_measurements() {
        for (v, tables, measured) in [
            (kalah(4, false), 20, 24_648_140.0),
            (kalah(5, true), 28, 154_067_215.0),
            (kalah(3, false), 4, 3_791_684.0),
        ] {
            let p = kalah_start_proof(&v, tables).unwrap();
            assert_eq!(p.beyond, 0);
            let off = (p.nodes / measured).max(measured / p.nodes);
            assert!(
                off <= FIT_SPREAD,
                "{v:?} over {tables}: {} against {measured}",
                p.nodes
            );
        }
    }

    /// Bigger tables, smaller proofs; 6x6 is one seed a pit beyond the data; other boards and
    /// games have no projection.
    #[test]
    fn projections_shrink_with_the_tables_and_say_how_far_they_reach() {
        let six = kalah(6, true);
        let over28 = kalah_start_proof(&six, 28).unwrap();
        let over31 = kalah_start_proof(&six, 31).unwrap();
        assert_eq!((over28.height, over31.height), (44, 41));
        assert!(over31.nodes < over28.nodes);
        assert_eq!(over28.beyond, 1);
        let five_pits = Variant::new(
            Preset::Kalah,
            Options {
                pits: Some(5),
                ..Options::default()
            },
        )
        .unwrap();
        assert_eq!(kalah_start_proof(&five_pits, 20), None);
        assert_eq!(measured(&five_pits).count(), 0);
        // What was measured beyond the data is the fit's check there: more than it says.
        let asked: Vec<_> = measured(&six).collect();
        assert!(!asked.is_empty());
        for m in asked {
            let p = kalah_start_proof(&six, m.tables).unwrap();
            assert!(m.nodes as f64 > p.nodes, "{m:?}: {p:?}");
        }
        assert_eq!(measured(&kalah(6, false)).count(), 0);
        assert_eq!(kalah_start_proof(&Variant::preset(Preset::Awari), 20), None);
    }
}
