//! Liveness, readiness and metrics.

use actix_web::{HttpResponse, get};
use serde::Serialize;
use utoipa::ToSchema;

use super::problem::Problem;
use super::{Answer, State};
use crate::error::Failure;
use crate::metrics::scrape;

/// How long `/readyz` waits for the database.
const READY_WITHIN: std::time::Duration = std::time::Duration::from_secs(1);

/// What the health checks answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok` (the process is up) or `ready` (the database answers).
    #[schema(example = "ok")]
    pub status: &'static str,
    /// On `/readyz`, what the database's settings leave undone that the
    /// server needs (autovacuum off, for the server or for one of its
    /// tables): still ready, but the operator has work to do
    /// (docs/performance.md). Absent when all is well.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub detail: Vec<String>,
}

/// The process is up.
#[utoipa::path(
    operation_id = "check_health", tag = "service",
    responses((status = 200, description = "The process is up", body = Health))
)]
#[get("/healthz")]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Health {
        status: "ok",
        detail: Vec::new(),
    })
}

/// The database is reachable; `detail` names maintenance settings the
/// server needs that the database has off (autovacuum).
#[utoipa::path(
    operation_id = "check_ready", tag = "service",
    responses((status = 200, description = "The database answers", body = Health), (status = 503, description = "The database does not answer", body = Problem, content_type = "application/problem+json"))
)]
#[get("/readyz")]
pub async fn readyz(state: State) -> Answer {
    let detail = crate::health::ready(&state.pool, READY_WITHIN).await?;
    Ok(HttpResponse::Ok().json(Health {
        status: "ready",
        detail,
    }))
}

/// This process's metrics, in Prometheus's text format.
///
/// Requests by route, commands, the database pool, the webhook outbox,
/// deadline lag, held long polls and streams, CPU and memory (README,
/// *Operating it*).
#[utoipa::path(
    operation_id = "get_metrics", tag = "service",
    responses((status = 200, description = "Prometheus text exposition format (version 0.0.4)", body = String, content_type = "text/plain; version=0.0.4; charset=utf-8"))
)]
#[get("/metrics")]
pub async fn metrics(state: State) -> Answer {
    let page = scrape::page(&state.metrics, &state.pools, &state.pool)
        .await
        .map_err(Failure::internal)?;
    Ok(HttpResponse::Ok()
        .content_type(scrape::CONTENT_TYPE)
        .body(page))
}
