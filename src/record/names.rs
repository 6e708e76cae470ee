//! The fixed sets of names records and documents use: game statuses and
//! ruleset ids (the OpenAPI document lists them as enums; tests in `games`
//! hold them to the stored statuses and the engines' ids).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A game's status, as the documents name it (stored as text, see `games::status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Waiting for players.
    Open,
    /// Being played.
    Active,
    /// Over, with a result.
    Finished,
    /// Ended without a result.
    Abandoned,
}

/// The id of a ruleset, as the documents name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RulesetId {
    Hats,
    Goathead,
    TopHats,
    HatTrick,
}

/// The document's `GameResult` by name, for a type outside `games` that
/// carries a game's result (a notification): the schema itself, one per
/// ruleset, is `games::wire_types::AnyResult`, which registers it.
pub struct GameResultByName;

impl utoipa::PartialSchema for GameResultByName {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::Ref::from_schema_name("GameResult").into()
    }
}

impl ToSchema for GameResultByName {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("GameResult")
    }
}
