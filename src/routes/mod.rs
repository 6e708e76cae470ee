//! The HTTP routes: one module per resource, one thin function per endpoint
//! (parse, call one application function, map the result), each with its
//! OpenAPI description beside it.

pub mod app_state;
pub mod audit;
pub mod auth;
pub mod blocks;
pub mod caller;
pub mod client;
pub mod commands;
pub mod conditional;
pub mod email;
pub mod events;
pub mod fallback;
pub mod games;
pub mod me;
pub mod notification_preferences;
pub mod pause;
pub mod problem;
pub mod push;
pub mod ratings;
pub mod rematch;
pub mod request;
pub mod rulesets;
pub mod seats;
pub mod service;
pub mod sse;
pub mod strict_json;
pub mod tags;
pub mod takeback;
pub mod talk;
pub mod tournaments;
pub mod transparency;
pub mod turns;
pub mod users;

use actix_web::http::header;
use actix_web::middleware::DefaultHeaders;
use actix_web::{HttpResponse, web};
use utoipa_actix_web::scope;
use uuid::Uuid;

use crate::routes::app_state::AppState;
use problem::ApiError;

/// The application state, as a handler takes it.
pub type State = web::Data<AppState>;
/// The id a path names (a game's, a webhook's).
pub type Id = web::Path<Uuid>;
/// The game a path names, as the OpenAPI document declares it (handlers
/// take it as an [`Id`]).
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
pub struct GamePath {
    /// The game id
    pub id: Uuid,
}

/// A JSON answer, or a problem.
pub type Reply<T> = Result<web::Json<T>, ApiError>;
/// Any other answer (a status alone, headers, a stream), or a problem.
pub type Answer = Result<HttpResponse, ApiError>;
use utoipa_actix_web::service_config::ServiceConfig;

/// Registers every documented route.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(service::healthz)
        .service(service::readyz)
        .service(service::metrics)
        // Records (#48): the signing keys at their well-known address.
        .service(transparency::signing_keys)
        .service(
            scope("/v1")
                // Answers differ by viewer unless a handler says otherwise:
                // by default none is stored by any cache (see `tags`).
                .wrap(
                    DefaultHeaders::new()
                        .add((header::CACHE_CONTROL, tags::Privacy::Hidden.cache_control()))
                        .add((header::VARY, "Authorization")),
                )
                // The two requests of every move first: actix tries the
                // routes in this order, each pattern with a path parameter
                // by a regular expression, and no route above them could
                // match their paths (see docs/performance.md).
                .service(commands::submit)
                .service(games::get)
                .service(auth::register)
                .service(auth::login)
                .service(auth::refresh)
                .service(auth::logout)
                .service(auth::logout_all)
                .service(auth::change_password)
                .service(rulesets::list)
                .service(games::create)
                .service(games::list)
                .service(games::log)
                .service(games::join)
                .service(games::add_bot)
                .service(games::decline)
                .service(games::cancel)
                .service(games::resign)
                .service(games::vacation)
                .service(pause::propose)
                .service(pause::vote)
                .service(pause::resume)
                .service(games::stream)
                .service(events::list)
                .service(audit::audit)
                .service(audit::state_at)
                .service(transparency::head)
                .service(transparency::heads)
                .service(transparency::consistency)
                .service(transparency::inclusion)
                .service(me::games)
                .service(me::export_games)
                .service(me::notifications)
                .service(me::stream)
                .service(me::create_webhook)
                .service(me::list_webhooks)
                .service(me::delete_webhook)
                // Web Push (docs/push.md).
                .service(push::key)
                .service(push::create)
                .service(push::list)
                .service(push::remove)
                .service(notification_preferences::get)
                .service(notification_preferences::change)
                .service(email::get_email)
                .service(email::set_email)
                .service(email::confirm_email)
                .service(email::change_email)
                .service(email::remove_email)
                .service(email::unsubscribe_page)
                .service(email::unsubscribe)
                .service(users::get)
                .service(users::games)
                .service(users::become_bot)
                // Blocks (docs/seats.md).
                .service(blocks::list)
                .service(blocks::block)
                .service(blocks::unblock)
                // Substitutes (docs/seats.md).
                .service(seats::vacant)
                .service(seats::take)
                .service(seats::offer)
                // Table talk (docs/talk.md).
                .service(talk::say)
                .service(talk::list)
                .service(talk::report)
                .service(talk::hide)
                .service(talk::mutes)
                .service(talk::mute)
                .service(talk::unmute)
                // Ratings (docs/ratings.md).
                .service(ratings::game)
                .service(ratings::leaderboard)
                .service(ratings::history)
                // Turn conveniences (docs/turn-conveniences.md).
                .service(turns::get_settings)
                .service(turns::get_vacation)
                .service(turns::change_settings)
                .service(conditional::store)
                .service(conditional::read)
                .service(conditional::remove)
                .service(takeback::status)
                .service(takeback::offer)
                .service(takeback::answer)
                .service(rematch::offer)
                .service(rematch::accept)
                .service(rematch::decline)
                // Tournaments (docs/tournaments.md).
                .service(tournaments::create_tournament)
                .service(tournaments::list_tournaments)
                .service(tournaments::get_tournament)
                .service(tournaments::get_rounds)
                .service(tournaments::get_standings)
                .service(tournaments::get_audit)
                .service(tournaments::register)
                .service(tournaments::withdraw),
        );
}
