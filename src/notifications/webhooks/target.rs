//! Where deliveries may go, and how they get there.
//!
//! A webhook URL is chosen by a user, so the server must not become their
//! way into its own network: unless the operator allows it
//! (`--webhook-allow-private`), deliveries never reach a loopback, private,
//! link-local or otherwise non-public address. A URL naming such an address
//! is refused when registered; a host name is checked each time it is
//! resolved, right before connecting, so a name that later points inward
//! gets nothing. `https://` receivers are reached over TLS 1.2 or 1.3 and
//! must present a certificate that chains to a trusted root.

use std::net::{IpAddr, SocketAddr};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use actix_tls::connect::{Connector as TcpConnector, Resolve, Resolver};
use futures_util::future::LocalBoxFuture;

use crate::error::Failure;

/// The longest URL accepted.
pub const MAX_URL: usize = 2048;

/// Checks a URL to register: absolute `http://` or `https://` with a host,
/// and — unless `allow_private` — not naming a non-public address.
///
/// # Errors
/// `bad_request`, saying what is wrong.
pub fn check_url(url: &str, allow_private: bool) -> Result<(), Failure> {
    let bad = || Failure::bad_request("url must be an absolute http:// or https:// URL");
    if url.len() > MAX_URL {
        return Err(Failure::bad_request(format!(
            "url is longer than {MAX_URL} characters"
        )));
    }
    let uri: actix_web::http::Uri = url.parse().map_err(|_| bad())?;
    match (uri.scheme_str(), uri.host()) {
        (Some("http" | "https"), Some(host)) if !host.is_empty() => {
            match refusal(host, allow_private) {
                Some(why) => Err(Failure::bad_request(why)),
                None => Ok(()),
            }
        }
        _ => Err(bad()),
    }
}

/// Why deliveries may not go to `host` as written (an address, or
/// `localhost`), if they may not; names are judged when resolved.
pub fn refusal(host: &str, allow_private: bool) -> Option<String> {
    if allow_private {
        return None;
    }
    let literal = host.trim_start_matches('[').trim_end_matches(']');
    let inward = match literal.parse::<IpAddr>() {
        Ok(ip) => !is_public(ip),
        Err(_) => {
            let name = literal.trim_end_matches('.').to_ascii_lowercase();
            name == "localhost" || name.ends_with(".localhost")
        }
    };
    inward.then(|| {
        format!("url must not point to a loopback, private, link-local or other non-public address ({host})")
    })
}

/// Whether `ip` is a public unicast address: not unspecified, loopback,
/// private (RFC 1918, unique local, the old site-local `fec0::/10`),
/// shared (RFC 6598), link-local, multicast, broadcast, documentation,
/// benchmarking, the IETF protocol block (`192.0.0.0/24`), the 6to4 relay
/// block, or reserved. An IPv6 address that carries an IPv4 address to
/// reach is judged as that address (IPv4-mapped `::ffff:0:0/96`, 6to4
/// `2002::/16`); IPv4-compatible `::/96`, NAT64 (`64:ff9b::/96`,
/// `64:ff9b:1::/48`, which a NAT64 gateway would carry to any IPv4 address,
/// private ones too), Teredo (`2001::/32`), ORCHID and the discard block
/// are never public.
#[must_use]
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(v4: std::net::Ipv4Addr) -> bool {
    let [a, b, c, _] = v4.octets();
    !(v4.is_unspecified()
        || v4.is_loopback()
        || v4.is_private()
        || v4.is_link_local()
        || v4.is_broadcast()
        || v4.is_multicast()
        || v4.is_documentation()
        || a == 0
        || (a == 100 && (64..128).contains(&b))
        || (a == 192 && b == 0 && c == 0)
        || (a == 192 && b == 88 && c == 99)
        || (a == 198 && (b == 18 || b == 19))
        || a >= 240)
}

fn is_public_v6(v6: std::net::Ipv6Addr) -> bool {
    if let Some(v4) = v6.to_ipv4_mapped() {
        return is_public_v4(v4);
    }
    let s = v6.segments();
    if s[0] == 0x2002 {
        // 6to4: the IPv4 address of the relay is in bits 16..48.
        let [a, b] = s[1].to_be_bytes();
        let [c, d] = s[2].to_be_bytes();
        return is_public_v4(std::net::Ipv4Addr::new(a, b, c, d));
    }
    let ipv4_compatible = s[..6] == [0; 6];
    let nat64 = s[..2] == [0x0064, 0xff9b] && (s[2..6] == [0; 4] || s[2] == 1);
    let teredo = s[..2] == [0x2001, 0];
    let benchmarking = s[..3] == [0x2001, 0x0002, 0];
    let orchid = s[0] == 0x2001 && (0x0010..0x0040).contains(&s[1]);
    let discard = s[..4] == [0x0100, 0, 0, 0];
    let documentation = s[..2] == [0x2001, 0x0db8] || s[0] == 0x3fff && s[1] < 0x1000;
    let site_local = s[0] & 0xffc0 == 0xfec0;
    !(ipv4_compatible
        || nat64
        || teredo
        || benchmarking
        || orchid
        || discard
        || documentation
        || site_local
        || v6.is_multicast()
        || v6.is_unique_local()
        || v6.is_unicast_link_local())
}

/// What a failed delivery's `last_error` says when the receiver's host
/// could not be resolved to an address it may reach: the same for a name
/// that does not resolve and one that resolves only inward, so that a user
/// learns nothing about the server's network from it.
pub const UNREACHABLE: &str = "could not connect to the receiver";

/// Resolves host names to their public addresses only (unless
/// `allow_private`), and takes an IP literal as itself (`[2001:db8::1]`
/// too: the resolver is given the URL's host with its brackets).
struct Guarded {
    allow_private: bool,
}

impl Resolve for Guarded {
    fn lookup<'a>(
        &'a self,
        host: &'a str,
        port: u16,
    ) -> LocalBoxFuture<'a, Result<Vec<SocketAddr>, Box<dyn std::error::Error>>> {
        Box::pin(async move {
            let literal = host.trim_start_matches('[').trim_end_matches(']');
            let all: Vec<SocketAddr> = match literal.parse::<IpAddr>() {
                Ok(ip) => vec![SocketAddr::new(ip, port)],
                Err(_) => tokio::net::lookup_host((literal, port)).await?.collect(),
            };
            if self.allow_private {
                return Ok(all);
            }
            let public: Vec<SocketAddr> =
                all.iter().copied().filter(|a| is_public(a.ip())).collect();
            if public.is_empty() {
                return Err(format!("{host} resolves only to non-public addresses").into());
            }
            Ok(public)
        })
    }
}

/// How deliveries to `https://` receivers are secured: TLS 1.2 or 1.3, and
/// the receiver's certificate must chain to Mozilla's root certificates
/// (built in: the server needs no system store) or to a certificate of
/// `ca_file` (PEM), for receivers with a private CA.
///
/// # Errors
/// When `ca_file` cannot be read or holds no valid certificate.
pub fn tls_config(ca_file: Option<&Path>) -> Result<Arc<rustls::ClientConfig>, String> {
    use rustls::pki_types::{CertificateDer, pem::PemObject};
    let mut roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    if let Some(path) = ca_file {
        let unusable =
            |e: &dyn std::fmt::Display| format!("webhook CA file {}: {e}", path.display());
        let mut added = 0;
        for cert in CertificateDer::pem_file_iter(path).map_err(|e| unusable(&e))? {
            roots
                .add(cert.map_err(|e| unusable(&e))?)
                .map_err(|e| unusable(&e))?;
            added += 1;
        }
        if added == 0 {
            return Err(unusable(&"no certificate in it"));
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// The HTTP client of deliveries: no redirects (a receiver cannot send the
/// request elsewhere), `timeout` per request, TLS by `tls`, and host names
/// resolved to public addresses only unless `allow_private`.
pub fn client(
    tls: Arc<rustls::ClientConfig>,
    timeout: Duration,
    allow_private: bool,
) -> awc::Client {
    let resolver = Resolver::custom(Guarded { allow_private });
    let connector = awc::Connector::new()
        .connector(TcpConnector::new(resolver).service())
        .rustls_0_23(tls);
    awc::Client::builder()
        .connector(connector)
        .timeout(timeout)
        .disable_redirects()
        .finish()
}

/// A POST's answer: its status and `Retry-After` (in seconds), if given.
#[derive(Debug, Clone, Copy)]
pub struct Answered {
    pub status: u16,
    pub retry_after: Option<u64>,
}

/// A delivery client that posts to user-given URLs (webhooks, push
/// endpoints) through [`client`], judging each URL by [`refusal`] first.
pub struct Poster {
    client: awc::Client,
    allow_private: bool,
}

impl Poster {
    /// A poster whose requests time out after `timeout`.
    #[must_use]
    pub fn new(tls: Arc<rustls::ClientConfig>, timeout: Duration, allow_private: bool) -> Self {
        Poster {
            client: client(tls, timeout, allow_private),
            allow_private,
        }
    }

    /// POSTs `body` with `headers` to `url`: the answer, whatever its
    /// status, or why no answer came.
    ///
    /// # Errors
    /// A URL that does not parse or names a non-public address (unless
    /// allowed), or a request that got no answer.
    pub async fn post(
        &self,
        url: &str,
        headers: &[(&str, String)],
        body: Vec<u8>,
    ) -> Result<Answered, String> {
        let uri: actix_web::http::Uri = url.parse().map_err(|e| format!("request failed: {e}"))?;
        if let Some(why) = uri
            .host()
            .and_then(|host| refusal(host, self.allow_private))
        {
            return Err(why);
        }
        let mut request = self.client.post(uri);
        for (name, value) in headers {
            request = request.insert_header((*name, value.as_str()));
        }
        match request.send_body(body).await {
            Ok(response) => Ok(Answered {
                status: response.status().as_u16(),
                retry_after: response
                    .headers()
                    .get("Retry-After")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.trim().parse().ok()),
            }),
            Err(awc::error::SendRequestError::Connect(
                awc::error::ConnectError::Resolver(_)
                | awc::error::ConnectError::NoRecords
                | awc::error::ConnectError::Unresolved,
            )) => Err(format!("request failed: {UNREACHABLE}")),
            Err(e) => Err(format!("request failed: {e}")),
        }
    }
}

/// An answer: status, `Retry-After` in seconds, and the body.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub retry_after: Option<u64>,
    pub body: Vec<u8>,
}

/// An HTTP client for a service the operator names (a native push
/// service): not held to the public-address guard, since its URL is the
/// operator's setting, not a user's.
pub struct Sender {
    client: awc::Client,
}

impl Sender {
    /// A client speaking HTTP/2 only (`h2` over TLS) when `http2`, else as
    /// the service agrees.
    #[must_use]
    pub fn new(tls: &Arc<rustls::ClientConfig>, timeout: Duration, http2: bool) -> Sender {
        let mut config = (**tls).clone();
        config.alpn_protocols = if http2 {
            vec![b"h2".to_vec()]
        } else {
            vec![b"h2".to_vec(), b"http/1.1".to_vec()]
        };
        Sender {
            client: client(Arc::new(config), timeout, true),
        }
    }

    /// POSTs `body` (its content type in `headers`) to `url`: the answer,
    /// whatever its status, or why none came.
    ///
    /// # Errors
    /// A request that got no answer.
    pub async fn post(
        &self,
        url: &str,
        headers: &[(&str, String)],
        body: Vec<u8>,
    ) -> Result<Answer, String> {
        let mut request = self.client.post(url);
        for (name, value) in headers {
            request = request.insert_header((*name, value.as_str()));
        }
        let mut response = request
            .send_body(body)
            .await
            .map_err(|e| format!("request failed: {e}"))?;
        let body = response
            .body()
            .limit(64 * 1024)
            .await
            .map_err(|e| format!("reading the answer: {e}"))?;
        Ok(Answer {
            status: response.status().as_u16(),
            retry_after: response
                .headers()
                .get("Retry-After")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse().ok()),
            body: body.to_vec(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn public(ip: &str) -> bool {
        is_public(ip.parse().unwrap())
    }

    #[test]
    fn only_public_unicast_addresses_are_public() {
        for ip in [
            "93.184.216.34",
            "8.8.8.8",
            "2606:4700::1111",
            "::ffff:1.1.1.1",
        ] {
            assert!(public(ip), "{ip}");
        }
        for ip in [
            "0.0.0.0",
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "198.18.0.1",
            "192.0.2.1",
            "224.0.0.1",
            "255.255.255.255",
            "240.0.0.1",
            "::",
            "::1",
            "fe80::1",
            "fd00::1",
            "ff02::1",
            "2001:db8::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            // The forms that reach this host or a private network.
            "::127.0.0.1",
            "::8.8.8.8",
            "64:ff9b::7f00:1",
            "64:ff9b::808:808",
            "64:ff9b:1::a00:1",
            "2002:7f00:1::",
            "2002:a00:1::1",
            "2002:c0a8:101::1",
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
            "fec0::1",
            "feff::1",
            "192.0.0.8",
            "192.0.0.170",
            "192.88.99.1",
            "2001:2::1",
            "2001:10::1",
            "100::1",
            "3fff::1",
        ] {
            assert!(!public(ip), "{ip}");
        }
        // 6to4 of a public address is as public as it.
        assert!(public("2002:808:808::1"));
        assert!(public("2a00:1450:4001:80b::200e"));
    }

    #[test]
    fn urls_naming_inward_hosts_are_refused_unless_allowed() {
        assert!(check_url("https://example.com/hook", false).is_ok());
        assert!(check_url("http://93.184.216.34:8080/hook", false).is_ok());
        for inward in [
            "http://127.0.0.1:9000/hook",
            "http://localhost/hook",
            "http://LOCALHOST./hook",
            "http://api.localhost/hook",
            "http://[::1]/hook",
            "http://169.254.169.254/latest/meta-data",
            "http://10.0.0.5/hook",
            "http://[::127.0.0.1]/hook",
            "http://[64:ff9b::7f00:1]/hook",
            "http://[2002:7f00:1::]/hook",
            "http://[fec0::1]/hook",
            "http://192.0.0.8/hook",
            "http://[::ffff:10.0.0.1]/hook",
        ] {
            assert!(check_url(inward, false).is_err(), "{inward}");
            assert!(check_url(inward, true).is_ok(), "{inward}");
        }
    }

    #[test]
    fn only_absolute_http_urls_are_accepted() {
        assert!(check_url("http://127.0.0.1:9000/hook", true).is_ok());
        assert!(check_url("https://example.com/x?y=1", true).is_ok());
        for bad in ["ftp://x/", "/relative", "example.com", "http://", ""] {
            assert!(check_url(bad, true).is_err(), "{bad}");
        }
        let long = format!("https://example.com/{}", "x".repeat(MAX_URL));
        assert!(check_url(&long, true).is_err());
    }

    #[actix_web::test]
    async fn names_resolve_to_public_addresses_only() {
        let guarded = Guarded {
            allow_private: false,
        };
        let refused = guarded.lookup("localhost", 80).await.unwrap_err();
        assert!(
            refused.to_string().contains("resolves only to"),
            "{refused}"
        );
        // IP literals are taken as they are, brackets or not, and judged.
        let public = guarded.lookup("[2606:4700::1111]", 443).await.unwrap();
        assert_eq!(public, ["[2606:4700::1111]:443".parse().unwrap()]);
        assert!(guarded.lookup("[::127.0.0.1]", 80).await.is_err());
        assert!(guarded.lookup("192.0.0.8", 80).await.is_err());
        let open = Guarded {
            allow_private: true,
        };
        let inward = open.lookup("[::1]", 8080).await.unwrap();
        assert_eq!(inward, ["[::1]:8080".parse().unwrap()]);
    }

    #[test]
    fn a_webhook_ca_file_must_hold_a_certificate() {
        assert!(tls_config(None).is_ok());
        let scratch =
            || std::env::temp_dir().join(format!("hatstand-{}.pem", uuid::Uuid::new_v4()));
        let missing = scratch();
        assert!(
            tls_config(Some(&missing))
                .unwrap_err()
                .contains("webhook CA file")
        );
        let empty = scratch();
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let refused = tls_config(Some(&empty));
        std::fs::remove_file(&empty).unwrap();
        assert!(refused.unwrap_err().contains("no certificate"));
    }
}
