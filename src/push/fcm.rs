//! Firebase Cloud Messaging, HTTP v1 (docs/push.md): a push to an app's
//! registration token is `POST {base}/v1/projects/{project_id}/messages:send`
//! with `Authorization: Bearer <access token>`.
//!
//! Rules:
//! - The access token comes from the service account (its JSON key file):
//!   a JWT signed RS256 with the account's private key (`kid` its
//!   `private_key_id`; `iss` its `client_email`; `scope`
//!   `https://www.googleapis.com/auth/firebase.messaging`; `aud` its
//!   `token_uri`; an hour from `iat` to `exp`) is exchanged at `token_uri`
//!   (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`). The token
//!   is kept until a minute before its `expires_in` ends, and forgotten at
//!   once when FCM answers 401.
//! - The message holds what a Web Push holds, as FCM's `data` (strings
//!   only: `game`, `version`, `kind`, `text`; a null left out), a
//!   `notification` with the text, and for Android the push's TTL, a
//!   priority (`HIGH` for a reminder) and the game as `collapse_key`.
//! - Answers, as FCM documents them: 2xx sent; 404 `UNREGISTERED`, or 400
//!   `INVALID_ARGUMENT` naming the field `message.token`: the token is dead
//!   and the registration removed; 429 and 5xx retried (`Retry-After`);
//!   401 retried with a new access token; anything else failed.

use std::path::Path;
use std::time::{Duration, Instant};

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::message::Delivery;
use super::verdict::Verdict;
use crate::notifications::webhooks::target::Sender;

/// The OAuth 2 scope of FCM's HTTP v1 API.
pub const SCOPE: &str = "https://www.googleapis.com/auth/firebase.messaging";

/// The grant type of a JWT exchanged for an access token (RFC 7523).
pub const GRANT_TYPE: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/// The fields of a service account's JSON key file that are used.
#[derive(Debug, Clone, Deserialize)]
pub struct ServiceAccount {
    pub project_id: String,
    pub private_key_id: String,
    pub private_key: String,
    pub client_email: String,
    pub token_uri: String,
}

#[derive(Serialize)]
struct Claims<'a> {
    iss: &'a str,
    scope: &'a str,
    aud: &'a str,
    iat: i64,
    exp: i64,
}

#[derive(Deserialize)]
struct Granted {
    access_token: String,
    expires_in: u64,
}

/// The FCM channel: the account, its key, and the access token in use.
pub struct Fcm {
    account: ServiceAccount,
    key: EncodingKey,
    base_url: String,
    token: tokio::sync::Mutex<Option<(String, Instant)>>,
}

impl Fcm {
    /// The channel of the service account in the JSON file at `path`.
    ///
    /// # Errors
    /// A file that cannot be read, is not such JSON, or whose key is no RSA key.
    pub fn load(path: &Path, base_url: &str) -> Result<Fcm, String> {
        let unusable =
            |e: &dyn std::fmt::Display| format!("FCM service account {}: {e}", path.display());
        let text = std::fs::read_to_string(path).map_err(|e| unusable(&e))?;
        let account: ServiceAccount = serde_json::from_str(&text).map_err(|e| unusable(&e))?;
        Fcm::new(account, base_url).map_err(|e| unusable(&e))
    }

    /// The channel of `account`.
    ///
    /// # Errors
    /// When its `private_key` is no RSA key in PEM.
    pub fn new(account: ServiceAccount, base_url: &str) -> Result<Fcm, String> {
        let key = EncodingKey::from_rsa_pem(account.private_key.as_bytes())
            .map_err(|e| format!("private_key: {e}"))?;
        Ok(Fcm {
            account,
            key,
            base_url: base_url.trim_end_matches('/').to_owned(),
            token: tokio::sync::Mutex::new(None),
        })
    }

    /// The signed JWT that asks `token_uri` for an access token, at `now`
    /// (Unix seconds).
    ///
    /// # Errors
    /// When signing fails.
    pub fn assertion(&self, now: i64) -> Result<String, String> {
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some(self.account.private_key_id.clone());
        let claims = Claims {
            iss: &self.account.client_email,
            scope: SCOPE,
            aud: &self.account.token_uri,
            iat: now,
            exp: now + 3600,
        };
        jsonwebtoken::encode(&header, &claims, &self.key).map_err(|e| format!("FCM JWT: {e}"))
    }

    /// The access token: the one kept while it is good, else a new one
    /// from `token_uri`.
    ///
    /// # Errors
    /// When `token_uri` gives none.
    pub async fn access_token(&self, client: &Sender) -> Result<String, String> {
        let mut kept = self.token.lock().await;
        if let Some((token, until)) = kept.as_ref()
            && Instant::now() < *until
        {
            return Ok(token.clone());
        }
        let assertion = self.assertion(chrono::Utc::now().timestamp())?;
        // A JWT is URL-safe base64 and dots: only the grant type's colons need escaping.
        let form = format!(
            "grant_type={}&assertion={assertion}",
            GRANT_TYPE.replace(':', "%3A")
        );
        let answer = client
            .post(
                &self.account.token_uri,
                &[(
                    "Content-Type",
                    "application/x-www-form-urlencoded".to_owned(),
                )],
                form.into_bytes(),
            )
            .await?;
        if answer.status != 200 {
            return Err(format!(
                "the token endpoint answered {}: {}",
                answer.status,
                String::from_utf8_lossy(&answer.body)
            ));
        }
        let granted: Granted = serde_json::from_slice(&answer.body)
            .map_err(|e| format!("the token endpoint's answer: {e}"))?;
        let good_for = Duration::from_secs(granted.expires_in.saturating_sub(60));
        *kept = Some((granted.access_token.clone(), Instant::now() + good_for));
        Ok(granted.access_token)
    }

    /// Forgets the access token kept (FCM refused it).
    pub async fn forget_token(&self) {
        *self.token.lock().await = None;
    }

    /// The URL messages are sent to.
    #[must_use]
    pub fn send_url(&self) -> String {
        format!(
            "{}/v1/projects/{}/messages:send",
            self.base_url, self.account.project_id
        )
    }
}

/// The `messages:send` body of `delivery` to the app's `token`.
#[must_use]
pub fn body(token: &str, delivery: &Delivery) -> Value {
    let m = &delivery.message;
    let mut data = serde_json::Map::new();
    if let Some(game) = m.game {
        data.insert("game".into(), json!(game.to_string()));
    }
    if let Some(version) = m.version {
        data.insert("version".into(), json!(version.to_string()));
    }
    data.insert("kind".into(), json!(m.kind));
    data.insert("text".into(), json!(m.text));
    let mut android = json!({
        "ttl": format!("{}s", delivery.ttl),
        "priority": if delivery.urgency == "high" { "HIGH" } else { "NORMAL" },
    });
    if let Some(topic) = &delivery.topic {
        android["collapse_key"] = json!(topic);
    }
    json!({"message": {
        "token": token,
        "data": data,
        "notification": {"title": "hatstand", "body": m.text},
        "android": android,
    }})
}

/// What FCM's answer means (see the module's rules).
#[must_use]
pub fn judge(status: u16, body: &[u8], retry_after: Option<u64>) -> Verdict {
    let said = format!("FCM answered {status}");
    let error: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    let details = error["error"]["details"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let code = details
        .iter()
        .find_map(|d| d["errorCode"].as_str().map(str::to_owned))
        .or_else(|| error["error"]["status"].as_str().map(str::to_owned))
        .unwrap_or_default();
    let on_token = details.iter().any(|d| {
        d["fieldViolations"]
            .as_array()
            .is_some_and(|v| v.iter().any(|f| f["field"] == "message.token"))
    });
    match status {
        200..=299 => Verdict::Sent,
        404 if code == "UNREGISTERED" => Verdict::Gone(format!("{said} UNREGISTERED")),
        400 if code == "INVALID_ARGUMENT" && on_token => {
            Verdict::Gone(format!("{said} INVALID_ARGUMENT on message.token"))
        }
        401 => Verdict::Reauthorize(said),
        429 | 500..=599 => Verdict::Retry(
            format!("{said} {code}").trim_end().to_owned(),
            retry_after.map(Duration::from_secs),
        ),
        _ => Verdict::Failed(format!("{said} {code}").trim_end().to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::push::message::PushMessage;

    fn delivery(urgency: &'static str, version: Option<i64>) -> Delivery {
        Delivery {
            message: PushMessage {
                game: Some(uuid::Uuid::nil()),
                version,
                kind: "your_turn".into(),
                text: "Your turn in Top Hats.".into(),
            },
            ttl: 604_800,
            urgency,
            topic: Some("00000000000000000000000000000000".into()),
        }
    }

    #[test]
    fn the_message_holds_the_push_as_strings_and_android_its_ttl_priority_and_game() {
        // Given a turn's push at version 17, when it is made an FCM message,
        let sent = body("tok", &delivery("normal", Some(17)));
        // then data holds strings only, and Android gets TTL, priority, collapse key.
        assert_eq!(
            sent,
            json!({"message": {
                "token": "tok",
                "data": {"game": uuid::Uuid::nil().to_string(), "version": "17",
                         "kind": "your_turn", "text": "Your turn in Top Hats."},
                "notification": {"title": "hatstand", "body": "Your turn in Top Hats."},
                "android": {"ttl": "604800s", "priority": "NORMAL",
                            "collapse_key": "00000000000000000000000000000000"},
            }})
        );
        // A reminder is urgent; a null version is left out.
        let sent = body("tok", &delivery("high", None));
        assert_eq!(sent["message"]["android"]["priority"], "HIGH");
        assert!(sent["message"]["data"].get("version").is_none());
    }

    #[test]
    fn answers_are_judged_as_fcm_documents_them() {
        let error = |status: &str, details: Value| {
            serde_json::to_vec(&json!({"error": {"code": 0, "status": status, "details": details}}))
                .unwrap()
        };
        let fcm_error = |code: &str| json!([{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": code}]);
        assert_eq!(judge(200, b"{}", None), Verdict::Sent);
        assert!(matches!(
            judge(404, &error("NOT_FOUND", fcm_error("UNREGISTERED")), None),
            Verdict::Gone(_)
        ));
        let bad_token = json!([{"@type": "type.googleapis.com/google.rpc.BadRequest",
                                 "fieldViolations": [{"field": "message.token",
                                                      "description": "Invalid registration token"}]}]);
        assert!(matches!(
            judge(400, &error("INVALID_ARGUMENT", bad_token), None),
            Verdict::Gone(_)
        ));
        // An invalid argument elsewhere is the server's mistake: failed, token kept.
        let bad_ttl = json!([{"@type": "type.googleapis.com/google.rpc.BadRequest",
                               "fieldViolations": [{"field": "message.android.ttl"}]}]);
        assert!(matches!(
            judge(400, &error("INVALID_ARGUMENT", bad_ttl), None),
            Verdict::Failed(_)
        ));
        assert_eq!(
            judge(
                429,
                &error("RESOURCE_EXHAUSTED", fcm_error("QUOTA_EXCEEDED")),
                Some(7)
            ),
            Verdict::Retry(
                "FCM answered 429 QUOTA_EXCEEDED".into(),
                Some(Duration::from_secs(7))
            )
        );
        assert!(matches!(judge(503, b"", None), Verdict::Retry(_, None)));
        assert!(matches!(judge(401, b"", None), Verdict::Reauthorize(_)));
        assert!(matches!(
            judge(
                403,
                &error("PERMISSION_DENIED", fcm_error("SENDER_ID_MISMATCH")),
                None
            ),
            Verdict::Failed(_)
        ));
    }
}
