//! Failed-login counters in PostgreSQL, shared by every server process.
//!
//! Each key (`account:<lower username>`, `address:<client ip>`) counts its
//! failures in a fixed window that starts at its first failure; once the
//! window has passed, the next failure starts a new one.

use chrono::{DateTime, TimeDelta, Utc};
use diesel::prelude::*;
use diesel::sql_types::{Array, Text, Timestamptz};
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use super::schema::login_failures;

/// How long a window lasts, from its first failure.
pub const WINDOW: TimeDelta = TimeDelta::minutes(15);

/// When the first of `keys` that has used up its failures (the most its
/// window allows, given beside it) may try again, if any has.
pub async fn blocked_until(
    conn: &mut AsyncPgConnection,
    keys: &[(String, i32)],
    now: DateTime<Utc>,
) -> QueryResult<Option<DateTime<Utc>>> {
    let names: Vec<&str> = keys.iter().map(|(k, _)| k.as_str()).collect();
    let rows: Vec<(String, DateTime<Utc>, i32)> = login_failures::table
        .filter(login_failures::key.eq_any(&names))
        .select((
            login_failures::key,
            login_failures::window_start,
            login_failures::failures,
        ))
        .load(conn)
        .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(key, start, failures)| {
            let (_, most) = keys.iter().find(|(k, _)| *k == key)?;
            let until = start + WINDOW;
            (failures >= *most && until > now).then_some(until)
        })
        .max())
}

/// Counts one failure against every key, in one statement.
pub async fn record_failure(
    conn: &mut AsyncPgConnection,
    keys: &[(String, i32)],
    now: DateTime<Utc>,
) -> QueryResult<()> {
    let names: Vec<&str> = keys.iter().map(|(k, _)| k.as_str()).collect();
    diesel::sql_query(
        "INSERT INTO login_failures AS f (key, window_start, failures)
         SELECT k, $2, 1 FROM unnest($1::text[]) AS k
         ON CONFLICT (key) DO UPDATE SET
             window_start = CASE WHEN f.window_start <= $3 THEN $2 ELSE f.window_start END,
             failures = CASE WHEN f.window_start <= $3 THEN 1 ELSE f.failures + 1 END",
    )
    .bind::<Array<Text>, _>(&names)
    .bind::<Timestamptz, _>(now)
    .bind::<Timestamptz, _>(now - WINDOW)
    .execute(conn)
    .await
    .map(|_| ())
}

/// Forgets the failures of `key` (a successful login of that account).
pub async fn clear(conn: &mut AsyncPgConnection, key: &str) -> QueryResult<()> {
    diesel::delete(login_failures::table.filter(login_failures::key.eq(key)))
        .execute(conn)
        .await
        .map(|_| ())
}
