//! Cards in words, from their API codes: `H5` in Hats is "the 5 of
//! hearts", `10S` in Goathead "the 10 of spades", `JK` in Hat Trick "the
//! joker". An unknown code is shown as it is.

use serde_json::Value;

use crate::i18n::{Arg, Language, words};

/// The suit (Goathead, Hat Trick) or hat type (Hats) of a suit letter.
#[must_use]
pub fn suit_name(ruleset: &str, letter: char) -> Option<&'static str> {
    Some(match (ruleset, letter.to_ascii_uppercase()) {
        ("hats", 'T') => "stars",
        ("hats", 'F') => "flowers",
        ("hats", 'W') => "helms",
        (_, 'S') => "spades",
        (_, 'H') => "hearts",
        (_, 'C') => "clubs",
        (_, 'D') => "diamonds",
        _ => return None,
    })
}

/// The suit or hat type of a suit letter in `language` (`cœur`).
#[must_use]
pub fn suit_name_in(language: Language, ruleset: &str, letter: char) -> Option<String> {
    let english = suit_name(ruleset, letter)?;
    Some(words(language, &format!("card-suit-{english}"), &[]))
}

/// A rank with its article, in `language`: "the Ace", "l’as", "le 5".
fn rank_name(language: Language, rank: &str) -> String {
    match rank {
        "A" | "K" | "Q" | "J" => words(language, &format!("card-rank-{rank}"), &[]),
        other => words(language, "card-rank-number", &[("rank", other.into())]),
    }
}

/// The suit letter of a card code (`None` for a joker).
#[must_use]
pub fn suit_of(ruleset: &str, code: &str) -> Option<char> {
    if code.starts_with("JK") {
        return None;
    }
    if ruleset == "hats" {
        code.chars().next()
    } else {
        code.chars().last()
    }
}

/// A card code in words, with its article: "the Queen of spades".
#[must_use]
pub fn card(ruleset: &str, code: &str) -> String {
    card_in(Language::En, ruleset, code)
}

/// A card code in words in `language`, with its article: "the Queen of
/// spades", "la dame de pique".
#[must_use]
pub fn card_in(language: Language, ruleset: &str, code: &str) -> String {
    if ruleset == "hat-trick" && code.starts_with("JK") {
        let id = match code {
            "JK1" => "card-joker-first",
            "JK2" => "card-joker-second",
            _ => "card-joker",
        };
        return words(language, id, &[]);
    }
    let (rank, letter) = if ruleset == "hats" {
        let mut chars = code.chars();
        let letter = chars.next();
        (chars.as_str(), letter)
    } else {
        let split = code.len().saturating_sub(1);
        (
            code.get(..split).unwrap_or(code),
            code.get(split..).and_then(|s| s.chars().next()),
        )
    };
    match letter.and_then(|l| suit_name(ruleset, l)) {
        Some(suit) if !rank.is_empty() => words(
            language,
            "card",
            &[
                ("rank", Arg::Text(&rank_name(language, rank))),
                (
                    "suit",
                    Arg::Text(&words(language, &format!("card-of-{suit}"), &[])),
                ),
            ],
        ),
        _ => code.to_owned(),
    }
}

/// A JSON card (a code, or null for one the reader may not see) in words.
#[must_use]
pub fn card_or_hidden(ruleset: &str, value: &Value) -> Option<String> {
    value.as_str().map(|code| card(ruleset, code))
}

/// Cards (a JSON list of codes) grouped by suit, in the order first seen:
/// `spades AS 10S; hearts QH`. Empty: `no cards`.
#[must_use]
pub fn grouped(ruleset: &str, cards: &Value) -> String {
    let codes: Vec<&str> = cards
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    grouped_codes(ruleset, &codes)
}

/// As [`grouped`], from codes.
#[must_use]
pub fn grouped_codes(ruleset: &str, codes: &[&str]) -> String {
    grouped_codes_in(Language::En, ruleset, codes)
}

/// As [`grouped`], in `language`.
#[must_use]
pub fn grouped_in(language: Language, ruleset: &str, cards: &Value) -> String {
    let codes: Vec<&str> = cards
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    grouped_codes_in(language, ruleset, &codes)
}

/// As [`grouped_codes`], in `language`: `pique AS 10S; cœur QH`.
#[must_use]
pub fn grouped_codes_in(language: Language, ruleset: &str, codes: &[&str]) -> String {
    if codes.is_empty() {
        return words(language, "card-none", &[]);
    }
    let mut groups: Vec<(Option<char>, Vec<&str>)> = Vec::new();
    for code in codes {
        let suit = suit_of(ruleset, code);
        match groups.iter_mut().find(|(s, _)| *s == suit) {
            Some((_, list)) => list.push(code),
            None => groups.push((suit, vec![code])),
        }
    }
    groups
        .iter()
        .map(|(suit, list)| {
            let name = suit
                .and_then(|s| suit_name_in(language, ruleset, s))
                .unwrap_or_else(|| words(language, "card-suit-jokers", &[]));
            format!("{name} {}", list.join(" "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn cards_are_named_per_ruleset() {
        assert_eq!(card("hats", "H5"), "the 5 of hearts");
        assert_eq!(card("hats", "T2"), "the 2 of stars");
        assert_eq!(card("goathead", "10S"), "the 10 of spades");
        assert_eq!(card("goathead", "QC"), "the Queen of clubs");
        assert_eq!(card("hat-trick", "11H"), "the 11 of hearts");
        assert_eq!(card("hat-trick", "JK"), "the joker");
        assert_eq!(card("hat-trick", "AD"), "the Ace of diamonds");
        assert_eq!(card("goathead", "??"), "??");
    }

    #[test]
    fn hands_are_grouped_by_suit() {
        assert_eq!(
            grouped("goathead", &json!(["AS", "QH", "10S"])),
            "spades AS 10S; hearts QH"
        );
        assert_eq!(
            grouped("hats", &json!(["H5", "S2", "H1"])),
            "hearts H5 H1; spades S2"
        );
        assert_eq!(
            grouped("hat-trick", &json!(["JK", "2H"])),
            "jokers JK; hearts 2H"
        );
        assert_eq!(grouped("hats", &json!([])), "no cards");
    }

    #[test]
    fn cards_are_named_in_french() {
        let fr = Language::Fr;
        assert_eq!(card_in(fr, "hats", "H5"), "le 5 de cœur");
        assert_eq!(card_in(fr, "hats", "T2"), "le 2 d’étoile");
        assert_eq!(card_in(fr, "goathead", "QC"), "la dame de trèfle");
        assert_eq!(card_in(fr, "goathead", "AS"), "l’as de pique");
        assert_eq!(card_in(fr, "hat-trick", "JK1"), "le premier joker");
        assert_eq!(
            grouped_in(fr, "goathead", &json!(["AS", "QH", "10S"])),
            "pique AS 10S; cœur QH"
        );
        assert_eq!(grouped_in(fr, "hats", &json!([])), "aucune carte");
    }
}
