//! What the machine offers a build: its memory, and what this process has used of it.

/// Peak resident memory of this process in MiB (0 where /proc is unavailable).
pub fn peak_rss_mb() -> u64 {
    status_kb("/proc/self/status", "VmHWM:").map_or(0, |kb| kb / 1024)
}

/// The machine's physical memory in bytes, where the system tells (Linux: /proc/meminfo).
pub fn physical_memory() -> Option<u64> {
    status_kb("/proc/meminfo", "MemTotal:").map(|kb| kb * 1024)
}

/// A `key: N kB` line of a /proc file.
fn status_kb(file: &str, key: &str) -> Option<u64> {
    std::fs::read_to_string(file)
        .ok()?
        .lines()
        .find(|l| l.starts_with(key))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}
