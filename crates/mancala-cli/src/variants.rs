//! `mancala variants`: every preset, what plays it, its defaults and options.

use crate::games::{families, Engines};
use anyhow::Result;
use clap::Args;
use mancala_rules::{GrandSlam, Preset, PresetInfo, Variant};
use serde_json::{json, Value};

#[derive(Args, Debug)]
pub struct VariantsCmd {
    /// Print a JSON list of objects instead of a table
    #[arg(long)]
    json: bool,
}

impl VariantsCmd {
    pub fn run(&self) -> Result<()> {
        let mut list: Vec<Value> = Vec::new();
        let mut listed: Vec<&str> = Vec::new();
        for family in families(Engines::default()) {
            // A preset two families play is listed once, by the first (the one that plays it).
            for name in family.presets() {
                if listed.contains(&name) {
                    continue;
                }
                listed.push(name);
                if let Some(info) = family.info(name) {
                    list.push(describe(&info));
                }
            }
        }
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

/// One preset as `variants --json` lists it; the presets with tables also give their sizes
/// and table key.
fn describe(info: &PresetInfo) -> Value {
    let options: Vec<Value> = info
        .options
        .iter()
        .map(|(o, h)| json!({"name": o, "help": h}))
        .collect();
    let mut v = json!({
        "name": info.name,
        "family": info.family,
        "description": info.summary,
        "options": options,
        "tables": info.tables,
        "playable": info.unplayable.is_none(),
    });
    if let Some(why) = info.unplayable {
        v["reason"] = json!(why);
    }
    if let (true, Ok(p)) = (info.tables, info.name.parse::<Preset>()) {
        let d = Variant::preset(p);
        let (pmin, pmax) = p.pit_range();
        let (smin, smax) = p.seed_range();
        let grand_slams: Vec<Value> = if p == Preset::Wari {
            GrandSlam::CHOICES[..7]
                .iter()
                .map(|c| json!({"name": c.0, "id": c.1}))
                .collect()
        } else {
            Vec::new()
        };
        v["pits"] = json!(d.pits);
        v["seeds"] = json!(d.seeds);
        v["pits_range"] = json!([pmin, pmax]);
        v["seeds_range"] = json!([smin, smax]);
        v["sizes"] = json!(format!(
            "default {} pits x {} seeds; --pits {pmin}..{pmax}, --seeds {smin}..{smax}; tables: {}",
            d.pits,
            d.seeds,
            d.key()
        ));
        v["grand_slam"] = if p == Preset::Wari {
            json!(d.grand_slam.name())
        } else {
            json!(null)
        };
        v["grand_slam_choices"] = json!(grand_slams);
        v["table_key"] = json!(d.key());
    }
    v
}
