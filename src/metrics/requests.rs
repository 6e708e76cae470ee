//! Recording every HTTP request: route pattern, method, status class and
//! latency, into [`Metrics`].

use std::sync::Arc;
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::Next;

use super::Metrics;

/// The label of requests no route matched (unknown paths), and of those
/// refused before routing: one series, whatever the path.
pub const UNMATCHED: &str = "unmatched";

/// Middleware: times the request and records it once answered. Wrap it
/// outside the error handlers, so the status is the one sent.
///
/// # Errors
/// Those of the wrapped service, passed on (and recorded with their status).
pub async fn record(
    metrics: Arc<Metrics>,
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody + 'static>, actix_web::Error> {
    let started = Instant::now();
    let method = method_label(req.method());
    // (The request is not cloned to read its pattern later: routing needs
    // it unshared. The pattern is read from the answer's request.)
    let answer = next.call(req).await;
    let (route, status) = match &answer {
        Ok(res) => (res.request().match_pattern(), res.status()),
        // Refused before routing (a NUL in the URL).
        Err(e) => (None, e.as_response_error().status_code()),
    };
    metrics.request(
        route.as_deref().unwrap_or(UNMATCHED),
        method,
        status.as_u16(),
        started.elapsed().as_secs_f64(),
    );
    answer
}

/// The method as a label: the usual ones by name, any other as `other`.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}
