//! The native app channels against local receivers that speak as the
//! services document: an FCM HTTP v1 service (with its OAuth 2 token
//! endpoint, checking the service account's RS256 JWT) and an APNs service
//! over HTTP/2 with TLS (checking the ES256 provider token, the `apns-*`
//! headers and the JSON body), each answering as scripted, errors included.

use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use serde_json::{Value, json};

use hatstand::config::Settings;

use crate::support::{TestApp, User};

const PROJECT: &str = "hatstand-test";
const CLIENT_EMAIL: &str = "push@hatstand-test.iam.gserviceaccount.com";
const KEY_ID: &str = "test-key-id";
const APNS_KEY_ID: &str = "ABC123DEFG";
const TEAM: &str = "DEF123GHIJ";
const TOPIC: &str = "org.hatstand.test";

fn key_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/api/keys")
        .join(name)
}

/// A scripted answer: status and JSON body.
type Scripted = (u16, Value);

/// What a receiver took and answered.
#[derive(Clone, Default)]
pub struct Receiver {
    pub base: String,
    /// Pushes taken, in order: (device token, the request's JSON body).
    pub taken: Arc<Mutex<Vec<(String, Value)>>>,
    /// Every push request: (device token, status answered).
    pub answered: Arc<Mutex<Vec<(String, u16)>>>,
    /// Requests refused for not being as the service documents, and why.
    pub refused: Arc<Mutex<Vec<String>>>,
    /// Access tokens issued (FCM).
    pub issued: Arc<Mutex<Vec<String>>>,
    /// Per device, answers to give before taking pushes (a `gone` one for good).
    script: Arc<Mutex<BTreeMap<String, VecDeque<Scripted>>>>,
}

impl Receiver {
    pub fn answer(&self, device: &str, answers: Vec<Scripted>) {
        self.script
            .lock()
            .unwrap()
            .insert(device.to_owned(), answers.into());
    }

    pub fn of(&self, device: &str) -> Vec<Value> {
        let taken = self.taken.lock().unwrap();
        taken
            .iter()
            .filter(|(d, _)| d == device)
            .map(|(_, b)| b.clone())
            .collect()
    }

    pub fn answered(&self, device: &str) -> Vec<u16> {
        let answered = self.answered.lock().unwrap();
        answered
            .iter()
            .filter(|(d, _)| d == device)
            .map(|(_, s)| *s)
            .collect()
    }

    /// The scripted answer for `device`, or None: take the push. An answer
    /// of 404, 410 or a 400 stays (a dead token stays dead).
    fn scripted(&self, device: &str) -> Option<Scripted> {
        let mut script = self.script.lock().unwrap();
        let queue = script.get_mut(device)?;
        match queue.front() {
            Some((404 | 410 | 400, _)) => queue.front().cloned(),
            _ => queue.pop_front(),
        }
    }

    fn refuse(&self, why: String) -> HttpResponse {
        eprintln!("receiver refused a request: {why}");
        self.refused.lock().unwrap().push(why);
        HttpResponse::BadRequest().json(json!({"error": {"status": "REFUSED_BY_TEST"}}))
    }
}

fn header(req: &HttpRequest, name: &str) -> String {
    req.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned()
}

/// Why an FCM token request is refused, if it is: not a form with the
/// JWT-bearer grant, or an assertion whose RS256 signature does not verify
/// against the service account's public key, or whose `kid`, `iss`,
/// `scope`, `aud`, `iat` or `exp` are not as Google's OAuth 2 server wants.
fn token_request_refusal(req: &HttpRequest, body: &[u8], token_uri: &str) -> Option<String> {
    if header(req, "Content-Type") != "application/x-www-form-urlencoded" {
        return Some(format!("content type {}", header(req, "Content-Type")));
    }
    let form: BTreeMap<String, String> = url_form(body);
    if form.get("grant_type").map(String::as_str)
        != Some("urn:ietf:params:oauth:grant-type:jwt-bearer")
    {
        return Some(format!("grant_type {:?}", form.get("grant_type")));
    }
    let assertion = form.get("assertion")?;
    let public = std::fs::read(key_file("fcm_service_account.pub.pem")).unwrap();
    let key = jsonwebtoken::DecodingKey::from_rsa_pem(&public).unwrap();
    let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::RS256);
    validation.set_audience(&[token_uri]);
    validation.set_issuer(&[CLIENT_EMAIL]);
    validation.set_required_spec_claims(&["exp", "iat", "aud", "iss"]);
    let data = match jsonwebtoken::decode::<Value>(assertion, &key, &validation) {
        Ok(data) => data,
        Err(e) => return Some(format!("assertion: {e}")),
    };
    if data.header.kid.as_deref() != Some(KEY_ID) {
        return Some(format!("kid {:?}", data.header.kid));
    }
    let claims = data.claims;
    if claims["scope"] != "https://www.googleapis.com/auth/firebase.messaging" {
        return Some(format!("scope {}", claims["scope"]));
    }
    let (iat, exp) = (claims["iat"].as_i64()?, claims["exp"].as_i64()?);
    let now = chrono::Utc::now().timestamp();
    if exp - iat > 3600 || (iat - now).abs() > 300 {
        return Some(format!("iat {iat}, exp {exp}"));
    }
    None
}

/// A URL-encoded form's fields (values without `+`, as the server sends them).
fn url_form(body: &[u8]) -> BTreeMap<String, String> {
    let text = String::from_utf8_lossy(body);
    text.split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.replace("%3A", ":").replace("%3a", ":")))
        .collect()
}

/// Why an FCM `messages:send` body is refused, if it is.
fn fcm_message_refusal(body: &Value) -> Option<String> {
    let message = &body["message"];
    let Some(data) = message["data"].as_object() else {
        return Some("no data".into());
    };
    if message["token"].as_str().is_none_or(str::is_empty) {
        return Some("no token".into());
    }
    // FCM's data map holds strings only.
    if !data.values().all(Value::is_string) {
        return Some(format!("data values must be strings: {body}"));
    }
    let mut keys: Vec<&str> = data.keys().map(String::as_str).collect();
    keys.retain(|k| !["game", "version", "kind", "text"].contains(k));
    if !keys.is_empty() {
        return Some(format!("unexpected data {keys:?}"));
    }
    if message["notification"]["body"] != data["text"] {
        return Some("notification body is not the text".into());
    }
    let ttl = message["android"]["ttl"].as_str().unwrap_or("");
    if ttl
        .strip_suffix('s')
        .is_none_or(|n| n.parse::<u64>().is_err())
    {
        return Some(format!("android.ttl {ttl:?}"));
    }
    if !["NORMAL", "HIGH"].contains(&message["android"]["priority"].as_str().unwrap_or("")) {
        return Some("android.priority".into());
    }
    None
}

/// Starts a local FCM: `/token` (OAuth 2) and
/// `/v1/projects/{project}/messages:send`, plain HTTP/1.1.
pub fn fcm_service() -> Receiver {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    let receiver = Receiver {
        base,
        ..Receiver::default()
    };
    let data = web::Data::new(receiver.clone());
    let server = HttpServer::new(move || {
        App::new()
            .app_data(data.clone())
            .route(
                "/token",
                web::post().to(
                    |req: HttpRequest, body: web::Bytes, r: web::Data<Receiver>| async move {
                        let uri = format!("{}/token", r.base);
                        if let Some(why) = token_request_refusal(&req, &body, &uri) {
                            r.refused.lock().unwrap().push(why);
                            return HttpResponse::BadRequest().json(json!({"error": "invalid_grant"}));
                        }
                        let token = format!("ya29.test-{}", uuid::Uuid::new_v4().simple());
                        r.issued.lock().unwrap().push(token.clone());
                        HttpResponse::Ok().json(
                            json!({"access_token": token, "expires_in": 3599, "token_type": "Bearer"}),
                        )
                    },
                ),
            )
            .route(
                "/v1/projects/{project}/messages:send",
                web::post().to(
                    |req: HttpRequest, body: web::Bytes, r: web::Data<Receiver>| async move {
                        if req.match_info()["project"] != *PROJECT {
                            return r.refuse(format!("project {}", &req.match_info()["project"]));
                        }
                        let bearer = header(&req, "Authorization");
                        let known = bearer
                            .strip_prefix("Bearer ")
                            .is_some_and(|t| r.issued.lock().unwrap().iter().any(|i| i == t));
                        if !known {
                            return HttpResponse::Unauthorized().json(json!({"error": {
                                "code": 401, "status": "UNAUTHENTICATED",
                                "message": "Request had invalid authentication credentials."}}));
                        }
                        if !header(&req, "Content-Type").starts_with("application/json") {
                            return r.refuse("content type".into());
                        }
                        let Ok(body) = serde_json::from_slice::<Value>(&body) else {
                            return r.refuse("body is not JSON".into());
                        };
                        if let Some(why) = fcm_message_refusal(&body) {
                            return r.refuse(why);
                        }
                        let device = body["message"]["token"].as_str().unwrap().to_owned();
                        let (status, answer) = match r.scripted(&device) {
                            Some(scripted) => scripted,
                            None => {
                                r.taken.lock().unwrap().push((device.clone(), body));
                                (200, json!({"name": format!("projects/{PROJECT}/messages/0:1")}))
                            }
                        };
                        r.answered.lock().unwrap().push((device, status));
                        let mut reply = HttpResponse::build(
                            actix_web::http::StatusCode::from_u16(status).unwrap(),
                        );
                        if status == 429 {
                            reply.insert_header(("Retry-After", "0"));
                        }
                        reply.json(answer)
                    },
                ),
            )
    })
    .workers(1)
    .listen(listener)
    .unwrap();
    actix_web::rt::spawn(server.run());
    receiver
}

/// Why an APNs request is refused, if it is (Apple's reasons).
fn apns_refusal(req: &HttpRequest, body: &Value) -> Option<(u16, &'static str, String)> {
    if req.version() != actix_web::http::Version::HTTP_2 {
        return Some((
            400,
            "BadRequest",
            format!("{:?}, not HTTP/2", req.version()),
        ));
    }
    let Some(jwt) = header(req, "authorization")
        .strip_prefix("bearer ")
        .map(str::to_owned)
    else {
        return Some((403, "MissingProviderToken", "no bearer".into()));
    };
    let public = std::fs::read(key_file("apns_auth_key.pub.pem")).unwrap();
    let key = jsonwebtoken::DecodingKey::from_ec_pem(&public).unwrap();
    let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::ES256);
    validation.required_spec_claims.clear();
    validation.validate_exp = false;
    validation.set_issuer(&[TEAM]);
    let data = match jsonwebtoken::decode::<Value>(&jwt, &key, &validation) {
        Ok(data) => data,
        Err(e) => return Some((403, "InvalidProviderToken", format!("JWT: {e}"))),
    };
    if data.header.kid.as_deref() != Some(APNS_KEY_ID) {
        return Some((403, "InvalidProviderToken", "kid".into()));
    }
    let iat = data.claims["iat"].as_i64().unwrap_or(0);
    if chrono::Utc::now().timestamp() - iat > 3600 {
        return Some((403, "ExpiredProviderToken", "iat".into()));
    }
    if header(req, "apns-topic") != TOPIC {
        return Some((400, "BadTopic", header(req, "apns-topic")));
    }
    if header(req, "apns-push-type") != "alert" {
        return Some((400, "InvalidPushType", header(req, "apns-push-type")));
    }
    if !["5", "10"].contains(&header(req, "apns-priority").as_str()) {
        return Some((400, "BadPriority", header(req, "apns-priority")));
    }
    let expiration = header(req, "apns-expiration").parse::<i64>().unwrap_or(0);
    if expiration <= chrono::Utc::now().timestamp() {
        return Some((400, "BadExpirationDate", header(req, "apns-expiration")));
    }
    let collapse = header(req, "apns-collapse-id");
    if collapse.len() > 64 || body["aps"]["thread-id"] != collapse.as_str() {
        return Some((400, "BadCollapseId", collapse));
    }
    if body["aps"]["alert"]["body"]
        .as_str()
        .is_none_or(str::is_empty)
    {
        return Some((400, "PayloadEmpty", body.to_string()));
    }
    None
}

/// A certificate for 127.0.0.1 made for the test, as the receiver's TLS
/// settings and as PEM.
fn certificate() -> (rustls::ServerConfig, String) {
    use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};
    let made =
        rcgen::generate_simple_self_signed(vec!["127.0.0.1".into(), "localhost".into()]).unwrap();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(made.key_pair.serialize_der()));
    let tls = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(vec![made.cert.der().clone()], key)
    .unwrap();
    (tls, made.cert.pem())
}

/// Starts a local APNs: `/3/device/{token}` over HTTP/2 with TLS; returns
/// it and its certificate (PEM).
pub fn apns_service() -> (Receiver, String) {
    let (tls, pem) = certificate();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!(
        "https://127.0.0.1:{}",
        listener.local_addr().unwrap().port()
    );
    let receiver = Receiver {
        base,
        ..Receiver::default()
    };
    let data = web::Data::new(receiver.clone());
    let server = HttpServer::new(move || {
        App::new().app_data(data.clone()).route(
            "/3/device/{token}",
            web::post().to(
                |req: HttpRequest, body: web::Bytes, r: web::Data<Receiver>| async move {
                    let device = req.match_info()["token"].to_owned();
                    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                    let (status, answer) =
                        if let Some((status, reason, why)) = apns_refusal(&req, &body) {
                            r.refused.lock().unwrap().push(format!("{reason}: {why}"));
                            (status, json!({"reason": reason}))
                        } else {
                            match r.scripted(&device) {
                                Some(scripted) => scripted,
                                None => {
                                    r.taken.lock().unwrap().push((device.clone(), body));
                                    (200, Value::Null)
                                }
                            }
                        };
                    r.answered.lock().unwrap().push((device, status));
                    let mut reply =
                        HttpResponse::build(actix_web::http::StatusCode::from_u16(status).unwrap());
                    reply.insert_header(("apns-id", uuid::Uuid::new_v4().to_string()));
                    if status == 200 {
                        reply.finish()
                    } else {
                        reply.json(answer)
                    }
                },
            ),
        )
    })
    .workers(1)
    .listen_rustls_0_23(listener, tls)
    .unwrap();
    actix_web::rt::spawn(server.run());
    (receiver, pem)
}

/// Settings pointing both channels at the receivers.
fn native_settings(s: &mut Settings, fcm: &Receiver, apns: &Receiver, apns_pem: &str) {
    let id = uuid::Uuid::new_v4();
    let account = std::env::temp_dir().join(format!("hatstand-fcm-{id}.json"));
    let private_key = std::fs::read_to_string(key_file("fcm_service_account.pem")).unwrap();
    let json = json!({
        "type": "service_account",
        "project_id": PROJECT,
        "private_key_id": KEY_ID,
        "private_key": private_key,
        "client_email": CLIENT_EMAIL,
        "client_id": "1",
        "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": format!("{}/token", fcm.base),
    });
    std::fs::write(&account, json.to_string()).unwrap();
    let ca = std::env::temp_dir().join(format!("hatstand-apns-ca-{id}.pem"));
    std::fs::write(&ca, apns_pem).unwrap();
    s.background.fcm_service_account_file = Some(account);
    s.background.fcm_base_url = fcm.base.clone();
    s.background.apns_key_file = Some(key_file("apns_auth_key.p8"));
    s.background.apns_key_id = Some(APNS_KEY_ID.into());
    s.background.apns_team_id = Some(TEAM.into());
    s.background.apns_topic = Some(TOPIC.into());
    s.background.apns_base_url = apns.base.clone();
    s.background.webhook_ca_file = Some(ca);
    s.background.push_retry_ms = 50;
}

async fn register(app: &TestApp, user: &User, channel: &str, token: &str) -> crate::support::Reply {
    app.post(
        "/v1/me/push-subscriptions",
        Some(&user.token),
        &json!({"channel": channel, "token": token}),
    )
    .await
}

/// An APNs device token: 64 hex digits, told apart by `tag` and `n`.
fn apns_token(tag: u8, n: usize) -> String {
    format!("{tag:02x}{n:02x}{}", "0".repeat(60))
}

/// What a native push says: (kind, game, version), from FCM's data strings
/// or APNs's body.
fn said(body: &Value) -> (String, Value, Value) {
    if let Some(data) = body["message"]["data"].as_object() {
        let version = data.get("version").map_or(Value::Null, |v| {
            json!(v.as_str().unwrap().parse::<i64>().unwrap())
        });
        return (
            data["kind"].as_str().unwrap().to_owned(),
            data["game"].clone(),
            version,
        );
    }
    (
        body["kind"].as_str().unwrap().to_owned(),
        body["game"].clone(),
        body["version"].clone(),
    )
}

#[actix_web::test]
async fn a_whole_games_pushes_reach_an_android_and_an_iphone_in_order() {
    let fcm = fcm_service();
    let (apns, pem) = apns_service();
    let app = TestApp::spawn_with(|s| native_settings(s, &fcm, &apns, &pem)).await;
    let users = app.users(2).await;
    let android = "cN3b8Qk2:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx";
    let iphone = apns_token(0xaa, 1);
    let listed = register(&app, &users[0], "fcm", android).await.ok(201);
    assert_eq!(
        (
            listed["channel"].clone(),
            listed["token"].clone(),
            listed["endpoint"].clone()
        ),
        (json!("fcm"), json!(android), Value::Null)
    );
    register(&app, &users[1], "apns", &iphone.to_uppercase())
        .await
        .ok(201);
    // The same token again: the same registration.
    let again = register(&app, &users[0], "fcm", android).await.ok(200);
    assert_eq!(again["id"], listed["id"]);

    let id = app.started_game(&users, "hats", json!({})).await;
    let played = crate::play::play_out(&app, id.clone(), users.clone(), 43).await;
    assert_eq!(played.game["status"], "finished");
    let queued = app.count("push_outbox").await;
    app.eventually(30, || async {
        (app.count("push_outbox WHERE state = 'sent'").await == queued).then_some(())
    })
    .await;
    assert!(fcm.refused.lock().unwrap().is_empty(), "{:?}", fcm.refused);
    assert!(
        apns.refused.lock().unwrap().is_empty(),
        "{:?}",
        apns.refused
    );
    // One access token served every FCM push (it is kept until it expires).
    assert_eq!(fcm.issued.lock().unwrap().len(), 1);

    let topic = uuid::Uuid::parse_str(&id).unwrap().simple().to_string();
    for (user, pushed) in [(&users[0], fcm.of(android)), (&users[1], apns.of(&iphone))] {
        let read: Vec<_> = pushed.iter().map(said).collect();
        // Every notification, in the order it was written.
        assert_eq!(read, crate::push::pushable_notes(&app, user).await);
        assert_eq!(read.last().unwrap().0, "game_finished");
        for body in &pushed {
            if body.get("message").is_some() {
                assert_eq!(body["message"]["android"]["collapse_key"], topic.as_str());
                assert_eq!(body["message"]["token"], android);
            } else {
                // Nothing beside `aps` but the game, its version and the kind.
                let mut keys: Vec<&str> = body
                    .as_object()
                    .unwrap()
                    .keys()
                    .map(String::as_str)
                    .collect();
                keys.sort_unstable();
                assert_eq!(keys, ["aps", "game", "kind", "version"]);
                assert_eq!(body["aps"]["thread-id"], topic.as_str());
            }
        }
    }
}

#[actix_web::test]
async fn dead_tokens_are_removed_and_busy_services_are_retried() {
    let fcm = fcm_service();
    let (apns, pem) = apns_service();
    let app = TestApp::spawn_with(|s| native_settings(s, &fcm, &apns, &pem)).await;
    let users = app.users(2).await;
    let unregistered = json!({"error": {"code": 404, "status": "NOT_FOUND",
        "message": "Requested entity was not found.",
        "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                     "errorCode": "UNREGISTERED"}]}});
    let invalid_token = json!({"error": {"code": 400, "status": "INVALID_ARGUMENT",
        "message": "The registration token is not a valid FCM registration token",
        "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                     "errorCode": "INVALID_ARGUMENT"},
                    {"@type": "type.googleapis.com/google.rpc.BadRequest",
                     "fieldViolations": [{"field": "message.token",
                                          "description": "Invalid registration token"}]}]}});
    let quota = json!({"error": {"code": 429, "status": "RESOURCE_EXHAUSTED",
        "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                     "errorCode": "QUOTA_EXCEEDED"}]}});
    let unavailable = json!({"error": {"code": 503, "status": "UNAVAILABLE"}});
    for (n, user) in users.iter().enumerate() {
        fcm.answer(&format!("gone-{n}"), vec![(404, unregistered.clone())]);
        fcm.answer(&format!("invalid-{n}"), vec![(400, invalid_token.clone())]);
        fcm.answer(
            &format!("busy-{n}"),
            vec![(429, quota.clone()), (503, unavailable.clone())],
        );
        apns.answer(
            &apns_token(1, n),
            vec![(
                410,
                json!({"reason": "Unregistered", "timestamp": 1_700_000_000_000_i64}),
            )],
        );
        apns.answer(
            &apns_token(2, n),
            vec![(400, json!({"reason": "BadDeviceToken"}))],
        );
        apns.answer(
            &apns_token(3, n),
            vec![(429, json!({"reason": "TooManyRequests"}))],
        );
        for name in ["gone", "invalid", "busy"] {
            register(&app, user, "fcm", &format!("{name}-{n}"))
                .await
                .ok(201);
        }
        for tag in 1..=3 {
            register(&app, user, "apns", &apns_token(tag, n))
                .await
                .ok(201);
        }
    }
    let id = app.started_game(&users, "hats", json!({})).await;
    let seat = app.game(&id, None).await["to_act"][0].as_u64().unwrap() as usize;
    // The busy ones get the turn after their services' 429 (and 503).
    let busy_fcm = format!("busy-{seat}");
    let busy_apns = apns_token(3, seat);
    app.eventually(10, || async {
        (!fcm.of(&busy_fcm).is_empty() && !apns.of(&busy_apns).is_empty()).then_some(())
    })
    .await;
    assert_eq!(fcm.answered(&busy_fcm), [429, 503, 200]);
    assert_eq!(apns.answered(&busy_apns), [429, 200]);
    assert_eq!(said(&fcm.of(&busy_fcm)[0]).0, "your_turn");
    assert_eq!(said(&apns.of(&busy_apns)[0]).0, "your_turn");
    // The dead tokens are removed, after one answer each; the busy ones stay.
    let listed = app
        .eventually(10, || async {
            let listed = app
                .get("/v1/me/push-subscriptions", Some(&users[seat].token))
                .await
                .ok(200);
            (listed.as_array().unwrap().len() == 2).then_some(listed)
        })
        .await;
    let mut left: Vec<String> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().unwrap().to_owned())
        .collect();
    left.sort_unstable();
    assert_eq!(left, [apns_token(3, seat), busy_fcm.clone()]);
    assert_eq!(fcm.answered(&format!("gone-{seat}")), [404]);
    assert_eq!(fcm.answered(&format!("invalid-{seat}")), [400]);
    assert_eq!(apns.answered(&apns_token(1, seat)), [410]);
    assert_eq!(apns.answered(&apns_token(2, seat)), [400]);
    assert!(fcm.refused.lock().unwrap().is_empty(), "{:?}", fcm.refused);
    assert!(
        apns.refused.lock().unwrap().is_empty(),
        "{:?}",
        apns.refused
    );
}

#[actix_web::test]
async fn bad_registrations_are_refused_and_nothing_is_stored() {
    // A server without native channels refuses their tokens.
    let bare = TestApp::spawn().await;
    let user = bare.register("plain").await;
    register(&bare, &user, "fcm", "abc")
        .await
        .assert_problem(422, "push_channel_not_configured");
    register(&bare, &user, "apns", &apns_token(1, 1))
        .await
        .assert_problem(422, "push_channel_not_configured");
    assert_eq!(bare.count("push_subscriptions").await, 0);
    drop(bare);

    let fcm = fcm_service();
    let (apns, pem) = apns_service();
    let app = TestApp::spawn_with(|s| native_settings(s, &fcm, &apns, &pem)).await;
    let user = app.register("careful").await;
    let cases = [
        (json!({"channel": "sms", "token": "abc"}), "unknown_channel"),
        (json!({"channel": "fcm"}), "invalid_push_subscription"),
        (
            json!({"channel": "fcm", "token": ""}),
            "invalid_push_subscription",
        ),
        (
            json!({"channel": "fcm", "token": "has space"}),
            "invalid_push_subscription",
        ),
        (
            json!({"channel": "fcm", "token": "x".repeat(4097)}),
            "invalid_push_subscription",
        ),
        (
            json!({"channel": "fcm", "token": "abc", "endpoint": "https://push.example.com/1"}),
            "invalid_push_subscription",
        ),
        (
            json!({"channel": "apns", "token": "abc"}),
            "invalid_push_subscription",
        ),
        (
            json!({"channel": "apns", "token": format!("zz{}", "0".repeat(62))}),
            "invalid_push_subscription",
        ),
        (json!({"token": "abc"}), "invalid_push_subscription"),
        (
            json!({"channel": "fcm", "token": "abc", "extra": 1}),
            "bad_request",
        ),
    ];
    for (body, code) in &cases {
        let reply = app
            .post("/v1/me/push-subscriptions", Some(&user.token), body)
            .await;
        let status = if *code == "bad_request" { 400 } else { 422 };
        reply.assert_problem(status, code);
        assert_eq!(app.count("push_subscriptions").await, 0, "{body}");
    }
    // Ten devices across channels, and no eleventh.
    for n in 0..5 {
        register(&app, &user, "fcm", &format!("t{n}")).await.ok(201);
        register(&app, &user, "apns", &apns_token(9, n))
            .await
            .ok(201);
    }
    register(&app, &user, "fcm", "t10")
        .await
        .assert_problem(409, "too_many_push_subscriptions");
    assert_eq!(app.count("push_subscriptions").await, 10);
}
