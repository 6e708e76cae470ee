//! The OpenAPI document, built from the same route registrations that serve.
//! `hatstand openapi` writes it to `openapi/openapi.json`; a test fails when
//! the committed file differs.

use actix_web::App;
use utoipa::openapi::path::Operation;
use utoipa::openapi::schema::{
    AnyOfBuilder, ArrayBuilder, Discriminator, KnownFormat, Object, ObjectBuilder, OneOfBuilder,
    Schema, SchemaFormat, Type,
};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{Modify, OpenApi};
use utoipa_actix_web::AppExt;

/// The document's fixed parts; paths and schemas come from the routes.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "hatstand",
        description = "A turn-based, asynchronous game server for four hat-themed games \
                       (Hats, Goathead, Top Hats, Hat Trick). Play by mail: read a game, \
                       post one of its `legal_commands` with the version you read, and \
                       long-poll its events (or check `/v1/me/games?turn=mine`) for your next turn. \
                       Every game is an append-only, hash-chained event log whose audit \
                       anyone can verify. Errors are RFC 9457 problem+json with a stable `code`.",
        license(name = "MIT")
    ),
    modifiers(&BearerAuth),
    tags(
        (name = "auth", description = "Accounts and sign-in sessions: a short-lived access token (15 minutes) and a refresh token that rotates on every use (30 days without use). Sign out one device or all; a password change signs out the others."),
        (name = "rulesets", description = "What can be played"),
        (name = "games", description = "Creating, joining, reading and playing games"),
        (name = "notifications", description = "Your turn, game over, invitations: notifications, their stream, and webhooks"),
        (name = "audit", description = "Audits and step-through replays"),
        (name = "service", description = "Health"),
    )
)]
pub struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .description(Some("An access token from POST /v1/auth/login or /v1/auth/refresh; refused once its session is signed out"))
                    .build(),
            ),
        );
    }
}

/// The problems any operation of a kind can answer, declared once here
/// rather than on every route (a route's own, more specific description of
/// the same status wins; a route declares its own with `problems!`):
/// - `400 bad_request` where there are parameters or a body to get wrong;
/// - `401 unauthenticated` and `429 rate_limited` where a token is taken
///   (where it is optional, the 401 says a spectator sends none);
/// - `404 not_found` where the path names something;
/// - `413 payload_too_large` on every `POST` (a body-less one refuses a body too);
/// - `500 internal` everywhere, `503 unavailable` wherever the database is used.
struct CommonProblems;

impl CommonProblems {
    fn add(operation: &mut Operation, status: &str, description: &str) {
        operation
            .responses
            .responses
            .entry(status.to_owned())
            .or_insert_with(|| RefOr::T(crate::routes::problem::problem_response(description)));
    }
}

impl Modify for CommonProblems {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for (path, item) in &mut openapi.paths.paths {
            let named = path.contains('{');
            let database = path != "/healthz";
            let methods = [
                (&mut item.get, false),
                (&mut item.post, true),
                (&mut item.delete, false),
            ];
            for (operation, post) in methods {
                let Some(operation) = operation.as_mut() else {
                    continue;
                };
                let takes_token = serde_json::to_string(&operation.security)
                    .is_ok_and(|security| security.contains("bearer"));
                let has_input =
                    post || named || operation.parameters.as_ref().is_some_and(|p| !p.is_empty());
                if has_input {
                    Self::add(operation, "400", "`bad_request`");
                }
                if takes_token {
                    let optional = serde_json::to_string(&operation.security)
                        .is_ok_and(|security| security.contains("{}"));
                    Self::add(
                        operation,
                        "401",
                        if optional {
                            "`unauthenticated`: a token was sent and is not valid (send none to be served as a spectator)"
                        } else {
                            "`unauthenticated`"
                        },
                    );
                    Self::add(operation, "429", "`rate_limited`");
                }
                if named {
                    Self::add(operation, "404", "`not_found`");
                }
                if post {
                    Self::add(operation, "413", "`payload_too_large`");
                }
                Self::add(operation, "500", "`internal`");
                if database {
                    Self::add(operation, "503", "`unavailable`");
                }
            }
        }
    }
}

/// Names the variants of the tagged unions (`oneOf` of inline objects each
/// with a one-value `type`, as serde's tagged enums come out), and writes
/// the untagged ones (serde's `untagged`, a `oneOf` of others) as `anyOf`.
/// For the tagged ones:
/// each variant becomes the component `<Union><Type>` (`HatsCommand` +
/// `discard_draw` = `HatsCommandDiscardDraw`), and the union gains a
/// `discriminator` on `type` mapping each value to it. Generated clients
/// then get one named class per command instead of `HatsCommandType0`.
struct NamedVariants;

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
struct EventFields;

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
struct GamesByRuleset;

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

    fn or_null(items: Vec<RefOr<Schema>>) -> RefOr<Schema> {
        let mut any = AnyOfBuilder::new();
        for item in items {
            any = any.item(item);
        }
        any.item(ObjectBuilder::new().schema_type(Type::Null))
            .into()
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
            Self::or_null(vec![Self::of(&format!("{prefix}View"))]),
        );
        let commands = ArrayBuilder::new()
            .items(Self::of(&format!("{prefix}Command")))
            .description(described("legal_commands"));
        set(&mut one, "legal_commands", commands.into());
        let result = vec![
            Self::of(&format!("{prefix}Result")),
            Self::of("ForfeitResult"),
        ];
        set(&mut one, "result", Self::or_null(result));
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
struct Examples;

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
struct StreamItems;

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

/// The complete OpenAPI document.
#[must_use]
pub fn document() -> utoipa::openapi::OpenApi {
    let (_, mut api) = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(crate::routes::configure)
        .split_for_parts();
    CommonProblems.modify(&mut api);
    NamedVariants.modify(&mut api);
    EventFields.modify(&mut api);
    GamesByRuleset.modify(&mut api);
    Examples.modify(&mut api);
    StreamItems.modify(&mut api);
    api
}

/// The document as committed: pretty JSON with a final newline.
///
/// # Errors
/// Only if serialization fails.
pub fn document_json() -> Result<String, serde_json::Error> {
    let mut text = serde_json::to_string_pretty(&document())?;
    text.push('\n');
    Ok(text)
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
