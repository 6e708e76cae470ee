//! Server-Sent Events: a game's events per viewer, resumption, and the
//! caller's notification stream.

use serde_json::{Value, json};

use crate::support::{TestApp, read_sse};

/// The events endpoint's page for a viewer, as (id, type, event JSON).
async fn page(
    app: &TestApp,
    id: &str,
    token: Option<&str>,
    after: i64,
) -> Vec<(String, String, Value)> {
    let page = app
        .get(&format!("/v1/games/{id}/events?after={after}"), token)
        .await
        .ok(200);
    page["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["seq"].to_string(),
                e["type"].as_str().unwrap().to_owned(),
                e.clone(),
            )
        })
        .collect()
}

#[actix_web::test]
async fn the_game_stream_sends_each_viewer_what_it_may_see_then_new_events() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let version = app.game(&id, None).await["version"].as_i64().unwrap() as usize;
    let path = format!("/v1/games/{id}/stream");
    for token in [
        Some(users[0].token.as_str()),
        Some(users[1].token.as_str()),
        None,
    ] {
        let streamed = app.sse(&path, token, &[], 5, |m| m.len() >= version).await;
        assert_eq!(
            streamed,
            page(&app, &id, token, 0).await,
            "the stream carries exactly the viewer's redacted events"
        );
    }
    // A live event reaches an open stream.
    let mut response = app
        .request(
            "GET",
            &path,
            Some(&users[1].token),
            &[("Last-Event-ID", &version.to_string())],
        )
        .send()
        .await
        .unwrap();
    let game = app.game(&id, Some(&users[0])).await;
    let seat = game["to_act"][0].as_u64().unwrap() as usize;
    let mine = app.game(&id, Some(&users[seat])).await;
    let command = mine["legal_commands"][0].clone();
    app.command(&id, &users[seat], version as i64, &command)
        .await
        .ok(200);
    let live = read_sse(&mut response, 5, |m| !m.is_empty()).await;
    assert_eq!(live[0].0, (version + 1).to_string());
    assert_eq!(
        live[0],
        page(&app, &id, Some(&users[1].token), version as i64).await[0]
    );
}

#[actix_web::test]
async fn streams_resume_after_last_event_id_or_after() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let version = app.game(&id, None).await["version"].as_i64().unwrap();
    let path = format!("/v1/games/{id}/stream");
    let resumed = app
        .sse(&path, None, &[("Last-Event-ID", "2")], 5, |m| {
            m.len() as i64 >= version - 2
        })
        .await;
    assert_eq!(resumed[0].0, "3");
    assert_eq!(resumed, page(&app, &id, None, 2).await);
    let after = app
        .sse(&format!("{path}?after=3"), None, &[], 5, |m| !m.is_empty())
        .await;
    assert_eq!(after[0].0, "4");
    app.get(&format!("/v1/games/{}/stream", uuid::Uuid::new_v4()), None)
        .await
        .assert_problem(404, "not_found");
    app.send("GET", &path, None, &[("Last-Event-ID", "x")], &json!(null))
        .await
        .assert_problem(400, "bad_request");
}

#[actix_web::test]
async fn my_stream_says_your_turn_and_resumes() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    app.get("/v1/me/stream", None)
        .await
        .assert_problem(401, "unauthenticated");
    let id = app.started_game(&users, "hats", json!({})).await;
    let game = app.game(&id, None).await;
    let seat = game["to_act"][0].as_u64().unwrap() as usize;
    // The start told the seat to act.
    let first = app
        .sse("/v1/me/stream", Some(&users[seat].token), &[], 5, |m| {
            !m.is_empty()
        })
        .await;
    assert_eq!(first[0].1, "your_turn");
    assert_eq!(first[0].2["game_id"], id);
    assert_eq!(first[0].2["data"]["seat"], seat);
    // Play until someone else's turn comes, watching their stream from the last id.
    let other = 1 - seat;
    let known = app
        .get("/v1/me/notifications", Some(&users[other].token))
        .await
        .ok(200)["notifications"]
        .as_array()
        .unwrap()
        .last()
        .map_or(0, |n| n["id"].as_i64().unwrap());
    let mut response = app
        .request(
            "GET",
            "/v1/me/stream",
            Some(&users[other].token),
            &[("Last-Event-ID", &known.to_string())],
        )
        .send()
        .await
        .unwrap();
    // Play (any seat the game waits for) until `other` is told something:
    // at the latest, that the game is over.
    let newer = || async {
        app.get(
            &format!("/v1/me/notifications?after={known}"),
            Some(&users[other].token),
        )
        .await
        .ok(200)["notifications"]
            .as_array()
            .unwrap()
            .len()
    };
    let mut game = game;
    while game["status"] == "active" && newer().await == 0 {
        let s = game["to_act"][0].as_u64().unwrap() as usize;
        let mine = app.game(&id, Some(&users[s])).await;
        game = app
            .command(
                &id,
                &users[s],
                mine["version"].as_i64().unwrap(),
                &mine["legal_commands"][0],
            )
            .await
            .ok(200)["game"]
            .clone();
    }
    let told = read_sse(&mut response, 5, |m| !m.is_empty()).await;
    assert!(told[0].0.parse::<i64>().unwrap() > known);
    assert!(["your_turn", "game_finished"].contains(&told[0].1.as_str()));
    assert_eq!(told[0].2["user_id"], users[other].id.to_string());
}
