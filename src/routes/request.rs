//! Request parsing shared by the routes: JSON bodies, headers, where a
//! Server-Sent Events stream resumes, and the extractor configuration that
//! turns every parse failure into problem+json.

use actix_web::error::{JsonPayloadError, PathError, QueryPayloadError};
use actix_web::http::header::HeaderMap;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use utoipa::IntoParams;

use super::strict_json::BODY_LIMIT;
use crate::error::Failure;

/// The JSON extractor's configuration: the size limit, any content type
/// accepted as JSON, and problem+json errors.
#[must_use]
pub fn json_config() -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(BODY_LIMIT)
        .content_type_required(false)
        .error_handler(|e, _| json_error(&e).into())
}

fn json_error(e: &JsonPayloadError) -> Failure {
    match e {
        JsonPayloadError::Overflow { .. } | JsonPayloadError::OverflowKnownLength { .. } => {
            Failure::payload_too_large(BODY_LIMIT)
        }
        JsonPayloadError::Deserialize(inner) => {
            Failure::bad_request(format!("the JSON body does not fit: {inner}"))
        }
        other => Failure::bad_request(format!("the body is not valid JSON: {other}")),
    }
}

/// Path parameters: a malformed id is a `bad_request`.
#[must_use]
pub fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|e: PathError, _| {
        Failure::bad_request(format!("bad path parameter: {e}")).into()
    })
}

/// Query parameters: wrong types and unknown names are a `bad_request`.
#[must_use]
pub fn query_config() -> web::QueryConfig {
    web::QueryConfig::default().error_handler(|e: QueryPayloadError, _| {
        Failure::bad_request(format!("bad query parameters: {e}")).into()
    })
}

/// The body limit for raw bodies.
#[must_use]
pub fn payload_config() -> web::PayloadConfig {
    web::PayloadConfig::new(BODY_LIMIT)
}

/// Parses an optional JSON body: empty or `null` means `T::default()`.
///
/// # Errors
/// `bad_request` for anything but an empty body, `null` or a `T`.
pub fn optional_json<T: DeserializeOwned + Default>(body: &[u8]) -> Result<T, Failure> {
    // `null` stands for "nothing", as the document's `oneOf [T, null]` says.
    let text = std::str::from_utf8(body).unwrap_or("?").trim();
    if text.is_empty() || text == "null" {
        return Ok(T::default());
    }
    super::strict_json::parse(body)
}

/// A header's value as text.
///
/// # Errors
/// `bad_request` when it is not visible ASCII.
pub fn header<'a>(headers: &'a HeaderMap, name: &str) -> Result<Option<&'a str>, Failure> {
    headers
        .get(name)
        .map(|v| {
            v.to_str()
                .map_err(|_| Failure::bad_request(format!("the {name} header is not ASCII")))
        })
        .transpose()
}

/// The version an `If-Match` header names: a version (`"17"`, `W/"17"`,
/// `17`) or a game's entity tag (`"17.<mac>"`, whose version is read; the
/// mac names the viewer, and a command's caller is checked by its token).
///
/// # Errors
/// `bad_request` for anything else.
pub fn version_tag(req: &HttpRequest, name: &str) -> Result<Option<i64>, Failure> {
    let Some(raw) = header(req.headers(), name)? else {
        return Ok(None);
    };
    let tag = raw.trim().trim_start_matches("W/").trim_matches('"');
    let version = tag.split_once('.').map_or(tag, |(version, _)| version);
    version
        .parse::<i64>()
        .map(Some)
        .map_err(|_| Failure::bad_request(format!("{name} must be a game version such as \"17\"")))
}

/// Where a stream resumes.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct StreamQuery {
    /// Start after this id (`Last-Event-ID` wins when both are sent).
    pub after: Option<i64>,
}

/// The id to resume after: `Last-Event-ID`, else `after`, else 0.
///
/// # Errors
/// `bad_request` for a `Last-Event-ID` that is not an id.
pub fn resume_after(req: &HttpRequest, after: Option<i64>) -> Result<i64, Failure> {
    match header(req.headers(), "Last-Event-ID")? {
        Some(raw) => raw
            .trim()
            .parse()
            .map_err(|_| Failure::bad_request("Last-Event-ID must be an event id")),
        None => Ok(after.unwrap_or(0)),
    }
}

/// Where a game's stream resumes.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct GameStreamQuery {
    /// Start after this event's seq (`Last-Event-ID` wins when both are sent).
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// Also the game's talk the caller reads (docs/talk.md), after this
    /// position: `0` (from the first message) or a message's `cursor`. The
    /// stream's ids are then `<seq>/<talk position>` (a `Last-Event-ID` of
    /// that form wins over both parameters).
    #[param(
        pattern = "^(0|[0-9]{1,18}_[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$",
        example = "0"
    )]
    pub talk_after: Option<String>,
}

/// Where a game's stream resumes: the seq, and the talk position when talk
/// is asked for — from `Last-Event-ID` (`<seq>` or `<seq>/<position>`),
/// else from `after` and `talk_after`.
///
/// # Errors
/// `bad_request` for a `Last-Event-ID` of neither form (a position itself
/// is checked where it is read).
pub fn resume_game(
    req: &HttpRequest,
    query: &GameStreamQuery,
) -> Result<(i64, Option<String>), Failure> {
    match header(req.headers(), "Last-Event-ID")? {
        Some(raw) => {
            let raw = raw.trim();
            let (seq, talk) = match raw.split_once('/') {
                Some((seq, talk)) => (seq, Some(talk.to_owned())),
                None => (raw, query.talk_after.clone()),
            };
            let seq = seq.parse().map_err(|_| {
                Failure::bad_request("Last-Event-ID must be an event id sent by this stream")
            })?;
            Ok((seq, talk))
        }
        None => Ok((query.after.unwrap_or(0), query.talk_after.clone())),
    }
}

/// An SSE response: per viewer, never stored by a cache.
#[must_use]
pub fn event_stream(
    body: impl futures_util::Stream<Item = Result<web::Bytes, std::convert::Infallible>> + 'static,
) -> HttpResponse {
    let mut response = HttpResponse::Ok();
    super::tags::per_viewer(&mut response, super::tags::Privacy::Hidden);
    response
        .content_type("text/event-stream")
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body)
}
