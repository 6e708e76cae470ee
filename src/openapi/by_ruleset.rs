//! Requests and answers split by ruleset: a request to create a game, a
//! game, its audit, a replayed state, a ruleset's description and the
//! `game_created` event each name their ruleset, and each becomes a `oneOf`
//! of one schema per ruleset told apart by that field (`HatsCreateGame`,
//! `HatsGame`, `HatsAuditDocument`,
//! `HatsStateAt`, `HatsRulesetInfo`, `HatsGameCreated`, ...), whose parts
//! are that ruleset's types. A generated client then reads every part of
//! the answer as its ruleset's type once it has looked at `ruleset`, and a
//! request's options are checked against its ruleset's.

use utoipa::Modify;
use utoipa::openapi::schema::{AdditionalProperties, ArrayBuilder, Object, ObjectBuilder, Schema};
use utoipa::openapi::{Components, RefOr};

use super::shape::{RULESETS, described, object, of, one_of_by, only, with_description};
use crate::games::wire_types::any_or_null;

/// Properties of one ruleset's schema: (name, schema).
type Parts = Vec<(&'static str, RefOr<Schema>)>;

/// One answer split by ruleset: the component `name`, the property naming
/// the ruleset (`field`), and the parts that differ by ruleset.
struct Split {
    name: &'static str,
    field: &'static str,
    /// The parts of one ruleset's schema, by its schema prefix.
    parts: fn(&str) -> Parts,
}

/// The ruleset's result, a forfeit's, or `null`.
fn result(prefix: &str) -> RefOr<Schema> {
    any_or_null([of(&format!("{prefix}Result")), of("ForfeitResult")])
}

const SPLITS: [Split; 6] = [
    Split {
        name: "CreateGame",
        field: "ruleset",
        parts: |prefix| {
            vec![(
                "options",
                any_or_null([of(&format!("{prefix}GameOptions"))]),
            )]
        },
    },
    Split {
        name: "Game",
        field: "ruleset",
        parts: |prefix| {
            vec![
                ("view", any_or_null([of(&format!("{prefix}View"))])),
                (
                    "legal_commands",
                    ArrayBuilder::new()
                        .items(of(&format!("{prefix}Command")))
                        .into(),
                ),
                ("result", result(prefix)),
                ("options", of(&format!("{prefix}GameOptionsOut"))),
            ]
        },
    },
    Split {
        name: "AuditDocument",
        field: "ruleset",
        parts: |prefix| {
            vec![
                (
                    "events",
                    ArrayBuilder::new()
                        .items(of(&format!("{prefix}AuditEvent")))
                        .into(),
                ),
                ("final_state", any_or_null([of(&format!("{prefix}State"))])),
                ("result", result(prefix)),
            ]
        },
    },
    Split {
        name: "StateAt",
        field: "ruleset",
        parts: |prefix| vec![("view", any_or_null([of(&format!("{prefix}View"))]))],
    },
    Split {
        name: "RulesetInfo",
        field: "id",
        parts: |prefix| {
            let schema: RefOr<Schema> = ObjectBuilder::new()
                .additional_properties(Some(AdditionalProperties::<Schema>::FreeForm(true)))
                .into();
            vec![
                ("options", schema),
                ("defaults", of(&format!("{prefix}GameOptions"))),
            ]
        },
    },
    Split {
        name: "GameCreated",
        field: "ruleset",
        parts: |prefix| {
            vec![
                ("options", of(&format!("{prefix}CreatedOptions"))),
                ("server_options", any_or_null([of("ServerOptions")])),
            ]
        },
    },
];

/// `base` for the ruleset `id`: its `field` is `id`, and `parts` replace
/// its properties (each keeping its description).
fn one(base: &Object, field: &str, id: &str, parts: Parts) -> Object {
    let mut one = base.clone();
    one.properties
        .insert(field.to_owned(), only(id, described(base, field)));
    for (property, schema) in parts {
        let schema = with_description(schema, described(base, property));
        one.properties.insert(property.to_owned(), schema);
    }
    if let Some(description) = &base.description {
        one.description = Some(format!("{description} ({id})"));
    }
    one
}

fn split(components: &mut Components, split: &Split) {
    let Some(base) = object(components, split.name) else {
        return;
    };
    let mut names = Vec::new();
    for (id, prefix) in RULESETS {
        let name = format!("{prefix}{}", split.name);
        let schema = one(&base, split.field, id, (split.parts)(prefix));
        components
            .schemas
            .insert(name.clone(), RefOr::T(Schema::Object(schema)));
        names.push((id.to_owned(), name));
    }
    let union = one_of_by(split.field, &names, base.description.clone());
    components.schemas.insert(split.name.to_owned(), union);
}

/// Splits `CreateGame`, `Game`, `AuditDocument`, `StateAt`, `RulesetInfo` and
/// `GameCreated` by ruleset.
pub(super) struct ByRuleset;

impl Modify for ByRuleset {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        for one in &SPLITS {
            split(components, one);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_split_for_every_ruleset_and_only_those() {
        let split: Vec<&str> = RULESETS.iter().map(|(id, _)| *id).collect();
        let engines: Vec<&str> = hatstand_engine::GameKind::ALL
            .iter()
            .map(|k| k.id())
            .collect();
        assert_eq!(split, engines);
    }
}
