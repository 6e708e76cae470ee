//! Webhooks and their deliveries (the webhook outbox).

use chrono::{DateTime, Utc};
use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Double, Int4, Nullable, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::notifications::NoteRow;

/// A registered webhook and how its deliveries are going.
#[derive(Debug, Serialize, Deserialize, ToSchema, QueryableByName)]
pub struct Webhook {
    #[diesel(sql_type = SqlUuid)]
    pub id: Uuid,
    #[diesel(sql_type = Text)]
    pub url: String,
    #[diesel(sql_type = Timestamptz)]
    pub created_at: DateTime<Utc>,
    /// Requests made, over all deliveries.
    #[diesel(sql_type = BigInt)]
    pub attempts: i64,
    /// Notifications delivered.
    #[diesel(sql_type = BigInt)]
    pub delivered: i64,
    /// Notifications not delivered yet whose last attempt failed (they will be retried).
    #[diesel(sql_type = BigInt)]
    pub failing: i64,
    /// Notifications given up after the last attempt.
    #[diesel(sql_type = BigInt)]
    pub failed: i64,
    /// Notifications waiting to be delivered (first attempt or retry).
    #[diesel(sql_type = BigInt)]
    pub pending: i64,
    /// The HTTP status of the latest attempt (null when no answer came).
    #[diesel(sql_type = Nullable<Int4>)]
    pub last_status: Option<i32>,
    /// What went wrong in the latest attempt, if it failed.
    #[diesel(sql_type = Nullable<Text>)]
    pub last_error: Option<String>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    pub last_attempt_at: Option<DateTime<Utc>>,
}

/// A new webhook.
pub struct NewRow<'a> {
    pub id: Uuid,
    pub user: Uuid,
    pub url: &'a str,
    pub secret: &'a str,
    pub at: DateTime<Utc>,
}

/// Inserts `row` unless its user has `max` webhooks already; whether it did.
/// The cap holds under concurrent registrations: the user's row is locked
/// first, so the count (a new statement, a new snapshot) sees every webhook
/// committed before this transaction got the lock.
///
/// # Errors
/// Database errors (a foreign key violation for an unknown user).
pub async fn insert_capped(
    conn: &mut AsyncPgConnection,
    row: NewRow<'_>,
    max: i64,
) -> diesel::QueryResult<bool> {
    #[derive(QueryableByName)]
    struct Inserted {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }
    let inserted: Inserted = conn
        .transaction::<_, diesel::result::Error, _>(async |conn| {
            diesel::sql_query("SELECT 1 FROM users WHERE id = $1 FOR UPDATE")
                .bind::<SqlUuid, _>(row.user)
                .execute(conn)
                .await?;
            diesel::sql_query(
                "WITH ins AS (
                    INSERT INTO webhooks (id, user_id, url, secret, created_at)
                    SELECT $1, $2, $3, $4, $5
                     WHERE (SELECT count(*) FROM webhooks WHERE user_id = $2) < $6
                    RETURNING 1)
                 SELECT count(*) AS n FROM ins",
            )
            .bind::<SqlUuid, _>(row.id)
            .bind::<SqlUuid, _>(row.user)
            .bind::<Text, _>(row.url)
            .bind::<Text, _>(row.secret)
            .bind::<Timestamptz, _>(row.at)
            .bind::<BigInt, _>(max)
            .get_result(conn)
            .await
        })
        .await?;
    Ok(inserted.n > 0)
}

const LIST: &str = "
SELECT w.id, w.url, w.created_at,
       COALESCE(sum(d.attempts), 0)::int8 AS attempts,
       count(d.id) FILTER (WHERE d.state = 'delivered') AS delivered,
       count(d.id) FILTER (WHERE d.state = 'pending' AND d.attempts > 0) AS failing,
       count(d.id) FILTER (WHERE d.state = 'failed') AS failed,
       count(d.id) FILTER (WHERE d.state = 'pending') AS pending,
       l.last_status, l.last_error, l.last_attempt_at
  FROM webhooks w
  LEFT JOIN webhook_deliveries d ON d.user_id = w.user_id AND d.webhook_id = w.id
  LEFT JOIN LATERAL (
        SELECT x.last_status, x.last_error, x.last_attempt_at
          FROM webhook_deliveries x
         WHERE x.user_id = w.user_id AND x.webhook_id = w.id AND x.last_attempt_at IS NOT NULL
         ORDER BY x.last_attempt_at DESC, x.id DESC
         LIMIT 1) l ON true
 WHERE w.user_id = $1
 GROUP BY w.id, l.last_status, l.last_error, l.last_attempt_at
 ORDER BY w.created_at, w.id";

/// The webhooks of `user` with their delivery state.
///
/// # Errors
/// Database errors.
pub async fn list(conn: &mut AsyncPgConnection, user: Uuid) -> diesel::QueryResult<Vec<Webhook>> {
    diesel::sql_query(LIST)
        .bind::<SqlUuid, _>(user)
        .load(conn)
        .await
}

/// Deletes webhook `id` of `user` (and its pending deliveries); whether there was one.
///
/// # Errors
/// Database errors.
pub async fn delete(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    user: Uuid,
) -> diesel::QueryResult<bool> {
    let deleted = diesel::sql_query("DELETE FROM webhooks WHERE id = $1 AND user_id = $2")
        .bind::<SqlUuid, _>(id)
        .bind::<SqlUuid, _>(user)
        .execute(conn)
        .await?;
    Ok(deleted > 0)
}

/// A delivery claimed: where to, and the notification it carries (a
/// delivery is keyed by its user, the notification's, and its id).
#[derive(QueryableByName)]
pub struct Claimed {
    #[diesel(sql_type = BigInt)]
    pub delivery_id: i64,
    #[diesel(sql_type = Int4)]
    pub attempts: i32,
    #[diesel(sql_type = Text)]
    pub url: String,
    #[diesel(sql_type = Text)]
    pub secret: String,
    #[diesel(embed)]
    pub note: NoteRow,
}

/// The due deliveries: a range of the partial index `webhook_deliveries_due`
/// (pending only), the earliest first.
pub(crate) const CLAIM: &str = "
UPDATE webhook_deliveries d
   SET attempts = d.attempts + 1, last_attempt_at = now(),
       next_attempt_at = now() + make_interval(secs => $1)
  FROM webhooks w, notifications n
 WHERE (d.user_id, d.id) IN (SELECT user_id, id FROM webhook_deliveries
                              WHERE state = 'pending' AND next_attempt_at <= now()
                              ORDER BY next_attempt_at
                              LIMIT 16
                                FOR UPDATE SKIP LOCKED)
   AND w.id = d.webhook_id AND n.user_id = d.user_id AND n.id = d.notification_id
RETURNING d.id AS delivery_id, d.attempts, w.url, w.secret, n.id, n.user_id, n.game_id,
          n.kind, n.payload, n.created_at";

const DELIVERED: &str = "
UPDATE webhook_deliveries
   SET state = 'delivered', delivered_at = now(), last_status = $3, last_error = NULL
 WHERE user_id = $1 AND id = $2";

const FAILED: &str = "
UPDATE webhook_deliveries
   SET last_status = $3, last_error = $4,
       state = CASE WHEN attempts >= $5 THEN 'failed' ELSE 'pending' END,
       next_attempt_at = now() + make_interval(secs => $6)
 WHERE user_id = $1 AND id = $2";

/// Claims up to 16 due deliveries, leasing them for `lease_secs`.
///
/// # Errors
/// Database errors.
pub async fn claim_due(
    conn: &mut AsyncPgConnection,
    lease_secs: f64,
) -> diesel::QueryResult<Vec<Claimed>> {
    diesel::sql_query(CLAIM)
        .bind::<Double, _>(lease_secs)
        .load(conn)
        .await
}

/// Records `delivery` as delivered with `status`.
///
/// # Errors
/// Database errors.
pub async fn delivered(
    conn: &mut AsyncPgConnection,
    delivery: &Claimed,
    status: i32,
) -> diesel::QueryResult<()> {
    diesel::sql_query(DELIVERED)
        .bind::<SqlUuid, _>(delivery.note.user_id)
        .bind::<BigInt, _>(delivery.delivery_id)
        .bind::<Int4, _>(status)
        .execute(conn)
        .await?;
    Ok(())
}

/// Records a failed attempt of `delivery`: retried after `retry_secs`, or
/// `failed` once it has had `max_attempts`.
///
/// # Errors
/// Database errors.
pub async fn failed(
    conn: &mut AsyncPgConnection,
    delivery: &Claimed,
    status: Option<i32>,
    error: &str,
    max_attempts: i32,
    retry_secs: f64,
) -> diesel::QueryResult<()> {
    diesel::sql_query(FAILED)
        .bind::<SqlUuid, _>(delivery.note.user_id)
        .bind::<BigInt, _>(delivery.delivery_id)
        .bind::<Nullable<Int4>, _>(status)
        .bind::<Text, _>(error)
        .bind::<Int4, _>(max_attempts)
        .bind::<Double, _>(retry_secs)
        .execute(conn)
        .await?;
    Ok(())
}

/// Pending deliveries only, through their partial index
/// (`webhook_deliveries_due`): the cost follows the backlog, not the table.
const BACKLOG: &str = "SELECT count(*) AS pending,
       coalesce(greatest(extract(epoch FROM now() - min(next_attempt_at)), 0), 0)::float8
           AS oldest_due_seconds
  FROM webhook_deliveries WHERE state = 'pending'";

/// Counts the outbox's pending deliveries.
///
/// # Errors
/// Database errors.
pub async fn backlog(conn: &mut AsyncPgConnection) -> diesel::QueryResult<super::backlog::Backlog> {
    diesel::sql_query(BACKLOG).get_result(conn).await
}
