//! Private games, invite codes, invitees, declining, cancelling, resigning.

use serde_json::{Value, json};

use crate::support::{TestApp, User};

async fn create(app: &TestApp, user: &User, body: Value) -> Value {
    app.created_game(user, &body).await
}

async fn listed(app: &TestApp, user: Option<&User>, id: &str) -> bool {
    let page = app
        .get("/v1/games?limit=100", user.map(|u| u.token.as_str()))
        .await
        .ok(200);
    page["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == id)
}

/// Verifies the audit of a finished game with the project's own verifier.
pub async fn verify_audit(app: &TestApp, id: &str) -> hatstand::record::verify::Verified {
    let audit = app
        .get(&format!("/v1/games/{id}/audit"), None)
        .await
        .ok(200);
    let doc: hatstand::record::verify::AuditDocument = serde_json::from_value(audit).unwrap();
    hatstand::record::verify::verify(&doc).unwrap_or_else(|e| panic!("audit fails: {e}"))
}

#[actix_web::test]
async fn a_private_game_is_joined_with_its_code_and_listed_only_to_its_players() {
    let app = TestApp::spawn().await;
    let users = app.users(3).await;
    let game = create(
        &app,
        &users[0],
        json!({"ruleset": "hats", "players": 2, "private": true}),
    )
    .await;
    let id = game["id"].as_str().unwrap();
    assert_eq!(game["private"], true);
    let code = game["invite_code"].as_str().unwrap().to_owned();
    assert!(code.len() >= 16);
    // Watched by its players only: without the code it is not there; with
    // it, the table shows (without the code itself) before joining.
    assert_eq!(
        app.get(&format!("/v1/games/{id}"), None)
            .await
            .status
            .as_u16(),
        404
    );
    let with_code = format!("/v1/games/{id}?code={code}");
    assert_eq!(
        app.get(&with_code, None).await.ok(200)["invite_code"],
        Value::Null
    );
    assert_eq!(
        app.get(&with_code, Some(&users[1].token)).await.ok(200)["invite_code"],
        Value::Null
    );
    assert!(!listed(&app, None, id).await);
    assert!(!listed(&app, Some(&users[1]), id).await);
    assert!(listed(&app, Some(&users[0]), id).await);
    let join = format!("/v1/games/{id}/join");
    app.post(&join, Some(&users[1].token), &json!({}))
        .await
        .assert_problem(403, "not_invited");
    app.post(&join, Some(&users[1].token), &json!({"code": "nope"}))
        .await
        .assert_problem(403, "not_invited");
    let joined = app
        .post(&join, Some(&users[1].token), &json!({"code": code}))
        .await
        .ok(200);
    assert_eq!(joined["status"], "active");
    assert_eq!(joined["invite_code"], code, "players see the code");
    assert!(listed(&app, Some(&users[1]), id).await);
    assert!(!listed(&app, Some(&users[2]), id).await);
}

#[actix_web::test]
async fn invitees_are_told_may_join_without_the_code_or_decline() {
    let app = TestApp::spawn().await;
    let users = app.users(4).await;
    let game = create(
        &app,
        &users[0],
        json!({"ruleset": "hats", "players": 2, "invitees": ["player1", "PLAYER2"]}),
    )
    .await;
    let id = game["id"].as_str().unwrap();
    assert_eq!(game["private"], true, "invitees make a game private");
    for invitee in &users[1..3] {
        let notes = app
            .get("/v1/me/notifications", Some(&invitee.token))
            .await
            .ok(200);
        let notes = notes["notifications"].as_array().unwrap();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert_eq!(notes[0]["type"], "invited");
        assert_eq!(notes[0]["game_id"], id);
        assert_eq!(notes[0]["data"]["invited_by"], users[0].id.to_string());
        assert!(listed(&app, Some(invitee), id).await);
    }
    assert!(!listed(&app, Some(&users[3]), id).await);
    // Someone not invited can neither join nor decline.
    app.post(
        &format!("/v1/games/{id}/decline"),
        Some(&users[3].token),
        &json!({}),
    )
    .await
    .assert_problem(403, "not_invited");
    // player2 declines, and can then no longer join without the code.
    app.post(
        &format!("/v1/games/{id}/decline"),
        Some(&users[2].token),
        &json!({}),
    )
    .await
    .ok(200);
    app.post(
        &format!("/v1/games/{id}/join"),
        Some(&users[2].token),
        &json!({}),
    )
    .await
    .assert_problem(403, "not_invited");
    assert!(!listed(&app, Some(&users[2]), id).await);
    // player1 joins without any code.
    let joined = app
        .post(
            &format!("/v1/games/{id}/join"),
            Some(&users[1].token),
            &json!({}),
        )
        .await
        .ok(200);
    assert_eq!(joined["status"], "active");
    let events = app
        .get(&format!("/v1/games/{id}/events"), Some(&users[1].token))
        .await
        .ok(200);
    let types: Vec<&str> = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        &types[..6],
        [
            "game_created",
            "player_joined",
            "player_invited",
            "player_invited",
            "player_declined",
            "player_joined"
        ]
    );
    // Inviting someone who does not exist is refused.
    app.post(
        "/v1/games",
        Some(&users[0].token),
        &json!({"ruleset": "hats", "players": 2, "invitees": ["nobody_here"]}),
    )
    .await
    .assert_problem(404, "not_found");
}

#[actix_web::test]
async fn only_the_creator_cancels_and_only_while_open() {
    let app = TestApp::spawn().await;
    let users = app.users(3).await;
    let game = create(&app, &users[0], json!({"ruleset": "hats", "players": 3})).await;
    let id = game["id"].as_str().unwrap();
    app.joined(id, &users[1]).await;
    let cancel = format!("/v1/games/{id}/cancel");
    app.post(&cancel, Some(&users[1].token), &json!({}))
        .await
        .assert_problem(403, "forbidden");
    let cancelled = app
        .post(&cancel, Some(&users[0].token), &json!({}))
        .await
        .ok(200);
    assert_eq!(cancelled["status"], "abandoned");
    app.post(&cancel, Some(&users[0].token), &json!({}))
        .await
        .assert_problem(409, "game_not_open");
    app.post(
        &format!("/v1/games/{id}/join"),
        Some(&users[2].token),
        &json!({}),
    )
    .await
    .assert_problem(409, "game_not_open");
    let events = app
        .get(&format!("/v1/games/{id}/events"), None)
        .await
        .ok(200);
    assert_eq!(
        events["events"].as_array().unwrap().last().unwrap()["type"],
        "game_cancelled"
    );
    let notes = app
        .get("/v1/me/notifications", Some(&users[1].token))
        .await
        .ok(200);
    assert_eq!(notes["notifications"][0]["type"], "game_finished");
    assert_eq!(notes["notifications"][0]["data"]["status"], "abandoned");
    // A started game cannot be cancelled.
    let started = app.started_game(&users[..2], "hats", json!({})).await;
    app.post(
        &format!("/v1/games/{started}/cancel"),
        Some(&users[0].token),
        &json!({}),
    )
    .await
    .assert_problem(409, "game_not_open");
}

#[actix_web::test]
async fn resigning_ends_a_two_player_game_by_forfeit_and_the_audit_verifies() {
    let app = TestApp::spawn().await;
    let users = app.users(3).await;
    let id = app.started_game(&users[..2], "hats", json!({})).await;
    let resign = format!("/v1/games/{id}/resign");
    app.post(&resign, Some(&users[2].token), &json!({}))
        .await
        .assert_problem(403, "not_a_player");
    let game = app
        .post(&resign, Some(&users[1].token), &json!({}))
        .await
        .ok(200);
    assert_eq!(game["status"], "finished");
    assert_eq!(game["to_act"], json!([]));
    assert_eq!(game["deadline"], Value::Null);
    assert_eq!(
        game["result"],
        json!({"outcome": "forfeit", "winners": [0], "scores": [0, 0], "forfeited": [1]})
    );
    assert_eq!(game["seats"][1]["resigned"], true);
    let events = app
        .get(&format!("/v1/games/{id}/events"), None)
        .await
        .ok(200);
    let events = events["events"].as_array().unwrap();
    let n = events.len();
    assert_eq!(events[n - 2]["type"], "player_resigned");
    assert_eq!(
        events[n - 2]["data"],
        json!({"seat": 1, "reason": "resigned"})
    );
    assert_eq!(events[n - 1]["type"], "game_forfeited");
    app.post(&resign, Some(&users[0].token), &json!({}))
        .await
        .assert_problem(409, "game_finished");
    for user in &users[..2] {
        let notes = app
            .get("/v1/me/notifications", Some(&user.token))
            .await
            .ok(200);
        let last = notes["notifications"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()
            .clone();
        assert_eq!(last["type"], "game_finished");
        assert_eq!(last["data"]["result"]["outcome"], "forfeit");
    }
    verify_audit(&app, &id).await;
}

#[actix_web::test]
async fn a_resigned_seat_is_played_by_the_server_until_one_seat_is_left() {
    let app = TestApp::spawn().await;
    let hats = app.ruleset("hats").await;
    let players = hats["max_players"].as_u64().unwrap().min(3) as usize;
    let users = app.users(players).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let game = app.game(&id, None).await;
    let first = game["to_act"][0].as_u64().unwrap() as usize;
    let after = app
        .post(
            &format!("/v1/games/{id}/resign"),
            Some(&users[first].token),
            &json!({}),
        )
        .await
        .ok(200);
    if players > 2 {
        assert_eq!(after["status"], "active");
        assert!(
            !after["to_act"].as_array().unwrap().contains(&json!(first)),
            "the server played the resigned seat at once: {after}"
        );
        // Resigning twice is refused and writes nothing.
        let before = app.footprint().await;
        app.post(
            &format!("/v1/games/{id}/resign"),
            Some(&users[first].token),
            &json!({}),
        )
        .await
        .assert_problem(409, "already_resigned");
        assert_eq!(app.footprint().await, before);
        // A second resignation leaves one seat: forfeit.
        let second = (0..players).find(|s| *s != first).unwrap();
        let ended = app
            .post(
                &format!("/v1/games/{id}/resign"),
                Some(&users[second].token),
                &json!({}),
            )
            .await
            .ok(200);
        assert_eq!(ended["status"], "finished");
        assert_eq!(ended["result"]["outcome"], "forfeit");
        assert_eq!(ended["result"]["forfeited"].as_array().unwrap().len(), 2);
    } else {
        assert_eq!(after["status"], "finished");
    }
    verify_audit(&app, &id).await;
}
