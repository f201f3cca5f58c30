//! `mancala variants`: every preset of RULES.md, what plays it, its defaults and options.

use crate::games::{GABATA, GABATA_REASON};
use anyhow::Result;
use clap::Args;
use mancala_rules::{Family, GrandSlam, Preset, Rule, Variant};
use serde_json::{json, Value};

/// A crate's family name, presets, one-line summary and option help.
type CrateInfo = (
    &'static str,
    &'static [&'static str],
    fn(&str) -> Option<&'static str>,
    fn(&str) -> Vec<(&'static str, &'static str)>,
);

#[derive(Args, Debug)]
pub struct VariantsCmd {
    /// Print a JSON list of objects instead of a table
    #[arg(long)]
    json: bool,
}

impl VariantsCmd {
    pub fn run(&self) -> Result<()> {
        let mut list: Vec<Value> = Preset::ALL.iter().map(|&p| describe(p)).collect();
        let crates: [CrateInfo; 3] = [
            (
                "multi",
                mancala_multi::preset_names(),
                mancala_multi::summary,
                mancala_multi::options_help,
            ),
            (
                "forced",
                mancala_forced::preset_names(),
                mancala_forced::summary,
                mancala_forced::options_help,
            ),
            (
                "bao",
                mancala_bao::preset_names(),
                mancala_bao::summary,
                mancala_bao::options_help,
            ),
        ];
        for (family, names, summary, help) in crates {
            // A preset the packed board plays is listed once, above, with its tables.
            for &name in names.iter().filter(|n| n.parse::<Preset>().is_err()) {
                list.push(json!({
                    "name": name,
                    "family": family,
                    "description": summary(name).unwrap_or(""),
                    "options": help(name).iter().map(|(o, h)| json!({"name": o, "help": h})).collect::<Vec<_>>(),
                    "tables": false,
                    "playable": true,
                }));
            }
        }
        list.push(json!({
            "name": GABATA,
            "family": "none",
            "description": "Gabata (Ethiopia), three rows of six",
            "options": [],
            "tables": false,
            "playable": false,
            "reason": GABATA_REASON,
        }));
        if self.json {
            println!("{}", serde_json::to_string_pretty(&list)?);
            return Ok(());
        }
        for v in &list {
            let name = v["name"].as_str().unwrap_or("");
            println!("{name:<15} {}", v["description"].as_str().unwrap_or(""));
            if let Some(line) = v["sizes"].as_str() {
                println!("{:15} {line}", "");
            }
            if v["playable"] == false {
                println!(
                    "{:15} not playable: {}",
                    "",
                    v["reason"].as_str().unwrap_or("")
                );
            }
            for o in v["options"].as_array().into_iter().flatten() {
                let name = o["name"].as_str().unwrap_or("");
                let flag = if name.starts_with("--") {
                    name.to_string()
                } else {
                    format!("--rule {name}")
                };
                println!("{:15} {flag:<27} {}", "", o["help"].as_str().unwrap_or(""));
            }
        }
        Ok(())
    }
}

/// A preset played on the packed two-row board (these have tables).
fn describe(p: Preset) -> Value {
    let v = Variant::preset(p);
    let (pmin, pmax) = p.pit_range();
    let (smin, smax) = p.seed_range();
    let mut options: Vec<Value> = Vec::new();
    let mut grand_slams = Vec::new();
    match p.family() {
        Family::Kalah => options.push(json!({"name": "--empty-capture", "help": "the last seed in an empty own pit is stored even if the opposite pit is empty"})),
        Family::Awari if p == Preset::Wari => {
            grand_slams = GrandSlam::CHOICES[..7]
                .iter()
                .map(|c| json!({"name": c.0, "id": c.1}))
                .collect();
            options.push(json!({"name": "--grand-slam", "help": "forbidden (gs1), no-capture (gs2, default), take-all (gs3a), victim-takes-rest (gs3b), spare-last (gs4), spare-first (gs5), extra-move (gs6)"}));
        }
        Family::Awari => {}
        Family::Sowing => options.extend(Rule::for_preset(p).map(|r| json!({"name": r.1, "help": r.4}))),
    }
    if p == Preset::NamNam {
        options.push(json!({"name": "--owners", "help": "a later round: who owns each pit, s or n a pit, South's then North's (e.g. ssssssnnsnnn); positions then end with the side to move"}));
        options.push(json!({"name": "--match", "help": "play: every round, the winner taking pits of the other row (t0..)"}));
    }
    json!({
        "name": p.name(),
        "family": match p.family() { Family::Awari => "awari", Family::Kalah => "kalah", Family::Sowing => "sowing" },
        "description": p.summary(),
        "pits": v.pits,
        "seeds": v.seeds,
        "pits_range": [pmin, pmax],
        "seeds_range": [smin, smax],
        "sizes": format!("default {} pits x {} seeds; --pits {pmin}..{pmax}, --seeds {smin}..{smax}; tables: {}", v.pits, v.seeds, v.key()),
        "options": options,
        "grand_slam": if p == Preset::Wari { json!(v.grand_slam.name()) } else { json!(null) },
        "grand_slam_choices": grand_slams,
        "table_key": v.key(),
        "tables": true,
        "playable": true,
    })
}
