//! Progress on stderr: a bar a tier for `build` (and a line or JSON object a tier on stdout)
//! and for `verify`.

use crate::tiers::group;
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use mancala_tables::{BuildObserver, Resume, TableError, TierReport, VerifyObserver};
use std::path::Path;
use std::sync::Mutex;

/// A progress bar of `len` for tier `tier`, drawn by `template` (the tier is its prefix);
/// none when `quiet` or for less than a million, which is done before a bar would show.
pub fn tier_bar(quiet: bool, len: u64, tier: usize, template: &str) -> Option<ProgressBar> {
    if quiet || len < 1_000_000 {
        return None;
    }
    let bar = ProgressBar::new(len);
    let style = ProgressStyle::with_template(template)
        .expect("valid template")
        .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.2} M/s", s.per_sec() / 1e6);
        });
    bar.set_style(style.progress_chars("=> "));
    bar.set_prefix(tier.to_string());
    Some(bar)
}
/// Progress bars on stderr and a line (or JSON object) per tier on stdout.
pub struct Display {
    pub json: bool,
    pub quiet: bool,
    /// The current tier's bar, its total work units and the units done.
    pub bar: Mutex<Option<(ProgressBar, u64, u64)>>,
}

impl BuildObserver for Display {
    fn tier_started(&self, seeds: usize, positions: u64, work: u64) {
        // The bar counts positions; the solver reports work units (two passes' worth).
        *self.bar.lock().unwrap() = tier_bar(
            self.quiet,
            positions,
            seeds,
            "tier {prefix:>3} [{bar:30}] {percent:>3}% {msg}, {human_pos}/{human_len} positions, {rate}, ETA {eta}",
        )
        .map(|bar| (bar, work.max(1), 0));
    }

    fn progress(&self, units: u64) {
        if let Some((bar, work, done)) = self.bar.lock().unwrap().as_mut() {
            *done += units;
            let len = bar.length().unwrap_or(0);
            bar.set_position((*done as u128 * len as u128 / *work as u128) as u64);
        }
    }

    fn phase(&self, what: &str) {
        if let Some((bar, _, _)) = self.bar.lock().unwrap().as_ref() {
            bar.set_message(what.to_string());
        }
    }

    fn resuming(&self, seeds: usize, from: Resume) {
        // The work done before the kill came in one step: the rate and the ETA start here.
        if let Some((bar, _, _)) = self.bar.lock().unwrap().as_ref() {
            bar.reset_eta();
        }
        if self.json {
            return;
        }
        match from {
            Resume::Threshold(t) => {
                println!("tier {seeds:>3}: resuming from its checkpoint at threshold {t}")
            }
            Resume::Exits { done } => println!(
                "tier {seeds:>3}: resuming from its checkpoint in the best exits, {} positions done",
                group(done as u128)
            ),
        }
    }

    fn starting_over(&self, seeds: usize) {
        let say = || {
            eprintln!(
                "tier {seeds}: its checkpoint is damaged, from another version of mancala, or saved over other lower tiers: building the tier from its start (the next save replaces the file)"
            )
        };
        match self.bar.lock().unwrap().as_ref() {
            Some((bar, _, _)) => bar.suspend(say),
            None => say(),
        }
    }

    fn replacing(&self, err: &TableError) {
        eprintln!("rebuilding: {err}");
    }

    fn waiting(&self, lock: &Path) {
        eprintln!(
            "another build is writing {} (it holds {}): waiting for it to finish, then going on from what it built (Ctrl-C to stop)",
            lock.parent().unwrap_or(lock).display(),
            lock.display()
        );
    }

    fn tier_finished(&self, r: &TierReport) {
        if let Some((bar, _, _)) = self.bar.lock().unwrap().take() {
            bar.finish_and_clear();
        }
        if self.json {
            println!("{}", mancala_oracle::json::tier_report(r));
        } else if r.reused {
            println!(
                "tier {:>3}: {:>15} positions, already built ({})",
                r.seeds,
                group(r.positions as u128),
                r.path.display()
            );
        } else {
            let rate = if r.seconds > 0.0 {
                r.positions as f64 / r.seconds
            } else {
                0.0
            };
            println!(
                "tier {:>3}: {:>15} positions in {:>8.2} s ({:>6.2} M/s), {} bytes, peak RSS {} MB",
                r.seeds,
                group(r.positions as u128),
                r.seconds,
                rate / 1e6,
                group(r.bytes as u128),
                r.peak_rss_mb
            );
        }
    }
}

/// A progress bar a tier on stderr for `verify`.
pub struct VerifyDisplay {
    pub quiet: bool,
    pub bar: Mutex<Option<ProgressBar>>,
}

impl VerifyObserver for VerifyDisplay {
    fn tier_started(&self, tier: usize, positions: u64, done: u64, work: u64) {
        if let Some(bar) = self.bar.lock().unwrap().take() {
            bar.finish_and_clear();
        }
        if done > 0 && done < positions {
            eprintln!(
                "tier {tier:>3}: {} of {} positions were checked by an earlier run (same files); going on from there",
                group(done as u128),
                group(positions as u128)
            );
        }
        *self.bar.lock().unwrap() = tier_bar(
            self.quiet,
            work,
            tier,
            "verify tier {prefix:>3} [{bar:30}] {percent:>3}%, {rate}, ETA {eta}",
        );
    }

    fn progress(&self, units: u64) {
        if let Some(bar) = self.bar.lock().unwrap().as_ref() {
            bar.inc(units);
        }
    }

    fn cannot_record(&self, path: &Path, err: &std::io::Error) {
        use std::io::ErrorKind::{PermissionDenied, ReadOnlyFilesystem, StorageFull};
        let fix = match err.kind() {
            PermissionDenied | ReadOnlyFilesystem => " (make the folder writable)",
            StorageFull => " (free some disk)",
            _ => "",
        };
        eprintln!(
            "warning: cannot record progress in {}: {err}{fix}; the check goes on, but if it is stopped, what it checked from here on will be checked again",
            path.display()
        );
    }
}
