//! Tournaments (docs/tournaments.md): created by an organiser, listed,
//! read, registered for and withdrawn from; every refusal writes nothing,
//! and every change extends the tournament's hash-chained record.

use chrono::{TimeDelta, Utc};
use serde_json::{Value, json};

use crate::support::{TestApp, User};

/// A sound Swiss of Hats: registration open now for a day, three rounds.
fn swiss(cap: u32) -> Value {
    let at = |hours: i64| (Utc::now() + TimeDelta::hours(hours)).to_rfc3339();
    json!({
        "name": "Winter duplicate",
        "ruleset": "hats",
        "options": {},
        "table_size": 2,
        "format": "swiss",
        "schedule": [
            {"starts_at": at(25), "deadline": at(72)},
            {"starts_at": at(73), "deadline": at(120)},
            {"starts_at": at(121), "deadline": at(168)}
        ],
        "registration_opens": at(-1),
        "registration_closes": at(24),
        "player_cap": cap,
        "duplicate": true
    })
}

async fn created(app: &TestApp, organiser: &User, body: &Value) -> String {
    let reply = app
        .post("/v1/tournaments", Some(&organiser.token), body)
        .await;
    assert_eq!(reply.status.as_u16(), 201, "{}", reply.body);
    reply.body["id"].as_str().unwrap().to_owned()
}

async fn register(app: &TestApp, id: &str, user: &User) -> crate::support::Reply {
    app.send_raw(
        "POST",
        &format!("/v1/tournaments/{id}/registration"),
        Some(&user.token),
        &[],
        Vec::new(),
    )
    .await
}

async fn withdraw(app: &TestApp, id: &str, user: &User) -> crate::support::Reply {
    app.send_raw(
        "DELETE",
        &format!("/v1/tournaments/{id}/registration"),
        Some(&user.token),
        &[],
        Vec::new(),
    )
    .await
}

/// The rows every tournament refusal must leave as they were.
async fn footprint(app: &TestApp) -> Vec<i64> {
    let mut out = Vec::new();
    for table in [
        "tournaments",
        "tournament_rounds",
        "tournament_entries",
        "tournament_events",
    ] {
        out.push(app.count(table).await);
    }
    out
}

/// The tournament's record as stored, checked link by link.
async fn record_checks(app: &TestApp, id: &str) -> Vec<String> {
    let mut conn = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    let events = hatstand::db::tournaments::record(&mut conn, id.parse().unwrap())
        .await
        .unwrap();
    hatstand::record::verify::check_chain(&events).unwrap();
    events.into_iter().map(|e| e.kind).collect()
}

#[actix_web::test]
async fn given_an_organiser_when_a_tournament_is_created_then_it_is_listed_with_its_commitment_and_recorded()
 {
    let app = TestApp::spawn().await;
    let organiser = app.register("organiser").await;
    let id = created(&app, &organiser, &swiss(8)).await;

    let got = app
        .get(&format!("/v1/tournaments/{id}"), None)
        .await
        .ok(200);
    assert_eq!(got["status"], "registering");
    assert_eq!(got["format"], "swiss");
    assert_eq!(got["schedule"].as_array().unwrap().len(), 3);
    assert_eq!(got["seed_commitment"].as_str().unwrap().len(), 64);
    assert!(got["seed"].is_null(), "the seed stays secret: {got}");
    assert_eq!(got["options"], json!({"first_seat": 0}));
    assert_eq!(got["registered"], 0);

    let upcoming = app
        .get("/v1/tournaments?status=upcoming", None)
        .await
        .ok(200);
    assert_eq!(upcoming["tournaments"][0]["id"], id.as_str());
    let running = app
        .get("/v1/tournaments?status=running", None)
        .await
        .ok(200);
    assert_eq!(running["tournaments"], json!([]));

    assert_eq!(record_checks(&app, &id).await, vec!["tournament_created"]);
}

#[actix_web::test]
async fn given_settings_that_cannot_run_when_creating_then_each_is_refused_with_nothing_written() {
    let app = TestApp::spawn().await;
    let organiser = app.register("organiser").await;
    let before = footprint(&app).await;
    let cases: Vec<(Value, u16, &str)> = vec![
        (
            {
                let mut b = swiss(8);
                b["registration_closes"] = json!((Utc::now() - TimeDelta::hours(1)).to_rfc3339());
                b
            },
            422,
            "invalid_tournament",
        ),
        (
            {
                let mut b = swiss(8);
                b["schedule"] = json!([]);
                b
            },
            422,
            "invalid_tournament",
        ),
        (
            {
                let mut b = swiss(16);
                b["format"] = json!("elimination");
                b
            },
            422,
            "invalid_tournament",
        ),
        (
            {
                let mut b = swiss(8);
                b["ruleset"] = json!("top-hats");
                b
            },
            422,
            "invalid_tournament",
        ),
        (
            {
                let mut b = swiss(8);
                b["options"] = json!({"first_seat": 7});
                b
            },
            422,
            "invalid_options",
        ),
        (
            {
                let mut b = swiss(8);
                b["options"] = json!({"deals": []});
                b
            },
            422,
            "invalid_options",
        ),
        (
            {
                let mut b = swiss(8);
                b["ruleset"] = json!("chess");
                b
            },
            404,
            "not_found",
        ),
        (
            {
                let mut b = swiss(8);
                b["colour"] = json!("red");
                b
            },
            400,
            "bad_request",
        ),
    ];
    for (body, status, code) in cases {
        app.post("/v1/tournaments", Some(&organiser.token), &body)
            .await
            .assert_problem(status, code);
    }
    assert_eq!(footprint(&app).await, before);
}

#[actix_web::test]
async fn given_a_tournament_of_two_when_players_register_and_withdraw_then_the_rules_hold_and_refusals_write_nothing()
 {
    let app = TestApp::spawn().await;
    let users = app.users(4).await;
    let (organiser, ada, bruno, cleo) = (&users[0], &users[1], &users[2], &users[3]);
    let id = created(&app, organiser, &swiss(2)).await;

    let after_ada = register(&app, &id, ada).await.ok(200);
    assert_eq!(after_ada["registered"], 1);
    assert_eq!(after_ada["entries"][0]["user_id"], ada.id.to_string());

    let before = footprint(&app).await;
    register(&app, &id, ada)
        .await
        .assert_problem(409, "already_registered");
    withdraw(&app, &id, bruno)
        .await
        .assert_problem(409, "not_registered");
    assert_eq!(footprint(&app).await, before);

    register(&app, &id, bruno).await.ok(200);
    let before = footprint(&app).await;
    register(&app, &id, cleo)
        .await
        .assert_problem(409, "tournament_full");
    assert_eq!(footprint(&app).await, before);

    let after = withdraw(&app, &id, ada).await.ok(200);
    assert_eq!(after["registered"], 1);
    register(&app, &id, cleo).await.ok(200);
    // The list shows the field's size and the schedule, as the tournament does.
    let listed = app
        .get("/v1/tournaments?status=upcoming", None)
        .await
        .ok(200);
    let shown = listed["tournaments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id.as_str())
        .unwrap()
        .clone();
    let one = app
        .get(&format!("/v1/tournaments/{id}"), None)
        .await
        .ok(200);
    assert_eq!(shown["registered"], 2);
    assert_eq!(shown["schedule"], one["schedule"]);
    assert!(!shown["schedule"].as_array().unwrap().is_empty());

    let missing = "00000000-0000-4000-8000-000000000000";
    register(&app, missing, ada)
        .await
        .assert_problem(404, "not_found");

    assert_eq!(
        record_checks(&app, &id).await,
        vec![
            "tournament_created",
            "registered",
            "registered",
            "withdrew",
            "registered"
        ]
    );
    let got = app
        .get(&format!("/v1/tournaments/{id}"), None)
        .await
        .ok(200);
    assert_eq!(got["version"], 5);
}

#[actix_web::test]
async fn given_a_window_not_open_yet_or_a_minimum_rating_when_registering_then_refused_with_nothing_written()
 {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let (organiser, ada) = (&users[0], &users[1]);
    let mut later = swiss(8);
    later["registration_opens"] = json!((Utc::now() + TimeDelta::hours(2)).to_rfc3339());
    let not_yet = created(&app, organiser, &later).await;
    let mut strong = swiss(8);
    strong["min_rating"] = json!(1800.0);
    let strong = created(&app, organiser, &strong).await;
    let mut reliable = swiss(8);
    reliable["min_reliability"] = json!(101);
    app.post("/v1/tournaments", Some(&organiser.token), &reliable)
        .await
        .assert_problem(422, "invalid_tournament");

    let before = footprint(&app).await;
    register(&app, &not_yet, ada)
        .await
        .assert_problem(409, "registration_closed");
    withdraw(&app, &not_yet, ada)
        .await
        .assert_problem(409, "registration_closed");
    // A newcomer's rating is the method's start (1500), below 1800.
    register(&app, &strong, ada)
        .await
        .assert_problem(403, "below_min_rating");
    assert_eq!(footprint(&app).await, before);
}
