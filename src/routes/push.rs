//! Web Push (docs/push.md): the server's VAPID public key, and the
//! caller's push subscriptions, one per device.

use actix_web::{HttpResponse, delete, get, post, web};

use super::problem::problems;
use super::{Answer, Id, Reply, State};
use crate::auth::Caller;
use crate::push::{self, NewPushSubscription, PushKey, PushSubscription};

/// The server's VAPID public key (RFC 8292): the `applicationServerKey` a
/// page gives `pushManager.subscribe`. Made on the server's first start and
/// kept in its database; the same for every caller.
#[utoipa::path(
    operation_id = "get_push_key", tag = "notifications",
    responses((status = 200, description = "The VAPID public key", body = PushKey))
)]
#[get("/push/key")]
pub async fn key(state: State) -> Reply<PushKey> {
    Ok(web::Json(push::key(&state)))
}

/// Registers a device's push subscription (`PushSubscription.toJSON()`):
/// each of the caller's notifications (`your_turn`, a `reminder` when a
/// quarter of a turn's time is left, `invited`, `game_finished`, `talk`)
/// is pushed to it, encrypted (RFC 8291), with `{game, version, kind,
/// text}` only. An endpoint the caller registered already gets the new
/// keys (200); at most 10 per user.
#[utoipa::path(
    operation_id = "create_push_subscription", tag = "notifications",
    request_body = NewPushSubscription, security(("bearer" = [])),
    responses(
        (status = 201, description = "Registered", body = PushSubscription),
        (status = 200, description = "The endpoint was registered already: its keys are replaced", body = PushSubscription),
        CreatePushSubscriptionProblems
    )
)]
#[post("/me/push-subscriptions")]
pub async fn create(
    state: State,
    caller: Caller,
    body: super::strict_json::Json<NewPushSubscription>,
) -> Answer {
    let registered = push::subscribe(&state, &caller, body.into_inner()).await?;
    Ok(if registered.created {
        HttpResponse::Created().json(registered.subscription)
    } else {
        HttpResponse::Ok().json(registered.subscription)
    })
}

/// The caller's push subscriptions, oldest first.
#[utoipa::path(
    operation_id = "list_push_subscriptions", tag = "notifications", security(("bearer" = [])),
    responses((status = 200, description = "The caller's push subscriptions", body = Vec<PushSubscription>))
)]
#[get("/me/push-subscriptions")]
pub async fn list(state: State, caller: Caller) -> Reply<Vec<PushSubscription>> {
    Ok(web::Json(push::list(&state, &caller).await?))
}

/// Deletes one of the caller's push subscriptions; what it had still to
/// get is dropped.
#[utoipa::path(
    operation_id = "delete_push_subscription", tag = "notifications",
    params(("id" = Uuid, Path, description = "The subscription id")),
    security(("bearer" = [])),
    responses((status = 204, description = "Deleted"), DeletePushSubscriptionProblems)
)]
#[delete("/me/push-subscriptions/{id}")]
pub async fn remove(state: State, caller: Caller, id: Id) -> Answer {
    push::unsubscribe(&state, &caller, id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}

problems! {
    /// What `create_push_subscription` answers besides the common problems.
    CreatePushSubscriptionProblems {
        InvalidPushSubscription: "the endpoint is not https://, or names a non-public address; the keys are not a P-256 public key and a 16-byte secret; a token is malformed, or given with an endpoint",
        UnknownChannel: "the channel is not web, fcm or apns",
        PushChannelNotConfigured: "the server does not push over this channel (fcm or apns unset)",
        TooManyPushSubscriptions,
    }
    /// What `delete_push_subscription` answers besides the common problems.
    DeletePushSubscriptionProblems { BadRequest: "malformed id" }
}
