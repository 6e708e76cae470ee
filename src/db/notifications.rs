//! Notifications and their webhook outbox, written by the statement that
//! causes them.
//!
//! Every statement that inserts notifications also queues one
//! `webhook_deliveries` row per webhook of each notified user (a
//! data-modifying CTE, [`FAN_OUT`]), so deliveries commit with the events
//! that cause them, and answers [`Noted`]: which notifications it wrote and
//! whether each queued deliveries.

use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use diesel::sql_types::{BigInt, Jsonb, Nullable, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use uuid::Uuid;

use super::prepared::Prepared;

/// A notification written: `(user, notification id, queued webhook deliveries)`.
pub type Noted = (Uuid, i64, bool);

/// The outbox of each delivery channel: a CTE that reads the new rows of a
/// CTE named `noted` (`RETURNING user_id, id, game_id, kind, payload,
/// created_at`), queues the channel's
/// deliveries, and answers `RETURNING notification_id`. A new channel adds
/// its CTE here; every statement that writes notifications then queues it.
/// An outbox row names its user: it lives with the user's notifications
/// (see `deploy/citus.sql`).
pub const OUTBOXES: &[(&str, &str)] = &[
    (
        "webhooks_queued",
        "INSERT INTO webhook_deliveries (user_id, webhook_id, notification_id)
    SELECT n.user_id, w.id, n.id FROM noted n JOIN webhooks w ON w.user_id = n.user_id
      LEFT JOIN notification_preferences p ON p.user_id = n.user_id
     WHERE NOT (n.kind = ANY (COALESCE(p.webhooks_off, '{}')))
    RETURNING notification_id",
    ),
    ("mail_queued", super::mail::OUTBOX),
    ("push_queued", super::push::OUTBOX),
];

/// The CTEs of [`OUTBOXES`], then `fanned`: the notifications any of them
/// queued a delivery for.
pub static FAN_OUT: LazyLock<String> = LazyLock::new(|| {
    let mut sql = String::new();
    for (name, cte) in OUTBOXES {
        sql.push_str(&format!("\n{name} AS (\n    {cte}\n),"));
    }
    let queued: Vec<String> = OUTBOXES
        .iter()
        .map(|(name, _)| format!("SELECT notification_id FROM {name}"))
        .collect();
    sql.push_str(&format!("\nfanned AS ({})", queued.join(" UNION ALL ")));
    sql
});

/// The select-list expression answering the [`Noted`] rows of the CTEs
/// `noted` and `fanned`, as a JSON array.
pub const NOTED_JSON: &str = "
       (SELECT COALESCE(jsonb_agg(jsonb_build_array(n.user_id, n.id,
                                                     n.id IN (SELECT notification_id FROM fanned))
                                  ORDER BY n.id), '[]')
          FROM noted n) AS noted";

/// Reads the [`NOTED_JSON`] column.
///
/// # Errors
/// A deserialization error when the column is not such an array.
pub fn parse_noted(json: Value) -> diesel::QueryResult<Vec<Noted>> {
    serde_json::from_value(json)
        .map_err(|e| diesel::result::Error::DeserializationError(Box::new(e)))
}

#[derive(diesel::QueryableByName)]
struct NotedRow {
    #[diesel(sql_type = Jsonb)]
    noted: Value,
}

/// Inserts `notes` (`{user_id, kind, payload}` each) about `game` and queues
/// their webhook deliveries, in one statement, inside the caller's
/// transaction; returns what to announce once it has committed.
///
/// # Errors
/// Database errors.
pub async fn insert(
    conn: &mut AsyncPgConnection,
    game: Option<Uuid>,
    notes: &Value,
    at: DateTime<Utc>,
) -> diesel::QueryResult<Vec<Noted>> {
    static SQL: LazyLock<String> =
        LazyLock::new(|| format!("{NOTED_CTE},{}\nSELECT {NOTED_JSON}", *FAN_OUT));
    insert_by(conn, &SQL, game, notes, at).await
}

/// Inserts `notes` like [`insert`] but queues no delivery on any channel:
/// they are listed (the inbox, its stream) and sent nowhere (an invitation
/// beyond the invitation limits).
///
/// # Errors
/// Database errors.
pub async fn insert_unsent(
    conn: &mut AsyncPgConnection,
    game: Option<Uuid>,
    notes: &Value,
    at: DateTime<Utc>,
) -> diesel::QueryResult<Vec<Noted>> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "{NOTED_CTE},\nfanned AS (SELECT NULL::int8 AS notification_id WHERE false)\nSELECT {NOTED_JSON}"
        )
    });
    insert_by(conn, &SQL, game, notes, at).await
}

/// The notifications' insert, the first CTE of both statements above.
const NOTED_CTE: &str = "WITH noted AS (
    INSERT INTO notifications (user_id, game_id, kind, payload, created_at)
    SELECT n.user_id, $1, n.kind, n.payload, $3
      FROM jsonb_to_recordset($2) AS n(user_id uuid, kind text, payload jsonb)
    RETURNING user_id, id, game_id, kind, payload, created_at
)";

/// Runs `sql` (one of the two inserts above) for `notes`, if any.
async fn insert_by(
    conn: &mut AsyncPgConnection,
    sql: &str,
    game: Option<Uuid>,
    notes: &Value,
    at: DateTime<Utc>,
) -> diesel::QueryResult<Vec<Noted>> {
    if notes.as_array().is_none_or(Vec::is_empty) {
        return Ok(Vec::new());
    }
    let row: NotedRow = Prepared(
        diesel::sql_query(sql)
            .bind::<Nullable<SqlUuid>, _>(game)
            .bind::<Jsonb, _>(notes)
            .bind::<Timestamptz, _>(at),
    )
    .get_result(conn)
    .await?;
    parse_noted(row.noted)
}

/// A stored notification.
#[derive(diesel::QueryableByName)]
pub struct NoteRow {
    #[diesel(sql_type = BigInt)]
    pub id: i64,
    #[diesel(sql_type = SqlUuid)]
    pub user_id: Uuid,
    #[diesel(sql_type = Nullable<SqlUuid>)]
    pub game_id: Option<Uuid>,
    #[diesel(sql_type = Text)]
    pub kind: String,
    #[diesel(sql_type = Jsonb)]
    pub payload: Value,
    #[diesel(sql_type = Timestamptz)]
    pub created_at: DateTime<Utc>,
}

/// A user's notifications after an id, oldest first: a range of the primary
/// key (user, id), the user's own rows only.
pub(crate) const FEED: &str =
    "SELECT id, user_id, game_id, kind, payload, created_at FROM notifications
          WHERE user_id = $1 AND id > $2 ORDER BY id LIMIT $3";

/// The notifications of `user` with ids after `after`, oldest first, at most `limit`.
///
/// # Errors
/// Database errors.
pub async fn list(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    after: i64,
    limit: i64,
) -> diesel::QueryResult<Vec<NoteRow>> {
    diesel::sql_query(FEED)
        .bind::<SqlUuid, _>(user)
        .bind::<BigInt, _>(after)
        .bind::<BigInt, _>(limit)
        .load(conn)
        .await
}
