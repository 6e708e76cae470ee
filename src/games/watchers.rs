//! Who may watch a game: its `spectators` option, fixed at creation.
//!
//! Rules:
//! - `public`: anyone may read the game (its view, events, stream, replay
//!   steps and audit), and it is listed for everyone. The default for a
//!   game that is not private.
//! - `link`: anyone who has the game's address may read it; it is listed
//!   only to its players and invitees.
//! - `players`: only its players, its creator and its invitees may read
//!   it, and, while it is open, whoever holds its invite code (to see the
//!   table before joining); to anyone else, signed in or not, it does not
//!   exist (`404 not_found`, the answer for an unknown id). The default for
//!   a private game, and the rule for private games created before the
//!   option existed.
//! - A tournament's table is for its `players` while its round is played
//!   (in duplicate mode every table holds the same cards); once the round
//!   is scored, anyone with its address may read it, as with `link`.
//! - A spectator who may watch sees the public view, as always.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::db::Conn;
use crate::db::games::{GameRow, LoadedGame};
use crate::db::invitations;
use crate::error::Failure;

/// Who may watch a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Spectators {
    /// Anyone; listed for everyone.
    Public,
    /// Anyone with the game's address; not listed.
    Link,
    /// Its players, creator and invitees only.
    Players,
}

impl Spectators {
    /// The default for a game that is `private` or not.
    #[must_use]
    pub const fn default_for(private: bool) -> Self {
        if private {
            Spectators::Players
        } else {
            Spectators::Public
        }
    }

    /// The rule of a stored game: its option, else the default for its
    /// privacy (games created before the option).
    #[must_use]
    pub fn of(game: &GameRow) -> Self {
        game.server_options
            .get("spectators")
            .and_then(|v| serde_json::from_value::<Spectators>(v.clone()).ok())
            .unwrap_or(Self::default_for(game.private))
    }

    /// The value stored in the game's server options.
    #[must_use]
    pub fn to_value(self) -> Value {
        Value::String(
            match self {
                Spectators::Public => "public",
                Spectators::Link => "link",
                Spectators::Players => "players",
            }
            .to_owned(),
        )
    }
}

/// Whether a game for its players only is a tournament table whose round
/// is over: then anyone with its address may read it.
async fn tournament_table_open(conn: &mut Conn, loaded: &LoadedGame) -> Result<bool, Failure> {
    if !loaded.game.private {
        return Ok(false);
    }
    Ok(crate::db::tournaments::round_scored_for(conn, loaded.game.id).await?)
}

/// Whether `user` (none: signed out) may read `loaded`; `not_found` if not,
/// as for a game that does not exist.
///
/// # Errors
/// `not_found`; database errors.
pub async fn check(
    conn: &mut Conn,
    loaded: &LoadedGame,
    user: Option<Uuid>,
) -> Result<(), Failure> {
    check_with_code(conn, loaded, user, None).await
}

/// As [`check`], and a holder of the invite `code` may read an open game.
///
/// # Errors
/// `not_found`; database errors.
pub async fn check_with_code(
    conn: &mut Conn,
    loaded: &LoadedGame,
    user: Option<Uuid>,
    code: Option<&str>,
) -> Result<(), Failure> {
    if Spectators::of(&loaded.game) != Spectators::Players {
        return Ok(());
    }
    if let (Some(code), Some(expected)) = (code, loaded.game.invite_code.as_deref())
        && loaded.game.status == super::status::OPEN
        && code == expected
    {
        return Ok(());
    }
    let Some(user) = user else {
        return if tournament_table_open(conn, loaded).await? {
            Ok(())
        } else {
            Err(super::no_such_game())
        };
    };
    if loaded.seat_of(user).is_some() || loaded.game.created_by == user {
        return Ok(());
    }
    // An invitee, even one who declined, may still look at what they were offered.
    if invitations::find(conn, loaded.game.id, user)
        .await?
        .is_some()
    {
        return Ok(());
    }
    if tournament_table_open(conn, loaded).await? {
        return Ok(());
    }
    Err(super::no_such_game())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_games_default_to_players_and_public_ones_to_public() {
        assert_eq!(Spectators::default_for(true), Spectators::Players);
        assert_eq!(Spectators::default_for(false), Spectators::Public);
        assert_eq!(Spectators::Link.to_value(), Value::from("link"));
        assert_eq!(
            serde_json::from_value::<Spectators>(Value::from("players")).unwrap(),
            Spectators::Players
        );
    }
}
