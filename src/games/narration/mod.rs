//! What happened in a game, in words: the same sentences for every reader
//! that shows a game's story (the turn mails today; the web client's move
//! log and the API later).
//!
//! Rules:
//! - Narration reads only **redacted events** (the `EventOut`s the API gives
//!   a viewer, `GET /v1/games/{id}/events` as that seat) and the seat names:
//!   it can say nothing the viewer may not see. A card the viewer may not
//!   see is "a card", never named.
//! - Players are named by their user names, the viewer as "you"; never by
//!   seat number.
//! - One [`Line`] per thing that happened, in the past tense, in game
//!   order; a trick is one line (the cards played, then who won it), a Top
//!   Hats chain one line per jump.
//! - Counters ([`counters`]) are the ones players count (turns, tricks,
//!   deals, rounds), read from the viewer's view, never the log's version.
//! - Pure: no I/O, no clock; the same events give the same words.

pub mod cards;
pub mod counters;
mod goathead;
mod hat_trick;
mod hats;
mod result;
mod server;
mod top_hats;
mod trick;

use serde_json::Value;

pub use counters::{Counters, counters};
pub use goathead::{contract as goathead_contract, contract_in as goathead_contract_in};
pub use hat_trick::{trump as hat_trick_trump, trump_in as hat_trick_trump_in};
pub use hats::line as hats_line;
pub use result::result_text;
pub use result::result_text_in;
pub(crate) use result::winners;

use crate::games::events::EventOut;
use crate::i18n::{Arg, Language, words};

/// One thing that happened, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The sequence number of the last event it tells.
    pub seq: i64,
    /// One sentence (or a few), ending with a full stop.
    pub text: String,
}

/// Who sits where, as the reader is told.
#[derive(Debug, Clone)]
pub struct Table {
    /// The user names, in seat order.
    pub names: Vec<String>,
    /// The reader's seat (told as "you"), if seated.
    pub me: Option<u8>,
}

impl Table {
    /// The name of `seat` (a JSON seat number), "you" for the reader.
    #[must_use]
    pub fn who(&self, seat: &Value) -> String {
        match seat.as_u64().and_then(|s| u8::try_from(s).ok()) {
            Some(s) if Some(s) == self.me => "you".to_owned(),
            Some(s) => self
                .names
                .get(usize::from(s))
                .cloned()
                .unwrap_or_else(|| "a player".to_owned()),
            None => "nobody".to_owned(),
        }
    }

    /// The name of seat `seat`, "you" for the reader.
    #[must_use]
    pub fn name(&self, seat: u8) -> String {
        self.who(&Value::from(seat))
    }

    /// The name of `seat` (a JSON seat number) in `language`: the reader
    /// is "you", "vous".
    #[must_use]
    pub fn who_in(&self, language: Language, seat: &Value) -> String {
        if language == Language::En {
            return self.who(seat);
        }
        match seat.as_u64().and_then(|s| u8::try_from(s).ok()) {
            Some(s) if Some(s) == self.me => words(language, "narration-you", &[]),
            Some(s) => self
                .names
                .get(usize::from(s))
                .cloned()
                .unwrap_or_else(|| words(language, "narration-a-player", &[])),
            None => words(language, "narration-nobody", &[]),
        }
    }

    /// The name of seat `seat` in `language`.
    #[must_use]
    pub fn name_in(&self, language: Language, seat: u8) -> String {
        self.who_in(language, &Value::from(seat))
    }

    /// Seats (a JSON list) named and joined in `language`.
    #[must_use]
    pub fn list_in(&self, language: Language, seats: &Value) -> String {
        and_list_in(
            language,
            &seats
                .as_array()
                .into_iter()
                .flatten()
                .map(|s| self.who_in(language, s))
                .collect::<Vec<_>>(),
        )
    }

    /// Whether `seat` (a JSON seat number) is the reader's.
    #[must_use]
    pub fn is_me(&self, seat: &Value) -> bool {
        seat.as_u64()
            .is_some_and(|s| Some(s) == self.me.map(u64::from))
    }

    /// Seats (a JSON list) named and joined: `ada and bruno`.
    #[must_use]
    pub fn list(&self, seats: &Value) -> String {
        and_list(
            &seats
                .as_array()
                .into_iter()
                .flatten()
                .map(|s| self.who(s))
                .collect::<Vec<_>>(),
        )
    }

    /// Per-seat numbers (a JSON list) as `ada 3, bruno 0`.
    #[must_use]
    pub fn per_seat(&self, values: &Value, signed: bool) -> String {
        self.per_seat_in(Language::En, values, signed)
    }

    /// Per-seat numbers (a JSON list) in `language`: `vous 3, bruno 0`.
    #[must_use]
    pub fn per_seat_in(&self, language: Language, values: &Value, signed: bool) -> String {
        values
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
            .map(|(i, v)| {
                let n = v.as_i64().unwrap_or(0);
                let shown = if signed && n > 0 {
                    format!("+{n}")
                } else {
                    n.to_string()
                };
                format!(
                    "{} {shown}",
                    self.name_in(language, u8::try_from(i).unwrap_or(u8::MAX))
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// `a`, `a and b`, `a, b and c`.
#[must_use]
pub fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// `a`, `a and b`, `a, b and c` in `language` (`a, b et c`).
#[must_use]
pub fn and_list_in(language: Language, items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => words(
            language,
            "narration-and-list",
            &[("init", Arg::Text(&init.join(", "))), ("last", last.into())],
        ),
    }
}

/// `text` with its first letter upper case.
#[must_use]
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// Collects lines, ending each with a full stop and capitalising its first
/// word unless it is a player's name (names are written as their owners
/// spell them).
#[derive(Debug)]
pub(crate) struct Story {
    lines: Vec<Line>,
    names: Vec<String>,
    /// The language the lines are told in.
    pub(crate) language: Language,
}

impl Story {
    /// Says the message `id` of the narration's files (in the story's
    /// language, else English), filled from `args`.
    pub(crate) fn tell(&mut self, seq: i64, id: &str, args: &[(&str, Arg<'_>)]) {
        let text = self.words(id, args);
        self.say(seq, &text);
    }

    /// The message `id` in the story's language, filled from `args`.
    pub(crate) fn words(&self, id: &str, args: &[(&str, Arg<'_>)]) -> String {
        words(self.language, id, args)
    }

    /// The name of `seat` in the story's language, and whether it is the
    /// reader (`"yes"`, `"no"`: French conjugates for "vous").
    pub(crate) fn who(&self, table: &Table, seat: &Value) -> (String, &'static str) {
        (
            table.who_in(self.language, seat),
            if table.is_me(seat) { "yes" } else { "no" },
        )
    }

    pub(crate) fn say(&mut self, seq: i64, text: &str) {
        let text = text.trim();
        let named = self.names.iter().any(|name| {
            text.strip_prefix(name.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\'', ',', ';']))
        });
        let mut text = if named {
            text.to_owned()
        } else {
            capitalised(text)
        };
        if !text.ends_with(['.', '!', '?']) {
            text.push('.');
        }
        self.lines.push(Line { seq, text });
    }
}

/// What `events` (as the table's reader may see them) tell, in English.
/// Events this module does not know are left out.
#[must_use]
pub fn narrate(ruleset: &str, table: &Table, events: &[EventOut]) -> Vec<Line> {
    narrate_in(Language::En, ruleset, table, events)
}

/// What `events` tell, in `language`. A line is told with a message of
/// the narration's files (`narration-<ruleset>-<event>`); a line written
/// as English text (`Story::say`) stays English in every language, so
/// that a new event is told in English until its messages are written.
#[must_use]
pub fn narrate_in(
    language: Language,
    ruleset: &str,
    table: &Table,
    events: &[EventOut],
) -> Vec<Line> {
    let mut story = Story {
        lines: Vec::new(),
        names: table.names.clone(),
        language,
    };
    let mut game = Narrator::for_ruleset(ruleset);
    for event in events {
        if !server::tell(&mut story, table, event) {
            game.tell(&mut story, table, event);
        }
    }
    game.finish(&mut story);
    story.lines
}

/// A ruleset's narrator, with what it keeps between events (a trick's
/// cards, a chain's jumps).
enum Narrator {
    Hats,
    Goathead(trick::Trick),
    HatTrick(trick::Trick),
    TopHats(top_hats::Chain),
    Unknown,
}

impl Narrator {
    fn for_ruleset(ruleset: &str) -> Narrator {
        match ruleset {
            "hats" => Narrator::Hats,
            "goathead" => Narrator::Goathead(trick::Trick::default()),
            "hat-trick" => Narrator::HatTrick(trick::Trick::default()),
            "top-hats" => Narrator::TopHats(top_hats::Chain::default()),
            _ => Narrator::Unknown,
        }
    }

    fn tell(&mut self, story: &mut Story, table: &Table, event: &EventOut) {
        match self {
            Narrator::Hats => hats::tell(story, table, event),
            Narrator::Goathead(trick) => goathead::tell(story, table, event, trick),
            Narrator::HatTrick(trick) => hat_trick::tell(story, table, event, trick),
            Narrator::TopHats(chain) => top_hats::tell(story, table, event, chain),
            Narrator::Unknown => {}
        }
    }

    fn finish(&mut self, story: &mut Story) {
        match self {
            Narrator::Goathead(trick) | Narrator::HatTrick(trick) => trick.flush(story, None),
            Narrator::TopHats(chain) => chain.flush(story),
            Narrator::Hats | Narrator::Unknown => {}
        }
    }
}

#[cfg(test)]
mod tests;
