//! A rematch offer as clients see it (docs/ratings.md): its state and each
//! seat's answer. The rules are [`super::rematch`]'s.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::status;
use crate::db::Conn;
use crate::db::games::LoadedGame;
use crate::db::rematches::{self, RematchRow};
use crate::error::Failure;

/// Where a rematch offer stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RematchState {
    /// Waiting for answers.
    Offered,
    /// Everyone accepted: the new game is `new_game_id`.
    Accepted,
    /// Someone declined (or the offer was withdrawn).
    Declined,
}

/// A player's answer to a rematch offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    Waiting,
    Accepted,
    Declined,
}

/// One seat of the finished game and its answer.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RematchSeat {
    /// The seat in the finished game.
    pub seat: u8,
    /// The seat the player takes in the rematch (one further round).
    pub new_seat: u8,
    pub user_id: Uuid,
    pub username: String,
    /// A bot seat accepts as the offer is made.
    pub bot: bool,
    pub answer: Answer,
}

/// A rematch offered on a finished game.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"game_id": "0b6f5c1e-3f0a-4b59-9a57-2f1d8f7c1a10", "state": "offered",
    "offered_by": "ada", "offered_at": "2026-12-08T10:00:00Z",
    "seats": [{"seat": 0, "new_seat": 1, "user_id": "6c1f0a4e-8d2b-4f7a-9c3e-1b2a3c4d5e6f", "username": "ada", "bot": false, "answer": "accepted"},
              {"seat": 1, "new_seat": 0, "user_id": "9d2e1b3c-4a5f-4e6d-8c7b-2a1b3c4d5e6f", "username": "bruno", "bot": false, "answer": "waiting"}],
    "new_game_id": null}))]
pub struct Rematch {
    /// The finished game offered again.
    pub game_id: Uuid,
    pub state: RematchState,
    /// The player who offered.
    pub offered_by: String,
    pub offered_at: DateTime<Utc>,
    /// Every seat of the finished game, with its answer.
    pub seats: Vec<RematchSeat>,
    /// The new game, once everyone accepted.
    pub new_game_id: Option<Uuid>,
}

/// The seat player `seat` of `players` takes in the rematch.
#[must_use]
pub fn rotated(seat: u8, players: u8) -> u8 {
    if players == 0 {
        0
    } else {
        (seat + 1) % players
    }
}

/// The offer `row` on the finished game `loaded`, as shown.
#[must_use]
pub fn shown(row: &RematchRow, loaded: &LoadedGame) -> Rematch {
    let players = u8::try_from(loaded.game.players).unwrap_or(0);
    let name = |id: Uuid| {
        loaded
            .seats
            .iter()
            .find(|s| s.user_id == id)
            .map(|s| s.username.clone())
            .unwrap_or_default()
    };
    Rematch {
        game_id: row.game_id,
        state: match row.state.as_str() {
            "accepted" => RematchState::Accepted,
            "declined" => RematchState::Declined,
            _ => RematchState::Offered,
        },
        offered_by: name(row.offered_by),
        offered_at: row.offered_at,
        seats: loaded
            .seats
            .iter()
            .map(|s| {
                let seat = u8::try_from(s.seat).unwrap_or(0);
                RematchSeat {
                    seat,
                    new_seat: rotated(seat, players),
                    user_id: s.user_id,
                    username: s.username.clone(),
                    bot: s.bot,
                    // A withdrawal: the one who offered (and so accepted) declines.
                    answer: if row.declined_by == Some(s.user_id) {
                        Answer::Declined
                    } else if row.accepted.contains(&s.user_id) {
                        Answer::Accepted
                    } else {
                        Answer::Waiting
                    },
                }
            })
            .collect(),
        new_game_id: row.new_game_id,
    }
}

/// The links of game `loaded` (seen by someone who may watch it): the game
/// it is a rematch of, and the rematch offered on it.
///
/// # Errors
/// Database errors.
pub async fn links(
    conn: &mut Conn,
    loaded: &LoadedGame,
) -> Result<(Option<Uuid>, Option<Rematch>), Failure> {
    let of = if loaded.game.status == status::OPEN {
        None // a rematch starts at once: it is never open
    } else {
        rematches::rematch_of(conn, loaded.game.id).await?
    };
    let offer = if loaded.game.status == status::FINISHED {
        rematches::of_game(conn, loaded.game.id)
            .await?
            .map(|row| shown(&row, loaded))
    } else {
        None
    };
    Ok((of, offer))
}
