//! Events in the document: every event a client reads, in the feed, the
//! streams and the audit, is one named schema picked by one field.
//!
//! - The feed and a game's stream (`EventOut`): each event carries `kind`,
//!   its type qualified by its ruleset (`hats.dealt`; a server event's
//!   type as it is: `game_created`), and `EventOut` is a `oneOf` of one
//!   schema per `kind` with a `discriminator` on it. `type` alone is not
//!   enough: `dealt` is an event of three rulesets, each with its own data.
//!   Each ruleset's events are also its own union on `type`
//!   (`HatsEventView`). Top Hats shows `stack_built` and `position_set`
//!   only redacted (`TopHatsEventViewStackBuilt`: a height, `under` only
//!   for its builder); their unredacted form is the audit's
//!   (`TopHatsAuditEventStackBuilt`).
//! - The audit: an audit names its ruleset, and its events are that
//!   ruleset's `<Ruleset>AuditEvent`, a `oneOf` on `type` of the server's
//!   events and the ruleset's, unredacted, each with its hash chain and the
//!   ruleset's command that caused it. Audits are served byte for byte as
//!   they were recorded, so they gain no field.

use std::collections::BTreeSet;

use utoipa::Modify;
use utoipa::openapi::schema::{
    AnyOfBuilder, KnownFormat, Object, ObjectBuilder, Schema, SchemaFormat, Type,
};
use utoipa::openapi::{Components, RefOr};

use super::shape::{RULESETS, described, object, one_of_by, only, tag, variants, with_description};
use crate::games::wire_examples::camel;
use crate::games::wire_types::any_or_null;

/// The engines' event unions, in their unredacted form: only the audit
/// shows them, as its own events (`AuditEvents`).
const ENGINE_EVENTS: [&str; 5] = [
    "HatsEvent",
    "GoatheadEvent",
    "HatTrickEvent",
    "TopHatsEvent",
    "TopHatsHiddenEvent",
];

/// Builds each ruleset's audit events (`HatsAuditEvent`: the server's
/// events and the ruleset's, unredacted, with the audit's fields) and
/// `AuditEvent`, any of them. Runs before `EventKinds`, which gives the
/// server's events the feed's fields.
pub(super) struct AuditEvents;

impl AuditEvents {
    /// `variant` (`{type, data}`) as the audit shows it: with every field of
    /// `base` (the generic `AuditEvent`) besides `type` and `data`, and
    /// `command` as given.
    fn audited(base: &Object, variant: &Object, command: RefOr<Schema>) -> Object {
        let mut audited = variant.clone();
        for (name, schema) in &base.properties {
            if name != "type" && name != "data" {
                audited.properties.insert(name.clone(), schema.clone());
            }
        }
        audited.properties.insert(
            "command".to_owned(),
            with_description(command, described(base, "command")),
        );
        for name in &base.required {
            if !audited.required.contains(name) {
                audited.required.push(name.clone());
            }
        }
        audited
    }
}

impl Modify for AuditEvents {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        let Some(base) = object(components, "AuditEvent") else {
            return;
        };
        // The server's events are the same in every ruleset and are never
        // caused by a command.
        let mut server = Vec::new();
        for name in variants(components, "ServerEvent") {
            let Some(variant) = object(components, &name) else {
                continue;
            };
            let Some(kind) = tag(&variant, "type") else {
                continue;
            };
            let none = ObjectBuilder::new()
                .schema_type(Type::Null)
                .description(Some("Always null: the server's events answer no command."));
            let audited = Self::audited(&base, &variant, none.into());
            let name = format!("AuditEvent{}", camel(&kind));
            components
                .schemas
                .insert(name.clone(), RefOr::T(Schema::Object(audited)));
            server.push((kind, name));
        }
        let mut any = AnyOfBuilder::new().description(base.description.clone());
        for (_, prefix) in RULESETS {
            let mut names = server.clone();
            let command = any_or_null([super::shape::of(&format!("{prefix}Command"))]);
            for name in variants(components, &format!("{prefix}Event")) {
                let Some(variant) = object(components, &name) else {
                    continue;
                };
                let Some(kind) = tag(&variant, "type") else {
                    continue;
                };
                let audited = Self::audited(&base, &variant, command.clone());
                let name = format!("{prefix}AuditEvent{}", camel(&kind));
                components
                    .schemas
                    .insert(name.clone(), RefOr::T(Schema::Object(audited)));
                names.push((kind, name));
            }
            let union = format!("{prefix}AuditEvent");
            let description = format!(
                "An event of a {prefix} game as its audit shows it: unredacted, with its hash \
                 chain; `type` tells which."
            );
            components
                .schemas
                .insert(union.clone(), one_of_by("type", &names, Some(description)));
            any = any.item(super::shape::of(&union));
        }
        components
            .schemas
            .insert("AuditEvent".to_owned(), any.into());
    }
}

/// Gives every event of the feed its `seq`, `at` and `kind`, names each
/// ruleset's feed events `<Ruleset>EventView<Type>`, and makes `EventOut`
/// their `oneOf` on `kind`.
pub(super) struct EventKinds;

impl EventKinds {
    fn fields(kind: &str) -> [(&'static str, RefOr<Schema>); 3] {
        let seq = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
            .minimum(Some(1))
            .description(Some(
                "Its position in the log (1-based); the game's version after it.",
            ));
        let at = ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
            .description(Some("When it was recorded (RFC 3339 UTC, microseconds)."))
            .examples(["2026-11-23T10:00:00.000000Z"]);
        let kind = only(
            kind,
            Some(
                "The event's type qualified by its ruleset (`hats.dealt`; a server event's \
                 type as it is: `game_created`): one value per shape of `data`, so a client \
                 tells events apart by this field alone."
                    .to_owned(),
            ),
        );
        [("seq", seq.into()), ("at", at.into()), ("kind", kind)]
    }

    /// `variant` with the feed's fields, its `kind` being `kind`.
    fn in_feed(mut variant: Object, kind: &str) -> Object {
        for (field, schema) in Self::fields(kind) {
            variant.properties.insert(field.to_owned(), schema);
            if !variant.required.iter().any(|r| r == field) {
                variant.required.push(field.to_owned());
            }
        }
        variant
    }

    /// Each feed event of a ruleset as (`type`, the schema it comes from):
    /// where a union joins two forms of a type (Top Hats' open and hidden
    /// events), the last one, which is what the feed shows.
    fn sources(components: &Components, union: &str) -> Vec<(String, String)> {
        let mut sources: Vec<(String, String)> = Vec::new();
        for name in variants(components, union) {
            let Some(kind) = object(components, &name).and_then(|o| tag(&o, "type")) else {
                continue;
            };
            match sources.iter_mut().find(|(k, _)| *k == kind) {
                Some(slot) => slot.1 = name,
                None => sources.push((kind, name)),
            }
        }
        sources
    }
}

impl Modify for EventKinds {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        let mut all = Vec::new();
        for name in variants(components, "ServerEvent") {
            let Some(variant) = object(components, &name) else {
                continue;
            };
            let Some(kind) = tag(&variant, "type") else {
                continue;
            };
            let variant = Self::in_feed(variant, &kind);
            components
                .schemas
                .insert(name.clone(), RefOr::T(Schema::Object(variant)));
            all.push((kind, name));
        }
        let mut retired = BTreeSet::new();
        for union in ENGINE_EVENTS {
            retired.extend(variants(components, union));
            retired.insert(union.to_owned());
        }
        for (id, prefix) in RULESETS {
            let union = format!("{prefix}EventView");
            let description = match components.schemas.get(&union) {
                Some(RefOr::T(Schema::OneOf(one))) => one.description.clone(),
                Some(RefOr::T(Schema::AnyOf(any))) => any.description.clone(),
                _ => None,
            };
            let mut names = Vec::new();
            for (kind, source) in Self::sources(components, &union) {
                let Some(variant) = object(components, &source) else {
                    continue;
                };
                let qualified = crate::games::events::qualified(id, &kind);
                let name = format!("{union}{}", camel(&kind));
                let variant = Self::in_feed(variant, &qualified);
                components
                    .schemas
                    .insert(name.clone(), RefOr::T(Schema::Object(variant)));
                names.push((kind, name.clone()));
                all.push((qualified, name));
            }
            components
                .schemas
                .insert(union, one_of_by("type", &names, description));
        }
        for name in retired {
            if !all.iter().any(|(_, kept)| *kept == name) {
                components.schemas.remove(&name);
            }
        }
        let description = "An event as this viewer may see it: its `seq` and `at`, its `type` \
                           and `data`, and `kind`, which names its schema: a server event's \
                           type (`game_created`, `player_joined`, ...: `ServerEvent`), or the \
                           ruleset's event type qualified by the ruleset (`hats.dealt`, \
                           `goathead.dealt`, `top-hats.stack_built`: `HatsEventView`, \
                           `GoatheadEventView`, `HatTrickEventView`, `TopHatsEventView`).";
        components.schemas.insert(
            "EventOut".to_owned(),
            one_of_by("kind", &all, Some(description.to_owned())),
        );
    }
}
