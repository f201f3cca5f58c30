//! The tables a server has, found in its folders by their file names, and read into memory
//! when it starts.
//!
//! A server's questions probe its tables at random. Right after a reboot, or once the kernel
//! has let the files go, each probe of a big tier waits on the disk, and a search above the
//! tables makes thousands of them: the first questions of Kalah 6x4 over 28-seed tables then
//! ran up to the search's time limit. Reading the files in order when the server starts takes
//! the disk's sequential speed once (see `mancala_tables::Tables::warm`), while the server
//! already answers.

use crate::Config;
use mancala_oracle::{highest_published, highest_tier, open_checked};
use mancala_rules::{Preset, Rules, Variant};
use mancala_tables::{Payload, Tables, Watching};
use std::time::{Duration, Instant};

/// Where a rule set's tables come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// None: every answer is searched.
    None,
    /// This program's files under the server's folder, tiers `0..=max` of those present.
    Built(usize),
    /// The published Awari database's files `scores.N` (`serve --vu-dir`), up to `max`.
    Published(usize),
}

impl Source {
    /// The tables of `rules` on the server: for Awari (the published database's rule set, at
    /// its default size) the published files when the server was given any, else its tiers in
    /// the folder, or none. Every part of the server decides it here.
    pub fn of(config: &Config, rules: &Rules) -> Source {
        let published = config
            .vu_dir
            .as_deref()
            .filter(|_| *rules.variant() == Variant::preset(Preset::Awari))
            .and_then(|vu| highest_published(vu, rules));
        match (published, highest_tier(&config.dir, rules)) {
            (Some(max), _) => Source::Published(max),
            (None, Some(max)) => Source::Built(max),
            (None, None) => Source::None,
        }
    }

    /// The name the API gives the files' owner (`None` for no tables).
    pub fn name(self) -> Option<&'static str> {
        match self {
            Source::None => None,
            Source::Built(_) => Some("tables"),
            Source::Published(_) => Some("published"),
        }
    }

    /// The tables, opened as the server answers from them (every payload checked once:
    /// `mancala_oracle::open_checked`) and watched (a file changed in place under them is an
    /// error, not a fault); `None` when there are none or they do not open.
    pub fn open(self, config: &Config, rules: &Rules) -> Option<Tables> {
        match self {
            Source::Built(max) => open_checked(&config.dir, rules, max).ok(),
            _ => self.open_headers(config, rules),
        }
    }

    /// [`Source::open`] with the headers checked only: for listing what is on the server,
    /// which must not read a damaged set's every byte again at each listing (a damaged set
    /// has no record of a check to spare it).
    pub fn open_headers(self, config: &Config, rules: &Rules) -> Option<Tables> {
        match (self, &config.vu_dir) {
            (Source::Built(max), _) => {
                Tables::open_with(&config.dir, rules, max, Payload::Unchecked, Watching::On).ok()
            }
            (Source::Published(max), Some(vu)) => {
                Tables::open_published_with(vu, rules, max, Watching::On).ok()
            }
            _ => None,
        }
    }
}

/// The rule sets with tables on the server, by the names of their folders (Awari first when
/// the server has the published files): each with where its tables come from. Nothing is
/// opened.
pub fn on_server(config: &Config) -> Vec<(Rules, Source)> {
    let mut variants = Vec::new();
    if config.vu_dir.is_some() {
        variants.push(Variant::preset(Preset::Awari));
    }
    if let Ok(entries) = std::fs::read_dir(&config.dir) {
        let mut keys: Vec<String> = entries
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .collect();
        keys.sort();
        variants.extend(keys.iter().filter_map(|k| Variant::from_key(k)));
    }
    let mut seen = std::collections::HashSet::new();
    variants.retain(|v| seen.insert(*v));
    variants
        .into_iter()
        .map(Rules::new)
        .map(|rules| {
            let source = Source::of(config, &rules);
            (rules, source)
        })
        .filter(|(_, source)| *source != Source::None)
        .collect()
}

/// What [`warm`] did with one rule set's tables.
#[derive(Clone, Debug)]
pub struct Warmed {
    /// The rule set's key.
    pub key: String,
    /// The bytes of its files.
    pub bytes: u64,
    /// The bytes read into memory: all of them, those of its lower tiers (what was left of
    /// the budget ran out), or none.
    pub read: u64,
    /// How long the reading took.
    pub took: Duration,
}

/// Reads the tables on the server into memory, smallest rule set first and each lowest tier
/// first, as long as they fit in `budget` bytes all together: the page cache is the
/// machine's, and a server that pushed out everything else would make the machine slow.
/// `each` hears of every rule set with tables once it is done. One rule set is open at a
/// time, and only while it is read.
pub fn warm(config: &Config, budget: u64, each: &mut dyn FnMut(&Warmed)) {
    let mut sets: Vec<(Rules, Source, u64)> = on_server(config)
        .into_iter()
        .filter_map(|(rules, source)| {
            let bytes = source.open(config, &rules)?.mapped_bytes();
            Some((rules, source, bytes))
        })
        .collect();
    sets.sort_by_key(|&(_, _, bytes)| bytes);
    let mut left = budget;
    for (rules, source, bytes) in sets {
        let started = Instant::now();
        let read = source
            .open(config, &rules)
            .map_or(0, |t| t.warm(left, &mut |_| {}));
        left -= read;
        each(&Warmed {
            key: rules.variant().key(),
            bytes,
            read,
            took: started.elapsed(),
        });
    }
}
