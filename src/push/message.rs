//! What a push says, and how the push service is asked to treat it: pure.
//!
//! Rules:
//! - A push carries only `{game, version, kind, text}`: the game's id, the
//!   version it was at, the kind, and a short text naming the ruleset. No
//!   seat, no hand, no move, no talk message (a phone shows pushes on its
//!   locked screen): the page fetches the rest as the seat may see it.
//! - `Topic` is the game's id (32 hex digits, within RFC 8030's 32
//!   characters of URL-safe base64), so a newer push about a game replaces
//!   an older one the device has not shown yet.
//! - `TTL`: how long a push service keeps a push for a device that is
//!   offline — a turn, an invitation or a tournament table ready a week, a
//!   reminder an hour (it is late after that), a game's or a tournament's
//!   end or a message a day.
//! - `Urgency`: `high` for a reminder (a clock about to run out), `normal`
//!   for a turn, an invitation or a tournament table ready, `low` for a
//!   game's or a tournament's end or a message.
//! - A tournament's push names its ruleset, not the tournament (whose name
//!   its organiser chose): the page shows the rest.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::i18n::{Language, push_text};
use crate::notifications::kind::Kind;

/// The payload of a push, encrypted for the device (RFC 8291).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct PushMessage {
    /// The game it is about.
    pub game: Option<Uuid>,
    /// The game's version when it was queued (absent for an invitation or a message).
    pub version: Option<i64>,
    /// `your_turn`, `reminder` (a clock runs out soon), `invited`,
    /// `game_finished`, `talk`, `takeback_offered`, `seat_substituted`,
    /// `tournament_round` or `tournament_finished`.
    #[schema(example = "your_turn")]
    pub kind: String,
    /// A short text to show, in the reader's chosen language (else English).
    #[schema(example = "Your turn in Top Hats.")]
    pub text: String,
}

/// How the push service is asked to handle one push.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    pub message: PushMessage,
    /// `TTL`, in seconds.
    pub ttl: u32,
    /// `Urgency`: `very-low`, `low`, `normal` or `high`.
    pub urgency: &'static str,
    /// `Topic`, when the push is about a game.
    pub topic: Option<String>,
}

const HOUR: u32 = 3600;

/// The push for a queued row of `kind` about `game` of `ruleset` (its
/// players' name for it), at `version`; `None` for a kind never pushed.
#[must_use]
pub fn delivery(
    kind: Kind,
    game: Option<Uuid>,
    version: Option<i64>,
    ruleset: &str,
    language: Language,
) -> Option<Delivery> {
    let (name, ttl, urgency) = match kind {
        Kind::YourTurn => ("your_turn", 7 * 24 * HOUR, "normal"),
        Kind::Reminder => ("deadline_soon", HOUR, "high"),
        Kind::Invited => ("invited", 7 * 24 * HOUR, "normal"),
        Kind::GameFinished => ("game_finished", 24 * HOUR, "low"),
        Kind::Talk => ("talk", 24 * HOUR, "low"),
        Kind::TakebackOffered => ("takeback_offered", 24 * HOUR, "normal"),
        Kind::SeatSubstituted => ("seat_substituted", 24 * HOUR, "low"),
        Kind::TournamentRound => ("tournament_round", 7 * 24 * HOUR, "normal"),
        Kind::TournamentFinished => ("tournament_finished", 24 * HOUR, "low"),
        Kind::MoveAccepted | Kind::MoveRefused | Kind::ConfirmAddress => return None,
    };
    let text = push_text(language, name, ruleset);
    let version = match kind {
        Kind::Invited | Kind::Talk => None,
        _ => version,
    };
    Some(Delivery {
        message: PushMessage {
            game,
            version,
            kind: kind.as_str().to_owned(),
            text,
        },
        ttl,
        urgency,
        topic: game.map(|g| g.simple().to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_names_the_game_and_version_and_nothing_else() {
        // Given a turn in a game
        let game = Uuid::new_v4();
        // When it is pushed
        let d = delivery(
            Kind::YourTurn,
            Some(game),
            Some(7),
            "Top Hats",
            Language::En,
        )
        .unwrap();
        // Then the payload holds the game, the version, the kind and a short text
        let json = serde_json::to_value(&d.message).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"game": game, "version": 7, "kind": "your_turn", "text": "Your turn in Top Hats."})
        );
        assert_eq!((d.ttl, d.urgency), (7 * 24 * 3600, "normal"));
    }

    #[test]
    fn the_topic_is_the_game_in_32_url_safe_characters() {
        let game = Uuid::new_v4();
        let d = delivery(
            Kind::GameFinished,
            Some(game),
            Some(3),
            "Hats",
            Language::En,
        )
        .unwrap();
        let topic = d.topic.unwrap();
        assert_eq!(topic.len(), 32);
        assert!(
            topic
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        );
        // Every push about one game shares it, so a newer one replaces an older.
        assert_eq!(
            delivery(Kind::YourTurn, Some(game), Some(1), "Hats", Language::En)
                .unwrap()
                .topic,
            Some(topic)
        );
    }

    #[test]
    fn a_reminder_is_urgent_and_short_lived() {
        let d = delivery(
            Kind::Reminder,
            Some(Uuid::nil()),
            Some(2),
            "Hats",
            Language::En,
        )
        .unwrap();
        assert_eq!((d.ttl, d.urgency), (3600, "high"));
    }

    #[test]
    fn mail_only_kinds_are_never_pushed() {
        for kind in [Kind::MoveAccepted, Kind::MoveRefused, Kind::ConfirmAddress] {
            assert_eq!(delivery(kind, None, None, "Hats", Language::En), None);
        }
    }

    #[test]
    fn given_a_french_reader_when_a_turn_is_pushed_then_it_reads_in_french() {
        let d = delivery(Kind::YourTurn, None, Some(1), "Top Hats", Language::Fr).unwrap();
        assert_eq!(d.message.text, "À vous de jouer dans Top Hats.");
    }

    #[test]
    fn given_a_tournament_table_ready_or_a_tournament_over_when_pushed_then_it_names_the_ruleset_and_the_game()
     {
        let game = Uuid::new_v4();
        let d = delivery(
            Kind::TournamentRound,
            Some(game),
            None,
            "Hats",
            Language::En,
        )
        .unwrap();
        assert_eq!(
            serde_json::to_value(&d.message).unwrap(),
            serde_json::json!({"game": game, "version": null, "kind": "tournament_round",
                               "text": "Your tournament table of Hats is ready."})
        );
        assert_eq!((d.ttl, d.urgency), (7 * 24 * 3600, "normal"));
        let d = delivery(Kind::TournamentFinished, None, None, "Hats", Language::Fr).unwrap();
        assert_eq!(
            d.message.text,
            "Un tournoi de Hats où vous jouiez est terminé."
        );
        assert_eq!((d.topic, d.urgency), (None, "low"));
    }

    #[test]
    fn an_invitation_or_a_message_carries_no_version() {
        for kind in [Kind::Invited, Kind::Talk] {
            let d = delivery(kind, Some(Uuid::nil()), Some(4), "Hats", Language::En).unwrap();
            assert_eq!(d.message.version, None);
        }
    }
}
