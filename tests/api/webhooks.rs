//! Webhooks: signed deliveries to a local receiver, retries, failures shown.

use std::sync::{Arc, Mutex};

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;

use crate::support::{TestApp, User};

/// What the receiver got: (Hatstand-Delivery, Hatstand-Signature, body).
pub type Received = Arc<Mutex<Vec<(String, String, Vec<u8>)>>>;

/// A local HTTP receiver that answers `fail_first` requests with 500, then 204.
pub fn receiver(fail_first: usize) -> (String, Received) {
    receiver_with(fail_first, None)
}

/// The receiver, over HTTPS with `tls` when given.
fn receiver_with(fail_first: usize, tls: Option<rustls::ServerConfig>) -> (String, Received) {
    let got: Received = Arc::default();
    let data = web::Data::new((Arc::clone(&got), fail_first));
    let server = HttpServer::new(move || {
        App::new().app_data(data.clone()).route(
            "/hook",
            web::post().to(
                |req: HttpRequest, body: web::Bytes, data: web::Data<(Received, usize)>| async move {
                    let header = |n: &str| {
                        req.headers()
                            .get(n)
                            .map(|v| v.to_str().unwrap().to_owned())
                            .unwrap_or_default()
                    };
                    let mut got = data.0.lock().unwrap();
                    got.push((
                        header("Hatstand-Delivery"),
                        header("Hatstand-Signature"),
                        body.to_vec(),
                    ));
                    if got.len() <= data.1 {
                        HttpResponse::InternalServerError().body("not now")
                    } else {
                        HttpResponse::NoContent().finish()
                    }
                },
            ),
        )
    })
    .workers(1);
    let scheme = if tls.is_some() { "https" } else { "http" };
    let server = match tls {
        Some(tls) => server.bind_rustls_0_23("127.0.0.1:0", tls),
        None => server.bind("127.0.0.1:0"),
    }
    .unwrap();
    let port = server.addrs()[0].port();
    actix_web::rt::spawn(server.run());
    (format!("{scheme}://127.0.0.1:{port}/hook"), got)
}

/// A certificate for 127.0.0.1 made for the test (self-signed, so trusted
/// only where it is named), as the receiver's TLS settings and as PEM.
fn receiver_certificate() -> (rustls::ServerConfig, String) {
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

/// Checks `Hatstand-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
fn signature_is_valid(secret: &str, header: &str, body: &[u8]) -> bool {
    let Some((t, v1)) = header
        .strip_prefix("t=")
        .and_then(|rest| rest.split_once(",v1="))
    else {
        return false;
    };
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{t}.").as_bytes());
    mac.update(body);
    mac.verify_slice(&hex::decode(v1).unwrap()).is_ok()
}

/// Polls `user`'s webhooks (for at most 10 s) until the first one is as
/// `ready` wants it, and returns them all.
async fn first_webhook_when(app: &TestApp, user: &User, ready: impl Fn(&Value) -> bool) -> Value {
    app.eventually(10, || async {
        let hooks = app.get("/v1/me/webhooks", Some(&user.token)).await.ok(200);
        ready(&hooks[0]).then_some(hooks)
    })
    .await
}

async fn register(app: &TestApp, user: &User, url: &str) -> Value {
    app.post("/v1/me/webhooks", Some(&user.token), &json!({"url": url}))
        .await
        .ok(201)
}

/// Starts a 2-player game and returns the user the game waits for first.
async fn someones_turn(app: &TestApp, users: &[User]) -> usize {
    let id = app.started_game(users, "hats", json!({})).await;
    app.game(&id, None).await["to_act"][0].as_u64().unwrap() as usize
}

#[actix_web::test]
async fn a_webhook_receives_signed_notifications() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let (url, got) = receiver(0);
    let mut secrets = Vec::new();
    for user in &users {
        let created = register(&app, user, &url).await;
        assert!(created["secret"].as_str().unwrap().starts_with("whsec_"));
        secrets.push(created["secret"].as_str().unwrap().to_owned());
    }
    let seat = someones_turn(&app, &users).await;
    let (delivery, signature, body) = app
        .eventually(5, || async { got.lock().unwrap().first().cloned() })
        .await;
    assert!(delivery.parse::<i64>().is_ok());
    assert!(
        signature_is_valid(&secrets[seat], &signature, &body),
        "{signature}"
    );
    assert!(!signature_is_valid(&secrets[1 - seat], &signature, &body));
    let payload: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(payload["type"], "your_turn");
    assert_eq!(payload["user_id"], users[seat].id.to_string());
    assert!(payload["id"].is_i64() && payload["game_id"].is_string());
    assert_eq!(payload["data"]["seat"], seat);
    let hooks = first_webhook_when(&app, &users[seat], |hook| hook["delivered"] == 1).await;
    assert_eq!(hooks.as_array().unwrap().len(), 1);
    assert_eq!(hooks[0]["last_status"], 204);
    assert!(hooks[0].get("secret").is_none(), "the secret is shown once");
    // Deleting stops deliveries; someone else's webhook is not found.
    let id = hooks[0]["id"].as_str().unwrap();
    app.send(
        "DELETE",
        &format!("/v1/me/webhooks/{id}"),
        Some(&users[1 - seat].token),
        &[],
        &json!(null),
    )
    .await
    .assert_problem(404, "not_found");
    app.send(
        "DELETE",
        &format!("/v1/me/webhooks/{id}"),
        Some(&users[seat].token),
        &[],
        &json!(null),
    )
    .await
    .ok(204);
    assert_eq!(
        app.get("/v1/me/webhooks", Some(&users[seat].token))
            .await
            .ok(200),
        json!([])
    );
    app.post(
        "/v1/me/webhooks",
        Some(&users[0].token),
        &json!({"url": "ftp://x/"}),
    )
    .await
    .assert_problem(400, "bad_request");
    // At most ten webhooks per user; the eleventh is refused and writes nothing.
    let have = app.count("webhooks").await;
    let mine = app
        .get("/v1/me/webhooks", Some(&users[0].token))
        .await
        .ok(200);
    for n in mine.as_array().unwrap().len()..10 {
        register(&app, &users[0], &format!("http://127.0.0.1:9/hook-{n}")).await;
    }
    let full = app.count("webhooks").await;
    assert_eq!(full, have + 10 - mine.as_array().unwrap().len() as i64);
    app.post(
        "/v1/me/webhooks",
        Some(&users[0].token),
        &json!({"url": "http://127.0.0.1:9/one-too-many"}),
    )
    .await
    .assert_problem(409, "too_many_webhooks");
    assert_eq!(app.count("webhooks").await, full);
}

#[actix_web::test]
async fn failed_deliveries_are_retried_and_failures_are_shown() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    // Two failures, then success (the test server allows 3 attempts).
    let (url, got) = receiver(2);
    for user in &users {
        register(&app, user, &url).await;
    }
    let seat = someones_turn(&app, &users).await;
    let hooks = first_webhook_when(&app, &users[seat], |hook| hook["delivered"] == 1).await;
    assert_eq!(hooks[0]["attempts"], 3);
    assert_eq!(hooks[0]["failed"], 0);
    let got = got.lock().unwrap().clone();
    assert_eq!(got.len(), 3);
    assert!(
        got.iter().all(|g| g.0 == got[0].0),
        "one delivery id for every retry"
    );
    let ids: Vec<Value> = got
        .iter()
        .map(|g| serde_json::from_slice::<Value>(&g.2).unwrap()["id"].clone())
        .collect();
    assert!(
        ids.iter().all(|i| *i == ids[0]),
        "one notification id to de-duplicate"
    );
    // A receiver that never answers 2xx: given up after the last attempt, and said so.
    let dead = app.register("dead_end").await;
    register(&app, &dead, "http://127.0.0.1:9/nothing-listens").await;
    // An invitation is a notification too.
    app.created_game(
        &users[0],
        &json!({"ruleset": "hats", "players": 2, "invitees": ["dead_end"]}),
    )
    .await;
    let hooks = first_webhook_when(&app, &dead, |hook| hook["failed"].as_i64().unwrap() >= 1).await;
    assert_eq!(hooks[0]["delivered"], 0);
    assert!(
        hooks[0]["last_error"]
            .as_str()
            .unwrap()
            .contains("request failed")
    );
    assert_eq!(hooks[0]["last_status"], Value::Null);
}

/// Whatever statement writes a notification — creating a game with invitees,
/// a join that starts it, a command — it queues one delivery per webhook of
/// the notified user, in the same transaction, and none for users without.
#[actix_web::test]
async fn every_notification_queues_one_delivery_per_webhook_of_its_user() {
    let app = TestApp::spawn_with(|s| s.background.webhook_tick_ms = 0).await;
    let users = app.users(2).await;
    // player1 has two webhooks, player0 none. Nothing listens on port 9.
    register(&app, &users[1], "http://127.0.0.1:9/a").await;
    register(&app, &users[1], "http://127.0.0.1:9/b").await;
    let queued_as_expected = || async {
        let notified = app
            .count("notifications n JOIN webhooks w ON w.user_id = n.user_id")
            .await;
        let queued = app.count("webhook_deliveries").await;
        (notified, queued)
    };
    let game = app
        .created_game(
            &users[0],
            // Watched by anyone with its address, so the test reads it signed out.
            &json!({"ruleset": "hats", "players": 2, "invitees": ["player1"], "options": {"spectators": "link"}}),
        )
        .await;
    let id = game["id"].as_str().unwrap();
    let (notified, queued) = queued_as_expected().await;
    assert_eq!((notified, queued), (2, 2), "invited: one per webhook");
    app.joined(id, &users[1]).await;
    // Play until player1 has been told it is their turn after a command.
    let mut commands = 0;
    while commands < 6 {
        let view = app.game(id, None).await;
        let seat = view["to_act"][0].as_u64().unwrap() as usize;
        let mine = app.game(id, Some(&users[seat])).await;
        let command = mine["legal_commands"][0].clone();
        let version = mine["version"].as_i64().unwrap();
        app.command(id, &users[seat], version, &command)
            .await
            .ok(200);
        commands += 1;
    }
    let (notified, queued) = queued_as_expected().await;
    assert!(notified > 2, "commands notified player1");
    assert_eq!(queued, notified);
    assert_eq!(
        app.count("webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE w.user_id <> (SELECT user_id FROM webhooks LIMIT 1)")
            .await,
        0,
        "no deliveries for a user without webhooks"
    );
}

/// An `https://` receiver whose certificate chains to a trusted root (here
/// the server's `--webhook-ca-file`) gets the signed notification.
#[actix_web::test]
async fn a_webhook_is_delivered_over_https_to_a_trusted_receiver() {
    let (tls, pem) = receiver_certificate();
    let ca_file = std::env::temp_dir().join(format!("hatstand-ca-{}.pem", uuid::Uuid::new_v4()));
    std::fs::write(&ca_file, pem).unwrap();
    let trusted = ca_file.clone();
    let app = TestApp::spawn_with(|s| s.background.webhook_ca_file = Some(trusted)).await;
    std::fs::remove_file(&ca_file).unwrap();
    let users = app.users(2).await;
    let (url, got) = receiver_with(0, Some(tls));
    assert!(url.starts_with("https://"));
    let mut secrets = Vec::new();
    for user in &users {
        secrets.push(
            register(&app, user, &url).await["secret"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    let seat = someones_turn(&app, &users).await;
    let hooks = first_webhook_when(&app, &users[seat], |hook| hook["delivered"] == 1).await;
    assert_eq!(hooks[0]["last_status"], 204);
    let (_, signature, body) = got.lock().unwrap()[0].clone();
    assert!(signature_is_valid(&secrets[seat], &signature, &body));
    let payload: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(payload["type"], "your_turn");
}

/// An `https://` receiver whose certificate chains to no trusted root is
/// never sent the notification: the attempt fails and says why.
#[actix_web::test]
async fn an_untrusted_https_receiver_is_never_sent_a_notification() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let (tls, _) = receiver_certificate();
    let (url, got) = receiver_with(0, Some(tls));
    for user in &users {
        register(&app, user, &url).await;
    }
    let seat = someones_turn(&app, &users).await;
    let hooks = first_webhook_when(&app, &users[seat], |hook| hook["last_error"].is_string()).await;
    assert_eq!(hooks[0]["delivered"], 0);
    assert_eq!(hooks[0]["last_status"], Value::Null);
    let error = hooks[0]["last_error"].as_str().unwrap();
    assert!(error.contains("certificate"), "{error}");
    assert!(
        got.lock().unwrap().is_empty(),
        "nothing reached the receiver"
    );
}

/// Unless the operator allows it, a webhook cannot reach into the server's
/// own network: a URL naming a loopback or private address is refused (and
/// nothing is written), and one that got in while it was allowed is never
/// attempted.
#[actix_web::test]
async fn webhooks_to_private_addresses_are_refused_unless_allowed() {
    let app = TestApp::spawn_with(|s| s.background.webhook_allow_private = false).await;
    let users = app.users(2).await;
    let before = app.count("webhooks").await;
    for url in [
        "http://127.0.0.1:9/hook",
        "http://localhost:9/hook",
        "http://[::1]:9/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://192.168.1.10/hook",
    ] {
        let refused = app
            .post(
                "/v1/me/webhooks",
                Some(&users[0].token),
                &json!({"url": url}),
            )
            .await;
        refused.assert_problem(400, "bad_request");
        assert!(
            refused.body["detail"].as_str().unwrap().contains("private"),
            "{url}"
        );
    }
    assert_eq!(app.count("webhooks").await, before);
    // Registered while private receivers were allowed:
    let (url, got) = receiver(0);
    for user in &users {
        app.sql(&format!(
            "INSERT INTO webhooks (id, user_id, url, secret, created_at)
             VALUES (gen_random_uuid(), '{}', '{url}', 'whsec_x', now())",
            user.id
        ))
        .await;
    }
    let seat = someones_turn(&app, &users).await;
    let hooks = first_webhook_when(&app, &users[seat], |hook| hook["last_error"].is_string()).await;
    assert_eq!(hooks[0]["delivered"], 0);
    let error = hooks[0]["last_error"].as_str().unwrap();
    assert!(error.contains("private"), "{error}");
    assert!(
        got.lock().unwrap().is_empty(),
        "nothing reached the receiver"
    );
}
