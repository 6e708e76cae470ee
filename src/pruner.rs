//! The pruner every process runs: what expired by the rules of
//! `retention` is deleted, batch after batch, old events are compacted and
//! games due are archived.

use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::db::{self, Pool};
use crate::games::archiving;
use crate::retention::{BATCH, BATCH_PAUSE, Retention, SESSION_RETENTION};

/// Rows deleted by one pass, per kind.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Pruned {
    pub idempotency_keys: i64,
    pub notifications: i64,
    pub deliveries: i64,
    pub sessions: i64,
    pub archived: i64,
    /// Events written before compaction, converted.
    pub compacted: i64,
}

/// Prunes everything that expired by `now`, batch after batch until no
/// batch is full, compacts old events, then archives the games due.
///
/// # Errors
/// Database errors (what was pruned before stays pruned).
pub async fn prune(
    pool: &Pool,
    retention: &Retention,
    now: DateTime<Utc>,
) -> Result<Pruned, String> {
    /// Runs `$step` (one batch of at most `$batch` rows, answering how many
    /// it did) until a batch is not full, pausing [`BATCH_PAUSE`] between
    /// batches to leave the database to commands; the rows done in all.
    macro_rules! drain {
        ($batch:expr, $step:expr) => {{
            let mut done = 0;
            loop {
                let n: i64 = $step?;
                done += n;
                if n < $batch {
                    break done;
                }
                tokio::time::sleep(BATCH_PAUSE).await;
            }
        }};
    }
    let sql = |e: diesel::result::Error| e.to_string();
    let mut pruned = {
        let mut conn = pool.get().await.map_err(|e| e.to_string())?;
        let conn = &mut conn;
        Pruned {
            idempotency_keys: drain!(
                BATCH,
                db::retention::idempotency_keys(conn, now - retention.idempotency, BATCH)
                    .await
                    .map_err(sql)
            ),
            notifications: drain!(
                BATCH,
                db::retention::notifications(conn, now - retention.notifications, BATCH)
                    .await
                    .map_err(sql)
            ),
            deliveries: drain!(
                BATCH,
                db::retention::deliveries(conn, now - retention.deliveries, BATCH)
                    .await
                    .map_err(sql)
            ),
            sessions: drain!(
                BATCH,
                db::retention::sessions(conn, now - SESSION_RETENTION, BATCH)
                    .await
                    .map_err(sql)
            ),
            compacted: drain!(
                BATCH,
                db::retention::compact_events(conn, BATCH)
                    .await
                    .map_err(sql)
            ),
            archived: 0,
        }
    };
    // Archiving takes its own connection (and the one above is back in the
    // pool, which may hold only one).
    pruned.archived = drain!(
        archiving::BATCH,
        archiving::archive_due(pool, now - retention.archive_after, now)
            .await
            .map(|n| i64::try_from(n).unwrap_or(i64::MAX))
            .map_err(|e| e.to_string())
    );
    Ok(pruned)
}

/// Prunes every `tick`, for as long as the process runs.
pub async fn prune_forever(pool: Pool, retention: Retention, tick: Duration) {
    let mut interval = tokio::time::interval(tick);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        interval.tick().await;
        match prune(&pool, &retention, crate::record::chain::now()).await {
            Ok(pruned) if pruned != Pruned::default() => tracing::info!(?pruned, "pruned"),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "pruning failed; trying again next tick"),
        }
    }
}
