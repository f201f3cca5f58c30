//! The tables a server has, found in its folders by their file names, and read into memory
//! when it starts.
//!
//! A server's questions probe its tables at random. Right after a reboot, or once the kernel
//! has let the files go, each probe of a big tier waits on the disk, and a search above the
//! tables makes thousands of them: the first questions of Kalah 6x4 over 28-seed tables then
//! ran past the search's time limit. Reading the files in order when the server starts takes
//! the disk's sequential speed once (and leaves them in 2 MB folios, see
//! `mancala_tables::Tables::warm`), while the server already answers.

use crate::Config;
use mancala_oracle::highest_published;
use mancala_rules::{Preset, Rules, Variant};
use mancala_tables::{Payload, Tables, Watching, MAX_TIER};
use std::time::{Duration, Instant};

/// Whose files a rule set's tables are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// This program's tables under the server's folder.
    Built,
    /// The published Awari database's files (`--vu-dir`).
    Published,
}

impl Origin {
    /// The name the API gives it.
    pub fn name(self) -> &'static str {
        match self {
            Origin::Built => "tables",
            Origin::Published => "published",
        }
    }
}

/// The tables on the server, opened with their headers checked: the published Awari files
/// first when the server has them, then every rule set of the folder that has tables, by
/// key. A folder entry that is not a rule set's key, or whose files do not open, is left out.
pub fn on_server(config: &Config) -> Vec<(Rules, Tables, Origin)> {
    let mut out = Vec::new();
    if let Some(vu) = &config.vu_dir {
        let rules = Rules::new(Variant::preset(Preset::Awari));
        let opened = highest_published(vu, &rules)
            .and_then(|max| Tables::open_published_with(vu, &rules, max, Watching::On).ok());
        if let Some(t) = opened {
            out.push((rules, t, Origin::Published));
        }
    }
    let Ok(entries) = std::fs::read_dir(&config.dir) else {
        return out;
    };
    let mut keys: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    keys.sort();
    for key in keys {
        let Some(v) = Variant::from_key(&key) else {
            continue;
        };
        if config.vu_dir.is_some() && v == Variant::preset(Preset::Awari) {
            continue; // served from the published files
        }
        let rules = Rules::new(v);
        let max = rules.max_seeds().min(MAX_TIER);
        if let Ok(t) = Tables::open_with(&config.dir, &rules, max, Payload::Unchecked, Watching::On)
        {
            out.push((rules, t, Origin::Built));
        }
    }
    out
}

/// What [`warm`] did with one rule set's tables.
#[derive(Clone, Debug)]
pub struct Warmed {
    /// The rule set's key.
    pub key: String,
    /// The bytes of its files.
    pub bytes: u64,
    /// Read into memory (false: left alone, its files would not fit in what was left of the
    /// budget).
    pub read: bool,
    /// How long the reading took.
    pub took: Duration,
}

/// Reads the tables on the server (see [`on_server`]) into memory, smallest rule set first,
/// as long as they fit in `budget` bytes all together: a rule set too big for what is left
/// is passed over (the page cache is the machine's, and a server that pushed out everything
/// else would make the machine slow). `each` hears of every rule set once it is done (or
/// passed over).
pub fn warm(config: &Config, budget: u64, each: &mut dyn FnMut(&Warmed)) {
    let mut sets = on_server(config);
    sets.sort_by_key(|(_, t, _)| t.mapped_bytes());
    let mut left = budget;
    for (rules, tables, _) in &sets {
        let bytes = tables.mapped_bytes();
        let started = Instant::now();
        let read = bytes <= left;
        if read {
            tables.warm(&mut |_| {});
            left -= bytes;
        }
        each(&Warmed {
            key: rules.variant().key(),
            bytes,
            read,
            took: started.elapsed(),
        });
    }
}
