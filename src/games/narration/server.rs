//! The server's own events (seats taken, the start, timeouts, resignations)
//! in words.

use super::{Story, Table};
use crate::games::events::EventOut;

/// Tells `event` if it is one of the server's; whether it was.
pub(super) fn tell(story: &mut Story, table: &Table, event: &EventOut) -> bool {
    let d = &event.data;
    let who = || table.who(&d["seat"]);
    match event.kind.as_str() {
        "game_created" | "player_invited" | "player_joined" => {}
        "player_declined" => story.say(
            event.seq,
            &format!(
                "{} declined the invitation",
                d["username"].as_str().unwrap_or("a player")
            ),
        ),
        "game_started" => story.say(event.seq, "the game started"),
        "game_clock_started" => story.say(event.seq, "the clocks started"),
        "seat_bank_changed" => {
            let minutes = d["bank_ms"].as_i64().unwrap_or(0) / 60_000;
            story.say(
                event.seq,
                &format!(
                    "{} has {}h{:02} in the bank",
                    who(),
                    minutes / 60,
                    minutes % 60
                ),
            );
        }
        "game_pause_proposed" => story.say(
            event.seq,
            &format!(
                "{} proposed to pause the table{}",
                who(),
                d["until"]
                    .as_str()
                    .map_or_else(String::new, |u| format!(" until {u}"))
            ),
        ),
        "game_pause_voted" => story.say(
            event.seq,
            &format!(
                "{} voted {} the pause",
                who(),
                if d["yes"].as_bool() == Some(true) {
                    "for"
                } else {
                    "against"
                }
            ),
        ),
        "game_paused" => story.say(event.seq, "the table is paused: no clock runs"),
        "game_resumed" => {
            if d["seat"].is_null() {
                story.say(event.seq, "the pause ended; the clocks run again");
            } else {
                story.say(event.seq, &format!("{} resumed the table", who()));
            }
        }
        "game_cancelled" => story.say(event.seq, "the game was cancelled"),
        "turn_timed_out" => story.say(event.seq, &format!("{}'s time ran out", who())),
        "turn_forced" => story.say(
            event.seq,
            &format!("{} had one move only; the server played it", who()),
        ),
        "turn_takeback_offered" => story.say(
            event.seq,
            &format!("{} asked to take back their last move", who()),
        ),
        "turn_takeback_accepted" => {
            story.say(event.seq, &format!("{} agreed to the takeback", who()));
        }
        "turn_takeback_declined" => {
            story.say(event.seq, &format!("{} refused the takeback", who()));
        }
        "turn_taken_back" => story.say(event.seq, &format!("{}'s last move was taken back", who())),
        "seat_vacation" => story.say(
            event.seq,
            &format!(
                "{} took a break until {}",
                who(),
                d["until"].as_str().unwrap_or("later")
            ),
        ),
        "player_resigned" => {
            let why = match d["reason"].as_str() {
                Some("timeout") => "is out after running out of time",
                Some("inactive") => "is out for inactivity",
                _ => "resigned",
            };
            story.say(
                event.seq,
                &format!("{} {why}; the server plays that seat from now on", who()),
            );
        }
        "game_forfeited" => {
            let winners = table.list(&d["winners"]);
            let text = if winners.is_empty() {
                "the game ended by forfeit, with no winner".to_owned()
            } else {
                format!("the game ended by forfeit: {winners} won")
            };
            story.say(event.seq, &text);
        }
        _ => return false,
    }
    true
}
