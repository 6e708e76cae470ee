//! The shape of the engines' wire types in the document: named variants
//! behind discriminators, examples, the items of the event streams, and
//! answers without a body.

use utoipa::Modify;
use utoipa::openapi::schema::{AnyOfBuilder, Discriminator, Object, Schema};
use utoipa::openapi::{Ref, RefOr};

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
        super::shape::tag(object, "type")
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

/// Adds the schemas only the modifiers refer to (`wire_types::document_only`).
pub(super) struct DocumentOnly;

impl Modify for DocumentOnly {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        for (name, schema) in crate::games::wire_types::document_only() {
            components.schemas.entry(name).or_insert(schema);
        }
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

/// Makes every `304 Not Modified` an answer without a body: HTTP gives it
/// none, and a generated client must not be told to read one.
pub(super) struct NotModified;

impl Modify for NotModified {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for item in openapi.paths.paths.values_mut() {
            let operations = [
                &mut item.get,
                &mut item.head,
                &mut item.post,
                &mut item.put,
                &mut item.patch,
                &mut item.delete,
            ];
            for operation in operations.into_iter().flatten() {
                if let Some(RefOr::T(response)) = operation.responses.responses.get_mut("304") {
                    response.content.clear();
                }
            }
        }
    }
}
