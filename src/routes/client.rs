//! Who is asking, as far as limits go: the client's address (through
//! trusted proxies), and the streams and long polls it holds open.

use std::net::IpAddr;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};

use super::problem::ApiError;
use crate::auth::Caller;
use crate::auth::limits::{OpenStreams, StreamHeld, StreamKey};
use crate::routes::app_state::AppState;

/// The client's address: the peer's, not a header a client could forge;
/// but when the peer is a trusted proxy, the last address in
/// `X-Forwarded-For` — the one that proxy added (any before it came from
/// the client). The proxy's own when it added none.
#[must_use]
pub fn client_address(req: &HttpRequest, trusted: &[IpAddr]) -> Option<IpAddr> {
    let peer = req.peer_addr()?.ip();
    if !trusted.contains(&peer) {
        return Some(peer);
    }
    let forwarded = req
        .headers()
        .get_all("x-forwarded-for")
        .last()
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
        .and_then(|v| v.trim().parse().ok());
    Some(forwarded.unwrap_or(peer))
}

/// The client's address as a handler takes it (see [`client_address`]).
pub struct ClientAddress(pub Option<IpAddr>);

impl FromRequest for ClientAddress {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let trusted = req
            .app_data::<web::Data<AppState>>()
            .map(|state| std::sync::Arc::clone(&state.trusted_proxies));
        std::future::ready(Ok(ClientAddress(client_address(
            req,
            trusted.as_deref().unwrap_or(&[]),
        ))))
    }
}

/// Counts one open stream or long poll: the caller's when signed in, else
/// the client address's.
///
/// # Errors
/// `limit_reached` when it has as many open as it may.
pub fn hold_stream(
    state: &AppState,
    caller: Option<&Caller>,
    address: Option<IpAddr>,
) -> Result<Option<StreamHeld>, ApiError> {
    let key = match (caller, address) {
        (Some(caller), _) => StreamKey::User(caller.user_id),
        (None, Some(address)) => StreamKey::Address(address),
        (None, None) => return Ok(None),
    };
    Ok(OpenStreams::open(&state.streams, key)?)
}

/// `body`, holding `held` until it ends (or the client goes).
pub fn holding<S>(body: S, held: Option<StreamHeld>) -> impl futures_util::Stream<Item = S::Item>
where
    S: futures_util::Stream,
{
    use futures_util::StreamExt;
    body.map(move |item| {
        let _still_open = &held;
        item
    })
}
