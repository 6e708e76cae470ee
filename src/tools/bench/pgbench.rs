//! `hatstand bench --pgbench`: PostgreSQL alone, on a transaction as lean
//! as a command's, for the ceiling the server is measured against.
//!
//! Each client owns one row of a table of games and, like the command path,
//! makes two round trips per transaction: it reads the row's version and
//! snapshot, then one statement bumps the version (guarded by the one read),
//! writes the snapshot back and appends an event. Snapshot and event are as
//! large, on average, as the bench's own games left them. Statements are
//! prepared (`-M prepared`), as the server's are. The tables live in the
//! bench's database and go with it.

use std::process::Stdio;

use hatstand::db::{bench_fixtures as fixtures, locate};

/// What pgbench measured.
pub struct Measured {
    pub tps: f64,
}

/// Creates the tables in the database at `url` (one row per client), runs
/// pgbench with `clients` clients for `seconds`, and parses its rate.
///
/// # Errors
/// When the tables cannot be made, pgbench is missing or fails.
pub async fn run(url: &str, clients: usize, seconds: u64) -> Result<Measured, String> {
    let mut conn = locate::connect(url).await?;
    let sizes = fixtures::row_sizes(&mut conn).await?;
    fixtures::create_lean_tables(&mut conn, clients, sizes.snapshot).await?;
    let script = std::env::temp_dir().join(format!(
        "hatstand-lean-{}.sql",
        uuid::Uuid::new_v4().simple()
    ));
    std::fs::write(&script, fixtures::LEAN_SCRIPT).map_err(|e| format!("pgbench script: {e}"))?;
    let output = tokio::process::Command::new("pgbench")
        .args(["--no-vacuum", "--protocol=prepared"])
        .arg(format!("--client={clients}"))
        .arg("--jobs=2")
        .arg(format!("--time={seconds}"))
        .arg(format!("--define=event_bytes={}", sizes.event))
        .arg("--file")
        .arg(&script)
        .arg(url)
        .stdin(Stdio::null())
        .output()
        .await;
    let _ = std::fs::remove_file(&script);
    let output = output.map_err(|e| format!("cannot run pgbench: {e}"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!(
            "pgbench failed: {}{}",
            text,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let tps = parse_tps(&text).ok_or_else(|| format!("no tps in pgbench's output: {text}"))?;
    Ok(Measured { tps })
}

/// The rate from pgbench's report: `tps = 4400.123 (without initial connection time)`.
fn parse_tps(report: &str) -> Option<f64> {
    report
        .lines()
        .find_map(|line| line.trim().strip_prefix("tps = "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::parse_tps;

    #[test]
    fn reads_the_rate_from_a_report() {
        let report = "number of failed transactions: 0 (0.000%)\n\
                      latency average = 3.632 ms\n\
                      initial connection time = 20.417 ms\n\
                      tps = 4405.183622 (without initial connection time)\n";
        assert_eq!(parse_tps(report), Some(4405.183622));
        assert_eq!(parse_tps("pgbench: error: connection failed"), None);
    }
}
