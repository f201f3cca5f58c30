//! The JSON forms of the answers, the same for the command line's `--json` and the web
//! oracle's API, so that a script can move from one to the other.

use crate::{Answer, Solution};
use mancala_rules::{Game, GrandSlam, Preset, PresetInfo, Side, Variant};
use serde_json::{json, Value};

/// A query: `{"value", "moves": [{"pit", "value"}], "best", "seeds", "source"}`, and
/// `"cannot_arise"`: why, for a position no game reaches.
pub fn answer(a: &Answer, seeds: usize) -> Value {
    let mut v = json!({
        "value": a.value,
        "moves": a.moves.iter().map(|(p, v)| json!({"pit": p, "value": v})).collect::<Vec<_>>(),
        "best": a.best,
        "seeds": seeds,
        "source": a.source.name(),
    });
    if let Some(why) = a.cannot_arise {
        v["cannot_arise"] = json!(why.to_string());
    }
    v
}

/// A solve: `{"value" (null when the time limit came first), "bounds": [lo, hi], "best",
/// "pv", "nodes", "expanded" (the inner nodes among them), "seconds", "tables"}`.
pub fn solution(s: &Solution, tables: Option<usize>) -> Value {
    json!({
        "value": s.value,
        "bounds": [s.lo, s.hi],
        "best": s.best,
        "pv": s.pv,
        "nodes": s.nodes,
        "expanded": s.expanded,
        "seconds": (s.seconds * 1000.0).round() / 1000.0,
        "tables": tables,
    })
}

/// A game on the packed board: `{"variant" (the table key), "pits" (South's pits in sowing
/// order, then North's), "stores": [south, north], "to_move", "over", "legal"}`.
pub fn game(g: &Game) -> Value {
    json!({
        "variant": g.rules().variant().key(),
        "pits": g.absolute_pits(),
        "stores": g.stores(),
        "to_move": g.to_move().name(),
        "over": g.is_over(),
        "legal": g.legal(),
    })
}

/// The position of a game as a query takes it: the pit counts in the side to move's layout
/// (its pits first), with the side to move last where the players own different pits.
pub fn position_text(g: &Game) -> String {
    let m = g.rules().pits();
    let mut words: Vec<String> = g
        .board()
        .pits(2 * m)
        .iter()
        .map(|p| p.to_string())
        .collect();
    if g.rules().sided() {
        words.push(
            if g.to_move() == Side::North {
                "north"
            } else {
                "south"
            }
            .into(),
        );
    }
    words.join(" ")
}

/// A preset as `mancala variants --json` lists it: name, family, description, options,
/// whether it has tables and can be played; the presets with tables also give their default
/// and allowed sizes, grand-slam choices and table key.
pub fn preset(info: &PresetInfo) -> Value {
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
