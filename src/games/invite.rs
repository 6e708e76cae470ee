//! Private games and invitations: who may join a private game, and
//! declining an invitation (a change of a game that has not started, see
//! `open_game`).
//!
//! A private game (`private: true`, or any `invitees`) gets a random
//! `invite_code`, shown only to its seated players. It is not listed in
//! `GET /v1/games` except to its players and invitees. Anyone with the code
//! may join; invitees may join without it until they decline.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::open_game::{OpenChange, OpenTx, must_be_open};
use crate::auth::Caller;
use crate::auth::limits::CostLimits;
use crate::db::Conn;
use crate::db::games::{GameRow, LoadedGame};
use crate::db::notifications::{self, Noted};
use crate::db::{invitations, throttle, users};
use crate::error::{ErrorCode, Failure};
use crate::notifications::{Note, Notification};
use crate::record::chain::Actor;
use crate::record::server_event::{Invitee, ServerEvent};

/// The users named `usernames` (case-insensitive), without duplicates.
///
/// # Errors
/// `not_found` for an unknown username, `bad_request` for inviting yourself.
pub async fn resolve(
    conn: &mut Conn,
    usernames: &[String],
    creator: Uuid,
) -> Result<Vec<Invitee>, Failure> {
    let mut out: Vec<Invitee> = Vec::new();
    for name in usernames {
        let found = users::find_by_name(conn, name)
            .await?
            .map(|(id, username, _)| (id, username));
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
/// Each invitation is mailed and delivered to webhooks only while its
/// inviter is within `--invitations-per-hour` and its invitee within
/// `--invitations-received-per-day` (both counted when it is sent, in
/// invitee order so that creations never wait on each other in a circle);
/// beyond them it is still made, listed and in the invitee's feed, but
/// sent nowhere: no one can bomb a player's mailbox with invitations.
///
/// # Errors
/// Database errors.
pub async fn insert_invitations(
    conn: &mut Conn,
    game: &GameRow,
    invitees: &[Invitee],
    at: DateTime<Utc>,
    limits: &CostLimits,
) -> Result<Vec<Noted>, Failure> {
    if invitees.is_empty() {
        return Ok(Vec::new());
    }
    let users: Vec<Uuid> = invitees.iter().map(|i| i.user_id).collect();
    invitations::insert(conn, game.id, &users, at).await?;
    let mut ordered: Vec<&Invitee> = invitees.iter().collect();
    ordered.sort_by_key(|i| i.user_id.to_string());
    let (mut sent, mut listed) = (Vec::new(), Vec::new());
    for invitee in ordered {
        let keys = [
            (
                format!("invites-by:{}", game.created_by),
                limits.invitations_sent,
            ),
            (
                format!("invites-to:{}", invitee.user_id),
                limits.invitations_received,
            ),
        ];
        let note = Note {
            user_id: invitee.user_id,
            notification: Notification::Invited {
                game_id: game.id,
                ruleset: game.ruleset.clone(),
                players: game.players,
                invited_by: game.created_by,
            },
        };
        match throttle::reserve(conn, &keys, at).await? {
            None => sent.push(note),
            Some(_) => listed.push(note),
        }
    }
    let mut noted =
        notifications::insert(conn, Some(game.id), &crate::notifications::rows(&sent)?, at).await?;
    noted.extend(
        notifications::insert_unsent(
            conn,
            Some(game.id),
            &crate::notifications::rows(&listed)?,
            at,
        )
        .await?,
    );
    Ok(noted)
}

/// Whether `caller` may join the private game `loaded` (holding `code`).
///
/// # Errors
/// `not_invited`.
pub async fn check_may_join(
    conn: &mut Conn,
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
    if invitations::find(conn, game.id, caller.user_id).await? == Some(false) {
        return Ok(());
    }
    Err(Failure::not_invited())
}

/// An invitee declines: event `player_declined`; they may no longer join
/// without the code.
///
/// Fails with `not_invited`, `game_not_open` or `already_joined`.
pub struct Decline;

impl OpenChange for Decline {
    const NAME: &'static str = "decline";

    async fn apply(&self, tx: OpenTx<'_>) -> Result<(), Failure> {
        let OpenTx {
            conn,
            loaded,
            chain,
            who,
            now,
            ..
        } = tx;
        let id = loaded.game.id;
        if invitations::find(conn, id, who.user_id).await? != Some(false) {
            return Err(Failure::not_invited());
        }
        must_be_open(loaded)?;
        if loaded.seat_of(who.user_id).is_some() {
            return Err(Failure::new(
                ErrorCode::AlreadyJoined,
                "you have a seat in this game",
            ));
        }
        invitations::decline(conn, id, who.user_id, now).await?;
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
}
