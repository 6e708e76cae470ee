//! Substitutes (docs/seats.md): a vacant seat handed to its new player,
//! and the lobby's list of vacant seats.

use chrono::{DateTime, Utc};
use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Int2, Int4, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

/// A takeover to write.
#[derive(Debug, Clone, Copy)]
pub struct Takeover {
    pub game: Uuid,
    pub seat: i16,
    /// The version of its `seat_substituted` event.
    pub version: i64,
    pub from: Uuid,
    pub to: Uuid,
    /// The leaver's timeouts and vacation in the seat.
    pub timeouts: i32,
    pub vacation_secs: i64,
    pub at: DateTime<Utc>,
}

/// One statement: the seat's row becomes the substitute's (in again, its
/// counters and vacancy cleared), only if `from` holds it and is out; the
/// takeover is recorded; the seat's conditional lines (the leaver's) are
/// dropped; and the leaver's record counts a game played, lost and left,
/// with their timeouts and vacation in it (reliability, docs/seats.md).
/// Whether the seat was taken (false: nothing written).
///
/// # Errors
/// Database errors.
pub async fn take(conn: &mut AsyncPgConnection, t: &Takeover) -> diesel::QueryResult<bool> {
    #[derive(QueryableByName)]
    struct Taken {
        #[diesel(sql_type = BigInt)]
        taken: i64,
    }
    let Taken { taken } = diesel::sql_query(
        "WITH taken AS (
            UPDATE seats
               SET user_id = $5, resigned_at = NULL, timeouts = 0, vacation_used_secs = 0,
                   joined_at = $8, vacant_since = NULL
             WHERE game_id = $1 AND seat = $2 AND user_id = $4 AND resigned_at IS NOT NULL
            RETURNING seat
        ), recorded AS (
            INSERT INTO seat_substitutions (game_id, version, seat, from_user, to_user, timeouts,
                                            vacation_secs, at)
            SELECT $1, $3, $2, $4, $5, $6, $7, $8 FROM taken
            RETURNING 1
        ), unlined AS (
            DELETE FROM conditional_lines c USING taken t
             WHERE c.game_id = $1 AND c.seat = t.seat
            RETURNING 1
        ), counted AS (
            INSERT INTO user_records (user_id, played, lost, left_seats, timeouts, vacation_secs)
            SELECT $4, 1, 1, 1, $6, $7 FROM taken
            ON CONFLICT (user_id) DO UPDATE
               SET played = user_records.played + 1,
                   lost = user_records.lost + 1,
                   left_seats = user_records.left_seats + 1,
                   timeouts = user_records.timeouts + EXCLUDED.timeouts,
                   vacation_secs = user_records.vacation_secs + EXCLUDED.vacation_secs
            RETURNING 1
        )
        SELECT count(*) AS taken FROM taken",
    )
    .bind::<SqlUuid, _>(t.game)
    .bind::<Int2, _>(t.seat)
    .bind::<BigInt, _>(t.version)
    .bind::<SqlUuid, _>(t.from)
    .bind::<SqlUuid, _>(t.to)
    .bind::<Int4, _>(t.timeouts)
    .bind::<BigInt, _>(t.vacation_secs)
    .bind::<Timestamptz, _>(t.at)
    .get_result(conn)
    .await?;
    Ok(taken == 1)
}

/// A vacant seat listed in the lobby.
#[derive(Debug, Clone, QueryableByName)]
pub struct VacantRow {
    #[diesel(sql_type = SqlUuid)]
    pub game_id: Uuid,
    #[diesel(sql_type = Int2)]
    pub seat: i16,
    #[diesel(sql_type = Timestamptz)]
    pub vacant_since: DateTime<Utc>,
    #[diesel(sql_type = Text)]
    pub ruleset: String,
    #[diesel(sql_type = Int2)]
    pub players: i16,
    #[diesel(sql_type = BigInt)]
    pub version: i64,
}

/// Where a walk through the vacant seats has got to: the last seat
/// returned (seats are ordered by vacancy, game and seat).
pub type VacantCursor = (DateTime<Utc>, Uuid, i16);

/// Up to `limit` vacant seats listed in the lobby after `after`, oldest
/// vacancy first: a range of the partial index `seats_vacant`, which holds
/// the vacant seats of games on only, so a page reads its own rows
/// whatever the server's history.
///
/// # Errors
/// Database errors.
pub async fn listed(
    conn: &mut AsyncPgConnection,
    after: VacantCursor,
    limit: i64,
) -> diesel::QueryResult<Vec<VacantRow>> {
    diesel::sql_query(
        "SELECT s.game_id, s.seat, s.vacant_since, g.ruleset, g.players, g.version
           FROM seats s JOIN games g ON g.id = s.game_id
          WHERE s.vacant_since IS NOT NULL AND s.game_status = 'active'
            AND (s.vacant_since, s.game_id, s.seat) > ($1, $2, $3)
          ORDER BY s.vacant_since, s.game_id, s.seat
          LIMIT $4",
    )
    .bind::<Timestamptz, _>(after.0)
    .bind::<SqlUuid, _>(after.1)
    .bind::<Int2, _>(after.2)
    .bind::<BigInt, _>(limit)
    .load(conn)
    .await
}
