//! Every change of a game that has not started (a decline, a
//! cancellation) takes one path: the game locked for update, the change
//! applied, its events appended, the row stored and its notifications
//! written in one transaction; listeners are told after the commit.

use chrono::{DateTime, Utc};
use diesel_async::AsyncConnection;
use uuid::Uuid;

use super::projection::Game;
use super::read::project_stored;
use super::status;
use crate::auth::Caller;
use crate::context::Context;
use crate::db::games::{self, LoadedGame};
use crate::db::{Conn, event_store, notifications};
use crate::error::{ErrorCode, Failure};
use crate::notifications::Note;
use crate::record::chain::Chain;

/// A change of a game that has not started, applied inside the transaction
/// that holds the game locked.
pub(super) trait OpenChange {
    /// Checks the change, writes what it writes besides the game's row,
    /// pushes its events onto `chain`, and answers whom to tell.
    fn apply(
        &self,
        conn: &mut Conn,
        loaded: &mut LoadedGame,
        chain: &mut Chain,
        who: &Caller,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Vec<Note>, Failure>> + Send;
}

/// Applies `change` by `caller` to game `id` (see the module documentation).
///
/// # Errors
/// `not_found` and the change's own.
#[tracing::instrument(skip_all, fields(game = %id, version))]
pub(super) async fn change_open_game(
    state: &Context,
    caller: &Caller,
    id: Uuid,
    change: impl OpenChange + Send + Sync,
) -> Result<Game, Failure> {
    let mut conn = state.pool.get().await?;
    let now = crate::record::chain::now();
    let who = caller.clone();
    let loaded = conn
        .transaction::<_, Failure, _>(async move |conn| {
            let mut loaded = super::locked(conn, id).await?;
            let mut chain = Chain::after(loaded.game.version, &loaded.game.last_hash, now);
            let notes = change
                .apply(conn, &mut loaded, &mut chain, &who, now)
                .await?;
            event_store::insert(conn, id, &chain.events).await?;
            let game = &mut loaded.game;
            game.version = chain.version();
            game.last_hash = chain.last_hash().to_owned();
            game.updated_at = now;
            games::store_locked(conn, game).await?;
            let rows = crate::notifications::rows(&notes)?;
            let told = notifications::insert(conn, Some(id), &rows, now).await?;
            Ok((loaded, told))
        })
        .await?;
    let (loaded, told) = loaded;
    super::committed(state, id, loaded.game.version, &told);
    project_stored(&loaded, Some(caller.user_id))
}

/// `game_not_open` unless the game is open.
///
/// # Errors
/// `game_not_open`.
pub(super) fn must_be_open(loaded: &LoadedGame) -> Result<(), Failure> {
    if loaded.game.status == status::OPEN {
        Ok(())
    } else {
        Err(Failure::new(
            ErrorCode::GameNotOpen,
            format!("the game is {}, not open", loaded.game.status),
        ))
    }
}
