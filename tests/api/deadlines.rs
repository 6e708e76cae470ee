//! Deadlines: the clock, the worker (also after a restart, also racing
//! another), autoplay and forfeit on timeout, inactivity, vacation.

use serde_json::{Value, json};

use crate::invitations::verify_audit;
use crate::support::{TestApp, settings, start_server};

fn no_workers(s: &mut hatstand::config::Settings) {
    s.background.deadline_tick_ms = 0;
}

async fn timeouts(app: &TestApp, id: &str) -> i64 {
    app.count(&format!(
        "events WHERE game_id = '{id}' AND type = 'turn_timed_out' AND actor_user IS NULL"
    ))
    .await
}

#[actix_web::test]
async fn a_deadline_fires_and_the_server_plays_for_the_seat() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app
        .started_game(&users, "hats", json!({"turn_timeout": "PT1S"}))
        .await;
    let game = app.game(&id, None).await;
    assert_eq!(game["options"]["turn_timeout"], "PT1S");
    assert_eq!(game["options"]["on_timeout"], "autoplay");
    let deadline = game["deadline"].as_str().expect("a deadline");
    let version = game["version"].as_i64().unwrap();
    let seat = game["to_act"][0].clone();
    assert!(deadline > game["updated_at"].as_str().unwrap());
    let page = app
        .eventually(5, || async {
            let page = app
                .get(&format!("/v1/games/{id}/events?after={version}"), None)
                .await
                .ok(200);
            (page["events"].as_array().unwrap().len() >= 2).then_some(page)
        })
        .await;
    let events = page["events"].as_array().unwrap();
    assert_eq!(events[0]["type"], "turn_timed_out");
    assert_eq!(events[0]["data"], json!({"seat": seat}));
    assert_eq!(timeouts(&app, &id).await, 1);
    // The autoplayed command is recorded like any other, by the system for the seat.
    assert_eq!(
        app.count(&format!(
            "events WHERE game_id = '{id}' AND seq = {} AND actor_user IS NULL AND actor_seat = {seat} AND command IS NOT NULL",
            version + 2
        ))
        .await,
        1
    );
    // The clock restarted.
    let after = app.game(&id, None).await;
    if after["status"] == "active" {
        assert!(after["deadline"].as_str().unwrap() > deadline);
    }
}

#[actix_web::test]
async fn a_deadline_that_passed_while_no_server_ran_fires_at_start_up() {
    // The first process has no deadline worker: as good as stopped.
    let mut app = TestApp::spawn_with(no_workers).await;
    let users = app.users(2).await;
    let id = app
        .started_game(&users, "hats", json!({"turn_timeout": "PT1H"}))
        .await;
    app.expire(&id).await;
    actix_web::rt::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(timeouts(&app, &id).await, 0);
    // A restart: a new process on the same database, with its worker.
    let mut restarted = settings(&app.db.url);
    restarted.background.deadline_tick_ms = 60_000;
    app.base = start_server(&app.db.url, &restarted).await;
    app.eventually(5, || async {
        (timeouts(&app, &id).await == 1).then_some(())
    })
    .await;
}

#[actix_web::test]
async fn two_workers_racing_fire_each_deadline_exactly_once() {
    let app = TestApp::spawn_with(no_workers).await;
    let users = app.users(2).await;
    let mut ids = Vec::new();
    let mut expected = 0;
    for _ in 0..4 {
        let id = app
            .started_game(&users, "hats", json!({"turn_timeout": "PT1H"}))
            .await;
        expected += app.game(&id, None).await["to_act"]
            .as_array()
            .unwrap()
            .len() as i64;
        app.expire(&id).await;
        ids.push(id);
    }
    let a = hatstand::db::pool(&app.db.url, 2).unwrap();
    let b = hatstand::db::pool(&app.db.url, 2).unwrap();
    let (fa, fb, fa2, fb2) = tokio::join!(
        hatstand::deadlines::tick(&a),
        hatstand::deadlines::tick(&b),
        hatstand::deadlines::tick(&a),
        hatstand::deadlines::tick(&b),
    );
    let fired = fa.unwrap() + fb.unwrap() + fa2.unwrap() + fb2.unwrap();
    // Whatever a worker skipped (locked by the other) is no longer due.
    let again = hatstand::deadlines::tick(&a).await.unwrap();
    assert_eq!(fired + again, 4);
    assert_eq!(
        app.count("events WHERE type = 'turn_timed_out'").await,
        expected
    );
    for id in &ids {
        assert!(timeouts(&app, id).await >= 1);
    }
}

#[actix_web::test]
async fn forfeit_on_timeout_ends_a_two_player_game() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app
        .started_game(
            &users,
            "hats",
            json!({"turn_timeout": "PT1S", "on_timeout": "forfeit"}),
        )
        .await;
    let seat = app.game(&id, None).await["to_act"][0].as_u64().unwrap();
    let game = app
        .eventually(5, || async {
            let game = app.game(&id, None).await;
            (game["status"] == "finished").then_some(game)
        })
        .await;
    assert_eq!(game["result"]["outcome"], "forfeit");
    assert_eq!(game["result"]["forfeited"], json!([seat]));
    assert_eq!(game["result"]["winners"], json!([1 - seat]));
    let events = app
        .get(&format!("/v1/games/{id}/events"), None)
        .await
        .ok(200);
    let types: Vec<Value> = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .take(3)
        .map(|e| json!([e["type"], e["data"]]))
        .collect();
    assert_eq!(types[2], json!(["turn_timed_out", {"seat": seat}]));
    assert_eq!(
        types[1],
        json!(["player_resigned", {"seat": seat, "reason": "timeout"}])
    );
    assert_eq!(types[0][0], "game_forfeited");
    verify_audit(&app, &id).await;
}

#[actix_web::test]
async fn timeouts_forced_before_the_deadline_are_refused_by_verify_and_inactivity_is_recorded() {
    let app = TestApp::spawn_with(no_workers).await;
    let users = app.users(2).await;
    let pool = hatstand::db::pool(&app.db.url, 2).unwrap();
    // Never abandoned: the server autoplays every turn to the end.
    let id = app
        .started_game(
            &users,
            "hats",
            json!({"turn_timeout": "PT1H", "abandon_after": 0}),
        )
        .await;
    for _ in 0..5000 {
        if app.game(&id, None).await["status"] != "active" {
            break;
        }
        app.expire(&id).await;
        assert_eq!(hatstand::deadlines::tick(&pool).await.unwrap(), 1);
    }
    let game = app.game(&id, None).await;
    assert_eq!(game["status"], "finished");
    assert_ne!(game["result"]["outcome"], "forfeit");
    // Each deadline was forced into the past (a clock gone wrong, or a
    // forged record): the audit refuses the first early timeout, which
    // could not have happened an hour after the step before it.
    let audit = app
        .get(&format!("/v1/games/{id}/audit"), None)
        .await
        .ok(200);
    let doc: hatstand::record::verify::AuditDocument = serde_json::from_value(audit).unwrap();
    let why = hatstand::record::verify::verify(&doc)
        .unwrap_err()
        .to_string();
    assert!(why.contains("could not have happened"), "{why}");
    // After abandon_after timeouts in a row, the seat is out: here that ends the game.
    let id = app
        .started_game(
            &users,
            "hats",
            json!({"turn_timeout": "PT1S", "abandon_after": 1}),
        )
        .await;
    let seat = app.game(&id, None).await["to_act"][0].as_u64().unwrap();
    actix_web::rt::time::sleep(std::time::Duration::from_millis(1100)).await;
    assert_eq!(hatstand::deadlines::tick(&pool).await.unwrap(), 1);
    let game = app.game(&id, None).await;
    assert_eq!(game["status"], "finished");
    assert_eq!(game["result"]["forfeited"], json!([seat]));
    assert_eq!(
        app.count(&format!(
            "events WHERE game_id = '{id}' AND type = 'player_resigned' AND data->>'reason' = 'inactive'"
        ))
        .await,
        1
    );
    verify_audit(&app, &id).await;
}

#[actix_web::test]
async fn a_seat_to_act_may_take_vacation_within_its_allowance() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app
        .started_game(
            &users,
            "hats",
            json!({"turn_timeout": "PT1H", "max_vacation": "PT2H"}),
        )
        .await;
    let game = app.game(&id, None).await;
    let seat = game["to_act"][0].as_u64().unwrap() as usize;
    let deadline: chrono::DateTime<chrono::Utc> =
        game["deadline"].as_str().unwrap().parse().unwrap();
    let path = format!("/v1/games/{id}/vacation");
    app.post(
        &path,
        Some(&users[1 - seat].token),
        &json!({"duration": "PT1H"}),
    )
    .await
    .assert_problem(409, "not_your_turn");
    app.post(
        &path,
        Some(&users[seat].token),
        &json!({"duration": "soon"}),
    )
    .await
    .assert_problem(400, "bad_request");
    let after = app
        .post(
            &path,
            Some(&users[seat].token),
            &json!({"duration": "PT30M"}),
        )
        .await
        .ok(200);
    let pushed: chrono::DateTime<chrono::Utc> =
        after["deadline"].as_str().unwrap().parse().unwrap();
    assert_eq!(pushed - deadline, chrono::TimeDelta::minutes(30));
    assert_eq!(after["to_act"], json!([seat]));
    let events = app
        .get(&format!("/v1/games/{id}/events"), None)
        .await
        .ok(200);
    let last = events["events"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["type"], "seat_vacation");
    assert_eq!(last["data"]["seat"], seat);
    assert_eq!(last["data"]["duration_secs"], 1800);
    app.post(
        &path,
        Some(&users[seat].token),
        &json!({"duration": "PT2H"}),
    )
    .await
    .assert_problem(422, "vacation_exceeded");
    // Without a clock there is nothing to pause.
    let plain = app.started_game(&users, "hats", json!({})).await;
    let seat = app.game(&plain, None).await["to_act"][0].as_u64().unwrap() as usize;
    app.post(
        &format!("/v1/games/{plain}/vacation"),
        Some(&users[seat].token),
        &json!({"duration": "PT1H"}),
    )
    .await
    .assert_problem(409, "no_deadline");
}

#[actix_web::test]
async fn bad_clock_options_are_invalid_options() {
    let app = TestApp::spawn().await;
    let users = app.users(1).await;
    for options in [
        json!({"turn_timeout": "tomorrow"}),
        json!({"turn_timeout": "PT0S"}),
        json!({"on_timeout": "explode"}),
        json!({"max_vacation": "P1Y"}),
        json!({"abandon_after": "three"}),
    ] {
        app.post(
            "/v1/games",
            Some(&users[0].token),
            &json!({"ruleset": "hats", "players": 2, "options": options}),
        )
        .await
        .assert_problem(422, "invalid_options");
    }
}

#[actix_web::test]
async fn vacation_over_the_yearly_allowance_is_refused_across_games_and_nothing_is_written() {
    let app = TestApp::spawn_with(|s| s.limits.vacation_days_per_year = 1).await;
    let users = app.users(2).await;
    let options = json!({"turn_timeout": "PT1H", "max_vacation": "P7D"});
    let first = app.started_game(&users, "hats", options.clone()).await;
    let seat_of = |game: &Value| game["to_act"][0].as_u64().unwrap() as usize;
    let seat = seat_of(&app.game(&first, None).await);
    let player = &users[seat];
    // A second game in which the same player is to act.
    let mut second = String::new();
    for _ in 0..20 {
        let id = app.started_game(&users, "hats", options.clone()).await;
        if seat_of(&app.game(&id, None).await) == seat {
            second = id;
            break;
        }
    }
    assert!(!second.is_empty(), "no game with the same player to act");
    // Given 20 hours of vacation in one game (the allowance is a day) …
    app.post(
        &format!("/v1/games/{first}/vacation"),
        Some(&player.token),
        &json!({"duration": "PT20H"}),
    )
    .await
    .ok(200);
    let year = app
        .get("/v1/me/vacation", Some(&player.token))
        .await
        .ok(200);
    assert_eq!(
        year,
        json!({"allowance_secs": 86_400, "taken_secs": 72_000, "left_secs": 14_400})
    );
    // … when the same player asks 5 more hours in another game, it is
    // refused, whatever that game's own `max_vacation`, and nothing is written.
    let before = app.footprint().await;
    app.post(
        &format!("/v1/games/{second}/vacation"),
        Some(&player.token),
        &json!({"duration": "PT5H"}),
    )
    .await
    .assert_problem(422, "vacation_allowance_exceeded");
    assert_eq!(app.footprint().await, before);
    // What is left is still granted; the other player has their own.
    app.post(
        &format!("/v1/games/{second}/vacation"),
        Some(&player.token),
        &json!({"duration": "PT4H"}),
    )
    .await
    .ok(200);
    let other = app
        .get("/v1/me/vacation", Some(&users[1 - seat].token))
        .await
        .ok(200);
    assert_eq!(other["taken_secs"], 0);
}
