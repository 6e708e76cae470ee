//! Whole games over HTTP, to the end, with their audits verified.

use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use crate::support::{TestApp, User};

/// A finished game.
pub struct Played {
    pub id: String,
    pub users: Vec<User>,
    pub game: Value,
    pub commands: usize,
}

/// Registers `players` users, creates and fills a game, and plays it to the
/// end by sending, for a seat the game waits for, one of its listed
/// commands chosen at random (seeded by `seed`).
pub async fn play(
    app: &TestApp,
    ruleset: &str,
    players: usize,
    options: Value,
    seed: u64,
) -> Played {
    let users: Vec<User> = {
        let mut out = Vec::new();
        for i in 0..players {
            out.push(app.register(&format!("{ruleset}-{seed}-{i}")).await);
        }
        out
    };
    let id = app.started_game(&users, ruleset, options).await;
    play_out(app, id, users, seed).await
}

/// Plays the started game `id` of `users` to the end, as [`play`] does.
pub async fn play_out(app: &TestApp, id: String, users: Vec<User>, seed: u64) -> Played {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = app.game(&id, None).await;
    let mut commands = 0;
    while game["status"] == "active" {
        let to_act = game["to_act"].as_array().unwrap();
        let seat = to_act[rng.random_range(0..to_act.len())].as_u64().unwrap() as usize;
        let mine = app.game(&id, Some(&users[seat])).await;
        let legal = mine["legal_commands"].as_array().unwrap();
        assert!(
            !legal.is_empty(),
            "seat {seat} is to act with nothing to do: {mine}"
        );
        let command = &legal[rng.random_range(0..legal.len())];
        let reply = app
            .command(
                &id,
                &users[seat],
                mine["version"].as_i64().unwrap(),
                command,
            )
            .await;
        game = reply.ok(200)["game"].clone();
        commands += 1;
        assert!(commands < 5000, "no end in sight");
    }
    assert_eq!(game["status"], "finished");
    Played {
        id,
        users,
        game,
        commands,
    }
}

/// The audit of a finished game, verified in process.
pub async fn verified_audit(app: &TestApp, id: &str) -> Value {
    let audit = app
        .get(&format!("/v1/games/{id}/audit"), None)
        .await
        .ok(200);
    let doc: hatstand::record::verify::AuditDocument =
        serde_json::from_value(audit.clone()).unwrap();
    hatstand::record::verify::verify(&doc).unwrap_or_else(|e| panic!("audit of {id} fails: {e}"));
    audit
}

fn check_result(game: &Value, players: usize) {
    let result = &game["result"];
    assert_eq!(
        result["scores"].as_array().unwrap().len(),
        players,
        "{result}"
    );
    assert!(result["winners"].is_array());
    assert!(result["rounds"].is_array());
}

#[actix_web::test]
async fn whole_hats_games_for_2_3_and_4_players_end_and_verify() {
    let app = TestApp::spawn().await;
    for players in 2..=4 {
        let played = play(&app, "hats", players, json!({}), players as u64).await;
        check_result(&played.game, players);
        if players == 4 {
            assert!(played.game["result"]["teams"].is_array());
        }
        let finished = app.game(&played.id, Some(&played.users[0])).await;
        assert_eq!(finished["legal_commands"], json!([]));
        assert!(finished["version"].as_i64().unwrap() > played.commands as i64);
        let audit = verified_audit(&app, &played.id).await;
        assert_eq!(
            audit["events"].as_array().unwrap().len() as i64,
            played.game["version"].as_i64().unwrap()
        );
    }
}

#[actix_web::test]
async fn whole_hat_trick_matches_for_2_to_6_players_end_and_verify() {
    let app = TestApp::spawn().await;
    for players in 2..=6 {
        let options = json!({"rounds": 2});
        let played = play(&app, "hat-trick", players, options, 20 + players as u64).await;
        check_result(&played.game, players);
        assert_eq!(played.game["result"]["rounds"].as_array().unwrap().len(), 2);
        verified_audit(&app, &played.id).await;
    }
}

#[actix_web::test]
async fn hat_trick_variants_play_over_http_and_verify() {
    let app = TestApp::spawn().await;
    let variants = [
        (3, json!({"rounds": 1, "mode": "negative"})),
        (
            4,
            json!({"rounds": 6, "mode": "cycle_with_negative", "no_joker": true}),
        ),
        (
            5,
            json!({"rounds": 1, "joker_by_trick": 3, "play_rule": "colour_first"}),
        ),
    ];
    for (i, (players, options)) in variants.into_iter().enumerate() {
        let played = play(&app, "hat-trick", players, options, 40 + i as u64).await;
        check_result(&played.game, players);
        verified_audit(&app, &played.id).await;
    }
}

#[actix_web::test]
async fn whole_top_hats_games_for_2_and_3_players_end_and_verify() {
    let app = TestApp::spawn().await;
    for players in 2..=3 {
        let played = play(&app, "top-hats", players, json!({}), 60 + players as u64).await;
        check_result(&played.game, players);
        // The board picture: cells, heights, tops, the edge zone, the last move.
        let view = &played.game["view"];
        assert!(view["board"].is_array(), "{view}");
        assert!(view["edge_zone"].is_array(), "{view}");
        verified_audit(&app, &played.id).await;
    }
}

#[actix_web::test]
async fn whole_goathead_matches_for_3_and_4_players_end_and_verify() {
    let app = TestApp::spawn().await;
    for players in 3..=4 {
        let played = play(
            &app,
            "goathead",
            players,
            json!({"rounds": 3}),
            80 + players as u64,
        )
        .await;
        check_result(&played.game, players);
        let result = &played.game["result"];
        assert_eq!(result["rounds"].as_array().unwrap().len(), 3, "{result}");
        let total: i64 = result["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_i64().unwrap())
            .sum();
        assert_eq!(total, 0, "payments sum to zero: {result}");
        verified_audit(&app, &played.id).await;
    }
}
