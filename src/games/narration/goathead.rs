//! Goathead in words: the deal, the bids, the kitty (the buried cards only
//! to who may see them), each trick as one line with who won it, the
//! scores.

use serde_json::Value;

use super::cards::{card_in, grouped_in};
use super::trick::{Trick, Won};
use super::{Story, Table};
use crate::games::events::EventOut;
use crate::i18n::{Arg, Language, words};

const R: &str = "goathead";

/// A contract code in words: `suit:C` is "clubs (suit:C)".
#[must_use]
pub fn contract(code: &Value) -> String {
    contract_in(Language::En, code)
}

/// A contract code in words in `language`: `suit:C` is "trèfle (suit:C)";
/// the code stays as it is (it is the move's word).
#[must_use]
pub fn contract_in(language: Language, code: &Value) -> String {
    let code = code.as_str().unwrap_or("?");
    let id = match code {
        "suit:C" => "clubs",
        "suit:S" => "spades",
        "suit:H" => "hearts",
        "suit:D" => "diamonds",
        "nil" | "court" => return code.to_owned(),
        "leasters" => "leasters",
        other => return other.to_owned(),
    };
    words(
        language,
        "narration-goathead-contract",
        &[
            (
                "name",
                Arg::Text(&words(
                    language,
                    &format!("narration-goathead-contract-{id}"),
                    &[],
                )),
            ),
            ("code", Arg::Text(code)),
        ],
    )
}

pub(super) fn tell(story: &mut Story, table: &Table, event: &EventOut, trick: &mut Trick) {
    let d = &event.data;
    let lang = story.language;
    let (who, me) = story.who(table, &d["seat"]);
    let named = |v: &Value| card_in(lang, R, v.as_str().unwrap_or("?"));
    let contract = contract_in(lang, &d["contract"]);
    let mut args: Vec<(&str, Arg<'_>)> = vec![
        ("who", Arg::Text(&who)),
        ("me", Arg::Text(me)),
        ("contract", Arg::Text(&contract)),
    ];
    let (other, other_me, cards, more);
    let id = match event.kind.as_str() {
        "card_played" => {
            trick.play(story, event.seq, (&who, me), &named(&d["card"]));
            return;
        }
        "trick_won" => {
            let points = d["points"].to_string();
            let after = story.words(
                "narration-goathead-trick-won",
                &[
                    ("who", Arg::Text(&who)),
                    ("me", Arg::Text(me)),
                    ("points", Arg::Text(&points)),
                ],
            );
            trick.flush(
                story,
                Some(Won {
                    seq: event.seq,
                    before: String::new(),
                    after,
                }),
            );
            return;
        }
        "dealt" => {
            other = table.who_in(lang, &d["dealer"]);
            more = (d["round"].as_u64().unwrap_or(0) + 1).to_string();
            args.push(("other", Arg::Text(&other)));
            args.push(("round", Arg::Text(&more)));
            "narration-goathead-dealt"
        }
        "bid" => "narration-goathead-bid",
        "stole" => "narration-goathead-stole",
        "passed" => "narration-goathead-passed",
        "contract_set" => match d["declarer"].as_u64() {
            Some(_) => {
                (other, other_me) = story.who(table, &d["declarer"]);
                args[0] = ("who", Arg::Text(&other));
                args[1] = ("me", Arg::Text(other_me));
                "narration-goathead-contract-set"
            }
            None => "narration-goathead-all-passed",
        },
        "kitty_taken" => match d["cards"].as_array() {
            Some(_) => {
                cards = grouped_in(lang, R, &d["cards"]);
                args.push(("cards", Arg::Text(&cards)));
                "narration-goathead-kitty-taken-shown"
            }
            None => "narration-goathead-kitty-taken",
        },
        "kitty_left" => "narration-goathead-kitty-left",
        "buried" => match d["card"].as_str() {
            Some(_) => {
                cards = named(&d["card"]);
                args.push(("card", Arg::Text(&cards)));
                "narration-goathead-buried"
            }
            None => "narration-goathead-buried-hidden",
        },
        "contract_kept" => "narration-goathead-contract-kept",
        "contract_upgraded" => "narration-goathead-contract-upgraded",
        "kitty_swapped" => match (d["hand_card"].as_str(), d["kitty_card"].as_str()) {
            (Some(_), Some(_)) => {
                cards = named(&d["hand_card"]);
                more = named(&d["kitty_card"]);
                args.push(("card", Arg::Text(&cards)));
                args.push(("other", Arg::Text(&more)));
                "narration-goathead-kitty-swapped"
            }
            _ => "narration-goathead-kitty-swapped-hidden",
        },
        "kitty_skipped" => "narration-goathead-kitty-skipped",
        "announced" => {
            cards = named(&d["partner_card"]);
            args.push(("card", Arg::Text(&cards)));
            "narration-goathead-announced"
        }
        "play_started" => {
            (other, other_me) = story.who(table, &d["leader"]);
            args[0] = ("who", Arg::Text(&other));
            args[1] = ("me", Arg::Text(other_me));
            "narration-goathead-play-started"
        }
        "round_scored" => {
            cards = round(story, table, d);
            trick.after(story, &event.kind);
            story.say(event.seq, &cards);
            return;
        }
        "match_ended" => {
            cards = super::result::ended(story, table, d);
            trick.after(story, &event.kind);
            story.say(event.seq, &cards);
            return;
        }
        _ => return,
    };
    trick.after(story, &event.kind);
    story.tell(event.seq, id, &args);
}

/// A round's score in words.
fn round(story: &Story, table: &Table, d: &Value) -> String {
    let lang = story.language;
    let number = (d["round"].as_u64().unwrap_or(0) + 1).to_string();
    let by = table.who_in(lang, &d["declarer"]);
    let outcome = match d["made"].as_bool() {
        Some(true) => "made",
        Some(false) => "lost",
        None => "played",
    };
    let points = d["side_points"].as_u64().map(|p| p.to_string());
    let value = d["value"].to_string();
    story.words(
        "narration-goathead-round-scored",
        &[
            ("round", Arg::Text(&number)),
            ("contract", Arg::Text(&contract_in(lang, &d["contract"]))),
            (
                "declared",
                Arg::Text(if d["declarer"].is_u64() { "yes" } else { "no" }),
            ),
            ("by", Arg::Text(&by)),
            ("outcome", Arg::Text(outcome)),
            (
                "counted",
                Arg::Text(if points.is_some() { "yes" } else { "no" }),
            ),
            ("points", Arg::Text(points.as_deref().unwrap_or(""))),
            ("value", Arg::Text(&value)),
            (
                "payments",
                Arg::Text(&table.per_seat_in(lang, &d["payments"], true)),
            ),
        ],
    )
}
