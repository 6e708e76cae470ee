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
use diesel::sql_types::{Jsonb, Nullable, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use uuid::Uuid;

use super::prepared::Prepared;

/// A notification written: `(user, notification id, queued webhook deliveries)`.
pub type Noted = (Uuid, i64, bool);

/// The CTE queuing the deliveries of the rows of a CTE named `noted`
/// (`RETURNING user_id, id`).
pub const FAN_OUT: &str = "
fanned AS (
    INSERT INTO webhook_deliveries (webhook_id, notification_id)
    SELECT w.id, n.id FROM noted n JOIN webhooks w ON w.user_id = n.user_id
    RETURNING notification_id
)";

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
    notes: &[Value],
    at: DateTime<Utc>,
) -> diesel::QueryResult<Vec<Noted>> {
    if notes.is_empty() {
        return Ok(Vec::new());
    }
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "WITH noted AS (
    INSERT INTO notifications (user_id, game_id, kind, payload, created_at)
    SELECT n.user_id, $1, n.kind, n.payload, $3
      FROM jsonb_to_recordset($2) AS n(user_id uuid, kind text, payload jsonb)
    RETURNING user_id, id
),{FAN_OUT}
SELECT {NOTED_JSON}"
        )
    });
    let row: NotedRow = Prepared(
        diesel::sql_query(SQL.as_str())
            .bind::<Nullable<SqlUuid>, _>(game)
            .bind::<Jsonb, _>(Value::Array(notes.to_vec()))
            .bind::<Timestamptz, _>(at),
    )
    .get_result(conn)
    .await?;
    parse_noted(row.noted)
}
