//! Hat Trick in words: each deal's trump, each trick as one line (the
//! cards, predictions, who won it), the deal's scores.

use serde_json::Value;

use super::cards::card_in;
use super::trick::{Trick, Won};
use super::{Story, Table};
use crate::games::events::EventOut;
use crate::i18n::{Arg, Language, words};

const R: &str = "hat-trick";

/// A trump code in words: `H` is "hearts", `NT` "no trump".
#[must_use]
pub fn trump(code: &Value) -> String {
    trump_in(Language::En, code)
}

/// A trump code in words in `language`: `H` is "cœur".
#[must_use]
pub fn trump_in(language: Language, code: &Value) -> String {
    let id = match code.as_str() {
        Some("H") => "card-suit-hearts",
        Some("D") => "card-suit-diamonds",
        Some("C") => "card-suit-clubs",
        Some("S") => "card-suit-spades",
        _ => "narration-hat-trick-no-trump",
    };
    words(language, id, &[])
}

pub(super) fn tell(story: &mut Story, table: &Table, event: &EventOut, trick: &mut Trick) {
    let d = &event.data;
    let lang = story.language;
    let named = |v: &Value| card_in(lang, R, v.as_str().unwrap_or("?"));
    let text = match event.kind.as_str() {
        "played" => {
            let what = story.words(
                "narration-hat-trick-card",
                &[
                    ("card", Arg::Text(&named(&d["card"]))),
                    (
                        "predict",
                        Arg::Text(if d["predict"] == Value::Bool(true) {
                            "yes"
                        } else {
                            "no"
                        }),
                    ),
                ],
            );
            let (who, me) = story.who(table, &d["seat"]);
            trick.play(story, event.seq, (&who, me), &what);
            return;
        }
        "trick_won" => {
            let (who, me) = story.who(table, &d["winner"]);
            let number = d["trick"].to_string();
            let won = Won {
                seq: event.seq,
                before: story.words(
                    "narration-hat-trick-trick",
                    &[("trick", Arg::Text(&number))],
                ),
                after: story.words(
                    "narration-hat-trick-won-it",
                    &[("who", Arg::Text(&who)), ("me", Arg::Text(me))],
                ),
            };
            trick.flush(story, Some(won));
            return;
        }
        "dealt" => {
            let shown = d["indicator"].as_str().map(|c| card_in(lang, R, c));
            story.words(
                "narration-hat-trick-dealt",
                &[
                    (
                        "deal",
                        Arg::Text(&(d["round"].as_u64().unwrap_or(0) + 1).to_string()),
                    ),
                    ("dealer", Arg::Text(&table.who_in(lang, &d["dealer"]))),
                    ("trump", Arg::Text(&trump_in(lang, &d["trump"]))),
                    (
                        "shown",
                        Arg::Text(if shown.is_some() { "yes" } else { "no" }),
                    ),
                    ("indicator", Arg::Text(shown.as_deref().unwrap_or(""))),
                    (
                        "negative",
                        Arg::Text(if d["negative"] == Value::Bool(true) {
                            "yes"
                        } else {
                            "no"
                        }),
                    ),
                ],
            )
        }
        "round_scored" => {
            let tricks: Vec<String> = d["scoring_tricks"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|s| table.who_in(lang, s))
                .collect();
            story.words(
                "narration-hat-trick-round-scored",
                &[
                    (
                        "deal",
                        Arg::Text(&(d["round"].as_u64().unwrap_or(0) + 1).to_string()),
                    ),
                    ("tricks", Arg::Text(&tricks.join(", "))),
                    (
                        "hat_trick",
                        Arg::Text(if d["hat_trick"].is_null() {
                            "no"
                        } else {
                            "yes"
                        }),
                    ),
                    ("holder", Arg::Text(&table.who_in(lang, &d["hat_trick"]))),
                    (
                        "points",
                        Arg::Text(&table.per_seat_in(lang, &d["points"], true)),
                    ),
                    (
                        "totals",
                        Arg::Text(&table.per_seat_in(lang, &d["totals"], false)),
                    ),
                ],
            )
        }
        "match_ended" => super::result::ended(story, table, d),
        _ => return,
    };
    trick.after(story, &event.kind);
    story.say(event.seq, &text);
}
