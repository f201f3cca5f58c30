//! `mancala variants`.

use anyhow::Result;
use clap::Args;
use mancala_rules::{Family, GrandSlam, Preset, Variant};
use serde_json::json;

#[derive(Args, Debug)]
pub struct VariantsCmd {
    /// Print a JSON list of objects instead of a table
    #[arg(long)]
    json: bool,
}

impl VariantsCmd {
    pub fn run(&self) -> Result<()> {
        let list: Vec<_> = Preset::ALL.iter().map(|&p| describe(p)).collect();
        if self.json {
            println!("{}", serde_json::to_string_pretty(&list)?);
            return Ok(());
        }
        for p in Preset::ALL {
            let v = Variant::preset(p);
            let (pmin, pmax) = p.pit_range();
            let (smin, smax) = p.seed_range();
            println!("{:<8} {}", p.name(), p.summary());
            println!(
                "         default {} pits x {} seeds; --pits {pmin}..{pmax}, --seeds {smin}..{smax}; tables: {}",
                v.pits,
                v.seeds,
                v.key()
            );
            match p {
                Preset::Kalah | Preset::Mancala => println!("         option: --empty-capture"),
                Preset::Wari => println!(
                    "         option: --grand-slam {}",
                    GrandSlam::CHOICES[..7]
                        .iter()
                        .map(|c| format!("{} ({})", c.0, c.1))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                _ => {}
            }
        }
        Ok(())
    }
}

fn describe(p: Preset) -> serde_json::Value {
    let v = Variant::preset(p);
    let mut options = vec!["pits", "seeds"];
    let mut grand_slams = Vec::new();
    match p.family() {
        Family::Kalah => options.push("empty-capture"),
        Family::Awari if p == Preset::Wari => {
            options.push("grand-slam");
            grand_slams = GrandSlam::CHOICES[..7]
                .iter()
                .map(|c| json!({"name": c.0, "id": c.1}))
                .collect();
        }
        Family::Awari => {}
    }
    let (pmin, pmax) = p.pit_range();
    let (smin, smax) = p.seed_range();
    json!({
        "name": p.name(),
        "family": match p.family() { Family::Awari => "awari", Family::Kalah => "kalah" },
        "description": p.summary(),
        "pits": v.pits,
        "seeds": v.seeds,
        "pits_range": [pmin, pmax],
        "seeds_range": [smin, smax],
        "options": options,
        "grand_slam": if p == Preset::Wari { json!(v.grand_slam.name()) } else { json!(null) },
        "grand_slam_choices": grand_slams,
        "table_key": v.key(),
        "playable": true,
    })
}
