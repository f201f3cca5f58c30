//! The JSON forms of the answers, the same for the command line's `--json` and the web
//! oracle's API, so that a script can move from one to the other; and of the tables' own
//! reports (a build's tiers, a verification, a plan, a summary of a set), which only the
//! command line prints.

use crate::MoveValue;
use crate::{Answer, Solution};
use mancala_rules::{Game, GrandSlam, Preset, PresetInfo, Side, Variant};
use mancala_tables::plan::{needed, Rates, TierPlan, Totals};
use mancala_tables::{TableError, TierReport, TierSummary, VerifyReport};
use serde_json::{json, Value};

/// A query: `{"value", "moves": [{"pit", "value"}], "best", "seeds", "source"}`, and
/// `"cannot_arise"`: why, for a position no game reaches. A move whose value is only bounded
/// (by search, a move that is not best) has `"value": null` and `"bounds": [lo, hi]`.
pub fn answer(a: &Answer, seeds: usize) -> Value {
    let mut v = json!({
        "value": a.value,
        "moves": a.moves.iter().map(move_value).collect::<Vec<_>>(),
        "best": a.best,
        "seeds": seeds,
        "source": a.source.name(),
    });
    if let Some(why) = a.cannot_arise {
        v["cannot_arise"] = json!(why.to_string());
    }
    v
}

/// A query cut short (a time limit or an interrupt) before the value was proven, shaped as
/// [`answer`] with what is known, and as [`solution`] says bounds: `{"value": null, "bounds":
/// [lo, hi], "best": [], "seeds", "source": "search"}`. No `moves`: a search cut short
/// reports bounds on the position's value only, and an empty list would say the game is over.
pub fn bounded_answer(lo: i32, hi: i32, seeds: usize) -> Value {
    json!({
        "value": null,
        "bounds": [lo, hi],
        "best": [],
        "seeds": seeds,
        "source": crate::Source::Search.name(),
    })
}

/// A move's value: `{"pit", "value"}`, or `{"pit", "value": null, "bounds": [lo, hi]}`.
fn move_value(m: &MoveValue) -> Value {
    match m.value() {
        Some(v) => json!({"pit": m.pit, "value": v}),
        None => json!({"pit": m.pit, "value": null, "bounds": [m.lo, m.hi]}),
    }
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

/// [`solution`] as `mancala solve --json` prints it, and with `at_least` (the question "is
/// the value at least this?", as `--at-least` asks it) that threshold and `answer` too
/// (`true`, `false`, or `null` while the proven bounds straddle it).
pub fn solve_reply(s: &Solution, at_least: Option<i32>, tables: Option<usize>) -> Value {
    let mut out = solution(s, tables);
    if let Some(t) = at_least {
        out["at_least"] = json!(t);
        out["answer"] = json!(s.answers(t));
    }
    out
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

/// A tier of a build: `{"seeds", "positions", "seconds", "bytes", "peak_rss_mb",
/// "positions_per_second", "reused", "sent_bytes"}`.
pub fn tier_report(r: &TierReport) -> Value {
    let rate = if r.seconds > 0.0 {
        r.positions as f64 / r.seconds
    } else {
        0.0
    };
    json!({
        "seeds": r.seeds,
        "positions": r.positions,
        "seconds": (r.seconds * 1000.0).round() / 1000.0,
        "bytes": r.bytes,
        "peak_rss_mb": r.peak_rss_mb,
        "positions_per_second": rate.round(),
        "reused": r.reused,
        "sent_bytes": r.sent_bytes,
    })
}

/// A verification of the tables of `key` that took `seconds`: `{"ok", "key", "positions",
/// "earlier", "seconds", "tiers": [{"seeds", "positions", "earlier"}], "first_bad"}`, where
/// `first_bad` is `{"path", "tier", "rank", "position", "stored", "recomputed"}` or null.
pub fn verification(key: &str, report: &VerifyReport, seconds: f64) -> Value {
    let earlier_of = |n: usize| report.earlier.iter().find(|e| e.0 == n).map_or(0, |e| e.1);
    let tiers: Vec<Value> = report
        .tiers
        .iter()
        .map(|&(n, p)| json!({"seeds": n, "positions": p, "earlier": earlier_of(n)}))
        .collect();
    let first_bad = report.first_bad.as_ref().map(|b| {
        json!({
            "path": b.path,
            "tier": b.tier,
            "rank": b.rank,
            "position": b.position,
            "stored": b.stored,
            "recomputed": b.recomputed,
        })
    });
    json!({
        "ok": first_bad.is_none(),
        "key": key,
        "positions": report.tiers.iter().map(|t| t.1).sum::<u64>(),
        "earlier": report.earlier.iter().map(|t| t.1).sum::<u64>(),
        "seconds": (seconds * 1000.0).round() / 1000.0,
        "tiers": tiers,
        "first_bad": first_bad,
    })
}

/// A set of tables: `{"key", "tiers": [{"seeds", "positions", "bytes", "compressed", "win",
/// "draw", "lose"}]}`, or `{"key", "error"}` when the folder cannot be read as tables.
pub fn table_set(key: &str, tiers: Result<&[TierSummary], &str>) -> Value {
    match tiers {
        Ok(tiers) => {
            let tiers: Vec<Value> = tiers
                .iter()
                .map(|t| {
                    json!({
                        "seeds": t.seeds,
                        "positions": t.positions,
                        "bytes": t.bytes,
                        "compressed": t.compressed,
                        "win": t.win, "draw": t.draw, "lose": t.lose,
                    })
                })
                .collect();
            json!({"key": key, "tiers": tiers})
        }
        Err(e) => json!({"key": key, "error": e}),
    }
}

/// A plan of tiers `0..` for `budget` bytes and `threads` threads a process, split across
/// `ranks` processes: `{"variant", "memory", "threads", "ranks", "rates", "tiers", "fits",
/// "positions", "table_bytes", "peak_disk", "seconds"}`; a tier is `{"seeds", "positions",
/// "fits": true, "memory", "disk", "exits_on_disk", "scan", "slices", "lower_reads",
/// "seconds", "slice", "sent_bytes"}`, or `{"seeds", "fits": false, "memory" (what it would
/// need), "error"}`.
pub fn plan(
    key: &str,
    (budget, threads, ranks): (u64, usize, usize),
    rates: &Rates,
    tiers: &[Result<TierPlan, TableError>],
) -> Value {
    let totals = Totals::of(tiers);
    let rows: Vec<Value> = tiers
        .iter()
        .enumerate()
        .map(|(n, t)| match t {
            Ok(t) => json!({
                "seeds": t.seeds,
                "positions": t.positions,
                "fits": true,
                "memory": t.memory,
                "disk": t.disk,
                "exits_on_disk": t.exits_on_disk(),
                "scan": t.layout.scan,
                "lower_in_memory": t.lower_resident,
                "slices": t.layout.slices.max(1),
                "lower_reads": t.lower_reads,
                "seconds": (t.seconds * 10.0).round() / 10.0,
                "slice": t.slice,
                "sent_bytes": t.sent,
            }),
            Err(e) => json!({
                "seeds": n,
                "fits": false,
                "memory": needed(t),
                "error": e.to_string(),
            }),
        })
        .collect();
    json!({
        "variant": key,
        "memory": budget,
        "threads": threads,
        "ranks": ranks,
        "rates": {
            "threshold_positions_per_core_second": rates.threshold_per_core,
            "one_pass_positions_per_core_second": rates.one_pass_per_core,
            "disk_bytes_per_second": rates.disk,
            "updates_per_position": rates.updates_per_position,
            "network_bytes_per_second": rates.network,
            "big_tier_share": rates.big_tier_share,
            "small_tier_positions": Rates::SMALL,
            "big_tier_positions": Rates::BIG,
            "thread_doubling_share": rates.doubling_share,
        },
        "tiers": rows,
        "fits": totals.first_over.is_none(),
        "positions": totals.positions,
        "table_bytes": totals.positions,
        "peak_disk": totals.peak_disk,
        "seconds": totals.seconds.round(),
    })
}
