//! A folder for what a whole test process shares. The server's tests include this file too
//! (by path: test helpers are not a crate of their own).

use std::path::{Path, PathBuf};

/// An empty folder `NAME-PID` for what a whole test process shares (tables built once in a
/// static, which is never dropped), under cargo's scratch space for tests (`target/tmp`,
/// which `cargo clean` empties). The `NAME-*` folders of earlier processes that are gone are
/// removed first, so runs do not pile them up (looked up in `/proc`; elsewhere left alone).
/// Call it once per process for each name (from a `OnceLock`): a second call empties the
/// folder. Runs in separate PID namespaces must not share one `target` folder.
pub fn process_folder(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"));
    if Path::new("/proc/self").exists() {
        let prefix = format!("{name}-");
        for entry in std::fs::read_dir(root).into_iter().flatten().flatten() {
            let file = entry.file_name();
            let pid = file.to_str().and_then(|f| f.strip_prefix(&prefix));
            if let Some(pid) = pid.filter(|p| p.bytes().all(|b| b.is_ascii_digit())) {
                if !Path::new("/proc").join(pid).exists() {
                    let _ = std::fs::remove_dir_all(entry.path());
                }
            }
        }
    }
    let d = root.join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}
