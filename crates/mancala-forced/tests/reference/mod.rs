//! An independent, deliberately plain simulator of the three forced-move games, written apart
//! from the engine: seed-by-seed sowing, a lap budget instead of state sets for the infinite
//! relay, and a linear search of the whole history for game cycles. It supports the default
//! rules of each preset plus `serial=` and `chain=` (other options are ignored: `setup=` and
//! `pairing=` only change which setups are valid, not the simulation).

/// A relay longer than this many laps is taken to be infinite.
const LAP_BUDGET: u32 = 200_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefResult {
    pub moves: u64,
    pub south: u32,
    pub north: u32,
    pub end: &'static str,
}

struct Conf {
    madjnuni: bool,
    m: usize,
    /// +1 forward, -1 backward, 0 off.
    dir: i64,
    chain_all: bool,
}

fn row(board: &[u32], m: usize, p: usize) -> u32 {
    board[p * m..p * m + m].iter().sum()
}

/// The absolute pit player `p` must play: his rightmost non-empty pit.
fn pick(board: &[u32], m: usize, p: usize) -> Option<usize> {
    let mut k = m;
    while k > 0 {
        k -= 1;
        if board[p * m + k] > 0 {
            return Some(p * m + k);
        }
    }
    None
}

/// Plays one move from `start`; the seeds captured, or None if the relay never ends.
fn one_move(c: &Conf, board: &mut [u32], start: usize) -> Option<u32> {
    let n = board.len() as i64;
    let mut at = start;
    let mut laps = 0;
    loop {
        laps += 1;
        if laps > LAP_BUDGET {
            return None;
        }
        let mut hand = board[at];
        board[at] = 0;
        while hand > 0 {
            at = (at + 1) % board.len();
            board[at] += 1;
            hand -= 1;
        }
        let last = board[at];
        if last == 1 {
            return Some(0);
        }
        if last == 2 || last == 4 {
            let mut got = last;
            board[at] = 0;
            if c.dir != 0 {
                let mut k = at as i64;
                let mut more = 0;
                loop {
                    if !c.chain_all && more == 1 {
                        break;
                    }
                    k = (k + c.dir).rem_euclid(n);
                    let v = board[k as usize];
                    if k as usize == at || (v != 2 && v != 4) {
                        break;
                    }
                    got += v;
                    board[k as usize] = 0;
                    more += 1;
                }
            }
            return Some(got);
        }
        // 3 or 5+: relay from this pit.
    }
}

/// Simulates a whole game. `setup` is the distributor's layout (South), `rules` the
/// `serial=`/`chain=` options.
pub fn simulate(preset: &str, m: usize, setup: &[u32], swapped: bool, rules: &[&str]) -> RefResult {
    let madjnuni = preset == "madjnuni";
    let mut c = Conf {
        madjnuni,
        m,
        dir: if madjnuni { 1 } else { -1 },
        chain_all: true,
    };
    for r in rules {
        match *r {
            "serial=forward" => c.dir = 1,
            "serial=backward" => c.dir = -1,
            "serial=off" => c.dir = 0,
            "chain=one" => c.chain_all = false,
            "chain=all" => c.chain_all = true,
            _ => {}
        }
    }
    let mut board: Vec<u32> = if swapped {
        setup[m..]
            .iter()
            .chain(setup[..m].iter())
            .copied()
            .collect()
    } else {
        setup.to_vec()
    };
    let mut store = [0u32; 2];
    let mut t: usize = if c.madjnuni || swapped { 0 } else { 1 };
    let mut hungry: Option<usize> = None;
    let mut moves = 0u64;
    let mut history: Vec<(Vec<u32>, usize, Option<usize>)> = Vec::new();
    let own_rows = |board: &mut Vec<u32>, store: &mut [u32; 2]| {
        store[0] += row(board, c.m, 0);
        store[1] += row(board, c.m, 1);
        board.iter_mut().for_each(|x| *x = 0);
    };
    let end: &'static str = loop {
        let o = 1 - t;
        if board.iter().all(|&x| x == 0) {
            break "board-empty";
        }
        if !c.madjnuni && row(&board, m, 0) == 1 && row(&board, m, 1) == 1 {
            own_rows(&mut board, &mut store);
            break "one-each";
        }
        if pick(&board, m, t).is_some() {
            hungry = None;
        } else if hungry == Some(t) {
            let all: u32 = board.iter().sum();
            store[o] += all;
            board.iter_mut().for_each(|x| *x = 0);
            break "starvation";
        } else if pick(&board, m, o).is_none() {
            own_rows(&mut board, &mut store);
            break "both-stuck";
        } else {
            if !c.madjnuni {
                let mut probe = board.clone();
                let from = pick(&probe, m, o).unwrap();
                let fed = one_move(&c, &mut probe, from).is_some() && row(&probe, m, t) > 0;
                if !fed {
                    own_rows(&mut board, &mut store);
                    break "no-feed";
                }
            }
            hungry = Some(t);
            t = o;
        }
        let state = (board.clone(), t, hungry);
        if history.contains(&state) {
            own_rows(&mut board, &mut store);
            break "cycle";
        }
        history.push(state);
        let from = pick(&board, m, t).unwrap();
        let mut after = board.clone();
        match one_move(&c, &mut after, from) {
            None => {
                own_rows(&mut board, &mut store);
                break "infinite-relay";
            }
            Some(got) => {
                board = after;
                store[t] += got;
                moves += 1;
            }
        }
        t = 1 - t;
    };
    RefResult {
        moves,
        south: store[0],
        north: store[1],
        end,
    }
}
