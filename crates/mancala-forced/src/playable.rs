//! `mancala play` support: [`mancala_rules::Playable`] for [`ForcedGame`].

use crate::game::ForcedGame;
use crate::ForcedError;
use mancala_rules::Playable;
use std::error::Error;

impl ForcedGame {
    /// Plays the move named `mv`: `next`, the forced pit's own index, or its letter (`a` = 0).
    pub fn play_named(&mut self, mv: &str) -> Result<(), ForcedError> {
        let Some(forced) = self.forced_move() else {
            return Err(ForcedError::GameOver(
                self.end_reason().map_or("over", |e| e.as_str()).to_string(),
            ));
        };
        let t = mv.trim().to_ascii_lowercase();
        let m = self.rules().pits as usize;
        let idx = if t == "next" {
            Some(forced)
        } else if let Ok(i) = t.parse::<usize>() {
            Some(i)
        } else if t.len() == 1 && t.as_bytes()[0].is_ascii_lowercase() {
            Some((t.as_bytes()[0] - b'a') as usize)
        } else {
            None
        };
        match idx.filter(|&i| i < m) {
            None => Err(ForcedError::BadMove {
                got: mv.to_string(),
                legal: forced.to_string(),
            }),
            Some(i) if i != forced => Err(ForcedError::IllegalMove {
                got: mv.to_string(),
                legal: forced.to_string(),
            }),
            Some(_) => self.step().map(|_| ()),
        }
    }

    fn status(&self) -> String {
        let [s, n] = self.captured();
        match self.end_reason() {
            Some(e) => {
                let result = match self.winner() {
                    Some(w) => format!("{} wins", w.name()),
                    None => "draw".to_string(),
                };
                format!(
                    "game over ({}) after {} moves: south {s}, north {n}: {result}",
                    e.as_str(),
                    self.moves_played()
                )
            }
            None => {
                let m = self.rules().pits as usize;
                let f = self.forced_move().unwrap_or(0);
                let how = if f == m - 1 {
                    "the head"
                } else {
                    "head not playable"
                };
                let pass = match self.starving() {
                    Some(p) => format!(" ({} passed, waiting to be fed)", p.name()),
                    None => String::new(),
                };
                format!(
                    "{} to move: forced move {f} ({how}){pass}",
                    self.side_to_move().name()
                )
            }
        }
    }
}

impl Playable for ForcedGame {
    fn describe(&self) -> String {
        let mut d = self.rules().describe();
        if self.swapped() {
            d += " swapped";
        }
        d
    }

    fn pits(&self) -> Vec<u32> {
        self.board().to_vec()
    }

    fn stores(&self) -> Vec<u32> {
        self.captured().to_vec()
    }

    fn to_move(&self) -> String {
        self.side_to_move().name().to_string()
    }

    fn is_over(&self) -> bool {
        self.over()
    }

    fn legal(&self) -> Vec<String> {
        self.forced_move()
            .map(|p| vec![p.to_string()])
            .unwrap_or_default()
    }

    fn play(&mut self, mv: &str) -> Result<(), Box<dyn Error + Send + Sync>> {
        self.play_named(mv).map_err(|e| Box::new(e) as _)
    }

    fn draw(&self) -> String {
        let m = self.rules().pits as usize;
        let pits = self.board();
        let cell = |i: usize, head: bool| {
            if head {
                format!("[{:>3}]", pits[i])
            } else {
                format!(" {:>3} ", pits[i])
            }
        };
        let [s, n] = self.captured();
        let mut out = String::new();
        out += &format!(
            "{}  (South = distributor{})\n",
            self.describe(),
            if self.swapped() { ", swapped" } else { "" }
        );
        out += &format!("north barn: {n}\n");
        let top: Vec<String> = (m..2 * m).rev().map(|i| cell(i, i == 2 * m - 1)).collect();
        out += &format!("N {}\n", top.join(""));
        let bottom: Vec<String> = (0..m).map(|i| cell(i, i == m - 1)).collect();
        out += &format!("S {}\n", bottom.join(""));
        out += &format!("south barn: {s}   ([..] = head)\n");
        out += &self.status();
        out.push('\n');
        out
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
