//! The ratings projection's SQL (docs/ratings.md): the finish order's
//! numbering of games finished before ratings existed, the games past the
//! cursor, the current ratings, and one write per batch.

use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Bool, Double, Integer, Jsonb, Nullable, SmallInt, Text};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use uuid::Uuid;

type SqlUuid = diesel::sql_types::Uuid;

/// The ratings' transaction-wide lock: one batch at a time, server-wide.
const LOCK: &str = "SELECT pg_advisory_xact_lock(7215682)";

/// Takes the ratings' lock until the end of the transaction.
///
/// # Errors
/// Database errors.
pub async fn lock(conn: &mut AsyncPgConnection) -> diesel::QueryResult<()> {
    diesel::sql_query(LOCK).execute(conn).await.map(|_| ())
}

/// Takes the ratings' lock until the end of the transaction if no other
/// transaction holds it; whether it did.
///
/// # Errors
/// Database errors.
pub async fn try_lock(conn: &mut AsyncPgConnection) -> diesel::QueryResult<bool> {
    #[derive(QueryableByName)]
    struct Locked {
        #[diesel(sql_type = Bool)]
        locked: bool,
    }
    let row: Locked = super::prepared::Prepared(diesel::sql_query(
        "SELECT pg_try_advisory_xact_lock(7215682) AS locked",
    ))
    .get_result(conn)
    .await?;
    Ok(row.locked)
}

/// Numbers up to `limit` finished games that have no finish number (games
/// finished before ratings existed), in `(finished_at, id)` order, below
/// every number the trigger hands out (from -2^62 up). Returns how many.
///
/// # Errors
/// Database errors.
pub async fn number_legacy(conn: &mut AsyncPgConnection, limit: i64) -> diesel::QueryResult<i64> {
    #[derive(QueryableByName)]
    struct Count {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }
    let counted: Count = super::prepared::Prepared(
        diesel::sql_query(
            "WITH base AS (
            SELECT COALESCE(max(finish_seq), -4611686018427387904) AS at
              FROM games WHERE finish_seq < 0
         ), next AS (
            SELECT id, row_number() OVER (ORDER BY finished_at, id) AS n
              FROM games
             WHERE status = 'finished' AND finish_seq IS NULL
             ORDER BY finished_at, id
             LIMIT $1
         ), numbered AS (
            UPDATE games g SET finish_seq = base.at + next.n
              FROM next, base
             WHERE g.id = next.id
            RETURNING 1
         )
         SELECT count(*) AS n FROM numbered",
        )
        .bind::<BigInt, _>(limit),
    )
    .get_result(conn)
    .await?;
    Ok(counted.n)
}

/// The last finish number the projection has taken into account.
///
/// # Errors
/// Database errors.
pub async fn cursor(conn: &mut AsyncPgConnection) -> diesel::QueryResult<i64> {
    #[derive(QueryableByName)]
    struct Cursor {
        #[diesel(sql_type = BigInt)]
        last_seq: i64,
    }
    let c: Cursor =
        super::prepared::Prepared(diesel::sql_query("SELECT last_seq FROM ratings_cursor"))
            .get_result(conn)
            .await?;
    Ok(c.last_seq)
}

/// A finished game past the cursor.
#[derive(QueryableByName, Debug)]
pub struct Pending {
    #[diesel(sql_type = SqlUuid)]
    pub id: Uuid,
    #[diesel(sql_type = Text)]
    pub ruleset: String,
    #[diesel(sql_type = SmallInt)]
    pub players: i16,
    #[diesel(sql_type = Bool)]
    pub private: bool,
    #[diesel(sql_type = Jsonb)]
    pub server_options: Value,
    #[diesel(sql_type = Nullable<Jsonb>)]
    pub result: Option<Value>,
    #[diesel(sql_type = BigInt)]
    pub finish_seq: i64,
    #[diesel(sql_type = Bool)]
    pub archived: bool,
    /// `[[user_id, is_bot], …]` in seat order; a seat that changed hands
    /// (docs/seats.md) names the player who first left it.
    #[diesel(sql_type = Jsonb)]
    pub seats: Value,
    /// The seats that changed hands: `[seat, …]`.
    #[diesel(sql_type = Jsonb)]
    pub changed_hands: Value,
    /// For a forfeit whose events are still in the log: whether a player
    /// moved (null when archived: the archive says).
    #[diesel(sql_type = Nullable<Bool>)]
    pub moved: Option<bool>,
}

/// Up to `limit` finished games numbered in `(after, up_to]`, in finish order.
///
/// # Errors
/// Database errors.
pub async fn pending(
    conn: &mut AsyncPgConnection,
    after: i64,
    up_to: i64,
    limit: i64,
) -> diesel::QueryResult<Vec<Pending>> {
    super::prepared::Prepared(
        diesel::sql_query(
        "SELECT g.id, g.ruleset, g.players, g.private, g.server_options, g.result, g.finish_seq,
                g.archived_at IS NOT NULL AS archived,
                COALESCE((SELECT jsonb_agg(jsonb_build_array(h.user_id, u.kind <> 'human')
                                           ORDER BY s.seat)
                            FROM seats s
                            CROSS JOIN LATERAL (
                                SELECT COALESCE((SELECT x.from_user FROM seat_substitutions x
                                                  WHERE x.game_id = g.id AND x.seat = s.seat
                                                  ORDER BY x.version LIMIT 1),
                                                s.user_id) AS user_id) h
                            JOIN users u ON u.id = h.user_id
                           WHERE s.game_id = g.id), '[]'::jsonb) AS seats,
                COALESCE((SELECT jsonb_agg(DISTINCT x.seat)
                            FROM seat_substitutions x WHERE x.game_id = g.id), '[]'::jsonb) AS changed_hands,
                CASE WHEN g.result->>'outcome' = 'forfeit' AND g.archived_at IS NULL
                     THEN EXISTS (SELECT 1 FROM events e
                                   WHERE e.game_id = g.id AND e.command IS NOT NULL
                                     AND e.actor_user IS NOT NULL)
                END AS moved
           FROM games g
          WHERE g.finish_seq > $1 AND g.finish_seq <= $2
          ORDER BY g.finish_seq
          LIMIT $3",
    )
    .bind::<BigInt, _>(after)
    .bind::<BigInt, _>(up_to)
    .bind::<BigInt, _>(limit))
    .load(conn)
    .await
}

/// A stored rating.
#[derive(QueryableByName, Debug, Clone)]
pub struct Stored {
    #[diesel(sql_type = SqlUuid)]
    pub user_id: Uuid,
    #[diesel(sql_type = Text)]
    pub ruleset: String,
    #[diesel(sql_type = SmallInt)]
    pub players: i16,
    #[diesel(sql_type = Double)]
    pub rating: f64,
    #[diesel(sql_type = Double)]
    pub deviation: f64,
    #[diesel(sql_type = Nullable<Double>)]
    pub volatility: Option<f64>,
    #[diesel(sql_type = Integer)]
    pub games: i32,
    #[diesel(sql_type = BigInt)]
    pub last_seq: i64,
}

/// The ratings of `users`, every pool.
///
/// # Errors
/// Database errors.
pub async fn of_users(
    conn: &mut AsyncPgConnection,
    users: &[Uuid],
) -> diesel::QueryResult<Vec<Stored>> {
    super::prepared::Prepared(
        diesel::sql_query(
            "SELECT user_id, ruleset, players, rating, deviation, volatility, games, last_seq
           FROM ratings WHERE user_id = ANY($1)",
        )
        .bind::<diesel::sql_types::Array<SqlUuid>, _>(users),
    )
    .load(conn)
    .await
}

/// Writes a batch: the changes (JSON text of rows of `rating_changes`), the
/// ratings they leave (rows of `ratings`), and the new cursor. JSON text,
/// not `jsonb`: a float is read by PostgreSQL's own parser, to the bit.
///
/// # Errors
/// Database errors (a game rated twice is a primary-key violation).
pub async fn write(
    conn: &mut AsyncPgConnection,
    changes: &str,
    ratings: &str,
    cursor: i64,
) -> diesel::QueryResult<()> {
    super::prepared::Prepared(
        diesel::sql_query(
        "WITH changed AS (
            INSERT INTO rating_changes (game_id, seat, user_id, finish_seq, ruleset, players, place,
                                        rating_before, deviation_before, volatility_before,
                                        rating_after, deviation_after, volatility_after)
            SELECT * FROM json_to_recordset($1::json) AS c(
                game_id uuid, seat smallint, user_id uuid, finish_seq bigint, ruleset text,
                players smallint, place smallint, rating_before float8, deviation_before float8,
                volatility_before float8, rating_after float8, deviation_after float8,
                volatility_after float8)
            RETURNING 1
         ), rated AS (
            INSERT INTO ratings (user_id, ruleset, players, rating, deviation, volatility, games, last_seq)
            SELECT * FROM json_to_recordset($2::json) AS r(
                user_id uuid, ruleset text, players smallint, rating float8, deviation float8,
                volatility float8, games integer, last_seq bigint)
            ON CONFLICT (user_id, ruleset, players) DO UPDATE
               SET rating = EXCLUDED.rating, deviation = EXCLUDED.deviation,
                   volatility = EXCLUDED.volatility, games = EXCLUDED.games,
                   last_seq = EXCLUDED.last_seq
            RETURNING 1
         )
         UPDATE ratings_cursor SET last_seq = $3
          WHERE (SELECT count(*) FROM changed) >= 0 AND (SELECT count(*) FROM rated) >= 0",
    )
    .bind::<Text, _>(changes)
    .bind::<Text, _>(ratings)
    .bind::<BigInt, _>(cursor))
    .execute(conn)
    .await
    .map(|_| ())
}

/// Forgets every rating and change and rewinds the cursor (the rebuild's
/// first step, under the lock).
///
/// # Errors
/// Database errors.
pub async fn clear(conn: &mut AsyncPgConnection) -> diesel::QueryResult<()> {
    use diesel_async::SimpleAsyncConnection;
    conn.batch_execute(
        "DELETE FROM rating_changes; DELETE FROM ratings;
         UPDATE ratings_cursor SET last_seq = -9223372036854775808;",
    )
    .await
}

/// One seat's change in a game, with the player's name.
#[derive(QueryableByName, Debug)]
pub struct Change {
    #[diesel(sql_type = SmallInt)]
    pub seat: i16,
    #[diesel(sql_type = SqlUuid)]
    pub user_id: Uuid,
    #[diesel(sql_type = Text)]
    pub username: String,
    #[diesel(sql_type = BigInt)]
    pub finish_seq: i64,
    #[diesel(sql_type = SmallInt)]
    pub place: i16,
    #[diesel(sql_type = Double)]
    pub rating_before: f64,
    #[diesel(sql_type = Double)]
    pub deviation_before: f64,
    #[diesel(sql_type = Double)]
    pub rating_after: f64,
    #[diesel(sql_type = Double)]
    pub deviation_after: f64,
}

/// The changes game `id` made, by seat.
///
/// # Errors
/// Database errors.
pub async fn of_game(conn: &mut AsyncPgConnection, id: Uuid) -> diesel::QueryResult<Vec<Change>> {
    diesel::sql_query(
        "SELECT c.seat, c.user_id, u.username, c.finish_seq, c.place, c.rating_before,
                c.deviation_before, c.rating_after, c.deviation_after
           FROM rating_changes c JOIN users u ON u.id = c.user_id
          WHERE c.game_id = $1 ORDER BY c.seat",
    )
    .bind::<SqlUuid, _>(id)
    .load(conn)
    .await
}

/// Game `id`'s place in the finish order (none before it is finished).
///
/// # Errors
/// Database errors.
pub async fn finish_seq(
    conn: &mut AsyncPgConnection,
    id: Uuid,
) -> diesel::QueryResult<Option<i64>> {
    use crate::db::schema::games;
    use diesel::{OptionalExtension, QueryDsl};
    games::table
        .find(id)
        .select(games::finish_seq)
        .first::<Option<i64>>(conn)
        .await
        .optional()
        .map(Option::flatten)
}

/// A row of a leaderboard.
#[derive(QueryableByName, Debug)]
pub struct Board {
    #[diesel(sql_type = SqlUuid)]
    pub user_id: Uuid,
    #[diesel(sql_type = Text)]
    pub username: String,
    #[diesel(sql_type = Double)]
    pub rating: f64,
    #[diesel(sql_type = Double)]
    pub deviation: f64,
    #[diesel(sql_type = Integer)]
    pub games: i32,
}

/// Up to `limit` established ratings (deviation below `bound`) of a pool,
/// best first, after `(rating, user)` when given; bots' or people's.
///
/// # Errors
/// Database errors.
#[allow(clippy::too_many_arguments)]
pub async fn board(
    conn: &mut AsyncPgConnection,
    ruleset: &str,
    players: i16,
    bots: bool,
    bound: f64,
    after: Option<(f64, Uuid)>,
    limit: i64,
) -> diesel::QueryResult<Vec<Board>> {
    diesel::sql_query(
        "SELECT r.user_id, u.username, r.rating, r.deviation, r.games
           FROM ratings r JOIN users u ON u.id = r.user_id
          WHERE r.ruleset = $1 AND r.players = $2 AND r.deviation < $3
            AND (u.kind <> 'human') = $4
            AND ($5::float8 IS NULL OR (r.rating, r.user_id) < ($5, $6))
          ORDER BY r.rating DESC, r.user_id DESC
          LIMIT $7",
    )
    .bind::<Text, _>(ruleset)
    .bind::<SmallInt, _>(players)
    .bind::<Double, _>(bound)
    .bind::<Bool, _>(bots)
    .bind::<Nullable<Double>, _>(after.map(|a| a.0))
    .bind::<Nullable<SqlUuid>, _>(after.map(|a| a.1))
    .bind::<BigInt, _>(limit)
    .load(conn)
    .await
}

/// A point of a player's rating history.
#[derive(QueryableByName, Debug)]
pub struct Point {
    #[diesel(sql_type = BigInt)]
    pub finish_seq: i64,
    #[diesel(sql_type = SqlUuid)]
    pub game_id: Uuid,
    #[diesel(sql_type = SmallInt)]
    pub place: i16,
    #[diesel(sql_type = Double)]
    pub rating: f64,
    #[diesel(sql_type = Double)]
    pub deviation: f64,
    /// Whether the game is listed to everyone (public, and anyone may watch it).
    #[diesel(sql_type = Bool)]
    pub listed: bool,
}

/// Up to `limit` of a player's rated games in a pool, newest first, before
/// finish number `before` when given (each game's row read by primary key,
/// for whether it is listed).
///
/// # Errors
/// Database errors.
pub async fn history(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    ruleset: &str,
    players: i16,
    before: Option<i64>,
    limit: i64,
) -> diesel::QueryResult<Vec<Point>> {
    diesel::sql_query(
        "SELECT c.finish_seq, c.game_id, c.place, c.rating_after AS rating,
                c.deviation_after AS deviation,
                COALESCE((SELECT NOT g.private
                                 AND coalesce(g.server_options->>'spectators', 'public') = 'public'
                            FROM games g WHERE g.id = c.game_id), false) AS listed
           FROM rating_changes c
          WHERE c.user_id = $1 AND c.ruleset = $2 AND c.players = $3
            AND ($4::int8 IS NULL OR c.finish_seq < $4)
          ORDER BY c.finish_seq DESC
          LIMIT $5",
    )
    .bind::<SqlUuid, _>(user)
    .bind::<Text, _>(ruleset)
    .bind::<SmallInt, _>(players)
    .bind::<Nullable<BigInt>, _>(before)
    .bind::<BigInt, _>(limit)
    .load(conn)
    .await
}

/// A player's games by outcome.
#[derive(QueryableByName, Debug, Default)]
pub struct Record {
    #[diesel(sql_type = BigInt)]
    pub played: i64,
    #[diesel(sql_type = BigInt)]
    pub won: i64,
    #[diesel(sql_type = BigInt)]
    pub drawn: i64,
    #[diesel(sql_type = BigInt)]
    pub lost: i64,
    #[diesel(sql_type = BigInt)]
    pub abandoned: i64,
}

/// A player's games that are over, by outcome (their own seats only): the
/// counters the database keeps as games end (`user_records`), one row.
///
/// # Errors
/// Database errors.
pub async fn record(conn: &mut AsyncPgConnection, user: Uuid) -> diesel::QueryResult<Record> {
    use diesel::OptionalExtension;
    let found: Option<Record> = diesel::sql_query(
        "SELECT played, won, drawn, lost, abandoned FROM user_records WHERE user_id = $1",
    )
    .bind::<SqlUuid, _>(user)
    .get_result(conn)
    .await
    .optional()?;
    Ok(found.unwrap_or_default())
}
