//! Hats in words: draws, discards, swaps, exchanges with the line, black
//! hats, the favourites at the end.

use serde_json::Value;

use super::cards::card;
use super::{Story, Table};
use crate::games::events::EventOut;

const R: &str = "hats";

/// The line's cards with their positions: `1 S2, 2 H5, 3 C1`.
#[must_use]
pub fn line(cards: &Value) -> String {
    cards
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, c)| format!("{} {}", i + 1, c.as_str().unwrap_or("?")))
        .collect::<Vec<_>>()
        .join(", ")
}

fn a_card_or(value: &Value) -> String {
    value
        .as_str()
        .map_or_else(|| "a card".to_owned(), |c| card(R, c))
}

pub(super) fn tell(story: &mut Story, table: &Table, event: &EventOut) {
    let d = &event.data;
    let who = || table.who(&d["seat"]);
    let text = match event.kind.as_str() {
        "dealt" => format!("the cards were dealt; the line reads {}", line(&d["line"])),
        "discarded" => format!("{} discarded {}", who(), a_card_or(&d["card"])),
        "reshuffled" => "the discard pile was shuffled into a new deck".to_owned(),
        "drew" => format!("{} drew {}", who(), a_card_or(&d["card"])),
        "swap_offered" => format!(
            "{} offered {} face down to {}",
            who(),
            a_card_or(&d["card"]),
            d["seat"]
                .as_u64()
                .and_then(|s| u8::try_from((s + 2) % 4).ok())
                .map_or_else(|| "their partner".to_owned(), |p| table.name(p))
        ),
        "swapped" => match (d["offered"].as_str(), d["answered"].as_str()) {
            (Some(offered), Some(answered)) => format!(
                "{} gave {} to {} and got {} back",
                who(),
                card(R, offered),
                table.who(&d["partner"]),
                card(R, answered)
            ),
            _ => format!("{} and {} swapped a card", who(), table.who(&d["partner"])),
        },
        "exchanged" => format!(
            "{} exchanged {} for {} at position {}",
            who(),
            card(R, d["card"].as_str().unwrap_or("?")),
            card(R, d["taken"].as_str().unwrap_or("?")),
            d["position"]
        ),
        "black_hat_made" => format!(
            "{} turned {} into a black hat",
            who(),
            a_card_or(&d["card"])
        ),
        "favourites_revealed" => {
            let shown: Vec<String> = d["favourites"]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
                .map(|(i, c)| {
                    format!(
                        "{} {}",
                        table.name(u8::try_from(i).unwrap_or(u8::MAX)),
                        card(R, c.as_str().unwrap_or("?"))
                    )
                })
                .collect();
            format!("the favourite hats were shown: {}", shown.join(", "))
        }
        _ => return,
    };
    story.say(event.seq, &text);
}
