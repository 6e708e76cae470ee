//! Tournaments that run themselves (docs/tournaments.md): the round worker
//! starts the field, pairs each round, creates its tables as ordinary
//! games, scores a round when its last game ends and finishes the
//! tournament; exactly once across processes. A duplicate round's tables
//! hold the same deals and stay hidden from each other until it is scored.

use std::collections::BTreeSet;

use chrono::{TimeDelta, Utc};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use crate::support::{TestApp, User};

/// A tournament of `ruleset` at tables of `size`, open for registration now,
/// with `rounds` rounds a day apart (the test moves them into the past).
pub fn tournament(ruleset: &str, format: &str, size: u8, rounds: usize, duplicate: bool) -> Value {
    let at = |hours: i64| (Utc::now() + TimeDelta::hours(hours)).to_rfc3339();
    let schedule: Vec<Value> = (0..rounds as i64)
        .map(|r| json!({"starts_at": at(2 + 48 * r), "deadline": at(2 + 48 * r + 24)}))
        .collect();
    json!({
        "name": "Test cup",
        "ruleset": ruleset,
        "options": {},
        "table_size": size,
        "format": format,
        "schedule": schedule,
        "registration_opens": at(-1),
        "registration_closes": at(1),
        "player_cap": 64,
        "duplicate": duplicate
    })
}

/// Creates the tournament `body` organised by `organiser` and registers `players`.
pub async fn with_field(app: &TestApp, organiser: &User, body: &Value, players: &[User]) -> String {
    let reply = app
        .post("/v1/tournaments", Some(&organiser.token), body)
        .await;
    let id = reply.ok(201)["id"].as_str().unwrap().to_owned();
    for p in players {
        app.send_raw(
            "POST",
            &format!("/v1/tournaments/{id}/registration"),
            Some(&p.token),
            &[],
            Vec::new(),
        )
        .await
        .ok(200);
    }
    id
}

/// Tournament `body`, organised by a new user, with `n` new players
/// registered: the players and the tournament's id.
pub async fn field_of(app: &TestApp, body: &Value, n: usize) -> (Vec<User>, String) {
    let organiser = app.register("director").await;
    let users = app.users(n).await;
    let id = with_field(app, &organiser, body, &users).await;
    (users, id)
}

/// A Swiss tournament of Hats for two players and one round, registered,
/// played and scored to its end; its id.
pub async fn one_round_played(app: &TestApp) -> String {
    let (users, id) = field_of(app, &tournament("hats", "swiss", 2, 1, false), 2).await;
    start_round(app, &id, 0).await;
    assert_eq!(tick(app).await, 1);
    play_round(app, &id, 0, &users, 3).await;
    assert_eq!(tick(app).await, 1);
    id
}

/// Moves round `round` of tournament `id` (and registration, for round 0)
/// into the past, as if its start had come.
pub async fn start_round(app: &TestApp, id: &str, round: usize) {
    if round == 0 {
        app.sql(&format!(
            "UPDATE tournaments SET registration_closes = now() - interval '2 seconds' WHERE id = '{id}'"
        ))
        .await;
    }
    app.sql(&format!(
        "UPDATE tournament_rounds SET starts_at = now() - interval '1 second' \
         WHERE tournament_id = '{id}' AND round = {round}"
    ))
    .await;
}

/// One tick of a round worker of its own.
pub async fn tick(app: &TestApp) -> usize {
    let pool = hatstand::db::pool(&app.db.url, 2).unwrap();
    hatstand::tournaments::rounds::tick(&pool).await.unwrap()
}

/// The rounds as `viewer` sees them.
pub async fn rounds(app: &TestApp, id: &str, viewer: Option<&User>) -> Vec<Value> {
    app.get(
        &format!("/v1/tournaments/{id}/rounds"),
        viewer.map(|u| u.token.as_str()),
    )
    .await
    .ok(200)["rounds"]
        .as_array()
        .unwrap()
        .clone()
}

/// Plays game `game` to the end, each seat by its own player (`seats`, in
/// seat order) sending one of its legal commands at random.
pub async fn play_table(app: &TestApp, game: &str, seats: &[&User], seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut view = app.game(game, Some(seats[0])).await;
    let mut sent = 0;
    while view["status"] == "active" {
        let to_act = view["to_act"].as_array().unwrap();
        let seat = to_act[rng.random_range(0..to_act.len())].as_u64().unwrap() as usize;
        let mine = app.game(game, Some(seats[seat])).await;
        let legal = mine["legal_commands"].as_array().unwrap();
        let command = &legal[rng.random_range(0..legal.len())];
        let reply = app
            .command(
                game,
                seats[seat],
                mine["version"].as_i64().unwrap(),
                command,
            )
            .await;
        view = reply.ok(200)["game"].clone();
        sent += 1;
        assert!(sent < 5000, "no end in sight");
    }
    assert_eq!(view["status"], "finished", "{view}");
}

/// The user of `user_id` among `users`.
pub fn by_id<'a>(users: &'a [User], user_id: &Value) -> &'a User {
    users
        .iter()
        .find(|u| u.id.to_string() == user_id.as_str().unwrap())
        .unwrap()
}

/// Plays every table of `round` (as its players see it) to the end.
pub async fn play_round(app: &TestApp, id: &str, round: usize, users: &[User], seed: u64) {
    play_tables(app, id, round, users, seed, 0..usize::MAX).await;
}

/// Plays the tables `which` of `round` to the end.
pub async fn play_tables(
    app: &TestApp,
    id: &str,
    round: usize,
    users: &[User],
    seed: u64,
    which: std::ops::Range<usize>,
) {
    let first = &rounds(app, id, None).await[round];
    for (n, table) in first["tables"].as_array().unwrap().iter().enumerate() {
        if !which.contains(&n) {
            continue;
        }
        let seats: Vec<&User> = table["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| by_id(users, &p["user_id"]))
            .collect();
        let mine = &rounds(app, id, Some(seats[0])).await[round]["tables"][n];
        let game = mine["game_id"].as_str().unwrap().to_owned();
        play_table(app, &game, &seats, seed + n as u64).await;
    }
}

/// Each table's explicit deals in the database, by game.
pub async fn deals_of(app: &TestApp, games: &[String]) -> Vec<Value> {
    use diesel::prelude::*;
    use diesel_async::RunQueryDsl;
    use hatstand::db::schema::games;
    let mut conn = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    let mut out = Vec::new();
    for g in games {
        let options: Value = games::table
            .find(g.parse::<uuid::Uuid>().unwrap())
            .select(games::options)
            .first(&mut conn)
            .await
            .unwrap();
        out.push(options["deals"].clone());
    }
    out
}

#[actix_web::test]
async fn given_eight_players_in_a_duplicate_swiss_of_three_rounds_when_every_table_is_played_then_it_finishes_with_matchpoints()
 {
    let app = TestApp::spawn().await;
    let (users, id) = field_of(&app, &tournament("hats", "swiss", 2, 3, true), 8).await;
    assert_eq!(tick(&app).await, 0, "nothing is due before the start");

    let mut deals_by_round = Vec::new();
    for round in 0..3 {
        start_round(&app, &id, round).await;
        assert_eq!(tick(&app).await, 1);
        let seen = rounds(&app, &id, None).await;
        assert_eq!(seen[round]["status"], "playing");
        let tables = seen[round]["tables"].as_array().unwrap().clone();
        assert_eq!(tables.len(), 4);
        assert!(
            tables.iter().all(|t| t["game_id"].is_null()),
            "signed out, no table's game is shown"
        );
        // Each player sees their own table's game, and only that one.
        let mut games = Vec::new();
        for (n, table) in tables.iter().enumerate() {
            let player = by_id(&users, &table["players"][0]["user_id"]);
            let theirs = rounds(&app, &id, Some(player)).await;
            let mine = theirs[round]["tables"][n]["game_id"]
                .as_str()
                .unwrap()
                .to_owned();
            let shown = theirs[round]["tables"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|t| !t["game_id"].is_null())
                .count();
            assert_eq!(shown, 1);
            games.push(mine);
        }
        // Another table's game does not exist for this player, nor signed out.
        let outsider = by_id(&users, &tables[1]["players"][0]["user_id"]);
        app.get(&format!("/v1/games/{}", games[0]), Some(&outsider.token))
            .await
            .assert_problem(404, "not_found");
        app.get(&format!("/v1/games/{}", games[0]), None)
            .await
            .assert_problem(404, "not_found");
        // Every table holds the same deals, which no view shows.
        let deals = deals_of(&app, &games).await;
        assert!(deals[0].is_array());
        assert!(
            deals.iter().all(|d| *d == deals[0]),
            "a duplicate round deals the same cards everywhere"
        );
        let own = by_id(&users, &tables[0]["players"][0]["user_id"]);
        let view = app.game(&games[0], Some(own)).await;
        assert!(!view["options"]["deals"].is_array(), "{}", view["options"]);
        let feed = app
            .get(&format!("/v1/games/{}/events", games[0]), Some(&own.token))
            .await
            .ok(200);
        assert!(
            !feed.to_string().contains(&deals[0].to_string()),
            "the deals in the events feed"
        );
        deals_by_round.push(deals[0].clone());
        app.get(&format!("/v1/tournaments/{id}/audit"), None)
            .await
            .assert_problem(409, "tournament_not_over");

        // Three tables over and one still playing: nothing is scored, and
        // the finished tables stay hidden from the others.
        play_tables(&app, &id, round, &users, 100 * round as u64, 0..3).await;
        assert_eq!(
            tick(&app).await,
            0,
            "a round is scored only when its last game ends"
        );
        app.get(&format!("/v1/games/{}", games[0]), Some(&outsider.token))
            .await
            .assert_problem(404, "not_found");
        assert!(rounds(&app, &id, None).await[round]["tables"][0]["points"].is_null());
        play_tables(&app, &id, round, &users, 100 * round as u64, 3..4).await;
        // The round is scored when its last game ends (after the last
        // round, the tournament finishes in the same step).
        assert_eq!(
            tick(&app).await,
            1,
            "the round is scored when its last game ends"
        );
        let after = rounds(&app, &id, None).await;
        assert_eq!(after[round]["status"], "scored");
        assert!(
            after[round]["tables"]
                .as_array()
                .unwrap()
                .iter()
                .all(|t| t["game_id"].is_string() && t["points"].is_array())
        );
        // Now anyone may read every table.
        app.get(&format!("/v1/games/{}", games[0]), Some(&outsider.token))
            .await
            .ok(200);
    }
    let distinct: BTreeSet<String> = deals_by_round.iter().map(Value::to_string).collect();
    assert_eq!(distinct.len(), 3, "each round has deals of its own");

    let standings = app
        .get(&format!("/v1/tournaments/{id}/standings"), None)
        .await
        .ok(200);
    assert_eq!(standings["final_standings"], true);
    let lines = standings["standings"].as_array().unwrap();
    assert_eq!(lines.len(), 8);
    let ranks: Vec<u64> = lines.iter().map(|l| l["rank"].as_u64().unwrap()).collect();
    assert_eq!(ranks, (1..=8).collect::<Vec<_>>());
    // Matchpoints share each seat's top among the tables: half a round per
    // player and round in all.
    let total: f64 = lines.iter().map(|l| l["points"].as_f64().unwrap()).sum();
    assert!((total - 12.0).abs() < 0.01, "total points {total}");
    let shown = app
        .get(&format!("/v1/tournaments/{id}"), None)
        .await
        .ok(200);
    assert_eq!(shown["status"], "finished");
    let seed = shown["seed"].as_str().unwrap();
    assert_eq!(
        hatstand::tournaments::duplicate::commitment(seed),
        shown["seed_commitment"]
    );
    // The record: every step once, in order, and its chain holds.
    let mut conn = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    let events = hatstand::db::tournaments::record(&mut conn, id.parse().unwrap())
        .await
        .unwrap();
    hatstand::record::verify::check_chain(&events).unwrap();
    let count = |kind: &str| events.iter().filter(|e| e.kind == kind).count();
    assert_eq!(
        (
            count("started"),
            count("round_paired"),
            count("table_created"),
            count("table_finished"),
            count("round_scored"),
            count("tournament_finished")
        ),
        (1, 3, 12, 12, 3, 1)
    );
    assert_eq!(tick(&app).await, 0, "a finished tournament has nothing due");
    // Verified offline, and every forgery refused.
    crate::tournament_audit::verified_offline(&app, &id, 8, 3, 12).await;
}

#[actix_web::test]
async fn given_four_players_in_a_duplicate_hat_trick_swiss_of_two_rounds_when_played_then_each_round_deals_alike_and_is_scored()
 {
    let app = TestApp::spawn().await;
    let organiser = app.register("director").await;
    let users = app.users(4).await;
    // Duplicate Hat Trick is accepted at creation.
    let id = with_field(
        &app,
        &organiser,
        &tournament("hat-trick", "swiss", 2, 2, true),
        &users,
    )
    .await;
    let mut deals_by_round = Vec::new();
    for round in 0..2 {
        start_round(&app, &id, round).await;
        assert_eq!(tick(&app).await, 1);
        let tables = rounds(&app, &id, None).await[round]["tables"]
            .as_array()
            .unwrap()
            .clone();
        assert_eq!(tables.len(), 2);
        let mut games = Vec::new();
        for (n, table) in tables.iter().enumerate() {
            let player = by_id(&users, &table["players"][0]["user_id"]);
            let theirs = rounds(&app, &id, Some(player)).await;
            games.push(
                theirs[round]["tables"][n]["game_id"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
            );
        }
        // Both tables hold the same deals: one per deal of the match (by
        // default one per player, so two at tables of two).
        let deals = deals_of(&app, &games).await;
        assert_eq!(deals[0].as_array().map(Vec::len), Some(2), "{}", deals[0]);
        assert_eq!(deals[0], deals[1], "a duplicate round deals the same cards");
        deals_by_round.push(deals[0].clone());
        play_round(&app, &id, round, &users, 470 + 10 * round as u64).await;
        assert_eq!(tick(&app).await, 1, "the round is scored");
        let after = rounds(&app, &id, None).await;
        assert_eq!(after[round]["status"], "scored");
        // Each deal and seat: the better table takes 1, a tie halves; every
        // seat's share is in [0, 1] and the two tables' shares sum to 1.
        let points: Vec<Vec<f64>> = after[round]["tables"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                t["points"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p.as_f64().unwrap())
                    .collect()
            })
            .collect();
        for seat in 0..2 {
            let sum = points[0][seat] + points[1][seat];
            assert!((sum - 1.0).abs() < 0.01, "seat {seat}: {points:?}");
        }
    }
    assert_ne!(deals_by_round[0], deals_by_round[1]);
    // The revealed seed draws exactly the deals the tables were given.
    let shown = app
        .get(&format!("/v1/tournaments/{id}"), None)
        .await
        .ok(200);
    assert_eq!(shown["status"], "finished");
    let seed = shown["seed"].as_str().unwrap();
    for (round, dealt) in deals_by_round.iter().enumerate() {
        let drawn = hatstand::tournaments::duplicate::deals(
            hatstand_engine::GameKind::HatTrick,
            &json!({}),
            2,
            &hatstand::tournaments::duplicate::round_seed(seed, round as u32),
        )
        .unwrap();
        assert_eq!(&drawn, dealt);
    }
}

#[actix_web::test]
async fn given_two_workers_racing_when_a_round_is_due_then_its_tables_are_created_once_and_a_restarted_server_goes_on()
 {
    let app = TestApp::spawn().await;
    let (users, id) = field_of(&app, &tournament("hats", "round_robin", 2, 3, false), 4).await;
    start_round(&app, &id, 0).await;
    let a = hatstand::db::pool(&app.db.url, 2).unwrap();
    let b = hatstand::db::pool(&app.db.url, 2).unwrap();
    let tick = hatstand::tournaments::rounds::tick;
    let (x, y, z) = tokio::join!(tick(&a), tick(&b), tick(&a));
    assert_eq!(
        x.unwrap() + y.unwrap() + z.unwrap(),
        1,
        "one worker starts and pairs it"
    );
    assert_eq!(app.count("tournament_tables").await, 2);
    assert_eq!(app.count("games").await, 2);
    play_round(&app, &id, 0, &users, 7).await;
    start_round(&app, &id, 1).await;
    // A server whose worker runs (as after a restart) scores round 0 and pairs round 1.
    let mut settings = crate::support::settings(&app.db.url);
    settings.background.tournament_tick_ms = 50;
    let _server = crate::support::start_server(&app.db.url, &settings).await;
    app.eventually(20, || async {
        (rounds(&app, &id, None).await[1]["status"] == "playing").then_some(())
    })
    .await;
    assert_eq!(app.count("tournament_tables").await, 4);
    assert_eq!(rounds(&app, &id, None).await[0]["status"], "scored");
}

#[actix_web::test]
async fn given_too_few_players_when_the_start_comes_then_the_tournament_is_cancelled_and_its_seed_shown()
 {
    let app = TestApp::spawn().await;
    let (_, id) = field_of(&app, &tournament("goathead", "swiss", 3, 2, true), 2).await;
    start_round(&app, &id, 0).await;
    assert_eq!(tick(&app).await, 1);
    let shown = app
        .get(&format!("/v1/tournaments/{id}"), None)
        .await
        .ok(200);
    assert_eq!(shown["status"], "cancelled");
    assert_eq!(
        hatstand::tournaments::duplicate::commitment(shown["seed"].as_str().unwrap()),
        shown["seed_commitment"]
    );
    assert_eq!(app.count("games").await, 0);
    assert_eq!(tick(&app).await, 0);
    let doc = crate::tournament_audit::audit(&app, &id).await;
    let (ok, said) = crate::tournament_audit::verify_offline(&doc).await;
    assert!(
        ok && said.contains("cancelled with too few players"),
        "{said}"
    );
}

#[actix_web::test]
async fn given_an_unknown_or_malformed_tournament_when_reading_rounds_or_standings_then_refused_with_nothing_written()
 {
    let app = TestApp::spawn().await;
    let before = app.footprint().await;
    for what in ["rounds", "standings", "audit"] {
        let unknown = uuid::Uuid::new_v4();
        app.get(&format!("/v1/tournaments/{unknown}/{what}"), None)
            .await
            .assert_problem(404, "not_found");
        app.get(&format!("/v1/tournaments/not-an-id/{what}"), None)
            .await
            .assert_problem(400, "bad_request");
    }
    assert_eq!(app.footprint().await, before);
}
