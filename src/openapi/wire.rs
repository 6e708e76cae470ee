//! The shape of the engines' wire types in the document: named variants
//! behind discriminators, flat events, games split by ruleset, examples and
//! the items of the event streams.

use utoipa::Modify;
use utoipa::openapi::schema::{
    AnyOfBuilder, ArrayBuilder, Discriminator, KnownFormat, Object, ObjectBuilder, OneOfBuilder,
    Schema, SchemaFormat, Type,
};
use utoipa::openapi::{Ref, RefOr};

use crate::games::wire_types::any_or_null;

/// Names the variants of the tagged unions and writes the untagged ones as
/// `anyOf`.
///
/// A tagged union (serde's tagged enums come out as a `oneOf` of inline
/// objects, each with a one-value `type`) has each variant become the
/// component `<Union><Type>` (`HatsCommand` + `discard_draw` =
/// `HatsCommandDiscardDraw`), and gains a `discriminator` on `type` mapping
/// each value to it: generated clients get one named class per command
/// instead of `HatsCommandType0`. An untagged union (serde's `untagged`, a
/// `oneOf` of other schemas) becomes `anyOf`, since serde reads the first
/// variant that fits and a value may fit two.
pub(super) struct NamedVariants;

impl NamedVariants {
    /// The one value of `object`'s `type` property, if it has one.
    fn tag(object: &Object) -> Option<String> {
        let RefOr::T(Schema::Object(property)) = object.properties.get("type")? else {
            return None;
        };
        match property.enum_values.as_deref()? {
            [serde_json::Value::String(tag)] => Some(tag.clone()),
            _ => None,
        }
    }
}

impl Modify for NamedVariants {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        let mut named = Vec::new();
        for (union, schema) in &mut components.schemas {
            let RefOr::T(Schema::OneOf(one_of)) = schema else {
                continue;
            };
            let tags: Option<Vec<String>> = one_of
                .items
                .iter()
                .map(|item| match item {
                    RefOr::T(Schema::Object(object)) => Self::tag(object),
                    _ => None,
                })
                .collect();
            let Some(tags) = tags else {
                // An untagged union: serde reads the first variant that
                // fits, and a value may fit two (a redacted event and the
                // open one), which `anyOf` allows and `oneOf` does not.
                let mut any_of = AnyOfBuilder::new().description(one_of.description.clone());
                for item in std::mem::take(&mut one_of.items) {
                    any_of = any_of.item(item);
                }
                *schema = RefOr::T(Schema::AnyOf(any_of.build()));
                continue;
            };
            let mut mapping = std::collections::BTreeMap::new();
            for (item, tag) in one_of.items.iter_mut().zip(tags) {
                let name = format!("{union}{}", crate::games::wire_examples::camel(&tag));
                let variant = std::mem::replace(item, RefOr::Ref(Ref::from_schema_name(&name)));
                mapping.insert(tag, format!("#/components/schemas/{name}"));
                named.push((name, variant));
            }
            let mut discriminator = Discriminator::new("type");
            discriminator.mapping = mapping;
            one_of.discriminator = Some(discriminator);
        }
        components.schemas.extend(named);
    }
}

/// Adds `seq` and `at` to every event of `EventOut` (the variants of the
/// unions it joins, as `NamedVariants` named them): in the events feed each
/// event is one flat object, `{seq, type, data, at}`, and client
/// generators read flat objects best.
pub(super) struct EventFields;

impl EventFields {
    fn fields() -> [(&'static str, Object); 2] {
        let seq = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
            .minimum(Some(1))
            .description(Some(
                "Its position in the log (1-based); the game's version after it.",
            ))
            .build();
        let at = ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
            .description(Some("When it was recorded (RFC 3339 UTC, microseconds)."))
            .examples(["2026-11-23T10:00:00.000000Z"])
            .build();
        [("seq", seq), ("at", at)]
    }

    /// The names of the schemas `schema` joins (`anyOf`/`oneOf` of refs).
    fn members(schema: &RefOr<Schema>) -> Vec<String> {
        let items = match schema {
            RefOr::T(Schema::AnyOf(any)) => &any.items,
            RefOr::T(Schema::OneOf(one)) => &one.items,
            _ => return Vec::new(),
        };
        items
            .iter()
            .filter_map(|item| match item {
                RefOr::Ref(r) => r.ref_location.rsplit('/').next().map(str::to_owned),
                RefOr::T(_) => None,
            })
            .collect()
    }
}

impl Modify for EventFields {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        let mut pending = vec!["EventOut".to_owned()];
        let mut seen = std::collections::BTreeSet::new();
        while let Some(name) = pending.pop() {
            if !seen.insert(name.clone()) {
                continue;
            }
            let Some(schema) = components.schemas.get_mut(&name) else {
                continue;
            };
            match schema {
                RefOr::T(Schema::Object(event)) if event.properties.contains_key("type") => {
                    for (field, schema) in Self::fields() {
                        event
                            .properties
                            .insert(field.to_owned(), RefOr::T(Schema::Object(schema)));
                        event.required.push(field.to_owned());
                    }
                }
                union => pending.extend(Self::members(union)),
            }
        }
    }
}

/// Splits `Game` by ruleset: `HatsGame`, `GoatheadGame`, `HatTrickGame` and
/// `TopHatsGame` are `Game` with that ruleset's `view`, `legal_commands`,
/// `result` and `options`, and `Game` becomes their `oneOf` with a
/// `discriminator` on `ruleset`, so a generated client reads each game's
/// parts as its ruleset's types without being told.
pub(super) struct GamesByRuleset;

impl GamesByRuleset {
    /// (ruleset id, schema prefix) of every ruleset, as `/v1/rulesets` lists them.
    const RULESETS: [(&'static str, &'static str); 4] = [
        ("hats", "Hats"),
        ("goathead", "Goathead"),
        ("top-hats", "TopHats"),
        ("hat-trick", "HatTrick"),
    ];

    fn of(name: &str) -> RefOr<Schema> {
        RefOr::Ref(Ref::from_schema_name(name))
    }

    /// `game` for one ruleset.
    fn game(game: &Object, id: &str, prefix: &str) -> Object {
        let mut one = game.clone();
        let described = |property: &str| {
            game.properties.get(property).and_then(|p| match p {
                RefOr::T(Schema::Object(o)) => o.description.clone(),
                RefOr::Ref(r) => Some(r.description.clone()).filter(|d| !d.is_empty()),
                _ => None,
            })
        };
        let set = |one: &mut Object, property: &str, schema: RefOr<Schema>| {
            one.properties.insert(property.to_owned(), schema);
        };
        let ruleset = ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some([id]))
            .description(described("ruleset"));
        set(&mut one, "ruleset", ruleset.into());
        set(
            &mut one,
            "view",
            any_or_null([Self::of(&format!("{prefix}View"))]),
        );
        let commands = ArrayBuilder::new()
            .items(Self::of(&format!("{prefix}Command")))
            .description(described("legal_commands"));
        set(&mut one, "legal_commands", commands.into());
        let result = vec![
            Self::of(&format!("{prefix}Result")),
            Self::of("ForfeitResult"),
        ];
        set(&mut one, "result", any_or_null(result));
        set(
            &mut one,
            "options",
            Self::of(&format!("{prefix}GameOptions")),
        );
        one.description = Some(format!("A game of {id}, as the caller sees it."));
        one
    }
}

impl Modify for GamesByRuleset {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        let Some(RefOr::T(Schema::Object(game))) = components.schemas.get("Game").cloned() else {
            return;
        };
        let mut one_of = OneOfBuilder::new().description(game.description.clone());
        let mut mapping = std::collections::BTreeMap::new();
        for (id, prefix) in Self::RULESETS {
            let name = format!("{prefix}Game");
            components.schemas.insert(
                name.clone(),
                RefOr::T(Schema::Object(Self::game(&game, id, prefix))),
            );
            one_of = one_of.item(Self::of(&name));
            mapping.insert(id.to_owned(), format!("#/components/schemas/{name}"));
        }
        let mut discriminator = Discriminator::new("ruleset");
        discriminator.mapping = mapping;
        let one_of = one_of.discriminator(Some(discriminator));
        components.schemas.insert("Game".to_owned(), one_of.into());
    }
}

/// Gives the engines' wire types real examples (`wire_examples`).
pub(super) struct Examples;

impl Modify for Examples {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        for (name, example) in crate::games::wire_examples::examples() {
            if let Some(RefOr::T(Schema::Object(schema))) = components.schemas.get_mut(name) {
                schema.examples = vec![example.clone()];
            }
        }
    }
}

/// Names the item of each Server-Sent Events stream: the `data` of every
/// message is one `EventOut` (a game's stream) or `WebhookPayload` (the
/// caller's notifications). OpenAPI 3.1 has no place for it (3.2's
/// `itemSchema`), so it is the extension `x-item-schema` beside the
/// string body; the response's description gives the frame format.
pub(super) struct StreamItems;

impl Modify for StreamItems {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for (path, item) in [
            ("/v1/games/{id}/stream", "EventOut"),
            ("/v1/me/stream", "WebhookPayload"),
        ] {
            let Some(operation) = openapi
                .paths
                .paths
                .get_mut(path)
                .and_then(|p| p.get.as_mut())
            else {
                continue;
            };
            let Some(RefOr::T(ok)) = operation.responses.responses.get_mut("200") else {
                continue;
            };
            if let Some(RefOr::T(stream)) = ok.content.get_mut("text/event-stream") {
                let reference =
                    serde_json::json!({ "$ref": format!("#/components/schemas/{item}") });
                stream
                    .extensions
                    .get_or_insert_with(Default::default)
                    .insert("x-item-schema".to_owned(), reference);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_split_for_every_ruleset_and_only_those() {
        let split: Vec<&str> = GamesByRuleset::RULESETS.iter().map(|(id, _)| *id).collect();
        let engines: Vec<&str> = hatstand_engine::GameKind::ALL
            .iter()
            .map(|k| k.id())
            .collect();
        assert_eq!(split, engines);
    }
}
