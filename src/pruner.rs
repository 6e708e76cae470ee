//! The pruner every process runs: what expired by the rules of
//! `retention` is deleted, batch after batch, old events are compacted and
//! games due are archived.

use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::db::retention::Expiring;
use crate::db::{self, Pool};
use crate::games::archive_old;
use crate::retention::{BATCH, BATCH_PAUSE, Retention};

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
    /// Limit counters idle for a day and sign-in addresses gone stale.
    pub limits: i64,
}

impl Pruned {
    /// The count of one kind of expiring row.
    fn of(&mut self, what: Expiring) -> &mut i64 {
        match what {
            Expiring::IdempotencyKeys => &mut self.idempotency_keys,
            Expiring::Notifications => &mut self.notifications,
            Expiring::Deliveries => &mut self.deliveries,
            Expiring::Sessions => &mut self.sessions,
        }
    }
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
    let sql = |e: db::QueryError| e.to_string();
    let mut pruned = Pruned::default();
    {
        let mut conn = pool.get().await.map_err(|e| e.to_string())?;
        let conn = &mut conn;
        for what in Expiring::ALL {
            let before = now - retention.kept(what);
            let deleted = drain!(
                BATCH,
                db::retention::delete_expired(conn, what, before, BATCH)
                    .await
                    .map_err(sql)
            );
            *pruned.of(what) = deleted;
        }
        // The longest window of a limit is a day (see `docs/limits.md`).
        pruned.limits = i64::try_from(
            db::throttle::prune(
                conn,
                chrono::TimeDelta::days(1),
                chrono::TimeDelta::days(crate::mail::token::REPLY_TTL_DAYS),
                now,
            )
            .await
            .map_err(sql)?,
        )
        .unwrap_or(i64::MAX);
        pruned.compacted = drain!(
            BATCH,
            db::retention::compact_events(conn, BATCH)
                .await
                .map_err(sql)
        );
    }
    // Archiving takes its own connection (and the one above is back in the
    // pool, which may hold only one).
    pruned.archived = drain!(
        archive_old::BATCH,
        archive_old::archive_due(pool, now - retention.archive_after, now)
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
