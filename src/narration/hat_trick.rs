//! Hat Trick in words: each deal's trump, each trick as one line (the
//! cards, predictions, who won it), the deal's scores.

use serde_json::Value;

use super::cards::card;
use super::{Story, Table};
use crate::games::events::EventOut;

const R: &str = "hat-trick";

/// A trump code in words: `H` is "hearts", `NT` "no trump".
#[must_use]
pub fn trump(code: &Value) -> &'static str {
    match code.as_str() {
        Some("H") => "hearts",
        Some("D") => "diamonds",
        Some("C") => "clubs",
        Some("S") => "spades",
        _ => "no trump",
    }
}

/// The cards of the trick being told.
#[derive(Debug, Default)]
pub(super) struct Trick {
    played: Vec<String>,
    last_seq: i64,
    /// Whether the trick told next is known to start with its first card
    /// (a story may begin mid-trick: then no card is said to lead).
    starts: bool,
}

impl Trick {
    pub(super) fn flush(&mut self, story: &mut Story, table: &Table, won: Option<(i64, &Value)>) {
        if self.played.is_empty() && won.is_none() {
            return;
        }
        let cards = if self.played.is_empty() {
            String::new()
        } else {
            format!("{}; ", self.played.join(", "))
        };
        let (seq, text) = match won {
            Some((seq, data)) => (
                seq,
                format!(
                    "trick {}: {cards}{} won it",
                    data["trick"],
                    table.who(&data["winner"])
                ),
            ),
            None => (self.last_seq, format!("{cards}the trick goes on")),
        };
        story.say(seq, &text);
        self.played.clear();
        self.starts = won.is_some();
    }
}

pub(super) fn tell(story: &mut Story, table: &Table, event: &EventOut, trick: &mut Trick) {
    let d = &event.data;
    let text = match event.kind.as_str() {
        "played" => {
            let verb = if trick.played.is_empty() && trick.starts {
                "led"
            } else {
                "played"
            };
            let predict = if d["predict"] == Value::Bool(true) {
                " and made a prediction"
            } else {
                ""
            };
            trick.played.push(format!(
                "{} {verb} {}{predict}",
                table.who(&d["seat"]),
                card(R, d["card"].as_str().unwrap_or("?"))
            ));
            trick.last_seq = event.seq;
            return;
        }
        "trick_won" => {
            trick.flush(story, table, Some((event.seq, d)));
            return;
        }
        "dealt" => {
            let indicator = d["indicator"]
                .as_str()
                .map_or_else(String::new, |c| format!(" (shown by {})", card(R, c)));
            let negative = if d["negative"] == Value::Bool(true) {
                "; a negative deal: fewest points is best"
            } else {
                ""
            };
            format!(
                "deal {}: {} dealt; trump is {}{indicator}{negative}",
                d["round"].as_u64().unwrap_or(0) + 1,
                table.who(&d["dealer"]),
                trump(&d["trump"])
            )
        }
        "round_scored" => {
            let tricks: Vec<String> = d["scoring_tricks"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|s| table.who(s))
                .collect();
            let hat_trick = if d["hat_trick"].is_null() {
                String::new()
            } else {
                format!("; a hat trick for {}", table.who(&d["hat_trick"]))
            };
            format!(
                "deal {} scored: trick 1, trick 6 and the last went to {}{hat_trick}; points {}; totals {}",
                d["round"].as_u64().unwrap_or(0) + 1,
                tricks.join(", "),
                table.per_seat(&d["points"], true),
                table.per_seat(&d["totals"], false)
            )
        }
        "match_ended" => format!(
            "the match ended: {} won ({})",
            table.list(&d["winners"]),
            table.per_seat(&d["scores"], false)
        ),
        _ => return,
    };
    trick.flush(story, table, None);
    trick.starts = matches!(event.kind.as_str(), "dealt" | "play_started");
    story.say(event.seq, &text);
}
