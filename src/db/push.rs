//! Push registrations (Web Push subscriptions and the device tokens of the
//! native app channels, FCM and APNs) and the push outbox.

use chrono::{DateTime, Utc};
use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Double, Int4, Nullable, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

/// The push outbox's CTE (see `db::notifications::OUTBOXES`): for every new
/// notification of a kind that is pushed and that the user has not left
/// out of `push` in their notification preferences, one row per
/// registration of its user, and for a `your_turn` with a deadline also a
/// `reminder`, first due the user's chosen lead before the deadline, else
/// when a quarter of the turn's time is left (`hatstand_reminder_due`, as
/// the mail reminder is).
pub const OUTBOX: &str =
    "INSERT INTO push_outbox (user_id, subscription_id, notification_id, kind, game_id,
                             version, ruleset, not_before, next_attempt_at)
    SELECT n.user_id, s.id, n.id, k.kind, n.game_id, (n.payload ->> 'version')::int8,
           n.payload ->> 'ruleset', k.due, k.due
      FROM noted n
      JOIN push_subscriptions s ON s.user_id = n.user_id
      LEFT JOIN notification_preferences p ON p.user_id = n.user_id
      CROSS JOIN LATERAL (
            VALUES (n.kind, n.created_at),
                   ('reminder',
                    CASE WHEN n.kind = 'your_turn'
                         THEN hatstand_reminder_due((n.payload ->> 'deadline')::timestamptz,
                                                    n.created_at, p.reminder_before_minutes)
                    END)) k(kind, due)
     WHERE k.kind IN ('your_turn', 'reminder', 'invited', 'game_finished', 'talk',
                      'takeback_offered', 'seat_substituted', 'tournament_round',
                      'tournament_finished')
       AND k.due IS NOT NULL
       AND NOT (k.kind = ANY (COALESCE(p.push_off, '{}')))
    RETURNING notification_id";

/// A device's push registration.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, QueryableByName)]
pub struct PushSubscription {
    #[diesel(sql_type = SqlUuid)]
    pub id: Uuid,
    /// `web` (Web Push), `fcm` (Firebase Cloud Messaging) or `apns` (Apple).
    #[diesel(sql_type = Text)]
    #[schema(example = "web")]
    pub channel: String,
    /// The push service's URL for this device (`web`; else null).
    #[diesel(sql_type = Nullable<Text>)]
    #[schema(example = "https://fcm.googleapis.com/fcm/send/dX3c0Yk2u8Q:APA91bH")]
    pub endpoint: Option<String>,
    /// The device token (`fcm`, `apns`; else null).
    #[diesel(sql_type = Nullable<Text>)]
    #[schema(example = json!(null))]
    pub token: Option<String>,
    #[diesel(sql_type = Timestamptz)]
    pub created_at: DateTime<Utc>,
}

/// A registration to store.
pub struct NewSubscription<'a> {
    pub id: Uuid,
    pub user: Uuid,
    /// `web`, `fcm` or `apns`.
    pub channel: &'a str,
    /// The endpoint (`web`) or the device token (`fcm`, `apns`).
    pub endpoint: &'a str,
    /// The keys, for `web` only.
    pub p256dh: Option<&'a str>,
    pub auth: Option<&'a str>,
    pub at: DateTime<Utc>,
}

/// The columns of [`PushSubscription`], from `push_subscriptions` (or a
/// CTE returning its columns).
const COLUMNS: &str = "id, channel, CASE WHEN channel = 'web' THEN endpoint END AS endpoint,
       CASE WHEN channel <> 'web' THEN endpoint END AS token, created_at";

/// What [`insert_capped`] did.
pub enum Stored {
    /// A new subscription.
    Created(PushSubscription),
    /// The endpoint was the user's already: its keys are replaced.
    Renewed(PushSubscription),
    /// The user has `max` subscriptions already; nothing is stored.
    Full,
}

/// Stores `row`: a known endpoint of the user gets the new keys; a new one
/// is inserted unless the user has `max` already. The cap holds under
/// concurrent requests: the user's row is locked first.
///
/// # Errors
/// Database errors (a foreign key violation for an unknown user).
pub async fn insert_capped(
    conn: &mut AsyncPgConnection,
    row: NewSubscription<'_>,
    max: i64,
) -> diesel::QueryResult<Stored> {
    #[derive(QueryableByName)]
    struct Row {
        #[diesel(embed)]
        sub: PushSubscription,
        #[diesel(sql_type = diesel::sql_types::Bool)]
        renewed: bool,
    }
    let stored: Option<Row> = conn
        .transaction::<_, diesel::result::Error, _>(async |conn| {
            diesel::sql_query("SELECT 1 FROM users WHERE id = $1 FOR UPDATE")
                .bind::<SqlUuid, _>(row.user)
                .execute(conn)
                .await?;
            let mut rows: Vec<Row> = diesel::sql_query(format!(
                "WITH renewed AS (
                    UPDATE push_subscriptions SET p256dh = $4, auth = $5, channel = $8
                     WHERE user_id = $2 AND endpoint = $3
                    RETURNING id, channel, endpoint, created_at),
                 created AS (
                    INSERT INTO push_subscriptions
                           (user_id, id, endpoint, p256dh, auth, created_at, channel)
                    SELECT $2, $1, $3, $4, $5, $6, $8
                     WHERE NOT EXISTS (SELECT 1 FROM renewed)
                       AND (SELECT count(*) FROM push_subscriptions WHERE user_id = $2) < $7
                    RETURNING id, channel, endpoint, created_at)
                 SELECT {COLUMNS}, true AS renewed FROM renewed
                 UNION ALL
                 SELECT {COLUMNS}, false AS renewed FROM created"
            ))
            .bind::<SqlUuid, _>(row.id)
            .bind::<SqlUuid, _>(row.user)
            .bind::<Text, _>(row.endpoint)
            .bind::<Nullable<Text>, _>(row.p256dh)
            .bind::<Nullable<Text>, _>(row.auth)
            .bind::<Timestamptz, _>(row.at)
            .bind::<BigInt, _>(max)
            .bind::<Text, _>(row.channel)
            .load(conn)
            .await?;
            Ok(rows.pop())
        })
        .await?;
    Ok(match stored {
        Some(Row { sub, renewed: true }) => Stored::Renewed(sub),
        Some(Row { sub, .. }) => Stored::Created(sub),
        None => Stored::Full,
    })
}

/// The push subscriptions of `user`, oldest first.
///
/// # Errors
/// Database errors.
pub async fn list(
    conn: &mut AsyncPgConnection,
    user: Uuid,
) -> diesel::QueryResult<Vec<PushSubscription>> {
    diesel::sql_query(format!(
        "SELECT {COLUMNS} FROM push_subscriptions
          WHERE user_id = $1 ORDER BY created_at, id"
    ))
    .bind::<SqlUuid, _>(user)
    .load(conn)
    .await
}

/// Deletes subscription `id` of `user` (and what it had still to send);
/// whether there was one.
///
/// # Errors
/// Database errors.
pub async fn delete(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    id: Uuid,
) -> diesel::QueryResult<bool> {
    let deleted =
        diesel::sql_query("DELETE FROM push_subscriptions WHERE user_id = $1 AND id = $2")
            .bind::<SqlUuid, _>(user)
            .bind::<SqlUuid, _>(id)
            .execute(conn)
            .await?;
    Ok(deleted > 0)
}

/// A push claimed for sending, with where it goes.
#[derive(Debug, Clone, QueryableByName)]
pub struct Claimed {
    #[diesel(sql_type = SqlUuid)]
    pub user_id: Uuid,
    #[diesel(sql_type = BigInt)]
    pub id: i64,
    #[diesel(sql_type = SqlUuid)]
    pub subscription_id: Uuid,
    #[diesel(sql_type = Text)]
    pub kind: String,
    #[diesel(sql_type = Nullable<SqlUuid>)]
    pub game_id: Option<Uuid>,
    #[diesel(sql_type = Nullable<BigInt>)]
    pub version: Option<i64>,
    #[diesel(sql_type = Nullable<Text>)]
    pub ruleset: Option<String>,
    #[diesel(sql_type = Int4)]
    pub attempts: i32,
    /// `web`, `fcm` or `apns`.
    #[diesel(sql_type = Text)]
    pub channel: String,
    /// The endpoint (`web`) or the device token.
    #[diesel(sql_type = Text)]
    pub endpoint: String,
    #[diesel(sql_type = Nullable<Text>)]
    pub p256dh: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    pub auth: Option<String>,
    /// Until when it was held in quiet hours, if it was.
    #[diesel(sql_type = Nullable<Timestamptz>)]
    pub held_until: Option<DateTime<Utc>>,
}

/// The due pushes: a range of the partial index `push_outbox_due` (pending
/// only), the earliest first; a row waits while an earlier row (by
/// `not_before`, then id) of the same subscription and game is pending, so
/// each device gets a game's pushes in order, across retries and processes.
pub(crate) const CLAIM: &str = "WITH due AS (
            SELECT o.user_id, o.id FROM push_outbox o
             WHERE o.state = 'pending' AND o.next_attempt_at <= now()
               AND NOT EXISTS (
                     SELECT 1 FROM push_outbox p
                      WHERE p.user_id = o.user_id AND p.subscription_id = o.subscription_id
                        AND p.game_id = o.game_id AND p.state = 'pending'
                        AND (p.not_before, p.id) < (o.not_before, o.id))
             ORDER BY o.next_attempt_at
             LIMIT 16
               FOR UPDATE SKIP LOCKED),
         taken AS (
            UPDATE push_outbox o
               SET attempts = o.attempts + 1, next_attempt_at = now() + make_interval(secs => $1)
              FROM due
             WHERE o.user_id = due.user_id AND o.id = due.id
            RETURNING o.*)
         SELECT t.user_id, t.id, t.subscription_id, t.kind, t.game_id, t.version, t.ruleset,
                t.attempts, s.channel, s.endpoint, s.p256dh, s.auth, t.held_until
           FROM taken t
           JOIN push_subscriptions s ON s.user_id = t.user_id AND s.id = t.subscription_id
          ORDER BY t.user_id, t.id";

/// Claims up to 16 due pushes, leasing them for `lease_secs`.
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

/// Records push `id` of `user` as `state` (`sent` or `skipped`).
///
/// # Errors
/// Database errors.
pub async fn finish(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    id: i64,
    state: &str,
    status: Option<i32>,
    why: Option<&str>,
) -> diesel::QueryResult<()> {
    diesel::sql_query(
        "UPDATE push_outbox
            SET state = $3, sent_at = CASE WHEN $3 = 'sent' THEN now() END,
                last_status = $4, last_error = $5
          WHERE user_id = $1 AND id = $2",
    )
    .bind::<SqlUuid, _>(user)
    .bind::<BigInt, _>(id)
    .bind::<Text, _>(state)
    .bind::<Nullable<Int4>, _>(status)
    .bind::<Nullable<Text>, _>(why)
    .execute(conn)
    .await?;
    Ok(())
}

/// Records a failed attempt: retried after `retry_secs`, or `failed` once
/// it has had `max_attempts` (0: at once).
///
/// # Errors
/// Database errors.
pub async fn failed(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    id: i64,
    status: Option<i32>,
    error: &str,
    max_attempts: i32,
    retry_secs: f64,
) -> diesel::QueryResult<()> {
    diesel::sql_query(
        "UPDATE push_outbox
            SET last_status = $3, last_error = $4,
                state = CASE WHEN attempts >= $5 THEN 'failed' ELSE 'pending' END,
                next_attempt_at = now() + make_interval(secs => $6)
          WHERE user_id = $1 AND id = $2",
    )
    .bind::<SqlUuid, _>(user)
    .bind::<BigInt, _>(id)
    .bind::<Nullable<Int4>, _>(status)
    .bind::<Text, _>(error)
    .bind::<Int4, _>(max_attempts)
    .bind::<Double, _>(retry_secs)
    .execute(conn)
    .await?;
    Ok(())
}

/// Holds push `id` of `user` in quiet hours until `until`: due then, the
/// claim's attempt not counted.
///
/// # Errors
/// Database errors.
pub async fn hold(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    id: i64,
    until: DateTime<Utc>,
) -> diesel::QueryResult<()> {
    diesel::sql_query(
        "UPDATE push_outbox
            SET next_attempt_at = $3, held_until = $3, attempts = greatest(attempts - 1, 0)
          WHERE user_id = $1 AND id = $2",
    )
    .bind::<SqlUuid, _>(user)
    .bind::<BigInt, _>(id)
    .bind::<Timestamptz, _>(until)
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether held push `row` is replaced: a newer push of its game to its
/// device is due. Every due push of that game and device but the newest
/// (`row` among them) is then `skipped`: they all waited behind `row`'s
/// hold, and the newest says what is true now.
///
/// # Errors
/// Database errors.
pub async fn replaced(conn: &mut AsyncPgConnection, row: &Claimed) -> diesel::QueryResult<bool> {
    let Some(game) = row.game_id else {
        return Ok(false);
    };
    let skipped = diesel::sql_query(
        "UPDATE push_outbox SET state = 'skipped', last_error = 'replaced by a newer push'
          WHERE user_id = $1 AND subscription_id = $2 AND game_id = $3
            AND state = 'pending' AND not_before <= now()
            AND id <> (SELECT id FROM push_outbox
                        WHERE user_id = $1 AND subscription_id = $2 AND game_id = $3
                          AND state = 'pending' AND not_before <= now()
                        ORDER BY not_before DESC, id DESC LIMIT 1)",
    )
    .bind::<SqlUuid, _>(row.user_id)
    .bind::<SqlUuid, _>(row.subscription_id)
    .bind::<SqlUuid, _>(game)
    .execute(conn)
    .await?;
    Ok(skipped > 0)
}

/// The version `game` is at now, if there is such a game.
///
/// # Errors
/// Database errors.
pub async fn game_version(
    conn: &mut AsyncPgConnection,
    game: Uuid,
) -> diesel::QueryResult<Option<i64>> {
    #[derive(QueryableByName)]
    struct Version {
        #[diesel(sql_type = BigInt)]
        version: i64,
    }
    let mut rows: Vec<Version> = diesel::sql_query("SELECT version FROM games WHERE id = $1")
        .bind::<SqlUuid, _>(game)
        .load(conn)
        .await?;
    Ok(rows.pop().map(|r| r.version))
}
