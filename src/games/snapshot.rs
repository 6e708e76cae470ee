//! The engine state kept with the game row (the snapshot), as JSON text.

use hatstand_engine::Ruleset;

use crate::db::json_text::JsonText;
use crate::error::Failure;

/// The engine state stored in a snapshot.
///
/// # Errors
/// `internal` when the snapshot does not parse (a bug, never client input).
pub fn state_from_json<R: Ruleset>(snapshot: &JsonText) -> Result<R::State, Failure> {
    snapshot
        .parse()
        .map_err(|e| Failure::internal(format!("snapshot does not parse: {e}")))
}

/// The snapshot of an engine state.
///
/// # Errors
/// `internal`: our own types always serialize.
pub fn state_to_json<R: Ruleset>(state: &R::State) -> Result<JsonText, Failure> {
    JsonText::of(state).map_err(Failure::internal)
}
