//! Clocks (docs/clocks.md): options refused at creation, time zones in the
//! profile, a bank charged and topped up by each move, the deadline worker
//! asking the clock, two workers firing a bank's timeout once, and `verify`
//! recomputing banks and timeouts from the recorded times.

use serde_json::{Value, json};

use crate::invitations::verify_audit;
use crate::support::{TestApp, User};

fn no_workers(s: &mut hatstand::config::Settings) {
    s.background.deadline_tick_ms = 0;
}

/// Recomputes the hash chain, as a forger who rewrites events would.
fn rechain(doc: &mut Value) {
    let events: Vec<hatstand::record::verify::AuditEvent> =
        serde_json::from_value(doc["events"].clone()).unwrap();
    let mut prev = hatstand::record::chain::GENESIS_HASH.to_owned();
    let mut out = Vec::new();
    for event in &events {
        let mut logged = hatstand::record::chain::LoggedEvent::from(event);
        logged.prev_hash = prev.clone();
        logged.hash = logged.expected_hash();
        prev = logged.hash.clone();
        out.push(hatstand::record::verify::AuditEvent::from(&logged));
    }
    doc["events"] = serde_json::to_value(out).unwrap();
}

fn verdict(doc: &Value) -> Result<(), String> {
    let doc: hatstand::record::verify::AuditDocument = serde_json::from_value(doc.clone()).unwrap();
    hatstand::record::verify::verify(&doc)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

async fn audit(app: &TestApp, id: &str) -> Value {
    app.get(&format!("/v1/games/{id}/audit"), None)
        .await
        .ok(200)
}

async fn set_zone(app: &TestApp, user: &User, zone: &str) -> crate::support::Reply {
    app.send(
        "PATCH",
        "/v1/me/settings",
        Some(&user.token),
        &[],
        &json!({"time_zone": zone}),
    )
    .await
}

async fn events_of(app: &TestApp, id: &str) -> Vec<Value> {
    app.get(&format!("/v1/games/{id}/events"), None)
        .await
        .ok(200)["events"]
        .as_array()
        .unwrap()
        .clone()
}

fn bank(initial: &str, increment: &str, max: &str) -> Value {
    json!({"kind": "bank", "initial": initial, "increment": increment, "max": max})
}

#[actix_web::test]
async fn bad_clock_options_and_zones_are_refused_with_stable_codes_and_nothing_is_written() {
    let app = TestApp::spawn().await;
    let users = app.users(1).await;
    let before = app.footprint().await;
    for (options, code) in [
        (
            json!({"clock": bank("3 days", "PT1H", "P7D")}),
            "invalid_duration",
        ),
        (
            json!({"clock": bank("P8D", "PT1H", "P7D")}),
            "invalid_duration",
        ),
        (
            json!({"clock": bank("PT0S", "PT1H", "P7D")}),
            "invalid_duration",
        ),
        (
            json!({"clock": bank("P1D", "P2D", "P1D")}),
            "invalid_duration",
        ),
        (
            json!({"clock": bank("P01D", "PT1H", "P7D")}),
            "invalid_duration",
        ),
        (
            json!({"clock": {"kind": "daily", "at": "20:00", "time_zone": "UTC", "min": "P8D"}}),
            "invalid_duration",
        ),
        (
            json!({"clock": {"kind": "daily", "at": "20:00", "time_zone": "Mars/Olympus"}}),
            "unknown_time_zone",
        ),
        (
            json!({"clock": bank("P1D", "PT1H", "P7D"), "weekend_pause": true, "time_zone": "Europe/Pariss"}),
            "unknown_time_zone",
        ),
        (
            json!({"clock": {"kind": "daily", "at": "8pm", "time_zone": "UTC"}}),
            "invalid_options",
        ),
        (json!({"clock": {"kind": "hourglass"}}), "invalid_options"),
        (
            json!({"clock": bank("P1D", "PT1H", "P7D"), "turn_timeout": "PT1H"}),
            "invalid_options",
        ),
        (json!({"weekend_pause": true}), "invalid_options"),
        (
            json!({"turn_timeout": "PT1H", "time_zone": "Europe/Paris"}),
            "invalid_options",
        ),
    ] {
        app.post(
            "/v1/games",
            Some(&users[0].token),
            &json!({"ruleset": "hats", "players": 2, "options": options}),
        )
        .await
        .assert_problem(422, code);
    }
    set_zone(&app, &users[0], "Mars/Olympus")
        .await
        .assert_problem(422, "unknown_time_zone");
    assert_eq!(app.footprint().await, before);
    assert_eq!(app.count("user_settings").await, 0);
    let settings = set_zone(&app, &users[0], "Europe/Paris").await.ok(200);
    assert_eq!(settings["time_zone"], "Europe/Paris");
}

#[actix_web::test]
async fn given_a_bank_game_when_a_seat_moves_then_its_bank_is_charged_and_topped_up_and_verify_recomputes_it()
 {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    set_zone(&app, &users[0], "Europe/Paris").await.ok(200);
    let id = app
        .started_game(
            &users,
            "hats",
            json!({"clock": bank("PT1H", "PT10M", "PT2H")}),
        )
        .await;
    // Given: the clocks started with each seat's zone …
    let events = events_of(&app, &id).await;
    let started = events
        .iter()
        .find(|e| e["type"] == "game_clock_started")
        .expect("game_clock_started");
    assert_eq!(started["data"]["zones"], json!(["Europe/Paris", "UTC"]));
    let game = app.game(&id, None).await;
    assert_eq!(game["options"]["clock"], bank("PT1H", "PT10M", "PT2H"));
    let seat = game["to_act"][0].as_u64().unwrap() as usize;
    let clocks = game["clocks"].as_array().expect("clocks").clone();
    assert_eq!(clocks[seat]["running"], true);
    assert_eq!(clocks[seat]["remaining_ms"], 3_600_000);
    assert_eq!(clocks[1 - seat]["running"], false);
    assert_eq!(clocks[1 - seat]["bank_ms"], 3_600_000);
    assert_eq!(game["deadline"], clocks[seat]["deadline"]);
    // When: the seat to act moves …
    let mover = &users[seat];
    let mine = app.game(&id, Some(mover)).await;
    let version = mine["version"].as_i64().unwrap();
    let answer = app
        .command(&id, mover, version, &mine["legal_commands"][0])
        .await
        .ok(200);
    // Then: its bank is charged for the time it ran and gains the increment.
    let changed: Vec<Value> = answer["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "seat_bank_changed" && e["data"]["seat"] == seat)
        .cloned()
        .collect();
    assert_eq!(changed.len(), 1, "{answer}");
    let bank_ms = changed[0]["data"]["bank_ms"].as_i64().unwrap();
    assert!(
        bank_ms <= 4_200_000 && bank_ms > 4_200_000 - 60_000,
        "{bank_ms}"
    );
    // The game ends (a resignation) and its audit verifies, banks and all.
    app.post(
        &format!("/v1/games/{id}/resign"),
        Some(&users[0].token),
        &json!({}),
    )
    .await
    .ok(200);
    verify_audit(&app, &id).await;
    // A record whose bank was changed (and rechained) does not.
    let mut doc = audit(&app, &id).await;
    let events = doc["events"].as_array_mut().unwrap();
    let at = events
        .iter()
        .position(|e| e["type"] == "seat_bank_changed")
        .unwrap();
    events[at]["data"]["bank_ms"] = json!(bank_ms + 1);
    rechain(&mut doc);
    let why = verdict(&doc).unwrap_err();
    assert!(why.contains("bank"), "{why}");
    // Nor one without it.
    let mut doc = audit(&app, &id).await;
    doc["events"].as_array_mut().unwrap().remove(at);
    let mut seq = 0;
    for e in doc["events"].as_array_mut().unwrap() {
        seq += 1;
        e["seq"] = json!(seq);
    }
    rechain(&mut doc);
    assert!(verdict(&doc).is_err());
}

#[actix_web::test]
async fn given_a_daily_clock_when_the_game_starts_then_the_deadline_is_the_next_20_00_in_its_zone_at_least_the_minimum_later()
 {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app
        .started_game(
            &users,
            "hats",
            json!({"clock": {"kind": "daily", "at": "20:00", "time_zone": "America/New_York", "min": "PT12H"}}),
        )
        .await;
    let game = app.game(&id, None).await;
    let deadline: chrono::DateTime<chrono::Utc> =
        serde_json::from_value(game["deadline"].clone()).unwrap();
    let started: chrono::DateTime<chrono::Utc> =
        serde_json::from_value(game["updated_at"].clone()).unwrap();
    let local = deadline.with_timezone(&chrono_tz::America::New_York);
    assert_eq!(local.format("%H:%M").to_string(), "20:00");
    assert!(deadline - started >= chrono::TimeDelta::hours(12));
    assert!(deadline - started < chrono::TimeDelta::hours(36));
}

#[actix_web::test]
async fn given_bank_games_run_out_when_two_workers_race_then_each_timeout_fires_exactly_once_and_verifies()
 {
    let app = TestApp::spawn_with(no_workers).await;
    let users = app.users(2).await;
    let a = hatstand::db::pool(&app.db.url, 2).unwrap();
    let b = hatstand::db::pool(&app.db.url, 2).unwrap();
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(
            app.started_game(
                &users,
                "hats",
                json!({"clock": bank("PT1S", "PT0S", "PT1S"), "on_timeout": "forfeit"}),
            )
            .await,
        );
    }
    // A deadline forced into the past (as by a clock gone wrong) fires
    // nothing: the worker asks the clock, which puts the deadline back.
    let first = app.game(&ids[0], None).await;
    app.expire(&ids[0]).await;
    hatstand::deadlines::tick(&a).await.unwrap();
    assert_eq!(app.count("events WHERE type = 'turn_timed_out'").await, 0);
    let back = app.game(&ids[0], None).await;
    if back["status"] == "active" {
        assert_eq!(back["deadline"], first["deadline"]);
    }
    // Once every bank has run out, two workers race over them.
    let mut last = chrono::Utc::now();
    for id in &ids {
        let deadline: chrono::DateTime<chrono::Utc> =
            serde_json::from_value(app.game(id, None).await["deadline"].clone()).unwrap();
        last = last.max(deadline);
    }
    let wait = (last - chrono::Utc::now()).to_std().unwrap_or_default();
    actix_web::rt::time::sleep(wait + std::time::Duration::from_millis(50)).await;
    let (fa, fb, fa2, fb2) = tokio::join!(
        hatstand::deadlines::tick(&a),
        hatstand::deadlines::tick(&b),
        hatstand::deadlines::tick(&a),
        hatstand::deadlines::tick(&b),
    );
    let fired = fa.unwrap() + fb.unwrap() + fa2.unwrap() + fb2.unwrap();
    let again = hatstand::deadlines::tick(&a).await.unwrap();
    assert_eq!(fired + again, 3);
    assert_eq!(app.count("events WHERE type = 'turn_timed_out'").await, 3);
    for id in &ids {
        let game = app.game(id, None).await;
        assert_eq!(game["status"], "finished");
        assert_eq!(game["result"]["outcome"], "forfeit");
        verify_audit(&app, id).await;
    }
    // A record whose timeout is moved before the bank ran out (and
    // rechained) is refused: that timeout could not have happened.
    let mut doc = audit(&app, &ids[1]).await;
    let events = doc["events"].as_array_mut().unwrap();
    let started = events
        .iter()
        .find(|e| e["type"] == "game_clock_started")
        .unwrap()["at"]
        .clone();
    let out = events
        .iter()
        .position(|e| e["type"] == "turn_timed_out")
        .unwrap();
    for e in &mut events[out..] {
        e["at"] = started.clone();
    }
    rechain(&mut doc);
    let why = verdict(&doc).unwrap_err();
    assert!(why.contains("could not have happened"), "{why}");
}

#[actix_web::test]
async fn given_top_hats_building_when_the_last_seat_builds_then_the_phase_ends_at_once_and_the_next_turn_starts_its_clock()
 {
    let app = TestApp::spawn_with(no_workers).await;
    let users = app.users(2).await;
    let id = app
        .started_game(
            &users,
            "top-hats",
            json!({"clock": {"kind": "per_turn", "turn": "PT1H"}}),
        )
        .await;
    // Given the building phase, in which both seats act at once …
    let mut together = false;
    for _ in 0..200 {
        let game = app.game(&id, None).await;
        let to_act: Vec<usize> = game["to_act"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap() as usize)
            .collect();
        together |= to_act.len() > 1;
        let seat = to_act[0];
        let mine = app.game(&id, Some(&users[seat])).await;
        let legal = mine["legal_commands"].as_array().unwrap().clone();
        if legal.iter().any(|c| c["type"] == "move") {
            // … then the play began with the step of the last build, its
            // clock started then, without waiting for any deadline.
            assert!(together, "no phase with both seats to act");
            let began: chrono::DateTime<chrono::Utc> =
                serde_json::from_value(game["updated_at"].clone()).unwrap();
            let deadline: chrono::DateTime<chrono::Utc> =
                serde_json::from_value(game["deadline"].clone()).unwrap();
            assert_eq!(deadline - began, chrono::TimeDelta::hours(1), "{game}");
            assert_eq!(game["clocks"][seat]["remaining_ms"], 3_600_000);
            assert_eq!(app.count("events WHERE type = 'turn_timed_out'").await, 0);
            return;
        }
        // … when each seat builds in turn …
        let version = mine["version"].as_i64().unwrap();
        app.command(&id, &users[seat], version, &legal[0])
            .await
            .ok(200);
    }
    panic!("the building phase does not end");
}
