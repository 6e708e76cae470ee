//! A game's record as a hash chain: each event linked to the one before.
//!
//! Each event's `hash` is `SHA-256(prev_hash ‖ canonical JSON of the event)`,
//! hex-encoded (and stored as its 32 bytes; `prev_hash` is not stored, it is
//! the previous row's hash), where `prev_hash` is the previous event's hash (64 zeros for
//! the first event) as its 64 hex characters, and the canonical JSON is the
//! object `{"actor", "at", "command", "data", "seq", "type"}` with the keys of
//! every object sorted, no whitespace, and strings escaped as JSON requires.
//! `actor` is `{"seat": n|null, "user_id": "uuid"}` or `null` for the system;
//! `at` is RFC 3339 UTC with microseconds (`2026-11-23T10:00:00.000000Z`).

use chrono::{DateTime, SubsecRound, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::canonical::canonical_json;
use super::server_event::{SCHEMA, ServerEvent};

/// The `prev_hash` of a game's first event.
pub const GENESIS_HASH: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// Who caused an event: a user (seated or not yet), or the system (`None` user).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Actor {
    pub user: Option<Uuid>,
    pub seat: Option<u8>,
}

impl Actor {
    /// The server itself (starts, deals, timeouts).
    pub const SYSTEM: Actor = Actor {
        user: None,
        seat: None,
    };

    /// The actor as the audit shows it.
    #[must_use]
    pub fn to_json(self) -> Value {
        match (self.user, self.seat) {
            (None, None) => Value::Null,
            (user, seat) => serde_json::json!({"user_id": user, "seat": seat}),
        }
    }
}

/// One event of a game's log, as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoggedEvent {
    pub seq: i64,
    #[serde(rename = "type")]
    pub kind: String,
    pub data: Value,
    pub actor_user: Option<Uuid>,
    pub actor_seat: Option<i16>,
    /// The command that caused this event, on the first event of a command's batch.
    pub command: Option<Value>,
    pub prev_hash: String,
    pub hash: String,
    /// RFC 3339 UTC with microseconds.
    pub created_at: String,
    /// The schema the event was written under (see `server_event`); not
    /// part of the hash.
    pub schema_version: i16,
}

impl LoggedEvent {
    /// The actor of this event.
    #[must_use]
    pub fn actor(&self) -> Actor {
        Actor {
            user: self.actor_user,
            seat: self.actor_seat.and_then(|s| u8::try_from(s).ok()),
        }
    }

    /// The hash this event should have, given its own content and `prev_hash`.
    #[must_use]
    pub fn expected_hash(&self) -> String {
        chain_hash(
            &self.prev_hash,
            &canonical_event(
                self.seq,
                &self.kind,
                &self.data,
                self.actor(),
                self.command.as_ref(),
                &self.created_at,
            ),
        )
    }
}

/// The instant used for new events: now, to the microsecond PostgreSQL keeps.
#[must_use]
pub fn now() -> DateTime<Utc> {
    Utc::now().trunc_subsecs(6)
}

/// RFC 3339 UTC with exactly six fractional digits.
#[must_use]
pub fn format_time(at: DateTime<Utc>) -> String {
    at.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string()
}

/// Appends new events to a log in memory, extending the hash chain.
#[derive(Debug)]
pub struct Chain {
    next_seq: i64,
    last_hash: String,
    at: String,
    pub events: Vec<LoggedEvent>,
}

impl Chain {
    /// A chain continuing after `version` events whose last hash is `last_hash`.
    #[must_use]
    pub fn after(version: i64, last_hash: &str, at: DateTime<Utc>) -> Self {
        Chain {
            next_seq: version + 1,
            last_hash: last_hash.to_owned(),
            at: format_time(at),
            events: Vec::new(),
        }
    }

    /// Adds an event.
    pub fn push(&mut self, kind: &str, data: Value, actor: Actor, command: Option<Value>) {
        let seq = self.next_seq;
        let hash = chain_hash(
            &self.last_hash,
            &canonical_event(seq, kind, &data, actor, command.as_ref(), &self.at),
        );
        self.events.push(LoggedEvent {
            seq,
            kind: kind.to_owned(),
            data,
            actor_user: actor.user,
            actor_seat: actor.seat.map(i16::from),
            command,
            prev_hash: std::mem::replace(&mut self.last_hash, hash.clone()),
            hash,
            created_at: self.at.clone(),
            schema_version: SCHEMA,
        });
        self.next_seq += 1;
    }

    /// Adds one of the server's events.
    ///
    /// # Errors
    /// Only if serialization fails (our own types always serialize).
    pub fn push_server(
        &mut self,
        event: &ServerEvent,
        actor: Actor,
    ) -> Result<(), serde_json::Error> {
        let (kind, data) = event.to_parts()?;
        self.push(&kind, data, actor, None);
        Ok(())
    }

    /// The version after the events pushed so far.
    #[must_use]
    pub fn version(&self) -> i64 {
        self.next_seq - 1
    }

    /// The hash of the last event.
    #[must_use]
    pub fn last_hash(&self) -> &str {
        &self.last_hash
    }
}

/// `SHA-256(prev_hash ‖ canonical)` as hex.
#[must_use]
pub fn chain_hash(prev_hash: &str, canonical: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(prev_hash.as_bytes());
    hasher.update(canonical.as_bytes());
    hex::encode(hasher.finalize())
}

/// The canonical JSON of an event (see the module documentation).
#[must_use]
pub fn canonical_event(
    seq: i64,
    kind: &str,
    data: &Value,
    actor: Actor,
    command: Option<&Value>,
    at: &str,
) -> String {
    let event = serde_json::json!({
        "seq": seq,
        "type": kind,
        "data": data,
        "actor": actor.to_json(),
        "command": command,
        "at": at,
    });
    canonical_json(&event)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    #[test]
    fn the_chain_links_each_event_to_the_previous_one() {
        let at = now();
        let mut chain = Chain::after(0, GENESIS_HASH, at);
        chain.push("game_created", json!({"x": 1}), Actor::SYSTEM, None);
        chain.push(
            "dealt",
            json!({"y": 2}),
            Actor {
                user: Some(Uuid::nil()),
                seat: Some(1),
            },
            Some(json!({"type": "play"})),
        );
        let [first, second] = &chain.events[..] else {
            panic!()
        };
        assert_eq!(first.prev_hash, GENESIS_HASH);
        assert_eq!(second.prev_hash, first.hash);
        assert_eq!(first.expected_hash(), first.hash);
        assert_eq!(second.expected_hash(), second.hash);
        assert_eq!(chain.version(), 2);
        let mut tampered = second.clone();
        tampered.data = json!({"y": 3});
        assert_ne!(tampered.expected_hash(), tampered.hash);
    }

    #[test]
    fn times_keep_microseconds() {
        let t = DateTime::parse_from_rfc3339("2026-11-23T10:00:00.123456789Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(
            format_time(t.trunc_subsecs(6)),
            "2026-11-23T10:00:00.123456Z"
        );
    }
}
