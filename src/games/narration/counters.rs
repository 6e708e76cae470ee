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

use std::borrow::Cow;
use std::fmt;

use serde::de::value::MapAccessDeserializer;
use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

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

/// What the counters read of a view: a few of its fields, read from the
/// view's JSON text as they come, every other field skipped (no tree of the
/// view is built, strings are borrowed from the text).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Shown<'a> {
    /// Hats: the seats, each with its `main_actions`.
    #[serde(borrow)]
    seats: Part<'a>,
    #[serde(borrow)]
    finished: Part<'a>,
    /// Goathead: the tricks played this round.
    #[serde(borrow)]
    tricks: Part<'a>,
    #[serde(borrow)]
    phase: Part<'a>,
    #[serde(borrow)]
    round: Part<'a>,
    #[serde(borrow)]
    rounds: Part<'a>,
    #[serde(borrow)]
    trick_number: Part<'a>,
    /// Top Hats: the stacks each seat placed.
    #[serde(borrow)]
    stacks_placed: Part<'a>,
}

/// A field of the view, as much of it as the counters read.
#[derive(Debug, Default)]
enum Part<'a> {
    /// A non-negative integer.
    Count(u64),
    Flag(bool),
    Text(Cow<'a, str>),
    /// An array: its length and the sum of its elements' counts (an
    /// element's count: its number, or an object's `main_actions`).
    Array {
        len: usize,
        sum: u32,
    },
    /// An object: its `main_actions`, when it is a count.
    Object {
        main_actions: Option<u32>,
    },
    /// Anything else (`null`, a negative or fractional number).
    #[default]
    Other,
}

impl Part<'_> {
    /// As a count that fits in `u32`.
    fn number(&self) -> Option<u32> {
        match self {
            Part::Count(n) => u32::try_from(*n).ok(),
            _ => None,
        }
    }

    /// As an array's element of a sum.
    fn counted(&self) -> u32 {
        match self {
            Part::Object { main_actions } => main_actions.unwrap_or(0),
            other => other.number().unwrap_or(0),
        }
    }

    fn text(&self) -> Option<&str> {
        match self {
            Part::Text(t) => Some(t),
            _ => None,
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Part<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(PartVisitor)
    }
}

struct PartVisitor;

impl<'de> Visitor<'de> for PartVisitor {
    type Value = Part<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Part<'de>, E> {
        Ok(Part::Flag(b))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Part<'de>, E> {
        Ok(Part::Other)
    }
    fn visit_u64<E>(self, n: u64) -> Result<Part<'de>, E> {
        Ok(Part::Count(n))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Part<'de>, E> {
        Ok(Part::Other)
    }
    fn visit_unit<E>(self) -> Result<Part<'de>, E> {
        Ok(Part::Other)
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Part<'de>, E> {
        Ok(Part::Text(Cow::Borrowed(s)))
    }
    fn visit_str<E>(self, s: &str) -> Result<Part<'de>, E> {
        Ok(Part::Text(Cow::Owned(s.to_owned())))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Part<'de>, A::Error> {
        let (mut len, mut sum) = (0_usize, 0_u32);
        while let Some(element) = seq.next_element::<Part<'de>>()? {
            len += 1;
            sum = sum.saturating_add(element.counted());
        }
        Ok(Part::Array { len, sum })
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Part<'de>, A::Error> {
        let mut main_actions = None;
        while let Some(key) = map.next_key::<Part<'de>>()? {
            if key.text() == Some("main_actions") {
                main_actions = map.next_value::<Part<'de>>()?.number();
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Part::Object { main_actions })
    }
}

/// The counters of a view of `ruleset`, given as its JSON text (`null`, or
/// anything but an object, has none); `play_turns` is the number of Top
/// Hats play turns finished, when known.
#[must_use]
pub fn counters(ruleset: &str, view: &str, play_turns: Option<u32>) -> Counters {
    match serde_json::from_str::<Option<ViewObject<'_>>>(view) {
        Ok(Some(ViewObject(shown))) => shown.counters(ruleset, play_turns),
        Ok(None) | Err(_) => Counters::default(),
    }
}

/// A view: an object's fields read as [`Shown`]; any other value reads as
/// an object without them.
struct ViewObject<'a>(Shown<'a>);

impl<'de: 'a, 'a> Deserialize<'de> for ViewObject<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ViewObject<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a view")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ViewObject<'de>, A::Error> {
                Shown::deserialize(MapAccessDeserializer::new(map)).map(ViewObject)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ViewObject<'de>, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(ViewObject(Shown::default()))
            }
            fn visit_bool<E>(self, _: bool) -> Result<ViewObject<'de>, E> {
                Ok(ViewObject(Shown::default()))
            }
            fn visit_i64<E>(self, _: i64) -> Result<ViewObject<'de>, E> {
                Ok(ViewObject(Shown::default()))
            }
            fn visit_u64<E>(self, _: u64) -> Result<ViewObject<'de>, E> {
                Ok(ViewObject(Shown::default()))
            }
            fn visit_f64<E>(self, _: f64) -> Result<ViewObject<'de>, E> {
                Ok(ViewObject(Shown::default()))
            }
            fn visit_str<E>(self, _: &str) -> Result<ViewObject<'de>, E> {
                Ok(ViewObject(Shown::default()))
            }
        }
        d.deserialize_any(V)
    }
}

impl Shown<'_> {
    fn counters(&self, ruleset: &str, play_turns: Option<u32>) -> Counters {
        let phase = self.phase.text();
        let length = |part: &Part<'_>| match part {
            Part::Array { len, .. } => *len,
            _ => 0,
        };
        let sum = |part: &Part<'_>| match part {
            Part::Array { sum, .. } => *sum,
            _ => 0,
        };
        match ruleset {
            "hats" => {
                let made = sum(&self.seats);
                let over = matches!(self.finished, Part::Flag(true));
                Counters {
                    turn: Some(if over { made } else { made + 1 }),
                    ..Counters::default()
                }
            }
            "goathead" => {
                let done = length(&self.tricks);
                let playing = phase == Some("play");
                Counters {
                    round: self.round.number().map(|r| r + 1),
                    rounds: self.rounds.number(),
                    trick: playing.then(|| u32::try_from(done).unwrap_or(0) + 1),
                    turn: None,
                }
            }
            "hat-trick" => Counters {
                round: self.round.number().map(|r| r + 1),
                rounds: self.rounds.number(),
                trick: self.trick_number.number().filter(|&t| t > 0),
                turn: None,
            },
            "top-hats" => {
                let turn = match phase {
                    Some("placing") => Some(sum(&self.stacks_placed) + 1),
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
        assert_eq!(
            counters("hats", &hats.to_string(), None).words("hats"),
            "turn 8"
        );
        let goathead = json!({"round": 1, "rounds": 15, "phase": "play", "tricks": [{}, {}]});
        assert_eq!(
            counters("goathead", &goathead.to_string(), None).words("goathead"),
            "round 2 of 15, trick 3"
        );
        let bidding = json!({"round": 0, "rounds": 15, "phase": "bidding", "tricks": []});
        assert_eq!(
            counters("goathead", &bidding.to_string(), None).words("goathead"),
            "round 1 of 15"
        );
        let hat_trick = json!({"round": 3, "rounds": 11, "trick_number": 6});
        assert_eq!(
            counters("hat-trick", &hat_trick.to_string(), None).words("hat-trick"),
            "deal 4 of 11, trick 6"
        );
        let placing = json!({"phase": "placing", "stacks_placed": [2, 1]});
        assert_eq!(
            counters("top-hats", &placing.to_string(), None).turn,
            Some(4)
        );
        let playing = json!({"phase": "playing"});
        assert_eq!(
            counters("top-hats", &playing.to_string(), Some(17)).turn,
            Some(18)
        );
        assert_eq!(
            counters("goathead", &goathead.to_string(), None).words_in(Language::Fr, "goathead"),
            "manche 2 sur 15, pli 3"
        );
        assert_eq!(
            counters("top-hats", &json!({"phase": "building"}).to_string(), None),
            Counters::default()
        );
    }

    #[test]
    fn given_a_view_of_another_shape_then_what_does_not_fit_reads_as_absent() {
        assert_eq!(counters("goathead", "null", None), Counters::default());
        // Anything but an object counts as an object without the fields.
        assert_eq!(counters("hats", "[[3], true]", None).turn, Some(1));
        let odd = json!({"round": -1, "rounds": 2.5, "phase": 3, "tricks": {"a": 1}});
        assert_eq!(
            counters("goathead", &odd.to_string(), None),
            Counters::default()
        );
        let escaped = r#"{"phase": "pl\u0061y", "round": 0, "tricks": [[], {}, "x"]}"#;
        assert_eq!(counters("goathead", escaped, None).trick, Some(4));
        let seats = json!({"seats": [{"main_actions": 2, "hand": ["H1"]}, 3, "x", {"name": "b"}]});
        assert_eq!(counters("hats", &seats.to_string(), None).turn, Some(6));
    }
}
