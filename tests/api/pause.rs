//! Pausing the table (docs/clocks.md): proposed by a player, paused by
//! every player's yes, resumed by any player or at its end; every
//! refusal has its code and writes nothing; the deadline worker fires
//! nothing during a pause and resumes it once; the audit verifies.

use serde_json::{Value, json};

use crate::invitations::verify_audit;
use crate::support::{Reply, TestApp, User};

fn no_workers(s: &mut hatstand::config::Settings) {
    s.background.deadline_tick_ms = 0;
}

async fn propose(app: &TestApp, id: &str, user: &User, body: &Value) -> Reply {
    app.post(&format!("/v1/games/{id}/pause"), Some(&user.token), body)
        .await
}

async fn vote(app: &TestApp, id: &str, user: &User, yes: bool) -> Reply {
    app.post(
        &format!("/v1/games/{id}/pause/vote"),
        Some(&user.token),
        &json!({"yes": yes}),
    )
    .await
}

async fn resume(app: &TestApp, id: &str, user: &User) -> Reply {
    app.post(
        &format!("/v1/games/{id}/resume"),
        Some(&user.token),
        &json!({}),
    )
    .await
}

fn later(secs: i64) -> String {
    (chrono::Utc::now() + chrono::TimeDelta::seconds(secs)).to_rfc3339()
}

#[actix_web::test]
async fn every_refusal_has_its_code_and_writes_nothing() {
    let app = TestApp::spawn_with(no_workers).await;
    let users = app.users(3).await;
    let (players, spectator) = (&users[..2], &users[2]);
    let id = app
        .started_game(players, "hats", json!({"turn_timeout": "PT1H"}))
        .await;
    let forbidden = app
        .started_game(
            players,
            "hats",
            json!({"turn_timeout": "PT1H", "pauses": false}),
        )
        .await;
    let before = app.footprint().await;
    propose(&app, &id, spectator, &json!({}))
        .await
        .assert_problem(403, "not_a_player");
    propose(&app, &id, &players[0], &json!({"until": later(-60)}))
        .await
        .assert_problem(422, "pause_until_past");
    propose(&app, &forbidden, &players[0], &json!({}))
        .await
        .assert_problem(422, "pauses_forbidden");
    vote(&app, &id, &players[1], true)
        .await
        .assert_problem(409, "no_pause_proposal");
    resume(&app, &id, &players[0])
        .await
        .assert_problem(409, "not_paused");
    propose(&app, &id, &players[0], &json!({"until": "next week"}))
        .await
        .assert_problem(400, "bad_request");
    assert_eq!(app.footprint().await, before);
    // An open proposal: a second one, a spectator's vote and the
    // proposer's own vote again are refused, and write nothing.
    let game = propose(&app, &id, &players[0], &json!({})).await.ok(200);
    assert_eq!(game["pause"]["proposal"]["waiting"], json!([1]));
    let before = app.footprint().await;
    propose(&app, &id, &players[1], &json!({}))
        .await
        .assert_problem(409, "pause_open");
    vote(&app, &id, spectator, true)
        .await
        .assert_problem(403, "not_a_player");
    vote(&app, &id, &players[0], true)
        .await
        .assert_problem(409, "no_pause_proposal");
    assert_eq!(app.footprint().await, before);
}

#[actix_web::test]
async fn given_a_per_turn_game_when_both_players_vote_yes_then_no_deadline_runs_until_one_resumes()
{
    let app = TestApp::spawn_with(no_workers).await;
    let users = app.users(2).await;
    let pool = hatstand::db::pool(&app.db.url, 2).unwrap();
    let id = app
        .started_game(&users, "hats", json!({"turn_timeout": "PT1H"}))
        .await;
    let deadline = app.game(&id, None).await["deadline"].clone();
    // Given a proposal, which leaves the deadline as it was …
    let game = propose(&app, &id, &users[0], &json!({})).await.ok(200);
    assert_eq!(game["deadline"], deadline);
    // … a no ends it …
    let game = vote(&app, &id, &users[1], false).await.ok(200);
    assert!(game.get("pause").is_none(), "{game}");
    // … when both vote yes, the table is paused: no deadline …
    propose(&app, &id, &users[1], &json!({})).await.ok(200);
    let game = vote(&app, &id, &users[0], true).await.ok(200);
    assert!(game["pause"]["paused_since"].is_string(), "{game}");
    assert!(game["deadline"].is_null());
    assert_eq!(
        app.count(&format!("games WHERE id = '{id}' AND deadline IS NULL"))
            .await,
        1
    );
    // … and the worker fires nothing.
    assert_eq!(hatstand::deadlines::tick(&pool).await.unwrap(), 0);
    // Then any player resumes at once, and the per-turn clock starts a turn.
    let game = resume(&app, &id, &users[1]).await.ok(200);
    assert!(game.get("pause").is_none());
    let resumed: chrono::DateTime<chrono::Utc> =
        serde_json::from_value(game["updated_at"].clone()).unwrap();
    let deadline: chrono::DateTime<chrono::Utc> =
        serde_json::from_value(game["deadline"].clone()).unwrap();
    assert_eq!(deadline - resumed, chrono::TimeDelta::hours(1));
    let kinds: Vec<String> = app
        .get(&format!("/v1/games/{id}/events"), None)
        .await
        .ok(200)["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_owned())
        .filter(|k| k.starts_with("game_pause") || k == "game_paused" || k == "game_resumed")
        .collect();
    assert_eq!(
        kinds,
        [
            "game_pause_proposed",
            "game_pause_voted",
            "game_pause_proposed",
            "game_pause_voted",
            "game_paused",
            "game_resumed"
        ]
    );
    app.post(
        &format!("/v1/games/{id}/resign"),
        Some(&users[0].token),
        &json!({}),
    )
    .await
    .ok(200);
    verify_audit(&app, &id).await;
}

#[actix_web::test]
async fn given_a_bank_paused_until_a_date_when_it_comes_then_the_worker_resumes_once_and_the_timeout_replays()
 {
    let app = TestApp::spawn_with(no_workers).await;
    let users = app.users(2).await;
    let a = hatstand::db::pool(&app.db.url, 2).unwrap();
    let b = hatstand::db::pool(&app.db.url, 2).unwrap();
    let id = app
        .started_game(
            &users,
            "hats",
            json!({"clock": {"kind": "bank", "initial": "PT2S", "increment": "PT0S", "max": "PT2S"},
                   "on_timeout": "forfeit"}),
        )
        .await;
    // Given the table paused until 1.5 s from now …
    let until = chrono::Utc::now() + chrono::TimeDelta::milliseconds(1500);
    propose(&app, &id, &users[0], &json!({"until": until.to_rfc3339()}))
        .await
        .ok(200);
    let game = vote(&app, &id, &users[1], true).await.ok(200);
    let seat = game["to_act"][0].as_u64().unwrap() as usize;
    let frozen = game["clocks"][seat]["remaining_ms"].as_i64().unwrap();
    assert!(game["clocks"][seat]["deadline"].is_null(), "{game}");
    assert!(frozen > 1000, "{frozen}");
    // … when the bank would have run out and the pause's end came,
    let wait = (until - chrono::Utc::now()).to_std().unwrap_or_default();
    actix_web::rt::time::sleep(wait + std::time::Duration::from_millis(900)).await;
    // two workers racing resume it once, and nothing times out …
    let (fa, fb) = tokio::join!(hatstand::deadlines::tick(&a), hatstand::deadlines::tick(&b));
    assert_eq!(fa.unwrap() + fb.unwrap(), 1);
    assert_eq!(app.count("events WHERE type = 'game_resumed'").await, 1);
    assert_eq!(app.count("events WHERE type = 'turn_timed_out'").await, 0);
    let game = app.game(&id, None).await;
    assert!(game.get("pause").is_none());
    // … the bank has what it had when the pause began …
    let left = game["clocks"][seat]["remaining_ms"].as_i64().unwrap();
    assert!(
        (left - frozen).abs() <= 1,
        "{left} ms left, {frozen} before"
    );
    // … and runs out later: the timeout fires and the record verifies.
    let deadline: chrono::DateTime<chrono::Utc> =
        serde_json::from_value(game["deadline"].clone()).unwrap();
    let wait = (deadline - chrono::Utc::now()).to_std().unwrap_or_default();
    actix_web::rt::time::sleep(wait + std::time::Duration::from_millis(50)).await;
    assert_eq!(hatstand::deadlines::tick(&a).await.unwrap(), 1);
    let game = app.game(&id, None).await;
    assert_eq!(game["status"], "finished");
    verify_audit(&app, &id).await;
}
