//! Finding a PostgreSQL server to use, in this order:
//!
//! 1. the URL given in configuration (`DATABASE_URL`);
//! 2. a server listening on 127.0.0.1:5432 (user `$PGUSER`, else `postgres`);
//! 3. a private server started from the installed PostgreSQL binaries
//!    (`initdb`/`pg_ctl` on `PATH`, else the newest `/usr/lib/postgresql/*/bin`),
//!    with its data in the project's data folder, on a free port; it keeps
//!    running for the next start, which reuses it.
//!
//! If none of these works, the error names the three ways out.
//! The database named in the URL is created when it does not exist.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};

/// Where the server found its database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The configured URL.
    Configured,
    /// The server on 127.0.0.1:5432.
    Local,
    /// A private server from the installed binaries, with its data folder.
    Private { pgdata: PathBuf, port: u16 },
}

/// The default local server's address.
pub const LOCAL_ADDRESS: &str = "127.0.0.1:5432";

/// A PostgreSQL URL for database `database`: the configured one if any,
/// else the local server, else a private one (started if needed).
///
/// # Errors
/// A message naming the three ways out when no server can be found or started.
pub async fn locate(
    configured: Option<&str>,
    data_dir: &Path,
    database: &str,
) -> Result<(String, Origin), String> {
    locate_at(configured, LOCAL_ADDRESS, data_dir, database).await
}

/// [`locate`], probing `local_address` instead of the default local server.
///
/// # Errors
/// As [`locate`].
pub async fn locate_at(
    configured: Option<&str>,
    local_address: &str,
    data_dir: &Path,
    database: &str,
) -> Result<(String, Origin), String> {
    if let Some(url) = configured.filter(|u| !u.trim().is_empty()) {
        return Ok((url.to_owned(), Origin::Configured));
    }
    let user = std::env::var("PGUSER").unwrap_or_else(|_| "postgres".to_owned());
    if listens(local_address).await {
        return Ok((
            format!("postgres://{user}@{local_address}/{database}"),
            Origin::Local,
        ));
    }
    let data_dir = data_dir.to_owned();
    let started = tokio::task::spawn_blocking(move || start_private(&data_dir))
        .await
        .map_err(|e| e.to_string())?;
    match started {
        Ok((pgdata, port)) => Ok((
            format!("postgres://postgres@127.0.0.1:{port}/{database}"),
            Origin::Private { pgdata, port },
        )),
        Err(why) => Err(format!(
            "no PostgreSQL server found: nothing listens on {local_address} and a private one \
             could not be started ({why}). Either set DATABASE_URL to a PostgreSQL server, \
             install PostgreSQL (its initdb and pg_ctl are then found on PATH or under \
             /usr/lib/postgresql), or run `docker compose up` from the project folder."
        )),
    }
}

/// `url` with its database name replaced by `database`.
#[must_use]
pub fn with_database(url: &str, database: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let authority_start = base.find("://").map_or(0, |i| i + 3);
    let path_start = base[authority_start..]
        .find('/')
        .map_or(base.len(), |i| authority_start + i);
    let mut out = format!("{}/{database}", &base[..path_start]);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

/// The database name in `url`.
#[must_use]
pub fn database_name(url: &str) -> String {
    let base = url.split('?').next().unwrap_or(url);
    let authority_start = base.find("://").map_or(0, |i| i + 3);
    base[authority_start..]
        .split_once('/')
        .map(|(_, db)| db.to_owned())
        .unwrap_or_default()
}

/// Creates the database named in `url` if it does not exist yet.
///
/// # Errors
/// When the server cannot be reached or refuses.
pub async fn ensure_database(url: &str) -> Result<(), String> {
    match connect(url).await {
        Ok(_) => return Ok(()),
        Err(e) if e.contains("does not exist") => {}
        Err(e) => return Err(e),
    }
    let name = database_name(url);
    let mut admin = connect(&with_database(url, "postgres")).await?;
    let created = admin
        .batch_execute(&format!("CREATE DATABASE {}", quote_ident(&name)))
        .await;
    match created {
        Ok(()) => {
            tracing::info!(database = %name, "created the database");
            Ok(())
        }
        Err(e) if e.to_string().contains("already exists") => Ok(()),
        Err(e) => Err(format!("cannot create database {name}: {e}")),
    }
}

/// `name` as a quoted SQL identifier.
#[must_use]
pub fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// A connection to `url`, or why not (within 10 seconds).
///
/// # Errors
/// The connection error as text.
pub async fn connect(url: &str) -> Result<AsyncPgConnection, String> {
    match tokio::time::timeout(Duration::from_secs(10), AsyncPgConnection::establish(url)).await {
        Ok(Ok(conn)) => Ok(conn),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!(
            "no answer from the database within 10 s ({})",
            redact(url)
        )),
    }
}

/// `url` without its password, for logs.
#[must_use]
pub fn redact(url: &str) -> String {
    let Some(scheme_end) = url.find("://").map(|i| i + 3) else {
        return url.to_owned();
    };
    let rest = &url[scheme_end..];
    match (rest.find('@'), rest.find(':')) {
        (Some(at), Some(colon)) if colon < at => {
            format!(
                "{}{}:***{}",
                &url[..scheme_end],
                &rest[..colon],
                &rest[at..]
            )
        }
        _ => url.to_owned(),
    }
}

async fn listens(address: &str) -> bool {
    matches!(
        tokio::time::timeout(
            Duration::from_secs(2),
            tokio::net::TcpStream::connect(address)
        )
        .await,
        Ok(Ok(_))
    )
}

fn listens_blocking(port: u16) -> bool {
    let address = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    std::net::TcpStream::connect_timeout(&address, Duration::from_secs(2)).is_ok()
}

/// The `initdb` and `pg_ctl` to use.
fn binaries() -> Result<(PathBuf, PathBuf), String> {
    let on_path = |name: &str| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(name))
                .find(|candidate| candidate.is_file())
        })
    };
    if let (Some(initdb), Some(pg_ctl)) = (on_path("initdb"), on_path("pg_ctl")) {
        return Ok((initdb, pg_ctl));
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .map_err(|_| "initdb and pg_ctl are not installed".to_owned())?
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").is_file().then_some((version, bin))
        })
        .collect();
    versions.sort();
    let (_, bin) = versions
        .pop()
        .ok_or_else(|| "initdb and pg_ctl are not installed".to_owned())?;
    Ok((bin.join("initdb"), bin.join("pg_ctl")))
}

/// PostgreSQL refuses to run as root; as root, its programs run as the
/// `postgres` system user, which must own the data folder.
fn postgres_account() -> Result<Option<(u32, u32)>, String> {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let is_root = status
        .lines()
        .find(|l| l.starts_with("Uid:"))
        .and_then(|l| l.split_whitespace().nth(2))
        == Some("0");
    if !is_root {
        return Ok(None);
    }
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    passwd
        .lines()
        .map(|l| l.split(':').collect::<Vec<_>>())
        .find(|f| f.first() == Some(&"postgres") && f.len() > 3)
        .and_then(|f| Some((f[2].parse().ok()?, f[3].parse().ok()?)))
        .map(Some)
        .ok_or_else(|| {
            "running as root needs a 'postgres' system user to run PostgreSQL".to_owned()
        })
}

fn run(program: &Path, args: &[&str], as_postgres: bool) -> Result<(), String> {
    let mut command = if as_postgres {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    };
    let output = command
        .args(args)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{} failed: {}",
            program.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    }
}

fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind(("127.0.0.1", 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("no free port: {e}"))
}

/// The port of a private server already running on `pgdata`, if any.
fn running_port(pgdata: &Path) -> Option<u16> {
    let pid_file = std::fs::read_to_string(pgdata.join("postmaster.pid")).ok()?;
    let port = pid_file.lines().nth(3)?.trim().parse().ok()?;
    listens_blocking(port).then_some(port)
}

/// Starts (or finds running) the private server of `data_dir`; returns its
/// data folder and port.
fn start_private(data_dir: &Path) -> Result<(PathBuf, u16), String> {
    std::fs::create_dir_all(data_dir)
        .map_err(|e| format!("cannot create {}: {e}", data_dir.display()))?;
    let data_dir = data_dir
        .canonicalize()
        .map_err(|e| format!("cannot resolve {}: {e}", data_dir.display()))?;
    let pgdata = data_dir.join("pgdata");
    if let Some(port) = running_port(&pgdata) {
        tracing::info!(port, pgdata = %pgdata.display(), "using the private PostgreSQL server already running");
        return Ok((pgdata, port));
    }
    let (initdb, pg_ctl) = binaries()?;
    let account = postgres_account()?;
    let as_postgres = account.is_some();
    let pgdata_str = pgdata.to_string_lossy().into_owned();
    if !pgdata.join("PG_VERSION").is_file() {
        std::fs::create_dir_all(&pgdata).map_err(|e| e.to_string())?;
        if let Some((uid, gid)) = account {
            std::os::unix::fs::chown(&pgdata, Some(uid), Some(gid)).map_err(|e| e.to_string())?;
        }
        tracing::info!(pgdata = %pgdata.display(), "initialising a private PostgreSQL data folder");
        run(
            &initdb,
            &[
                "-D",
                &pgdata_str,
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-instructions",
            ],
            as_postgres,
        )?;
    }
    let port = free_port()?;
    let log = pgdata.join("server.log");
    let options = format!(
        "-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_connections=200"
    );
    run(
        &pg_ctl,
        &[
            "-D",
            &pgdata_str,
            "-l",
            &log.to_string_lossy(),
            "-w",
            "-t",
            "60",
            "-o",
            &options,
            "start",
        ],
        as_postgres,
    )?;
    tracing::warn!(
        port,
        pgdata = %pgdata.display(),
        "no PostgreSQL on {LOCAL_ADDRESS}: started a private server (stop it with `pg_ctl -D {} stop`)",
        pgdata.display()
    );
    Ok((pgdata, port))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_names_are_replaced_in_urls() {
        assert_eq!(
            with_database("postgres://u:p@h:5432/app?sslmode=disable", "other"),
            "postgres://u:p@h:5432/other?sslmode=disable"
        );
        assert_eq!(with_database("postgres://h", "x"), "postgres://h/x");
        assert_eq!(database_name("postgres://u@h:1/hatstand?x=1"), "hatstand");
    }

    #[test]
    fn passwords_are_hidden_in_logged_urls() {
        assert_eq!(redact("postgres://u:secret@h/db"), "postgres://u:***@h/db");
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
    }

    #[test]
    fn identifiers_are_quoted() {
        assert_eq!(quote_ident("a\"b"), "\"a\"\"b\"");
    }
}
