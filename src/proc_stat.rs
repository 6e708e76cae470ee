//! CPU time and memory of processes and threads, read from Linux's `/proc`.
//!
//! Rules:
//! - Times are `utime + stime` of `/proc/<pid>/stat` (user plus system), in
//!   clock ticks of 1/100 s (`USER_HZ`, 100 on every Linux architecture the
//!   server builds for): a 20 s window measures to 0.05 %.
//! - A process's figure includes its threads, the ones that have ended
//!   too; a thread's (`/proc/<pid>/task/<tid>/stat`) is its own alone.
//! - Children that ended are not counted (`cutime` is left out): a
//!   PostgreSQL server forks a backend per connection, and its ended
//!   backends would bring in every other client's past work.
//! - Off Linux, or when a file cannot be read, a figure is `None`: callers
//!   print nothing rather than a wrong number.

use std::path::Path;
/// This process's resident memory in bytes (`VmRSS` of `/proc/self/status`).
#[must_use]
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("VmRSS:"))?;
    let kib: u64 = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    Some(kib * 1024)
}

/// Clock ticks per second of the times in `/proc/<pid>/stat`.
pub const TICKS_PER_SECOND: u64 = 100;

/// `ticks` as milliseconds.
#[must_use]
#[expect(
    clippy::cast_precision_loss,
    reason = "tick counts stay far below 2^52"
)]
pub fn millis(ticks: u64) -> f64 {
    ticks as f64 * 1000.0 / TICKS_PER_SECOND as f64
}

/// The CPU ticks (user plus system) in the text of a `/proc/<pid>/stat`
/// file. The command name (field 2) is in parentheses and may itself hold
/// spaces and parentheses, so the fields are counted from its last `)`.
#[must_use]
pub fn parse_stat(text: &str) -> Option<u64> {
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Fields from 3 (state) on: utime is field 14, stime 15.
    let field = |n: usize| fields.get(n - 3)?.parse::<u64>().ok();
    Some(field(14)? + field(15)?)
}

fn read_stat(path: &Path) -> Option<u64> {
    parse_stat(&std::fs::read_to_string(path).ok()?)
}

/// The CPU ticks of this process, all its threads.
#[must_use]
pub fn this_process() -> Option<u64> {
    read_stat(Path::new("/proc/self/stat"))
}

/// The CPU ticks of process `pid`, all its threads.
#[must_use]
pub fn process(pid: u32) -> Option<u64> {
    read_stat(&Path::new("/proc").join(pid.to_string()).join("stat"))
}

/// The CPU ticks of this process's main thread alone (the one `main` runs on).
#[must_use]
pub fn main_thread() -> Option<u64> {
    let pid = std::process::id().to_string();
    read_stat(&Path::new("/proc/self/task").join(pid).join("stat"))
}

/// The CPU ticks of the PostgreSQL processes on this machine: the server,
/// its background processes and its client backends, the latter only of
/// `database` when one is named. `None` when no PostgreSQL process is
/// visible (the server runs elsewhere, or `/proc` is not there).
#[must_use]
pub fn postgres(database: Option<&str>) -> Option<u64> {
    let mut ticks = None;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let dir = entry.path();
        let is_pid = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()));
        if !is_pid {
            continue;
        }
        let Ok(comm) = std::fs::read_to_string(dir.join("comm")) else {
            continue;
        };
        if !matches!(comm.trim_end(), "postgres" | "postmaster") {
            continue;
        }
        if let Some(database) = database {
            let title = std::fs::read(dir.join("cmdline")).unwrap_or_default();
            if backend_database(&String::from_utf8_lossy(&title)).is_some_and(|d| d != database) {
                continue;
            }
        }
        if let Some(spent) = read_stat(&dir.join("stat")) {
            *ticks.get_or_insert(0) += spent;
        }
    }
    ticks
}

/// The database of a PostgreSQL client backend, from its process title
/// (`postgres: [cluster: ]user database host(port) activity`, the host
/// `[local]` for a Unix socket); `None` for the server itself and its
/// background processes (`postgres: checkpointer`, ...).
#[must_use]
pub fn backend_database(title: &str) -> Option<&str> {
    let words: Vec<&str> = title
        .strip_prefix("postgres: ")?
        .split([' ', '\0'])
        .filter(|w| !w.is_empty())
        .collect();
    let host = words
        .iter()
        .position(|w| *w == "[local]" || (w.contains('(') && w.ends_with(')')))?;
    // `user database host`: the host is at least the third word.
    (host >= 2).then(|| words[host - 1])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn stat_fields_are_counted_from_the_last_parenthesis() {
        let text = "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 900 0 0 0 \
                    250 75 0 0 20 0 7 0 1234 99999744 5120 18446744073709551615 0";
        assert_eq!(parse_stat(text), Some(325));
        assert_eq!(parse_stat(text).map(millis), Some(3250.0));
        assert_eq!(parse_stat("4242 (cut short) S 1 2"), None);
        assert_eq!(parse_stat("no parenthesis"), None);
    }

    #[test]
    fn this_process_counts_its_threads_time() {
        let before = this_process().expect("/proc/self/stat");
        // Spin until a tick is counted (one in 10 ms of CPU; a minute of
        // wall time allows for a machine that is very busy).
        let started = std::time::Instant::now();
        let mut x = 0u64;
        let mut after = before;
        while after == before && started.elapsed() < Duration::from_secs(60) {
            for _ in 0..100_000 {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
            }
            after = this_process().expect("/proc/self/stat");
        }
        assert!(after > before, "{before} then {after}");
        assert!(resident_bytes().is_some_and(|b| b >= 1 << 20));
        // This test runs on a thread of its own: the main thread's time is
        // part of the process's, not all of it.
        let main = main_thread().expect("/proc/self/task/<pid>/stat");
        assert!(main <= this_process().expect("/proc/self/stat"));
    }

    #[test]
    fn backends_are_told_from_background_processes() {
        assert_eq!(
            backend_database("postgres: 15/main: app games 127.0.0.1(53412) idle"),
            Some("games")
        );
        assert_eq!(
            backend_database("postgres: app hatstand_bench_1 [local] SELECT"),
            Some("hatstand_bench_1")
        );
        assert_eq!(backend_database("postgres: 15/main: checkpointer "), None);
        assert_eq!(backend_database("postgres: walwriter"), None);
        assert_eq!(
            backend_database("/usr/lib/postgresql/15/bin/postgres\0-D\0/var/lib/x\0"),
            None
        );
    }
}
