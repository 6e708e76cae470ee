//! Every kind of notification the server writes (the `kind` of a
//! `notifications` row), declared once, as error codes are: what the feed,
//! the webhooks and the mails are about. Mail and webhooks match on [`Kind`],
//! never on its text.

macro_rules! kinds {
    ($( $(#[doc = $doc:literal])+ $variant:ident = $text:literal, )+) => {
        /// A kind of notification.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Kind {
            $( $(#[doc = $doc])+ $variant, )+
        }

        impl Kind {
            /// Every kind.
            pub const ALL: &'static [Kind] = &[$(Kind::$variant),+];

            /// The kind as stored and as clients see it.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Kind::$variant => $text,)+
                }
            }

            /// The kind stored as `text`; `None` for a kind this server
            /// does not write (a newer server's).
            #[must_use]
            pub fn parse(text: &str) -> Option<Kind> {
                match text {
                    $($text => Some(Kind::$variant),)+
                    _ => None,
                }
            }
        }
    };
}

kinds! {
    /// A game newly waits for the user's seat.
    YourTurn = "your_turn",
    /// A game still waits for the user's seat, its deadline near (mail).
    Reminder = "reminder",
    /// The user is invited to a game.
    Invited = "invited",
    /// A game the user sits at ended.
    GameFinished = "game_finished",
    /// A move sent by mail was played (mail's answer).
    MoveAccepted = "move_accepted",
    /// A move sent by mail was not played (mail's answer).
    MoveRefused = "move_refused",
    /// A mail address to confirm (its code).
    ConfirmAddress = "confirm_address",
    /// Somebody said something the user may read (docs/talk.md).
    Talk = "talk",
    /// Another player offers a takeback (docs/turn-conveniences.md).
    TakebackOffered = "takeback_offered",
    /// A substitute took over a seat of a game the user sits at (docs/seats.md).
    SeatSubstituted = "seat_substituted",
    /// A round of a tournament the user entered started: their table is
    /// ready (docs/tournaments.md).
    TournamentRound = "tournament_round",
    /// A tournament the user entered ended (their place), or was cancelled
    /// before it started (docs/tournaments.md).
    TournamentFinished = "tournament_finished",
}

impl Kind {
    /// The kinds of mail a user chooses about (each `always`, `digest` or
    /// `never`): every kind mailed with a one-click unsubscribe, whose
    /// link turns it to `never`.
    pub const CHOSEN: [Kind; 8] = [
        Kind::YourTurn,
        Kind::Reminder,
        Kind::Invited,
        Kind::GameFinished,
        Kind::Talk,
        Kind::SeatSubstituted,
        Kind::TournamentRound,
        Kind::TournamentFinished,
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_read_back_from_its_text() {
        for &kind in Kind::ALL {
            assert_eq!(Kind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(Kind::parse("digest"), None);
    }

    #[test]
    fn the_feeds_kinds_are_kinds() {
        use super::super::NotificationKind as Documented;
        for documented in [
            Documented::YourTurn,
            Documented::GameFinished,
            Documented::Invited,
            Documented::Talk,
            Documented::TakebackOffered,
            Documented::SeatSubstituted,
            Documented::TournamentRound,
            Documented::TournamentFinished,
        ] {
            let text = serde_json::to_value(documented).expect("serializes");
            assert!(
                Kind::parse(text.as_str().expect("text")).is_some(),
                "{documented:?}"
            );
        }
    }
}
