//! PostgreSQL: finding or starting a server, the connection pool, the
//! embedded migrations, and the event store.

pub mod archive;
pub mod backlog;
pub mod bench_fixtures;
pub mod blocks;
pub mod bots;
pub mod conditional;
pub mod errors;
pub mod event_store;
pub mod games;
pub mod invitations;
pub mod json_text;
pub mod listen;
pub mod locate;
pub mod mail;
pub mod notification_preferences;
pub mod notifications;
pub mod plans;
pub mod pools;
pub mod prepared;
pub mod push;
pub mod ratings;
pub mod reliability;
pub mod rematches;
pub mod retention;
pub mod schema;
pub mod seat_holds;
pub mod secrets;
pub mod sessions;
pub mod storage;
pub mod substitutes;
pub mod talk;
pub mod throttle;
pub mod tournaments;
pub mod transparency;
pub mod user_settings;
pub mod users;
pub mod vacation;
pub mod webhooks;

use diesel_async::AsyncPgConnection;
use diesel_async::async_connection_wrapper::AsyncConnectionWrapper;
use diesel_async::pooled_connection::deadpool;
use diesel_async::pooled_connection::{
    AsyncDieselConnectionManager, ManagerConfig, RecyclingMethod,
};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

/// The connection pool.
pub type Pool = deadpool::Pool<AsyncPgConnection>;

/// A connection taken from the pool; use cases hold one across the
/// statements of a transaction (`AsyncConnection::transaction`).
pub type Conn = AsyncPgConnection;

/// A statement's outcome: what use cases and workers hold of the store's
/// errors without naming the driver.
pub type QueryResult<T> = diesel::QueryResult<T>;

/// A statement's failure (see [`QueryResult`]).
pub type QueryError = diesel::result::Error;

/// The SQL migrations of `migrations/`, compiled into the binary.
pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations");

/// A pool of at most `size` connections to `url`.
///
/// A connection handed back is reused without a test query (`Fast`
/// recycling): a `SELECT 1` on every checkout was a third round trip on the
/// command path. A connection that broke is dropped when it is handed back
/// or next taken; a request that meets it answers 503 `unavailable`, and the
/// next one gets a fresh connection. After a failover (a connection lost,
/// or a write refused as read-only: the node became a standby) every
/// connection opened before it is dropped when next taken (see
/// [`forget_connections`]), so none still points at the old primary.
///
/// # Errors
/// Only for an invalid pool configuration.
pub fn pool(url: &str, size: usize) -> Result<Pool, String> {
    pool_with(url, size, &Limits::default())
}

/// How long the server waits on the database before it answers 503.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The wait for a connection from the pool (or for a new one).
    pub acquire: std::time::Duration,
    /// PostgreSQL's `statement_timeout` on every pooled connection (zero: none).
    pub statement: std::time::Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            acquire: std::time::Duration::from_secs(2),
            statement: std::time::Duration::from_secs(5),
        }
    }
}

/// `url` with PostgreSQL's `statement_timeout` set for every session (as a
/// startup option, so it costs no round trip).
fn with_statement_timeout(url: &str, timeout: std::time::Duration) -> String {
    if timeout.is_zero() {
        return url.to_owned();
    }
    let separator = if url.contains('?') { '&' } else { '?' };
    format!(
        "{url}{separator}options=-c%20statement_timeout%3D{}",
        timeout.as_millis()
    )
}

/// A pool of at most `size` connections to `url`, within `limits`.
///
/// # Errors
/// Only for an invalid pool configuration.
pub fn pool_with(url: &str, size: usize, limits: &Limits) -> Result<Pool, String> {
    let mut config = ManagerConfig::default();
    config.recycling_method = RecyclingMethod::Fast;
    let url = with_statement_timeout(url, limits.statement);
    let manager = AsyncDieselConnectionManager::<AsyncPgConnection>::new_with_config(url, config);
    deadpool::Pool::builder(manager)
        .pre_recycle(::deadpool::managed::Hook::sync_fn(|_, metrics| {
            if opened_before_failover(metrics.created) {
                Err(::deadpool::managed::HookError::Message(
                    "opened before a failover".into(),
                ))
            } else {
                Ok(())
            }
        }))
        .max_size(size)
        .wait_timeout(Some(limits.acquire))
        .create_timeout(Some(limits.acquire))
        .runtime(::deadpool::Runtime::Tokio1)
        .build()
        .map_err(|e| e.to_string())
}

/// When the last failover was seen: connections opened before it are not
/// reused. One mark for the process (a server has one pool; other pools
/// only open fresh connections a little sooner).
static FAILED_OVER_AT: std::sync::RwLock<Option<std::time::Instant>> = std::sync::RwLock::new(None);

/// Marks every connection opened until now as stale: the database they
/// reach failed, or is no longer the primary. Each is dropped when next
/// taken from its pool, instead of failing one request after another.
pub fn forget_connections() {
    let now = std::time::Instant::now();
    *FAILED_OVER_AT
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(now);
}

/// Whether a connection opened at `created` predates the last failover seen.
fn opened_before_failover(created: std::time::Instant) -> bool {
    FAILED_OVER_AT
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .is_some_and(|at| created <= at)
}

/// Runs the pending migrations on `url`. Several processes starting at once
/// take turns (a session advisory lock), so each migration runs once. A
/// migration that builds or drops an index does it `CONCURRENTLY`, outside a
/// transaction (its `metadata.toml`: `run_in_transaction = false`), one
/// statement to a migration; an index such a build left invalid is rebuilt
/// before the lock is released. Then warns (in the log) about maintenance
/// settings the server needs ([`maintenance_warnings`]).
///
/// # Errors
/// When the database cannot be reached or a migration fails.
pub async fn migrate(url: &str) -> Result<(), String> {
    use diesel::Connection;
    use diesel::RunQueryDsl;
    let owned = url.to_owned();
    tokio::task::spawn_blocking(move || {
        let mut conn = AsyncConnectionWrapper::<AsyncPgConnection>::establish(&owned)
            .map_err(|e| format!("cannot connect to run migrations: {e}"))?;
        diesel::sql_query("SELECT pg_advisory_lock(727365)")
            .execute(&mut conn)
            .map_err(|e| e.to_string())?;
        let ran = conn
            .run_pending_migrations(MIGRATIONS)
            .map(|done| done.len())
            .map_err(|e| format!("migration failed: {e}"))
            .and_then(|ran| rebuild_invalid_indexes(&mut conn).map(|()| ran));
        diesel::sql_query("SELECT pg_advisory_unlock(727365)")
            .execute(&mut conn)
            .map_err(|e| e.to_string())?;
        let ran = ran?;
        if ran > 0 {
            tracing::info!(migrations = ran, "database migrated");
        }
        Ok::<(), String>(())
    })
    .await
    .map_err(|e| e.to_string())??;
    warn_about_maintenance(url).await;
    Ok(())
}

/// Rebuilds, concurrently, every index of the schema that a concurrent build
/// left invalid (a migration building one was interrupted: PostgreSQL keeps
/// the half-built index, and the migration's `IF NOT EXISTS` would take it
/// for done on the next run). Runs under the migrations' advisory lock, so
/// no other process of the server is building one meanwhile.
fn rebuild_invalid_indexes(
    conn: &mut AsyncConnectionWrapper<AsyncPgConnection>,
) -> Result<(), String> {
    use diesel::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct Invalid {
        #[diesel(sql_type = diesel::sql_types::Text)]
        name: String,
    }
    let invalid: Vec<Invalid> = diesel::sql_query(
        "SELECT quote_ident(c.relname) AS name
           FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE NOT i.indisvalid AND c.relnamespace = current_schema()::regnamespace",
    )
    .load(conn)
    .map_err(|e| e.to_string())?;
    for index in invalid {
        tracing::warn!(index = %index.name, "rebuilding an index an interrupted build left invalid");
        diesel::sql_query(format!("REINDEX INDEX CONCURRENTLY {}", index.name))
            .execute(conn)
            .map_err(|e| format!("cannot rebuild index {}: {e}", index.name))?;
    }
    Ok(())
}

/// What the database's settings leave undone that a server whose tables
/// only grow needs: autovacuum off (for the server, or for one of its
/// tables), or the statistics it runs on (`track_counts`) off. Without it
/// dead row versions pile up in the hot tables (games, seats, outboxes)
/// and the planner's statistics go stale, until the indexes that keep
/// every request's cost flat are no longer chosen. Empty when all is well.
///
/// # Errors
/// Database errors.
pub async fn maintenance_warnings(
    conn: &mut AsyncPgConnection,
) -> diesel::QueryResult<Vec<String>> {
    use diesel::sql_types::{Array, Bool, Text};
    use diesel_async::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct Found {
        #[diesel(sql_type = Bool)]
        autovacuum: bool,
        #[diesel(sql_type = Bool)]
        track_counts: bool,
        #[diesel(sql_type = Array<Text>)]
        tables_off: Vec<String>,
    }
    let found: Found = prepared::Prepared(diesel::sql_query(
        "SELECT current_setting('autovacuum')::bool AS autovacuum,
                current_setting('track_counts')::bool AS track_counts,
                ARRAY(SELECT c.relname::text FROM pg_class c
                       WHERE c.relnamespace = current_schema()::regnamespace
                         AND c.reloptions @> ARRAY['autovacuum_enabled=false']
                       ORDER BY 1) AS tables_off",
    ))
    .get_result(conn)
    .await?;
    let mut warnings = Vec::new();
    if !found.autovacuum {
        warnings.push(
            "autovacuum is off: dead rows pile up and statistics go stale in tables that only \
             grow; set autovacuum = on"
                .to_owned(),
        );
    }
    if !found.track_counts {
        warnings.push(
            "track_counts is off: autovacuum cannot tell which tables need it; set track_counts = on"
                .to_owned(),
        );
    }
    if !found.tables_off.is_empty() {
        warnings.push(format!(
            "autovacuum is off for {}: ALTER TABLE … RESET (autovacuum_enabled)",
            found.tables_off.join(", ")
        ));
    }
    Ok(warnings)
}

/// Logs a warning for each of [`maintenance_warnings`] (once, at start).
pub async fn warn_about_maintenance(url: &str) {
    use diesel_async::AsyncConnection;
    let found = match AsyncPgConnection::establish(url).await {
        Ok(mut conn) => maintenance_warnings(&mut conn).await,
        Err(e) => Err(diesel::result::Error::QueryBuilderError(Box::new(e))),
    };
    match found {
        Ok(warnings) => {
            for warning in warnings {
                tracing::warn!("{warning}");
            }
        }
        Err(e) => tracing::warn!(error = %e, "cannot read the database's maintenance settings"),
    }
}

/// Whether the database answers a trivial statement.
///
/// # Errors
/// What went wrong, as text.
pub async fn ping(pool: &Pool) -> Result<(), String> {
    use diesel_async::SimpleAsyncConnection;
    let mut conn = pool.get().await.map_err(|e| e.to_string())?;
    conn.batch_execute("SELECT 1")
        .await
        .map_err(|e| e.to_string())
}
