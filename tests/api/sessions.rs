//! Sign-in sessions: refresh tokens rotate, a reused one signs its session
//! out, logout (here and everywhere) and a password change end sessions on
//! every endpoint, tokens of gone users or without a session are refused,
//! and every token has a request rate.

use serde_json::{Value, json};

use crate::support::{TestApp, User};

async fn sign_in(app: &TestApp, name: &str, password: &str) -> Value {
    app.post(
        "/v1/auth/login",
        None,
        &json!({"username": name, "password": password}),
    )
    .await
    .ok(200)
}

async fn refresh(app: &TestApp, token: &Value) -> crate::support::Reply {
    app.post(
        "/v1/auth/refresh",
        None,
        &json!({"refresh_token": token["refresh_token"]}),
    )
    .await
}

fn access(pair: &Value) -> &str {
    pair["access_token"].as_str().unwrap()
}

/// Whether `token` is still honoured: by a plain read and by the command
/// path (which checks the session in its own statement).
async fn honoured(app: &TestApp, token: &str, game: &str) -> bool {
    let read = app.get("/v1/me/games", Some(token)).await;
    let command = app
        .post(
            &format!("/v1/games/{game}/commands"),
            Some(token),
            &json!({"expected_version": 999, "command": {"type": "pass"}}),
        )
        .await;
    match (read.status.as_u16(), command.status.as_u16()) {
        // Past the session check, the command fails on the game: a version
        // conflict for a player, not_a_player for anyone else.
        (200, 409 | 403) => true,
        (401, 401) => {
            read.assert_problem(401, "unauthenticated");
            command.assert_problem(401, "unauthenticated");
            false
        }
        other => panic!(
            "read and command disagree: {other:?} {} {}",
            read.body, command.body
        ),
    }
}

/// A started game of ann's (so commands reach the game, then fail on the version).
async fn game_of(app: &TestApp, ann: &User) -> String {
    let bob = app.register("bob").await;
    app.started_game(&[ann.clone(), bob], "hats", json!({}))
        .await
}

#[actix_web::test]
async fn a_refresh_token_rotates_and_a_reused_one_signs_the_session_out() {
    let app = TestApp::spawn().await;
    let ann = app.register("ann").await;
    let game = game_of(&app, &ann).await;
    // Given a session …
    let first = sign_in(&app, "ann", "password123").await;
    assert_eq!(first["expires_in"], 3600);
    assert_eq!(first["refresh_expires_in"], 86_400);
    // … when it refreshes twice, each pair differs and works …
    let second = refresh(&app, &first).await.ok(200);
    let third = refresh(&app, &second).await.ok(200);
    assert_ne!(first["refresh_token"], second["refresh_token"]);
    assert_ne!(second["refresh_token"], third["refresh_token"]);
    assert!(honoured(&app, access(&third), &game).await);
    assert!(honoured(&app, access(&first), &game).await, "same session");
    // … then the first refresh token, rotated twice, is a theft: the
    // session ends for every token of it, the thief's and the user's.
    refresh(&app, &first)
        .await
        .assert_problem(401, "refresh_token_reused");
    refresh(&app, &third)
        .await
        .assert_problem(401, "unauthenticated");
    assert!(!honoured(&app, access(&third), &game).await);
    // Another session of the same user is untouched.
    assert!(honoured(&app, &ann.token, &game).await);
}

#[actix_web::test]
async fn a_refresh_whose_answer_was_lost_may_be_sent_again_once_soon_after() {
    let app = TestApp::spawn().await;
    app.register("ann").await;
    let first = sign_in(&app, "ann", "password123").await;
    // The answer to this refresh is lost on the way …
    let lost = refresh(&app, &first).await.ok(200);
    // … so the client sends the same token again and gets a working pair.
    let retried = refresh(&app, &first).await.ok(200);
    assert_ne!(retried["refresh_token"], lost["refresh_token"]);
    let next = refresh(&app, &retried).await.ok(200);
    // The lost pair's refresh token was never used by the client: whoever
    // sends it now is not the user, and the session ends.
    refresh(&app, &lost)
        .await
        .assert_problem(401, "refresh_token_reused");
    refresh(&app, &next)
        .await
        .assert_problem(401, "unauthenticated");
}

#[actix_web::test]
async fn malformed_unknown_and_expired_refresh_tokens_are_refused() {
    let app = TestApp::spawn().await;
    app.register("ann").await;
    for bad in [
        json!({"refresh_token": ""}),
        json!({"refresh_token": "nonsense"}),
        json!({"refresh_token": format!("{}.{}", uuid::Uuid::new_v4().simple(), "0".repeat(64))}),
    ] {
        app.post("/v1/auth/refresh", None, &bad)
            .await
            .assert_problem(401, "unauthenticated");
    }
    app.post("/v1/auth/refresh", None, &json!({}))
        .await
        .assert_problem(400, "bad_request");
    let pair = sign_in(&app, "ann", "password123").await;
    app.sql("UPDATE sessions SET expires_at = now() - interval '1 second'")
        .await;
    refresh(&app, &pair)
        .await
        .assert_problem(401, "unauthenticated");
}

#[actix_web::test]
async fn logout_ends_this_session_only_and_logout_all_ends_every_one() {
    let app = TestApp::spawn().await;
    let ann = app.register("ann").await;
    let game = game_of(&app, &ann).await;
    let phone = sign_in(&app, "ann", "password123").await;
    let laptop = sign_in(&app, "ann", "password123").await;
    // A logout with a body is refused and signs nothing out.
    for path in ["/v1/auth/logout", "/v1/auth/logout-all"] {
        app.post(path, Some(access(&phone)), &json!({"everywhere": true}))
            .await
            .assert_problem(400, "bad_request");
    }
    assert!(honoured(&app, access(&phone), &game).await);
    // Logging out the phone …
    let out = app
        .request("POST", "/v1/auth/logout", Some(access(&phone)), &[])
        .send()
        .await
        .unwrap();
    assert_eq!(out.status().as_u16(), 204);
    // … ends its access and refresh tokens at once, everywhere …
    assert!(!honoured(&app, access(&phone), &game).await);
    refresh(&app, &phone)
        .await
        .assert_problem(401, "unauthenticated");
    // … and leaves the laptop signed in.
    assert!(honoured(&app, access(&laptop), &game).await);
    // Logout everywhere from the laptop ends every session, its own too.
    let all = app
        .request("POST", "/v1/auth/logout-all", Some(access(&laptop)), &[])
        .send()
        .await
        .unwrap();
    assert_eq!(all.status().as_u16(), 204);
    for token in [access(&laptop), ann.token.as_str()] {
        assert!(!honoured(&app, token, &game).await);
    }
    refresh(&app, &laptop)
        .await
        .assert_problem(401, "unauthenticated");
    // A new sign-in works.
    let again = sign_in(&app, "ann", "password123").await;
    assert!(honoured(&app, access(&again), &game).await);
}

#[actix_web::test]
async fn a_password_change_signs_out_the_other_sessions() {
    let app = TestApp::spawn().await;
    let ann = app.register("ann").await;
    let game = game_of(&app, &ann).await;
    let other = sign_in(&app, "ann", "password123").await;
    let change =
        |current: &str, new: &str| json!({"current_password": current, "new_password": new});
    // A wrong current password changes nothing.
    app.post(
        "/v1/auth/password",
        Some(&ann.token),
        &change("not-the-password", "a new password"),
    )
    .await
    .assert_problem(403, "wrong_password");
    app.post(
        "/v1/auth/password",
        Some(&ann.token),
        &change("password123", "short"),
    )
    .await
    .assert_problem(400, "bad_request");
    assert!(honoured(&app, access(&other), &game).await);
    // The right one changes it; this session stays, the other ends.
    let changed = app
        .post(
            "/v1/auth/password",
            Some(&ann.token),
            &change("password123", "a new password"),
        )
        .await;
    assert_eq!(changed.status.as_u16(), 204, "{}", changed.body);
    assert!(honoured(&app, &ann.token, &game).await);
    assert!(!honoured(&app, access(&other), &game).await);
    refresh(&app, &other)
        .await
        .assert_problem(401, "unauthenticated");
    app.post(
        "/v1/auth/login",
        None,
        &json!({"username": "ann", "password": "password123"}),
    )
    .await
    .assert_problem(401, "unauthenticated");
    sign_in(&app, "ann", "a new password").await;
}

#[actix_web::test]
async fn tokens_of_a_deleted_user_are_refused_everywhere() {
    let app = TestApp::spawn().await;
    let ann = app.register("ann").await;
    let game = game_of(&app, &ann).await;
    let cal = app.register("cal").await;
    assert!(honoured(&app, &cal.token, &game).await);
    app.sql(&format!("DELETE FROM users WHERE id = '{}'", cal.id))
        .await;
    assert!(!honoured(&app, &cal.token, &game).await);
    // Reads that take an optional token refuse it too, rather than
    // answering as a spectator.
    app.get(&format!("/v1/games/{game}"), Some(&cal.token))
        .await
        .assert_problem(401, "unauthenticated");
}

#[actix_web::test]
async fn a_token_without_a_session_is_refused() {
    use jsonwebtoken::{EncodingKey, Header, encode};
    let app = TestApp::spawn().await;
    let ann = app.register("ann").await;
    let game = game_of(&app, &ann).await;
    // Signed with the server's own key, as tokens were before sessions.
    let secret = crate::auth::server_secret(&app).await;
    let now = chrono::Utc::now().timestamp();
    let claims =
        json!({"sub": ann.id, "name": "ann", "iat": now, "exp": now + 600, "iss": "hatstand"});
    let legacy = encode(
        &Header::default(),
        &claims,
        &EncodingKey::from_secret(&secret),
    )
    .unwrap();
    let reply = app.get("/v1/me/games", Some(&legacy)).await;
    reply.assert_problem(401, "unauthenticated");
    assert!(
        reply.body["detail"]
            .as_str()
            .unwrap()
            .contains("sign in again")
    );
    assert!(!honoured(&app, &legacy, &game).await);
}

#[actix_web::test]
async fn a_command_of_a_signed_out_session_writes_nothing_and_unknown_games_stay_404() {
    let app = TestApp::spawn().await;
    let ann = app.register("ann").await;
    let game = game_of(&app, &ann).await;
    let missing = uuid::Uuid::new_v4();
    app.post(
        &format!("/v1/games/{missing}/commands"),
        Some(&ann.token),
        &json!({"expected_version": 1, "command": {"type": "pass"}}),
    )
    .await
    .assert_problem(404, "not_found");
    let view = app.game(&game, Some(&ann)).await;
    let before = app.footprint().await;
    app.request("POST", "/v1/auth/logout", Some(&ann.token), &[])
        .send()
        .await
        .unwrap();
    let legal = view["legal_commands"][0].clone();
    let sent = app
        .command(&game, &ann, view["version"].as_i64().unwrap(), &legal)
        .await;
    sent.assert_problem(401, "unauthenticated");
    app.post(
        &format!("/v1/games/{missing}/commands"),
        Some(&ann.token),
        &json!({"expected_version": 1, "command": {"type": "pass"}}),
    )
    .await
    .assert_problem(401, "unauthenticated");
    assert_eq!(app.footprint().await, before);
}

#[actix_web::test]
async fn every_token_has_a_request_rate_with_retry_after() {
    let app = TestApp::spawn_with(|s| {
        s.token_rate = 1;
        s.token_burst = 5;
    })
    .await;
    let ann = app.register("ann").await;
    let bob = app.register("bob").await;
    let mut statuses = Vec::new();
    for _ in 0..8 {
        statuses.push(app.get("/v1/me/games", Some(&ann.token)).await);
    }
    let limited = statuses
        .iter()
        .find(|r| r.status.as_u16() == 429)
        .expect("some request over the burst is limited");
    limited.assert_problem(429, "rate_limited");
    let retry: u64 = limited
        .headers
        .get("retry-after")
        .unwrap()
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=2).contains(&retry), "{retry}");
    assert!(statuses[..5].iter().all(|r| r.status.as_u16() == 200));
    // Another token is not slowed by ann's.
    app.get("/v1/me/games", Some(&bob.token)).await.ok(200);
}

#[actix_web::test]
async fn signing_in_beyond_the_live_session_cap_signs_out_the_oldest() {
    let app = TestApp::spawn().await;
    let ann = app.register("ann").await;
    let game = game_of(&app, &ann).await;
    // Given ann's first session and 99 more (as if signed in from 99 devices) …
    app.sql(&format!(
        "INSERT INTO sessions (id, user_id, refresh_hash, rotated_at, created_at, expires_at)
         SELECT gen_random_uuid(), '{}', '\\x00', now(), now() + n * interval '1 ms', now() + interval '1 day'
           FROM generate_series(1, 99) AS n",
        ann.id
    ))
    .await;
    assert!(honoured(&app, &ann.token, &game).await);
    // … one more sign-in signs out the oldest, and the newest work.
    let newest = sign_in(&app, "ann", "password123").await;
    assert!(!honoured(&app, &ann.token, &game).await);
    assert!(honoured(&app, access(&newest), &game).await);
    assert_eq!(
        app.count(&format!(
            "sessions WHERE user_id = '{}' AND revoked_at IS NULL",
            ann.id
        ))
        .await,
        hatstand::db::sessions::MAX_LIVE
    );
}

#[actix_web::test]
async fn an_open_stream_ends_when_its_session_is_signed_out() {
    use futures_util::StreamExt;
    let app = TestApp::spawn().await;
    let ann = app.register("ann").await;
    let game = game_of(&app, &ann).await;
    let spectator = sign_in(&app, "ann", "password123").await;
    let mut mine = app
        .request("GET", "/v1/me/stream", Some(&ann.token), &[])
        .send()
        .await
        .unwrap();
    let mut watching = app
        .request(
            "GET",
            &format!("/v1/games/{game}/stream"),
            Some(access(&spectator)),
            &[],
        )
        .send()
        .await
        .unwrap();
    assert_eq!(
        (mine.status().as_u16(), watching.status().as_u16()),
        (200, 200)
    );
    // Given both streams open, when ann signs out everywhere …
    app.request("POST", "/v1/auth/logout-all", Some(&ann.token), &[])
        .send()
        .await
        .unwrap();
    // … each ends by the next keep-alive (15 s) instead of running on.
    for response in [&mut mine, &mut watching] {
        let ended = tokio::time::timeout(std::time::Duration::from_secs(25), async {
            while let Some(chunk) = response.next().await {
                if chunk.is_err() {
                    break;
                }
            }
        })
        .await;
        assert!(ended.is_ok(), "the stream of a signed-out session ran on");
    }
}
