//! The web client: the pages under `web/`, embedded in the binary and served
//! at `/` beside the API (which stays under `/v1`).
//!
//! The client is plain ES modules with no build step: `web/index.html` loads
//! `web/js/main.js`, which talks to the public API only. Release builds
//! carry the files inside the binary; debug builds read them from `web/` at
//! run time, so an edit shows on reload.
//!
//! Every answer carries a strict Content Security Policy (scripts, styles and
//! connections from this origin only; no framing), `nosniff`, and an `ETag`
//! from the file's SHA-256, so browsers revalidate cheaply.

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, ResponseError, web};
use rust_embed::RustEmbed;

use crate::error::Failure;
use crate::routes::problem::ApiError;

/// The files of the web client.
#[derive(RustEmbed)]
#[folder = "web/"]
#[exclude = "*.md"]
struct Assets;

/// What every page and module may load: only this origin's scripts, styles
/// and API; images also as `data:` URLs (an uploaded audit stays local).
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; \
     style-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Adds the client's routes: `/` (the app) and its modules, styles, icons
/// and the games' rules for players.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/", web::get().to(index))
        .route("/index.html", web::get().to(index))
        .route("/{dir:js|css|img|rules}/{rest:.*}", web::get().to(asset));
}

async fn index(req: HttpRequest) -> HttpResponse {
    serve(&req, "index.html")
}

async fn asset(req: HttpRequest) -> HttpResponse {
    let path = req.path().trim_start_matches('/').to_owned();
    serve(&req, &path)
}

/// The embedded file at `path`, or `404 not_found` as problem+json (also
/// for any path that steps out of its folder).
fn serve(req: &HttpRequest, path: &str) -> HttpResponse {
    let climbs = path.split(['/', '\\']).any(|part| part == "..");
    let Some(file) = Assets::get(path).filter(|_| !climbs) else {
        return ApiError(Failure::not_found("there is no such page")).error_response();
    };
    let etag = format!("\"{}\"", hex::encode(file.metadata.sha256_hash()));
    let fresh = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|tag| tag.trim() == etag));
    let mut response = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((header::ETAG, etag))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::REFERRER_POLICY, "same-origin"))
        .insert_header((
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ));
    if fresh {
        return response.finish();
    }
    response
        .content_type(mime_type(path))
        .body(file.data.into_owned())
}

/// The media type of a client file, by its extension.
fn mime_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}
