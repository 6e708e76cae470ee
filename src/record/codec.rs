//! Conversions between a ruleset's typed values and the JSON the API and the
//! event log carry. Engine events are stored as a `type` column and a
//! `data` document (`{"type": ..., "data": ...}` in JSON).

use hatstand_engine::{OptionsError, Ruleset};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::error::Failure;

/// Parses client options (without the common `seed`) for ruleset `R` and
/// checks them with the player count; returns the typed options with every
/// default filled in.
///
/// # Errors
/// `invalid_options` with the reason.
pub fn parse_options<R: Ruleset>(options: Value, players: usize) -> Result<R::Options, Failure> {
    if !(R::MIN_PLAYERS..=R::MAX_PLAYERS).contains(&players) {
        return Err(Failure::invalid_options(format!(
            "{} is played by {} to {} players, not {players}",
            R::ID,
            R::MIN_PLAYERS,
            R::MAX_PLAYERS
        )));
    }
    let parsed: R::Options = serde_json::from_value(options)
        .map_err(|e| Failure::invalid_options(format!("options: {e}")))?;
    R::new_game(players, parsed.clone())
        .map_err(|OptionsError(why)| Failure::invalid_options(why))?;
    Ok(parsed)
}

/// Any serializable value as JSON.
///
/// # Errors
/// `internal`: our own types always serialize.
pub fn to_json<T: Serialize>(value: &T) -> Result<Value, Failure> {
    serde_json::to_value(value).map_err(Failure::internal)
}

/// Any serializable value as JSON text, written into a response as it is
/// (no `Value` tree in between).
///
/// # Errors
/// `internal`: our own types always serialize.
pub fn raw_json<T: Serialize>(value: &T) -> Result<Box<RawValue>, Failure> {
    serde_json::value::to_raw_value(value).map_err(Failure::internal)
}

/// Splits a `{"type": t, "data": d}` document into its type and data
/// (`null` data for events without any).
///
/// # Errors
/// `internal` when the value is not such a document.
pub fn split_tagged(value: Value) -> Result<(String, Value), Failure> {
    let Value::Object(mut map) = value else {
        return Err(Failure::internal("an event is not a JSON object"));
    };
    let Some(Value::String(kind)) = map.remove("type") else {
        return Err(Failure::internal("an event has no type"));
    };
    Ok((kind, map.remove("data").unwrap_or(Value::Null)))
}

/// Joins a type and data into `{"type": t, "data": d}` (no data when null).
#[must_use]
pub fn join_tagged(kind: &str, data: &Value) -> Value {
    let mut map = Map::new();
    map.insert("type".to_owned(), Value::String(kind.to_owned()));
    if !data.is_null() {
        map.insert("data".to_owned(), data.clone());
    }
    Value::Object(map)
}

/// An engine event from its stored type and data.
///
/// # Errors
/// `internal` when the stored event does not parse.
pub fn event_from_parts<R: Ruleset>(kind: &str, data: &Value) -> Result<R::Event, Failure> {
    R::Event::deserialize(&join_tagged(kind, data))
        .map_err(|e| Failure::internal(format!("stored event does not parse: {e}")))
}
