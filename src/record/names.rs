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

/// A schema named by the document (`GameResult`, `Command`) for a type
/// outside `games` that carries one (a notification): the schema itself,
/// one per ruleset, is `games::wire_types`' (`AnyResult`, `AnyCommand`),
/// which registers it.
macro_rules! by_name {
    ($($(#[$doc:meta])* $type:ident = $name:literal;)*) => {$(
        $(#[$doc])*
        pub struct $type;

        impl utoipa::PartialSchema for $type {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::Ref::from_schema_name($name).into()
            }
        }

        impl ToSchema for $type {
            fn name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed($name)
            }
        }
    )*};
}

by_name! {
    /// The document's `GameResult`.
    GameResultByName = "GameResult";
    /// The document's `Command`.
    CommandByName = "Command";
}
