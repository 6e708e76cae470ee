use serde_json::json;

use crate::support::TestApp;

#[actix_web::test]
async fn register_then_login_gives_a_bearer_token() {
    let app = TestApp::spawn().await;
    let created = app
        .post(
            "/v1/auth/register",
            None,
            &json!({"username": "Ann_1-x", "password": "password123"}),
        )
        .await
        .ok(201);
    assert_eq!(created["username"], "Ann_1-x");
    assert!(
        created["user_id"]
            .as_str()
            .unwrap()
            .parse::<uuid::Uuid>()
            .is_ok()
    );
    let token = app
        .post(
            "/v1/auth/login",
            None,
            &json!({"username": "Ann_1-x", "password": "password123"}),
        )
        .await
        .ok(200);
    assert_eq!(token["token_type"], "Bearer");
    assert_eq!(token["expires_in"], 3600);
    let jwt = token["access_token"].as_str().unwrap();
    assert_eq!(jwt.split('.').count(), 3);
    let game = app
        .post(
            "/v1/games",
            Some(jwt),
            &json!({"ruleset": "hats", "players": 2}),
        )
        .await
        .ok(201);
    assert_eq!(game["seats"][0]["username"], "Ann_1-x");
}

#[actix_web::test]
async fn usernames_are_unique_regardless_of_case() {
    let app = TestApp::spawn().await;
    app.register("ann").await;
    let before = app.footprint().await;
    app.post(
        "/v1/auth/register",
        None,
        &json!({"username": "ANN", "password": "password123"}),
    )
    .await
    .assert_problem(409, "username_taken");
    assert_eq!(app.footprint().await, before);
}

#[actix_web::test]
async fn bad_usernames_and_passwords_are_refused_and_nothing_is_written() {
    let app = TestApp::spawn().await;
    let long = "a".repeat(33);
    let cases = [
        json!({"username": "an", "password": "password123"}),
        json!({"username": long, "password": "password123"}),
        json!({"username": "anné", "password": "password123"}),
        json!({"username": "名前名前", "password": "password123"}),
        json!({"username": "an n", "password": "password123"}),
        json!({"username": "ann", "password": "short"}),
        json!({"username": "ann", "password": "x".repeat(129)}),
        json!({"username": "ann", "password": 12345678}),
        json!({"username": "ann"}),
        json!({"username": "ann", "password": "password123", "admin": true}),
        json!([]),
    ];
    for body in cases {
        app.post("/v1/auth/register", None, &body)
            .await
            .assert_problem(400, "bad_request");
    }
    // Only the built-in bots' accounts (see `bots`).
    assert_eq!(app.footprint().await, vec![15, 0, 0, 0, 0]);
}

#[actix_web::test]
async fn wrong_passwords_and_unknown_users_get_the_same_401() {
    let app = TestApp::spawn().await;
    app.register("ann").await;
    let wrong = app
        .post(
            "/v1/auth/login",
            None,
            &json!({"username": "ann", "password": "password124"}),
        )
        .await;
    wrong.assert_problem(401, "unauthenticated");
    let unknown = app
        .post(
            "/v1/auth/login",
            None,
            &json!({"username": "bob", "password": "password123"}),
        )
        .await;
    unknown.assert_problem(401, "unauthenticated");
    assert_eq!(wrong.body["detail"], unknown.body["detail"]);
}

fn b64url(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
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

fn hs256(secret: &[u8], claims: &serde_json::Value) -> String {
    jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
        claims,
        &jsonwebtoken::EncodingKey::from_secret(secret),
    )
    .unwrap()
}

#[actix_web::test]
async fn forged_expired_unsigned_and_malformed_tokens_are_401() {
    let app = TestApp::spawn().await;
    let ann = app.register("ann").await;
    let now = chrono::Utc::now().timestamp();
    let claims = |exp: i64, iss: &str| json!({"sub": ann.id, "name": "ann", "iat": now - 10, "exp": exp, "iss": iss});
    // Tokens signed with the server's own key but expired or from another issuer.
    let secret = server_secret(&app).await;
    let expired = hs256(&secret, &claims(now - 120, "hatstand"));
    let foreign_issuer = hs256(&secret, &claims(now + 600, "someone-else"));
    let wrong_key = hs256(
        b"not the server's key at all.....",
        &claims(now + 600, "hatstand"),
    );
    let unsigned = format!(
        "{}.{}.",
        b64url(br#"{"alg":"none","typ":"JWT"}"#),
        b64url(claims(now + 600, "hatstand").to_string().as_bytes())
    );
    let mut tampered = ann.token.clone();
    tampered.pop();
    tampered.push(if ann.token.ends_with('A') { 'B' } else { 'A' });
    let before = app.footprint().await;
    for token in [
        expired,
        foreign_issuer,
        wrong_key,
        unsigned,
        tampered,
        "garbage".into(),
        "a.b.c".into(),
    ] {
        app.post(
            "/v1/games",
            Some(&token),
            &json!({"ruleset": "hats", "players": 2}),
        )
        .await
        .assert_problem(401, "unauthenticated");
        // A bad token is refused on reads too, rather than silently downgraded.
        app.get("/v1/me/games", Some(&token))
            .await
            .assert_problem(401, "unauthenticated");
    }
    for header in ["Basic abc", "Bearer", "Bearer ", "token"] {
        app.send(
            "POST",
            "/v1/games",
            None,
            &[("Authorization", header)],
            &json!({"ruleset": "hats", "players": 2}),
        )
        .await
        .assert_problem(401, "unauthenticated");
    }
    app.post("/v1/games", None, &json!({"ruleset": "hats", "players": 2}))
        .await
        .assert_problem(401, "unauthenticated");
    assert_eq!(app.footprint().await, before);
    // The server's own fresh token of a live session still works.
    let mut good = claims(now + 600, "hatstand");
    good["sid"] = json!(session_of(&app, ann.id).await);
    let good = hs256(&secret, &good);
    app.post(
        "/v1/games",
        Some(&good),
        &json!({"ruleset": "hats", "players": 2}),
    )
    .await
    .ok(201);
}

/// The id of `user`'s one session.
pub(crate) async fn session_of(app: &TestApp, user: uuid::Uuid) -> uuid::Uuid {
    use diesel::prelude::*;
    use diesel_async::RunQueryDsl;
    use hatstand::db::schema::sessions;
    let mut conn = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    sessions::table
        .filter(sessions::user_id.eq(user))
        .select(sessions::id)
        .first(&mut conn)
        .await
        .unwrap()
}

/// The signing secret the server generated and stored.
pub(crate) async fn server_secret(app: &TestApp) -> Vec<u8> {
    use diesel::prelude::*;
    use diesel_async::RunQueryDsl;
    let mut conn = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    let value: String = hatstand::db::schema::server_secrets::table
        .select(hatstand::db::schema::server_secrets::value)
        .first(&mut conn)
        .await
        .unwrap();
    hex::decode(value).unwrap()
}

#[actix_web::test]
async fn the_generated_secret_survives_a_restart() {
    let app = TestApp::spawn().await;
    let ann = app.register("ann").await;
    // A second server process on the same database accepts the first one's tokens.
    let state = hatstand::startup::state_for(&app.db.url, &crate::support::settings(&app.db.url))
        .await
        .unwrap();
    let claims = state.jwt.verify(&ann.token).unwrap();
    assert_eq!(claims.sub, ann.id);
}

#[actix_web::test]
async fn failed_logins_are_throttled_per_account_and_address_across_processes_with_retry_after() {
    let app = TestApp::spawn().await;
    let ann = app.register("ann").await;
    app.register("bob").await;
    let login = |base: String, name: &'static str, password: &'static str| {
        let client = app.client.clone();
        async move {
            let reply = client
                .post(format!("{base}/v1/auth/login"))
                .send_json(&json!({"username": name, "password": password}))
                .await
                .unwrap();
            let retry = reply
                .headers()
                .get("retry-after")
                .map(|v| v.to_str().unwrap().parse::<u64>().unwrap());
            (reply.status().as_u16(), retry)
        }
    };
    // Given five wrong passwords for ann from this address, all refused as
    // wrong …
    for _ in 0..crate::support::settings(&app.db.url)
        .limits
        .login_pair_failures
    {
        assert_eq!(
            login(app.base.clone(), "ann", "wrong-password").await,
            (401, None)
        );
    }
    // … then even the right password from here is 429 with Retry-After, on
    // this process and on another one on the same database …
    let second =
        crate::support::start_server(&app.db.url, &crate::support::settings(&app.db.url)).await;
    for base in [app.base.clone(), second] {
        let (status, retry) = login(base, "ANN", "password123").await;
        assert_eq!(status, 429);
        assert!(
            retry.is_some_and(|s| (1..=15 * 60).contains(&s)),
            "{retry:?}"
        );
    }
    let reply = app
        .post(
            "/v1/auth/login",
            None,
            &json!({"username": "ann", "password": "password123"}),
        )
        .await;
    reply.assert_problem(429, "rate_limited");
    // … while another account logs in as usual, and ann's tokens still work.
    assert_eq!(login(app.base.clone(), "bob", "password123").await.0, 200);
    app.get("/v1/me/games", Some(&ann.token)).await.ok(200);
    // When the window has passed, ann logs in again and her count is cleared.
    app.sql("UPDATE limit_windows SET window_start = window_start - interval '16 minutes'")
        .await;
    assert_eq!(login(app.base.clone(), "ann", "password123").await.0, 200);
    assert_eq!(
        app.count("limit_windows WHERE key = 'login:ann@127.0.0.1'")
            .await,
        0
    );
}

#[actix_web::test]
async fn an_address_with_too_many_failures_is_throttled_for_every_account() {
    let app = TestApp::spawn().await;
    app.register("carol").await;
    app.sql(&format!(
        "INSERT INTO limit_windows VALUES ('login-address:127.0.0.1', now(), {}, now())
         ON CONFLICT (key) DO UPDATE SET used = EXCLUDED.used, window_start = now()",
        crate::support::settings(&app.db.url).login_address_failures
    ))
    .await;
    app.post(
        "/v1/auth/login",
        None,
        &json!({"username": "carol", "password": "password123"}),
    )
    .await
    .assert_problem(429, "rate_limited");
}

#[actix_web::test]
async fn an_address_refused_by_the_shared_count_is_then_refused_by_the_process_alone() {
    let app = TestApp::spawn().await;
    app.register("carol").await;
    let over = format!(
        "INSERT INTO limit_windows VALUES ('login-address:127.0.0.1', now(), {}, now())
         ON CONFLICT (key) DO UPDATE SET used = EXCLUDED.used, window_start = now()",
        crate::support::settings(&app.db.url).login_address_failures
    );
    app.sql(&over).await;
    let carol = json!({"username": "carol", "password": "password123"});
    // Given PostgreSQL's count refused the address once …
    let first = app.post("/v1/auth/login", None, &carol).await;
    first.assert_problem(429, "rate_limited");
    // … when the shared count forgets it (as no real login could make it),
    // this process still refuses the address without asking the database,
    // for the rest of the window …
    app.sql("DELETE FROM limit_windows").await;
    let again = app.post("/v1/auth/login", None, &carol).await;
    again.assert_problem(429, "rate_limited");
    let retry = |r: &crate::support::Reply| -> u64 {
        r.headers
            .get("retry-after")
            .unwrap()
            .to_str()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(retry(&again) > 800 && retry(&again) <= retry(&first));
    assert_eq!(app.count("limit_windows").await, 0, "nothing was counted");
    // … while a process that never saw the refusal asks the count, which
    // now admits the login.
    let other =
        crate::support::start_server(&app.db.url, &crate::support::settings(&app.db.url)).await;
    let reply = app
        .client
        .post(format!("{other}/v1/auth/login"))
        .send_json(&carol)
        .await
        .unwrap();
    assert_eq!(reply.status().as_u16(), 200);
}

/// dave's login with `X-Forwarded-For: forwarded`, as a proxy would send it.
async fn forwarded_login(app: &TestApp, forwarded: &str, password: &str) -> crate::support::Reply {
    let body = json!({"username": "dave", "password": password});
    app.send(
        "POST",
        "/v1/auth/login",
        None,
        &[("X-Forwarded-For", forwarded)],
        &body,
    )
    .await
}

#[actix_web::test]
async fn behind_a_trusted_proxy_the_forwarded_address_is_the_one_limited() {
    let proxied =
        TestApp::spawn_with(|s| s.trusted_proxies = vec!["127.0.0.1".parse().unwrap()]).await;
    proxied.register("dave").await;
    let limit = crate::support::settings(&proxied.db.url).login_address_failures;
    proxied
        .sql(&format!(
            "INSERT INTO limit_windows VALUES ('login-address:203.0.113.7', now(), {limit}, now())
             ON CONFLICT (key) DO UPDATE SET used = EXCLUDED.used, window_start = now()"
        ))
        .await;
    // The proxy's entry (the last) names the client; one the client wrote
    // before it changes nothing.
    forwarded_login(&proxied, "203.0.113.7", "password123")
        .await
        .assert_problem(429, "rate_limited");
    forwarded_login(&proxied, "198.51.100.1, 203.0.113.7", "password123")
        .await
        .assert_problem(429, "rate_limited");
    forwarded_login(&proxied, "203.0.113.7, 198.51.100.1", "password123")
        .await
        .ok(200);
    // A failure counts against the forwarded address, not the proxy's.
    assert_eq!(
        forwarded_login(&proxied, "198.51.100.9", "wrong-password")
            .await
            .status,
        401
    );
    assert_eq!(
        proxied
            .count("limit_windows WHERE key = 'login-address:198.51.100.9' AND used = 1")
            .await,
        1
    );
    assert_eq!(
        proxied
            .count("limit_windows WHERE key = 'login-address:127.0.0.1' AND used > 0")
            .await,
        0
    );

    // Without trusted proxies, the header is the client's word: ignored.
    let direct = TestApp::spawn().await;
    direct.register("dave").await;
    direct
        .sql(&format!(
            "INSERT INTO limit_windows VALUES ('login-address:203.0.113.7', now(), {limit}, now())
             ON CONFLICT (key) DO UPDATE SET used = EXCLUDED.used, window_start = now()"
        ))
        .await;
    forwarded_login(&direct, "203.0.113.7", "password123")
        .await
        .ok(200);
}
