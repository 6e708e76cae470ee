//! The talk section of a finished game's audit, built from its rows (the
//! rules are in `record::talk`; who may say and read what, in `talk/`).

use crate::db::Conn;
use crate::db::games::GameRow;
use crate::db::secrets;
use crate::db::talk::{self as rows, MessageRow};
use crate::error::Failure;
use crate::record::chain::format_time;
use crate::record::talk::{
    Content, Hidden, PressRecord, RecordedMessage, RevealedPress, TalkRecord, message_hash,
    press_commitment, press_key,
};

use crate::games::clock::ServerOptions;
use crate::record::talk::TalkMode;

/// The name of the server secret press keys derive from.
const SECRET_NAME: &str = "talk-press";

/// The record of `game`'s talk: none for a game without any message that
/// allowed no press (every game from before talk, so their audits are
/// unchanged).
///
/// # Errors
/// Database errors.
pub async fn record(conn: &mut Conn, game: &GameRow) -> Result<Option<TalkRecord>, Failure> {
    let options = ServerOptions::of(&game.server_options);
    let mode = options.talk.unwrap_or_default();
    let all = rows::all(conn, game.id).await?;
    if all.is_empty() && mode != TalkMode::Press {
        return Ok(None);
    }
    let (press, public): (Vec<&MessageRow>, Vec<&MessageRow>) =
        all.iter().partition(|m| m.room == "press");
    let press = if mode == TalkMode::Press || !press.is_empty() {
        let mut fresh = [0u8; 32];
        rand::fill(&mut fresh);
        let secret = secrets::get_or_insert(conn, SECRET_NAME, &hex::encode(fresh)).await?;
        let key = press_key(&secret, game.id);
        let messages: Vec<RecordedMessage> = press.iter().map(|m| recorded(m)).collect();
        let hashes: Vec<&str> = messages.iter().map(|m| m.hash.as_str()).collect();
        Some(PressRecord {
            commitment: press_commitment(&key, &hashes),
            revealed: options
                .press_revealed_at_end
                .then_some(RevealedPress { key, messages }),
        })
    } else {
        None
    };
    Ok(Some(TalkRecord {
        messages: public.iter().map(|m| recorded(m)).collect(),
        press,
    }))
}

/// A row as recorded: with its text and salt, or hidden.
fn recorded(m: &MessageRow) -> RecordedMessage {
    let seat = m.author_seat.and_then(|s| u8::try_from(s).ok());
    let to: Vec<u8> = m
        .to_seats
        .iter()
        .filter_map(|s| u8::try_from(*s).ok())
        .collect();
    let at = format_time(m.created_at);
    let hash = message_hash(Content {
        id: m.id,
        room: &m.room,
        author: m.author,
        seat,
        to: &to,
        at: &at,
        text: &m.body,
        salt: &m.salt,
    });
    let hidden = m.hidden_at.map(|when| Hidden {
        by: m.hidden_by.clone(),
        at: format_time(when),
    });
    let shown = hidden.is_none();
    RecordedMessage {
        id: m.id,
        room: m.room.clone(),
        author: m.author,
        seat,
        to,
        at,
        text: shown.then(|| m.body.clone()),
        salt: shown.then(|| m.salt.clone()),
        hash,
        hidden,
    }
}
