//! Every change of a game that has not started (a join, a decline, a
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
use crate::db::games::{self, GameRow, LoadedGame};
use crate::db::{Conn, event_store, notifications};
use crate::error::{ErrorCode, Failure};
use crate::notifications::Note;
use crate::record::chain::Chain;

/// What a change of a game that has not started works on, inside the
/// transaction that holds the game locked.
pub struct OpenTx<'a> {
    pub conn: &'a mut Conn,
    pub loaded: &'a mut LoadedGame,
    /// Where the change pushes its events.
    pub chain: &'a mut Chain,
    pub who: &'a Caller,
    pub now: DateTime<Utc>,
    /// The cap on games a user holds a seat in at once (`seat_cap`).
    pub seats_at_once: i64,
}

/// A change of a game that has not started: a join, a decline, a
/// cancellation.
pub trait OpenChange {
    /// The change's name in logs and traces.
    const NAME: &'static str;

    /// Checks the change, writes what it writes besides the game's row and
    /// pushes its events onto the chain.
    fn apply(&self, tx: OpenTx<'_>) -> impl Future<Output = Result<(), Failure>> + Send;

    /// Whom to tell, once the change is on the game's row (`before` is the
    /// row as it was). Nobody, unless the change says.
    fn tell(&self, before: &GameRow, after: &LoadedGame, who: &Caller) -> Vec<Note> {
        let _ = (before, after, who);
        Vec::new()
    }
}

/// Applies `change` by `caller` to game `id` (see the module documentation).
///
/// # Errors
/// `not_found` and the change's own.
#[tracing::instrument(skip_all, fields(game = %id, change = C::NAME, version))]
pub async fn change<C: OpenChange + Send + Sync>(
    state: &Context,
    caller: &Caller,
    id: Uuid,
    change: C,
) -> Result<Game, Failure> {
    let mut conn = state.pool.get().await?;
    let now = crate::record::chain::now();
    let who = caller.clone();
    let seats_at_once = state.cost_limits.seats_at_once;
    let loaded = conn
        .transaction::<_, Failure, _>(async move |conn| {
            let mut loaded = super::locked(conn, id).await?;
            let before = loaded.game.clone();
            let mut chain = Chain::after(loaded.game.version, &loaded.game.last_hash, now);
            change
                .apply(OpenTx {
                    conn,
                    loaded: &mut loaded,
                    chain: &mut chain,
                    who: &who,
                    now,
                    seats_at_once,
                })
                .await?;
            event_store::insert(conn, id, &chain.events).await?;
            let game = &mut loaded.game;
            game.version = chain.version();
            game.last_hash = chain.last_hash().to_owned();
            game.updated_at = now;
            let rows = crate::notifications::rows(&change.tell(&before, &loaded, &who))?;
            let told = notifications::insert(conn, Some(id), &rows, now).await?;
            games::store_locked(conn, &loaded.game).await?;
            Ok((loaded, told))
        })
        .await?;
    let (loaded, told) = loaded;
    super::committed(state, &loaded, loaded.game.version, &told);
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
