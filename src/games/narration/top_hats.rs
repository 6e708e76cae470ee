//! Top Hats in words: stacks built (their hats only to their builder),
//! placed, moved, every jump of a chain with what it took off, skips and
//! the end.

use serde_json::Value;

use super::{Story, Table};
use crate::games::events::EventOut;
use crate::i18n::Arg;

/// The jumps of the chain being told.
#[derive(Debug, Default)]
pub(super) struct Chain {
    who: String,
    me: &'static str,
    jumps: Vec<String>,
    last_seq: i64,
}

impl Chain {
    pub(super) fn flush(&mut self, story: &mut Story) {
        self.end(story, false);
    }

    fn end(&mut self, story: &mut Story, ended: bool) {
        if self.jumps.is_empty() {
            return;
        }
        let then = story.words("narration-top-hats-then", &[]);
        let jumps = self.jumps.join(&format!(", {then} "));
        story.tell(
            self.last_seq,
            "narration-top-hats-jumped",
            &[
                ("who", Arg::Text(&self.who)),
                ("me", Arg::Text(self.me)),
                ("jumps", Arg::Text(&jumps)),
                ("ended", Arg::Text(if ended { "yes" } else { "no" })),
            ],
        );
        self.jumps.clear();
    }
}

fn cell(value: &Value) -> &str {
    value.as_str().unwrap_or("?")
}

/// A hat's colour in the story's language.
fn colour(story: &Story, value: &Value) -> String {
    match cell(value) {
        known @ ("red" | "blue" | "yellow" | "neutral") => {
            story.words(&format!("narration-colour-{known}"), &[])
        }
        other => other.to_owned(),
    }
}

/// Hats bottom to top: `red, blue, red`.
fn hats(story: &Story, value: &Value) -> String {
    value
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| colour(story, c))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn tell(story: &mut Story, table: &Table, event: &EventOut, chain: &mut Chain) {
    let d = &event.data;
    let (who, me) = story.who(table, &d["seat"]);
    match event.kind.as_str() {
        "jumped" => {
            if chain.who != who {
                chain.flush(story);
                chain.who.clone_from(&who);
                chain.me = me;
            }
            let (removed, revealed) = (&d["removed"], &d["revealed"]);
            let took = match (removed.is_string(), revealed.is_string()) {
                (true, true) => "revealed",
                (true, false) => "last",
                _ => "none",
            };
            let jump = story.words(
                "narration-top-hats-jump",
                &[
                    ("from", Arg::Text(cell(&d["from"]))),
                    ("over", Arg::Text(cell(&d["over"]))),
                    ("to", Arg::Text(cell(&d["to"]))),
                    ("took", Arg::Text(took)),
                    ("removed", Arg::Text(&colour(story, removed))),
                    ("revealed", Arg::Text(&colour(story, revealed))),
                ],
            );
            chain.jumps.push(jump);
            chain.last_seq = event.seq;
            return;
        }
        "chain_ended" => {
            chain.last_seq = event.seq;
            chain.end(story, d["voluntary"] == Value::Bool(true));
            return;
        }
        _ => chain.flush(story),
    }
    let stack = d["stack"].to_string();
    let mut args: Vec<(&str, Arg<'_>)> = vec![
        ("who", Arg::Text(&who)),
        ("me", Arg::Text(me)),
        ("stack", Arg::Text(&stack)),
    ];
    let (first, under, top);
    let id = match event.kind.as_str() {
        "building_started" => "narration-top-hats-building-started",
        "position_set" => {
            first = table.who_in(story.language, &d["to_move"]);
            args.push(("first", Arg::Text(&first)));
            "narration-top-hats-position-set"
        }
        "stack_built" => match d["under"].as_array() {
            Some(_) => {
                under = hats(story, &d["under"]);
                top = colour(story, &Value::from(seat_colour(&d["seat"])));
                args.push(("under", Arg::Text(&under)));
                args.push(("top", Arg::Text(&top)));
                "narration-top-hats-stack-built"
            }
            None => "narration-top-hats-stack-built-hidden",
        },
        "stack_placed" => {
            args.push(("cell", Arg::Text(cell(&d["cell"]))));
            "narration-top-hats-stack-placed"
        }
        "moved" => {
            args.push(("from", Arg::Text(cell(&d["from"]))));
            args.push(("to", Arg::Text(cell(&d["to"]))));
            "narration-top-hats-moved"
        }
        "edge_zone_grew" => "narration-top-hats-edge-zone-grew",
        "skipped" => match d["reason"].as_str() {
            Some("no_colour") => "narration-top-hats-skipped-no-colour",
            _ => "narration-top-hats-skipped",
        },
        "won" => "narration-top-hats-won",
        "drawn" => match d["reason"].as_str() {
            Some("quiet_turns") => "narration-top-hats-drawn-quiet",
            _ => "narration-top-hats-drawn",
        },
        _ => return,
    };
    story.tell(event.seq, id, &args);
}

/// The colour of a seat: red, blue, yellow.
fn seat_colour(seat: &Value) -> &'static str {
    match seat.as_u64() {
        Some(0) => "red",
        Some(1) => "blue",
        Some(2) => "yellow",
        _ => "?",
    }
}
