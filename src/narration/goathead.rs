//! Goathead in words: the deal, the bids, the kitty (the buried cards only
//! to who may see them), each trick as one line with who won it, the
//! scores.

use serde_json::Value;

use super::cards::{card, grouped};
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
    /// Tells the trick so far: won by `winner` (with its points), or still
    /// open.
    pub(super) fn flush(&mut self, story: &mut Story, table: &Table, won: Option<(i64, &Value)>) {
        if self.played.is_empty() && won.is_none() {
            return;
        }
        let cards = if self.played.is_empty() {
            String::new()
        } else {
            format!("{}; ", self.played.join(", "))
        };
        let text = match won {
            Some((_, data)) => format!(
                "{cards}{} won the trick ({} points)",
                table.who(&data["seat"]),
                data["points"]
            ),
            None => format!("{cards}the trick goes on"),
        };
        let seq = won.map_or(self.last_seq, |(seq, _)| seq);
        story.say(seq, &text);
        self.played.clear();
        self.starts = won.is_some();
    }
}

pub(super) fn tell(story: &mut Story, table: &Table, event: &EventOut, trick: &mut Trick) {
    let d = &event.data;
    let who = || table.who(&d["seat"]);
    let text = match event.kind.as_str() {
        "card_played" => {
            let verb = if trick.played.is_empty() && trick.starts {
                "led"
            } else {
                "played"
            };
            trick.played.push(format!(
                "{} {verb} {}",
                who(),
                card(R, d["card"].as_str().unwrap_or("?"))
            ));
            trick.last_seq = event.seq;
            return;
        }
        "trick_won" => {
            trick.flush(story, table, Some((event.seq, d)));
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
    trick.flush(story, table, None);
    trick.starts = matches!(event.kind.as_str(), "dealt" | "play_started");
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
