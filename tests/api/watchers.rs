//! Who may watch a game (`spectators`): `public` games are read and listed
//! by anyone, `link` games read by anyone with the address and listed only
//! to their members, `players` games (the default for private games) exist
//! only for their players, creator and invitees: every read answers
//! anyone else as for an unknown id.

use serde_json::{Value, json};

use crate::support::{TestApp, User};

/// Every read of game `id`, as `token` (none: signed out): the status of
/// each, in order (the game, its events, a replay step, its audit, its
/// log, its stream).
async fn reads(app: &TestApp, id: &str, token: Option<&str>) -> Vec<u16> {
    let mut out = Vec::new();
    for path in [
        format!("/v1/games/{id}"),
        format!("/v1/games/{id}/events"),
        format!("/v1/games/{id}/state?at=1"),
        format!("/v1/games/{id}/audit"),
        format!("/v1/games/{id}/log"),
    ] {
        out.push(app.get(&path, token).await.status.as_u16());
    }
    let stream = app
        .request("GET", &format!("/v1/games/{id}/stream"), token, &[])
        .send()
        .await
        .unwrap();
    out.push(stream.status().as_u16());
    out
}

/// Ends a two-player game: seat 1 resigns.
async fn finish(app: &TestApp, id: &str, loser: &User) {
    app.post(
        &format!("/v1/games/{id}/resign"),
        Some(&loser.token),
        &Value::Null,
    )
    .await
    .ok(200);
}

/// Whether the public list (as `token`) shows game `id`.
async fn listed(app: &TestApp, id: &str, token: Option<&str>) -> bool {
    let page = app.get("/v1/games?limit=100", token).await.ok(200);
    page["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == id)
}

#[actix_web::test]
async fn a_players_only_game_exists_for_its_players_creator_and_invitees_alone() {
    let app = TestApp::spawn().await;
    let users = app.users(3).await;
    let outsider = app.register("outsider").await;
    let game = app
        .created_game(
            &users[0],
            &json!({"ruleset": "hats", "players": 2, "invitees": ["player1", "player2"]}),
        )
        .await;
    assert_eq!(
        game["options"]["spectators"], "players",
        "private: players by default"
    );
    let id = game["id"].as_str().unwrap().to_owned();
    app.joined(&id, &users[1]).await;
    finish(&app, &id, &users[1]).await;
    for (who, token) in [
        ("signed out", None),
        ("an outsider", Some(outsider.token.as_str())),
    ] {
        assert_eq!(reads(&app, &id, token).await, [404; 6], "{who}");
        assert!(!listed(&app, &id, token).await, "{who}");
        let unknown = app
            .get(&format!("/v1/games/{}", uuid::Uuid::new_v4()), token)
            .await;
        let hidden = app.get(&format!("/v1/games/{id}"), token).await;
        assert_eq!(
            unknown.body["detail"], hidden.body["detail"],
            "as for an unknown id"
        );
    }
    for (who, user) in [
        ("a player", &users[1]),
        ("the creator", &users[0]),
        ("an invitee who did not join", &users[2]),
    ] {
        assert_eq!(reads(&app, &id, Some(&user.token)).await, [200; 6], "{who}");
    }
}

#[actix_web::test]
async fn a_link_game_is_read_by_anyone_with_its_address_and_listed_to_its_players_only() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let outsider = app.register("outsider").await;
    let id = app
        .started_game(&users, "hats", json!({"spectators": "link"}))
        .await;
    assert_eq!(app.game(&id, None).await["options"]["spectators"], "link");
    assert_eq!(reads(&app, &id, None).await[..3], [200; 3]);
    assert!(!listed(&app, &id, None).await);
    assert!(!listed(&app, &id, Some(&outsider.token)).await);
    assert!(listed(&app, &id, Some(&users[1].token)).await);
    finish(&app, &id, &users[1]).await;
    assert_eq!(reads(&app, &id, Some(&outsider.token)).await, [200; 6]);
}

#[actix_web::test]
async fn a_public_game_is_read_and_listed_by_anyone_and_a_private_one_may_say_link() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    assert_eq!(app.game(&id, None).await["options"]["spectators"], "public");
    assert!(listed(&app, &id, None).await);
    finish(&app, &id, &users[1]).await;
    assert_eq!(reads(&app, &id, None).await, [200; 6]);

    let private = app
        .created_game(
            &users[0],
            &json!({"ruleset": "hats", "players": 2, "private": true, "options": {"spectators": "link"}}),
        )
        .await;
    let private_id = private["id"].as_str().unwrap();
    assert_eq!(
        app.get(&format!("/v1/games/{private_id}"), None)
            .await
            .status
            .as_u16(),
        200
    );
    assert!(!listed(&app, private_id, None).await);
}

#[actix_web::test]
async fn an_unknown_spectators_value_is_refused_and_nothing_is_written() {
    let app = TestApp::spawn().await;
    let users = app.users(1).await;
    let before = app.footprint().await;
    app.post(
        "/v1/games",
        Some(&users[0].token),
        &json!({"ruleset": "hats", "players": 2, "options": {"spectators": "friends"}}),
    )
    .await
    .assert_problem(422, "invalid_options");
    assert_eq!(app.footprint().await, before);
}

/// A private game created before the option existed (its stored server
/// options have no `spectators`) is watched by its players only.
#[actix_web::test]
async fn a_private_game_from_before_the_option_is_watched_by_its_players_only() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let game = app
        .created_game(
            &users[0],
            &json!({"ruleset": "hats", "players": 2, "private": true}),
        )
        .await;
    let id = game["id"].as_str().unwrap().to_owned();
    app.sql(&format!(
        "UPDATE games SET server_options = server_options - 'spectators' WHERE id = '{id}'"
    ))
    .await;
    assert_eq!(
        app.get(&format!("/v1/games/{id}"), None)
            .await
            .status
            .as_u16(),
        404
    );
    assert_eq!(
        app.get(&format!("/v1/games/{id}"), Some(&users[0].token))
            .await
            .status
            .as_u16(),
        200
    );
}

#[actix_web::test]
async fn an_invite_code_over_128_characters_is_bad_request() {
    let app = TestApp::spawn().await;
    let users = app.users(1).await;
    let game = app
        .created_game(
            &users[0],
            &json!({"ruleset": "hats", "players": 2, "private": true}),
        )
        .await;
    let id = game["id"].as_str().unwrap();
    let long = "x".repeat(129);
    app.get(&format!("/v1/games/{id}?code={long}"), None)
        .await
        .assert_problem(400, "bad_request");
    let right = game["invite_code"].as_str().unwrap();
    app.get(&format!("/v1/games/{id}?code={right}"), None)
        .await
        .ok(200);
}
