//! A summary of a set of tables: each tier's size, form and win/draw/loss counts.

use crate::set::Tables;

/// One tier of a set of tables, summed up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TierSummary {
    /// The tier: seeds in the pits.
    pub seeds: usize,
    /// Its positions.
    pub positions: u64,
    /// Its file's size.
    pub bytes: u64,
    /// Is the file compressed?
    pub compressed: bool,
    /// Positions the side to move wins.
    pub win: u64,
    /// Positions drawn.
    pub draw: u64,
    /// Positions the side to move loses.
    pub lose: u64,
}

impl Tables {
    /// Every tier present, summed up: the values of a compressed tier are counted only once
    /// it is decoded ([`Tables::decode_all`]); one still compressed is left out.
    pub fn summary(&self) -> Vec<TierSummary> {
        (0..self.tiers().len())
            .filter_map(|n| {
                let (t, values) = (self.tier(n)?, self.values(n)?);
                let (win, draw, lose) = values.iter().fold((0u64, 0u64, 0u64), |(w, d, l), &x| {
                    match (x as i8).signum() {
                        1 => (w + 1, d, l),
                        0 => (w, d + 1, l),
                        _ => (w, d, l + 1),
                    }
                });
                Some(TierSummary {
                    seeds: n,
                    positions: t.entries(),
                    bytes: t.file_bytes(),
                    compressed: t.is_compressed(),
                    win,
                    draw,
                    lose,
                })
            })
            .collect()
    }
}
