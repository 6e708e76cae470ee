//! Sending commands: versions, turns, legality, idempotency, and every error
//! code the endpoint can return — each error writing nothing.

use serde_json::{Value, json};

use crate::support::{TestApp, User};

/// A started 2-player Hats game and its current state for seat 0.
async fn table(app: &TestApp) -> (Vec<User>, String, Value) {
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let game = app.game(&id, Some(&users[0])).await;
    (users, id, game)
}

/// A black-hat command with a card seat 0 does not hold.
fn card_not_in_hand(game: &Value) -> Value {
    let held: Vec<String> = game["legal_commands"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["type"] == "black_hat")
        .map(|c| c["card"].as_str().unwrap().to_owned())
        .collect();
    let missing = ["T", "S", "H", "C", "D"]
        .iter()
        .flat_map(|t| (1..=6).map(move |n| format!("{t}{n}")))
        .find(|c| !held.contains(c))
        .unwrap();
    json!({"type": "black_hat", "card": missing})
}

#[actix_web::test]
async fn a_listed_command_is_accepted_and_raises_the_version() {
    let app = TestApp::spawn().await;
    let (users, id, game) = table(&app).await;
    let version = game["version"].as_i64().unwrap();
    let command = game["legal_commands"][0].clone();
    let reply = app.command(&id, &users[0], version, &command).await;
    let etag = reply.header("etag");
    let body = reply.ok(200);
    let new_version = body["version"].as_i64().unwrap();
    assert!(new_version > version);
    assert!(etag.starts_with(&format!("\"{new_version}.")), "{etag}");
    assert_eq!(body["game"]["version"], new_version);
    let events = body["events"].as_array().unwrap();
    assert_eq!(events.len() as i64, new_version - version);
    assert_eq!(events[0]["seq"], version + 1);
    assert_eq!(app.count("events").await, new_version);
}

#[actix_web::test]
async fn if_match_works_like_expected_version_and_a_stale_one_is_412() {
    let app = TestApp::spawn().await;
    let (users, id, game) = table(&app).await;
    let version = game["version"].as_i64().unwrap();
    let command = game["legal_commands"][0].clone();
    let path = format!("/v1/games/{id}/commands");
    let before = app.footprint().await;
    let stale = app
        .send(
            "POST",
            &path,
            Some(&users[0].token),
            &[("If-Match", "\"1\"")],
            &json!({"command": command}),
        )
        .await;
    stale.assert_problem(412, "version_conflict");
    assert_eq!(stale.body["current_version"], version);
    let disagree = app
        .send(
            "POST",
            &path,
            Some(&users[0].token),
            &[("If-Match", "\"1\"")],
            &json!({"expected_version": version, "command": command}),
        )
        .await;
    disagree.assert_problem(400, "bad_request");
    app.post(&path, Some(&users[0].token), &json!({"command": command}))
        .await
        .assert_problem(428, "precondition_required");
    assert_eq!(app.footprint().await, before);
    let tag = format!("\"{version}\"");
    app.send(
        "POST",
        &path,
        Some(&users[0].token),
        &[("If-Match", tag.as_str())],
        &json!({"command": command}),
    )
    .await
    .ok(200);
}

#[actix_web::test]
async fn every_refusal_has_its_code_and_writes_nothing() {
    let app = TestApp::spawn().await;
    let (users, id, game) = table(&app).await;
    let stranger = app.register("stranger").await;
    let version = game["version"].as_i64().unwrap();
    let command = game["legal_commands"][0].clone();
    let before = app.footprint().await;

    let stale = app.command(&id, &users[0], version - 1, &command).await;
    stale.assert_problem(409, "version_conflict");
    assert_eq!(stale.body["current_version"], version);
    app.command(&id, &users[1], version, &command)
        .await
        .assert_problem(409, "not_your_turn");
    app.command(&id, &stranger, version, &command)
        .await
        .assert_problem(403, "not_a_player");
    app.command(&id, &users[0], version, &card_not_in_hand(&game))
        .await
        .assert_problem(422, "illegal_command");
    app.command(
        &uuid::Uuid::new_v4().to_string(),
        &users[0],
        version,
        &command,
    )
    .await
    .assert_problem(404, "not_found");
    app.post(
        &format!("/v1/games/{id}/commands"),
        None,
        &json!({"expected_version": version, "command": command}),
    )
    .await
    .assert_problem(401, "unauthenticated");
    assert_eq!(app.footprint().await, before);
    assert_eq!(app.game(&id, Some(&users[0])).await["version"], version);
}

#[actix_web::test]
async fn commands_before_the_start_are_game_not_open() {
    let app = TestApp::spawn().await;
    let ann = app.register("ann").await;
    let game = app
        .created_game(&ann, &json!({"ruleset": "hats", "players": 2}))
        .await;
    let id = game["id"].as_str().unwrap();
    app.command(id, &ann, 2, &json!({"type": "black_hat", "card": "H1"}))
        .await
        .assert_problem(409, "game_not_open");
}

#[actix_web::test]
async fn a_retry_with_the_same_idempotency_key_replays_the_first_answer() {
    let app = TestApp::spawn().await;
    let (users, id, game) = table(&app).await;
    let version = game["version"].as_i64().unwrap();
    // A main action, which passes the turn to seat 1.
    let command = game["legal_commands"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "black_hat")
        .unwrap()
        .clone();
    let path = format!("/v1/games/{id}/commands");
    let body = json!({"expected_version": version, "command": command});
    let headers = [("Idempotency-Key", "move-1")];
    let first = app
        .send("POST", &path, Some(&users[0].token), &headers, &body)
        .await
        .ok(200);
    let after_first = app.footprint().await;
    let retry = app
        .send("POST", &path, Some(&users[0].token), &headers, &body)
        .await
        .ok(200);
    assert_eq!(first, retry);
    assert_eq!(app.footprint().await, after_first, "a retry writes nothing");
    // The same key with another body is refused.
    let other = json!({"expected_version": version + 5, "command": command});
    app.send("POST", &path, Some(&users[0].token), &headers, &other)
        .await
        .assert_problem(422, "idempotency_key_reused");
    // Keys belong to their user: another user may use the same key.
    let game1 = app.game(&id, Some(&users[1])).await;
    let next = &game1["legal_commands"][0];
    let body = json!({"expected_version": game1["version"], "command": next});
    app.send("POST", &path, Some(&users[1].token), &headers, &body)
        .await
        .ok(200);
    assert_eq!(app.footprint().await[4], 2);
    // … and to their game: on another game the same key is a new request.
    let other = app.started_game(&users, "hats", json!({})).await;
    let game = app.game(&other, Some(&users[0])).await;
    let body = json!({"expected_version": game["version"], "command": game["legal_commands"][0]});
    let path = format!("/v1/games/{other}/commands");
    app.send("POST", &path, Some(&users[0].token), &headers, &body)
        .await
        .ok(200);
    assert_eq!(app.footprint().await[4], 3);
}

#[actix_web::test]
async fn concurrent_commands_at_one_version_accept_exactly_one() {
    let app = TestApp::spawn().await;
    let (users, id, game) = table(&app).await;
    let version = game["version"].as_i64().unwrap();
    let commands = game["legal_commands"].as_array().unwrap().clone();
    let path = format!("/v1/games/{id}/commands");
    let requests = (0..20).map(|i| {
        let body = json!({"expected_version": version, "command": commands[i % commands.len()]});
        let path = path.clone();
        let token = users[0].token.clone();
        let app = &app;
        async move { app.post(&path, Some(&token), &body).await }
    });
    let replies = futures_util::future::join_all(requests).await;
    let accepted = replies.iter().filter(|r| r.status.as_u16() == 200).count();
    assert_eq!(accepted, 1, "exactly one of 20 racing commands wins");
    for reply in replies.iter().filter(|r| r.status.as_u16() != 200) {
        reply.assert_problem(409, "version_conflict");
    }
    // The log has no gap and no fork: seqs 1..=version, one chain.
    let winner = replies.iter().find(|r| r.status.as_u16() == 200).unwrap();
    let new_version = winner.body["version"].as_i64().unwrap();
    assert_eq!(app.count("events").await, new_version);
    let events = hatstand_events(&app, &id).await;
    hatstand::record::verify::check_chain(&events).unwrap();
    assert_eq!(events.len() as i64, new_version);
}

/// The stored log of a game.
pub async fn hatstand_events(app: &TestApp, id: &str) -> Vec<hatstand::record::chain::LoggedEvent> {
    let mut conn = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    hatstand::db::event_store::load(&mut conn, id.parse().unwrap(), 0, i64::MAX, 100_000)
        .await
        .unwrap()
}

#[actix_web::test]
async fn the_event_log_refuses_updates_and_deletes() {
    use diesel_async::SimpleAsyncConnection;
    let app = TestApp::spawn().await;
    let (_, _, _) = table(&app).await;
    let mut conn = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    for sql in [
        "UPDATE events SET data = '{}' WHERE seq = 1",
        "DELETE FROM events WHERE seq = 1",
        "TRUNCATE events CASCADE",
    ] {
        let err = conn.batch_execute(sql).await.unwrap_err();
        assert!(err.to_string().contains("append-only"), "{sql}: {err}");
    }
}
