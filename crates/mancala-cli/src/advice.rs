//! The libraries' errors say what is wrong; here they also say what to do, with the command
//! to run written out with every option the user gave.

use crate::args::VariantArgs;
use mancala_oracle::OracleError;
use mancala_rules::{GameOption, RulesError, Wording};
use mancala_search::SearchError;
use mancala_tables::{FileError, NotDistributed, TableError};
use std::path::Path;

/// The context that advice needs: the variant as the user named it and the table folder.
pub struct Advice<'a> {
    pub variant: &'a VariantArgs,
    pub dir: &'a Path,
}

impl Advice<'_> {
    /// A table error with the command that mends it.
    pub fn table(&self, e: TableError) -> anyhow::Error {
        self.table_for(e, 0)
    }

    /// [`Advice::table`] for a question of `seeds` seeds: a build it advises goes up to them
    /// (the tier named missing may be a lower one).
    fn table_for(&self, e: TableError, seeds: usize) -> anyhow::Error {
        let build = |max: usize| self.variant.build_command(max.max(seeds), self.dir);
        let hint = match &e {
            TableError::Missing { tier, .. } => format!("run `{}`", build(*tier)),
            TableError::TooLarge { .. } => "lower --max-seeds".to_string(),
            TableError::Memory { tier, needed, .. } => format!(
                "give --memory {} or more (on a machine that has it){}; `mancala plan` shows what each tier needs",
                size_text(*needed),
                match tier {
                    0 => String::new(),
                    t => format!(", or build up to --max-seeds {}", t - 1),
                }
            ),
            TableError::Gap { tier, .. } => format!(
                "nothing was rewritten (a tier is packed from every tier below it); run `{}` to build the missing tier (the built ones are kept), then pack again{}",
                build(*tier),
                match tier {
                    0 => String::new(),
                    t => format!(", or pack only the tiers below it with --max-seeds {}", t - 1),
                }
            ),
            TableError::MissingPublished { tier, .. } => format!(
                "add that file to the folder (the database is published by seed count), or drop --vu-dir and use the engine's own tables (`{}`)",
                build(*tier)
            ),
            TableError::NotPublished { .. } => {
                "the published database's files exist for the Awari type (awari, oware, wari) only".into()
            }
            TableError::Index(_) => String::new(),
            TableError::Busy { .. } => "wait until it is done, then run this again".into(),
            TableError::WrongValue { bad, .. } => format!(
                "`{} --repair` rebuilds every tier whose values are wrong",
                build(bad.tier)
            ),
            TableError::NotDistributed { what, .. } => match what {
                NotDistributed::RelaySowing => "build it in one process (without --mpi)".into(),
                NotDistributed::Compression => {
                    "drop --compress, and once the tiers are built run `mancala pack` on them"
                        .into()
                }
            },
            TableError::CompressedTooBig { .. } => {
                "build raw tiers (the builder maps them from disk or reads them in order): drop --compress, and make tiers packed already raw again with `mancala pack --unpack`; `mancala pack` the tables once they are all built".into()
            }
            TableError::TooBigToDecode { .. } => {
                "make the tables raw again with `mancala pack --unpack` (raw tiers are read from their files, not held in memory)".into()
            }
            TableError::OutOfMemory { .. } => {
                "give a smaller --memory (the build and the verifier plan their arrays within it; `mancala plan` shows what each tier needs), free memory, or raise `ulimit -v`".into()
            }
            TableError::Cluster { .. } => {
                "the failing process's own message says why; fix that and run the same command again (finished tiers are kept)".into()
            }
            TableError::File { file: f, tier, .. } => match f {
                FileError::Io { .. } => {
                    "check the path and its permissions (and the free space when building)".into()
                }
                FileError::NotAFolder { .. } => {
                    "move it out of the way, or point --dir at another folder".into()
                }
                FileError::NotAFile { .. } => {
                    "remove it (or point --dir at another folder), then build again".into()
                }
                FileError::Changed { .. } => {
                    "nothing was answered from it; run the command again once the file is whole (tables are replaced safely by writing a new file and renaming it over the old one, as `mancala build` does)".into()
                }
                FileError::Replaced { .. } => {
                    "run the command again: it opens the tables as they are now (if a build is still writing them, once it has finished)".into()
                }
                FileError::WrongVariant { .. } => {
                    "point --dir at another folder, or delete the file and build again".into()
                }
                FileError::Corrupt { .. } if is_published(f.path()) => {
                    "this is not the published database's file of that tier: download it again"
                        .into()
                }
                // A build up to the damaged tier replaces it: up to the question's seeds
                // would ask for tiers that may not fit this machine (the probe of
                // 2026-12-08: `--max-seeds 48` of Awari for a damaged tier 12).
                FileError::Corrupt { .. }
                | FileError::Checksum { .. }
                | FileError::Version { .. } => {
                    format!(
                        "`{}` replaces it (a build rebuilds any damaged or outdated tier)",
                        self.variant
                            .build_command(tier.unwrap_or(seeds as u32) as usize, self.dir)
                    )
                }
            },
        };
        with_hint(e.into(), hint)
    }

    /// A search error with what to change; `seeds` are the position's.
    pub fn search(&self, e: SearchError, seeds: usize) -> anyhow::Error {
        if let SearchError::Table(t) = e {
            return self.table(t);
        }
        let hint = match &e {
            SearchError::Table(_) => String::new(),
            SearchError::TooBig { .. } => format!(
                "build tables that hold the position (`{}`), raise --reach-limit if memory allows (about 30 bytes a position), or give --max-seconds for proven bounds",
                self.variant.build_command(seeds, self.dir)
            ),
            SearchError::Alloc(_) => "try a smaller --hash".into(),
            SearchError::NoThreads => "give --threads 1 or more".into(),
            SearchError::NoHash => "give --hash 1 or more".into(),
            SearchError::OutOfTime { .. } => "raise --max-seconds".into(),
            SearchError::TooDeep(_) | SearchError::Internal(_) => String::new(),
        };
        with_hint(e.into(), hint)
    }

    /// An oracle error: the table or search advice, or the verifier for inconsistent tables.
    pub fn oracle(&self, e: OracleError, seeds: usize) -> anyhow::Error {
        match e {
            OracleError::Table(t) => self.table_for(t, seeds),
            OracleError::Search(s) => self.search(s, seeds),
            e @ OracleError::Inconsistent {
                published: true, ..
            } => with_hint(
                e.into(),
                "the published database's files in that folder are damaged or not Awari's: download them again (or export them from built tables with `mancala export`)".into(),
            ),
            e @ OracleError::Inconsistent { .. } => with_hint(
                e.into(),
                format!(
                    "run `{} --dir {}`",
                    self.variant.command("verify"),
                    self.dir.display()
                ),
            ),
            e => e.into(),
        }
    }
}

/// The command line's words for the options the libraries' errors name.
pub struct CliWords;

impl Wording for CliWords {
    fn option(&self, option: GameOption) -> String {
        let flag = match option {
            GameOption::Pits => "--pits",
            GameOption::Seeds => "--seeds",
            GameOption::EmptyCapture => "--empty-capture",
            GameOption::GrandSlam => "--grand-slam",
            GameOption::Rule => "--rule",
            GameOption::Owners => "--owners",
            GameOption::Position => "--position",
            GameOption::Setup => "--setup",
            GameOption::Swap => "--swap",
        };
        flag.to_string()
    }

    fn presets(&self) -> Option<&str> {
        Some("`mancala variants`")
    }
}

/// An error as the command line prints it: each message of its chain, the outermost first,
/// the rules' errors in the command line's words.
pub fn message(e: &anyhow::Error) -> String {
    e.chain()
        .map(|c| match c.downcast_ref::<RulesError>() {
            Some(r) => r.worded(&CliWords),
            None => c.to_string(),
        })
        .collect::<Vec<_>>()
        .join(": ")
}

pub fn with_hint(e: anyhow::Error, hint: String) -> anyhow::Error {
    if hint.is_empty() {
        e
    } else {
        anyhow::anyhow!("{e}; {hint}")
    }
}

/// Is this a file of the published Awari database (`scores.N`)?
fn is_published(path: &Path) -> bool {
    path.file_name()
        .and_then(|f| f.to_str())
        .is_some_and(|f| f.starts_with("scores."))
}

/// A byte count as a `--memory` value: whole KiB (below a MiB), MiB, GiB or TiB, rounded up.
pub fn size_text(bytes: u64) -> String {
    const UNITS: [(u64, &str); 4] = [
        (1 << 40, "T"),
        (1 << 30, "G"),
        (1 << 20, "M"),
        (1 << 10, "K"),
    ];
    for (unit, name) in UNITS {
        // Below a megabyte in kilobytes: a budget of 1K is not shown as 1M.
        if bytes >= 4 * unit || bytes >= unit && bytes.is_multiple_of(unit) || unit == 1 << 10 {
            return format!("{}{name}", bytes.div_ceil(unit));
        }
    }
    unreachable!("the last unit always matches")
}
