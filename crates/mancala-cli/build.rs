//! Names the commit the binary is built from in `mancala --version` (`MANCALA_COMMIT`):
//! `git describe` of the checkout, with `-dirty` when it has uncommitted changes, or
//! "unknown" outside a git checkout (a source archive).

use std::process::Command;

fn main() {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let commit = git(&["describe", "--always", "--dirty", "--abbrev=12"])
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=MANCALA_COMMIT={commit}");
    // Again when the checked-out commit moves (a commit, a checkout).
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        println!("cargo:rerun-if-changed={dir}/logs/HEAD");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
