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
    /// The options' defaults (under version 1; a newer version may fill
    /// some in differently, as its summary says).
    #[schema(value_type = Object)]
    pub defaults: Value,
    /// The rules new games are played under (the newest version).
    #[schema(example = "hats@1")]
    pub rules: String,
    /// Every version of the rules this server plays, newest first. A game
    /// keeps the version it was created with; `rules_version` at creation
    /// picks an older one.
    pub rules_versions: Vec<RulesVersionInfo>,
}

/// One version of a ruleset's rules.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RulesVersionInfo {
    /// `<ruleset>@<number>`.
    #[schema(example = "hats@1")]
    pub id: String,
    /// The number, as `rules_version` takes it at creation.
    #[schema(example = 1)]
    pub version: u16,
    /// What this version decides, in words.
    pub summary: String,
    /// Whether the seats of its games contribute salts to the shuffle (a
    /// game with a public seed takes none): `salt` at creation and join.
    pub salted: bool,
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
        rules: format!(
            "{}@{}",
            R::ID,
            R::RULES_VERSIONS.last().map_or(1, |v| v.number)
        ),
        rules_versions: R::RULES_VERSIONS
            .iter()
            .rev()
            .map(|v| RulesVersionInfo {
                id: format!("{}@{}", R::ID, v.number),
                version: v.number,
                summary: v.summary.to_owned(),
                salted: v.salted,
            })
            .collect(),
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
