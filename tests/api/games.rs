//! Creating, joining, listing and reading games.

use serde_json::{Value, json};

use crate::support::TestApp;

#[actix_web::test]
async fn creating_a_game_seats_the_creator_and_commits_to_a_seed() {
    let app = TestApp::spawn().await;
    let ann = app.register("ann").await;
    let reply = app
        .post(
            "/v1/games",
            Some(&ann.token),
            &json!({"ruleset": "hats", "players": 3}),
        )
        .await;
    let location = reply
        .headers
        .get("location")
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    let etag = reply.header("etag");
    let game = reply.ok(201);
    assert_eq!(
        location,
        format!("/v1/games/{}", game["id"].as_str().unwrap())
    );
    assert_eq!(game["status"], "open");
    assert_eq!(game["players"], 3);
    assert_eq!(game["version"], 2, "game_created and player_joined");
    assert!(
        etag.starts_with("\"2."),
        "the version, then the viewer's mac: {etag}"
    );
    assert_eq!(game["my_seat"], 0);
    // The seat's salt (docs/audits.md): made by the server, none was sent.
    let mut seats = game["seats"].clone();
    let salt = seats[0].as_object_mut().unwrap().remove("salt").unwrap();
    assert!(
        salt.as_str()
            .is_some_and(|s| s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())),
        "{salt}"
    );
    assert_eq!(
        seats,
        json!([{"seat": 0, "user_id": ann.id, "username": "ann", "resigned": false, "bot": false}])
    );
    assert_eq!(game["to_act"], json!([]));
    assert_eq!(game["legal_commands"], json!([]));
    assert_eq!(game["view"], Value::Null);
    assert_eq!(game["seed_commitment"].as_str().unwrap().len(), 64);
    assert!(
        game["options"].get("seed").is_none(),
        "a secret seed is not shown"
    );
}

#[actix_web::test]
async fn a_creator_may_stay_out_and_a_public_seed_is_shown() {
    let app = TestApp::spawn().await;
    let ann = app.register("ann").await;
    let game = app.created_game(&ann, &json!({"ruleset": "hats", "players": 2, "join": false, "options": {"seed": "table 7"}})).await;
    assert_eq!(game["seats"], json!([]));
    assert_eq!(game["my_seat"], Value::Null);
    assert_eq!(game["options"]["seed"], "table 7");
    assert_eq!(
        game["seed_commitment"],
        hatstand::engine::random::seed_commitment("table 7")
    );
}

#[actix_web::test]
async fn bad_rulesets_player_counts_and_options_are_refused() {
    let app = TestApp::spawn().await;
    let ann = app.register("ann").await;
    let before = app.footprint().await;
    app.post(
        "/v1/games",
        Some(&ann.token),
        &json!({"ruleset": "chess", "players": 2}),
    )
    .await
    .assert_problem(404, "not_found");
    for players in [0, 1, 5, 9] {
        app.post(
            "/v1/games",
            Some(&ann.token),
            &json!({"ruleset": "hats", "players": players}),
        )
        .await
        .assert_problem(422, "invalid_options");
    }
    for options in [
        json!({"no_such_option": 1}),
        json!({"seed": 42}),
        json!({"seed": ""}),
        json!({"deals": [{"line": ["H1"], "hands": [], "deck": []}]}),
        json!({"deals": "shuffle please"}),
    ] {
        app.post(
            "/v1/games",
            Some(&ann.token),
            &json!({"ruleset": "hats", "players": 2, "options": options}),
        )
        .await
        .assert_problem(422, "invalid_options");
    }
    assert_eq!(app.footprint().await, before);
}

#[actix_web::test]
async fn a_join_body_must_be_an_object_and_null_is_an_empty_one() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let game = app
        .created_game(&users[0], &json!({"ruleset": "hats", "players": 2}))
        .await;
    let path = format!("/v1/games/{}/join", game["id"].as_str().unwrap());
    let token = Some(users[1].token.as_str());
    // An array is not read as the request's fields, and nothing changes.
    let before = app.footprint().await;
    for body in [json!([null, null]), json!([0, "code"]), json!(1)] {
        let refused = app.post(&path, token, &body).await;
        refused.assert_problem(400, "bad_request");
        assert_eq!(refused.body["detail"], "the body must be a JSON object");
    }
    assert_eq!(app.footprint().await, before);
    // `null` takes the lowest free seat, as an empty body does.
    let joined = app.post(&path, token, &Value::Null).await.ok(200);
    assert_eq!(joined["my_seat"], 1);
    assert_eq!(joined["status"], "active");
}

#[actix_web::test]
async fn a_cursor_outside_its_declared_shape_is_refused() {
    let app = TestApp::spawn().await;
    let id = uuid::Uuid::new_v4();
    for cursor in [
        format!("+5_{id}"),
        format!("5_{}", id.simple()),
        format!("1234567890123456789_{id}"),
    ] {
        app.get(
            &format!("/v1/games?cursor={}", cursor.replace('+', "%2B")),
            None,
        )
        .await
        .assert_problem(400, "bad_request");
    }
}

#[actix_web::test]
async fn the_game_starts_when_the_last_seat_fills() {
    let app = TestApp::spawn().await;
    let users = app.users(3).await;
    let game = app
        .created_game(&users[0], &json!({"ruleset": "hats", "players": 3}))
        .await;
    let id = game["id"].as_str().unwrap();
    let joined = app
        .post(
            &format!("/v1/games/{id}/join"),
            Some(&users[1].token),
            &json!({"seat": 2}),
        )
        .await
        .ok(200);
    assert_eq!(joined["my_seat"], 2);
    assert_eq!(joined["status"], "open");
    // An empty body takes the lowest free seat.
    let last = app
        .send_raw(
            "POST",
            &format!("/v1/games/{id}/join"),
            Some(&users[2].token),
            &[],
            Vec::new(),
        )
        .await
        .ok(200);
    assert_eq!(last["my_seat"], 1);
    assert_eq!(last["status"], "active");
    assert_eq!(last["to_act"], json!([0]));
    assert!(last["view"].is_object());
    assert_eq!(
        last["legal_commands"],
        json!([]),
        "seat 1 does not act first"
    );
    let first = app.game(id, Some(&users[0])).await;
    assert!(!first["legal_commands"].as_array().unwrap().is_empty());
    let events = app
        .get(&format!("/v1/games/{id}/events"), None)
        .await
        .ok(200);
    let types: Vec<&str> = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        &types[..5],
        [
            "game_created",
            "player_joined",
            "player_joined",
            "player_joined",
            "game_started"
        ]
    );
    assert!(types.len() > 5, "the opening deal follows the start");
}

#[actix_web::test]
async fn joining_errors_have_their_codes_and_write_nothing() {
    let app = TestApp::spawn().await;
    let users = app.users(4).await;
    let game = app
        .created_game(&users[0], &json!({"ruleset": "hats", "players": 2}))
        .await;
    let id = game["id"].as_str().unwrap();
    let join = |n: usize, body: Value| {
        let path = format!("/v1/games/{id}/join");
        let token = users[n].token.clone();
        let app = &app;
        async move { app.post(&path, Some(&token), &body).await }
    };
    let before = app.footprint().await;
    join(0, json!({}))
        .await
        .assert_problem(409, "already_joined");
    join(1, json!({"seat": 0}))
        .await
        .assert_problem(409, "seat_taken");
    // Seat 2 of a game of 2 is well-formed, and no seat of this game.
    join(1, json!({"seat": 2}))
        .await
        .assert_problem(422, "no_such_seat");
    join(1, json!({"seat": -1}))
        .await
        .assert_problem(400, "bad_request");
    join(1, json!({"table": 1}))
        .await
        .assert_problem(400, "bad_request");
    app.post(
        &format!("/v1/games/{}/join", uuid::Uuid::new_v4()),
        Some(&users[1].token),
        &json!({}),
    )
    .await
    .assert_problem(404, "not_found");
    app.post(&format!("/v1/games/{id}/join"), None, &json!({}))
        .await
        .assert_problem(401, "unauthenticated");
    assert_eq!(app.footprint().await, before);
    join(1, json!({})).await.ok(200);
    let before = app.footprint().await;
    join(2, json!({})).await.assert_problem(409, "game_full");
    join(1, json!({}))
        .await
        .assert_problem(409, "already_joined");
    assert_eq!(app.footprint().await, before);
}

#[actix_web::test]
async fn games_are_listed_newest_first_with_filters_and_cursors() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let mut ids = Vec::new();
    for _ in 0..5 {
        let g = app
            .created_game(&users[0], &json!({"ruleset": "hats", "players": 2}))
            .await;
        ids.push(g["id"].as_str().unwrap().to_owned());
    }
    app.post(
        &format!("/v1/games/{}/join", ids[1]),
        Some(&users[1].token),
        &json!({}),
    )
    .await
    .ok(200);
    let page1 = app.get("/v1/games?limit=2", None).await.ok(200);
    let listed: Vec<&str> = page1["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, [ids[4].as_str(), ids[3].as_str()]);
    let cursor = page1["next_cursor"].as_str().unwrap();
    let page2 = app
        .get(&format!("/v1/games?limit=2&cursor={cursor}"), None)
        .await
        .ok(200);
    let listed: Vec<&str> = page2["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, [ids[2].as_str(), ids[1].as_str()]);
    let page3 = app
        .get(
            &format!(
                "/v1/games?limit=2&cursor={}",
                page2["next_cursor"].as_str().unwrap()
            ),
            None,
        )
        .await
        .ok(200);
    assert_eq!(page3["games"].as_array().unwrap().len(), 1);
    assert_eq!(page3["next_cursor"], Value::Null);
    let active = app
        .get("/v1/games?status=active&ruleset=hats", None)
        .await
        .ok(200);
    assert_eq!(active["games"].as_array().unwrap().len(), 1);
    assert_eq!(active["games"][0]["id"], ids[1].as_str());
    assert_eq!(active["games"][0]["seats"].as_array().unwrap().len(), 2);
    let open = app.get("/v1/games?status=open", None).await.ok(200);
    assert_eq!(open["games"].as_array().unwrap().len(), 4);
}

#[actix_web::test]
async fn the_inbox_lists_the_games_waiting_for_me() {
    let app = TestApp::spawn().await;
    let users = app.users(3).await;
    let first = app.started_game(&users[..2], "hats", json!({})).await;
    let second = app
        .started_game(&[users[1].clone(), users[2].clone()], "hats", json!({}))
        .await;
    let inbox = |n: usize| {
        let token = users[n].token.clone();
        let app = &app;
        async move {
            let page = app
                .get("/v1/me/games?turn=mine", Some(&token))
                .await
                .ok(200);
            page["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["id"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(inbox(0).await, vec![first.clone()]);
    assert_eq!(inbox(1).await, vec![second.clone()]);
    assert_eq!(inbox(2).await, Vec::<String>::new());
    let all = app.get("/v1/me/games", Some(&users[1].token)).await.ok(200);
    assert_eq!(all["games"].as_array().unwrap().len(), 2);
    let finished = app
        .get("/v1/me/games?status=finished", Some(&users[1].token))
        .await
        .ok(200);
    assert_eq!(finished["games"], json!([]));
    app.get("/v1/me/games", None)
        .await
        .assert_problem(401, "unauthenticated");
}

#[actix_web::test]
async fn a_game_has_an_etag_and_answers_304_when_unchanged() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let reply = app
        .get(&format!("/v1/games/{id}"), Some(&users[0].token))
        .await;
    let etag = reply.header("etag");
    let version = reply.body["version"].as_i64().unwrap();
    assert!(etag.starts_with(&format!("\"{version}.")), "{etag}");
    let not_modified = app
        .send(
            "GET",
            &format!("/v1/games/{id}"),
            Some(&users[0].token),
            &[("If-None-Match", etag.as_str())],
            &Value::Null,
        )
        .await;
    assert_eq!(not_modified.status.as_u16(), 304);
    let stale = app
        .send(
            "GET",
            &format!("/v1/games/{id}"),
            Some(&users[0].token),
            &[("If-None-Match", "\"1\"")],
            &Value::Null,
        )
        .await;
    assert_eq!(stale.status.as_u16(), 200);
}

#[actix_web::test]
async fn spectators_see_the_public_view_without_commands() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let spectator = app.game(&id, None).await;
    assert_eq!(spectator["my_seat"], Value::Null);
    assert_eq!(spectator["legal_commands"], json!([]));
    assert!(spectator["view"].is_object());
    let stranger = app.register("stranger").await;
    let seen = app.game(&id, Some(&stranger)).await;
    assert_eq!(seen["view"], spectator["view"]);
}

#[actix_web::test]
async fn a_cursor_before_any_representable_time_is_an_empty_page_not_an_error() {
    let app = TestApp::spawn().await;
    let ann = &app.users(1).await[0];
    app.created_game(ann, &json!({"ruleset": "hats", "players": 2}))
        .await;
    let id = uuid::Uuid::new_v4();
    let page = app
        .get(&format!("/v1/games?cursor=-932204705696005374_{id}"), None)
        .await
        .ok(200);
    assert_eq!(page["games"], json!([]));
    assert!(page["next_cursor"].is_null());
}
