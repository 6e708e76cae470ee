//! The Apple Push Notification service (docs/push.md): a push to a device
//! token is `POST {base}/3/device/{token}` over HTTP/2, with token-based
//! authentication.
//!
//! Rules:
//! - `authorization: bearer <JWT>`: ES256, signed with the team's `.p8`
//!   key, `kid` the key's id, `iss` the team id, `iat` when it was made.
//!   One JWT serves for 40 minutes (Apple refuses one older than an hour
//!   and one renewed more often than every 20 minutes), and is made anew
//!   at once when Apple answers 403 `ExpiredProviderToken` or
//!   `InvalidProviderToken`.
//! - Headers: `apns-topic` the app's bundle id, `apns-push-type: alert`,
//!   `apns-priority` 10 (at once) for a turn, an invitation, a reminder or
//!   a takeback offer, 5 (as the phone's power allows) for the `low` ones,
//!   `apns-expiration` now plus the push's TTL, and `apns-collapse-id` the
//!   game (32 hex digits), so a newer push about a game replaces an older
//!   one on the device.
//! - The body: `aps.alert` with the text (`thread-id` the game, grouping a
//!   game's notifications), and beside `aps` the push's `game`, `version`
//!   and `kind`; nothing else.
//! - Answers, as Apple documents them: 200 sent; 410 `Unregistered`, or 400
//!   `BadDeviceToken`: the token is dead and the registration removed; 429
//!   and 5xx retried; 403 for the provider token retried with a new one;
//!   anything else failed.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::message::Delivery;
use super::verdict::Verdict;
use crate::config::Background;

/// How long one provider token is used.
pub const TOKEN_LIFE: Duration = Duration::from_secs(40 * 60);

#[derive(Serialize, Deserialize)]
struct Claims {
    iss: String,
    iat: i64,
}

/// The APNs channel: the key, its ids, the app, and the JWT in use.
pub struct Apns {
    key: EncodingKey,
    key_id: String,
    team_id: String,
    topic: String,
    base_url: String,
    token: Mutex<Option<(String, Instant)>>,
}

impl Apns {
    /// The channel `settings` configure, if they do.
    ///
    /// # Errors
    /// A key file that cannot be read or is no P-256 key, or a key file
    /// without its key id, team id or topic.
    pub fn from_settings(settings: &Background) -> Result<Option<Apns>, String> {
        let Some(path) = &settings.apns_key_file else {
            return Ok(None);
        };
        let (Some(key_id), Some(team_id), Some(topic)) = (
            &settings.apns_key_id,
            &settings.apns_team_id,
            &settings.apns_topic,
        ) else {
            return Err(
                "--apns-key-file needs --apns-key-id, --apns-team-id and --apns-topic".to_owned(),
            );
        };
        let pem = std::fs::read(path).map_err(|e| format!("APNs key {}: {e}", path.display()))?;
        Apns::new(&pem, key_id, team_id, topic, &settings.apns_base_url)
            .map(Some)
            .map_err(|e| format!("APNs key {}: {e}", path.display()))
    }

    /// The channel of the PKCS#8 PEM key `pem`.
    ///
    /// # Errors
    /// When `pem` is no EC key.
    pub fn new(
        pem: &[u8],
        key_id: &str,
        team_id: &str,
        topic: &str,
        base_url: &str,
    ) -> Result<Apns, String> {
        Ok(Apns {
            key: EncodingKey::from_ec_pem(pem).map_err(|e| e.to_string())?,
            key_id: key_id.to_owned(),
            team_id: team_id.to_owned(),
            topic: topic.to_owned(),
            base_url: base_url.trim_end_matches('/').to_owned(),
            token: Mutex::new(None),
        })
    }

    /// A provider token made at `now` (Unix seconds).
    ///
    /// # Errors
    /// When signing fails.
    pub fn provider_token(&self, now: i64) -> Result<String, String> {
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(self.key_id.clone());
        let claims = Claims {
            iss: self.team_id.clone(),
            iat: now,
        };
        jsonwebtoken::encode(&header, &claims, &self.key).map_err(|e| format!("APNs JWT: {e}"))
    }

    /// The provider token in use, made anew when it is [`TOKEN_LIFE`] old.
    ///
    /// # Errors
    /// When signing fails.
    pub fn bearer(&self) -> Result<String, String> {
        let mut kept = self.token.lock().map_err(|_| "APNs token lock poisoned")?;
        if let Some((token, made)) = kept.as_ref()
            && made.elapsed() < TOKEN_LIFE
        {
            return Ok(token.clone());
        }
        let token = self.provider_token(chrono::Utc::now().timestamp())?;
        *kept = Some((token.clone(), Instant::now()));
        Ok(token)
    }

    /// Forgets the provider token in use (Apple refused it).
    pub fn forget_token(&self) {
        if let Ok(mut kept) = self.token.lock() {
            *kept = None;
        }
    }

    /// The URL of a push to `device`.
    #[must_use]
    pub fn url(&self, device: &str) -> String {
        format!("{}/3/device/{device}", self.base_url)
    }

    /// The headers of `delivery` sent at `now` (Unix seconds), with `bearer`.
    #[must_use]
    pub fn headers(
        &self,
        delivery: &Delivery,
        bearer: &str,
        now: i64,
    ) -> Vec<(&'static str, String)> {
        headers(&self.topic, delivery, bearer, now)
    }
}

/// The headers of `delivery` for the app `topic` sent at `now`, with `bearer`.
#[must_use]
pub fn headers(
    topic: &str,
    delivery: &Delivery,
    bearer: &str,
    now: i64,
) -> Vec<(&'static str, String)> {
    let priority = if delivery.urgency == "low" { "5" } else { "10" };
    let mut headers = vec![
        ("authorization", format!("bearer {bearer}")),
        ("apns-topic", topic.to_owned()),
        ("apns-push-type", "alert".to_owned()),
        ("apns-priority", priority.to_owned()),
        (
            "apns-expiration",
            (now + i64::from(delivery.ttl)).to_string(),
        ),
        ("content-type", "application/json".to_owned()),
    ];
    if let Some(game) = &delivery.topic {
        headers.push(("apns-collapse-id", game.clone()));
    }
    headers
}

/// The JSON body of `delivery`.
#[must_use]
pub fn body(delivery: &Delivery) -> Value {
    let m = &delivery.message;
    let mut aps = json!({"alert": {"title": "hatstand", "body": m.text}});
    if let Some(game) = &delivery.topic {
        aps["thread-id"] = json!(game);
    }
    json!({"aps": aps, "game": m.game, "version": m.version, "kind": m.kind})
}

/// What Apple's answer means (see the module's rules).
#[must_use]
pub fn judge(status: u16, body: &[u8], retry_after: Option<u64>) -> Verdict {
    let answer: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    let reason = answer["reason"].as_str().unwrap_or("");
    let said = format!("APNs answered {status} {reason}")
        .trim_end()
        .to_owned();
    match (status, reason) {
        (200..=299, _) => Verdict::Sent,
        (410, _) | (400, "BadDeviceToken") => Verdict::Gone(said),
        (403, "ExpiredProviderToken" | "InvalidProviderToken") => Verdict::Reauthorize(said),
        (429 | 500..=599, _) => Verdict::Retry(said, retry_after.map(Duration::from_secs)),
        _ => Verdict::Failed(said),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::push::message::PushMessage;

    fn delivery(urgency: &'static str) -> Delivery {
        Delivery {
            message: PushMessage {
                game: Some(uuid::Uuid::nil()),
                version: Some(3),
                kind: "game_finished".into(),
                text: "Top Hats is over.".into(),
            },
            ttl: 86_400,
            urgency,
            topic: Some("00000000000000000000000000000000".into()),
        }
    }

    #[test]
    fn a_push_has_the_documented_headers_and_body() {
        // Given a game's end (low urgency, a day's TTL) sent at t = 1000,
        let sent = headers("org.example.hats", &delivery("low"), "JWT", 1000);
        // then it goes as an alert, power-considerate, expiring with its TTL,
        // collapsed by the game.
        assert_eq!(
            sent,
            vec![
                ("authorization", "bearer JWT".to_owned()),
                ("apns-topic", "org.example.hats".to_owned()),
                ("apns-push-type", "alert".to_owned()),
                ("apns-priority", "5".to_owned()),
                ("apns-expiration", "87400".to_owned()),
                ("content-type", "application/json".to_owned()),
                (
                    "apns-collapse-id",
                    "00000000000000000000000000000000".to_owned()
                ),
            ]
        );
        let urgent = headers("t", &delivery("high"), "JWT", 0);
        assert!(urgent.contains(&("apns-priority", "10".to_owned())));
        assert_eq!(
            body(&delivery("low")),
            json!({"aps": {"alert": {"title": "hatstand", "body": "Top Hats is over."},
                           "thread-id": "00000000000000000000000000000000"},
                   "game": uuid::Uuid::nil(), "version": 3, "kind": "game_finished"})
        );
    }

    #[test]
    fn answers_are_judged_as_apple_documents_them() {
        let reason = |r: &str| serde_json::to_vec(&json!({"reason": r})).unwrap();
        assert_eq!(judge(200, b"", None), Verdict::Sent);
        assert!(matches!(
            judge(410, &reason("Unregistered"), None),
            Verdict::Gone(_)
        ));
        assert!(matches!(
            judge(400, &reason("BadDeviceToken"), None),
            Verdict::Gone(_)
        ));
        // Another 400 is the server's mistake: failed, the token kept.
        assert!(matches!(
            judge(400, &reason("BadCollapseId"), None),
            Verdict::Failed(_)
        ));
        assert!(matches!(
            judge(403, &reason("ExpiredProviderToken"), None),
            Verdict::Reauthorize(_)
        ));
        assert!(matches!(
            judge(403, &reason("DeviceTokenNotForTopic"), None),
            Verdict::Failed(_)
        ));
        assert_eq!(
            judge(429, &reason("TooManyRequests"), Some(2)),
            Verdict::Retry(
                "APNs answered 429 TooManyRequests".into(),
                Some(Duration::from_secs(2))
            )
        );
        assert!(matches!(
            judge(503, &reason("ServiceUnavailable"), None),
            Verdict::Retry(..)
        ));
    }

    #[test]
    fn the_provider_token_is_es256_with_kid_and_iss_and_kept() {
        // Given a P-256 key,
        let secret = p256::SecretKey::from_slice(&[7u8; 32]).unwrap();
        use p256::pkcs8::EncodePrivateKey;
        let der = secret.to_pkcs8_der().unwrap();
        let pem = format!(
            "-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----\n",
            data_encoding::BASE64.encode(der.as_bytes())
        );
        let apns = Apns::new(
            pem.as_bytes(),
            "KEY1234567",
            "TEAM123456",
            "t",
            "https://x/",
        )
        .unwrap();
        // when a token is made,
        let token = apns.bearer().unwrap();
        // then it verifies against the public key, names the key and the team,
        use p256::elliptic_curve::sec1::ToEncodedPoint;
        let point = secret.public_key().to_encoded_point(false);
        let key = jsonwebtoken::DecodingKey::from_ec_der(point.as_bytes());
        let mut validation = jsonwebtoken::Validation::new(Algorithm::ES256);
        validation.required_spec_claims.clear();
        validation.validate_exp = false;
        let data = jsonwebtoken::decode::<Claims>(&token, &key, &validation).unwrap();
        assert_eq!(data.header.kid.as_deref(), Some("KEY1234567"));
        assert_eq!(data.claims.iss, "TEAM123456");
        // and is used again until it is forgotten.
        assert_eq!(apns.bearer().unwrap(), token);
        assert_eq!(apns.url("ab"), "https://x/3/device/ab");
        apns.forget_token();
        assert!(apns.token.lock().unwrap().is_none());
    }
}
