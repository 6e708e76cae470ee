//! Game rows: the settings of a game and a snapshot of its state at its
//! current version, with the seats and their usernames.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Json, Nullable, Text, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

use super::event_store::LoggedEvent;
use super::schema::games;

/// A row of `games`.
#[derive(Debug, Clone, Queryable, QueryableByName, Selectable, Insertable)]
#[diesel(table_name = games)]
#[diesel(check_for_backend(diesel::pg::Pg))]
pub struct GameRow {
    pub id: Uuid,
    pub ruleset: String,
    pub players: i16,
    pub options: Value,
    pub seed: String,
    pub seed_public: bool,
    pub seed_commitment: String,
    pub status: String,
    pub version: i64,
    pub last_hash: String,
    pub state: Option<Value>,
    pub to_act: Vec<i16>,
    pub result: Option<Value>,
    pub created_by: Uuid,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The server-level options (see `games::clock`).
    pub server_options: Value,
    /// When the seats in `to_act` time out.
    pub deadline: Option<DateTime<Utc>>,
    /// Closed to the public.
    pub private: bool,
    /// The code that lets anyone holding it join a private game.
    pub invite_code: Option<String>,
}

/// A taken seat.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct SeatRow {
    pub seat: i16,
    pub user_id: Uuid,
    pub username: String,
    /// Consecutive timeouts.
    #[serde(default)]
    pub timeouts: i32,
    /// Vacation taken so far, in seconds.
    #[serde(default)]
    pub vacation_used_secs: i64,
    /// Whether the seat is out (resigned, forfeited or inactive).
    #[serde(default)]
    pub resigned: bool,
}

impl SeatRow {
    /// A seat just taken.
    #[must_use]
    pub fn new(seat: i16, user_id: Uuid, username: String) -> Self {
        SeatRow {
            seat,
            user_id,
            username,
            timeouts: 0,
            vacation_used_secs: 0,
            resigned: false,
        }
    }
}

/// A stored idempotent response.
#[derive(Debug, Clone, Deserialize)]
pub struct StoredResponse {
    pub request_hash: String,
    pub status: i16,
    pub body: Value,
}

/// A game with its seats (and, on the command path, a stored idempotent response).
#[derive(Debug, Clone)]
pub struct LoadedGame {
    pub game: GameRow,
    pub seats: Vec<SeatRow>,
    pub idempotent: Option<StoredResponse>,
}

impl LoadedGame {
    /// The seat of `user`, if seated.
    #[must_use]
    pub fn seat_of(&self, user: Uuid) -> Option<u8> {
        self.seats
            .iter()
            .find(|s| s.user_id == user)
            .and_then(|s| u8::try_from(s.seat).ok())
    }
}

#[derive(QueryableByName)]
struct LoadedRow {
    #[diesel(embed)]
    game: GameRow,
    #[diesel(sql_type = Json)]
    seats: Value,
    #[diesel(sql_type = Nullable<Json>)]
    idempotent: Option<Value>,
}

/// The seats of game `g` as a JSON array (shared with the listing).
pub const SEATS_JSON: &str = "
       COALESCE((SELECT json_agg(json_build_object('seat', s.seat, 'user_id', s.user_id, 'username', u.username,
                                                   'timeouts', s.timeouts, 'vacation_used_secs', s.vacation_used_secs,
                                                   'resigned', s.resigned_at IS NOT NULL)
                                 ORDER BY s.seat)
                   FROM seats s JOIN users u ON u.id = s.user_id
                  WHERE s.game_id = g.id), '[]'::json) AS seats";

const LOAD_TAIL: &str = ",
       (SELECT json_build_object('request_hash', k.request_hash, 'status', k.response_status,
                                 'body', k.response_body)
          FROM idempotency_keys k
         WHERE k.user_id = $2 AND k.key = $3) AS idempotent
  FROM games g
 WHERE g.id = $1";

fn load_sql(for_update: bool) -> String {
    format!(
        "SELECT g.*,{SEATS_JSON}{LOAD_TAIL}{}",
        if for_update { " FOR UPDATE OF g" } else { "" }
    )
}

/// One round trip: the game, its seats, and the response stored for
/// (`user`, `idempotency_key`) if any.
///
/// # Errors
/// Database errors.
pub async fn load(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    user: Option<Uuid>,
    idempotency_key: Option<&str>,
) -> QueryResult<Option<LoadedGame>> {
    load_with(conn, id, user, idempotency_key, false).await
}

async fn load_with(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    user: Option<Uuid>,
    idempotency_key: Option<&str>,
    for_update: bool,
) -> QueryResult<Option<LoadedGame>> {
    let row: Option<LoadedRow> = crate::db::prepared::Prepared(
        diesel::sql_query(load_sql(for_update))
            .bind::<SqlUuid, _>(id)
            .bind::<Nullable<SqlUuid>, _>(user)
            .bind::<Nullable<Text>, _>(idempotency_key),
    )
    .get_result(conn)
    .await
    .optional()?;
    row.map(|r| {
        let seats = serde_json::from_value(r.seats)
            .map_err(|e| diesel::result::Error::DeserializationError(Box::new(e)))?;
        let idempotent = r
            .idempotent
            .map(serde_json::from_value)
            .transpose()
            .map_err(|e| diesel::result::Error::DeserializationError(Box::new(e)))?;
        Ok(LoadedGame {
            game: r.game,
            seats,
            idempotent,
        })
    })
    .transpose()
}

/// The game row locked for update (inside a transaction), with its seats.
///
/// # Errors
/// Database errors.
pub async fn load_for_update(
    conn: &mut AsyncPgConnection,
    id: Uuid,
) -> QueryResult<Option<LoadedGame>> {
    load_with(conn, id, None, None, true).await
}

/// The new state of a game after a command.
#[derive(Debug)]
pub struct Update<'a> {
    pub id: Uuid,
    pub expected_version: i64,
    pub version: i64,
    pub last_hash: &'a str,
    pub state: Option<&'a Value>,
    pub to_act: &'a [i16],
    pub status: &'a str,
    pub result: Option<&'a Value>,
    pub updated_at: DateTime<Utc>,
    pub events: &'a [LoggedEvent],
    /// The new deadline (the clock restarts at every version).
    pub deadline: Option<DateTime<Utc>>,
    /// Seats whose counters changed: `[{seat, timeouts, vacation_used_secs, resigned_at}]`.
    pub seats: &'a Value,
    /// Notifications to write: `[{user_id, kind, payload}]`.
    pub notifications: &'a Value,
}

/// A response to remember for an idempotency key.
#[derive(Debug)]
pub struct Remember<'a> {
    pub user: Uuid,
    pub key: &'a str,
    pub request_hash: &'a str,
    pub status: i16,
    pub body: &'a Value,
}

#[derive(QueryableByName)]
struct Applied {
    #[diesel(sql_type = BigInt)]
    bumped: i64,
    #[diesel(sql_type = diesel::sql_types::Jsonb)]
    noted: Value,
}

/// What an append wrote: nothing (a lost race), or the notifications
/// `(user, notification id)` to announce once committed.
pub type Appended = Option<Vec<(Uuid, i64)>>;

/// One statement: bump the game from `expected_version` to its new version,
/// snapshot and deadline, append the events, update the seats' counters,
/// write the notifications (whose trigger fills the webhook outbox) and
/// remember the idempotent response — all or nothing. Listeners are told
/// after the commit, by the [`Announcer`](crate::notify::Announcer): a NOTIFY
/// inside this statement would serialize every commit of the server on
/// PostgreSQL's notify lock. Returns nothing applied (and writes nothing) when
/// the game is no longer at `expected_version`.
const APPEND: &str = r#"
WITH bumped AS (
    UPDATE games
       SET version = $3, last_hash = $4, state = $5, to_act = $6, status = $7,
           result = $8, updated_at = $9, deadline = $16
     WHERE id = $1 AND version = $2
 RETURNING id
), appended AS (
    INSERT INTO events (game_id, seq, "type", data, actor_user, actor_seat, command, prev_hash, hash, created_at)
    SELECT b.id, e.seq, e."type", e.data, e.actor_user, e.actor_seat, e.command, e.prev_hash, e.hash, e.created_at
      FROM bumped b,
           jsonb_to_recordset($10) AS e(seq bigint, "type" text, data jsonb, actor_user uuid,
                                        actor_seat smallint, command jsonb, prev_hash text,
                                        hash text, created_at timestamptz)
    RETURNING seq
), remembered AS (
    INSERT INTO idempotency_keys (user_id, key, game_id, request_hash, response_status, response_body, created_at)
    SELECT $11, $12, b.id, $13, $14, $15, $9
      FROM bumped b
     WHERE $12 IS NOT NULL
    RETURNING 1
), seated AS (
    UPDATE seats s
       SET timeouts = u.timeouts, vacation_used_secs = u.vacation_used_secs, resigned_at = u.resigned_at
      FROM bumped b,
           jsonb_to_recordset($17) AS u(seat smallint, timeouts integer, vacation_used_secs bigint,
                                        resigned_at timestamptz)
     WHERE s.game_id = b.id AND s.seat = u.seat
    RETURNING 1
), noted AS (
    INSERT INTO notifications (user_id, game_id, kind, payload, created_at)
    SELECT n.user_id, b.id, n.kind, n.payload, $9
      FROM bumped b, jsonb_to_recordset($18) AS n(user_id uuid, kind text, payload jsonb)
    RETURNING user_id, id
)
SELECT (SELECT count(*) FROM bumped) AS bumped,
       (SELECT count(*) FROM appended) + (SELECT count(*) FROM remembered)
     + (SELECT count(*) FROM seated) AS touched,
       (SELECT COALESCE(jsonb_agg(jsonb_build_array(user_id, id)), '[]') FROM noted) AS noted
"#;

/// Applies `update` (and `remember`) in one statement; `None` on a lost race.
///
/// # Errors
/// Database errors (a duplicate idempotency key raced in by a twin request included).
pub async fn append(
    conn: &mut AsyncPgConnection,
    update: &Update<'_>,
    remember: Option<&Remember<'_>>,
) -> QueryResult<Appended> {
    use diesel::sql_types::{Array, Int2, Jsonb, SmallInt, Timestamptz};
    let events = serde_json::to_value(update.events)
        .map_err(|e| diesel::result::Error::SerializationError(Box::new(e)))?;
    let applied: Applied = crate::db::prepared::Prepared(
        diesel::sql_query(APPEND)
            .bind::<SqlUuid, _>(update.id)
            .bind::<BigInt, _>(update.expected_version)
            .bind::<BigInt, _>(update.version)
            .bind::<Text, _>(update.last_hash)
            .bind::<Nullable<Jsonb>, _>(update.state)
            .bind::<Array<SmallInt>, _>(update.to_act)
            .bind::<Text, _>(update.status)
            .bind::<Nullable<Jsonb>, _>(update.result)
            .bind::<Timestamptz, _>(update.updated_at)
            .bind::<Jsonb, _>(&events)
            .bind::<Nullable<SqlUuid>, _>(remember.map(|r| r.user))
            .bind::<Nullable<Text>, _>(remember.map(|r| r.key))
            .bind::<Nullable<Text>, _>(remember.map(|r| r.request_hash))
            .bind::<Nullable<Int2>, _>(remember.map(|r| r.status))
            .bind::<Nullable<Jsonb>, _>(remember.map(|r| r.body))
            .bind::<Nullable<Timestamptz>, _>(update.deadline)
            .bind::<Jsonb, _>(update.seats)
            .bind::<Jsonb, _>(update.notifications),
    )
    .get_result(conn)
    .await?;
    if applied.bumped != 1 {
        return Ok(None);
    }
    serde_json::from_value(applied.noted)
        .map(Some)
        .map_err(|e| diesel::result::Error::DeserializationError(Box::new(e)))
}

/// The current version of a game.
///
/// # Errors
/// Database errors.
pub async fn version(conn: &mut AsyncPgConnection, id: Uuid) -> QueryResult<Option<i64>> {
    games::table
        .find(id)
        .select(games::version)
        .first(conn)
        .await
        .optional()
}
