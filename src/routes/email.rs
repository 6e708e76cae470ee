//! `/v1/me/email`: the caller's address and mail preferences; and
//! `/v1/email/unsubscribe`, the one-click unsubscribe link of every mail.

use actix_web::web::Query;
use actix_web::{HttpResponse, delete, get, patch, post, put, web};
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

use super::problem::problems;
use super::{Answer, Reply, State};
use crate::auth::Caller;
use crate::mail::addresses::{self, Confirmation, EmailSettings, NewAddress, PreferenceChange};

/// The caller's email address and what they want mailed.
#[utoipa::path(
    operation_id = "get_email", tag = "email", security(("bearer" = [])),
    responses((status = 200, description = "The address and preferences", body = EmailSettings), GetEmailProblems)
)]
#[get("/me/email")]
pub async fn get_email(state: State, caller: Caller) -> Reply<EmailSettings> {
    Ok(web::Json(addresses::get(&state, &caller).await?))
}

/// Sets (or changes) the caller's address: it is unconfirmed until the
/// 8-digit code mailed to it is posted to `/v1/me/email/confirm` (within 24
/// hours), and gets no other mail until then. Preferences are kept. A user
/// is sent at most one code a minute, the address removed meanwhile or not.
#[utoipa::path(
    operation_id = "set_email", tag = "email", request_body = NewAddress, security(("bearer" = [])),
    responses((status = 200, description = "The address, unconfirmed; a code is on its way", body = EmailSettings), SetEmailProblems)
)]
#[put("/me/email")]
pub async fn set_email(
    state: State,
    caller: Caller,
    client: super::client::ClientAddress,
    body: super::strict_json::Json<NewAddress>,
) -> Reply<EmailSettings> {
    Ok(web::Json(
        addresses::set(&state, &caller, body.into_inner(), client.0).await?,
    ))
}

/// Confirms the caller's address with the code mailed to it (5 tries).
#[utoipa::path(
    operation_id = "confirm_email", tag = "email", request_body = Confirmation, security(("bearer" = [])),
    responses((status = 200, description = "The address, confirmed", body = EmailSettings), ConfirmEmailProblems)
)]
#[post("/me/email/confirm")]
pub async fn confirm_email(
    state: State,
    caller: Caller,
    body: super::strict_json::Json<Confirmation>,
) -> Reply<EmailSettings> {
    Ok(web::Json(
        addresses::confirm(&state, &caller, body.into_inner()).await?,
    ))
}

/// Changes when each kind of mail is sent (`immediately`, `digest`,
/// `never`), and the digest's hour and time zone; what is absent stays.
#[utoipa::path(
    operation_id = "change_email_preferences", tag = "email", request_body = PreferenceChange,
    security(("bearer" = [])),
    responses((status = 200, description = "The preferences now", body = EmailSettings), ChangeEmailProblems)
)]
#[patch("/me/email")]
pub async fn change_email(
    state: State,
    caller: Caller,
    body: super::strict_json::Json<PreferenceChange>,
) -> Reply<EmailSettings> {
    Ok(web::Json(
        addresses::change(&state, &caller, body.into_inner()).await?,
    ))
}

/// Removes the caller's address; mails not sent yet are dropped.
#[utoipa::path(
    operation_id = "remove_email", tag = "email", security(("bearer" = [])),
    responses((status = 204, description = "Removed"), GetEmailProblems)
)]
#[delete("/me/email")]
pub async fn remove_email(state: State, caller: Caller) -> Answer {
    addresses::remove(&state, &caller).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// An unsubscribe link, as every mail's `List-Unsubscribe` carries it.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UnsubscribeQuery {
    pub user: Uuid,
    /// `your_turn`, `reminder`, `invited`, `game_finished` or `digest`.
    pub kind: String,
    /// The link's signature.
    pub sig: String,
}

/// The page a person reaches by following an unsubscribe link: one button
/// that unsubscribes (a mail client's one-click unsubscribe POSTs directly).
#[utoipa::path(
    operation_id = "unsubscribe_page", tag = "email", params(UnsubscribeQuery),
    responses((status = 200, description = "A page with one button", content_type = "text/html", body = String))
)]
#[get("/email/unsubscribe")]
pub async fn unsubscribe_page(query: Query<UnsubscribeQuery>) -> HttpResponse {
    let q = query.into_inner();
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header((
            "Content-Security-Policy",
            "default-src 'none'; form-action 'self'",
        ))
        .body(addresses::unsubscribe_page(q.user, &q.kind, &q.sig))
}

/// One-click unsubscribe (RFC 8058): turns the link's kind of mail to
/// `never` (a digest's link: every kind in the digest). No session needed:
/// the link is signed.
#[utoipa::path(
    operation_id = "unsubscribe", tag = "email", params(UnsubscribeQuery),
    responses((status = 200, description = "Unsubscribed", content_type = "text/plain", body = String), UnsubscribeProblems)
)]
#[post("/email/unsubscribe")]
pub async fn unsubscribe(state: State, query: Query<UnsubscribeQuery>) -> Answer {
    let q = query.into_inner();
    addresses::unsubscribe(&state, &state.mail_secret, q.user, &q.kind, &q.sig).await?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .body("You will get no more of these mails.\n"))
}

problems! {
    /// What `get_email` and `remove_email` answer besides the common problems.
    GetEmailProblems { NotFound: "the caller has no address" }
    /// What `set_email` answers besides the common problems.
    SetEmailProblems {
        BadRequest: "not an email address",
        RateLimited: "a code was sent less than a minute ago",
        LimitReached: "too many codes asked for from this client address in the hour, or for this email address in the day",
    }
    /// What `confirm_email` answers besides the common problems.
    ConfirmEmailProblems {
        WrongCode: "a wrong or expired code, too many tries, or none pending",
        NotFound: "the caller has no address",
        Forbidden: "another account confirmed the address first",
    }
    /// What `change_email_preferences` answers besides the common problems.
    ChangeEmailProblems {
        BadRequest: "a reminder in digest mode, an hour over 23 or an unknown time zone",
        NotFound: "the caller has no address",
    }
    /// What `unsubscribe` answers besides the common problems.
    UnsubscribeProblems { NotFound: "not a link of this server, or the address is gone" }
}
