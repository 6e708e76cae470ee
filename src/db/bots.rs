//! The bot worker's queries: which turns wait on a built-in bot, and
//! claiming one game at a time.

use diesel::prelude::*;
use diesel::sql_types::{SmallInt, Text, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

/// A turn a built-in bot owes: the game and the bot's level.
#[derive(Debug, Clone, QueryableByName)]
pub struct BotTurn {
    #[diesel(sql_type = SqlUuid)]
    pub game_id: Uuid,
    #[diesel(sql_type = SmallInt)]
    pub seat: i16,
    #[diesel(sql_type = Text)]
    pub level: String,
}

/// The turns bots owe (see [`waiting`]).
pub(crate) const WAITING: &str =
    "SELECT DISTINCT ON (g.updated_at, g.id) g.id AS game_id, s.seat, u.bot_level AS level
               FROM users u
               JOIN seats s ON s.user_id = u.id AND s.game_status = 'active'
                           AND s.resigned_at IS NULL
               JOIN games g ON g.id = s.game_id AND s.seat = ANY (g.to_act)
              WHERE u.bot_level IS NOT NULL AND g.status = 'active'
              ORDER BY g.updated_at, g.id, s.seat
              LIMIT $1";

/// Up to `limit` active games that wait on a seat of a built-in bot, the
/// longest waiting first. Nothing is locked: [`claim`] does that.
///
/// It reads the bots' seats in active games only: the fifteen built-in bots
/// (`users_bots`), each one's active seats (`seats_inbox_by_status`), and
/// those games' rows to see whose turn it is. What it reads grows with the
/// games bots are playing now, never with the games ever played. (Whose turn
/// it is changes on every command; an index on it would cost every command
/// a write.)
///
/// # Errors
/// Database errors.
pub async fn waiting(conn: &mut AsyncPgConnection, limit: i64) -> QueryResult<Vec<BotTurn>> {
    crate::db::prepared::Prepared(
        diesel::sql_query(WAITING).bind::<diesel::sql_types::BigInt, _>(limit),
    )
    .load(conn)
    .await
}

/// Locks game `id` for this transaction unless another worker holds it
/// (`FOR UPDATE SKIP LOCKED`): whether this one got it.
///
/// # Errors
/// Database errors.
pub async fn claim(conn: &mut AsyncPgConnection, id: Uuid) -> QueryResult<bool> {
    #[derive(QueryableByName)]
    struct Claimed {
        #[diesel(sql_type = SqlUuid)]
        #[allow(dead_code)]
        id: Uuid,
    }
    let claimed: Vec<Claimed> = diesel::sql_query(
        "SELECT id FROM games WHERE id = $1 AND status = 'active' FOR UPDATE SKIP LOCKED",
    )
    .bind::<SqlUuid, _>(id)
    .load(conn)
    .await?;
    Ok(!claimed.is_empty())
}
