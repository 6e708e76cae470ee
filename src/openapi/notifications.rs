//! Notifications in the document: `WebhookPayload` (a webhook's body, an
//! item of `/v1/me/notifications` and of `/v1/me/stream`) is a `oneOf` on
//! `type`, one schema per kind (`WebhookPayloadYourTurn`), whose `data` is
//! that kind's payload (`YourTurnData`), derived from `Notification`.

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;
use utoipa::{Modify, PartialSchema, ToSchema};

use super::shape::{described, object, of, one_of_by, only, tag, with_description};
use crate::games::wire_examples::camel;
use crate::notifications::Notification;

pub(super) struct Notifications;

impl Modify for Notifications {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        let Some(base) = object(components, "WebhookPayload") else {
            return;
        };
        let items = match Notification::schema() {
            RefOr::T(Schema::OneOf(one)) => one.items,
            RefOr::T(Schema::AnyOf(any)) => any.items,
            _ => return,
        };
        let mut referred = Vec::new();
        Notification::schemas(&mut referred);
        for (name, schema) in referred {
            components.schemas.entry(name).or_insert(schema);
        }
        let mut names = Vec::new();
        for item in items {
            let RefOr::T(Schema::Object(variant)) = item else {
                continue;
            };
            let (Some(kind), Some(payload)) =
                (tag(&variant, "kind"), variant.properties.get("payload"))
            else {
                continue;
            };
            let data = format!("{}Data", camel(&kind));
            components.schemas.insert(
                data.clone(),
                with_description(payload.clone(), variant.description.clone()),
            );
            let mut one = base.clone();
            one.properties
                .insert("type".to_owned(), only(&kind, described(&base, "type")));
            one.properties.insert(
                "data".to_owned(),
                with_description(of(&data), described(&base, "data")),
            );
            one.description = Some(match &variant.description {
                Some(what) => format!("A notification `{kind}`: {what}"),
                None => format!("A notification `{kind}`."),
            });
            let name = format!("WebhookPayload{}", camel(&kind));
            components
                .schemas
                .insert(name.clone(), RefOr::T(Schema::Object(one)));
            names.push((kind, name));
        }
        components.schemas.insert(
            "WebhookPayload".to_owned(),
            one_of_by("type", &names, base.description.clone()),
        );
    }
}
