//! A user's notification preferences (docs/push.md): one row per user who
//! changed one; a user without a row gets every kind on every channel, no
//! quiet hours, and the reminder when a quarter of the turn's time is left.
//! The outboxes' CTEs read the row as they queue.

use chrono::{DateTime, Utc};
use diesel::OptionalExtension;
use diesel::sql_types::{Array, Bool, Int2, Int4, Nullable, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

/// A user's stored preferences.
#[derive(Debug, Clone, PartialEq, Eq, Default, diesel::QueryableByName)]
pub struct PreferencesRow {
    #[diesel(sql_type = Array<Text>)]
    pub push_off: Vec<String>,
    #[diesel(sql_type = Array<Text>)]
    pub email_off: Vec<String>,
    #[diesel(sql_type = Array<Text>)]
    pub webhooks_off: Vec<String>,
    /// Quiet hours, minutes of the day on the user's clock.
    #[diesel(sql_type = Nullable<Int2>)]
    pub quiet_start: Option<i16>,
    #[diesel(sql_type = Nullable<Int2>)]
    pub quiet_end: Option<i16>,
    #[diesel(sql_type = Nullable<Int4>)]
    pub reminder_before_minutes: Option<i32>,
}

const COLUMNS: &str =
    "push_off, email_off, webhooks_off, quiet_start, quiet_end, reminder_before_minutes";

/// `user`'s preferences (the defaults when none is stored).
///
/// # Errors
/// Database errors.
pub async fn get(conn: &mut AsyncPgConnection, user: Uuid) -> diesel::QueryResult<PreferencesRow> {
    let row: Option<PreferencesRow> = diesel::sql_query(format!(
        "SELECT {COLUMNS} FROM notification_preferences WHERE user_id = $1"
    ))
    .bind::<SqlUuid, _>(user)
    .get_result(conn)
    .await
    .optional()?;
    Ok(row.unwrap_or_default())
}

/// A change to store: None leaves a value as it is.
pub struct Change {
    pub push_off: Option<Vec<String>>,
    pub email_off: Option<Vec<String>>,
    pub webhooks_off: Option<Vec<String>>,
    /// `Some(None)`: no quiet hours.
    pub quiet: Option<Option<(i16, i16)>>,
    /// `Some(None)`: a quarter of the turn's time.
    pub lead: Option<Option<i32>>,
}

/// Stores `change` for `user` and returns the preferences now. A change
/// of quiet hours releases the user's held pushes: they are due at once,
/// and go unless the new quiet hours hold them again.
///
/// # Errors
/// Database errors (a foreign-key violation for a user who is gone).
pub async fn change(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    change: Change,
    now: DateTime<Utc>,
) -> diesel::QueryResult<PreferencesRow> {
    let (quiet_given, quiet) = match change.quiet {
        None => (false, None),
        Some(q) => (true, q),
    };
    let (lead_given, lead) = match change.lead {
        None => (false, None),
        Some(l) => (true, l),
    };
    conn.transaction::<_, diesel::result::Error, _>(async |conn| {
        let row: PreferencesRow = diesel::sql_query(format!(
            "INSERT INTO notification_preferences AS p
                    (user_id, push_off, email_off, webhooks_off, quiet_start, quiet_end,
                     reminder_before_minutes, updated_at)
             VALUES ($1, COALESCE($2, '{{}}'), COALESCE($3, '{{}}'), COALESCE($4, '{{}}'),
                     $6, $7, $9, $10)
             ON CONFLICT (user_id) DO UPDATE
                SET push_off = COALESCE($2, p.push_off),
                    email_off = COALESCE($3, p.email_off),
                    webhooks_off = COALESCE($4, p.webhooks_off),
                    quiet_start = CASE WHEN $5 THEN $6 ELSE p.quiet_start END,
                    quiet_end = CASE WHEN $5 THEN $7 ELSE p.quiet_end END,
                    reminder_before_minutes = CASE WHEN $8 THEN $9 ELSE p.reminder_before_minutes END,
                    updated_at = $10
             RETURNING {COLUMNS}"
        ))
        .bind::<SqlUuid, _>(user)
        .bind::<Nullable<Array<Text>>, _>(change.push_off)
        .bind::<Nullable<Array<Text>>, _>(change.email_off)
        .bind::<Nullable<Array<Text>>, _>(change.webhooks_off)
        .bind::<Bool, _>(quiet_given)
        .bind::<Nullable<Int2>, _>(quiet.map(|q| q.0))
        .bind::<Nullable<Int2>, _>(quiet.map(|q| q.1))
        .bind::<Bool, _>(lead_given)
        .bind::<Nullable<Int4>, _>(lead)
        .bind::<Timestamptz, _>(now)
        .get_result(conn)
        .await?;
        if quiet_given {
            diesel::sql_query(
                "UPDATE push_outbox SET next_attempt_at = now()
                  WHERE user_id = $1 AND state = 'pending' AND held_until IS NOT NULL
                    AND next_attempt_at > now()",
            )
            .bind::<SqlUuid, _>(user)
            .execute(conn)
            .await?;
        }
        Ok(row)
    })
    .await
}

/// `user`'s quiet hours and time zone, if they set quiet hours.
///
/// # Errors
/// Database errors.
pub async fn quiet_hours(
    conn: &mut AsyncPgConnection,
    user: Uuid,
) -> diesel::QueryResult<Option<(i16, i16, Option<String>)>> {
    #[derive(diesel::QueryableByName)]
    struct Quiet {
        #[diesel(sql_type = Int2)]
        start: i16,
        #[diesel(sql_type = Int2)]
        end: i16,
        #[diesel(sql_type = Nullable<Text>)]
        time_zone: Option<String>,
    }
    let row: Option<Quiet> = diesel::sql_query(
        "SELECT p.quiet_start AS start, p.quiet_end AS end, s.time_zone
           FROM notification_preferences p
           LEFT JOIN user_settings s ON s.user_id = p.user_id
          WHERE p.user_id = $1 AND p.quiet_start IS NOT NULL",
    )
    .bind::<SqlUuid, _>(user)
    .get_result(conn)
    .await
    .optional()?;
    Ok(row.map(|q| (q.start, q.end, q.time_zone)))
}
