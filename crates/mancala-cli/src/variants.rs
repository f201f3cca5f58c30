//! `mancala variants`: every preset, what plays it, its defaults and options.

use crate::games::{families, Engines};
use anyhow::Result;
use clap::Args;
use serde_json::Value;

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
                    list.push(mancala_oracle::json::preset(&info));
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
