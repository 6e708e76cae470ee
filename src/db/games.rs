//! Game rows: the settings of a game and a snapshot of its state at its
//! current version, with the seats and their usernames.

use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Json, Nullable, Text, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

use super::json_text::JsonText;
use super::notifications::{FAN_OUT, NOTED_JSON, Noted, parse_noted};
use super::schema::games;
use crate::record::chain::LoggedEvent;

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
    pub state: Option<JsonText>,
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
    /// The version of the ruleset's rules the game is played under.
    pub rules_version: i16,
    /// When its record moved to `archived_games` (its events and snapshot
    /// are there now).
    pub archived_at: Option<DateTime<Utc>>,
    /// The table's pause as it stands (`record::pause::TablePause`), or
    /// none when no pause was ever proposed.
    pub pause: Option<Value>,
}

impl GameRow {
    /// The rules the game is played under (`hats@1`), as its first event records them.
    #[must_use]
    pub fn rules(&self) -> String {
        format!("{}@{}", self.ruleset, self.rules_version)
    }
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
    /// Whether a bot holds the seat (a built-in bot or a bot account).
    #[serde(default)]
    pub bot: bool,
    /// Whether its user has the server play their forced moves
    /// (`auto_play_forced`, docs/turn-conveniences.md); read by the loads a
    /// step starts from, false in listings.
    #[serde(default)]
    pub auto_play_forced: bool,
    /// The seat's salt (64 lowercase hex digits) in a game whose seats
    /// salt the shuffle; `None` otherwise.
    #[serde(default)]
    pub salt: Option<String>,
    /// The seat's clock in a game played with the clock module
    /// (`record::clock`); `None` on the fixed per-turn clock.
    #[serde(default)]
    pub clock: Option<crate::record::clock::SeatClock>,
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
            bot: false,
            auto_play_forced: false,
            salt: None,
            clock: None,
        }
    }
}

/// A stored idempotent response.
#[derive(Debug, Clone, Deserialize)]
pub struct StoredResponse {
    pub request_hash: String,
    pub status: i16,
    pub body: Value,
    /// When it was stored (it answers retries until the key expires).
    pub created_at: DateTime<Utc>,
}

/// A game with its seats (and, on the command path, a stored idempotent response).
#[derive(Debug, Clone)]
pub struct LoadedGame {
    pub game: GameRow,
    pub seats: Vec<SeatRow>,
    pub idempotent: Option<StoredResponse>,
    /// Loaded by [`load_checking`]: whether the caller's sign-in session is
    /// live (false for other loads, which do not ask).
    pub session_live: bool,
    /// The seats' stored conditional lines (docs/turn-conveniences.md):
    /// private to each owner, read only by the step that may fire them.
    pub conditionals: Vec<StoredLines>,
}

/// A seat's stored conditional lines, as the step loads them.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct StoredLines {
    pub seat: i16,
    pub user_id: Uuid,
    /// What is left of each line: `[[{seat, command}]]`.
    pub lines: Value,
    /// The game's version the lines were brought up to; any other than the
    /// game's own means the row is stale.
    pub at_version: i64,
}

impl LoadedGame {
    /// Whether a bot (built-in or an account its owner runs) holds a seat.
    #[must_use]
    pub fn has_bots(&self) -> bool {
        self.seats.iter().any(|s| s.bot)
    }

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
    #[diesel(sql_type = Nullable<diesel::sql_types::Bool>)]
    session_live: Option<bool>,
    #[diesel(sql_type = Json)]
    conditionals: Value,
}

/// The seats of game `g` as a JSON array, with `$extra` fields after the
/// shared ones (a `, 'name', value` list, or nothing). Each username is a
/// primary-key lookup: a join would let the planner hash the whole `users`
/// table for a game's two to six seats.
macro_rules! seats_json {
    ($extra:literal) => {
        concat!(
            "
       COALESCE((SELECT json_agg(json_build_object('seat', s.seat, 'user_id', s.user_id,
                                                   'username', (SELECT u.username FROM users u WHERE u.id = s.user_id),
                                                   'timeouts', s.timeouts, 'vacation_used_secs', s.vacation_used_secs,
                                                   'resigned', s.resigned_at IS NOT NULL,
                                                   'bot', (SELECT u.kind = 'bot' FROM users u WHERE u.id = s.user_id),
                                                   'salt', s.salt, 'clock', s.clock",
            $extra,
            ")
                                 ORDER BY s.seat)
                   FROM seats s
                  WHERE s.game_id = g.id), '[]'::json) AS seats"
        )
    };
}

/// The seats of game `g` (shared with the listing).
pub const SEATS_JSON: &str = seats_json!("");

/// [`SEATS_JSON`] with each user's `auto_play_forced` (a primary-key
/// lookup per seat): the seats a step starts from.
const LOAD_SEATS_JSON: &str = seats_json!(
    ",
                                                   'auto_play_forced', COALESCE((SELECT st.auto_play_forced FROM user_settings st
                                                                                  WHERE st.user_id = s.user_id), false)"
);

/// The game's stored conditional lines (a game has at most one row per
/// seat, read by the primary key's prefix).
const CONDITIONALS: &str = ",
       COALESCE((SELECT json_agg(json_build_object('seat', c.seat, 'user_id', c.user_id,
                                                   'lines', c.lines, 'at_version', c.at_version)
                                 ORDER BY c.seat)
                   FROM conditional_lines c
                  WHERE c.game_id = g.id), '[]'::json) AS conditionals";

const IDEMPOTENT: &str = ",
       (SELECT json_build_object('request_hash', k.request_hash, 'status', k.response_status,
                                 'body', k.response_body, 'created_at', k.created_at)
          FROM idempotency_keys k
         WHERE k.game_id = $1 AND k.user_id = $2 AND k.key = $3) AS idempotent";

/// Whether the caller's sign-in session (`$4`) is live, checked in the same
/// round trip as the game.
const SESSION_LIVE: &str = ",
       EXISTS (SELECT 1 FROM sessions s
                WHERE s.id = $4 AND s.user_id = $2 AND s.revoked_at IS NULL) AS session_live";

/// The load statement: with the response stored under an idempotency key
/// or not, locking the row or not, checking a session or not (eight
/// constant texts). Without a key the statement does not mention
/// `idempotency_keys` at all, so its plan is one primary-key lookup. (One text with a `NULL` key was re-planned on every
/// execution: PostgreSQL's plan for the actual `NULL` always looked cheaper
/// than the cached generic one.)
pub(crate) fn load_sql(with_key: bool, for_update: bool, with_session: bool) -> &'static str {
    static TEXTS: LazyLock<Vec<String>> = LazyLock::new(|| {
        (0..8)
            .map(|bits| {
                format!(
                    "SELECT g.*,{LOAD_SEATS_JSON}{CONDITIONALS}{}{}\n  FROM games g\n WHERE g.id = $1{}",
                    if bits & 1 != 0 {
                        IDEMPOTENT
                    } else {
                        ",\n       NULL::json AS idempotent"
                    },
                    if bits & 4 != 0 {
                        SESSION_LIVE
                    } else {
                        ",\n       NULL::bool AS session_live"
                    },
                    if bits & 2 != 0 {
                        " FOR UPDATE OF g"
                    } else {
                        ""
                    }
                )
            })
            .collect()
    });
    &TEXTS[usize::from(with_key) | usize::from(for_update) << 1 | usize::from(with_session) << 2]
}

/// One round trip: the game, its seats, and the response stored for
/// (`user`, `idempotency_key`) on this game if any (a key is unique per user
/// and game).
///
/// # Errors
/// Database errors.
pub async fn load(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    user: Option<Uuid>,
    idempotency_key: Option<&str>,
) -> QueryResult<Option<LoadedGame>> {
    load_with(conn, id, user, None, idempotency_key, false).await
}

/// [`load`] for `user` in sign-in `session`, whose liveness comes back in
/// [`LoadedGame::session_live`] (same round trip).
///
/// # Errors
/// Database errors.
pub async fn load_checking(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    user: Uuid,
    session: Uuid,
    idempotency_key: Option<&str>,
) -> QueryResult<Option<LoadedGame>> {
    load_with(conn, id, Some(user), Some(session), idempotency_key, false).await
}

async fn load_with(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    user: Option<Uuid>,
    session: Option<Uuid>,
    idempotency_key: Option<&str>,
    for_update: bool,
) -> QueryResult<Option<LoadedGame>> {
    let with_key = user.is_some() && idempotency_key.is_some();
    let with_session = user.is_some() && session.is_some();
    let row: Option<LoadedRow> = crate::db::prepared::Prepared(
        diesel::sql_query(load_sql(with_key, for_update, with_session))
            .bind::<SqlUuid, _>(id)
            .bind::<Nullable<SqlUuid>, _>(user)
            .bind::<Nullable<Text>, _>(idempotency_key)
            .bind::<Nullable<SqlUuid>, _>(session),
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
        let conditionals = serde_json::from_value(r.conditionals)
            .map_err(|e| diesel::result::Error::DeserializationError(Box::new(e)))?;
        Ok(LoadedGame {
            game: r.game,
            seats,
            idempotent,
            session_live: r.session_live.unwrap_or(false),
            conditionals,
        })
    })
    .transpose()
}

/// Forgets `user`'s idempotency key `key` on `game` if it was stored at or
/// before `expired_by` (an expired key is a new request; the pruner may not
/// have come by yet).
///
/// # Errors
/// Database errors.
pub async fn forget_expired_key(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    user: Uuid,
    key: &str,
    expired_by: DateTime<Utc>,
) -> QueryResult<()> {
    use crate::db::schema::idempotency_keys as k;
    diesel::delete(
        k::table
            .filter(k::game_id.eq(game))
            .filter(k::user_id.eq(user))
            .filter(k::key.eq(key))
            .filter(k::created_at.le(expired_by)),
    )
    .execute(conn)
    .await
    .map(|_| ())
}

/// The game row locked for update (inside a transaction), with its seats.
///
/// # Errors
/// Database errors.
pub async fn load_for_update(
    conn: &mut AsyncPgConnection,
    id: Uuid,
) -> QueryResult<Option<LoadedGame>> {
    load_with(conn, id, None, None, None, true).await
}

/// The new state of a game after a command.
#[derive(Debug)]
pub struct Update<'a> {
    pub id: Uuid,
    pub expected_version: i64,
    pub version: i64,
    pub last_hash: &'a str,
    pub state: Option<&'a JsonText>,
    pub to_act: &'a [i16],
    pub status: &'a str,
    pub result: Option<&'a Value>,
    pub updated_at: DateTime<Utc>,
    pub events: &'a [LoggedEvent],
    /// The new deadline (the clock restarts at every version).
    pub deadline: Option<DateTime<Utc>>,
    /// Seats whose counters changed: `[{seat, timeouts, vacation_used_secs,
    /// resigned_at, clock, vacant_since}]`.
    pub seats: &'a Value,
    /// Notifications to write: `[{user_id, kind, payload}]`.
    pub notifications: &'a Value,
    /// Conditional lines brought up to the new version: `[{seat, lines,
    /// was}]`, `lines` null for a seat whose lines are all gone, `was` the
    /// lines as loaded.
    pub conditionals: &'a Value,
    /// The table's pause after the step (`record::pause`).
    pub pause: Option<&'a Value>,
}

/// A response to remember for an idempotency key.
#[derive(Debug)]
pub struct Remember<'a> {
    pub user: Uuid,
    pub key: &'a str,
    pub request_hash: &'a str,
    pub status: i16,
    /// The response's JSON text.
    pub body: &'a str,
}

#[derive(QueryableByName)]
struct Applied {
    #[diesel(sql_type = BigInt)]
    bumped: i64,
    #[diesel(sql_type = diesel::sql_types::Jsonb)]
    noted: Value,
}

/// What an append wrote: nothing (a lost race), or the notifications to
/// announce once committed.
pub type Appended = Option<Vec<Noted>>;

/// The parts of the append statement, each present only when the update
/// has something for it (a statement with fewer parts is cheaper to start).
/// PostgreSQL runs every data-modifying CTE to completion whether or not the
/// final `SELECT` reads it.
const BUMPED: &str = r#"
WITH bumped AS (
    UPDATE games
       SET version = $3, last_hash = $4, state = $5, to_act = $6, status = $7,
           result = $8, updated_at = $9, deadline = $16, pause = $20
     WHERE id = $1 AND version = $2
 RETURNING id
), appended AS (
    INSERT INTO events (game_id, seq, "type", data, actor_user, actor_seat, command, digest,
                        created_at, schema_version)
    SELECT b.id, e.seq, e."type", e.data, e.actor_user, e.actor_seat, e.command, decode(e.hash, 'hex'),
           e.created_at, e.schema_version
      FROM bumped b,
           jsonb_to_recordset($10) AS e(seq bigint, "type" text, data jsonb, actor_user uuid,
                                        actor_seat smallint, command jsonb, hash text,
                                        created_at timestamptz, schema_version smallint)
    RETURNING seq
)"#;

const REMEMBERED: &str = "
, remembered AS (
    INSERT INTO idempotency_keys (user_id, key, game_id, request_hash, response_status, response_body, created_at)
    SELECT $11, $12, b.id, $13, $14, $15::jsonb, $9
      FROM bumped b
    RETURNING 1
)";

const SEATED: &str = "
, seated AS (
    UPDATE seats s
       SET timeouts = u.timeouts, vacation_used_secs = u.vacation_used_secs, resigned_at = u.resigned_at,
           clock = u.clock,
           vacant_since = CASE WHEN u.vacant_since IS NOT NULL
                               THEN coalesce(s.vacant_since, u.vacant_since) END
      FROM bumped b,
           jsonb_to_recordset($17) AS u(seat smallint, timeouts integer, vacation_used_secs bigint,
                                        resigned_at timestamptz, clock jsonb,
                                        vacant_since timestamptz)
     WHERE s.game_id = b.id AND s.seat = u.seat
    RETURNING 1
)";

/// Conditional lines brought up to the new version: each row as the step
/// loaded it (`was`), so that lines stored while the step was deciding are
/// left behind at the old version (stale: the next step drops them).
const LINED: &str = "
, unlined AS (
    DELETE FROM conditional_lines c
     USING bumped b, jsonb_to_recordset($19) AS u(seat smallint, lines jsonb, was jsonb)
     WHERE c.game_id = b.id AND c.seat = u.seat AND u.lines IS NULL AND c.lines = u.was
    RETURNING 1
), relined AS (
    UPDATE conditional_lines c
       SET lines = u.lines, at_version = $3, updated_at = $9
      FROM bumped b, jsonb_to_recordset($19) AS u(seat smallint, lines jsonb, was jsonb)
     WHERE c.game_id = b.id AND c.seat = u.seat AND u.lines IS NOT NULL
       AND c.lines = u.was AND c.at_version = $2
    RETURNING 1
)";

const NOTED: &str = "
, noted AS (
    INSERT INTO notifications (user_id, game_id, kind, payload, created_at)
    SELECT n.user_id, b.id, n.kind, n.payload, $9
      FROM bumped b, jsonb_to_recordset($18) AS n(user_id uuid, kind text, payload jsonb)
    RETURNING user_id, id, game_id, kind, payload, created_at
),";

/// The append statement for an update that remembers a response or not,
/// updates seats or not, notifies or not, and brings conditional lines up
/// or not (sixteen constant texts, each prepared once per connection).
pub(crate) fn append_sql(remember: bool, seats: bool, notes: bool, lines: bool) -> &'static str {
    static TEXTS: LazyLock<Vec<String>> = LazyLock::new(|| {
        (0..16)
            .map(|bits| {
                let mut sql = String::from(BUMPED);
                if bits & 1 != 0 {
                    sql.push_str(REMEMBERED);
                }
                if bits & 2 != 0 {
                    sql.push_str(SEATED);
                }
                if bits & 8 != 0 {
                    sql.push_str(LINED);
                }
                if bits & 4 != 0 {
                    sql.push_str(NOTED);
                    sql.push_str(&FAN_OUT);
                    sql.push_str("\nSELECT (SELECT count(*) FROM bumped) AS bumped,");
                    sql.push_str(NOTED_JSON);
                } else {
                    sql.push_str(
                        "\nSELECT (SELECT count(*) FROM bumped) AS bumped, '[]'::jsonb AS noted",
                    );
                }
                sql
            })
            .collect()
    });
    &TEXTS[usize::from(remember)
        | usize::from(seats) << 1
        | usize::from(notes) << 2
        | usize::from(lines) << 3]
}

fn non_empty(array: &Value) -> bool {
    array.as_array().is_some_and(|a| !a.is_empty())
}

/// One statement: bump the game from `expected_version` to its new version,
/// snapshot and deadline, append the events, update the seats' counters,
/// write the notifications and queue their webhook deliveries, and remember
/// the idempotent response — all or nothing. Listeners are told after the
/// commit, by the [`Announcer`](crate::wake::Announcer): a NOTIFY inside
/// this statement would serialize every commit of the server on PostgreSQL's
/// notify lock. Returns nothing applied (and writes nothing) when the game is
/// no longer at `expected_version`.
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
    let sql = append_sql(
        remember.is_some(),
        non_empty(update.seats),
        non_empty(update.notifications),
        non_empty(update.conditionals),
    );
    let applied: Applied = crate::db::prepared::Prepared(
        diesel::sql_query(sql)
            .bind::<SqlUuid, _>(update.id)
            .bind::<BigInt, _>(update.expected_version)
            .bind::<BigInt, _>(update.version)
            .bind::<Text, _>(update.last_hash)
            .bind::<Nullable<Text>, _>(update.state)
            .bind::<Array<SmallInt>, _>(update.to_act)
            .bind::<Text, _>(update.status)
            .bind::<Nullable<Jsonb>, _>(update.result)
            .bind::<Timestamptz, _>(update.updated_at)
            .bind::<Jsonb, _>(&events)
            .bind::<Nullable<SqlUuid>, _>(remember.map(|r| r.user))
            .bind::<Nullable<Text>, _>(remember.map(|r| r.key))
            .bind::<Nullable<Text>, _>(remember.map(|r| r.request_hash))
            .bind::<Nullable<Int2>, _>(remember.map(|r| r.status))
            .bind::<Nullable<Text>, _>(remember.map(|r| r.body))
            .bind::<Nullable<Timestamptz>, _>(update.deadline)
            .bind::<Jsonb, _>(update.seats)
            .bind::<Jsonb, _>(update.notifications)
            .bind::<Jsonb, _>(update.conditionals)
            .bind::<Nullable<Jsonb>, _>(update.pause),
    )
    .get_result(conn)
    .await?;
    if applied.bumped != 1 {
        return Ok(None);
    }
    parse_noted(applied.noted).map(Some)
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

/// The user holding `seat` at game `id` and their username (none: no such
/// game or seat): one primary-key lookup, for a reply that names a seat.
///
/// # Errors
/// Database errors.
pub async fn seat_holder(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    seat: i16,
) -> QueryResult<Option<(Uuid, String)>> {
    use super::schema::{seats, users};
    seats::table
        .inner_join(users::table.on(users::id.eq(seats::user_id)))
        .filter(seats::game_id.eq(id).and(seats::seat.eq(seat)))
        .select((seats::user_id, users::username))
        .first(conn)
        .await
        .optional()
}

/// Where a walk through the games that are over has got to: the end time and
/// id of the last game returned (games are ordered by both).
pub type EndedCursor = (DateTime<Utc>, Uuid);

/// A user's games that are over, by end time: `seats_ended`.
pub(crate) const ENDED_OF_USER: &str =
    "SELECT s.game_finished_at AS at, s.game_id AS id FROM seats s
  WHERE s.user_id = $1 AND s.game_finished_at IS NOT NULL
    AND (s.game_finished_at, s.game_id) > ($2, $3)
  ORDER BY s.game_finished_at, s.game_id
  LIMIT $4";

/// Every game that is over, by end time: `games_ended`.
pub(crate) const ENDED: &str = "SELECT g.finished_at AS at, g.id FROM games g
  WHERE g.finished_at IS NOT NULL
    AND (g.finished_at, g.id) > ($1, $2)
  ORDER BY g.finished_at, g.id
  LIMIT $3";

/// Up to `limit` games that are over (finished or abandoned) and ended after
/// `after`, oldest first; only those `user` was seated in, when given. The
/// end time is `finished_at` (the last `updated_at` of a game, fixed once it
/// is over). With a user, the walk goes through that user's seats
/// (`seats_ended`); without, through every game that is over (`games_ended`):
/// each page reads its own rows only, wherever the cursor is.
///
/// # Errors
/// Database errors.
pub async fn ended_after(
    conn: &mut AsyncPgConnection,
    user: Option<Uuid>,
    after: EndedCursor,
    limit: i64,
) -> QueryResult<Vec<EndedCursor>> {
    use diesel::sql_types::Timestamptz;
    #[derive(QueryableByName)]
    struct Ended {
        #[diesel(sql_type = Timestamptz)]
        at: DateTime<Utc>,
        #[diesel(sql_type = SqlUuid)]
        id: Uuid,
    }
    let (time, id) = after;
    let rows: Vec<Ended> = match user {
        Some(user) => {
            super::prepared::Prepared(
                diesel::sql_query(ENDED_OF_USER)
                    .bind::<SqlUuid, _>(user)
                    .bind::<Timestamptz, _>(time)
                    .bind::<SqlUuid, _>(id)
                    .bind::<BigInt, _>(limit),
            )
            .load(conn)
            .await?
        }
        None => {
            super::prepared::Prepared(
                diesel::sql_query(ENDED)
                    .bind::<Timestamptz, _>(time)
                    .bind::<SqlUuid, _>(id)
                    .bind::<BigInt, _>(limit),
            )
            .load(conn)
            .await?
        }
    };
    Ok(rows.into_iter().map(|r| (r.at, r.id)).collect())
}

/// Inserts a new game's row.
///
/// # Errors
/// Database errors.
pub async fn insert(conn: &mut AsyncPgConnection, row: &GameRow) -> QueryResult<()> {
    diesel::insert_into(games::table)
        .values(row)
        .execute(conn)
        .await?;
    Ok(())
}

/// Stores a change of a game that was locked for update (a join, a start,
/// a decline, a cancellation): its version, hash, snapshot, turn, status,
/// result and deadline.
///
/// # Errors
/// Database errors.
pub async fn store_locked(conn: &mut AsyncPgConnection, game: &GameRow) -> QueryResult<()> {
    diesel::update(games::table.find(game.id))
        .set((
            games::version.eq(game.version),
            games::last_hash.eq(&game.last_hash),
            games::state.eq(game.state.as_ref()),
            games::to_act.eq(&game.to_act),
            games::status.eq(&game.status),
            games::result.eq(game.result.as_ref()),
            games::updated_at.eq(game.updated_at),
            games::deadline.eq(game.deadline),
        ))
        .execute(conn)
        .await?;
    Ok(())
}

/// Takes seats: one row each, joined at `at`.
///
/// # Errors
/// Database errors (a seat or user taken twice).
pub async fn insert_seats(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    rows: &[SeatRow],
    at: DateTime<Utc>,
) -> QueryResult<()> {
    use super::schema::seats;
    if rows.is_empty() {
        return Ok(());
    }
    let values: Vec<_> = rows
        .iter()
        .map(|r| {
            (
                seats::game_id.eq(game),
                seats::seat.eq(r.seat),
                seats::user_id.eq(r.user_id),
                seats::joined_at.eq(at),
                seats::salt.eq(r.salt.as_deref()),
            )
        })
        .collect();
    diesel::insert_into(seats::table)
        .values(values)
        .execute(conn)
        .await?;
    Ok(())
}

/// Writes the clocks of game `game`'s seats as its start set them:
/// `[{seat, clock}]`.
///
/// # Errors
/// Database errors.
pub async fn set_seat_clocks(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    clocks: &Value,
) -> QueryResult<()> {
    diesel::sql_query(
        "UPDATE seats s SET clock = u.clock
           FROM jsonb_to_recordset($2) AS u(seat smallint, clock jsonb)
          WHERE s.game_id = $1 AND s.seat = u.seat",
    )
    .bind::<SqlUuid, _>(game)
    .bind::<diesel::sql_types::Jsonb, _>(clocks)
    .execute(conn)
    .await
    .map(|_| ())
}

/// What a page of games holds: only games with this `status` and
/// `ruleset`, created before `before` (the cursor), where `member` sits
/// (and, with `my_turn`, is to act), that `viewer` may see; at most `limit`.
pub struct ListQuery<'a> {
    pub status: Option<&'a str>,
    pub ruleset: Option<&'a str>,
    pub before: Option<(DateTime<Utc>, Uuid)>,
    pub member: Option<Uuid>,
    pub my_turn: bool,
    pub limit: i64,
    pub viewer: Option<Uuid>,
}

/// A listed game with its seats.
#[derive(QueryableByName)]
pub struct ListedRow {
    #[diesel(embed)]
    pub game: GameRow,
    /// The seats, as a JSON array of [`SeatRow`]s.
    #[diesel(sql_type = Json)]
    pub seats: Value,
}

pub(crate) fn list_sql() -> String {
    [LIST_HEAD, SEATS_JSON, LIST_TAIL].concat()
}

const LIST_HEAD: &str = "
SELECT g.id, g.ruleset, g.players, g.options, '' AS seed, g.seed_public, g.seed_commitment,
       g.status, g.version, g.last_hash, NULL::text AS state, g.to_act, g.result,
       g.created_by, g.created_at, g.updated_at, g.server_options, g.deadline, g.private,
       NULL::text AS invite_code, g.rules_version, g.archived_at, g.pause,";

const LIST_TAIL: &str = "
  FROM games g
 WHERE ($1::text IS NULL OR g.status = $1)
   AND ($2::text IS NULL OR g.ruleset = $2)
   AND ($3::timestamptz IS NULL OR (g.created_at, g.id) < ($3, $4))
   AND ($5::uuid IS NULL OR EXISTS (
            SELECT 1 FROM seats m
             WHERE m.game_id = g.id AND m.user_id = $5
               AND (NOT $6 OR m.seat = ANY (g.to_act))))
   AND ((NOT g.private AND coalesce(g.server_options->>'spectators', 'public') = 'public')
        OR ($8::uuid IS NOT NULL AND (
            EXISTS (SELECT 1 FROM seats v WHERE v.game_id = g.id AND v.user_id = $8)
         OR EXISTS (SELECT 1 FROM invitations i WHERE i.game_id = g.id AND i.user_id = $8
                       AND i.declined_at IS NULL))))
 ORDER BY g.created_at DESC, g.id DESC
 LIMIT $7";

/// The games `query` asks for, newest first (without seeds, snapshots or
/// invite codes: a list shows none of them; with results, public once a
/// game is over).
///
/// # Errors
/// Database errors.
pub async fn list(
    conn: &mut AsyncPgConnection,
    query: &ListQuery<'_>,
) -> QueryResult<Vec<ListedRow>> {
    use diesel::sql_types::{Bool, Timestamptz};
    if let Some(member) = query.member {
        return list_member(conn, member, query).await;
    }
    super::prepared::Prepared(
        diesel::sql_query(list_sql())
            .bind::<Nullable<Text>, _>(query.status)
            .bind::<Nullable<Text>, _>(query.ruleset)
            .bind::<Nullable<Timestamptz>, _>(query.before.map(|c| c.0))
            .bind::<Nullable<SqlUuid>, _>(query.before.map(|c| c.1))
            .bind::<Nullable<SqlUuid>, _>(query.member)
            .bind::<Bool, _>(query.my_turn)
            .bind::<BigInt, _>(query.limit)
            .bind::<Nullable<SqlUuid>, _>(query.viewer),
    )
    .load(conn)
    .await
}

const MEMBER_FROM: &str = "
  FROM seats m
  JOIN games g ON g.id = m.game_id
 WHERE m.user_id = $1";

const MEMBER_TAIL: &str = "
   AND ($5::text IS NULL OR g.ruleset = $5)
   AND (NOT g.private OR m.user_id = $6)
 ORDER BY m.game_created_at DESC, m.game_id DESC
 LIMIT $7";

/// The statement listing one member's games: with a status or not, after a
/// cursor or not, only where the member is to act or not (eight constant
/// texts, each planned once per connection). It walks the member's own
/// seats, newest game first, through `seats_inbox_by_status` (with a status)
/// or `seats_inbox`: what it reads grows with the member's games, never
/// with the server's. A filter in the text rather than `$2 IS NULL OR …`
/// lets the generic plan use the index for it. `turn=mine` reads the
/// member's active games only (a seat is to act only in an active game)
/// and checks each one's `to_act`: the turn moves on every command, and an
/// index on it would cost every command a write.
pub(crate) fn member_sql(status: bool, cursor: bool, my_turn: bool) -> &'static str {
    static TEXTS: LazyLock<Vec<String>> = LazyLock::new(|| {
        (0..8)
            .map(|bits| {
                let mut sql = [LIST_HEAD, SEATS_JSON, MEMBER_FROM].concat();
                if bits & 1 != 0 {
                    sql.push_str("\n   AND m.game_status = $2");
                }
                if bits & 2 != 0 {
                    sql.push_str("\n   AND (m.game_created_at, m.game_id) < ($3, $4)");
                }
                if bits & 4 != 0 {
                    sql.push_str("\n   AND m.seat = ANY (g.to_act)");
                }
                sql.push_str(MEMBER_TAIL);
                sql
            })
            .collect()
    });
    &TEXTS[usize::from(status) | usize::from(cursor) << 1 | usize::from(my_turn) << 2]
}

/// The games `member` sits in (see [`member_sql`]). Private games show only
/// when the viewer is the member.
async fn list_member(
    conn: &mut AsyncPgConnection,
    member: Uuid,
    query: &ListQuery<'_>,
) -> QueryResult<Vec<ListedRow>> {
    use diesel::sql_types::Timestamptz;
    // Only an active game has seats to act.
    let status = match (query.status, query.my_turn) {
        (None, true) => Some("active"),
        (status, _) => status,
    };
    super::prepared::Prepared(
        diesel::sql_query(member_sql(
            status.is_some(),
            query.before.is_some(),
            query.my_turn,
        ))
        .bind::<SqlUuid, _>(member)
        .bind::<Nullable<Text>, _>(status)
        .bind::<Nullable<Timestamptz>, _>(query.before.map(|c| c.0))
        .bind::<Nullable<SqlUuid>, _>(query.before.map(|c| c.1))
        .bind::<Nullable<Text>, _>(query.ruleset)
        .bind::<Nullable<SqlUuid>, _>(query.viewer)
        .bind::<BigInt, _>(query.limit),
    )
    .load(conn)
    .await
}

/// The active games whose deadline passed: the partial index `games_due`.
pub(crate) const DUE_DEADLINES: &str = "SELECT id FROM games
          WHERE status = 'active' AND deadline <= now()
          ORDER BY deadline
          LIMIT 16
            FOR UPDATE SKIP LOCKED";

/// Locks up to 16 active games whose deadline has passed, earliest first,
/// skipping those another worker holds (`FOR UPDATE SKIP LOCKED`): no two
/// processes time out one game.
///
/// # Errors
/// Database errors.
pub async fn claim_due_deadlines(conn: &mut AsyncPgConnection) -> QueryResult<Vec<Uuid>> {
    #[derive(QueryableByName)]
    struct Due {
        #[diesel(sql_type = SqlUuid)]
        id: Uuid,
    }
    let due: Vec<Due> = diesel::sql_query(DUE_DEADLINES).load(conn).await?;
    Ok(due.into_iter().map(|d| d.id).collect())
}

/// Clears the deadline of game `id` (one the engine cannot time out).
///
/// # Errors
/// Database errors.
pub async fn clear_deadline(conn: &mut AsyncPgConnection, id: Uuid) -> QueryResult<()> {
    diesel::sql_query("UPDATE games SET deadline = NULL WHERE id = $1")
        .bind::<SqlUuid, _>(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// A game over of one player, for their profile: the row, its seats, when
/// it ended, and whether it is listed to everyone (public, and anyone may
/// watch it).
#[derive(QueryableByName)]
pub struct EndedRow {
    #[diesel(embed)]
    pub game: GameRow,
    /// The seats, as a JSON array of [`SeatRow`]s.
    #[diesel(sql_type = Json)]
    pub seats: Value,
    #[diesel(sql_type = diesel::sql_types::Timestamptz)]
    pub ended_at: DateTime<Utc>,
    #[diesel(sql_type = diesel::sql_types::Bool)]
    pub listed: bool,
}

/// The statement of [`ended_of`], after a cursor or not.
fn ended_sql(cursor: bool) -> &'static str {
    static TEXTS: LazyLock<Vec<String>> = LazyLock::new(|| {
        [false, true]
            .iter()
            .map(|cursor| {
                format!(
                    "WITH scanned AS (
    SELECT m.game_id, m.game_finished_at FROM seats m
     WHERE m.user_id = $1 AND m.game_finished_at IS NOT NULL{}
     ORDER BY m.game_finished_at DESC, m.game_id DESC
     LIMIT $2
){LIST_HEAD}{SEATS_JSON},
       sc.game_finished_at AS ended_at,
       (NOT g.private AND coalesce(g.server_options->>'spectators', 'public') = 'public') AS listed
  FROM scanned sc JOIN games g ON g.id = sc.game_id
 ORDER BY sc.game_finished_at DESC, sc.game_id DESC",
                    if *cursor {
                        "\n       AND (m.game_finished_at, m.game_id) < ($3, $4)"
                    } else {
                        ""
                    }
                )
            })
            .collect()
    });
    &TEXTS[usize::from(cursor)]
}

/// Up to `scan` of `user`'s games over, the latest ended first (before
/// `before`, an end time and game id, when given), listed or not: it walks
/// the user's own seats backwards through `seats_ended`, so it reads at
/// most `scan` seats and as many games by primary key, whatever the user's
/// history.
///
/// # Errors
/// Database errors.
pub async fn ended_of(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    before: Option<(DateTime<Utc>, Uuid)>,
    scan: i64,
) -> QueryResult<Vec<EndedRow>> {
    use diesel::sql_types::Timestamptz;
    let query = diesel::sql_query(ended_sql(before.is_some()))
        .bind::<SqlUuid, _>(user)
        .bind::<BigInt, _>(scan);
    match before {
        Some((at, id)) => {
            query
                .bind::<Timestamptz, _>(at)
                .bind::<SqlUuid, _>(id)
                .load(conn)
                .await
        }
        None => query.load(conn).await,
    }
}
