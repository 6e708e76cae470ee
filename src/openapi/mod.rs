//! The OpenAPI document, built from the same route registrations that serve.
//! `hatstand openapi` writes it to `openapi/openapi.json`; a test fails when
//! the committed file differs. What utoipa derives is then finished by
//! modifiers: the problems every kind of operation answers (`problems`),
//! the shape of the engines' wire types (`wire`), events a client tells
//! apart by one field (`events`), answers split by ruleset (`by_ruleset`),
//! notifications by kind (`notifications`) and the strings a request holds
//! without NUL (`strings`). Every answer is typed to
//! its leaves: a test fails on an object schema that says nothing of its
//! fields.

use std::sync::LazyLock;

use actix_web::App;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_actix_web::AppExt;

mod by_ruleset;
mod events;
mod notifications;
mod problems;
mod shape;
mod strings;
mod wire;

use by_ruleset::ByRuleset;
use events::{AuditEvents, EventKinds};
use notifications::Notifications;
use problems::CommonProblems;
use strings::NoNul;
use wire::{DocumentOnly, Examples, NamedVariants, NotModified, StreamItems};

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
        (name = "games", description = "Creating, joining, reading and playing games; seating the built-in bots (`random`, `greedy`, `ismcts`)"),
        (name = "users", description = "Public profiles (`kind`: `human` or `bot`) and bot accounts: players' own programs, labelled as bots"),
        (name = "notifications", description = "Your turn, game over, invitations: notifications, their stream, and webhooks"),
        (name = "email", description = "Play by email: an address confirmed by a mailed code, which mails to send (turn, reminder, invitation, game over, talk, a substitute, a tournament's round and end: immediately, in a daily digest, or never), and one-click unsubscribe. A turn mail lists the legal moves with codes; replying with one on the first line plays it"),
        (name = "talk", description = "Table talk: messages to the whole table, to chosen seats (press, when the game allows it) and in the spectators' room; mutes, reports, and an operator's hiding of a reported message (docs/talk.md)"),
        (name = "audit", description = "Audits and step-through replays"),
        (name = "ratings", description = "Ratings per ruleset and table size (Glicko-2 for two seats, Weng-Lin for more and for teams), each game's changes, players' histories and the leaderboards (docs/ratings.md)"),
        (name = "tournaments", description = "Tournaments: round robin, Swiss and elimination, with duplicate deals for the card games; created by an organiser, registered for until registration closes (docs/tournaments.md)"),
        (name = "turns", description = "Turn conveniences: the caller's settings, such as having the server play forced moves (a seat with exactly one legal command) at once (docs/turn-conveniences.md)"),
        (name = "service", description = "Health and metrics"),
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

/// The complete OpenAPI document. It is built once per process (every
/// server worker, the fallback route and the tests ask for it).
#[must_use]
pub fn document() -> utoipa::openapi::OpenApi {
    static DOCUMENT: LazyLock<utoipa::openapi::OpenApi> = LazyLock::new(build);
    DOCUMENT.clone()
}

fn build() -> utoipa::openapi::OpenApi {
    let (_, mut api) = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(crate::routes::configure)
        .split_for_parts();
    CommonProblems.modify(&mut api);
    DocumentOnly.modify(&mut api);
    NamedVariants.modify(&mut api);
    // The audit's events are copied from the events as they are, before
    // the feed's fields are added to the server's.
    AuditEvents.modify(&mut api);
    EventKinds.modify(&mut api);
    ByRuleset.modify(&mut api);
    Notifications.modify(&mut api);
    Examples.modify(&mut api);
    StreamItems.modify(&mut api);
    NotModified.modify(&mut api);
    NoNul.modify(&mut api);
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
    use serde_json::Value;

    /// Where `schema` (at `path`) or a schema in it is an object that says
    /// nothing of its fields (no `properties`, no `additionalProperties`,
    /// no union): a generated client types it `Record<string, never>` or
    /// `any`.
    fn untyped(schema: &Value, path: &str, found: &mut Vec<String>) {
        match schema {
            Value::Object(map) => {
                let types = match map.get("type") {
                    Some(Value::String(one)) => vec![one.as_str()],
                    Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
                    _ => Vec::new(),
                };
                let said = [
                    "properties",
                    "additionalProperties",
                    "oneOf",
                    "anyOf",
                    "allOf",
                    "$ref",
                ]
                .iter()
                .any(|key| map.contains_key(*key));
                if types.contains(&"object") && !said {
                    found.push(path.to_owned());
                }
                for (key, value) in map {
                    if !matches!(key.as_str(), "example" | "examples" | "default" | "enum") {
                        untyped(value, &format!("{path}/{key}"), found);
                    }
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    untyped(item, &format!("{path}/{i}"), found);
                }
            }
            _ => {}
        }
    }

    #[test]
    fn no_schema_is_an_object_without_fields() {
        let document = serde_json::to_value(super::document()).unwrap();
        let mut found = Vec::new();
        untyped(&document, "#", &mut found);
        assert!(found.is_empty(), "untyped objects: {found:#?}");
    }

    #[test]
    fn the_check_finds_an_untyped_object() {
        let mut found = Vec::new();
        let schema = serde_json::json!({"properties": {"data": {"type": ["object", "null"]}}});
        untyped(&schema, "#", &mut found);
        assert_eq!(found, ["#/properties/data"]);
    }

    /// Every variant of a union with a `discriminator` has the
    /// discriminating property as a one-value enum (what TypeScript narrows
    /// on), the value its mapping names it by.
    #[test]
    fn every_discriminated_variant_has_its_one_value() {
        let document = serde_json::to_value(super::document()).unwrap();
        let schemas = document["components"]["schemas"].as_object().unwrap();
        let mut unions = 0;
        for (union, schema) in schemas {
            let Some(discriminator) = schema.get("discriminator") else {
                continue;
            };
            unions += 1;
            let field = discriminator["propertyName"].as_str().unwrap();
            let mapping = discriminator["mapping"].as_object().unwrap();
            assert_eq!(
                mapping.len(),
                schema["oneOf"].as_array().unwrap().len(),
                "{union}"
            );
            for (value, target) in mapping {
                let name = target.as_str().unwrap().rsplit('/').next().unwrap();
                let variant = &schemas[name];
                assert_eq!(
                    variant["properties"][field]["enum"],
                    serde_json::json!([value]),
                    "{union}: {name}.{field}"
                );
                let required = variant["required"].as_array().unwrap();
                assert!(required.contains(&Value::from(field)), "{union}: {name}");
            }
        }
        assert!(unions >= 20, "{unions} discriminated unions");
    }

    /// Every event a client reads is told apart by one field: the feed's by
    /// `kind`, a ruleset's audit events by `type`; `dealt` is three
    /// rulesets' events, each its own schema.
    #[test]
    fn events_are_told_apart_by_one_field() {
        let document = serde_json::to_value(super::document()).unwrap();
        let schemas = &document["components"]["schemas"];
        let feed = &schemas["EventOut"]["discriminator"]["mapping"];
        assert_eq!(
            feed["hats.dealt"],
            "#/components/schemas/HatsEventViewDealt"
        );
        assert_eq!(
            feed["goathead.dealt"],
            "#/components/schemas/GoatheadEventViewDealt"
        );
        assert_eq!(
            feed["game_created"],
            "#/components/schemas/ServerEventGameCreated"
        );
        assert_eq!(
            feed["top-hats.stack_built"],
            "#/components/schemas/TopHatsEventViewStackBuilt"
        );
        let audit = &schemas["TopHatsAuditEvent"]["discriminator"]["mapping"];
        assert_eq!(
            audit["stack_built"],
            "#/components/schemas/TopHatsAuditEventStackBuilt"
        );
        // The feed's Top Hats stack shows a height, the audit's what is under it.
        let shown = &schemas["TopHatsEventViewStackBuilt"]["properties"]["data"];
        assert!(shown["properties"].get("height").is_some(), "{shown}");
        let audited = &schemas["TopHatsAuditEventStackBuilt"]["properties"]["data"];
        assert!(audited["properties"].get("height").is_none(), "{audited}");
        assert_eq!(
            schemas["WebhookPayload"]["discriminator"]["mapping"]["your_turn"],
            "#/components/schemas/WebhookPayloadYourTurn"
        );
    }

    /// A `304 Not Modified` has no body.
    #[test]
    fn not_modified_has_no_body() {
        let document = serde_json::to_value(super::document()).unwrap();
        let mut answered = 0;
        for item in document["paths"].as_object().unwrap().values() {
            for operation in item.as_object().unwrap().values() {
                if let Some(not_modified) = operation["responses"].get("304") {
                    answered += 1;
                    assert!(not_modified.get("content").is_none(), "{not_modified}");
                }
            }
        }
        assert!(answered > 0);
    }
}
