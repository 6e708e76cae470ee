//! Bad input of every kind gets a 4xx problem+json and writes nothing.

use serde_json::json;

use crate::support::TestApp;

#[actix_web::test]
async fn malformed_json_wrong_types_and_unknown_fields_are_400_and_write_nothing() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let token = users[0].token.as_str();
    let before = app.footprint().await;
    let bodies: Vec<&[u8]> = vec![
        b"{",
        b"not json",
        b"",
        b"null",
        b"[1,2]",
        b"{\"ruleset\": 5, \"players\": 2}",
        b"{\"ruleset\": \"hats\", \"players\": \"two\"}",
        b"{\"ruleset\": \"hats\", \"players\": -1}",
        b"{\"ruleset\": \"hats\", \"players\": 300}",
        b"{\"ruleset\": \"hats\", \"players\": 2, \"colour\": \"red\"}",
        b"{\"ruleset\": \"hats\", \"players\": 2, \"options\": []}",
        b"{\"ruleset\": \"hats\", \"players\": 2, \"join\": \"yes\"}",
        "{\"ruleset\": \"h\u{e2}ts\u{0}\", \"players\": 2,}".as_bytes(),
    ];
    for body in &bodies {
        let reply = app
            .send_raw(
                "POST",
                "/v1/games",
                Some(token),
                &[("content-type", "application/json")],
                body.to_vec(),
            )
            .await;
        reply.assert_problem(400, "bad_request");
    }
    let command_bodies = [
        json!({"expected_version": "x", "command": {"type": "black_hat", "card": "H1"}}),
        json!({"expected_version": 3}),
        json!({"expected_version": 3, "command": {"type": "black_hat", "card": "H1"}, "extra": 1}),
        json!({"expected_version": 3, "command": {"type": "fly_away"}}),
        json!({"expected_version": 3, "command": {"type": "black_hat", "card": "Z9"}}),
        json!({"expected_version": 3, "command": {"type": "black_hat", "card": 7}}),
        json!({"expected_version": 3, "command": {"type": "black_hat", "card": "H1", "unknown": true}}),
        json!({"expected_version": 3, "command": "black_hat"}),
        json!({"expected_version": 1.5, "command": {"type": "black_hat", "card": "H1"}}),
    ];
    let version = app.game(&id, Some(&users[0])).await["version"]
        .as_i64()
        .unwrap();
    for mut body in command_bodies {
        if body["expected_version"] == 3 {
            body["expected_version"] = json!(version);
        }
        app.post(&format!("/v1/games/{id}/commands"), Some(token), &body)
            .await
            .assert_problem(400, "bad_request");
    }
    assert_eq!(app.footprint().await, before);
}

#[actix_web::test]
async fn oversized_bodies_are_413_and_write_nothing() {
    let app = TestApp::spawn().await;
    let ann = app.register("ann").await;
    let before = app.footprint().await;
    let huge = json!({"ruleset": "hats", "players": 2, "options": {"pad": "x".repeat(70 * 1024)}});
    app.post("/v1/games", Some(&ann.token), &huge)
        .await
        .assert_problem(413, "payload_too_large");
    let huge_join = vec![b' '; 70 * 1024];
    let game = app
        .created_game(&ann, &json!({"ruleset": "hats", "players": 2}))
        .await;
    let before_join = app.footprint().await;
    let bob = app.register("bob").await;
    let after_bob = app.footprint().await;
    let reply = app
        .send_raw(
            "POST",
            &format!("/v1/games/{}/join", game["id"].as_str().unwrap()),
            Some(&bob.token),
            &[],
            huge_join,
        )
        .await;
    reply.assert_problem(413, "payload_too_large");
    assert_eq!(app.footprint().await, after_bob);
    assert_ne!(before, before_join);
}

#[actix_web::test]
async fn bad_ids_and_absurd_query_values_are_400() {
    let app = TestApp::spawn().await;
    let ann = app.register("ann").await;
    let game = app
        .created_game(&ann, &json!({"ruleset": "hats", "players": 2}))
        .await;
    let id = game["id"].as_str().unwrap();
    for path in [
        "/v1/games/not-a-uuid".to_owned(),
        "/v1/games/123".to_owned(),
        "/v1/games/%00".to_owned(),
        "/v1/games?limit=0".to_owned(),
        "/v1/games?limit=101".to_owned(),
        "/v1/games?limit=-5".to_owned(),
        "/v1/games?limit=99999999999999999999999".to_owned(),
        "/v1/games?limit=abc".to_owned(),
        "/v1/games?status=sleeping".to_owned(),
        "/v1/games?ruleset=chess".to_owned(),
        "/v1/games?cursor=garbage".to_owned(),
        "/v1/games?colour=red".to_owned(),
        format!("/v1/games/{id}/events?after=-1"),
        format!("/v1/games/{id}/events?limit=0"),
        format!("/v1/games/{id}/events?limit=100000"),
        format!("/v1/games/{id}/events?wait=61"),
        format!("/v1/games/{id}/events?wait=-1"),
        format!("/v1/games/{id}/events?wait=1e9"),
        format!("/v1/games/{id}/state?at=0"),
        format!("/v1/games/{id}/state"),
        format!("/v1/games/{id}/state?at=x"),
    ] {
        let reply = app.get(&path, Some(&ann.token)).await;
        reply.assert_problem(400, "bad_request");
    }
    // A version the game has not reached is well-formed, and refused.
    app.get(&format!("/v1/games/{id}/state?at=999"), Some(&ann.token))
        .await
        .assert_problem(422, "no_such_version");
    app.get("/v1/me/games?turn=yours", Some(&ann.token))
        .await
        .assert_problem(400, "bad_request");
    app.get(&format!("/v1/games/{}", uuid::Uuid::new_v4()), None)
        .await
        .assert_problem(404, "not_found");
}

#[actix_web::test]
async fn bad_headers_are_400_and_write_nothing() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let (id, version, command) = app.opening(&users).await;
    let before = app.footprint().await;
    let path = format!("/v1/games/{id}/commands");
    for (name, value) in [
        ("If-Match", "\"seventeen\""),
        ("Idempotency-Key", ""),
        ("Idempotency-Key", "has spaces in it"),
    ] {
        app.send(
            "POST",
            &path,
            Some(&users[0].token),
            &[(name, value)],
            &json!({"command": command}),
        )
        .await
        .assert_problem(400, "bad_request");
    }
    let long_key = "k".repeat(129);
    app.send(
        "POST",
        &path,
        Some(&users[0].token),
        &[("Idempotency-Key", long_key.as_str())],
        &json!({"expected_version": version, "command": command}),
    )
    .await
    .assert_problem(400, "bad_request");
    app.get(&format!("/v1/games/{id}"), None).await.ok(200);
    // Entity tags are opaque: one this server never gave names nothing, and
    // the game is answered in full.
    let reply = app
        .send(
            "GET",
            &format!("/v1/games/{id}"),
            None,
            &[("If-None-Match", "nope")],
            &json!(null),
        )
        .await;
    assert_eq!(reply.status.as_u16(), 200);
    assert_eq!(app.footprint().await, before);
}

#[actix_web::test]
async fn nul_characters_and_repeated_keys_are_400_and_write_nothing() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let token = users[0].token.as_str();
    let before = app.footprint().await;
    let cases: Vec<(&str, &str)> = vec![
        // Strings PostgreSQL cannot store, where they would be stored.
        (
            "/v1/games",
            r#"{"ruleset": "hats", "players": 2, "options": {"seed": "a\u0000b"}}"#,
        ),
        (
            "/v1/games",
            r#"{"ruleset": "hats", "players": 2, "invitees": ["pl\u0000ayer1"]}"#,
        ),
        (
            "/v1/auth/register",
            r#"{"username": "nul\u0000name", "password": "password123"}"#,
        ),
        (
            "/v1/auth/login",
            r#"{"username": "player0", "password": "pass\u0000word123"}"#,
        ),
        (
            "/v1/me/webhooks",
            r#"{"url": "https://example.com/\u0000"}"#,
        ),
        // A key given twice means two things: refused, not read as either.
        (
            "/v1/games",
            r#"{"ruleset": "hats", "ruleset": "goathead", "players": 2}"#,
        ),
        (
            "/v1/games",
            r#"{"ruleset": "hats", "players": 2, "options": {"seed": "a", "seed": "b"}}"#,
        ),
    ];
    for (path, body) in &cases {
        app.send_raw(
            "POST",
            path,
            Some(token),
            &[("content-type", "application/json")],
            body.as_bytes().to_vec(),
        )
        .await
        .assert_problem(400, "bad_request");
    }
    let version = app.game(&id, Some(&users[0])).await["version"]
        .as_i64()
        .unwrap();
    let command = format!(
        r#"{{"expected_version": {version}, "expected_version": {version}, "command": {{"type": "black_hat", "card": "H1"}}}}"#
    );
    app.send_raw(
        "POST",
        &format!("/v1/games/{id}/commands"),
        Some(token),
        &[("content-type", "application/json")],
        command.into_bytes(),
    )
    .await
    .assert_problem(400, "bad_request");
    // An encoded NUL in a path or query never reaches the database.
    for path in [
        "/v1/games?status=%00".to_owned(),
        "/v1/me/games?cursor=a%00b".to_owned(),
        format!("/v1/games/{id}%00"),
    ] {
        app.get(&path, Some(token))
            .await
            .assert_problem(400, "bad_request");
    }
    assert_eq!(app.footprint().await, before);
}

#[actix_web::test]
async fn body_less_endpoints_refuse_a_body_and_an_oversize_one_is_413() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let token = users[0].token.as_str();
    let before = app.footprint().await;
    for action in ["resign", "cancel", "decline"] {
        let path = format!("/v1/games/{id}/{action}");
        app.send_raw("POST", &path, Some(token), &[], vec![b'x'; 70 * 1024])
            .await
            .assert_problem(413, "payload_too_large");
        app.send_raw(
            "POST",
            &path,
            Some(token),
            &[],
            br#"{"why": "bored"}"#.to_vec(),
        )
        .await
        .assert_problem(400, "bad_request");
    }
    assert_eq!(app.footprint().await, before);
    // Empty and `{}` are still fine.
    app.send_raw(
        "POST",
        &format!("/v1/games/{id}/resign"),
        Some(token),
        &[],
        b"{}".to_vec(),
    )
    .await
    .ok(200);
}

#[actix_web::test]
async fn the_webhook_cap_holds_under_concurrent_registrations() {
    let app = TestApp::spawn().await;
    let users = app.users(1).await;
    let token = users[0].token.clone();
    let attempts = (0..40).map(|i| {
        let (app, token) = (&app, token.clone());
        async move {
            app.post(
                "/v1/me/webhooks",
                Some(&token),
                &json!({"url": format!("http://127.0.0.1:9/{i}")}),
            )
            .await
            .status
            .as_u16()
        }
    });
    let statuses = futures_util::future::join_all(attempts).await;
    assert_eq!(
        statuses.iter().filter(|s| **s == 201).count(),
        10,
        "{statuses:?}"
    );
    assert!(
        statuses.iter().all(|s| *s == 201 || *s == 409),
        "{statuses:?}"
    );
    assert_eq!(app.count("webhooks").await, 10);
}

#[actix_web::test]
async fn a_dribbled_body_is_cut_off_with_408_and_the_connection_closed() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = TestApp::spawn_with(|s| s.body_timeout_ms = 800).await;
    let address = app.base.trim_start_matches("http://").to_owned();
    let socket = tokio::net::TcpStream::connect(&address).await.unwrap();
    let (mut reader, mut writer) = socket.into_split();
    writer
        .write_all(
            b"POST /v1/auth/login HTTP/1.1\r\nHost: hatstand\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{",
        )
        .await
        .unwrap();
    let started = std::time::Instant::now();
    // One byte every 100 ms: the whole body would take 20 s.
    let dribble = actix_web::rt::spawn(async move {
        for _ in 0..199 {
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            if writer.write_all(b" ").await.is_err() {
                break;
            }
        }
    });
    let mut answer = Vec::new();
    let read = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        reader.read_to_end(&mut answer),
    )
    .await;
    dribble.abort();
    assert!(read.is_ok(), "the connection was held for 10 s");
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("\"code\":\"request_timeout\""), "{text}");
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}
