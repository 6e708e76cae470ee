//! Liveness and readiness.

use actix_web::{HttpResponse, get};
use serde::Serialize;
use utoipa::ToSchema;

use super::problem::Problem;
use super::{Answer, State};
use crate::error::Failure;

/// How long `/readyz` waits for the database.
const READY_WITHIN: std::time::Duration = std::time::Duration::from_secs(1);

/// What the health checks answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok` (the process is up) or `ready` (the database answers).
    #[schema(example = "ok")]
    pub status: &'static str,
}

/// The process is up.
#[utoipa::path(
    operation_id = "check_health", tag = "service",
    responses((status = 200, description = "The process is up", body = Health))
)]
#[get("/healthz")]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Health { status: "ok" })
}

/// The database is reachable.
#[utoipa::path(
    operation_id = "check_ready", tag = "service",
    responses((status = 200, description = "The database answers", body = Health), (status = 503, description = "The database does not answer", body = Problem, content_type = "application/problem+json"))
)]
#[get("/readyz")]
pub async fn readyz(state: State) -> Answer {
    // Ready means the database answers now: a load balancer asking must
    // not wait on a hung one, so the check gives up after a second.
    let check = async {
        crate::db::ping(&state.pool)
            .await
            .map_err(|e| Failure::unavailable(format!("the database does not answer: {e}")))
    };
    tokio::time::timeout(READY_WITHIN, check)
        .await
        .map_err(|_| Failure::unavailable("the database did not answer within a second"))??;
    Ok(HttpResponse::Ok().json(Health { status: "ready" }))
}
