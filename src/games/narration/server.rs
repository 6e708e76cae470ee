//! The server's own events (seats taken, the start, timeouts, resignations)
//! in words.

use super::{Story, Table};
use crate::games::events::EventOut;
use crate::i18n::Arg;

/// Tells `event` if it is one of the server's; whether it was.
pub(super) fn tell(story: &mut Story, table: &Table, event: &EventOut) -> bool {
    let d = &event.data;
    let (who, me) = story.who(table, &d["seat"]);
    let seat: [(&str, Arg<'_>); 2] = [("who", Arg::Text(&who)), ("me", Arg::Text(me))];
    let id = match event.kind.as_str() {
        "game_created" | "player_invited" | "player_joined" => return true,
        "player_declined" => {
            let name = d["username"]
                .as_str()
                .map_or_else(|| story.words("narration-a-player", &[]), str::to_owned);
            story.tell(
                event.seq,
                "narration-player-declined",
                &[("name", Arg::Text(&name))],
            );
            return true;
        }
        "seat_substituted" => {
            let name = d["username"]
                .as_str()
                .map_or_else(|| story.words("narration-a-player", &[]), str::to_owned);
            let place = d["seat"].as_u64().map_or(0, |s| s + 1).to_string();
            story.tell(
                event.seq,
                "narration-seat-substituted",
                &[("name", Arg::Text(&name)), ("seat", Arg::Text(&place))],
            );
            return true;
        }
        "game_started" => "narration-game-started",
        "game_clock_started" => "narration-clocks-started",
        "seat_bank_changed" => {
            let minutes = d["bank_ms"].as_i64().unwrap_or(0) / 60_000;
            let bank = format!("{}h{:02}", minutes / 60, minutes % 60);
            story.tell(
                event.seq,
                "narration-seat-bank-changed",
                &[seat[0], seat[1], ("bank", Arg::Text(&bank))],
            );
            return true;
        }
        "game_pause_proposed" => {
            if let Some(until) = d["until"].as_str() {
                story.tell(
                    event.seq,
                    "narration-pause-proposed-until",
                    &[seat[0], seat[1], ("until", Arg::Text(until))],
                );
                return true;
            }
            "narration-pause-proposed"
        }
        "game_pause_voted" => {
            if d["yes"].as_bool() == Some(true) {
                "narration-pause-voted-yes"
            } else {
                "narration-pause-voted-no"
            }
        }
        "game_paused" => "narration-paused",
        "game_resumed" => {
            if d["seat"].is_null() {
                "narration-pause-ended"
            } else {
                "narration-resumed"
            }
        }
        "game_cancelled" => "narration-game-cancelled",
        "turn_timed_out" => "narration-turn-timed-out",
        "turn_forced" => "narration-turn-forced",
        "turn_takeback_offered" => "narration-takeback-offered",
        "turn_takeback_accepted" => "narration-takeback-accepted",
        "turn_takeback_declined" => "narration-takeback-declined",
        "turn_taken_back" => "narration-taken-back",
        "seat_vacation" => {
            let until = d["until"]
                .as_str()
                .map_or_else(|| story.words("narration-later", &[]), str::to_owned);
            story.tell(
                event.seq,
                "narration-seat-vacation",
                &[seat[0], seat[1], ("until", Arg::Text(&until))],
            );
            return true;
        }
        "player_resigned" => {
            let why = match d["reason"].as_str() {
                Some("timeout") => "timeout",
                Some("inactive") => "inactive",
                _ => "resigned",
            };
            story.tell(
                event.seq,
                "narration-player-resigned",
                &[seat[0], seat[1], ("why", Arg::Text(why))],
            );
            return true;
        }
        "game_forfeited" => {
            let winners = table.list_in(story.language, &d["winners"]);
            if winners.is_empty() {
                story.tell(event.seq, "narration-forfeit-no-winner", &[]);
            } else {
                let count = d["winners"].as_array().map_or(0, Vec::len);
                story.tell(
                    event.seq,
                    "narration-forfeit",
                    &[
                        ("winners", Arg::Text(&winners)),
                        ("count", Arg::Number(i64::try_from(count).unwrap_or(0))),
                        (
                            "me",
                            Arg::Text(if winners_include_me(table, d) {
                                "yes"
                            } else {
                                "no"
                            }),
                        ),
                    ],
                );
            }
            return true;
        }
        _ => return false,
    };
    story.tell(event.seq, id, &seat);
    true
}

/// Whether the reader is among the event's `winners`.
fn winners_include_me(table: &Table, d: &serde_json::Value) -> bool {
    d["winners"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|s| table.is_me(s))
}
