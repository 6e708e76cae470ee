//! The server's VAPID key (RFC 8292): a P-256 key pair made on first start
//! and kept in the database (`server_secrets`, as `vapid_p256`), so every
//! process of one database signs as the same application server and
//! subscriptions made against its public key keep working across restarts.
//!
//! Each push carries `Authorization: vapid t=<JWT>, k=<public key>`: an
//! ES256 JWT whose `aud` is the origin of the push service's endpoint,
//! `exp` twelve hours ahead (RFC 8292 allows at most 24) and `sub` the
//! operator's contact (`--push-contact`, a `mailto:` or `https:` URL).

use data_encoding::BASE64URL_NOPAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::pkcs8::EncodePrivateKey;
use serde::Serialize;

use crate::db::Pool;

/// The name of the stored key.
const NAME: &str = "vapid_p256";

/// How long a VAPID JWT is valid.
const VALID_SECS: i64 = 12 * 3600;

/// The server's VAPID key pair.
pub struct Vapid {
    encoding: EncodingKey,
    /// The public key: the uncompressed point, URL-safe base64 without padding.
    public: String,
}

#[derive(Serialize)]
struct Claims<'a> {
    aud: &'a str,
    exp: i64,
    sub: &'a str,
}

impl Vapid {
    /// The key stored in the database, made on first use.
    ///
    /// # Errors
    /// When the database cannot be reached, or the stored key is no P-256 key.
    pub async fn load(pool: &Pool) -> Result<Vapid, String> {
        let bytes = crate::auth::secret::shared_key(pool, NAME).await?;
        Vapid::from_secret(&bytes)
    }

    /// The key pair of the 32-byte secret scalar `bytes`.
    ///
    /// # Errors
    /// When `bytes` is not a P-256 secret (zero, or not below the order).
    pub fn from_secret(bytes: &[u8; 32]) -> Result<Vapid, String> {
        let secret = p256::SecretKey::from_slice(bytes)
            .map_err(|_| "the stored VAPID key is not a P-256 key".to_owned())?;
        let der = secret
            .to_pkcs8_der()
            .map_err(|e| format!("the VAPID key: {e}"))?;
        let public = secret.public_key().to_encoded_point(false);
        Ok(Vapid {
            encoding: EncodingKey::from_ec_der(der.as_bytes()),
            public: BASE64URL_NOPAD.encode(public.as_bytes()),
        })
    }

    /// The public key as browsers take it (`applicationServerKey`).
    #[must_use]
    pub fn public_key(&self) -> &str {
        &self.public
    }

    /// The `Authorization` header of a push to `endpoint` at unix time `now`.
    ///
    /// # Errors
    /// An endpoint without an origin; a JWT that cannot be signed.
    pub fn authorization(&self, endpoint: &str, contact: &str, now: i64) -> Result<String, String> {
        let aud = origin(endpoint).ok_or_else(|| format!("no origin in {endpoint}"))?;
        let claims = Claims {
            aud: &aud,
            exp: now + VALID_SECS,
            sub: contact,
        };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::ES256), &claims, &self.encoding)
            .map_err(|e| format!("VAPID JWT: {e}"))?;
        Ok(format!("vapid t={token}, k={}", self.public))
    }
}

/// The origin of `url` (`scheme://host[:port]`), lower-cased as RFC 6454 has it.
#[must_use]
pub fn origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    let authority = authority.rsplit('@').next()?;
    if scheme.is_empty() || authority.is_empty() {
        return None;
    }
    Some(format!(
        "{}://{}",
        scheme.to_ascii_lowercase(),
        authority.to_ascii_lowercase()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_audience_is_the_endpoints_origin() {
        assert_eq!(
            origin("https://Push.Example.com:8443/wpush/v2/abc?x=1").as_deref(),
            Some("https://push.example.com:8443")
        );
        assert_eq!(
            origin("https://fcm.googleapis.com/fcm/send/x").as_deref(),
            Some("https://fcm.googleapis.com")
        );
        assert_eq!(origin("no-scheme"), None);
    }

    #[test]
    fn the_jwt_verifies_against_the_public_key() {
        // Given a key pair
        let vapid = Vapid::from_secret(&[7u8; 32]).unwrap();
        // When a push is authorized
        let header = vapid
            .authorization(
                "https://push.example/send/1",
                "mailto:ops@example.com",
                1_000,
            )
            .unwrap();
        // Then its token verifies with the `k` it names, for the endpoint's origin
        let (t, k) = header
            .strip_prefix("vapid t=")
            .and_then(|r| r.split_once(", k="))
            .unwrap();
        assert_eq!(k, vapid.public_key());
        let key =
            jsonwebtoken::DecodingKey::from_ec_der(&BASE64URL_NOPAD.decode(k.as_bytes()).unwrap());
        let mut validation = jsonwebtoken::Validation::new(Algorithm::ES256);
        validation.set_audience(&["https://push.example"]);
        validation.validate_exp = false;
        let data = jsonwebtoken::decode::<serde_json::Value>(t, &key, &validation).unwrap();
        assert_eq!(data.claims["exp"], 1_000 + VALID_SECS);
        assert_eq!(data.claims["sub"], "mailto:ops@example.com");
    }
}
