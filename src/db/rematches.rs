//! Rematch offers (docs/ratings.md): one row per finished game offered
//! again, locked by every answer.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use super::schema::rematches;

/// A rematch offer as stored.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = rematches)]
#[diesel(check_for_backend(diesel::pg::Pg))]
pub struct RematchRow {
    /// The finished game offered again.
    pub game_id: Uuid,
    pub offered_by: Uuid,
    pub offered_at: DateTime<Utc>,
    /// `offered`, `accepted` (started) or `declined`.
    pub state: String,
    /// The users who have accepted so far.
    pub accepted: Vec<Uuid>,
    pub declined_by: Option<Uuid>,
    pub answered_at: Option<DateTime<Utc>>,
    /// The new game, once every player accepted.
    pub new_game_id: Option<Uuid>,
}

/// Stores a new offer; `false` when the game has one already (nothing
/// written).
///
/// # Errors
/// Database errors.
pub async fn insert(conn: &mut AsyncPgConnection, row: &RematchRow) -> QueryResult<bool> {
    diesel::insert_into(rematches::table)
        .values(row)
        .on_conflict_do_nothing()
        .execute(conn)
        .await
        .map(|n| n == 1)
}

/// The offer on game `id`, if any.
///
/// # Errors
/// Database errors.
pub async fn of_game(conn: &mut AsyncPgConnection, id: Uuid) -> QueryResult<Option<RematchRow>> {
    rematches::table
        .find(id)
        .select(RematchRow::as_select())
        .first(conn)
        .await
        .optional()
}

/// The offer on game `id`, locked until the end of the transaction (every
/// answer takes this lock: answers are taken one at a time).
///
/// # Errors
/// Database errors.
pub async fn locked(conn: &mut AsyncPgConnection, id: Uuid) -> QueryResult<Option<RematchRow>> {
    rematches::table
        .find(id)
        .select(RematchRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()
}

/// Stores the answers of a locked offer (its state, who accepted, who
/// declined, the new game).
///
/// # Errors
/// Database errors.
pub async fn store(conn: &mut AsyncPgConnection, row: &RematchRow) -> QueryResult<()> {
    diesel::update(rematches::table.find(row.game_id))
        .set((
            rematches::state.eq(&row.state),
            rematches::accepted.eq(&row.accepted),
            rematches::declined_by.eq(row.declined_by),
            rematches::answered_at.eq(row.answered_at),
            rematches::new_game_id.eq(row.new_game_id),
        ))
        .execute(conn)
        .await
        .map(|_| ())
}

/// The finished game whose rematch game `id` is, if it is one.
///
/// # Errors
/// Database errors.
pub async fn rematch_of(conn: &mut AsyncPgConnection, id: Uuid) -> QueryResult<Option<Uuid>> {
    rematches::table
        .filter(rematches::new_game_id.eq(id))
        .select(rematches::game_id)
        .first(conn)
        .await
        .optional()
}
