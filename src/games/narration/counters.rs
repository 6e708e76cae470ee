//! The numbers players count, as the rule books count them, read from a
//! seat's (or a spectator's) view:
//!
//! - **Hats**: the turn (one main action each; 8 per player in a game).
//! - **Goathead**: the round (of `rounds`) and, in play, the trick.
//! - **Hat Trick**: the deal (of `rounds`) and the trick.
//! - **Top Hats**: the phase's count: stacks built, the placing turn, and
//!   in play the turn, which the view does not hold: the caller gives the
//!   number of play turns finished (moves and ended chains in the log).
//!
//! Never the log's `version`, which counts events, not moves.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::i18n::{Arg, Language, words};

/// The counters of one moment of a game; absent where a ruleset or phase
/// has none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Counters {
    /// The turn being played (from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<u32>,
    /// The trick being played in this round or deal (from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trick: Option<u32>,
    /// The round (Goathead) or deal (Hat Trick) being played (from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// How many rounds or deals the match has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
}

fn number(value: &Value) -> Option<u32> {
    value.as_u64().and_then(|n| u32::try_from(n).ok())
}

fn sum(values: &Value, field: &str) -> u32 {
    values
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| number(&v[field]).or_else(|| number(v)))
        .sum()
}

/// The counters of `view` (a view of `ruleset`); `play_turns` is the
/// number of Top Hats play turns finished, when known.
#[must_use]
pub fn counters(ruleset: &str, view: &Value, play_turns: Option<u32>) -> Counters {
    if view.is_null() {
        return Counters::default();
    }
    match ruleset {
        "hats" => {
            let made = sum(&view["seats"], "main_actions");
            let over = view["finished"] == Value::Bool(true);
            Counters {
                turn: Some(if over { made } else { made + 1 }),
                ..Counters::default()
            }
        }
        "goathead" => {
            let done = view["tricks"].as_array().map_or(0, Vec::len);
            let playing = view["phase"] == "play";
            Counters {
                round: number(&view["round"]).map(|r| r + 1),
                rounds: number(&view["rounds"]),
                trick: playing.then(|| u32::try_from(done).unwrap_or(0) + 1),
                turn: None,
            }
        }
        "hat-trick" => Counters {
            round: number(&view["round"]).map(|r| r + 1),
            rounds: number(&view["rounds"]),
            trick: number(&view["trick_number"]).filter(|&t| t > 0),
            turn: None,
        },
        "top-hats" => {
            let turn = match view["phase"].as_str() {
                Some("placing") => Some(sum(&view["stacks_placed"], "") + 1),
                Some("playing") => play_turns.map(|t| t + 1),
                Some("over") => play_turns,
                _ => None,
            };
            Counters {
                turn,
                ..Counters::default()
            }
        }
        _ => Counters::default(),
    }
}

impl Counters {
    /// In words for a subject or a heading: `turn 8`, `round 2 of 15,
    /// trick 3`, `deal 4 of 11, trick 6`; empty when there is none.
    #[must_use]
    pub fn words(&self, ruleset: &str) -> String {
        self.words_in(Language::En, ruleset)
    }

    /// In words in `language`: `manche 2 sur 15, pli 3`.
    #[must_use]
    pub fn words_in(&self, language: Language, ruleset: &str) -> String {
        let mut parts = Vec::new();
        if let Some(round) = self.round {
            let kind = if ruleset == "hat-trick" {
                "deal"
            } else {
                "round"
            };
            let round = round.to_string();
            let of = self.rounds.map(|of| of.to_string());
            parts.push(words(
                language,
                &format!("counter-{kind}"),
                &[
                    ("n", Arg::Text(&round)),
                    ("of", Arg::Text(of.as_deref().unwrap_or("none"))),
                ],
            ));
        }
        if let Some(trick) = self.trick {
            parts.push(words(
                language,
                "counter-trick",
                &[("n", Arg::Text(&trick.to_string()))],
            ));
        }
        if let Some(turn) = self.turn {
            parts.push(words(
                language,
                "counter-turn",
                &[("n", Arg::Text(&turn.to_string()))],
            ));
        }
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn counters_are_what_players_count() {
        let hats = json!({"seats": [{"main_actions": 3}, {"main_actions": 4}], "finished": false});
        assert_eq!(counters("hats", &hats, None).words("hats"), "turn 8");
        let goathead = json!({"round": 1, "rounds": 15, "phase": "play", "tricks": [{}, {}]});
        assert_eq!(
            counters("goathead", &goathead, None).words("goathead"),
            "round 2 of 15, trick 3"
        );
        let bidding = json!({"round": 0, "rounds": 15, "phase": "bidding", "tricks": []});
        assert_eq!(
            counters("goathead", &bidding, None).words("goathead"),
            "round 1 of 15"
        );
        let hat_trick = json!({"round": 3, "rounds": 11, "trick_number": 6});
        assert_eq!(
            counters("hat-trick", &hat_trick, None).words("hat-trick"),
            "deal 4 of 11, trick 6"
        );
        let placing = json!({"phase": "placing", "stacks_placed": [2, 1]});
        assert_eq!(counters("top-hats", &placing, None).turn, Some(4));
        let playing = json!({"phase": "playing"});
        assert_eq!(counters("top-hats", &playing, Some(17)).turn, Some(18));
        assert_eq!(
            counters("goathead", &goathead, None).words_in(Language::Fr, "goathead"),
            "manche 2 sur 15, pli 3"
        );
        assert_eq!(
            counters("top-hats", &json!({"phase": "building"}), None),
            Counters::default()
        );
    }
}
