//! Table talk's rows: messages, mutes, reports and operators (docs/talk.md).
//! What a viewer may read is decided in the statement that reads it, so a
//! page costs what the viewer is shown, never the game's whole talk.

use chrono::{DateTime, Utc};
use diesel::OptionalExtension;
use diesel::sql_types::{Array, Bool, Int2, Int8, Nullable, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

/// A stored message, with its author's and hider's usernames.
#[derive(Debug, Clone, PartialEq, Eq, diesel::QueryableByName)]
pub struct MessageRow {
    #[diesel(sql_type = SqlUuid)]
    pub game_id: Uuid,
    #[diesel(sql_type = SqlUuid)]
    pub id: Uuid,
    #[diesel(sql_type = SqlUuid)]
    pub author: Uuid,
    #[diesel(sql_type = Text)]
    pub author_name: String,
    #[diesel(sql_type = Nullable<Int2>)]
    pub author_seat: Option<i16>,
    #[diesel(sql_type = Text)]
    pub room: String,
    #[diesel(sql_type = Array<Int2>)]
    pub to_seats: Vec<i16>,
    #[diesel(sql_type = Text)]
    pub body: String,
    #[diesel(sql_type = Text)]
    pub salt: String,
    #[diesel(sql_type = Timestamptz)]
    pub created_at: DateTime<Utc>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    pub hidden_at: Option<DateTime<Utc>>,
    #[diesel(sql_type = Nullable<Text>)]
    pub hidden_by: Option<String>,
}

const COLUMNS: &str = "m.game_id, m.id, m.author,
       (SELECT u.username FROM users u WHERE u.id = m.author) AS author_name,
       m.author_seat, m.room, m.to_seats, m.body, m.salt, m.created_at, m.hidden_at,
       (SELECT u.username FROM users u WHERE u.id = m.hidden_by) AS hidden_by";

/// A message to write.
#[derive(Debug, Clone)]
pub struct NewMessage<'a> {
    pub game_id: Uuid,
    pub id: Uuid,
    pub author: Uuid,
    pub author_seat: Option<i16>,
    pub room: &'a str,
    pub to_seats: &'a [i16],
    pub body: &'a str,
    pub salt: &'a str,
    pub at: DateTime<Utc>,
}

/// Writes a message.
///
/// # Errors
/// Database errors.
pub async fn insert(conn: &mut AsyncPgConnection, m: &NewMessage<'_>) -> diesel::QueryResult<()> {
    diesel::sql_query(
        "INSERT INTO talk_messages (game_id, id, author, author_seat, room, to_seats, body, salt, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind::<SqlUuid, _>(m.game_id)
    .bind::<SqlUuid, _>(m.id)
    .bind::<SqlUuid, _>(m.author)
    .bind::<Nullable<Int2>, _>(m.author_seat)
    .bind::<Text, _>(m.room)
    .bind::<Array<Int2>, _>(m.to_seats)
    .bind::<Text, _>(m.body)
    .bind::<Text, _>(m.salt)
    .bind::<Timestamptz, _>(m.at)
    .execute(conn)
    .await
    .map(|_| ())
}

/// Who reads: the viewer (none: signed out), their seat, and whether the
/// game is over and reveals its press then.
#[derive(Debug, Clone, Copy)]
pub struct Reader {
    pub user: Option<Uuid>,
    pub seat: Option<i16>,
    pub over: bool,
    pub press_revealed: bool,
}

/// The messages of `game` that `reader` reads (the rules of
/// `talk::reads`, and without the authors the reader muted or blocks), after the
/// position `after` (time, id) or else the newest, oldest first, at most
/// `limit`.
///
/// # Errors
/// Database errors.
pub async fn list(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    reader: Reader,
    after: Option<(DateTime<Utc>, Uuid)>,
    limit: i64,
) -> diesel::QueryResult<Vec<MessageRow>> {
    let visible = "m.game_id = $1
       AND (m.room = 'table'
            OR (m.room = 'spectators' AND ($3::int2 IS NULL OR $4))
            OR (m.room = 'press' AND (($4 AND $5) OR m.author_seat = $3 OR $3 = ANY (m.to_seats))))
       AND ($2::uuid IS NULL OR (NOT EXISTS
              (SELECT 1 FROM talk_mutes t WHERE t.user_id = $2 AND t.muted = m.author)
            AND NOT EXISTS
              (SELECT 1 FROM user_blocks b WHERE b.user_id = $2 AND b.blocked = m.author)))";
    let sql = match after {
        Some(_) => format!(
            "SELECT {COLUMNS} FROM talk_messages m
              WHERE {visible} AND (m.created_at, m.id) > ($6, $7)
              ORDER BY m.created_at, m.id LIMIT $8"
        ),
        None => format!(
            "SELECT * FROM (SELECT {COLUMNS} FROM talk_messages m
              WHERE {visible} AND $6::timestamptz IS NULL AND $7::uuid IS NULL
              ORDER BY m.created_at DESC, m.id DESC LIMIT $8) newest
              ORDER BY created_at, id"
        ),
    };
    diesel::sql_query(sql)
        .bind::<SqlUuid, _>(game)
        .bind::<Nullable<SqlUuid>, _>(reader.user)
        .bind::<Nullable<Int2>, _>(reader.seat)
        .bind::<Bool, _>(reader.over)
        .bind::<Bool, _>(reader.press_revealed)
        .bind::<Nullable<Timestamptz>, _>(after.map(|a| a.0))
        .bind::<Nullable<SqlUuid>, _>(after.map(|a| a.1))
        .bind::<Int8, _>(limit)
        .load(conn)
        .await
}

/// The newest `limit` messages of `game` that `reader` (signed in) reads
/// and did not say, not hidden, said after `since` (or ever), oldest first
/// (a turn mail's talk).
///
/// # Errors
/// Database errors.
pub async fn said_to(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    reader: Reader,
    since: Option<DateTime<Utc>>,
    limit: i64,
) -> diesel::QueryResult<Vec<MessageRow>> {
    diesel::sql_query(format!(
        "SELECT * FROM (SELECT {COLUMNS} FROM talk_messages m
          WHERE m.game_id = $1
            AND (m.room = 'table'
                 OR (m.room = 'spectators' AND ($3::int2 IS NULL OR $4))
                 OR (m.room = 'press' AND (($4 AND $5) OR m.author_seat = $3 OR $3 = ANY (m.to_seats))))
            AND NOT EXISTS (SELECT 1 FROM talk_mutes t WHERE t.user_id = $2 AND t.muted = m.author)
            AND NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.user_id = $2 AND b.blocked = m.author)
            AND m.author <> $2 AND m.hidden_at IS NULL
            AND ($6::timestamptz IS NULL OR m.created_at > $6)
          ORDER BY m.created_at DESC, m.id DESC LIMIT $7) newest
          ORDER BY created_at, id"
    ))
    .bind::<SqlUuid, _>(game)
    .bind::<SqlUuid, _>(reader.user.unwrap_or_else(Uuid::nil))
    .bind::<Nullable<Int2>, _>(reader.seat)
    .bind::<Bool, _>(reader.over)
    .bind::<Bool, _>(reader.press_revealed)
    .bind::<Nullable<Timestamptz>, _>(since)
    .bind::<Int8, _>(limit)
    .load(conn)
    .await
}

/// Every message of `game`, oldest first (for its audit).
///
/// # Errors
/// Database errors.
pub async fn all(conn: &mut AsyncPgConnection, game: Uuid) -> diesel::QueryResult<Vec<MessageRow>> {
    diesel::sql_query(format!(
        "SELECT {COLUMNS} FROM talk_messages m WHERE m.game_id = $1 ORDER BY m.created_at, m.id"
    ))
    .bind::<SqlUuid, _>(game)
    .load(conn)
    .await
}

/// Message `id` of `game`.
///
/// # Errors
/// Database errors.
pub async fn find(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    id: Uuid,
) -> diesel::QueryResult<Option<MessageRow>> {
    diesel::sql_query(format!(
        "SELECT {COLUMNS} FROM talk_messages m WHERE m.game_id = $1 AND m.id = $2"
    ))
    .bind::<SqlUuid, _>(game)
    .bind::<SqlUuid, _>(id)
    .get_result(conn)
    .await
    .optional()
}

#[derive(diesel::QueryableByName)]
struct Flag {
    #[diesel(sql_type = Bool)]
    yes: bool,
}

/// Whether every one of `users` muted `author` (false for none).
///
/// # Errors
/// Database errors.
pub async fn muted_by_all(
    conn: &mut AsyncPgConnection,
    author: Uuid,
    users: &[Uuid],
) -> diesel::QueryResult<bool> {
    if users.is_empty() {
        return Ok(false);
    }
    let flag: Flag = diesel::sql_query(
        "SELECT (SELECT count(*) FROM talk_mutes
                  WHERE muted = $1 AND user_id = ANY ($2)) = cardinality($2) AS yes",
    )
    .bind::<SqlUuid, _>(author)
    .bind::<Array<SqlUuid>, _>(users)
    .get_result(conn)
    .await?;
    Ok(flag.yes)
}

/// Of `users`, those who neither mute nor block `author`.
///
/// # Errors
/// Database errors.
pub async fn not_muting(
    conn: &mut AsyncPgConnection,
    author: Uuid,
    users: &[Uuid],
) -> diesel::QueryResult<Vec<Uuid>> {
    #[derive(diesel::QueryableByName)]
    struct U {
        #[diesel(sql_type = SqlUuid)]
        id: Uuid,
    }
    if users.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<U> = diesel::sql_query(
        "SELECT u AS id FROM unnest($2::uuid[]) AS u
          WHERE NOT EXISTS (SELECT 1 FROM talk_mutes t WHERE t.user_id = u AND t.muted = $1)
            AND NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.user_id = u AND b.blocked = $1)",
    )
    .bind::<SqlUuid, _>(author)
    .bind::<Array<SqlUuid>, _>(users)
    .load(conn)
    .await?;
    Ok(rows.into_iter().map(|r| r.id).collect())
}

/// `user` mutes `muted` (again: nothing changes).
///
/// # Errors
/// Database errors.
pub async fn mute(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    muted: Uuid,
    at: DateTime<Utc>,
) -> diesel::QueryResult<()> {
    diesel::sql_query(
        "INSERT INTO talk_mutes (user_id, muted, created_at) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING",
    )
    .bind::<SqlUuid, _>(user)
    .bind::<SqlUuid, _>(muted)
    .bind::<Timestamptz, _>(at)
    .execute(conn)
    .await
    .map(|_| ())
}

/// `user` no longer mutes `muted`.
///
/// # Errors
/// Database errors.
pub async fn unmute(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    muted: Uuid,
) -> diesel::QueryResult<()> {
    diesel::sql_query("DELETE FROM talk_mutes WHERE user_id = $1 AND muted = $2")
        .bind::<SqlUuid, _>(user)
        .bind::<SqlUuid, _>(muted)
        .execute(conn)
        .await
        .map(|_| ())
}

/// The usernames `user` muted, in name order (at most `limit`).
///
/// # Errors
/// Database errors.
pub async fn mutes(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    limit: i64,
) -> diesel::QueryResult<Vec<String>> {
    #[derive(diesel::QueryableByName)]
    struct Name {
        #[diesel(sql_type = Text)]
        username: String,
    }
    let rows: Vec<Name> = diesel::sql_query(
        "SELECT u.username FROM talk_mutes t JOIN users u ON u.id = t.muted
          WHERE t.user_id = $1 ORDER BY lower(u.username) LIMIT $2",
    )
    .bind::<SqlUuid, _>(user)
    .bind::<Int8, _>(limit)
    .load(conn)
    .await?;
    Ok(rows.into_iter().map(|r| r.username).collect())
}

/// `reporter` reports message `id` of `game` (once: a second report keeps
/// the first).
///
/// # Errors
/// Database errors.
pub async fn report(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    id: Uuid,
    reporter: Uuid,
    reason: &str,
    at: DateTime<Utc>,
) -> diesel::QueryResult<()> {
    diesel::sql_query(
        "INSERT INTO talk_reports (game_id, message_id, reporter, reason, created_at)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
    )
    .bind::<SqlUuid, _>(game)
    .bind::<SqlUuid, _>(id)
    .bind::<SqlUuid, _>(reporter)
    .bind::<Text, _>(reason)
    .bind::<Timestamptz, _>(at)
    .execute(conn)
    .await
    .map(|_| ())
}

/// Whether message `id` of `game` was reported.
///
/// # Errors
/// Database errors.
pub async fn reported(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    id: Uuid,
) -> diesel::QueryResult<bool> {
    let flag: Flag = diesel::sql_query(
        "SELECT EXISTS (SELECT 1 FROM talk_reports WHERE game_id = $1 AND message_id = $2) AS yes",
    )
    .bind::<SqlUuid, _>(game)
    .bind::<SqlUuid, _>(id)
    .get_result(conn)
    .await?;
    Ok(flag.yes)
}

/// Hides message `id` of `game`, by `by` at `at` (a message hidden before
/// keeps who hid it first).
///
/// # Errors
/// Database errors.
pub async fn hide(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    id: Uuid,
    by: Uuid,
    at: DateTime<Utc>,
    reason: Option<&str>,
) -> diesel::QueryResult<()> {
    diesel::sql_query(
        "UPDATE talk_messages SET hidden_at = $3, hidden_by = $4, hidden_reason = $5
          WHERE game_id = $1 AND id = $2 AND hidden_at IS NULL",
    )
    .bind::<SqlUuid, _>(game)
    .bind::<SqlUuid, _>(id)
    .bind::<Timestamptz, _>(at)
    .bind::<SqlUuid, _>(by)
    .bind::<Nullable<Text>, _>(reason)
    .execute(conn)
    .await
    .map(|_| ())
}

/// A reported message, for an operator.
#[derive(Debug, Clone, PartialEq, Eq, diesel::QueryableByName)]
pub struct ReportedRow {
    #[diesel(sql_type = SqlUuid)]
    pub game_id: Uuid,
    #[diesel(sql_type = SqlUuid)]
    pub message_id: Uuid,
    #[diesel(sql_type = Text)]
    pub author_name: String,
    #[diesel(sql_type = Text)]
    pub room: String,
    #[diesel(sql_type = Text)]
    pub body: String,
    #[diesel(sql_type = Int8)]
    pub reports: i64,
    /// The reasons given, newest first, joined by ` | `.
    #[diesel(sql_type = Text)]
    pub reasons: String,
    #[diesel(sql_type = Timestamptz)]
    pub last_reported: DateTime<Utc>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    pub hidden_at: Option<DateTime<Utc>>,
}

/// The reported messages, the most recently reported first, at most
/// `limit`; with `hidden`, also those already hidden.
///
/// # Errors
/// Database errors.
pub async fn reported_messages(
    conn: &mut AsyncPgConnection,
    hidden: bool,
    limit: i64,
) -> diesel::QueryResult<Vec<ReportedRow>> {
    diesel::sql_query(
        "SELECT r.game_id, r.message_id,
                (SELECT u.username FROM users u WHERE u.id = m.author) AS author_name,
                m.room, m.body, r.reports, r.reasons, r.last_reported, m.hidden_at
           FROM (SELECT game_id, message_id, count(*) AS reports,
                        string_agg(reason, ' | ' ORDER BY created_at DESC) AS reasons,
                        max(created_at) AS last_reported
                   FROM talk_reports GROUP BY game_id, message_id) r
           JOIN talk_messages m ON m.game_id = r.game_id AND m.id = r.message_id
          WHERE $1 OR m.hidden_at IS NULL
          ORDER BY r.last_reported DESC, r.message_id LIMIT $2",
    )
    .bind::<Bool, _>(hidden)
    .bind::<Int8, _>(limit)
    .load(conn)
    .await
}

/// Whether `user` is an operator.
///
/// # Errors
/// Database errors.
pub async fn is_operator(conn: &mut AsyncPgConnection, user: Uuid) -> diesel::QueryResult<bool> {
    let flag: Flag =
        diesel::sql_query("SELECT EXISTS (SELECT 1 FROM operators WHERE user_id = $1) AS yes")
            .bind::<SqlUuid, _>(user)
            .get_result(conn)
            .await?;
    Ok(flag.yes)
}

/// Makes the account named `username` an operator (`granted`) or not; false
/// when there is no such account.
///
/// # Errors
/// Database errors.
pub async fn set_operator(
    conn: &mut AsyncPgConnection,
    username: &str,
    granted: bool,
    at: DateTime<Utc>,
) -> diesel::QueryResult<bool> {
    let sql = if granted {
        "INSERT INTO operators (user_id, granted_at)
         SELECT id, $2 FROM users WHERE lower(username) = lower($1)
         ON CONFLICT (user_id) DO UPDATE SET granted_at = operators.granted_at
         RETURNING true AS yes"
    } else {
        "DELETE FROM operators WHERE user_id IN
           (SELECT id FROM users WHERE lower(username) = lower($1) AND $2 IS NOT NULL)
         RETURNING true AS yes"
    };
    let done: Vec<Flag> = diesel::sql_query(sql)
        .bind::<Text, _>(username)
        .bind::<Timestamptz, _>(at)
        .load(conn)
        .await?;
    Ok(!done.is_empty())
}
