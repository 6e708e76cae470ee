//! Top Hats in words: stacks built (their hats only to their builder),
//! placed, moved, every jump of a chain with what it took off, skips and
//! the end.

use serde_json::Value;

use super::{Story, Table};
use crate::games::events::EventOut;

/// The jumps of the chain being told.
#[derive(Debug, Default)]
pub(super) struct Chain {
    who: String,
    jumps: Vec<String>,
    last_seq: i64,
}

impl Chain {
    pub(super) fn flush(&mut self, story: &mut Story) {
        self.end(story, "");
    }

    fn end(&mut self, story: &mut Story, ending: &str) {
        if self.jumps.is_empty() {
            return;
        }
        let text = format!("{} jumped {}{ending}", self.who, self.jumps.join(", then "));
        story.say(self.last_seq, &text);
        self.jumps.clear();
    }
}

fn colour(value: &Value) -> &str {
    value.as_str().unwrap_or("?")
}

/// Hats bottom to top: `red, blue, red`.
fn hats(value: &Value) -> String {
    value
        .as_array()
        .into_iter()
        .flatten()
        .map(colour)
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn tell(story: &mut Story, table: &Table, event: &EventOut, chain: &mut Chain) {
    let d = &event.data;
    let who = table.who(&d["seat"]);
    match event.kind.as_str() {
        "jumped" => {
            if chain.who != who {
                chain.flush(story);
                chain.who.clone_from(&who);
            }
            let took = match (d["removed"].as_str(), d["revealed"].as_str()) {
                (Some(removed), Some(revealed)) => {
                    format!(" and took a {removed} hat off ({revealed} now shows)")
                }
                (Some(removed), None) => {
                    format!(" and took the last hat, {removed}, off the board")
                }
                _ => String::new(),
            };
            chain.jumps.push(format!(
                "from {} over {} to {}{took}",
                colour(&d["from"]),
                colour(&d["over"]),
                colour(&d["to"])
            ));
            chain.last_seq = event.seq;
            return;
        }
        "chain_ended" => {
            chain.last_seq = event.seq;
            let ending = if d["voluntary"] == Value::Bool(true) {
                "; then ended the turn"
            } else {
                ""
            };
            chain.end(story, ending);
            return;
        }
        _ => chain.flush(story),
    }
    let text = match event.kind.as_str() {
        "building_started" => {
            "building began: everyone builds five stacks of three hats at once".to_owned()
        }
        "position_set" => format!(
            "the game began from a set position; {} moves first",
            table.who(&d["to_move"])
        ),
        "stack_built" => match d["under"].as_array() {
            Some(_) => format!(
                "{who} built stack {}: {} under {} (bottom to top)",
                d["stack"],
                hats(&d["under"]),
                table_colour(table, &d["seat"])
            ),
            None => format!("{who} built stack {}", d["stack"]),
        },
        "stack_placed" => format!(
            "{who} placed stack {} on {}",
            d["stack"],
            colour(&d["cell"])
        ),
        "moved" => format!(
            "{who} moved from {} to {}",
            colour(&d["from"]),
            colour(&d["to"])
        ),
        "edge_zone_grew" => {
            "five or fewer stacks stand: the second ring joins the edge zone".to_owned()
        }
        "skipped" => match d["reason"].as_str() {
            Some("no_colour") => format!("{who} was skipped: no stack shows their colour"),
            _ => format!("{who} was skipped: no legal move"),
        },
        "won" if table.is_me(&d["seat"]) => "you won: only your colour shows".to_owned(),
        "won" => format!("{who} won: only their colour shows"),
        "drawn" => match d["reason"].as_str() {
            Some("quiet_turns") => {
                "the game was drawn: too many turns without a hat taken off".to_owned()
            }
            _ => "the game was drawn: nobody could move".to_owned(),
        },
        _ => return,
    };
    story.say(event.seq, &text);
}

/// The colour of a seat: red, blue, yellow.
fn table_colour(_table: &Table, seat: &Value) -> &'static str {
    match seat.as_u64() {
        Some(0) => "red",
        Some(1) => "blue",
        Some(2) => "yellow",
        _ => "?",
    }
}
