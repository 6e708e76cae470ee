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
use super::schema::{games, seats};

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
}

/// A taken seat.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct SeatRow {
    pub seat: i16,
    pub user_id: Uuid,
    pub username: String,
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

const LOAD: &str = "
SELECT g.*,
       COALESCE((SELECT json_agg(json_build_object('seat', s.seat, 'user_id', s.user_id, 'username', u.username)
                                 ORDER BY s.seat)
                   FROM seats s JOIN users u ON u.id = s.user_id
                  WHERE s.game_id = g.id), '[]'::json) AS seats,
       (SELECT json_build_object('request_hash', k.request_hash, 'status', k.response_status,
                                 'body', k.response_body)
          FROM idempotency_keys k
         WHERE k.user_id = $2 AND k.key = $3) AS idempotent
  FROM games g
 WHERE g.id = $1";

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
    let row: Option<LoadedRow> = crate::db::prepared::Prepared(
        diesel::sql_query(LOAD)
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
    let game: Option<GameRow> = games::table
        .find(id)
        .for_update()
        .select(GameRow::as_select())
        .first(conn)
        .await
        .optional()?;
    let Some(game) = game else { return Ok(None) };
    let seats: Vec<(i16, Uuid, String)> = seats::table
        .inner_join(super::schema::users::table)
        .filter(seats::game_id.eq(id))
        .order(seats::seat.asc())
        .select((seats::seat, seats::user_id, super::schema::users::username))
        .load(conn)
        .await?;
    Ok(Some(LoadedGame {
        game,
        seats: seats
            .into_iter()
            .map(|(seat, user_id, username)| SeatRow {
                seat,
                user_id,
                username,
            })
            .collect(),
        idempotent: None,
    }))
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
}

/// One statement: bump the game from `expected_version` to its new version
/// and snapshot, append the events and remember the idempotent response —
/// all or nothing. (Listeners are told after the commit, by the
/// [`Announcer`](crate::notify::Announcer): a NOTIFY inside this statement
/// would serialize every commit of the server on PostgreSQL's notify lock.) Returns false (and writes nothing) when
/// the game is no longer at `expected_version`.
const APPEND: &str = r#"
WITH bumped AS (
    UPDATE games
       SET version = $3, last_hash = $4, state = $5, to_act = $6, status = $7,
           result = $8, updated_at = $9
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
)
SELECT (SELECT count(*) FROM bumped) AS bumped,
       (SELECT count(*) FROM appended) + (SELECT count(*) FROM remembered) AS touched
"#;

/// Applies `update` (and `remember`) in one statement; false on a lost race.
///
/// # Errors
/// Database errors (a duplicate idempotency key raced in by a twin request included).
pub async fn append(
    conn: &mut AsyncPgConnection,
    update: &Update<'_>,
    remember: Option<&Remember<'_>>,
) -> QueryResult<bool> {
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
            .bind::<Nullable<Jsonb>, _>(remember.map(|r| r.body)),
    )
    .get_result(conn)
    .await?;
    Ok(applied.bumped == 1)
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
