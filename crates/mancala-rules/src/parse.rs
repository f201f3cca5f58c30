//! Parsing the position strings and move lists users type.

use crate::{Board, Rules, RulesError};

/// Parses `2m` pit counts in mover-relative order, separated by spaces or commas.
/// The total may not exceed the seeds of the game. Where the players own different pits
/// (a later nam-nam round, [`Rules::sided`]) a last word `north` or `south` (or `n`, `s`)
/// says who is to move; South by default.
pub fn parse_position(rules: &Rules, text: &str) -> Result<Board, RulesError> {
    let mut tokens: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect();
    let mut north = false;
    if let Some(side) = tokens.last().map(|t| t.to_ascii_lowercase()) {
        if matches!(side.as_str(), "n" | "north" | "s" | "south") {
            if !rules.sided() {
                return Err(RulesError::SideNotNeeded(side));
            }
            north = side.starts_with('n');
            tokens.pop();
        }
    }
    check_length(rules, tokens.len())?;
    let mut pits = Vec::with_capacity(tokens.len());
    for t in tokens {
        let n: i64 = t.parse().map_err(|_| {
            RulesError::BadPosition(format!("'{t}' is not a whole number of seeds"))
        })?;
        pits.push(check_pit(rules, n)?);
    }
    board_of(rules, &pits, north)
}

/// A position from its `2m` pit counts in mover-relative order (North to move if `north`,
/// which only a sided rule set tells apart), checked as [`parse_position`] checks a typed
/// one, with the same errors: the right number of pits, none negative, and no more seeds
/// than the game has.
pub fn position_from_pits(rules: &Rules, counts: &[i64], north: bool) -> Result<Board, RulesError> {
    check_length(rules, counts.len())?;
    let pits = counts
        .iter()
        .map(|&n| check_pit(rules, n))
        .collect::<Result<Vec<u8>, _>>()?;
    board_of(rules, &pits, north)
}

/// `2m` pits, or the error that says how many a position has.
fn check_length(rules: &Rules, got: usize) -> Result<(), RulesError> {
    let m = rules.pits();
    if got != 2 * m {
        return Err(RulesError::BadPosition(format!(
            "expected {} pit counts ({} per side, mover's pits first), got {got}",
            2 * m,
            m
        )));
    }
    Ok(())
}

/// One pit's count: not negative, and not more than the game's seeds.
fn check_pit(rules: &Rules, n: i64) -> Result<u8, RulesError> {
    if n < 0 {
        return Err(RulesError::BadPosition(format!(
            "a pit cannot hold a negative count ({n})"
        )));
    }
    if n > rules.max_seeds() as i64 {
        return Err(RulesError::BadPosition(format!(
            "a pit cannot hold {n} seeds: this game has {} in all",
            rules.max_seeds()
        )));
    }
    Ok(n as u8)
}

/// The board of checked pits, if their total is within the game's seeds.
fn board_of(rules: &Rules, pits: &[u8], north: bool) -> Result<Board, RulesError> {
    let total: u32 = pits.iter().map(|&p| p as u32).sum();
    if total > rules.max_seeds() as u32 {
        return Err(RulesError::TooManySeedsInPosition {
            total,
            max: rules.max_seeds() as u32,
        });
    }
    Ok(Board::from_pits(pits).with_north(north))
}

/// Parses a move list like `0,3,5` or `a d f`: the mover's pit indices `0..m` (`m` is
/// [`Rules::move_limit`]: twice the pits a side where a player may own pits across).
pub fn parse_moves(m: usize, text: &str) -> Result<Vec<usize>, RulesError> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|t| parse_move(m, t))
        .collect()
}

fn parse_move(m: usize, t: &str) -> Result<usize, RulesError> {
    let bad = || RulesError::BadMove(t.to_string(), m - 1);
    let pit = if let Ok(n) = t.parse::<i64>() {
        if n < 0 {
            return Err(bad());
        }
        n as usize
    } else {
        let mut chars = t.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_lowercase() => (c as u8 - b'a') as usize,
            _ => return Err(bad()),
        }
    };
    if pit >= m {
        return Err(bad());
    }
    Ok(pit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Preset, Variant};

    /// Counts given as numbers are read and refused as the same counts typed.
    #[test]
    fn counts_are_checked_as_text_is() {
        let r = Rules::new(Variant::preset(Preset::Awari));
        for counts in [
            vec![1, 1, 1, 1, 1, 2, 4, 2, 3, 0, 0, 0],
            vec![1, 2, 3],
            vec![1, 1, 1, 1, 1, 2, 4, 2, 3, 0, 0, -1],
            vec![49, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            vec![40, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        ] {
            let text: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
            assert_eq!(
                position_from_pits(&r, &counts, false),
                parse_position(&r, &text.join(" "))
            );
        }
    }

    #[test]
    fn positions_and_moves() {
        let r = Rules::new(Variant::preset(Preset::Awari));
        let b = parse_position(&r, "1 1 1 1 1 2 4 2 3 0 0 0").unwrap();
        assert_eq!(b.pits(12), vec![1, 1, 1, 1, 1, 2, 4, 2, 3, 0, 0, 0]);
        assert!(parse_position(&r, "1 2 3").is_err());
        assert!(parse_position(&r, "1 1 1 1 1 2 4 2 3 0 0 -1").is_err());
        assert!(parse_position(&r, "1 1 1 1 1 2 4 2 3 0 0 x").is_err());
        assert!(parse_position(&r, "49 0 0 0 0 0 0 0 0 0 0 0").is_err());
        assert!(parse_position(&r, "40 9 0 0 0 0 0 0 0 0 0 0").is_err());
        assert!(parse_position(&r, "99999999999999999999 0 0 0 0 0 0 0 0 0 0 0").is_err());
        assert_eq!(parse_moves(6, "0,3, 5").unwrap(), vec![0, 3, 5]);
        assert_eq!(parse_moves(6, "a d f").unwrap(), vec![0, 3, 5]);
        assert!(parse_moves(6, "6").is_err());
        assert!(parse_moves(6, "g").is_err());
        assert!(parse_moves(6, "-1").is_err());
        assert!(parse_moves(6, "é").is_err());
    }
}
