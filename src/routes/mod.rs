//! The HTTP routes: one module per resource, one thin function per endpoint
//! (parse, call one application function, map the result), each with its
//! OpenAPI description beside it.

pub mod audit;
pub mod auth;
pub mod body;
pub mod commands;
pub mod events;
pub mod extract;
pub mod fallback;
pub mod games;
pub mod me;
pub mod problem;
pub mod rulesets;
pub mod service;
pub mod sse;

use utoipa_actix_web::scope;
use utoipa_actix_web::service_config::ServiceConfig;

/// Registers every documented route.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(service::healthz)
        .service(service::readyz)
        .service(
            scope("/v1")
                .service(auth::register)
                .service(auth::login)
                .service(auth::refresh)
                .service(auth::logout)
                .service(auth::logout_all)
                .service(auth::change_password)
                .service(rulesets::list)
                .service(games::create)
                .service(games::list)
                .service(games::get)
                .service(games::join)
                .service(games::decline)
                .service(games::cancel)
                .service(games::resign)
                .service(games::vacation)
                .service(games::stream)
                .service(commands::submit)
                .service(events::list)
                .service(audit::audit)
                .service(audit::state_at)
                .service(me::games)
                .service(me::export_games)
                .service(me::notifications)
                .service(me::stream)
                .service(me::create_webhook)
                .service(me::list_webhooks)
                .service(me::delete_webhook),
        );
}
