//! Entity tags and caching for answers that differ by viewer.
//!
//! Rules:
//! - An entity tag names one representation: the viewer's. It is a keyed
//!   hash (HMAC-SHA256 with a server secret every process of one database
//!   shares), so it reveals nothing itself: no user id, no seat in clear.
//! - A game's tag is `"<version>.<mac>"`, the mac over the version and the
//!   viewer's seat, or "spectator" for anyone else (signed in or not): the
//!   body of a game is a function of exactly these two. The version stays
//!   readable so the tag also serves as a command's `If-Match`. An observer
//!   gets the same tag in two games whose bodies for it are the same.
//! - Every other per-viewer answer (a replay step, an events page, the
//!   inbox, notifications, the public list) is tagged by content: the mac
//!   over the operation, the viewer (a user id, or none) and the body's
//!   bytes. Two viewers never share a tag, and one viewer's tag changes
//!   whenever its body does.
//! - `If-None-Match` answers 304 only when it names the caller's own current
//!   tag (or is `*`); any other value, well formed or not, is answered in
//!   full (tags are opaque: a stale or foreign one is no error).
//! - Every per-viewer answer says `Vary: Authorization` and is `private`;
//!   where the body holds what only this viewer may see (a seat's hand), it
//!   is `no-store`, so no cache keeps it at all.

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, HttpResponseBuilder};
use hmac::{Hmac, Mac};
use serde::Serialize;
use sha2::Sha256;
use uuid::Uuid;

use super::Answer;
use crate::error::Failure;

/// Where the key is kept in `server_secrets`.
const SECRET_NAME: &str = "etag_hmac";

/// How many hex digits of the mac a tag carries (64 bits).
const MAC_HEX: usize = 16;

/// Whether a body holds what only its viewer may see.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Privacy {
    /// Only this viewer may see it (a seat's hand): `private, no-store`.
    Hidden,
    /// Per viewer, but nothing hidden from others: `private, no-cache`
    /// (kept, and revalidated with its tag before each use).
    PerViewer,
}

impl Privacy {
    /// The `Cache-Control` value.
    #[must_use]
    pub const fn cache_control(self) -> &'static str {
        match self {
            Privacy::Hidden => "private, no-store",
            Privacy::PerViewer => "private, no-cache",
        }
    }
}

/// The key that makes entity tags.
#[derive(Clone)]
pub struct ViewTags {
    key: [u8; 32],
}

impl std::fmt::Debug for ViewTags {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ViewTags(..)")
    }
}

impl ViewTags {
    /// Tags made with `key`.
    #[must_use]
    pub const fn new(key: [u8; 32]) -> Self {
        ViewTags { key }
    }

    /// The key stored in the database (made on first use), shared by every
    /// process of one database so a tag from one is valid at another.
    ///
    /// # Errors
    /// When the database cannot be reached.
    pub async fn load(context: &crate::context::Context) -> Result<Self, String> {
        crate::auth::secret::shared_key(&context.pool, SECRET_NAME)
            .await
            .map(ViewTags::new)
    }

    fn mac(&self, parts: &[&[u8]]) -> String {
        // HMAC takes keys of any length: `new_from_slice` cannot fail here.
        let mut mac = <Hmac<Sha256>>::new_from_slice(&self.key)
            .unwrap_or_else(|_| unreachable!("HMAC accepts any key length"));
        for part in parts {
            // Length-prefixed, so no two lists of parts hash alike.
            mac.update(&(part.len() as u64).to_be_bytes());
            mac.update(part);
        }
        let mut out = hex::encode(mac.finalize().into_bytes());
        out.truncate(MAC_HEX);
        out
    }

    /// The tag of a game at `version` as seen from `seat` (a spectator:
    /// `None`), quoted.
    #[must_use]
    pub fn game(&self, version: i64, seat: Option<u8>) -> String {
        let viewer = seat.map_or_else(|| "spectator".to_owned(), |s| format!("seat {s}"));
        let mac = self.mac(&[b"game", &version.to_be_bytes(), viewer.as_bytes()]);
        format!("\"{version}.{mac}\"")
    }

    /// [`game`](Self::game) for a game whose answer also carries `links`
    /// (its rematch links and the offer's state, serialised; empty: none,
    /// the tag is [`game`](Self::game)'s): a new answer to an offer changes
    /// the tag though the game's version stays.
    #[must_use]
    pub fn game_linked(&self, version: i64, seat: Option<u8>, links: &[u8]) -> String {
        if links.is_empty() {
            return self.game(version, seat);
        }
        let viewer = seat.map_or_else(|| "spectator".to_owned(), |s| format!("seat {s}"));
        let mac = self.mac(&[b"game", &version.to_be_bytes(), viewer.as_bytes(), links]);
        format!("\"{version}.{mac}\"")
    }

    /// The tag of `body`, the answer of `operation` to `viewer` (`None`:
    /// signed out), quoted.
    #[must_use]
    pub fn content(&self, operation: &str, viewer: Option<Uuid>, body: &[u8]) -> String {
        let who = viewer.map_or_else(|| b"anonymous".to_vec(), |u| u.as_bytes().to_vec());
        format!("\"{}\"", self.mac(&[operation.as_bytes(), &who, body]))
    }
}

/// The `If-None-Match` header, as operations with per-viewer tags declare it.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Header)]
pub struct IfNoneMatch {
    /// The `ETag` this viewer last received here: 304 while its
    /// representation is unchanged. A tag another viewer received (another
    /// seat, a spectator, another account) never matches.
    #[param(rename = "If-None-Match", nullable = false)]
    pub if_none_match: Option<String>,
}

/// Whether `If-None-Match` names `tag` (compared weakly: a `W/` prefix is
/// ignored) or is `*`. Entity tags are opaque to clients: any other value,
/// a tag this server never gave or one that is not well formed, names
/// nothing and is answered in full.
#[must_use]
pub fn matches(req: &HttpRequest, tag: &str) -> bool {
    req.headers()
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim())
        .any(|t| t == "*" || t.strip_prefix("W/").unwrap_or(t) == tag)
}

/// Sets the headers every per-viewer answer carries.
pub fn per_viewer(response: &mut HttpResponseBuilder, privacy: Privacy) {
    response
        .insert_header((header::CACHE_CONTROL, privacy.cache_control()))
        .append_header((header::VARY, HeaderValue::from_static("Authorization")));
}

/// A 304 for `tag` when `If-None-Match` names it, else a 200 with `body`
/// (JSON already serialised), both with the per-viewer headers.
pub fn answer(req: &HttpRequest, tag: &str, privacy: Privacy, body: Vec<u8>) -> Answer {
    let fresh = matches(req, tag);
    let mut response = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    per_viewer(&mut response, privacy);
    response.insert_header((header::ETAG, tag.to_owned()));
    Ok(if fresh {
        response.finish()
    } else {
        response.content_type("application/json").body(body)
    })
}

/// `value` as JSON, tagged by content for `viewer` (see [`ViewTags::content`]).
///
/// # Errors
/// `internal` when `value` does not serialise.
pub fn json<T: Serialize>(
    req: &HttpRequest,
    tags: &ViewTags,
    operation: &str,
    viewer: Option<Uuid>,
    privacy: Privacy,
    value: &T,
) -> Answer {
    let body = serde_json::to_vec(value).map_err(Failure::internal)?;
    let tag = tags.content(operation, viewer, &body);
    answer(req, &tag, privacy, body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn tags() -> ViewTags {
        ViewTags::new([7; 32])
    }

    #[test]
    fn a_games_tag_names_its_version_and_differs_by_viewer() {
        let t = tags();
        let seat0 = t.game(5, Some(0));
        assert!(seat0.starts_with("\"5.") && seat0.len() == 2 + 2 + MAC_HEX);
        assert_ne!(seat0, t.game(5, Some(1)));
        assert_ne!(seat0, t.game(5, None));
        assert_ne!(seat0, t.game(6, Some(0)));
        assert_eq!(seat0, t.game(5, Some(0)), "the same viewer, the same tag");
        assert_ne!(seat0, ViewTags::new([8; 32]).game(5, Some(0)), "keyed");
        assert_eq!(
            seat0,
            t.game_linked(5, Some(0), b""),
            "no links, the same tag"
        );
        let offered = t.game_linked(5, Some(0), b"offered");
        assert!(offered.starts_with("\"5."), "the version stays readable");
        assert_ne!(offered, seat0);
        assert_ne!(offered, t.game_linked(5, Some(0), b"accepted"));
    }

    #[test]
    fn a_content_tag_differs_by_viewer_operation_and_body() {
        let t = tags();
        let alice = Uuid::from_u128(1);
        let a = t.content("events", Some(alice), b"{}");
        assert_ne!(a, t.content("events", None, b"{}"));
        assert_ne!(a, t.content("events", Some(Uuid::from_u128(2)), b"{}"));
        assert_ne!(a, t.content("inbox", Some(alice), b"{}"));
        assert_ne!(a, t.content("events", Some(alice), b"[]"));
        assert!(!a.contains(&alice.simple().to_string()));
    }

    #[test]
    fn if_none_match_names_the_tag_weakly_in_a_list_or_as_a_star() {
        let tag = "\"5.0123456789abcdef\"";
        let with = |v: &str| {
            TestRequest::default()
                .insert_header((header::IF_NONE_MATCH, v))
                .to_http_request()
        };
        assert!(matches(&with(tag), tag));
        assert!(matches(&with(&format!("W/{tag}")), tag));
        assert!(matches(&with(&format!("\"x\", {tag}")), tag));
        assert!(matches(&with("*"), tag));
        assert!(
            !matches(&with("\"5\""), tag),
            "the version alone names no viewer"
        );
        assert!(
            !matches(&with("nope"), tag),
            "a malformed tag names nothing"
        );
        assert!(!matches(&TestRequest::default().to_http_request(), tag));
    }
}
