//! The OpenAPI document, built from the same route registrations that serve.
//! `hatstand openapi` writes it to `openapi/openapi.json`; a test fails when
//! the committed file differs. What utoipa derives is then finished by
//! modifiers: the problems every kind of operation answers (`problems`) and
//! the shape of the engines' wire types (`wire`).

use std::sync::LazyLock;

use actix_web::App;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_actix_web::AppExt;

mod problems;
mod wire;

use problems::CommonProblems;
use wire::{EventFields, Examples, GamesByRuleset, NamedVariants, StreamItems};

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
        (name = "email", description = "Play by email: an address confirmed by a mailed code, which mails to send (turn, reminder, invitation, game over: immediately, in a daily digest, or never), and one-click unsubscribe. A turn mail lists the legal moves with codes; replying with one on the first line plays it"),
        (name = "audit", description = "Audits and step-through replays"),
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
