//! What a conditional line may name of other seats, ruleset by ruleset
//! (docs/turn-conveniences.md), pure.
//!
//! Rules:
//! - A condition names only commands of other seats that every seat sees
//!   whole once played, so that a line is decided by the public events:
//!   - Top Hats: placing, moving, jumping and ending a turn (building a
//!     stack hides the hats underneath);
//!   - Hats: an exchange (the card goes face up onto the line); a discard,
//!     a swap offer or answer and a black hat go face down;
//!   - Goathead: bids, steals, passes, taking or leaving the kitty,
//!     keeping or upgrading the contract, skipping the kitty swap and
//!     playing a card (a card buried or swapped with the kitty is hidden);
//!   - Hat Trick: playing a card (with or without a prediction, both shown).
//!
//!   Anything else is refused (`conditional_hidden_step`).
//! - Whether another seat's first step is legal now is checked only where
//!   the seat's legal commands follow from what the owner sees (Top Hats'
//!   board). In the card games they depend on the seat's hand: checking a
//!   card play against it would tell the owner what the other seat holds,
//!   so a card game's line is only checked for the seat and the kind of
//!   command, and a line the game does not follow is dropped unfired.
//! - The owner's own steps are checked when they come, against the seat's
//!   legal commands then, in every ruleset.

use serde_json::Value;

/// What a ruleset lets a condition name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conditions {
    /// The command types of other seats a condition may name.
    pub public: &'static [&'static str],
    /// Whether another seat's legal commands follow from what every seat
    /// sees, so a line's first step may be checked against them.
    pub open: bool,
}

const TOP_HATS: Conditions = Conditions {
    public: &["place", "move", "jump", "end_turn"],
    open: true,
};

const HATS: Conditions = Conditions {
    public: &["exchange"],
    open: false,
};

const GOATHEAD: Conditions = Conditions {
    public: &[
        "bid",
        "steal",
        "pass",
        "take_kitty",
        "leave_kitty",
        "keep_contract",
        "upgrade",
        "kitty_skip",
        "play",
    ],
    open: false,
};

const HAT_TRICK: Conditions = Conditions {
    public: &["play"],
    open: false,
};

/// What `ruleset` lets a condition name; `None`: it takes no lines.
#[must_use]
pub fn of(ruleset: &str) -> Option<Conditions> {
    match ruleset {
        "top-hats" => Some(TOP_HATS),
        "hats" => Some(HATS),
        "goathead" => Some(GOATHEAD),
        "hat-trick" => Some(HAT_TRICK),
        _ => None,
    }
}

impl Conditions {
    /// Whether a condition may name `command` (a command in the ruleset's
    /// own spelling, `{"type": …}`) of another seat.
    #[must_use]
    pub fn names_public(&self, command: &Value) -> bool {
        command
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|kind| self.public.contains(&kind))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn given_a_card_game_when_a_condition_names_a_card_played_face_up_then_it_is_taken() {
        let hats = of("hats").unwrap();
        assert!(hats.names_public(&json!({"type": "exchange", "card": "H5", "position": 2})));
        let trick = of("hat-trick").unwrap();
        assert!(trick.names_public(&json!({"type": "play", "card": "H5", "predict": true})));
        let goathead = of("goathead").unwrap();
        assert!(goathead.names_public(&json!({"type": "play", "card": "H5"})));
        assert!(goathead.names_public(&json!({"type": "pass"})));
    }

    #[test]
    fn given_a_card_game_when_a_condition_names_a_hidden_card_then_it_is_refused() {
        let hats = of("hats").unwrap();
        for kind in ["discard_draw", "offer_swap", "answer_swap", "black_hat"] {
            assert!(
                !hats.names_public(&json!({"type": kind, "card": "H5"})),
                "{kind}"
            );
        }
        let goathead = of("goathead").unwrap();
        assert!(!goathead.names_public(&json!({"type": "bury", "card": "H5"})));
        assert!(
            !goathead.names_public(
                &json!({"type": "kitty_swap", "hand_card": "H5", "kitty_card": "H6"})
            )
        );
        assert!(
            !of("top-hats")
                .unwrap()
                .names_public(&json!({"type": "build_stack"}))
        );
        assert!(!hats.names_public(&json!({"card": "H5"})), "no type");
    }

    #[test]
    fn given_each_ruleset_when_asked_whether_lines_are_checked_against_legal_commands_then_only_the_open_board_is()
     {
        assert!(of("top-hats").unwrap().open);
        for ruleset in ["hats", "goathead", "hat-trick"] {
            assert!(!of(ruleset).unwrap().open, "{ruleset}");
        }
        assert_eq!(of("chess"), None);
    }
}
