//! The rulesets this server plays, as `/v1/rulesets` describes them.

use hatstand_engine::{GameKind, Ruleset, with_ruleset};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

/// A ruleset and its options.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RulesetInfo {
    #[schema(example = "hats")]
    pub id: String,
    #[schema(example = "Hats")]
    pub name: String,
    pub min_players: u8,
    pub max_players: u8,
    /// A JSON Schema of the ruleset's options (plus the common `seed`).
    #[schema(value_type = Object)]
    pub options: Value,
    /// The options' defaults.
    #[schema(value_type = Object)]
    pub defaults: Value,
}

fn info<R: Ruleset>() -> RulesetInfo {
    let mut schema = R::options_schema();
    if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        properties.insert(
            "seed".to_owned(),
            serde_json::json!({
                "type": "string", "minLength": 1, "maxLength": 256,
                "description": "A public seed: the same seed and options give the same shuffles. \
                                Without it the server draws a secret seed, revealed by the audit."
            }),
        );
    }
    RulesetInfo {
        id: R::ID.to_owned(),
        name: R::NAME.to_owned(),
        min_players: u8::try_from(R::MIN_PLAYERS).unwrap_or(u8::MAX),
        max_players: u8::try_from(R::MAX_PLAYERS).unwrap_or(u8::MAX),
        options: schema,
        defaults: serde_json::to_value(R::Options::default()).unwrap_or(Value::Null),
    }
}

/// Every complete ruleset.
#[must_use]
pub fn all() -> Vec<RulesetInfo> {
    GameKind::ALL
        .iter()
        .map(|&kind| with_ruleset!(kind, |R| info::<R>()))
        .collect()
}
