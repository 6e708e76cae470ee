//! The append-only event log of every game, and its hash chain.
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
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::schema::events;

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
        });
        self.next_seq += 1;
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

/// JSON with the keys of every object sorted and no whitespace.
#[must_use]
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(&map[key], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// An event row: the hash as its 32 bytes (`digest`), or, in rows written
/// before events were compacted and not converted yet, as hex with the
/// `prev_hash` beside it.
type EventRow = (
    i64,
    String,
    Value,
    Option<Uuid>,
    Option<i16>,
    Option<Value>,
    Option<Vec<u8>>,
    Option<String>,
    Option<String>,
    DateTime<Utc>,
);

/// The events of rows in `seq` order, each `prev_hash` taken from the row
/// before (or kept, in an unconverted row); `before` is the hash of the
/// event before the first row.
fn from_rows(rows: Vec<EventRow>, before: String) -> Result<Vec<LoggedEvent>, String> {
    let mut prev = before;
    let mut out = Vec::with_capacity(rows.len());
    for (seq, kind, data, actor_user, actor_seat, command, digest, hash, prev_hash, at) in rows {
        let hash = match (digest, hash) {
            (Some(digest), _) => hex::encode(digest),
            (None, Some(hash)) => hash,
            (None, None) => return Err(format!("event {seq} has no hash")),
        };
        let prev_hash = prev_hash.unwrap_or_else(|| std::mem::take(&mut prev));
        prev.clone_from(&hash);
        out.push(LoggedEvent {
            seq,
            kind,
            data,
            actor_user,
            actor_seat,
            command,
            prev_hash,
            hash,
            created_at: format_time(at),
        });
    }
    Ok(out)
}

/// Events of `game` with `after < seq <= up_to`, in order, at most `limit`.
///
/// # Errors
/// Database errors.
pub async fn load(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    after: i64,
    up_to: i64,
    limit: i64,
) -> QueryResult<Vec<LoggedEvent>> {
    // The event at `after` too: its hash is the first one's `prev_hash`.
    let from = if after >= 1 { after - 1 } else { after };
    let mut rows: Vec<EventRow> = events::table
        .filter(events::game_id.eq(game))
        .filter(events::seq.gt(from))
        .filter(events::seq.le(up_to))
        .order(events::seq.asc())
        .limit(limit + i64::from(after >= 1))
        .select((
            events::seq,
            events::type_,
            events::data,
            events::actor_user,
            events::actor_seat,
            events::command,
            events::digest,
            events::hash,
            events::prev_hash,
            events::created_at,
        ))
        .load(conn)
        .await?;
    let before = if after >= 1 && <[EventRow]>::first(&rows).is_some_and(|r| r.0 == after) {
        let (.., digest, hash, _, _) = rows.remove(0);
        digest.map(hex::encode).or(hash).unwrap_or_default()
    } else {
        GENESIS_HASH.to_owned()
    };
    from_rows(rows, before).map_err(|e| diesel::result::Error::DeserializationError(e.into()))
}

/// Inserts events (inside the caller's transaction), each hash as its 32
/// bytes and no `prev_hash` (the chain is the order of `seq`).
///
/// # Errors
/// Database errors, a duplicate `(game_id, seq)` among them.
pub async fn insert(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    new: &[LoggedEvent],
) -> QueryResult<()> {
    let parse_time = |s: &str| {
        DateTime::parse_from_rfc3339(s)
            .map(|t| t.with_timezone(&Utc))
            .unwrap_or_else(|_| now())
    };
    let digests = new
        .iter()
        .map(|e| hex::decode(&e.hash))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| diesel::result::Error::SerializationError(Box::new(e)))?;
    let rows: Vec<_> = new
        .iter()
        .zip(&digests)
        .map(|(e, digest)| {
            (
                events::game_id.eq(game),
                events::seq.eq(e.seq),
                events::type_.eq(&e.kind),
                events::data.eq(&e.data),
                events::actor_user.eq(e.actor_user),
                events::actor_seat.eq(e.actor_seat),
                events::command.eq(e.command.as_ref()),
                events::digest.eq(Some(digest)),
                events::created_at.eq(parse_time(&e.created_at)),
            )
        })
        .collect();
    diesel::insert_into(events::table)
        .values(rows)
        .execute(conn)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canonical_json_sorts_keys_at_every_depth() {
        let v = json!({"b": 1, "a": {"d": [ {"z": 1, "y": "é\"" } ], "c": null}});
        assert_eq!(
            canonical_json(&v),
            r#"{"a":{"c":null,"d":[{"y":"é\"","z":1}]},"b":1}"#
        );
    }

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
