//! A vacant seat offered to a named player by one of the game's players
//! (docs/seats.md): the player is invited to the game (an `invitations`
//! row, so a private game lets them see it and take the seat without its
//! code) and told (`invited`). The offer is not part of the game's record:
//! the takeover is.
//!
//! - Only a player still in the game (seated, not out) may offer.
//! - The seat must be vacant and the game take substitutes; the named
//!   player must not be seated there already (`substitute::vacancy`).
//! - Blocks: offering to a user the offerer blocks is refused
//!   (`seat_refused`: they know whom they block); a user who blocks the
//!   offerer is neither invited nor told, and the offerer is not told
//!   either (it reads as an offer not taken).
//! - Offering again, or to a user invited already, changes nothing.

use std::sync::Mutex;

use serde::Deserialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::open_game::{OpenChange, OpenTx};
use crate::auth::Caller;
use crate::db::games::{GameRow, LoadedGame};
use crate::db::{blocks, invitations, users};
use crate::error::{ErrorCode, Failure};
use crate::notifications::{Note, Notification};

/// Whom a vacant seat is offered to.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OfferSeat {
    /// Their username (any case).
    #[schema(example = "cyd", max_length = 64)]
    pub username: String,
}

/// Offers vacant seat `seat` to the player `request` names (see the
/// module documentation).
///
/// Fails with `not_a_player` (the caller holds no seat in the game, or is
/// out), `not_found` (no such user), `no_such_seat`, `seat_not_vacant`,
/// `substitutes_forbidden`, `already_joined` (they sit there already) and
/// `seat_refused`.
pub struct Offer {
    pub seat: u8,
    pub request: OfferSeat,
    /// Whom the offer invited (none: invited already, or they block the
    /// offerer), for [`OpenChange::tell`].
    invited: Mutex<Option<Uuid>>,
}

impl Offer {
    /// An offer of `seat` as `request` asks.
    #[must_use]
    pub fn new(seat: u8, request: OfferSeat) -> Self {
        Offer {
            seat,
            request,
            invited: Mutex::new(None),
        }
    }
}

impl OpenChange for Offer {
    const NAME: &'static str = "offer_seat";

    async fn apply(&self, tx: OpenTx<'_>) -> Result<(), Failure> {
        if !tx
            .loaded
            .seats
            .iter()
            .any(|s| s.user_id == tx.who.user_id && !s.resigned)
        {
            return Err(Failure::not_a_player());
        }
        let (to, name, _) = users::find_by_name(tx.conn, self.request.username.trim())
            .await?
            .ok_or_else(|| Failure::not_found("there is no user of that name"))?;
        super::substitute::vacancy(tx.loaded, self.seat, to)?;
        let (blocks, blocked) = blocks::between(tx.conn, tx.who.user_id, &[to]).await?;
        if blocks {
            return Err(Failure::new(
                ErrorCode::SeatRefused,
                format!("you block {name}: unblock them to offer them a seat"),
            ));
        }
        if blocked || invitations::find(tx.conn, tx.loaded.game.id, to).await? == Some(false) {
            return Ok(());
        }
        invitations::offer(tx.conn, tx.loaded.game.id, to, tx.now).await?;
        *self.invited.lock().map_err(Failure::internal)? = Some(to);
        Ok(())
    }

    fn tell(&self, _before: &GameRow, after: &LoadedGame, who: &Caller) -> Vec<Note> {
        let invited = self.invited.lock().ok().and_then(|i| *i);
        let game = &after.game;
        invited
            .map(|to| Note {
                user_id: to,
                notification: Notification::Invited {
                    game_id: game.id,
                    ruleset: game.ruleset.clone(),
                    players: game.players,
                    invited_by: who.user_id,
                },
            })
            .into_iter()
            .collect()
    }
}
