//! `mancala`: the command line over the libraries. Its commands: `variants`, `play`, `tiers`,
//! `build`, `plan`, `query`, `verify`, `info`, `serve`, `pack`, `solve`, `bench`, `export`,
//! `import`, `completions` and `manpage`; each parses its options, asks a library and prints.

mod advice;
mod args;
mod bench;
mod engine;
mod exchange;
mod games;
mod kept;
#[cfg(feature = "mpi")]
mod mpi;
mod play;
mod searching;
mod serve;
mod solve;
mod tables;
mod tiers;
mod variants;

use clap::{Parser, Subcommand};

/// `mancala --version`: the version, the commit it was built from and the optional features
/// built in, so that a bug report says which binary it is about.
macro_rules! long_version {
    ($features:literal) => {
        concat!(
            env!("CARGO_PKG_VERSION"),
            "\ncommit: ",
            env!("MANCALA_COMMIT"),
            "\nfeatures: ",
            $features,
            "\nminimum Rust: ",
            env!("CARGO_PKG_RUST_VERSION")
        )
    };
}
#[cfg(feature = "mpi")]
const LONG_VERSION: &str = long_version!("mpi (build --mpi)");
#[cfg(not(feature = "mpi"))]
const LONG_VERSION: &str =
    long_version!("none (build --mpi needs the binary built with --features mpi)");

#[derive(Parser, Debug)]
#[command(
    name = "mancala",
    version,
    long_version = LONG_VERSION,
    about = "Exact rules, endgame tables and perfect play for Awari, Kalah and the other sowing games",
    long_about = "Exact rules, endgame tables and perfect play for the sowing games.\n\n\
Positions are written as the 2m pit counts in mover-relative order: the side to move's pits \
from its left to its right, then the opponent's pits in its sowing order, e.g. \
\"1 1 1 1 1 2 4 2 3 0 0 0\". Moves are the mover's pit indices 0..m-1 (or letters a..).\n\n\
Start with `mancala variants`, then `mancala play awari --moves 2,3`.",
    after_help = "Examples:\n  mancala variants\n  mancala play awari --moves 0,3,5\n  \
mancala play kalah --seeds 4 --position \"4 4 4 4 4 4 4 4 4 4 4 4\" --json\n  \
mancala tiers awari\n  \
mancala play bao-kiswahili --engine north\n  \
mancala play nam-nam --match --moves 0,1,2\n  \
mancala query nam-nam --owners ssssssnnsnnn \"1 1 1 1 1 1 1 1 1 1 1 1 north\"\n  \
mancala solve madjnuni --setup \"7 7 7 7 7 7 7 7 7 7 7 7 7 7\"\n  \
mancala export awari --vu --out vu   # the published Awari database's files"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the presets, their defaults and options
    Variants(variants::VariantsCmd),
    /// Show a position after some moves, or play a game from the start
    Play(play::PlayCmd),
    /// Count the indexed positions of every tier (seeds in the pits)
    Tiers(tiers::TiersCmd),
    /// Build endgame tables for every tier up to --max-seeds (resumes where it stopped)
    Build(tables::BuildCmd),
    /// What a build needs per tier (memory, disk, time) on a given machine, before building
    Plan(tables::PlanCmd),
    /// The value of a position and of each move, from the tables (by search above them)
    Query(tables::QueryCmd),
    /// Check every table file's header and checksum and recompute every position
    Verify(tables::VerifyCmd),
    /// List the built tables: tiers, sizes, compression, win/draw/lose counts
    Info(tables::InfoCmd),
    /// Serve a web page and a JSON API of perfect play over the tables of a folder
    Serve(serve::ServeCmd),
    /// Compress built tables in place, lowest tier first (or --unpack them)
    Pack(tables::PackCmd),
    // The next commands carry their short and long help themselves: a doc comment on
    // their variant would replace the long text with nothing.
    Solve(solve::SolveCmd),
    Bench(bench::BenchCmd),
    Export(exchange::ExportCmd),
    Import(exchange::ImportCmd),
    /// Print a shell's completion script (bash, zsh, fish, elvish, powershell)
    Completions(CompletionsCmd),
    /// Print the manual page (roff), e.g. `mancala manpage > mancala.1; man ./mancala.1`
    Manpage,
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  mancala completions bash > ~/.local/share/bash-completion/completions/mancala\n  \
mancala completions zsh > \"${fpath[1]}/_mancala\"\n  mancala completions fish > ~/.config/fish/completions/mancala.fish"
)]
struct CompletionsCmd {
    /// The shell
    shell: clap_complete::Shell,
}

/// A reader that stops early (`mancala variants | head`) closes the pipe; `println!` then panics.
/// Like any Unix filter, end quietly instead, with the status a SIGPIPE death would give.
fn quiet_on_closed_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if text.starts_with("failed printing to stdout") && text.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info)
    }));
}

/// A word of advice clap cannot give: a position typed without quotes arrives as many
/// arguments, and the second pit count is "unexpected".
fn usage_hint(e: &clap::Error) -> Option<String> {
    use clap::error::ErrorKind;
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let run = args.windows(3).any(|w| {
        w.iter()
            .all(|a| !a.is_empty() && a.bytes().all(|b| b.is_ascii_digit()))
    });
    run.then(|| {
        "hint: a position is one argument: quote its pit counts, e.g. mancala query awari \"1 1 1 1 1 2 4 2 3 0 0 0\"".to_string()
    })
}

fn main() {
    quiet_on_closed_pipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind::*;
            if matches!(
                e.kind(),
                DisplayHelp | DisplayVersion | DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                e.exit();
            }
            // clap's whole message: the problem, what it names (the missing arguments, a
            // similar option), the usage and where the subcommand's help is.
            eprint!("{}", e.render());
            if let Some(hint) = usage_hint(&e) {
                eprintln!("\n{hint}");
            }
            std::process::exit(2);
        }
    };
    let result = match cli.command {
        Command::Variants(c) => c.run(),
        Command::Play(c) => c.run(),
        Command::Tiers(c) => c.run(),
        Command::Build(c) => c.run(),
        Command::Plan(c) => c.run(),
        Command::Query(c) => c.run(),
        Command::Verify(c) => c.run(),
        Command::Info(c) => c.run(),
        Command::Pack(c) => c.run(),
        Command::Serve(c) => c.run(),
        Command::Solve(c) => c.run(),
        Command::Bench(c) => c.run(),
        Command::Export(c) => c.run(),
        Command::Import(c) => c.run(),
        Command::Completions(c) => {
            use clap::CommandFactory;
            clap_complete::generate(
                c.shell,
                &mut Cli::command(),
                "mancala",
                &mut std::io::stdout(),
            );
            Ok(())
        }
        Command::Manpage => {
            use clap::CommandFactory;
            clap_mangen::Man::new(Cli::command())
                .render(&mut std::io::stdout())
                .map_err(anyhow::Error::from)
        }
    };
    if let Err(e) = result {
        // A reader that stopped early (`mancala manpage | head`): end as a filter does.
        let closed = e.chain().any(|c| {
            c.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
        });
        if closed {
            std::process::exit(141);
        }
        eprintln!("error: {}", advice::message(&e));
        std::process::exit(1);
    }
}
