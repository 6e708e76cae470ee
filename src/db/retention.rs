//! Pruning what has expired, and compacting old events, one small batch a
//! statement.
//!
//! Each statement picks at most `batch` expired rows with `FOR UPDATE SKIP
//! LOCKED` and deletes them: rows another process is pruning (or a command
//! is using) are skipped, not waited for, so pruning never blocks the
//! command path and any number of processes may prune at once.

use chrono::{DateTime, Utc};
use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Timestamptz};
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use super::schema::pruned;

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// What expires, each kind deleted by its own statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expiring {
    /// Idempotency keys stored before the cut-off.
    IdempotencyKeys,
    /// Notifications written before the cut-off, with their webhook deliveries;
    /// the `notifications` mark rises to the highest id deleted.
    Notifications,
    /// Webhook deliveries that ended (delivered or failed) before the cut-off.
    Deliveries,
    /// Sessions that expired or were signed out before the cut-off.
    Sessions,
}

impl Expiring {
    /// Every kind, in the order the pruner deletes them.
    pub const ALL: [Expiring; 4] = [
        Expiring::IdempotencyKeys,
        Expiring::Notifications,
        Expiring::Deliveries,
        Expiring::Sessions,
    ];

    pub(crate) fn statement(self) -> &'static str {
        match self {
            Expiring::IdempotencyKeys => DELETE_IDEMPOTENCY_KEYS,
            Expiring::Notifications => DELETE_NOTIFICATIONS,
            Expiring::Deliveries => DELETE_DELIVERIES,
            Expiring::Sessions => DELETE_SESSIONS,
        }
    }
}

const DELETE_IDEMPOTENCY_KEYS: &str = "WITH doomed AS (
             SELECT game_id, user_id, key FROM idempotency_keys
              WHERE created_at < $1 ORDER BY created_at LIMIT $2
                FOR UPDATE SKIP LOCKED),
         gone AS (
             DELETE FROM idempotency_keys k USING doomed
              WHERE k.game_id = doomed.game_id AND k.user_id = doomed.user_id
                AND k.key = doomed.key
             RETURNING 1)
         SELECT count(*) AS n FROM gone";

const DELETE_NOTIFICATIONS: &str = "WITH doomed AS (
             SELECT user_id, id FROM notifications
              WHERE created_at < $1 ORDER BY created_at LIMIT $2
                FOR UPDATE SKIP LOCKED),
         deliveries AS (
             DELETE FROM webhook_deliveries d USING doomed
              WHERE d.user_id = doomed.user_id AND d.notification_id = doomed.id),
         gone AS (
             DELETE FROM notifications n USING doomed
              WHERE n.user_id = doomed.user_id AND n.id = doomed.id
             RETURNING n.id),
         marked AS (
             UPDATE pruned SET upto = greatest(upto, (SELECT max(id) FROM gone))
              WHERE what = 'notifications' AND EXISTS (SELECT 1 FROM gone))
         SELECT count(*) AS n FROM gone";

/// Finished webhook deliveries (counted) and, with them, finished mails
/// and pushes.
const DELETE_DELIVERIES: &str = "WITH doomed AS (
             SELECT user_id, id FROM webhook_deliveries
              WHERE state <> 'pending' AND coalesce(delivered_at, last_attempt_at) < $1
              LIMIT $2
                FOR UPDATE SKIP LOCKED),
         mails AS (
             DELETE FROM mail_outbox m
              USING (SELECT user_id, id FROM mail_outbox
                      WHERE state <> 'pending' AND coalesce(sent_at, created_at) < $1
                      LIMIT $2
                        FOR UPDATE SKIP LOCKED) old
              WHERE m.user_id = old.user_id AND m.id = old.id),
         pushes AS (
             DELETE FROM push_outbox p
              USING (SELECT user_id, id FROM push_outbox
                      WHERE state <> 'pending' AND coalesce(sent_at, created_at) < $1
                      LIMIT $2
                        FOR UPDATE SKIP LOCKED) old
              WHERE p.user_id = old.user_id AND p.id = old.id),
         gone AS (
             DELETE FROM webhook_deliveries d USING doomed
              WHERE d.user_id = doomed.user_id AND d.id = doomed.id
             RETURNING 1)
         SELECT count(*) AS n FROM gone";

const DELETE_SESSIONS: &str = "WITH doomed AS (
             SELECT id FROM sessions WHERE expires_at < $1
             UNION
             SELECT id FROM sessions WHERE revoked_at < $1
             LIMIT $2),
         locked AS (
             SELECT s.id FROM sessions s JOIN doomed USING (id)
                FOR UPDATE OF s SKIP LOCKED),
         gone AS (
             DELETE FROM sessions s USING locked
              WHERE s.id = locked.id
             RETURNING 1)
         SELECT count(*) AS n FROM gone";

/// Deletes up to `batch` rows of `what` that expired before `before`;
/// answers how many.
///
/// # Errors
/// Database errors.
pub async fn delete_expired(
    conn: &mut AsyncPgConnection,
    what: Expiring,
    before: DateTime<Utc>,
    batch: i64,
) -> diesel::QueryResult<i64> {
    let counted: Count = diesel::sql_query(what.statement())
        .bind::<Timestamptz, _>(before)
        .bind::<BigInt, _>(batch)
        .get_result(conn)
        .await?;
    Ok(counted.n)
}

/// Converts up to `batch` events written before events were compacted (hex
/// hashes, a stored `prev_hash`) to the compact form (see `event_store.rs`),
/// skipping rows others hold; returns how many. The database refuses any row
/// whose `prev_hash` is not its previous event's hash: such a row stays as
/// written, for `verify` to find.
///
/// # Errors
/// Database errors.
pub async fn compact_events(conn: &mut AsyncPgConnection, batch: i64) -> diesel::QueryResult<i64> {
    let counted: Count = diesel::sql_query(COMPACT)
        .bind::<BigInt, _>(batch)
        .get_result(conn)
        .await?;
    Ok(counted.n)
}

/// Events still in the old form: the partial index `events_to_compact`.
pub(crate) const COMPACT: &str = "WITH doomed AS (
             SELECT e.game_id, e.seq FROM events e
              WHERE e.digest IS NULL
                AND e.prev_hash = coalesce(
                        (SELECT coalesce(encode(p.digest, 'hex'), p.hash) FROM events p
                          WHERE p.game_id = e.game_id AND p.seq = e.seq - 1),
                        repeat('0', 64))
              ORDER BY e.game_id, e.seq LIMIT $1
                FOR UPDATE SKIP LOCKED),
         done AS (
             UPDATE events e SET digest = decode(e.hash, 'hex'), hash = NULL, prev_hash = NULL
               FROM doomed d
              WHERE e.game_id = d.game_id AND e.seq = d.seq
             RETURNING 1)
         SELECT count(*) AS n FROM done";

/// The highest notification id pruned so far (0: none).
///
/// # Errors
/// Database errors.
pub async fn notifications_pruned_upto(conn: &mut AsyncPgConnection) -> diesel::QueryResult<i64> {
    use diesel::{ExpressionMethods, OptionalExtension, QueryDsl};
    pruned::table
        .filter(pruned::what.eq("notifications"))
        .select(pruned::upto)
        .first(conn)
        .await
        .optional()
        .map(Option::unwrap_or_default)
}
