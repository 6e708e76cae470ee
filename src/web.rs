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
//!
//! The app installs (docs/phones.md): `/manifest.webmanifest` names it and
//! its icons, and `/sw.js`, the service worker, is served with the list of
//! the shell's files and a version made from their hashes put before it,
//! so a change to any file makes browsers install the new shell. The list
//! holds the client's own files only, never an API path.

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, ResponseError, web};
use rust_embed::RustEmbed;
use sha2::{Digest, Sha256};

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
        .route("/manifest.webmanifest", web::get().to(manifest))
        .route("/sw.js", web::get().to(service_worker))
        .route(
            "/{dir:js|css|img|rules|i18n}/{rest:.*}",
            web::get().to(asset),
        );
}

async fn index(req: HttpRequest) -> HttpResponse {
    serve(&req, "index.html")
}

async fn manifest(req: HttpRequest) -> HttpResponse {
    serve(&req, "manifest.webmanifest")
}

/// The service worker: `web/sw.js` after two lines naming the shell, its
/// version (hex SHA-256 over every file's path and hash) and its files as
/// the page asks for them (`/` for the page itself).
async fn service_worker(req: HttpRequest) -> HttpResponse {
    let Some(worker) = Assets::get("sw.js") else {
        return ApiError(Failure::not_found("there is no such page")).error_response();
    };
    let mut files: Vec<String> = Assets::iter()
        .filter(|path| shell_url(path).is_some())
        .map(|path| path.into_owned())
        .collect();
    files.sort();
    let mut version = Sha256::new();
    for path in std::iter::once("sw.js".to_owned()).chain(files.iter().cloned()) {
        if let Some(file) = Assets::get(&path) {
            version.update(path.as_bytes());
            version.update(file.metadata.sha256_hash());
        }
    }
    let urls: Vec<String> = files.iter().filter_map(|path| shell_url(path)).collect();
    let head = format!(
        "const SHELL_VERSION = {};\nconst SHELL_FILES = {};\n",
        serde_json::Value::from(hex::encode(&version.finalize()[..8])),
        serde_json::Value::from(urls),
    );
    let mut body = head.into_bytes();
    body.extend_from_slice(&worker.data);
    let tag = Sha256::digest(&body);
    with_headers(&req, "sw.js", &tag, body)
}

/// The URL the page asks for the client file at `path`, if it is one the
/// routes above serve (and not the worker itself).
fn shell_url(path: &str) -> Option<String> {
    match path {
        "index.html" => Some("/".to_owned()),
        "manifest.webmanifest" => Some("/manifest.webmanifest".to_owned()),
        _ => ["js/", "css/", "img/", "rules/", "i18n/"]
            .iter()
            .any(|dir| path.starts_with(dir))
            .then(|| format!("/{path}")),
    }
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
    let tag = file.metadata.sha256_hash();
    with_headers(req, path, &tag, file.data.into_owned())
}

/// `body` as the file at `path`, with the client's headers; `304` when the
/// request names its tag.
fn with_headers(req: &HttpRequest, path: &str, hash: &[u8], body: Vec<u8>) -> HttpResponse {
    let etag = format!("\"{}\"", hex::encode(hash));
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
    response.content_type(mime_type(path)).body(body)
}

/// The media type of a client file, by its extension.
fn mime_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("webmanifest") => "application/manifest+json",
        Some("png") => "image/png",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}
