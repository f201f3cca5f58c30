//! The presets outside the packed two-row path: Bao on four rows (`mancala-bao`), Mankala for
//! 3-4 players (`mancala-multi`) and the forced-move games (`mancala-forced`). Each crate owns
//! its rules; here they are built from the command line and driven through `Playable`.

use crate::args::VariantArgs;
use anyhow::{bail, Context, Result};
use mancala_rules::{Phase, Playable};
use std::io::{BufRead, IsTerminal, Write};

/// Which crate plays a preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Home {
    Bao,
    Multi,
    Forced,
}

/// Gabata is in the sources but cannot be played: why, for `variants` and for errors.
pub const GABATA: &str = "gabata";
pub const GABATA_REASON: &str = "the sowing path over its 3x6 board is a diagram missing from \
the source (seed-rules.md 3.13), so its moves cannot be defined";

/// The crate that plays `name`, if one of them does. A preset the packed board plays stays
/// there, for its tables (`mankala-2p`: the multi-player crate plays it too).
pub fn home(name: &str) -> Option<Home> {
    let name = name.trim().to_ascii_lowercase();
    if name.parse::<mancala_rules::Preset>().is_ok() {
        None
    } else if mancala_bao::preset_names().contains(&name.as_str()) {
        Some(Home::Bao)
    } else if mancala_multi::preset_names().contains(&name.as_str()) {
        Some(Home::Multi)
    } else if mancala_forced::preset_names().contains(&name.as_str()) {
        Some(Home::Forced)
    } else {
        None
    }
}

/// Fails with the reason when `name` is listed but not playable.
pub fn check_playable(name: &str) -> Result<()> {
    if name.trim().eq_ignore_ascii_case(GABATA) {
        bail!("gabata cannot be played: {GABATA_REASON}");
    }
    Ok(())
}

/// `--pits` / `--seeds` as the crates take them (they have no Kalah or Wari options).
pub fn sizes(args: &VariantArgs) -> Result<(Option<u32>, Option<u32>)> {
    if args.empty_capture || args.grand_slam.is_some() {
        bail!("--empty-capture and --grand-slam apply to the kalah and awari types only");
    }
    args.sizes()
}

/// A game of a crate-backed preset. `setup` and `swapped` are the forced-move games' only.
pub fn new_game(
    home: Home,
    args: &VariantArgs,
    position: Option<&str>,
    setup: Option<&str>,
    swapped: bool,
) -> Result<Box<dyn Playable>> {
    let name = args.variant.trim().to_ascii_lowercase();
    let (pits, seeds) = sizes(args)?;
    if home != Home::Forced && (setup.is_some() || swapped) {
        bail!(
            "--setup and --swap belong to the forced-move games (madjnuni, el-akil, el-ghasheem)"
        );
    }
    Ok(match home {
        Home::Bao => {
            if pits.is_some() || seeds.is_some() {
                bail!("{name} is played on its fixed 4x8 board: drop --pits and --seeds");
            }
            Box::new(mancala_bao::new_game(&name, &args.rules, position)?)
        }
        Home::Multi => Box::new(mancala_multi::new_game(
            &name,
            pits,
            seeds,
            &args.rules,
            position,
        )?),
        Home::Forced => {
            if position.is_some() {
                bail!(
                    "{name} starts from a setup: give --setup \"c1 c2 ..\" instead of --position"
                );
            }
            Box::new(mancala_forced::new_game(
                &name,
                pits,
                seeds,
                &args.rules,
                setup,
                swapped,
            )?)
        }
    })
}

/// Applies a comma-separated list of move names.
pub fn play_moves(game: &mut dyn Playable, list: &str) -> Result<()> {
    for (i, mv) in list
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .enumerate()
    {
        let who = game.to_move();
        game.play(mv)
            .map_err(|e| anyhow::anyhow!("{e}"))
            .with_context(|| format!("move #{} ({who} to move)", i + 1))?;
    }
    Ok(())
}

/// The `--json` object of `mancala play`: the keys every preset shares.
pub fn to_json(name: &str, game: &dyn Playable) -> serde_json::Value {
    serde_json::json!({
        "variant": name,
        "rules": game.describe(),
        "pits": game.pits(),
        "stores": game.stores(),
        "to_move": game.to_move(),
        "over": game.is_over(),
        "legal": game.legal(),
    })
}

/// `mancala play bao-... --engine SIDE`: the Bao searcher plays `seat` ("south", "north" or
/// "both"); moves for the other side are read from stdin, one per line (`quit` ends).
pub fn play_bao_engine(game: &mut mancala_bao::BaoGame, seat: &str, depth: u32) -> Result<()> {
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal();
    let mut lines = stdin.lock().lines();
    loop {
        println!("{}", game.draw());
        if game.is_over() {
            return Ok(());
        }
        let side = game.to_move();
        if seat == "both" || seat == side {
            let Some((mv, score)) = mancala_bao::best_move(game, depth) else {
                bail!("the engine found no move in a position that is not over");
            };
            println!("engine ({side}) plays {mv} (evaluation {score:+})");
            game.play(&mv).map_err(|e| anyhow::anyhow!("{e}"))?;
            continue;
        }
        if interactive {
            print!("your move ({side}; 'quit' ends): ");
            std::io::stdout().flush()?;
        }
        let Some(line) = lines.next() else {
            return Ok(());
        };
        let line = line?;
        let mv = line.trim();
        match mv {
            "" => continue,
            "quit" | "q" => return Ok(()),
            _ => {
                if let Err(e) = game.play(mv) {
                    println!("{e}");
                }
            }
        }
    }
}

/// `mancala play nam-nam --match`: nam-nam over all its rounds, pits changing hands between
/// them (the rules are `mancala_rules::NamNamMatch`'s; this only shows them).
pub struct NamNamPlay(pub mancala_rules::NamNamMatch);

impl Playable for NamNamPlay {
    fn describe(&self) -> String {
        let g = self.0.game().rules().variant();
        format!(
            "nam-nam match ({} pits x {} seeds), round {}, owners {}",
            g.pits,
            g.seeds,
            self.0.round(),
            self.0.owners_text()
        )
    }

    fn pits(&self) -> Vec<u32> {
        let pits = self.0.game().absolute_pits();
        pits.iter().map(|&p| p as u32).collect()
    }

    fn stores(&self) -> Vec<u32> {
        self.0.game().stores().to_vec()
    }

    fn to_move(&self) -> String {
        self.0.to_move().map_or("none", |s| s.name()).to_string()
    }

    fn is_over(&self) -> bool {
        matches!(self.0.phase(), Phase::Over { .. })
    }

    fn legal(&self) -> Vec<String> {
        self.0.legal()
    }

    fn play(&mut self, mv: &str) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        Ok(self.0.play(mv)?)
    }

    fn draw(&self) -> String {
        let mut s = String::new();
        for r in self.0.results() {
            s += &format!(
                "round {}: South {} - North {} (owners {}, {} started)\n",
                r.round,
                r.captured[0],
                r.captured[1],
                r.owners,
                r.starter.name()
            );
        }
        match self.0.phase() {
            Phase::Playing => s += &crate::draw::draw(self.0.game()),
            Phase::Claiming { winner, left } => {
                s += &format!(
                    "{} won the round: he owns his row and chooses {left} more pit(s) of the other row: {}",
                    winner.name(),
                    self.0.legal().join(" ")
                );
            }
            Phase::Over { winner: Some(w) } => {
                s += &format!("Game over: {} holds every seed and wins.", w.name())
            }
            Phase::Over { winner: None } => {
                s += &format!(
                    "Game over: a draw, no winner after {} rounds.",
                    mancala_rules::MAX_ROUNDS
                )
            }
        }
        s
    }
}
