//! What the machine offers a build: its memory, and what this process has used of it.

/// Peak resident memory of this process in MiB (0 where /proc is unavailable).
pub fn peak_rss_mb() -> u64 {
    status_kb("/proc/self/status", "VmHWM:").map_or(0, |kb| kb / 1024)
}

/// The machine's physical memory in bytes, where the system tells (Linux: /proc/meminfo).
pub fn physical_memory() -> Option<u64> {
    status_kb("/proc/meminfo", "MemTotal:").map(|kb| kb * 1024)
}

/// The memory this process could still take without pushing anything out, in bytes, where
/// the system tells (Linux): the kernel's estimate of available memory, less where the
/// process's control group (cgroup v2, a container or a service) allows less.
pub fn available_memory() -> Option<u64> {
    let available = status_kb("/proc/meminfo", "MemAvailable:").map(|kb| kb * 1024)?;
    Some(match group_room() {
        Some(room) => available.min(room),
        None => available,
    })
}

/// What the process's cgroup v2 limit leaves: `memory.max` less `memory.current` (`None`
/// without a limit, or where there is no such group).
fn group_room() -> Option<u64> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = groups.lines().find_map(|l| l.strip_prefix("0::"))?;
    let dir = std::path::Path::new("/sys/fs/cgroup").join(path.trim_start_matches('/'));
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
    let max: u64 = read("memory.max")?.trim().parse().ok()?; // "max": no limit
    let current: u64 = read("memory.current")?.trim().parse().ok()?;
    Some(max.saturating_sub(current))
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
