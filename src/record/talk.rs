//! A game's talk in its audit (docs/talk.md), and its verification. Pure:
//! no database.
//!
//! Rules:
//! - Every message has a hash: SHA-256 of the canonical JSON of its id,
//!   room, author, seat, addressed seats, time, text and salt (16 random
//!   bytes drawn when it was said, so a short text cannot be guessed from
//!   its hash).
//! - The table's and the spectators' messages are listed with their text
//!   and salt (anyone recomputes each hash), or, once an operator hid one,
//!   with its hash, and when and by whom it was hidden, but no text.
//! - Press is committed to as a whole: `commitment` is SHA-256 of the
//!   game's press key, `:`, and the hashes of its press messages in order,
//!   joined by `,`. The key is the server's own (derived from a secret and
//!   the game id), so the commitment says nothing — not even how many
//!   messages there were, nor whether there were any.
//! - With `press_revealed_at_end`, `revealed` gives the key and the press
//!   messages (hidden ones with their hash alone): the commitment is then
//!   recomputed.

use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use uuid::Uuid;

use super::canonical::canonical_json;

/// What a game allows, fixed at creation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TalkMode {
    /// No messages at all.
    None,
    /// Messages to the whole table (and the spectators' room).
    #[default]
    Table,
    /// Also private messages to chosen seats.
    Press,
}

/// Where a message is said.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Room {
    /// Every seat and every spectator.
    Table,
    /// The author's seat and the seats named.
    Press,
    /// Those who watch without a seat (players once the game is over).
    Spectators,
}

impl Room {
    /// The room as stored.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Room::Table => "table",
            Room::Press => "press",
            Room::Spectators => "spectators",
        }
    }

    /// The room stored as `text`.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "table" => Some(Room::Table),
            "press" => Some(Room::Press),
            "spectators" => Some(Room::Spectators),
            _ => None,
        }
    }
}

/// A game's talk, as its audit shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TalkRecord {
    /// The table's and the spectators' messages, oldest first.
    pub messages: Vec<RecordedMessage>,
    /// A game that allowed press: its commitment (and, when the game chose
    /// `press_revealed_at_end`, the press itself).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub press: Option<PressRecord>,
}

/// One message in the record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RecordedMessage {
    pub id: Uuid,
    /// `table`, `press` or `spectators`.
    pub room: String,
    /// The author's user id.
    pub author: Uuid,
    /// The author's seat (none: a spectator).
    pub seat: Option<u8>,
    /// The seats a press message was addressed to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub to: Vec<u8>,
    /// When it was said (RFC 3339, microseconds).
    pub at: String,
    /// The text; absent once hidden.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The salt of its hash; absent once hidden.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<String>,
    /// SHA-256 of the message (see the module's rules), hex.
    pub hash: String,
    /// Hidden by an operator after a report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<Hidden>,
}

/// When and by whom a message was hidden.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Hidden {
    /// The operator's username (none once the account is gone).
    pub by: Option<String>,
    pub at: String,
}

/// Press, committed to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PressRecord {
    /// SHA-256 of the press key, `:`, and the press hashes joined by `,`.
    pub commitment: String,
    /// With `press_revealed_at_end`: the key and every press message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revealed: Option<RevealedPress>,
}

/// Press revealed at the end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RevealedPress {
    pub key: String,
    pub messages: Vec<RecordedMessage>,
}

/// What a message's hash covers.
#[derive(Debug, Clone, Copy)]
pub struct Content<'a> {
    pub id: Uuid,
    pub room: &'a str,
    pub author: Uuid,
    pub seat: Option<u8>,
    pub to: &'a [u8],
    pub at: &'a str,
    pub text: &'a str,
    pub salt: &'a str,
}

/// The hash of a message.
#[must_use]
pub fn message_hash(c: Content<'_>) -> String {
    let document = json!({
        "id": c.id, "room": c.room, "author": c.author, "seat": c.seat,
        "to": c.to, "at": c.at, "text": c.text, "salt": c.salt,
    });
    hex::encode(Sha256::digest(canonical_json(&document).as_bytes()))
}

/// The commitment to a game's press.
#[must_use]
pub fn press_commitment(key: &str, hashes: &[&str]) -> String {
    let text = format!("{key}:{}", hashes.join(","));
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// The press key of `game` under the server's `secret`.
#[must_use]
pub fn press_key(secret: &str, game: Uuid) -> String {
    hex::encode(Sha256::digest(
        format!("talk-press:{secret}:{game}").as_bytes(),
    ))
}

fn is_hash(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

fn check_message(m: &RecordedMessage, rooms: &[&str]) -> Result<(), String> {
    let what = format!("talk message {}", m.id);
    if !rooms.contains(&m.room.as_str()) {
        return Err(format!("{what}: room {} is not listed here", m.room));
    }
    if !is_hash(&m.hash) {
        return Err(format!("{what}: the hash is not SHA-256 hex"));
    }
    match (&m.text, &m.salt, &m.hidden) {
        (Some(text), Some(salt), None) => {
            let hash = message_hash(Content {
                id: m.id,
                room: &m.room,
                author: m.author,
                seat: m.seat,
                to: &m.to,
                at: &m.at,
                text,
                salt,
            });
            if hash != m.hash {
                return Err(format!("{what}: the text does not match its hash"));
            }
            Ok(())
        }
        (None, None, Some(_)) => Ok(()),
        _ => Err(format!(
            "{what}: a message shows its text and salt, or is hidden"
        )),
    }
}

/// Verifies a talk record: every message shown matches its hash, and
/// revealed press matches its commitment.
///
/// # Errors
/// What does not match.
pub fn verify(record: &TalkRecord) -> Result<(), String> {
    for m in &record.messages {
        check_message(m, &["table", "spectators"])?;
    }
    if let Some(press) = &record.press {
        if !is_hash(&press.commitment) {
            return Err("the press commitment is not SHA-256 hex".into());
        }
        if let Some(revealed) = &press.revealed {
            for m in &revealed.messages {
                check_message(m, &["press"])?;
            }
            let hashes: Vec<&str> = revealed.messages.iter().map(|m| m.hash.as_str()).collect();
            if press_commitment(&revealed.key, &hashes) != press.commitment {
                return Err("the press revealed does not match its commitment".into());
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(room: &str, text: &str) -> RecordedMessage {
        let id = Uuid::new_v4();
        let author = Uuid::new_v4();
        let at = "2026-12-07T10:00:00.000000Z";
        let to: Vec<u8> = if room == "press" { vec![1] } else { vec![] };
        RecordedMessage {
            id,
            room: room.into(),
            author,
            seat: Some(0),
            hash: message_hash(Content {
                id,
                room,
                author,
                seat: Some(0),
                to: &to,
                at,
                text,
                salt: "00ff",
            }),
            to,
            at: at.into(),
            text: Some(text.into()),
            salt: Some("00ff".into()),
            hidden: None,
        }
    }

    #[test]
    fn given_a_record_when_a_text_changes_then_it_fails() {
        let mut record = TalkRecord {
            messages: vec![message("table", "hello")],
            press: None,
        };
        assert_eq!(verify(&record), Ok(()));
        record.messages[0].text = Some("hellO".into());
        assert!(verify(&record).unwrap_err().contains("does not match"));
    }

    #[test]
    fn given_a_hidden_message_when_verified_then_its_hash_stands_for_it() {
        let mut m = message("table", "rude");
        m.text = None;
        m.salt = None;
        m.hidden = Some(Hidden {
            by: Some("op".into()),
            at: "2026-12-07T11:00:00.000000Z".into(),
        });
        let record = TalkRecord {
            messages: vec![m.clone()],
            press: None,
        };
        assert_eq!(verify(&record), Ok(()));
        m.hidden = None;
        assert!(
            verify(&TalkRecord {
                messages: vec![m],
                press: None
            })
            .is_err()
        );
    }

    #[test]
    fn given_press_when_revealed_then_the_commitment_is_recomputed() {
        let secret = press_key("secret", Uuid::nil());
        let a = message("press", "deal?");
        let b = message("press", "deal.");
        let commitment = press_commitment(&secret, &[&a.hash, &b.hash]);
        let mut record = TalkRecord {
            messages: vec![],
            press: Some(PressRecord {
                commitment: commitment.clone(),
                revealed: Some(RevealedPress {
                    key: secret.clone(),
                    messages: vec![a.clone(), b.clone()],
                }),
            }),
        };
        assert_eq!(verify(&record), Ok(()));
        if let Some(press) = &mut record.press {
            press.revealed = Some(RevealedPress {
                key: secret.clone(),
                messages: vec![a.clone()],
            });
        }
        assert!(verify(&record).is_err(), "a message left out");
        // Unrevealed: the commitment alone, the same for none as for many in shape.
        let none = press_commitment(&secret, &[]);
        assert_ne!(none, commitment);
        assert_eq!(none.len(), commitment.len());
    }

    #[test]
    fn given_press_in_the_public_list_when_verified_then_it_fails() {
        let record = TalkRecord {
            messages: vec![message("press", "secret")],
            press: None,
        };
        assert!(verify(&record).is_err());
    }
}
