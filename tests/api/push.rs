//! Web Push against a local push service that speaks RFC 8030: it takes
//! the POST, checks the VAPID JWT (RFC 8292) against the server's public
//! key, and keeps the message; the tests decrypt every payload (RFC 8291)
//! with the device's private key.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use data_encoding::BASE64URL_NOPAD;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use serde_json::{Value, json};

use crate::support::{TestApp, User, settings, start_server};

/// One push the service took.
#[derive(Debug, Clone)]
pub struct Pushed {
    /// The endpoint's last path segment (the device).
    pub device: String,
    pub ttl: String,
    pub urgency: String,
    pub topic: String,
    pub body: Vec<u8>,
}

/// A local push service.
#[derive(Clone)]
pub struct PushService {
    pub base: String,
    /// Pushes taken, in the order they came.
    pub taken: Arc<Mutex<Vec<Pushed>>>,
    /// Every request, with the status it was answered.
    pub answered: Arc<Mutex<Vec<(String, u16)>>>,
    /// Per device, statuses to answer before taking pushes (410: always).
    script: Arc<Mutex<BTreeMap<String, VecDeque<u16>>>>,
}

impl PushService {
    /// A device's endpoint at this service.
    pub fn endpoint(&self, device: &str) -> String {
        format!("{}/push/{device}", self.base)
    }

    /// Answers `statuses` to `device`'s next pushes (a 410 for good).
    pub fn answer(&self, device: &str, statuses: &[u16]) {
        self.script
            .lock()
            .unwrap()
            .insert(device.to_owned(), statuses.iter().copied().collect());
    }

    /// What `device` was sent, in order.
    pub fn of(&self, device: &str) -> Vec<Pushed> {
        let taken = self.taken.lock().unwrap();
        taken
            .iter()
            .filter(|p| p.device == device)
            .cloned()
            .collect()
    }
}

/// Why a push's VAPID `Authorization` is refused, if it is: not `vapid
/// t=<JWT>, k=<key>`, a key other than `key`, a JWT whose ES256 signature
/// does not verify against `k`, whose `aud` is not `origin`, whose `exp` is
/// past or more than 24 hours ahead, or without a `mailto:`/`https:` `sub`.
fn vapid_refusal(header: &str, key: &str, origin: &str) -> Option<String> {
    let Some((t, k)) = header
        .strip_prefix("vapid t=")
        .and_then(|r| r.split_once(", k="))
    else {
        return Some(format!("not a vapid authorization: {header}"));
    };
    if k != key {
        return Some("not the application server's key".into());
    }
    let point = BASE64URL_NOPAD.decode(k.as_bytes()).ok()?;
    let decoding = jsonwebtoken::DecodingKey::from_ec_der(&point);
    let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::ES256);
    validation.set_audience(&[origin]);
    validation.set_required_spec_claims(&["exp", "aud", "sub"]);
    let claims = match jsonwebtoken::decode::<Value>(t, &decoding, &validation) {
        Ok(data) => data.claims,
        Err(e) => return Some(format!("JWT: {e}")),
    };
    let exp = claims["exp"].as_i64().unwrap_or(0);
    if exp > chrono::Utc::now().timestamp() + 24 * 3600 {
        return Some("exp more than 24 hours ahead".into());
    }
    let sub = claims["sub"].as_str().unwrap_or("");
    if !(sub.starts_with("mailto:") || sub.starts_with("https:")) {
        return Some(format!("sub {sub:?}"));
    }
    None
}

/// Starts a push service on 127.0.0.1 that takes pushes signed with `key`.
pub fn push_service(key: &str) -> PushService {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    let service = PushService {
        base: base.clone(),
        taken: Arc::default(),
        answered: Arc::default(),
        script: Arc::default(),
    };
    let data = web::Data::new((service.clone(), key.to_owned()));
    let server = HttpServer::new(move || {
        App::new().app_data(data.clone()).route(
            "/push/{device}",
            web::post().to(
                |req: HttpRequest, body: web::Bytes, data: web::Data<(PushService, String)>| async move {
                    let (service, key) = &**data;
                    let device = req.match_info()["device"].to_owned();
                    let header = |n: &str| {
                        req.headers()
                            .get(n)
                            .and_then(|v| v.to_str().ok())
                            .unwrap_or("")
                            .to_owned()
                    };
                    let status = if let Some(why) =
                        vapid_refusal(&header("Authorization"), key, &service.base)
                    {
                        eprintln!("push service refused a push: {why}");
                        403
                    } else if header("Content-Encoding") != "aes128gcm"
                        || header("TTL").parse::<u32>().is_err()
                    {
                        400
                    } else {
                        let scripted = {
                            let mut script = service.script.lock().unwrap();
                            match script.get_mut(&device) {
                                Some(q) if q.front() == Some(&410) => Some(410),
                                Some(q) => q.pop_front(),
                                None => None,
                            }
                        };
                        match scripted {
                            Some(status) => status,
                            None => {
                                service.taken.lock().unwrap().push(Pushed {
                                    device: device.clone(),
                                    ttl: header("TTL"),
                                    urgency: header("Urgency"),
                                    topic: header("Topic"),
                                    body: body.to_vec(),
                                });
                                201
                            }
                        }
                    };
                    service.answered.lock().unwrap().push((device, status));
                    let mut answer = HttpResponse::build(
                        actix_web::http::StatusCode::from_u16(status).unwrap(),
                    );
                    if status == 429 {
                        answer.insert_header(("Retry-After", "0"));
                    }
                    answer.finish()
                },
            ),
        )
    })
    .workers(1)
    .listen(listener)
    .unwrap();
    actix_web::rt::spawn(server.run());
    service
}

/// A browser's side of a subscription: its key pair and auth secret.
pub struct Device {
    secret: p256::SecretKey,
    auth: [u8; 16],
}

impl Device {
    pub fn new() -> Device {
        loop {
            let mut bytes = [0u8; 32];
            rand::fill(&mut bytes);
            if let Ok(secret) = p256::SecretKey::from_slice(&bytes) {
                let mut auth = [0u8; 16];
                rand::fill(&mut auth);
                return Device { secret, auth };
            }
        }
    }

    /// `PushSubscription.toJSON()` for `endpoint`.
    pub fn subscription(&self, endpoint: &str) -> Value {
        let point = self.secret.public_key().to_encoded_point(false);
        json!({
            "endpoint": endpoint,
            "expirationTime": null,
            "keys": {
                "p256dh": BASE64URL_NOPAD.encode(point.as_bytes()),
                "auth": BASE64URL_NOPAD.encode(&self.auth),
            }
        })
    }

    /// A push's payload, decrypted.
    pub fn read(&self, pushed: &Pushed) -> Value {
        let auth = web_push_native::Auth::from(self.auth);
        let plain = web_push_native::decrypt(pushed.body.clone(), &self.secret, &auth)
            .expect("the payload decrypts with the device's key");
        serde_json::from_slice(&plain).unwrap()
    }
}

pub async fn server_key(app: &TestApp) -> String {
    let key = app.get("/v1/push/key", None).await.ok(200);
    key["public_key"].as_str().unwrap().to_owned()
}

pub(crate) async fn subscribe(app: &TestApp, user: &User, body: &Value) -> crate::support::Reply {
    app.post("/v1/me/push-subscriptions", Some(&user.token), body)
        .await
}

#[actix_web::test]
async fn the_key_is_kept_and_subscriptions_are_registered_listed_and_deleted() {
    let app = TestApp::spawn().await;
    let key = server_key(&app).await;
    assert_eq!(BASE64URL_NOPAD.decode(key.as_bytes()).unwrap().len(), 65);
    // Another process of the same database signs with the same key.
    let other = start_server(&app.db.url, &settings(&app.db.url)).await;
    let again: Value = app
        .client
        .get(format!("{other}/v1/push/key"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(again["public_key"], key.as_str());

    let user = app.register("pusher").await;
    let device = Device::new();
    let body = device.subscription("https://push.example.com/wpush/1");
    let created = subscribe(&app, &user, &body).await.ok(201);
    // The same endpoint again (renewed keys): the same subscription.
    let renewed = subscribe(
        &app,
        &user,
        &Device::new().subscription("https://push.example.com/wpush/1"),
    )
    .await
    .ok(200);
    assert_eq!(renewed["id"], created["id"]);
    let listed = app
        .get("/v1/me/push-subscriptions", Some(&user.token))
        .await
        .ok(200);
    assert_eq!(listed.as_array().unwrap().len(), 1);
    assert_eq!(listed[0]["endpoint"], "https://push.example.com/wpush/1");
    // Nobody else sees or deletes it.
    let stranger = app.register("stranger").await;
    let theirs = app
        .get("/v1/me/push-subscriptions", Some(&stranger.token))
        .await
        .ok(200);
    assert_eq!(theirs, json!([]));
    let path = format!(
        "/v1/me/push-subscriptions/{}",
        created["id"].as_str().unwrap()
    );
    let reply = app
        .send("DELETE", &path, Some(&stranger.token), &[], &json!(null))
        .await;
    reply.assert_problem(404, "not_found");
    let reply = app
        .send("DELETE", &path, Some(&user.token), &[], &json!(null))
        .await;
    assert_eq!(reply.status.as_u16(), 204);
    assert_eq!(app.count("push_subscriptions").await, 0);
}

#[actix_web::test]
async fn bad_subscriptions_are_refused_and_nothing_is_stored() {
    let app = TestApp::spawn_with(|s| {
        s.background.push_allow_http = false;
        s.background.webhook_allow_private = false;
    })
    .await;
    let user = app.register("careful").await;
    let good = Device::new().subscription("https://push.example.com/wpush/x");
    let with = |path: &[&str], value: Value| {
        let mut body = good.clone();
        let mut at = &mut body;
        for p in &path[..path.len() - 1] {
            at = &mut at[*p];
        }
        at[path[path.len() - 1]] = value;
        body
    };
    let cases = [
        (
            with(&["endpoint"], json!("http://push.example.com/wpush/x")),
            "invalid_push_subscription",
        ),
        (
            with(&["endpoint"], json!("ftp://push.example.com/x")),
            "invalid_push_subscription",
        ),
        (
            with(&["endpoint"], json!("https://127.0.0.1/push")),
            "invalid_push_subscription",
        ),
        (
            with(&["endpoint"], json!("https://10.1.2.3/push")),
            "invalid_push_subscription",
        ),
        (
            with(&["endpoint"], json!("https://[::1]/push")),
            "invalid_push_subscription",
        ),
        (
            with(&["endpoint"], json!("https://localhost/push")),
            "invalid_push_subscription",
        ),
        (
            with(&["keys", "p256dh"], json!("not base64!")),
            "invalid_push_subscription",
        ),
        (
            with(
                &["keys", "p256dh"],
                json!(BASE64URL_NOPAD.encode(&[4u8; 33])),
            ),
            "invalid_push_subscription",
        ),
        // 65 bytes that are no point on the curve.
        (
            with(
                &["keys", "p256dh"],
                json!(BASE64URL_NOPAD.encode(&[4u8; 65])),
            ),
            "invalid_push_subscription",
        ),
        (
            with(&["keys", "auth"], json!(BASE64URL_NOPAD.encode(&[1u8; 15]))),
            "invalid_push_subscription",
        ),
        (with(&["keys", "extra"], json!("x")), "bad_request"),
        (with(&["keys"], json!(null)), "invalid_push_subscription"),
    ];
    for (body, code) in &cases {
        let reply = subscribe(&app, &user, body).await;
        let status = if *code == "bad_request" { 400 } else { 422 };
        reply.assert_problem(status, code);
        assert_eq!(app.count("push_subscriptions").await, 0, "{body}");
    }
    // Ten devices, and no eleventh.
    for n in 0..10 {
        let body = Device::new().subscription(&format!("https://push.example.com/wpush/{n}"));
        subscribe(&app, &user, &body).await.ok(201);
    }
    let body = Device::new().subscription("https://push.example.com/wpush/10");
    subscribe(&app, &user, &body)
        .await
        .assert_problem(409, "too_many_push_subscriptions");
    assert_eq!(app.count("push_subscriptions").await, 10);
}

/// The notifications of `user`, in order, as pushes tell them: (kind, game, version).
pub async fn pushable_notes(app: &TestApp, user: &User) -> Vec<(String, Value, Value)> {
    app.all_notifications(user)
        .await
        .iter()
        .map(|n| {
            let version = match n["type"].as_str().unwrap() {
                "invited" | "talk" => Value::Null,
                _ => n["data"]["version"].clone(),
            };
            (
                n["type"].as_str().unwrap().to_owned(),
                n["game_id"].clone(),
                version,
            )
        })
        .collect()
}

#[actix_web::test]
async fn a_whole_games_pushes_arrive_in_order_after_a_restart_and_decrypt() {
    // A process that queues pushes but sends none (as one that stops).
    let app = TestApp::spawn_with(|s| s.background.push_tick_ms = 0).await;
    let service = push_service(&server_key(&app).await);
    let users = app.users(2).await;
    let devices: Vec<Device> = users.iter().map(|_| Device::new()).collect();
    for (n, (user, device)) in users.iter().zip(&devices).enumerate() {
        let body = device.subscription(&service.endpoint(&format!("d{n}")));
        subscribe(&app, user, &body).await.ok(201);
    }
    let id = app.started_game(&users, "hats", json!({})).await;
    let played = crate::play::play_out(&app, id.clone(), users.clone(), 43).await;
    let queued = app.count("push_outbox WHERE state = 'pending'").await;
    assert!(queued > 2, "{queued}");
    assert!(service.taken.lock().unwrap().is_empty());

    // The next process delivers what the first queued.
    let mut restarted = settings(&app.db.url);
    restarted.background.push_tick_ms = 100;
    start_server(&app.db.url, &restarted).await;
    app.eventually(30, || async {
        (service.taken.lock().unwrap().len() as i64 == queued).then_some(())
    })
    .await;
    assert_eq!(app.count("push_outbox WHERE state = 'sent'").await, queued);

    let topic = uuid::Uuid::parse_str(&id).unwrap().simple().to_string();
    for (n, (user, device)) in users.iter().zip(&devices).enumerate() {
        let pushed = service.of(&format!("d{n}"));
        let mut read = Vec::new();
        for p in &pushed {
            let message = device.read(p);
            // Nothing but the game, its version, the kind and a short text.
            let mut keys: Vec<&str> = message
                .as_object()
                .unwrap()
                .keys()
                .map(|k| k.as_str())
                .collect();
            keys.sort_unstable();
            assert_eq!(keys, ["game", "kind", "text", "version"], "{message}");
            assert_eq!(message["game"], id.as_str());
            assert!(
                message["text"].as_str().unwrap().contains("Hats"),
                "{message}"
            );
            assert_eq!(p.topic, topic);
            let (ttl, urgency) = match message["kind"].as_str().unwrap() {
                "your_turn" => ("604800", "normal"),
                "game_finished" => ("86400", "low"),
                other => panic!("unexpected kind {other}"),
            };
            assert_eq!((p.ttl.as_str(), p.urgency.as_str()), (ttl, urgency));
            read.push((
                message["kind"].as_str().unwrap().to_owned(),
                message["game"].clone(),
                message["version"].clone(),
            ));
        }
        // Every notification, in the order it was written.
        assert_eq!(read, pushable_notes(&app, user).await, "user {n}");
        assert_eq!(read.last().unwrap().0, "game_finished");
        // The other device's key cannot read them.
        let other = &devices[1 - n];
        let auth = web_push_native::Auth::from(other.auth);
        assert!(web_push_native::decrypt(pushed[0].body.clone(), &other.secret, &auth).is_err());
    }
    assert_eq!(played.game["status"], "finished");
}

#[actix_web::test]
async fn a_gone_subscription_is_removed_and_a_busy_service_is_retried() {
    let app = TestApp::spawn().await;
    let service = push_service(&server_key(&app).await);
    let users = app.users(2).await;
    let device = Device::new();
    for (n, user) in users.iter().enumerate() {
        service.answer(&format!("gone{n}"), &[410]);
        service.answer(&format!("busy{n}"), &[429, 503]);
        for name in ["gone", "busy"] {
            let body = device.subscription(&service.endpoint(&format!("{name}{n}")));
            subscribe(&app, user, &body).await.ok(201);
        }
    }
    let id = app.started_game(&users, "hats", json!({})).await;
    let seat = app.game(&id, None).await["to_act"][0].as_u64().unwrap() as usize;
    // The busy device gets its turn after a 429 and a 503.
    let pushed = app
        .eventually(10, || async {
            service.of(&format!("busy{seat}")).first().cloned()
        })
        .await;
    assert_eq!(device.read(&pushed)["kind"], "your_turn");
    let answered: Vec<u16> = service
        .answered
        .lock()
        .unwrap()
        .iter()
        .filter(|(d, _)| *d == format!("busy{seat}"))
        .map(|(_, s)| *s)
        .collect();
    assert_eq!(answered, [429, 503, 201]);
    app.eventually(10, || async {
        (app.count("push_outbox WHERE state = 'sent' AND attempts = 3")
            .await
            == 1)
            .then_some(())
    })
    .await;
    // The gone device's subscription is removed; the busy one stays.
    let listed = app
        .eventually(10, || async {
            let listed = app
                .get("/v1/me/push-subscriptions", Some(&users[seat].token))
                .await
                .ok(200);
            (listed.as_array().unwrap().len() == 1).then_some(listed)
        })
        .await;
    assert!(
        listed[0]["endpoint"]
            .as_str()
            .unwrap()
            .ends_with(&format!("busy{seat}"))
    );
    assert!(service.of(&format!("gone{seat}")).is_empty());
}

#[actix_web::test]
async fn a_push_signed_with_another_key_is_refused_by_the_service_and_given_up() {
    let app = TestApp::spawn().await;
    // A service that expects some other application server's key.
    let other = vapid_of_another_server();
    let service = push_service(&other);
    let users = app.users(2).await;
    for (n, user) in users.iter().enumerate() {
        let body = Device::new().subscription(&service.endpoint(&format!("d{n}")));
        subscribe(&app, user, &body).await.ok(201);
    }
    app.started_game(&users, "hats", json!({})).await;
    app.eventually(10, || async {
        (app.count("push_outbox WHERE state = 'failed' AND last_status = 403")
            .await
            == 1)
            .then_some(())
    })
    .await;
    // Refused at once: a 403 is not retried.
    assert_eq!(app.count("push_outbox WHERE attempts > 1").await, 0);
    assert!(service.taken.lock().unwrap().is_empty());
}

fn vapid_of_another_server() -> String {
    let device = Device::new();
    let point = device.secret.public_key().to_encoded_point(false);
    BASE64URL_NOPAD.encode(point.as_bytes())
}
