//! Hat Trick in words: each deal's trump, each trick as one line (the
//! cards, predictions, who won it), the deal's scores.

use serde_json::Value;

use super::cards::card;
use super::trick::{Trick, Won};
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

pub(super) fn tell(story: &mut Story, table: &Table, event: &EventOut, trick: &mut Trick) {
    let d = &event.data;
    let text = match event.kind.as_str() {
        "played" => {
            let predict = if d["predict"] == Value::Bool(true) {
                " and made a prediction"
            } else {
                ""
            };
            let what = format!("{}{predict}", card(R, d["card"].as_str().unwrap_or("?")));
            trick.play(event.seq, &table.who(&d["seat"]), &what);
            return;
        }
        "trick_won" => {
            let won = Won {
                seq: event.seq,
                before: format!("trick {}: ", d["trick"]),
                after: format!("{} won it", table.who(&d["winner"])),
            };
            trick.flush(story, Some(won));
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
    trick.after(story, &event.kind);
    story.say(event.seq, &text);
}
