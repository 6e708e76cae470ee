//! Request parsing shared by the routes: JSON bodies, headers and the
//! extractor configuration that turns every parse failure into problem+json.

use actix_web::error::{JsonPayloadError, PathError, QueryPayloadError};
use actix_web::http::header::HeaderMap;
use actix_web::{HttpRequest, web};
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// The largest request body accepted.
pub const BODY_LIMIT: usize = 64 * 1024;

/// The JSON extractor's configuration: the size limit, any content type
/// accepted as JSON, and problem+json errors.
#[must_use]
pub fn json_config() -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(BODY_LIMIT)
        .content_type_required(false)
        .error_handler(|e, _| json_error(&e).into())
}

fn json_error(e: &JsonPayloadError) -> ApiError {
    match e {
        JsonPayloadError::Overflow { .. } | JsonPayloadError::OverflowKnownLength { .. } => {
            ApiError::payload_too_large(BODY_LIMIT)
        }
        JsonPayloadError::Deserialize(inner) => {
            ApiError::bad_request(format!("the JSON body does not fit: {inner}"))
        }
        other => ApiError::bad_request(format!("the body is not valid JSON: {other}")),
    }
}

/// Path parameters: a malformed id is a `bad_request`.
#[must_use]
pub fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|e: PathError, _| {
        ApiError::bad_request(format!("bad path parameter: {e}")).into()
    })
}

/// Query parameters: wrong types and unknown names are a `bad_request`.
#[must_use]
pub fn query_config() -> web::QueryConfig {
    web::QueryConfig::default().error_handler(|e: QueryPayloadError, _| {
        ApiError::bad_request(format!("bad query parameters: {e}")).into()
    })
}

/// The body limit for raw bodies.
#[must_use]
pub fn payload_config() -> web::PayloadConfig {
    web::PayloadConfig::new(BODY_LIMIT)
}

/// Parses an optional JSON body: empty means `T::default()`.
///
/// # Errors
/// `bad_request` for anything but an empty body or a `T`.
pub fn optional_json<T: DeserializeOwned + Default>(body: &[u8]) -> Result<T, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    serde_json::from_slice(body)
        .map_err(|e| ApiError::bad_request(format!("the JSON body does not fit: {e}")))
}

/// A header's value as text.
///
/// # Errors
/// `bad_request` when it is not visible ASCII.
pub fn header<'a>(headers: &'a HeaderMap, name: &str) -> Result<Option<&'a str>, ApiError> {
    headers
        .get(name)
        .map(|v| {
            v.to_str()
                .map_err(|_| ApiError::bad_request(format!("the {name} header is not ASCII")))
        })
        .transpose()
}

/// A version from an `If-Match`/`If-None-Match` header: `"17"`, `W/"17"` or `17`.
///
/// # Errors
/// `bad_request` for anything else.
pub fn version_tag(req: &HttpRequest, name: &str) -> Result<Option<i64>, ApiError> {
    let Some(raw) = header(req.headers(), name)? else {
        return Ok(None);
    };
    let tag = raw.trim().trim_start_matches("W/").trim_matches('"');
    tag.parse::<i64>()
        .map(Some)
        .map_err(|_| ApiError::bad_request(format!("{name} must be a game version such as \"17\"")))
}

/// The ETag of a game version.
#[must_use]
pub fn etag(version: i64) -> String {
    format!("\"{version}\"")
}
