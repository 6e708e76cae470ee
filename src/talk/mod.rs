//! Table talk (docs/talk.md): the rules of who may say what to whom in a
//! game, and who may read it. Pure: the use cases ([`messages`],
//! [`moderation`]) load the game and the rows and ask these functions.
//!
//! Rules:
//! - A game's `talk` option, fixed at creation: `none` (no room is open),
//!   `table` (the default, and the rule of every game created before the
//!   option: the table and the spectators' room) or `press` (also private
//!   messages to chosen seats).
//! - `table`: written by a seated player, read by everyone who may watch
//!   the game.
//! - `press`: written by a seated player to one or more other seats, read
//!   by the author's seat and those seats only; once the game is over, by
//!   everyone when the game chose `press_revealed_at_end`.
//! - `spectators`: written by a signed-in watcher who holds no seat, read
//!   by watchers who hold no seat; by everyone once the game is over.
//! - A message is plain text of 1 to [`MAX_CHARS`] characters (no control
//!   characters but line breaks and tabs); it is never rendered as markup.
//! - Messages never change the game: not its version, its events, its
//!   views or their tags. Their ids are random, so nobody can count what
//!   they were not shown.

pub mod delivery;
pub mod feed;
pub mod messages;
pub mod moderation;

use crate::error::{ErrorCode, Failure};
pub use crate::record::talk::{Room, TalkMode};

/// The most characters (Unicode scalar values) a message may hold.
pub const MAX_CHARS: usize = 1000;

/// The game's talk rules, from its stored server options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TalkRules {
    pub mode: TalkMode,
    pub press_revealed_at_end: bool,
    /// The number of seats.
    pub players: u8,
}

impl TalkRules {
    /// The rules of a stored game (games created before the option talk at
    /// the table).
    #[must_use]
    pub fn of(game: &crate::db::games::GameRow) -> Self {
        let options = crate::games::clock::ServerOptions::of(&game.server_options);
        TalkRules {
            mode: options.talk.unwrap_or_default(),
            press_revealed_at_end: options.press_revealed_at_end,
            players: u8::try_from(game.players).unwrap_or(0),
        }
    }
}

/// Checks a message's text: 1 to [`MAX_CHARS`] characters, not only
/// spaces, no control characters but `\n`, `\r` and `\t`.
///
/// # Errors
/// `message_too_long`, `bad_request`.
pub fn check_text(text: &str) -> Result<(), Failure> {
    let chars = text.chars().count();
    if chars > MAX_CHARS {
        return Err(Failure::new(
            ErrorCode::MessageTooLong,
            format!("a message is at most {MAX_CHARS} characters; this one has {chars}"),
        ));
    }
    if text.trim().is_empty() {
        return Err(Failure::bad_request("a message says something"));
    }
    if text
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    {
        return Err(Failure::bad_request(
            "a message holds no control characters but line breaks and tabs",
        ));
    }
    Ok(())
}

/// Whether `author_seat` (none: not seated) may say something in `room` to
/// `to` (seats, for `press`) under `rules`; the audience as stored (sorted,
/// without duplicates).
///
/// # Errors
/// `talk_not_allowed` (the game's option, or a room the author may not use),
/// `not_a_player` (table or press without a seat), `audience_not_a_seat`.
pub fn check_audience(
    rules: TalkRules,
    author_seat: Option<u8>,
    room: Room,
    to: &[u8],
) -> Result<Vec<u8>, Failure> {
    if rules.mode == TalkMode::None {
        return Err(Failure::new(
            ErrorCode::TalkNotAllowed,
            "this game was created with talk: none",
        ));
    }
    if room != Room::Press && !to.is_empty() {
        return Err(Failure::bad_request(
            "`to` names seats only for a press message",
        ));
    }
    match room {
        Room::Table => {
            author_seat.ok_or_else(Failure::not_a_player)?;
            Ok(Vec::new())
        }
        Room::Spectators => {
            if author_seat.is_some() {
                return Err(Failure::new(
                    ErrorCode::TalkNotAllowed,
                    "players do not speak in the spectators' room",
                ));
            }
            Ok(Vec::new())
        }
        Room::Press => {
            if rules.mode != TalkMode::Press {
                return Err(Failure::new(
                    ErrorCode::TalkNotAllowed,
                    "this game allows talk to the whole table only (talk: table)",
                ));
            }
            let mine = author_seat.ok_or_else(Failure::not_a_player)?;
            let mut seats = to.to_vec();
            seats.sort_unstable();
            seats.dedup();
            if seats.is_empty() {
                return Err(Failure::new(
                    ErrorCode::AudienceNotASeat,
                    "a press message names at least one seat in `to`",
                ));
            }
            if let Some(bad) = seats.iter().find(|s| **s >= rules.players || **s == mine) {
                return Err(Failure::new(
                    ErrorCode::AudienceNotASeat,
                    format!(
                        "seat {bad} is not another seat of this game (seats 0 to {})",
                        rules.players.saturating_sub(1)
                    ),
                ));
            }
            Ok(seats)
        }
    }
}

/// A message as the reading rules see it.
#[derive(Debug, Clone, Copy)]
pub struct Said<'a> {
    pub room: Room,
    pub author_seat: Option<u8>,
    pub to: &'a [u8],
}

/// Whether a viewer in `viewer_seat` (none: a spectator) reads `said`, the
/// game over or not. (Mutes are the viewer's own filter, applied apart.)
#[must_use]
pub fn reads(rules: TalkRules, said: Said<'_>, viewer_seat: Option<u8>, over: bool) -> bool {
    match said.room {
        Room::Table => true,
        Room::Spectators => viewer_seat.is_none() || over,
        Room::Press => {
            (over && rules.press_revealed_at_end)
                || viewer_seat.is_some_and(|s| said.author_seat == Some(s) || said.to.contains(&s))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(mode: TalkMode) -> TalkRules {
        TalkRules {
            mode,
            press_revealed_at_end: false,
            players: 4,
        }
    }

    #[test]
    fn given_talk_none_when_anyone_speaks_then_talk_is_not_allowed() {
        for room in [Room::Table, Room::Spectators] {
            let e = check_audience(rules(TalkMode::None), Some(0), room, &[]).unwrap_err();
            assert_eq!(e.code(), ErrorCode::TalkNotAllowed);
        }
    }

    #[test]
    fn given_table_talk_when_a_seat_sends_press_then_talk_is_not_allowed() {
        let e = check_audience(rules(TalkMode::Table), Some(0), Room::Press, &[1]).unwrap_err();
        assert_eq!(e.code(), ErrorCode::TalkNotAllowed);
    }

    #[test]
    fn given_press_when_the_audience_is_not_another_seat_then_it_is_refused() {
        let r = rules(TalkMode::Press);
        for to in [&[][..], &[4], &[0], &[1, 9]] {
            let e = check_audience(r, Some(0), Room::Press, to).unwrap_err();
            assert_eq!(e.code(), ErrorCode::AudienceNotASeat, "{to:?}");
        }
        assert_eq!(
            check_audience(r, Some(0), Room::Press, &[3, 1, 3]).unwrap(),
            vec![1, 3]
        );
    }

    #[test]
    fn given_a_spectator_when_it_speaks_at_the_table_then_it_is_not_a_player() {
        let e = check_audience(rules(TalkMode::Table), None, Room::Table, &[]).unwrap_err();
        assert_eq!(e.code(), ErrorCode::NotAPlayer);
        let e = check_audience(rules(TalkMode::Table), Some(1), Room::Spectators, &[]).unwrap_err();
        assert_eq!(e.code(), ErrorCode::TalkNotAllowed);
        assert!(check_audience(rules(TalkMode::Table), None, Room::Spectators, &[]).is_ok());
    }

    #[test]
    fn given_press_when_read_then_only_its_seats_read_it_until_revealed_at_the_end() {
        let said = Said {
            room: Room::Press,
            author_seat: Some(0),
            to: &[2],
        };
        let r = rules(TalkMode::Press);
        assert!(reads(r, said, Some(0), false));
        assert!(reads(r, said, Some(2), false));
        assert!(!reads(r, said, Some(1), false));
        assert!(!reads(r, said, None, false));
        assert!(!reads(r, said, None, true));
        let revealed = TalkRules {
            press_revealed_at_end: true,
            ..r
        };
        assert!(!reads(revealed, said, None, false));
        assert!(reads(revealed, said, None, true));
    }

    #[test]
    fn given_the_spectators_room_when_read_then_players_read_it_only_after_the_game() {
        let said = Said {
            room: Room::Spectators,
            author_seat: None,
            to: &[],
        };
        let r = rules(TalkMode::Table);
        assert!(reads(r, said, None, false));
        assert!(!reads(r, said, Some(0), false));
        assert!(reads(r, said, Some(0), true));
    }

    #[test]
    fn given_text_when_checked_then_length_and_control_characters_are_held() {
        assert!(check_text(&"é".repeat(MAX_CHARS)).is_ok());
        assert_eq!(
            check_text(&"a".repeat(MAX_CHARS + 1)).unwrap_err().code(),
            ErrorCode::MessageTooLong
        );
        assert_eq!(
            check_text("  \n").unwrap_err().code(),
            ErrorCode::BadRequest
        );
        assert_eq!(
            check_text("a\u{7}b").unwrap_err().code(),
            ErrorCode::BadRequest
        );
        assert!(check_text("<script>alert(1)</script>\nline two").is_ok());
    }
}
