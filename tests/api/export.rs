//! `GET /v1/me/games/export`: the caller's finished games as JSON Lines of
//! audits, each verifiable on its own, resumable with `since`.

use crate::play::play;
use crate::support::TestApp;
use serde_json::{Value, json};

async fn export(app: &TestApp, token: &str, since: Option<&str>) -> (u16, String, String) {
    let path = match since {
        Some(since) => format!("/v1/me/games/export?since={}", since.replace('+', "%2B")),
        None => "/v1/me/games/export".to_owned(),
    };
    let mut reply = app
        .request("GET", &path, Some(token), &[])
        .send()
        .await
        .unwrap();
    let content_type = reply
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let body = reply.body().limit(16 << 20).await.unwrap();
    (
        reply.status().as_u16(),
        content_type,
        String::from_utf8(body.to_vec()).unwrap(),
    )
}

#[actix_web::test]
async fn a_player_downloads_their_finished_games_each_line_verifies_and_since_resumes() {
    let app = TestApp::spawn().await;
    let first = play(&app, "hats", 2, json!({}), 11).await;
    let second = play(&app, "top-hats", 2, json!({"quiet_turn_limit": 10}), 12).await;
    // The first game's player 0 plays a third game that stays open: not exported.
    let waiting = app
        .created_game(&first.users[0], &json!({"ruleset": "hats", "players": 2}))
        .await;
    assert_eq!(waiting["status"], "open");

    let (status, content_type, body) = export(&app, &first.users[0].token, None).await;
    assert_eq!(status, 200);
    assert_eq!(content_type, "application/x-ndjson");
    let lines: Vec<Value> = body
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "only the caller's games that are over");
    assert_eq!(lines[0]["game_id"], first.id.as_str());
    for line in body.lines() {
        let doc: hatstand::record::verify::AuditDocument = serde_json::from_str(line).unwrap();
        hatstand::record::verify::verify(&doc).unwrap();
    }
    let since = lines[0]["finished_at"].as_str().unwrap().to_owned();
    let (_, _, rest) = export(&app, &first.users[0].token, Some(&since)).await;
    assert_eq!(rest, "", "nothing ended after the last line");

    let (_, _, theirs) = export(&app, &second.users[1].token, None).await;
    assert_eq!(theirs.lines().count(), 1);
    assert!(theirs.contains(&second.id));
}

#[actix_web::test]
async fn a_malformed_cursor_or_no_token_is_refused() {
    let app = TestApp::spawn().await;
    let users = app.users(1).await;
    for bad in ["yesterday", "2026-13-01T00:00:00Z", "17"] {
        app.get(
            &format!("/v1/me/games/export?since={bad}"),
            Some(&users[0].token),
        )
        .await
        .assert_problem(400, "bad_request");
    }
    app.get("/v1/me/games/export?until=1", Some(&users[0].token))
        .await
        .assert_problem(400, "bad_request");
    app.get("/v1/me/games/export", None)
        .await
        .assert_problem(401, "unauthenticated");
}
