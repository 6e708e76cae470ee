//! The append-only event log of every game as stored: one row an event,
//! the hash as its 32 bytes (the chain itself is `record::chain`).

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use uuid::Uuid;

use super::schema::events;
use crate::record::chain::{GENESIS_HASH, LoggedEvent, format_time, now};

/// An event row: the hash as its 32 bytes (`digest`), or, in rows written
/// before events were compacted and not converted yet, as hex with the
/// `prev_hash` beside it.
type EventRow = (
    i64,
    String,
    Value,
    Option<Uuid>,
    Option<i16>,
    Option<Value>,
    Option<Vec<u8>>,
    Option<String>,
    Option<String>,
    DateTime<Utc>,
    i16,
);

/// The events of rows in `seq` order, each `prev_hash` taken from the row
/// before (or kept, in an unconverted row); `before` is the hash of the
/// event before the first row.
fn from_rows(rows: Vec<EventRow>, before: String) -> Result<Vec<LoggedEvent>, String> {
    let mut prev = before;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let (seq, kind, data, actor_user, actor_seat, command, digest, hash, prev_hash, at, schema) =
            row;
        let hash = match (digest, hash) {
            (Some(digest), _) => hex::encode(digest),
            (None, Some(hash)) => hash,
            (None, None) => return Err(format!("event {seq} has no hash")),
        };
        let prev_hash = prev_hash.unwrap_or_else(|| std::mem::take(&mut prev));
        prev.clone_from(&hash);
        out.push(LoggedEvent {
            seq,
            kind,
            data,
            actor_user,
            actor_seat,
            command,
            prev_hash,
            hash,
            created_at: format_time(at),
            schema_version: schema,
        });
    }
    Ok(out)
}

/// Events of `game` with `after < seq <= up_to`, in order, at most `limit`.
///
/// # Errors
/// Database errors.
pub async fn load(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    after: i64,
    up_to: i64,
    limit: i64,
) -> QueryResult<Vec<LoggedEvent>> {
    // The event at `after` too: its hash is the first one's `prev_hash`.
    let from = if after >= 1 { after - 1 } else { after };
    let mut rows: Vec<EventRow> = events::table
        .filter(events::game_id.eq(game))
        .filter(events::seq.gt(from))
        .filter(events::seq.le(up_to))
        .order(events::seq.asc())
        .limit(limit + i64::from(after >= 1))
        .select((
            events::seq,
            events::type_,
            events::data,
            events::actor_user,
            events::actor_seat,
            events::command,
            events::digest,
            events::hash,
            events::prev_hash,
            events::created_at,
            events::schema_version,
        ))
        .load(conn)
        .await?;
    let before = if after >= 1 && <[EventRow]>::first(&rows).is_some_and(|r| r.0 == after) {
        let (.., digest, hash, _, _, _) = rows.remove(0);
        digest.map(hex::encode).or(hash).unwrap_or_default()
    } else {
        GENESIS_HASH.to_owned()
    };
    from_rows(rows, before).map_err(|e| diesel::result::Error::DeserializationError(e.into()))
}

/// Inserts events (inside the caller's transaction), each hash as its 32
/// bytes and no `prev_hash` (the chain is the order of `seq`).
///
/// # Errors
/// Database errors, a duplicate `(game_id, seq)` among them.
pub async fn insert(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    new: &[LoggedEvent],
) -> QueryResult<()> {
    let parse_time = |s: &str| {
        DateTime::parse_from_rfc3339(s)
            .map(|t| t.with_timezone(&Utc))
            .unwrap_or_else(|_| now())
    };
    let digests = new
        .iter()
        .map(|e| hex::decode(&e.hash))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| diesel::result::Error::SerializationError(Box::new(e)))?;
    let rows: Vec<_> = new
        .iter()
        .zip(&digests)
        .map(|(e, digest)| {
            (
                events::game_id.eq(game),
                events::seq.eq(e.seq),
                events::type_.eq(&e.kind),
                events::data.eq(&e.data),
                events::actor_user.eq(e.actor_user),
                events::actor_seat.eq(e.actor_seat),
                events::command.eq(e.command.as_ref()),
                events::digest.eq(Some(digest)),
                events::created_at.eq(parse_time(&e.created_at)),
                events::schema_version.eq(e.schema_version),
            )
        })
        .collect();
    diesel::insert_into(events::table)
        .values(rows)
        .execute(conn)
        .await?;
    Ok(())
}

/// The seq of the last event of `game` that a command of `seat` caused
/// (the first event of its batch), if any: where "since your last move"
/// starts.
///
/// # Errors
/// Database errors.
pub async fn last_command_of(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    seat: i16,
) -> QueryResult<Option<i64>> {
    events::table
        .filter(events::game_id.eq(game))
        .filter(events::actor_seat.eq(seat))
        .filter(events::command.is_not_null())
        .select(diesel::dsl::max(events::seq))
        .get_result(conn)
        .await
}

/// The first command `seat` made in `game` after version `after`: its
/// event's seq and the command, if any.
///
/// # Errors
/// Database errors.
pub async fn first_command_after(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    seat: i16,
    after: i64,
) -> QueryResult<Option<(i64, Value)>> {
    let row: Option<(i64, Option<Value>)> = events::table
        .filter(events::game_id.eq(game))
        .filter(events::seq.gt(after))
        .filter(events::actor_seat.eq(seat))
        .filter(events::command.is_not_null())
        .order(events::seq.asc())
        .select((events::seq, events::command))
        .first(conn)
        .await
        .optional()?;
    Ok(row.and_then(|(seq, command)| command.map(|c| (seq, c))))
}

/// How many events of `game` have one of the types `kinds`.
///
/// # Errors
/// Database errors.
pub async fn count_of_kinds(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    kinds: &[&str],
) -> QueryResult<i64> {
    events::table
        .filter(events::game_id.eq(game))
        .filter(events::type_.eq_any(kinds))
        .count()
        .get_result(conn)
        .await
}
