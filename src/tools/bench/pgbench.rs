//! `hatstand bench --pgbench`: PostgreSQL alone, for the ceilings the server
//! is measured against, on two scripts:
//!
//! - **the command's own statements** ([`run_command`]): the next seat's
//!   read, the load and the append, each the text the server prepares, on
//!   the bench's own games (their row sizes as the run left them); a
//!   command is one pgbench transaction of three statements, each
//!   committing on its own as the server's do;
//! - **a lean transaction** ([`run`]), the floor of any command path.
//!
//! In the lean one, each client owns one row of a table of games and, like the command path,
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
    /// Transactions completed.
    pub transactions: u64,
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
    let event_bytes = format!("event_bytes={}", sizes.event);
    pgbench(
        url,
        clients,
        seconds,
        fixtures::LEAN_SCRIPT,
        &[&event_bytes],
    )
    .await
}

/// pgbench on the command's own three statements (see the module's doc),
/// one client per game the bench left in play (at most `clients`), with an
/// idempotency key on every command when `keyed` (as `--keys` sends).
///
/// # Errors
/// When no game is in play, or pgbench is missing or fails.
pub async fn run_command(
    url: &str,
    clients: usize,
    seconds: u64,
    keyed: bool,
) -> Result<Measured, String> {
    let mut conn = locate::connect(url).await?;
    let clients = fixtures::create_command_targets(&mut conn, clients).await?;
    if clients == 0 {
        return Err("pgbench: no game left in play to run the command's statements on".to_owned());
    }
    let before = fixtures::command_targets_version(&mut conn).await?;
    let measured = pgbench(
        url,
        clients,
        seconds,
        &fixtures::command_script(keyed),
        &["loaded=0"],
    )
    .await?;
    // Every transaction's append must have appended: a guard that missed
    // (a stale version, a parameter of the wrong type) would measure less
    // work than a command's.
    let appended = fixtures::command_targets_version(&mut conn).await? - before;
    if u64::try_from(appended).ok() != Some(measured.transactions) {
        return Err(format!(
            "pgbench: {} transactions but {appended} appends: the command's statements did not all write",
            measured.transactions
        ));
    }
    Ok(measured)
}

/// Runs pgbench's `script` with `clients` clients for `seconds` (prepared
/// statements, as the server's), `defines` as `--define`s.
async fn pgbench(
    url: &str,
    clients: usize,
    seconds: u64,
    script: &str,
    defines: &[&str],
) -> Result<Measured, String> {
    let file = std::env::temp_dir().join(format!(
        "hatstand-pgbench-{}.sql",
        uuid::Uuid::new_v4().simple()
    ));
    std::fs::write(&file, script).map_err(|e| format!("pgbench script: {e}"))?;
    let output = tokio::process::Command::new("pgbench")
        .args(["--no-vacuum", "--protocol=prepared"])
        .arg(format!("--client={clients}"))
        .arg("--jobs=2")
        .arg(format!("--time={seconds}"))
        .args(defines.iter().map(|d| format!("--define={d}")))
        .arg("--file")
        .arg(&file)
        .arg(url)
        .stdin(Stdio::null())
        .output()
        .await;
    let _ = std::fs::remove_file(&file);
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
    let transactions = parse_transactions(&text)
        .ok_or_else(|| format!("no transaction count in pgbench's output: {text}"))?;
    Ok(Measured { tps, transactions })
}

/// The rate from pgbench's report: `tps = 4400.123 (without initial connection time)`.
fn parse_tps(report: &str) -> Option<f64> {
    report
        .lines()
        .find_map(|line| line.trim().strip_prefix("tps = "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

/// The count from pgbench's report: `number of transactions actually processed: 2410`.
fn parse_transactions(report: &str) -> Option<u64> {
    report
        .lines()
        .find_map(|line| {
            line.trim()
                .strip_prefix("number of transactions actually processed: ")
        })
        .and_then(|rest| rest.split(['/', ' ']).next())
        .and_then(|n| n.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::{parse_tps, parse_transactions};

    #[test]
    fn reads_the_rate_from_a_report() {
        let report = "number of failed transactions: 0 (0.000%)\n\
                      latency average = 3.632 ms\n\
                      initial connection time = 20.417 ms\n\
                      tps = 4405.183622 (without initial connection time)\n";
        assert_eq!(parse_tps(report), Some(4405.183622));
        assert_eq!(parse_tps("pgbench: error: connection failed"), None);
    }

    #[test]
    fn reads_the_transactions_from_a_report() {
        let report = "duration: 5 s\n\
                      number of transactions actually processed: 2410\n\
                      number of failed transactions: 0 (0.000%)\n";
        assert_eq!(parse_transactions(report), Some(2410));
        assert_eq!(
            parse_transactions("number of transactions actually processed: 7/10\n"),
            Some(7)
        );
        assert_eq!(parse_transactions("pgbench: error"), None);
    }
}
