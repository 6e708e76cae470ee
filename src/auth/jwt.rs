//! Access tokens: JWT signed with HS256, carrying the user id (`sub`), the
//! sign-in session (`sid`), issue and expiry times and the issuer. Only HS256 with our key and issuer is
//! accepted: `alg: none`, other algorithms, other keys, expired tokens and
//! tokens of another issuer are all refused.

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation, decode, encode};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::Failure;

/// The issuer written into and required from every token.
pub const ISSUER: &str = "hatstand";

/// How far in the future a token's `iat` may lie (clock skew between
/// server processes).
const IAT_SKEW_SECS: i64 = 60;

/// The claims of an access token.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    /// The user id.
    pub sub: Uuid,
    /// The username at issue time (informative).
    pub name: String,
    /// The sign-in session the token belongs to: it is honoured only while
    /// that session is live. (Tokens issued before sessions existed have
    /// none and are refused.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sid: Option<Uuid>,
    /// Issued at (seconds since the epoch).
    pub iat: i64,
    /// Expires at (seconds since the epoch).
    pub exp: i64,
    /// Always [`ISSUER`].
    pub iss: String,
}

/// The signing and verifying keys, and how long tokens live.
#[derive(Clone)]
pub struct JwtKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    ttl_seconds: i64,
}

impl JwtKeys {
    /// Keys from a shared secret; tokens live `ttl_seconds`.
    #[must_use]
    pub fn new(secret: &[u8], ttl_seconds: i64) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[ISSUER]);
        validation.set_required_spec_claims(&["exp", "iat", "iss", "sub"]);
        validation.leeway = 5;
        JwtKeys {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation,
            ttl_seconds,
        }
    }

    /// How long a token lives, in seconds.
    #[must_use]
    pub fn ttl_seconds(&self) -> i64 {
        self.ttl_seconds
    }

    /// A fresh access token for the user's session `sid`.
    ///
    /// # Errors
    /// Only if signing fails, which HS256 with a key does not.
    pub fn issue(&self, user_id: Uuid, username: &str, sid: Uuid) -> Result<String, Failure> {
        let now = chrono::Utc::now().timestamp();
        let claims = Claims {
            sub: user_id,
            name: username.to_owned(),
            sid: Some(sid),
            iat: now,
            exp: now + self.ttl_seconds,
            iss: ISSUER.to_owned(),
        };
        encode(&Header::new(Algorithm::HS256), &claims, &self.encoding).map_err(Failure::internal)
    }

    /// The claims of a valid token. (Whether its session is still live is
    /// for the database to say.)
    ///
    /// # Errors
    /// `unauthenticated` for anything but a valid, unexpired HS256 token of ours.
    pub fn verify(&self, token: &str) -> Result<Claims, Failure> {
        let claims = self.decode(token)?;
        // A token issued in the future was not issued by this server's
        // clock (a minute of skew between processes is allowed).
        if claims.iat > chrono::Utc::now().timestamp() + IAT_SKEW_SECS {
            return Err(Failure::unauthenticated(
                "the token was issued in the future",
            ));
        }
        Ok(claims)
    }

    fn decode(&self, token: &str) -> Result<Claims, Failure> {
        decode::<Claims>(token, &self.decoding, &self.validation)
            .map(|data| data.claims)
            .map_err(|e| {
                use jsonwebtoken::errors::ErrorKind;
                let why = match e.kind() {
                    ErrorKind::ExpiredSignature => "the token has expired",
                    ErrorKind::InvalidSignature => "the token's signature is not valid",
                    ErrorKind::InvalidAlgorithm | ErrorKind::InvalidAlgorithmName => {
                        "the token is not signed with HS256"
                    }
                    ErrorKind::InvalidIssuer => "the token was not issued by this server",
                    _ => "the token is malformed",
                };
                Failure::unauthenticated(why)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64_free::b64url;

    /// Base64url without padding, enough to forge tokens in tests.
    mod base64_free {
        pub fn b64url(bytes: &[u8]) -> String {
            const A: &[u8; 64] =
                b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
            let mut out = String::new();
            for chunk in bytes.chunks(3) {
                let b = [
                    chunk[0],
                    *chunk.get(1).unwrap_or(&0),
                    *chunk.get(2).unwrap_or(&0),
                ];
                let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
                for i in 0..=chunk.len() {
                    out.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
                }
            }
            out
        }
    }

    fn keys() -> JwtKeys {
        JwtKeys::new(b"test secret of enough length....", 3600)
    }

    #[test]
    fn a_token_we_issue_verifies() {
        let id = Uuid::new_v4();
        let token = keys().issue(id, "ann", Uuid::new_v4()).unwrap();
        let claims = keys().verify(&token).unwrap();
        assert_eq!(claims.sub, id);
        assert_eq!(claims.iss, ISSUER);
    }

    #[test]
    fn a_token_signed_with_another_key_is_refused() {
        let other = JwtKeys::new(b"another secret of enough length.", 3600);
        let token = other.issue(Uuid::new_v4(), "ann", Uuid::new_v4()).unwrap();
        assert_eq!(
            keys().verify(&token).unwrap_err().code(),
            crate::error::ErrorCode::Unauthenticated
        );
    }

    #[test]
    fn a_token_issued_in_the_future_is_refused() {
        let keys = keys();
        let now = chrono::Utc::now().timestamp();
        let claims = Claims {
            sub: Uuid::new_v4(),
            name: "ann".into(),
            sid: Some(Uuid::new_v4()),
            iat: now + 3600,
            exp: now + 7200,
            iss: ISSUER.to_owned(),
        };
        let token = encode(&Header::new(Algorithm::HS256), &claims, &keys.encoding).unwrap();
        assert_eq!(
            keys.verify(&token).unwrap_err().code(),
            crate::error::ErrorCode::Unauthenticated
        );
    }

    #[test]
    fn an_expired_token_is_refused() {
        let expired = JwtKeys::new(b"test secret of enough length....", -120);
        let token = expired
            .issue(Uuid::new_v4(), "ann", Uuid::new_v4())
            .unwrap();
        assert!(keys().verify(&token).is_err());
    }

    #[test]
    fn an_unsigned_alg_none_token_is_refused() {
        let header = b64url(br#"{"alg":"none","typ":"JWT"}"#);
        let now = chrono::Utc::now().timestamp();
        let claims = format!(
            r#"{{"sub":"{}","name":"x","iat":{now},"exp":{},"iss":"hatstand"}}"#,
            Uuid::new_v4(),
            now + 600
        );
        let token = format!("{header}.{}.", b64url(claims.as_bytes()));
        assert!(keys().verify(&token).is_err());
    }

    #[test]
    fn garbage_is_refused() {
        assert!(keys().verify("not.a.token").is_err());
        assert!(keys().verify("").is_err());
    }
}
