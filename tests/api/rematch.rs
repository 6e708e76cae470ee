//! Rematch (docs/ratings.md): offered on a finished game, accepted by all,
//! it starts the same table with every player one seat further round; the
//! two games link to each other; bot seats accept at once; refusals write
//! nothing; two players accepting at once start exactly one game.

use serde_json::{Value, json};

use crate::play::play;
use crate::support::{TestApp, User};

fn path(id: &str, what: &str) -> String {
    format!("/v1/games/{id}/rematch{what}")
}

async fn rematch(app: &TestApp, id: &str, user: &User, what: &str) -> crate::support::Reply {
    app.post(&path(id, what), Some(&user.token), &json!({}))
        .await
}

/// The row counts that a refused rematch request must leave as they are.
async fn footprint(app: &TestApp) -> Vec<i64> {
    let mut out = app.footprint().await;
    out.push(app.count("rematches").await);
    out.push(
        app.count("rematches WHERE state <> 'offered' OR new_game_id IS NOT NULL")
            .await,
    );
    out.push(app.count("notifications").await);
    out
}

#[actix_web::test]
async fn an_accepted_rematch_starts_the_same_table_one_seat_round_and_links_the_two_games() {
    let app = TestApp::spawn().await;
    let played = play(&app, "hats", 2, json!({"turn_timeout": "PT1H"}), 3).await;
    let (ada, bruno) = (&played.users[0], &played.users[1]);
    let id = played.id.as_str();
    let before = app.get(&format!("/v1/games/{id}"), Some(&ada.token)).await;
    let tag_before = before.header("etag");
    assert!(before.body.get("rematch").is_none(), "{}", before.body);

    let offer = rematch(&app, id, ada, "").await.ok(200);
    assert_eq!(offer["state"], "offered");
    assert_eq!(offer["game_id"], id);
    assert_eq!(offer["new_game_id"], Value::Null);
    assert_eq!(
        offer["seats"][0]["answer"], "accepted",
        "offering is accepting"
    );
    assert_eq!(offer["seats"][1]["answer"], "waiting");
    assert_eq!(offer["seats"][0]["new_seat"], 1);
    assert_eq!(offer["seats"][1]["new_seat"], 0);

    // The offer shows on the finished game, to the others too, and its tag
    // changes though the game's version does not.
    let seen = app
        .get(&format!("/v1/games/{id}"), Some(&bruno.token))
        .await;
    assert_eq!(seen.body["rematch"]["state"], "offered", "{}", seen.body);
    let after = app.get(&format!("/v1/games/{id}"), Some(&ada.token)).await;
    assert_eq!(after.body["version"], before.body["version"]);
    assert_ne!(after.header("etag"), tag_before);

    // Offered once only.
    let kept = footprint(&app).await;
    rematch(&app, id, bruno, "")
        .await
        .assert_problem(409, "rematch_already_offered");
    assert_eq!(footprint(&app).await, kept);

    let accepted = rematch(&app, id, bruno, "/accept").await.ok(200);
    assert_eq!(accepted["state"], "accepted");
    let new_id = accepted["new_game_id"].as_str().unwrap().to_owned();

    let new = app.game(&new_id, Some(ada)).await;
    assert_eq!(new["status"], "active");
    assert_eq!(new["ruleset"], "hats");
    assert_eq!(new["rules"], played.game["rules"]);
    assert_eq!(new["rematch_of"], id);
    assert_eq!(new["options"]["turn_timeout"], "PT1H", "the same options");
    assert!(new["deadline"].is_string(), "the clock runs from the start");
    assert_ne!(
        new["seed_commitment"], played.game["seed_commitment"],
        "a new deal"
    );
    assert_eq!(
        new["seats"][1]["user_id"],
        ada.id.to_string(),
        "ada one seat round"
    );
    assert_eq!(new["seats"][0]["user_id"], bruno.id.to_string());
    assert_eq!(new["my_seat"], 1);
    // Both are told their turn as in any game that starts.
    assert!(
        app.count(&format!(
            "notifications WHERE game_id = '{new_id}' AND kind = 'your_turn'"
        ))
        .await
            >= 1
    );
    let old = app.game(id, None).await;
    assert_eq!(old["rematch"]["new_game_id"], new_id.as_str());
    assert_eq!(old["rematch"]["state"], "accepted");

    // The same answer again: the offer as it stands, nothing written; another is closed.
    let kept = footprint(&app).await;
    let again = rematch(&app, id, bruno, "/accept").await.ok(200);
    assert_eq!(again["new_game_id"], new_id.as_str());
    rematch(&app, id, bruno, "/decline")
        .await
        .assert_problem(409, "rematch_closed");
    assert_eq!(footprint(&app).await, kept);
    assert_eq!(app.count("games").await, 2);
}

#[actix_web::test]
async fn refused_rematch_requests_write_nothing() {
    let app = TestApp::spawn().await;
    let played = play(&app, "top-hats", 2, json!({}), 5).await;
    let (ada, bruno) = (&played.users[0], &played.users[1]);
    let id = played.id.as_str();
    let stranger = app.register("stranger").await;
    let active = app
        .started_game(&[ada.clone(), stranger.clone()], "hats", json!({}))
        .await;
    let kept = footprint(&app).await;
    rematch(&app, &active, ada, "")
        .await
        .assert_problem(409, "game_not_finished");
    rematch(&app, id, &stranger, "")
        .await
        .assert_problem(403, "not_a_player");
    rematch(&app, id, &stranger, "/accept")
        .await
        .assert_problem(403, "not_a_player");
    rematch(&app, id, bruno, "/accept")
        .await
        .assert_problem(409, "rematch_not_offered");
    rematch(&app, id, bruno, "/decline")
        .await
        .assert_problem(409, "rematch_not_offered");
    rematch(&app, "00000000-0000-0000-0000-000000000000", ada, "")
        .await
        .assert_problem(404, "not_found");
    app.post(&path("not-a-uuid", ""), Some(&ada.token), &json!({}))
        .await
        .assert_problem(400, "bad_request");
    app.post(&path(id, ""), Some(&ada.token), &json!({"seat": 1}))
        .await
        .assert_problem(400, "bad_request");
    app.post(&path(id, ""), None, &json!({}))
        .await
        .assert_problem(401, "unauthenticated");
    assert_eq!(footprint(&app).await, kept);

    // Declined (here by the one who offered: a withdrawal), the offer is closed.
    rematch(&app, id, ada, "").await.ok(200);
    let declined = rematch(&app, id, ada, "/decline").await.ok(200);
    assert_eq!(declined["state"], "declined");
    assert_eq!(declined["seats"][0]["answer"], "declined");
    let kept = footprint(&app).await;
    rematch(&app, id, bruno, "/accept")
        .await
        .assert_problem(409, "rematch_closed");
    rematch(&app, id, bruno, "/decline")
        .await
        .assert_problem(409, "rematch_closed");
    rematch(&app, id, ada, "")
        .await
        .assert_problem(409, "rematch_already_offered");
    assert_eq!(
        rematch(&app, id, ada, "/decline").await.ok(200)["state"],
        "declined"
    );
    assert_eq!(footprint(&app).await, kept);
}

#[actix_web::test]
async fn a_bot_seat_accepts_at_once_so_a_table_against_a_bot_starts_on_the_offer() {
    let app = TestApp::spawn().await;
    let me = app.register("alone").await;
    let game = app
        .created_game(
            &me,
            &json!({"ruleset": "hats", "players": 2, "bots": ["random"]}),
        )
        .await;
    let id = game["id"].as_str().unwrap();
    let over = crate::bots::play_until_over(&app, id, &me).await;
    assert_eq!(over["status"], "finished");
    let offer = rematch(&app, id, &me, "").await.ok(200);
    assert_eq!(offer["state"], "accepted", "{offer}");
    assert_eq!(offer["seats"][1]["bot"], true);
    assert_eq!(offer["seats"][1]["answer"], "accepted");
    let new_id = offer["new_game_id"].as_str().unwrap();
    let new = app.game(new_id, Some(&me)).await;
    assert_eq!(new["status"], "active");
    assert_eq!(new["my_seat"], 1);
    assert_eq!(new["seats"][0]["bot"], true);
    assert_eq!(new["rematch_of"], id);
}

#[actix_web::test]
async fn two_players_accepting_at_once_start_exactly_one_game() {
    let app = TestApp::spawn().await;
    for round in 0..3u64 {
        let played = play(&app, "hats", 3, json!({}), 20 + round).await;
        let id = played.id.as_str();
        let users = &played.users;
        rematch(&app, id, &users[0], "").await.ok(200);
        let (a, b, c) = tokio::join!(
            rematch(&app, id, &users[1], "/accept"),
            rematch(&app, id, &users[2], "/accept"),
            // The same player twice at once.
            rematch(&app, id, &users[2], "/accept"),
        );
        let answers = [a.ok(200), b.ok(200), c.ok(200)];
        let started: Vec<&str> = answers
            .iter()
            .filter_map(|a| a["new_game_id"].as_str())
            .collect();
        assert!(!started.is_empty(), "the last acceptance starts it");
        assert!(started.iter().all(|g| *g == started[0]), "{answers:?}");
        assert_eq!(
            app.count(&format!(
                "rematches WHERE game_id = '{id}' AND new_game_id IS NOT NULL"
            ))
            .await,
            1
        );
        assert_eq!(
            app.count(&format!(
                "seats s JOIN games g ON g.id = s.game_id WHERE g.created_at > (SELECT offered_at FROM rematches WHERE game_id = '{id}')"
            ))
            .await,
            3,
            "one new game of three seats, round {round}"
        );
    }
}
