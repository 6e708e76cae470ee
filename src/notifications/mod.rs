//! Notifications: what the server tells a user (their turn, an invitation,
//! a game over), and every way it reaches them.
//!
//! A notification is written as a row (the inbox, `GET
//! /v1/me/notifications`) in the same statement as the events that cause
//! it; the same statement queues it in each channel's outbox. After the
//! commit the process wakes its own waiters and NOTIFYs the others
//! ([`crate::wake`]). Channels:
//! - the inbox and its stream (`/v1/me/stream`): read from the rows, woken
//!   by [`crate::wake`]; nothing to queue ([`inbox`]);
//! - webhooks: an outbox row per webhook, delivered by a worker at least
//!   once ([`webhooks`]).
//!
//! A new channel (email, web push) is a [`channel::Channel`]: its outbox
//! CTE joins `db::notifications::OUTBOXES` (so every statement that
//! notifies queues it, without touching the command path), and its
//! deliveries run in [`channel::deliver_forever`], woken like webhooks.

pub mod channel;
pub mod inbox;
pub mod kind;
pub mod preferences;
pub mod preferences_change;
pub mod talk_message;
pub mod webhooks;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use uuid::Uuid;

use crate::error::Failure;
use crate::record::chain::format_time;

/// A step of a conditional line a `your_turn` tells its owner did not
/// fire: a seat and its command.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct UnfiredStep {
    pub seat: u8,
    #[schema(value_type = crate::record::names::CommandByName)]
    pub command: Value,
}

/// What a user is told. Stored as `kind` and `payload`; a client reads it
/// as a `WebhookPayload`, whose `data` is the payload (its schema, one per
/// kind, is derived from this type: `openapi::notifications`).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(tag = "kind", content = "payload", rename_all = "snake_case")]
pub enum Notification {
    /// A game newly waits for the user's seat (never for a seat that is out).
    YourTurn {
        game_id: Uuid,
        #[schema(value_type = crate::record::names::RulesetId)]
        ruleset: String,
        seat: i16,
        version: i64,
        /// RFC 3339, or null in a game without a clock.
        deadline: Option<String>,
        /// What was left of the user's conditional lines that did not fire
        /// in the step that made it their turn (docs/turn-conveniences.md):
        /// the user's own, told to nobody else. Absent when none.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[schema(value_type = Vec<Vec<UnfiredStep>>)]
        unfired: Vec<Value>,
    },
    /// A game the user sits at ended (`finished` or `abandoned`).
    GameFinished {
        game_id: Uuid,
        #[schema(value_type = crate::record::names::RulesetId)]
        ruleset: String,
        /// `finished` or `abandoned`.
        #[schema(value_type = crate::record::names::GameStatus)]
        status: String,
        /// Absent when the game was cancelled before it started.
        #[serde(skip_serializing_if = "Option::is_none")]
        version: Option<i64>,
        /// The game's result (`null` when it was cancelled before it started).
        #[schema(value_type = crate::record::names::GameResultByName)]
        result: Option<Value>,
    },
    /// The user is invited to a private game.
    Invited {
        game_id: Uuid,
        #[schema(value_type = crate::record::names::RulesetId)]
        ruleset: String,
        players: i16,
        invited_by: Uuid,
    },
    /// Another player offers to take back their last command in a game the
    /// user sits at (docs/turn-conveniences.md): the user accepts or
    /// declines. Not mailed: the offer ends with the next move.
    TakebackOffered {
        game_id: Uuid,
        #[schema(value_type = crate::record::names::RulesetId)]
        ruleset: String,
        /// The offering seat.
        seat: u8,
        /// The version before the command it would take back.
        to_version: i64,
        /// The game's version with the offer.
        version: i64,
    },
    /// A substitute took over a seat whose player had left, in a game the
    /// user sits at (docs/seats.md): its moves are theirs from now on.
    SeatSubstituted {
        game_id: Uuid,
        #[schema(value_type = crate::record::names::RulesetId)]
        ruleset: String,
        /// The seat taken over.
        seat: u8,
        /// The substitute's username.
        #[schema(example = "cyd")]
        username: String,
        /// The game's version with the takeover.
        version: i64,
    },
    /// Someone said something the user reads in a game they sit at: at the
    /// table, or to their seat (docs/talk.md). Never from a user they muted.
    Talk {
        game_id: Uuid,
        #[schema(value_type = crate::record::names::RulesetId)]
        ruleset: String,
        message: talk_message::TalkMessage,
    },
    /// A round of a tournament the user entered started and their table is
    /// ready (docs/tournaments.md): told only to the table's players, with
    /// their own table's game and nothing of any other table.
    TournamentRound {
        /// The user's table's game.
        game_id: Uuid,
        #[schema(value_type = crate::record::names::RulesetId)]
        ruleset: String,
        tournament_id: Uuid,
        /// The tournament's name.
        #[schema(example = "Winter cup")]
        name: String,
        /// The round, counted from 0 as `/v1/tournaments/{id}/rounds`
        /// counts it (mails and pages say it from 1).
        round: u32,
    },
    /// A tournament the user entered ended (docs/tournaments.md): their
    /// place in the final standings; or it was cancelled at its start, with
    /// too few players (`cancelled`, no place, no game).
    TournamentFinished {
        /// The user's last table's game in the tournament; null when it was
        /// cancelled.
        game_id: Option<Uuid>,
        #[schema(value_type = crate::record::names::RulesetId)]
        ruleset: String,
        tournament_id: Uuid,
        /// The tournament's name.
        #[schema(example = "Winter cup")]
        name: String,
        /// The user's rank in the final standings (1 for the winner, as
        /// `/v1/tournaments/{id}/standings` ranks); null when cancelled.
        #[schema(example = 2)]
        place: Option<u32>,
        /// How many entrants were ranked; when cancelled, how many had
        /// registered.
        #[schema(example = 8)]
        field: u32,
        /// True when the tournament was cancelled at its start (too few
        /// players); absent otherwise.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        cancelled: bool,
    },
}

impl Notification {
    /// `your_turn` with the deadline as clients read it.
    #[must_use]
    pub fn your_turn(
        game_id: Uuid,
        ruleset: &str,
        seat: i16,
        version: i64,
        deadline: Option<DateTime<Utc>>,
    ) -> Self {
        Notification::YourTurn {
            game_id,
            ruleset: ruleset.to_owned(),
            seat,
            version,
            deadline: deadline.map(format_time),
            unfired: Vec::new(),
        }
    }
}

/// The kinds of [`Notification`], as the documents name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum NotificationKind {
    YourTurn,
    GameFinished,
    Invited,
    Talk,
    TakebackOffered,
    SeatSubstituted,
    TournamentRound,
    TournamentFinished,
}

/// A notification for one user.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Note {
    pub user_id: Uuid,
    #[serde(flatten)]
    pub notification: Notification,
}

/// The notes as the rows `db::notifications` writes (`{user_id, kind, payload}` each).
///
/// # Errors
/// `internal`: our own types always serialize.
pub fn rows(notes: &[Note]) -> Result<Value, Failure> {
    serde_json::to_value(notes).map_err(Failure::internal)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn each_notification_is_of_a_documented_kind() {
        let id = Uuid::nil();
        let all = [
            (
                Notification::your_turn(id, "hats", 0, 1, None),
                NotificationKind::YourTurn,
            ),
            (
                Notification::GameFinished {
                    game_id: id,
                    ruleset: "hats".into(),
                    status: "finished".into(),
                    version: Some(9),
                    result: None,
                },
                NotificationKind::GameFinished,
            ),
            (
                Notification::Invited {
                    game_id: id,
                    ruleset: "hats".into(),
                    players: 2,
                    invited_by: id,
                },
                NotificationKind::Invited,
            ),
            (
                Notification::TournamentRound {
                    game_id: id,
                    ruleset: "hats".into(),
                    tournament_id: id,
                    name: "Cup".into(),
                    round: 0,
                },
                NotificationKind::TournamentRound,
            ),
            (
                Notification::TournamentFinished {
                    game_id: None,
                    ruleset: "hats".into(),
                    tournament_id: id,
                    name: "Cup".into(),
                    place: None,
                    field: 1,
                    cancelled: true,
                },
                NotificationKind::TournamentFinished,
            ),
        ];
        for (notification, kind) in all {
            let stored = serde_json::to_value(&notification).unwrap();
            assert_eq!(stored["kind"], serde_json::to_value(kind).unwrap());
        }
    }

    #[test]
    fn a_note_is_stored_as_user_kind_and_payload() {
        let note = Note {
            user_id: Uuid::nil(),
            notification: Notification::GameFinished {
                game_id: Uuid::nil(),
                ruleset: "hats".into(),
                status: "abandoned".into(),
                version: None,
                result: None,
            },
        };
        assert_eq!(
            serde_json::to_value(&note).unwrap(),
            json!({
                "user_id": Uuid::nil(),
                "kind": "game_finished",
                "payload": {"game_id": Uuid::nil(), "ruleset": "hats", "status": "abandoned", "result": null},
            })
        );
    }
}
