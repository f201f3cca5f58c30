//! Setup strings: parsing, the per-preset validation and the default setups.

use crate::rules::{AkilSetup, ForcedRules, Pairing, Preset};
use crate::ForcedError;

/// Parses `2m` counts separated by spaces and/or commas (absolute order: South's pits left to
/// right, then North's in sowing order).
pub fn parse_setup(text: &str) -> Result<Vec<u32>, ForcedError> {
    let mut out = Vec::new();
    for tok in text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
    {
        let n = tok.parse::<u32>().map_err(|_| {
            ForcedError::BadSetup(format!(
                "'{tok}' is not a seed count; give the pit counts as non-negative numbers separated by spaces or commas"
            ))
        })?;
        out.push(n);
    }
    Ok(out)
}

/// The North pit that corresponds to South pit `i` in el-akil's mirror setup.
pub fn partner(rules: &ForcedRules, i: usize) -> usize {
    let m = rules.pits as usize;
    match rules.pairing {
        Pairing::Opposite => 2 * m - 1 - i,
        Pairing::Rotated => m + i,
    }
}

/// The South pits `south` with their partners, in board order: the pits a mirror setup fills.
pub(crate) fn paired_pits(rules: &ForcedRules, south: &[usize]) -> Vec<usize> {
    let mut at: Vec<usize> = south.iter().flat_map(|&i| [i, partner(rules, i)]).collect();
    at.sort_unstable();
    at
}

/// Checks `pits` against the preset's setup rule; the error says what is wrong.
pub fn validate_setup(rules: &ForcedRules, pits: &[u32]) -> Result<(), ForcedError> {
    let m = rules.pits as usize;
    if pits.len() != 2 * m {
        return Err(ForcedError::BadSetup(format!(
            "{} counts given; a {}x{} board needs exactly {} (South's pits left to right, then North's)",
            pits.len(),
            2,
            m,
            2 * m
        )));
    }
    let sum: u64 = pits.iter().map(|&c| c as u64).sum();
    if sum != rules.total as u64 {
        return Err(ForcedError::BadSetup(format!(
            "the counts add up to {sum}, but all {} seeds must be laid out (change the counts or pass total={sum})",
            rules.total
        )));
    }
    match rules.preset {
        Preset::Madjnuni | Preset::ElGhasheem => {
            let min = rules.preset.min_per_pit();
            if let Some(i) = pits.iter().position(|&c| c < min) {
                return Err(ForcedError::BadSetup(format!(
                    "pit {i} holds {}; {} needs at least {min} seeds in every pit",
                    pits[i],
                    rules.preset.name()
                )));
            }
        }
        Preset::ElAkil => match rules.setup_kind {
            AkilSetup::Mirror => {
                let mut pairs = 0;
                for i in 0..m {
                    let j = partner(rules, i);
                    if (pits[i] > 0) != (pits[j] > 0) {
                        return Err(ForcedError::BadSetup(format!(
                            "South pit {i} holds {} but its partner, absolute pit {j}, holds {}; \
                             el-akil fills a pit and its corresponding pit on the other side (pairing={}) or neither",
                            pits[i],
                            pits[j],
                            match rules.pairing {
                                Pairing::Opposite => "opposite: pit i with 2m-1-i",
                                Pairing::Rotated => "rotated: pit i with m+i",
                            }
                        )));
                    }
                    if pits[i] > 0 {
                        pairs += 1;
                    }
                }
                if pairs == 0 {
                    return Err(ForcedError::BadSetup(
                        "no seeds on the board; put the seeds in at least one pair of pits"
                            .to_string(),
                    ));
                }
            }
            AkilSetup::Leftmost => {
                for (i, &c) in pits.iter().enumerate() {
                    let end = i == 0 || i == m;
                    if end && c == 0 {
                        return Err(ForcedError::BadSetup(format!(
                            "setup=leftmost puts seeds in each player's leftmost pit, but absolute pit {i} is empty"
                        )));
                    }
                    if !end && c > 0 {
                        return Err(ForcedError::BadSetup(format!(
                            "setup=leftmost leaves every pit but 0 and {m} empty, but pit {i} holds {c}"
                        )));
                    }
                }
            }
        },
    }
    Ok(())
}

/// Spreads `total` seeds as evenly as possible over the pits `at` (in the given order, the first
/// ones getting one more when it does not divide).
fn spread(n: usize, total: u32, at: &[usize]) -> Vec<u32> {
    let mut v = vec![0; n];
    let k = at.len() as u32;
    for (x, &i) in at.iter().enumerate() {
        v[i] = total / k + u32::from((x as u32) < total % k);
    }
    v
}

/// The default setup: an even spread over every pit (madjnuni, el-ghasheem); for el-akil the
/// central pits of each row and their partners (all pits when a row has fewer than 3), or the
/// two leftmost pits under `setup=leftmost`. Extra seeds go to the lowest-numbered pits.
pub fn default_setup(rules: &ForcedRules) -> Vec<u32> {
    let m = rules.pits as usize;
    let n = 2 * m;
    match rules.preset {
        Preset::Madjnuni | Preset::ElGhasheem => {
            spread(n, rules.total, &(0..n).collect::<Vec<_>>())
        }
        Preset::ElAkil => match rules.setup_kind {
            AkilSetup::Leftmost => spread(n, rules.total, &[0, m]),
            AkilSetup::Mirror => {
                let south: Vec<usize> = if m >= 3 {
                    (1..m - 1).collect()
                } else {
                    (0..m).collect()
                };
                // Fewer seeds than pits: use as many pairs as the seeds allow.
                let pairs = south.len().min(rules.total as usize / 2).max(1);
                spread(n, rules.total, &paired_pits(rules, &south[..pairs]))
            }
        },
    }
}
