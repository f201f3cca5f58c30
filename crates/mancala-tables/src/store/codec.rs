//! The compressed form of a tier: each value stored as the residual from a prediction the
//! reader recomputes, in zstd blocks.
//!
//! The prediction is the position's best *exit*: the best of its moves that leave the tier
//! (captures, stores, the end of the game), whose values come from the lower tiers. A value is
//! never below its exit, and often equal to it, so `value - exit` is mostly 0 and small. A
//! position without an exit (only quiet moves) stores its value as it is. The two kinds are
//! kept in separate zstd frames, each more uniform than the mix, and each packs two small
//! numbers into a byte (zstd's Huffman coding spends at least a bit on every byte, too much
//! for a stream that is mostly zeros). On Awari tiers 18 and 20 this takes the size from
//! 42-44% of the raw bytes (zstd on the values alone) to 31-32%.
//!
//! Whether a position has an exit depends only on the rules, so a reader finds a position's
//! place in its frame by counting from the start of its sub-block (the count of exit-free
//! positions before each sub-block is stored), and only that one position's exit needs the
//! lower tiers.
//!
//! Block layout (`BLOCK` positions, the last block shorter):
//!
//! | bytes | field |
//! |---|---|
//! | `2 * SUBS` | exit-free positions before each sub-block of `SUB`, little-endian `u16` |
//! | 4 | exit-free positions in the block, little-endian `u32` |
//! | 4 | length of frame A, little-endian `u32` |
//! | 2 | the nibble bases of frames A and B (`i8`) |
//! | .. | frame A (zstd): values of the exit-free positions, in rank order, as nibbles |
//! | .. | frame B (zstd): `value - exit` of the other positions, in rank order, as nibbles |
//!
//! Nibbles: a frame of `k` numbers holds `k` nibbles, two a byte, low first (an odd count
//! ends with a zero nibble), then the escaped numbers, a byte each. A number `x` with
//! `x - base` in `0..15` is that nibble; any other is the nibble 15, and `x` is the next
//! escaped byte. Each frame of each block has the base whose 15 numbers cover most of it:
//! values drift with the seeds on each side, so a fixed base would escape a fifth of them in
//! some regions.

use crate::core::{has_exit, Exits, LowerTiers, NO_EXIT};
use crate::store::format::{Encoding, BLOCK};
use mancala_index::Indexer;
use mancala_rules::{Board, Children, Rules};
use rayon::prelude::*;

/// Positions a reader may count through to find one position's place.
pub(crate) const SUB: usize = 1 << 10;
const SUBS: usize = BLOCK / SUB;
const HEAD: usize = 2 * SUBS + 10;

/// The best exits of the positions of tier `n` in `start..start + len` ([`NO_EXIT`] for none).
fn exits<L: LowerTiers>(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    start: u64,
    len: usize,
    lower: &L,
) -> Vec<i8> {
    let mut out = Vec::with_capacity(len);
    Exits::new(rules, ix).of_range(n, start, len, lower, |exit, _| out.push(exit));
    out
}

/// Encodes the values of tier `n`: the blocks of its payload, which follow their
/// [`offset_table`].
pub(crate) fn encode<L: LowerTiers>(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    values: &[u8],
    lower: &L,
    level: i32,
) -> std::io::Result<Vec<Vec<u8>>> {
    values
        .par_chunks(BLOCK)
        .enumerate()
        .map(|(i, vals)| {
            let e = exits(rules, ix, n, (i * BLOCK) as u64, vals.len(), lower);
            let mut head = vec![0u8; HEAD];
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for (j, (&v, &x)) in vals.iter().zip(&e).enumerate() {
                if j % SUB == 0 {
                    let at = 2 * (j / SUB);
                    head[at..at + 2].copy_from_slice(&(a.len() as u16).to_le_bytes());
                }
                if x == NO_EXIT {
                    a.push(v);
                } else {
                    b.push(v.wrapping_sub(x as u8));
                }
            }
            let (base_a, base_b) = (best_base(&a), best_base(&b));
            let fa = zstd::bulk::compress(&to_nibbles(&a, base_a), level)?;
            let fb = zstd::bulk::compress(&to_nibbles(&b, base_b), level)?;
            head[2 * SUBS..2 * SUBS + 4].copy_from_slice(&(a.len() as u32).to_le_bytes());
            head[2 * SUBS + 4..2 * SUBS + 8].copy_from_slice(&(fa.len() as u32).to_le_bytes());
            head[2 * SUBS + 8] = base_a as u8;
            head[2 * SUBS + 9] = base_b as u8;
            head.extend(fa);
            head.extend(fb);
            // Held until the whole tier is written: no spare capacity.
            head.shrink_to_fit();
            Ok(head)
        })
        .collect::<std::io::Result<_>>()
}

/// Encodes the values of tier `n` as they are, in zstd blocks (see [`Encoding::Zstd`]), to
/// follow their [`offset_table`].
pub(crate) fn encode_plain(values: &[u8], level: i32) -> std::io::Result<Vec<Vec<u8>>> {
    values
        .par_chunks(BLOCK)
        .map(|vals| {
            // zstd sizes the buffer for the worst case: give back what the block leaves.
            let mut block = zstd::bulk::compress(vals, level)?;
            block.shrink_to_fit();
            Ok(block)
        })
        .collect()
}

/// The offset table that starts a compressed payload: `blocks + 1` little-endian `u64`,
/// relative to its end. The blocks follow it, each written from its own buffer (a tier of
/// 14 G positions has some 6 GB of them: never copied into one).
pub(crate) fn offset_table(blocks: &[Vec<u8>]) -> Vec<u8> {
    let mut table = Vec::with_capacity(8 * (blocks.len() + 1));
    let mut off = 0u64;
    for b in blocks {
        table.extend_from_slice(&off.to_le_bytes());
        off += b.len() as u64;
    }
    table.extend_from_slice(&off.to_le_bytes());
    table
}

/// The `len` values of a block of [`Encoding::Zstd`].
fn plain_block(block: &[u8], len: usize) -> Result<Vec<u8>, String> {
    let values = zstd::bulk::decompress(block, len)
        .map_err(|e| format!("a block does not decompress: {e}"))?;
    if values.len() != len {
        return Err(format!("a block holds {} values, not {len}", values.len()));
    }
    Ok(values)
}

/// A block's parts: exit-free counts before each sub-block, frame A and frame B.
struct Parts<'a> {
    counts: [u16; SUBS],
    /// Exit-free positions in the block.
    total_a: usize,
    a: &'a [u8],
    b: &'a [u8],
    base_a: i8,
    base_b: i8,
}

fn parts(block: &[u8]) -> Result<Parts<'_>, String> {
    if block.len() < HEAD {
        return Err("block shorter than its header".into());
    }
    let mut counts = [0u16; SUBS];
    for (k, c) in counts.iter_mut().enumerate() {
        *c = u16::from_le_bytes([block[2 * k], block[2 * k + 1]]);
    }
    let word = |at: usize| u32::from_le_bytes(block[at..at + 4].try_into().expect("4 bytes"));
    let (total_a, la) = (word(2 * SUBS) as usize, word(2 * SUBS + 4) as usize);
    if HEAD + la > block.len() || total_a > BLOCK {
        return Err("frame A runs past the block".into());
    }
    Ok(Parts {
        counts,
        total_a,
        a: &block[HEAD..HEAD + la],
        b: &block[HEAD + la..],
        base_a: block[2 * SUBS + 8] as i8,
        base_b: block[2 * SUBS + 9] as i8,
    })
}

const ESCAPE: u8 = 15;

/// The base whose 15 numbers `base..base + 15` cover most of `xs` (bytes read as `i8`).
fn best_base(xs: &[u8]) -> i8 {
    let mut counts = [0u32; 256];
    for &x in xs {
        counts[(x as i8 as i32 + 128) as usize] += 1;
    }
    let mut window: u32 = counts[..15].iter().sum();
    let (mut best, mut base) = (window, 0);
    for start in 1..=256 - 15 {
        window = window + counts[start + 14] - counts[start - 1];
        if window > best {
            (best, base) = (window, start);
        }
    }
    (base as i32 - 128) as i8
}

/// Packs numbers (bytes read as `i8`) into nibbles and escapes (see the module docs).
fn to_nibbles(xs: &[u8], base: i8) -> Vec<u8> {
    let mut out = vec![0u8; xs.len().div_ceil(2)];
    for (i, &x) in xs.iter().enumerate() {
        let code = (x as i8 as i32 - base as i32) as u32;
        let nibble = if code < ESCAPE as u32 {
            code as u8
        } else {
            out.push(x);
            ESCAPE
        };
        out[i / 2] |= nibble << (4 * (i % 2));
    }
    out
}

/// The first `count` numbers of a frame of `total` numbers.
fn from_nibbles(bytes: &[u8], base: i8, count: usize, total: usize) -> Result<Vec<u8>, String> {
    let short = "a frame is shorter than its positions";
    let (nibbles, mut escapes) = bytes.split_at_checked(total.div_ceil(2)).ok_or(short)?;
    if count > total {
        return Err(short.into());
    }
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let nibble = (nibbles[i / 2] >> (4 * (i % 2))) & 0x0f;
        out.push(if nibble == ESCAPE {
            let (&x, rest) = escapes.split_first().ok_or(short)?;
            escapes = rest;
            x
        } else {
            (nibble as i8).wrapping_add(base) as u8
        });
    }
    Ok(out)
}

/// The first `count` numbers of a frame of `total`.
fn unpack(frame: &[u8], base: i8, count: usize, total: usize) -> Result<Vec<u8>, String> {
    // A frame holds at most half a byte and an escaped byte a position.
    let bytes = zstd::bulk::decompress(frame, 2 * BLOCK)
        .map_err(|e| format!("a frame does not decompress: {e}"))?;
    from_nibbles(&bytes, base, count, total)
}

/// Decodes block `i` (`len` positions) of tier `n`, given every lower tier (which a block of
/// [`Encoding::Zstd`] does not read).
#[allow(clippy::too_many_arguments)]
pub(crate) fn decode_block<L: LowerTiers>(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    i: usize,
    len: usize,
    block: &[u8],
    encoding: Encoding,
    lower: &L,
) -> Result<Vec<u8>, String> {
    if encoding == Encoding::Zstd {
        return plain_block(block, len);
    }
    let p = parts(block)?;
    let e = exits(rules, ix, n, (i * BLOCK) as u64, len, lower);
    let without = e.iter().filter(|&&x| x == NO_EXIT).count();
    if without != p.total_a {
        return Err("the exit-free count disagrees with the positions".into());
    }
    let a = unpack(p.a, p.base_a, without, without)?;
    let b = unpack(p.b, p.base_b, len - without, len - without)?;
    let (mut ia, mut ib) = (0, 0);
    let mut out = Vec::with_capacity(len);
    for (j, &x) in e.iter().enumerate() {
        if j % SUB == 0 && p.counts[j / SUB] as usize != ia {
            return Err(format!(
                "sub-block {} count disagrees with the positions",
                j / SUB
            ));
        }
        if x == NO_EXIT {
            out.push(a[ia]);
            ia += 1;
        } else {
            out.push(b[ib].wrapping_add(x as u8));
            ib += 1;
        }
    }
    Ok(out)
}

/// A block unpacked: what one-position reads of the block share.
pub(crate) enum Unpacked {
    /// A block of [`Encoding::Residual`]: its frames.
    Frames {
        counts: [u16; SUBS],
        /// Frame A's values and frame B's residuals.
        a: Vec<u8>,
        b: Vec<u8>,
    },
    /// A block of [`Encoding::Zstd`]: the values.
    Values(Vec<u8>),
}

/// Unpacks block `i` of tier `n` (whose positions are `ix.size(n)`).
pub(crate) fn unpack_block(
    ix: &Indexer,
    n: usize,
    i: usize,
    block: &[u8],
    encoding: Encoding,
) -> Result<Unpacked, String> {
    let len = BLOCK.min(ix.size(n) as usize - i * BLOCK);
    if encoding == Encoding::Zstd {
        return plain_block(block, len).map(Unpacked::Values);
    }
    let p = parts(block)?;
    let total_b = len.checked_sub(p.total_a).ok_or("bad exit-free count")?;
    Ok(Unpacked::Frames {
        counts: p.counts,
        a: unpack(p.a, p.base_a, p.total_a, p.total_a)?,
        b: unpack(p.b, p.base_b, total_b, total_b)?,
    })
}

/// Decodes the one position `pos` of rank `rank` in tier `n`, from its block unpacked;
/// `exit_of` gives its best exit (probing lower tiers) when it has one and the block stores
/// residuals.
pub(crate) fn decode_one(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    rank: u64,
    pos: Board,
    block: &Unpacked,
    exit_of: impl FnOnce(Board) -> Result<i8, String>,
) -> Result<i8, String> {
    let j = rank as usize % BLOCK;
    let (counts, a, b) = match block {
        Unpacked::Values(values) => {
            return values
                .get(j)
                .map(|&v| v as i8)
                .ok_or_else(|| "a block is shorter than its positions".into())
        }
        Unpacked::Frames { counts, a, b } => (counts, a, b),
    };
    let sub = j / SUB;
    let short = "a frame is shorter than its positions";
    let mut before_a = *counts.get(sub).ok_or(short)? as usize;
    let mut before_b = (sub * SUB).checked_sub(before_a).ok_or(short)?;
    let mut kids = Children::new();
    let first = rank - (j - sub * SUB) as u64;
    for b in ix.walk_from(n, first).take(j - sub * SUB) {
        if has_exit(rules, b, &mut kids) {
            before_b += 1;
        } else {
            before_a += 1;
        }
    }
    if has_exit(rules, pos, &mut kids) {
        let r = *b.get(before_b).ok_or(short)?;
        Ok(r.wrapping_add(exit_of(pos)? as u8) as i8)
    } else {
        Ok(*a.get(before_a).ok_or(short)? as i8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nibbles_round_trip_every_byte() {
        let xs: Vec<u8> = (0..=255u8).chain([0, 0, 7, 8, 250, 249]).collect();
        for base in [0, -7, -128, 120] {
            let packed = to_nibbles(&xs, base);
            let n = xs.len();
            assert_eq!(from_nibbles(&packed, base, n, n).unwrap(), xs);
            assert_eq!(from_nibbles(&packed, base, 100, n).unwrap(), xs[..100]);
            assert!(from_nibbles(&packed, base, n + 2, n + 2).is_err());
        }
        // Small numbers take half a byte; others follow the nibbles.
        assert_eq!(to_nibbles(&[0, 1, 2, 14], 0), vec![0x10, 0xe2]);
        assert_eq!(to_nibbles(&[(-7i8) as u8, 7], -7), vec![0xe0]);
        assert_eq!(to_nibbles(&[3, 200, 4], 0), vec![0xf3, 0x04, 200]);
    }

    #[test]
    fn the_base_covers_the_most_numbers() {
        // -5..=9 holds five of them, -20..=-6 three.
        let xs: Vec<u8> = [-20i8, -20, -19, -5, -4, 0, 3, 9]
            .iter()
            .map(|&x| x as u8)
            .collect();
        assert_eq!(best_base(&xs), -5);
        let xs: Vec<u8> = [-3i8, 0, 0, 1, 2, 11, 12, 40]
            .iter()
            .map(|&x| x as u8)
            .collect();
        assert_eq!(best_base(&xs), -3);
        assert_eq!(best_base(&[]), -128);
        assert_eq!(best_base(&[127]), 113);
    }
}
