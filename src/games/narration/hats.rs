//! Hats in words: draws, discards, swaps, exchanges with the line, black
//! hats, the favourites at the end.

use serde_json::Value;

use super::cards::card_in;
use super::{Story, Table};
use crate::games::events::EventOut;
use crate::i18n::Arg;

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

fn a_card_or(story: &Story, value: &Value) -> String {
    value.as_str().map_or_else(
        || story.words("card-hidden", &[]),
        |c| card_in(story.language, R, c),
    )
}

pub(super) fn tell(story: &mut Story, table: &Table, event: &EventOut) {
    let d = &event.data;
    let lang = story.language;
    let (who, me) = story.who(table, &d["seat"]);
    let named = |code: &Value| card_in(lang, R, code.as_str().unwrap_or("?"));
    let (id, card, other, more): (&str, String, String, String) = match event.kind.as_str() {
        "dealt" => (
            "narration-hats-dealt",
            line(&d["line"]),
            String::new(),
            String::new(),
        ),
        "discarded" => (
            "narration-hats-discarded",
            a_card_or(story, &d["card"]),
            String::new(),
            String::new(),
        ),
        "reshuffled" => (
            "narration-hats-reshuffled",
            String::new(),
            String::new(),
            String::new(),
        ),
        "drew" => (
            "narration-hats-drew",
            a_card_or(story, &d["card"]),
            String::new(),
            String::new(),
        ),
        "swap_offered" => (
            "narration-hats-swap-offered",
            a_card_or(story, &d["card"]),
            d["seat"]
                .as_u64()
                .and_then(|s| u8::try_from((s + 2) % 4).ok())
                .map_or_else(
                    || story.words("narration-hats-their-partner", &[]),
                    |p| table.name_in(lang, p),
                ),
            String::new(),
        ),
        "swapped" => match (d["offered"].as_str(), d["answered"].as_str()) {
            (Some(offered), Some(answered)) => (
                "narration-hats-swapped",
                card_in(lang, R, offered),
                table.who_in(lang, &d["partner"]),
                card_in(lang, R, answered),
            ),
            _ => (
                "narration-hats-swapped-hidden",
                String::new(),
                table.who_in(lang, &d["partner"]),
                String::new(),
            ),
        },
        "exchanged" => (
            "narration-hats-exchanged",
            named(&d["card"]),
            named(&d["taken"]),
            d["position"].to_string(),
        ),
        "black_hat_made" => (
            "narration-hats-black-hat",
            a_card_or(story, &d["card"]),
            String::new(),
            String::new(),
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
                        table.name_in(lang, u8::try_from(i).unwrap_or(u8::MAX)),
                        named(c)
                    )
                })
                .collect();
            (
                "narration-hats-favourites",
                shown.join(", "),
                String::new(),
                String::new(),
            )
        }
        _ => return,
    };
    story.tell(
        event.seq,
        id,
        &[
            ("who", Arg::Text(&who)),
            ("me", Arg::Text(me)),
            ("card", Arg::Text(&card)),
            ("other", Arg::Text(&other)),
            ("more", Arg::Text(&more)),
        ],
    );
}
