//! Private games and invitations: who may join a private game, declining an
//! invitation, and cancelling a game that has not started.
//!
//! A private game (`private: true`, or any `invitees`) gets a random
//! `invite_code`, shown only to its seated players. It is not listed in
//! `GET /v1/games` except to its players and invitees. Anyone with the code
//! may join; invitees may join without it until they decline.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use serde_json::{Value, json};
use uuid::Uuid;

use super::read::project_stored;
use super::resource::Game;
use super::status;
use crate::auth::Caller;
use crate::db::event_store;
use crate::db::games::{GameRow, LoadedGame, load_for_update};
use crate::db::notifications::{self, Noted};
use crate::db::schema::{games, invitations, users};
use crate::error::{ErrorCode, Failure};
use crate::record::chain::{Actor, Chain};
use crate::record::server_event::{Cancelled, Invitee, ServerEvent};
use crate::state::AppState;

/// The users named `usernames` (case-insensitive), without duplicates.
///
/// # Errors
/// `not_found` for an unknown username, `bad_request` for inviting yourself.
pub async fn resolve(
    conn: &mut AsyncPgConnection,
    usernames: &[String],
    creator: Uuid,
) -> Result<Vec<Invitee>, Failure> {
    let mut out: Vec<Invitee> = Vec::new();
    for name in usernames {
        let found: Option<(Uuid, String)> = users::table
            .filter(
                diesel::dsl::sql::<diesel::sql_types::Bool>("lower(username) = lower(")
                    .bind::<diesel::sql_types::Text, _>(name)
                    .sql(")"),
            )
            .select((users::id, users::username))
            .first(conn)
            .await
            .optional()?;
        let (user_id, username) =
            found.ok_or_else(|| Failure::not_found(format!("there is no user {name:?}")))?;
        if user_id == creator {
            return Err(Failure::bad_request("you cannot invite yourself"));
        }
        if !out.iter().any(|i| i.user_id == user_id) {
            out.push(Invitee { user_id, username });
        }
    }
    Ok(out)
}

/// Writes the invitations of a new game and tells each invitee (`invited`);
/// returns the notifications to announce once committed.
///
/// # Errors
/// Database errors.
pub async fn insert_invitations(
    conn: &mut AsyncPgConnection,
    game: &GameRow,
    invitees: &[Invitee],
    at: DateTime<Utc>,
) -> QueryResult<Vec<Noted>> {
    if invitees.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<_> = invitees
        .iter()
        .map(|i| {
            (
                invitations::game_id.eq(game.id),
                invitations::user_id.eq(i.user_id),
                invitations::invited_at.eq(at),
            )
        })
        .collect();
    diesel::insert_into(invitations::table)
        .values(rows)
        .execute(conn)
        .await?;
    let notes: Vec<Value> = invitees
        .iter()
        .map(|i| {
            json!({
                "user_id": i.user_id,
                "kind": "invited",
                "payload": {
                    "game_id": game.id,
                    "ruleset": game.ruleset,
                    "players": game.players,
                    "invited_by": game.created_by,
                },
            })
        })
        .collect();
    notifications::insert(conn, Some(game.id), &notes, at).await
}

/// The invitation of `user` to `game`: `Some(declined)` when invited.
///
/// # Errors
/// Database errors.
pub async fn invitation(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    user: Uuid,
) -> QueryResult<Option<bool>> {
    let declined: Option<Option<DateTime<Utc>>> = invitations::table
        .find((game, user))
        .select(invitations::declined_at)
        .first(conn)
        .await
        .optional()?;
    Ok(declined.map(|d| d.is_some()))
}

/// Whether `caller` may join the private game `loaded` (holding `code`).
///
/// # Errors
/// `not_invited`.
pub async fn check_may_join(
    conn: &mut AsyncPgConnection,
    loaded: &LoadedGame,
    caller: &Caller,
    code: Option<&str>,
) -> Result<(), Failure> {
    let game = &loaded.game;
    if !game.private || loaded.seat_of(caller.user_id).is_some() {
        return Ok(());
    }
    if let (Some(code), Some(expected)) = (code, game.invite_code.as_deref())
        && code == expected
    {
        return Ok(());
    }
    if invitation(conn, game.id, caller.user_id).await? == Some(false) {
        return Ok(());
    }
    Err(Failure::not_invited())
}

/// A change of a game that has not started.
#[derive(Debug, Clone, Copy)]
enum OpenChange {
    Decline,
    Cancel,
}

/// Applies `change` to game `id` locked for update, then appends its
/// events, stores the new status and writes its notifications, in one
/// transaction; listeners are told after the commit.
async fn change_open_game(
    state: &AppState,
    caller: &Caller,
    id: Uuid,
    change: OpenChange,
) -> Result<Game, Failure> {
    let mut conn = state.pool.get().await?;
    let now = crate::record::chain::now();
    let who = caller.clone();
    let loaded = conn
        .transaction::<_, Failure, _>(async move |conn| {
            let mut loaded = load_for_update(conn, id)
                .await?
                .ok_or_else(|| Failure::not_found("there is no such game"))?;
            let mut chain = Chain::after(loaded.game.version, &loaded.game.last_hash, now);
            let notes = match change {
                OpenChange::Decline => {
                    decline_in(conn, &loaded, &mut chain, &who, now).await?;
                    Vec::new()
                }
                OpenChange::Cancel => cancel_in(&mut loaded, &mut chain, &who)?,
            };
            event_store::insert(conn, id, &chain.events).await?;
            let game = &mut loaded.game;
            game.version = chain.version();
            game.last_hash = chain.last_hash().to_owned();
            game.updated_at = now;
            diesel::update(games::table.find(id))
                .set((
                    games::version.eq(game.version),
                    games::last_hash.eq(&game.last_hash),
                    games::status.eq(&game.status),
                    games::updated_at.eq(now),
                ))
                .execute(conn)
                .await?;
            let told = notifications::insert(conn, Some(id), &notes, now).await?;
            Ok((loaded, told))
        })
        .await?;
    let (loaded, told) = loaded;
    state.announcer.announce(id, loaded.game.version);
    state.announcer.tell(&told);
    project_stored(&loaded, Some(caller.user_id))
}

fn must_be_open(loaded: &LoadedGame) -> Result<(), Failure> {
    if loaded.game.status == status::OPEN {
        Ok(())
    } else {
        Err(Failure::new(
            ErrorCode::GameNotOpen,
            format!("the game is {}, not open", loaded.game.status),
        ))
    }
}

/// An invitee declines: event `player_declined`; they may no longer join
/// without the code.
///
/// # Errors
/// `not_found`, `not_invited`, `game_not_open`, `already_joined`.
pub async fn decline(state: &AppState, caller: &Caller, id: Uuid) -> Result<Game, Failure> {
    change_open_game(state, caller, id, OpenChange::Decline).await
}

async fn decline_in(
    conn: &mut AsyncPgConnection,
    loaded: &LoadedGame,
    chain: &mut Chain,
    who: &Caller,
    now: DateTime<Utc>,
) -> Result<(), Failure> {
    let id = loaded.game.id;
    if invitation(conn, id, who.user_id).await? != Some(false) {
        return Err(Failure::not_invited());
    }
    must_be_open(loaded)?;
    if loaded.seat_of(who.user_id).is_some() {
        return Err(Failure::new(
            ErrorCode::AlreadyJoined,
            "you have a seat in this game",
        ));
    }
    diesel::update(invitations::table.find((id, who.user_id)))
        .set(invitations::declined_at.eq(now))
        .execute(conn)
        .await?;
    chain
        .push_server(
            &ServerEvent::PlayerDeclined(Invitee {
                user_id: who.user_id,
                username: who.username.clone(),
            }),
            Actor {
                user: Some(who.user_id),
                seat: None,
            },
        )
        .map_err(Failure::internal)?;
    Ok(())
}

/// The creator cancels a game that has not started: event `game_cancelled`,
/// status `abandoned`; the other seated players are told (`game_finished`).
///
/// # Errors
/// `not_found`, `forbidden` (not the creator), `game_not_open`.
pub async fn cancel(state: &AppState, caller: &Caller, id: Uuid) -> Result<Game, Failure> {
    change_open_game(state, caller, id, OpenChange::Cancel).await
}

fn cancel_in(
    loaded: &mut LoadedGame,
    chain: &mut Chain,
    who: &Caller,
) -> Result<Vec<Value>, Failure> {
    if loaded.game.created_by != who.user_id {
        return Err(Failure::forbidden("only the game's creator may cancel it"));
    }
    must_be_open(loaded)?;
    chain
        .push_server(
            &ServerEvent::GameCancelled(Cancelled { by: who.user_id }),
            Actor {
                user: Some(who.user_id),
                seat: loaded.seat_of(who.user_id),
            },
        )
        .map_err(Failure::internal)?;
    loaded.game.status = status::ABANDONED.to_owned();
    let id = loaded.game.id;
    Ok(loaded
        .seats
        .iter()
        .filter(|s| s.user_id != who.user_id)
        .map(|s| {
            json!({
                "user_id": s.user_id,
                "kind": "game_finished",
                "payload": {"game_id": id, "ruleset": loaded.game.ruleset,
                            "status": status::ABANDONED, "result": null},
            })
        })
        .collect())
}
