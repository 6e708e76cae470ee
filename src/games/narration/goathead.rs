//! Goathead in words: the deal, the bids, the kitty (the buried cards only
//! to who may see them), each trick as one line with who won it, the
//! scores.

use serde_json::Value;

use super::cards::{card, grouped};
use super::trick::{Trick, Won};
use super::{Story, Table};
use crate::games::events::EventOut;

const R: &str = "goathead";

/// A contract code in words: `suit:C` is "clubs (suit:C)".
#[must_use]
pub fn contract(code: &Value) -> String {
    let code = code.as_str().unwrap_or("?");
    let words = match code {
        "suit:C" => "clubs",
        "suit:S" => "spades",
        "suit:H" => "hearts",
        "suit:D" => "diamonds",
        "nil" => "nil",
        "court" => "court",
        "leasters" => "Leasters",
        other => other,
    };
    if words == code {
        words.to_owned()
    } else {
        format!("{words} ({code})")
    }
}

pub(super) fn tell(story: &mut Story, table: &Table, event: &EventOut, trick: &mut Trick) {
    let d = &event.data;
    let who = || table.who(&d["seat"]);
    let text = match event.kind.as_str() {
        "card_played" => {
            let what = card(R, d["card"].as_str().unwrap_or("?"));
            trick.play(event.seq, &who(), &what);
            return;
        }
        "trick_won" => {
            let after = format!("{} won the trick ({} points)", who(), d["points"]);
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
        "dealt" => format!(
            "round {}: {} dealt",
            d["round"].as_u64().unwrap_or(0) + 1,
            table.who(&d["dealer"])
        ),
        "bid" => format!("{} bid {}", who(), contract(&d["contract"])),
        "stole" => format!("{} stole the bid at {}", who(), contract(&d["contract"])),
        "passed" => format!("{} passed", who()),
        "contract_set" => match d["declarer"].as_u64() {
            Some(_) => format!(
                "{} won the bidding with {}",
                table.who(&d["declarer"]),
                contract(&d["contract"])
            ),
            None => format!("everyone passed: {} is played", contract(&d["contract"])),
        },
        "kitty_taken" => match d["cards"].as_array() {
            Some(_) => format!("{} took the kitty ({})", who(), grouped(R, &d["cards"])),
            None => format!("{} took the kitty", who()),
        },
        "kitty_left" => format!("{} left the kitty", who()),
        "buried" => match d["card"].as_str() {
            Some(c) => format!("{} buried {}", who(), card(R, c)),
            None => format!("{} buried a card", who()),
        },
        "contract_kept" => format!("{} kept {}", who(), contract(&d["contract"])),
        "contract_upgraded" => format!(
            "{} raised the contract to {}",
            who(),
            contract(&d["contract"])
        ),
        "kitty_swapped" => match (d["hand_card"].as_str(), d["kitty_card"].as_str()) {
            (Some(h), Some(k)) => format!(
                "{} swapped {} for {} from the kitty",
                who(),
                card(R, h),
                card(R, k)
            ),
            _ => format!("{} swapped a card with the kitty", who()),
        },
        "kitty_skipped" => format!("{} kept their hand (no kitty swap)", who()),
        "announced" => format!(
            "{} holds both black Jacks and called the holder of {} as partner",
            who(),
            card(R, d["partner_card"].as_str().unwrap_or("?"))
        ),
        "play_started" => format!("play began; {} leads", table.who(&d["leader"])),
        "round_scored" => round(table, d),
        "match_ended" => {
            let winners = table.list(&d["winners"]);
            format!(
                "the match ended: {winners} won ({})",
                table.per_seat(&d["scores"], false)
            )
        }
        _ => return,
    };
    trick.after(story, &event.kind);
    story.say(event.seq, &text);
}

/// A round's score in words.
fn round(table: &Table, d: &Value) -> String {
    let number = d["round"].as_u64().unwrap_or(0) + 1;
    let by = match d["declarer"].as_u64() {
        Some(_) => format!(" by {}", table.who(&d["declarer"])),
        None => String::new(),
    };
    let outcome = match d["made"].as_bool() {
        Some(true) => "made",
        Some(false) => "lost",
        None => "played",
    };
    let points = d["side_points"]
        .as_u64()
        .map_or_else(String::new, |p| format!(" with {p} points"));
    format!(
        "round {number} scored: {}{by} {outcome}{points} (value {}); game points {}",
        contract(&d["contract"]),
        d["value"],
        table.per_seat(&d["payments"], true)
    )
}
