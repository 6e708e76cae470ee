//! Bots: built-in bot seats (at creation and added later), the bot worker
//! (also two processes at once), timeouts played at a bot level, profiles,
//! players' bot accounts, and the errors that change nothing.

use serde_json::{Value, json};

use crate::invitations::verify_audit;
use crate::support::{TestApp, User, settings, start_server};

/// Plays `user`'s turns with its first legal command until the game ends;
/// the server's bots play the other seats. Returns the finished game.
pub async fn play_until_over(app: &TestApp, id: &str, user: &User) -> Value {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        let game = app.game(id, Some(user)).await;
        if game["status"] != "active" {
            return game;
        }
        assert!(std::time::Instant::now() < until, "the game does not end");
        match game["legal_commands"].as_array().and_then(|l| l.first()) {
            Some(command) => {
                let version = game["version"].as_i64().unwrap();
                let reply = app.command(id, user, version, command).await;
                // A bot may have moved in between (a simultaneous step).
                assert!(
                    reply.status.is_success() || reply.code() == "version_conflict",
                    "{}",
                    reply.body
                );
            }
            None => actix_web::rt::time::sleep(std::time::Duration::from_millis(20)).await,
        }
    }
}

/// The user ids that sent commands in game `id` (none: the server's autoplay).
async fn command_actors(app: &TestApp, id: &str) -> i64 {
    app.count(&format!(
        "(SELECT DISTINCT actor_user FROM events WHERE game_id = '{id}' AND command IS NOT NULL AND actor_user IS NOT NULL) a"
    ))
    .await
}

#[actix_web::test]
async fn given_a_game_created_with_bots_when_the_player_moves_then_the_bots_answer_until_the_end() {
    let app = TestApp::spawn().await;
    let me = app.register("alice").await;
    for (ruleset, players, bots, options) in [
        ("hats", 2, json!(["random"]), json!({})),
        (
            "goathead",
            3,
            json!(["greedy", "ismcts"]),
            json!({"rounds": 1}),
        ),
        ("top-hats", 2, json!(["ismcts"]), json!({})),
        (
            "hat-trick",
            3,
            json!(["greedy", "random"]),
            json!({"rounds": 1}),
        ),
    ] {
        let game = app
            .created_game(
                &me,
                &json!({"ruleset": ruleset, "players": players, "bots": bots, "options": options}),
            )
            .await;
        assert_eq!(
            game["status"], "active",
            "{ruleset}: the table is full at once"
        );
        let seats = game["seats"].as_array().unwrap();
        assert_eq!(seats[0]["bot"], false);
        assert_eq!(seats[1]["bot"], true);
        assert!(seats[1]["username"].as_str().unwrap().starts_with("bot."));
        let id = game["id"].as_str().unwrap();
        let over = play_until_over(&app, id, &me).await;
        assert_eq!(over["status"], "finished", "{ruleset}");
        // The bots moved as themselves (actors), through the command path:
        // the audit replays every move.
        assert_eq!(command_actors(&app, id).await, players, "{ruleset}");
        verify_audit(&app, id).await;
    }
}

#[actix_web::test]
async fn given_an_open_game_when_bots_are_added_then_the_table_fills_and_starts() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let game = app
        .created_game(
            &users[0],
            &json!({"ruleset": "goathead", "players": 3, "options": {"rounds": 1}}),
        )
        .await;
    let id = game["id"].as_str().unwrap();
    let path = format!("/v1/games/{id}/bots");
    // Someone with no seat (and not the creator) may not.
    app.post(&path, Some(&users[1].token), &json!({"level": "greedy"}))
        .await
        .assert_problem(403, "not_a_player");
    let one = app
        .post(
            &path,
            Some(&users[0].token),
            &json!({"level": "greedy", "seat": 2}),
        )
        .await
        .ok(200);
    assert_eq!(one["status"], "open");
    assert_eq!(one["seats"][1]["username"], "bot.greedy");
    assert_eq!(one["seats"][1]["seat"], 2);
    // Two bots of one level take two accounts of that level.
    let two = app
        .post(&path, Some(&users[0].token), &json!({"level": "greedy"}))
        .await
        .ok(200);
    assert_eq!(two["status"], "active");
    let names: Vec<&str> = two["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["username"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["player0", "bot.greedy.2", "bot.greedy"]);
    // The bots may be moving already: the seats are what must not change.
    let seats = app.count("seats").await;
    app.post(&path, Some(&users[0].token), &json!({"level": "random"}))
        .await
        .assert_problem(409, "game_full");
    assert_eq!(app.count("seats").await, seats);
    let over = play_until_over(&app, id, &users[0]).await;
    assert_eq!(over["status"], "finished");
    verify_audit(&app, id).await;
}

#[actix_web::test]
async fn bad_bot_requests_are_refused_with_stable_codes_and_change_nothing() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let token = Some(users[0].token.as_str());
    let before = app.footprint().await;
    for (body, status, code) in [
        (
            json!({"ruleset": "hats", "players": 2, "bots": ["genius"]}),
            422,
            "unknown_bot_level",
        ),
        (
            json!({"ruleset": "hats", "players": 2, "options": {"autoplay_level": "genius"}}),
            422,
            "unknown_bot_level",
        ),
        (
            json!({"ruleset": "hats", "players": 2, "options": {"autoplay_level": 3}}),
            422,
            "unknown_bot_level",
        ),
        (
            json!({"ruleset": "hats", "players": 2, "bots": ["random"], "options": {"humans_only": true}}),
            409,
            "humans_only",
        ),
        (
            json!({"ruleset": "hats", "players": 2, "bots": ["random", "greedy"]}),
            409,
            "game_full",
        ),
        (
            json!({"ruleset": "hats", "players": 2, "bots": ["random", "random", "random", "random", "random", "random"]}),
            400,
            "bad_request",
        ),
        (
            json!({"ruleset": "hats", "players": 2, "bots": "random"}),
            400,
            "bad_request",
        ),
    ] {
        app.post("/v1/games", token, &body)
            .await
            .assert_problem(status, code);
    }
    assert_eq!(app.footprint().await, before);

    let open = app
        .created_game(
            &users[0],
            &json!({"ruleset": "hats", "players": 2, "options": {"humans_only": true}}),
        )
        .await;
    assert_eq!(open["options"]["humans_only"], true);
    let path = format!("/v1/games/{}/bots", open["id"].as_str().unwrap());
    let before = app.footprint().await;
    for (body, status, code) in [
        (json!({"level": "genius"}), 422, "unknown_bot_level"),
        (json!({"level": "random"}), 409, "humans_only"),
        (json!({"level": "random", "extra": 1}), 400, "bad_request"),
        (json!({}), 400, "bad_request"),
    ] {
        app.post(&path, token, &body)
            .await
            .assert_problem(status, code);
    }
    app.post(
        "/v1/games/00000000-0000-4000-8000-000000000000/bots",
        token,
        &json!({"level": "random"}),
    )
    .await
    .assert_problem(404, "not_found");
    assert_eq!(app.footprint().await, before);
}

#[actix_web::test]
async fn bots_have_public_profiles_and_players_can_turn_a_fresh_account_into_a_bot() {
    let app = TestApp::spawn().await;
    let ismcts = app.get("/v1/users/bot.ismcts", None).await.ok(200);
    assert_eq!(ismcts["kind"], "bot");
    assert_eq!(ismcts["bot_level"], "ismcts");
    assert_eq!(ismcts["id"], "00000000-0000-4000-8000-00000000b301");
    let users = app.users(2).await;
    let human = app.get("/v1/users/PLAYER0", None).await.ok(200);
    assert_eq!(human["kind"], "human");
    assert_eq!(human["bot_level"], Value::Null);
    app.get("/v1/users/nobody-here", None)
        .await
        .assert_problem(404, "not_found");

    // A fresh account becomes a bot account, once and for good.
    let mine = app.register("my-bot").await;
    let bot = app
        .post("/v1/me/bot", Some(&mine.token), &Value::Null)
        .await
        .ok(200);
    assert_eq!(bot["kind"], "bot");
    assert_eq!(bot["bot_level"], Value::Null);
    app.post("/v1/me/bot", Some(&mine.token), &Value::Null)
        .await
        .assert_problem(409, "bot_account_refused");
    // An account that has played may not.
    app.started_game(&users, "hats", json!({})).await;
    app.post("/v1/me/bot", Some(&users[1].token), &Value::Null)
        .await
        .assert_problem(409, "bot_account_refused");
    assert_eq!(
        app.get("/v1/users/player1", None).await.ok(200)["kind"],
        "human"
    );

    // Labelled at the table, refused by games for humans only.
    let humans = app
        .created_game(
            &users[0],
            &json!({"ruleset": "hats", "players": 2, "options": {"humans_only": true}}),
        )
        .await;
    let before = app.footprint().await;
    app.post(
        &format!("/v1/games/{}/join", humans["id"].as_str().unwrap()),
        Some(&mine.token),
        &json!({}),
    )
    .await
    .assert_problem(409, "humans_only");
    assert_eq!(app.footprint().await, before);
    let open = app
        .created_game(&users[0], &json!({"ruleset": "hats", "players": 2}))
        .await;
    let joined = app.joined(open["id"].as_str().unwrap(), &mine).await;
    assert_eq!(joined["seats"][1]["username"], "my-bot");
    assert_eq!(joined["seats"][1]["bot"], true);
    assert_eq!(joined["seats"][0]["bot"], false);
}

#[actix_web::test]
async fn given_autoplay_level_greedy_when_a_turn_times_out_then_the_greedy_bot_plays_it_and_the_audit_verifies()
 {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app
        .started_game(
            &users,
            "hats",
            json!({"turn_timeout": "PT1S", "autoplay_level": "greedy", "abandon_after": 0}),
        )
        .await;
    assert_eq!(
        app.game(&id, None).await["options"]["autoplay_level"],
        "greedy"
    );
    // Every turn times out (a second after the step before: the worker
    // fires each, and verify checks each was due): the whole game is
    // played by the server's autoplay at the greedy level, each timeout a
    // recorded command.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(240);
    loop {
        let game = app.game(&id, None).await;
        if game["status"] != "active" {
            break;
        }
        assert!(std::time::Instant::now() < until, "the game does not end");
        actix_web::rt::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    let autoplayed = app
        .count(&format!(
            "events WHERE game_id = '{id}' AND command IS NOT NULL AND actor_user IS NULL"
        ))
        .await;
    assert!(autoplayed > 10, "{autoplayed} autoplayed commands");
    let verified = verify_audit(&app, &id).await;
    assert!(verified.commands > 10);

    // The same record with the level changed no longer verifies: the
    // audit recomputes each timed-out turn at the recorded level.
    let audit = app
        .get(&format!("/v1/games/{id}/audit"), None)
        .await
        .ok(200);
    let text = audit.to_string().replace(
        "\"autoplay_level\":\"greedy\"",
        "\"autoplay_level\":\"random\"",
    );
    let doc: hatstand::record::verify::AuditDocument = serde_json::from_str(&text).unwrap();
    assert!(hatstand::record::verify::verify(&doc).is_err());
}

#[actix_web::test]
async fn given_two_server_processes_when_bots_play_each_other_then_every_turn_is_played_once() {
    let app = TestApp::spawn().await;
    let second = start_server(&app.db.url, &settings(&app.db.url)).await;
    let me = app.register("host").await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        let game = app
            .created_game(
                &me,
                &json!({"ruleset": "hats", "players": 2, "join": false, "bots": ["random", "greedy"]}),
            )
            .await;
        assert_eq!(game["status"], "active");
        ids.push(game["id"].as_str().unwrap().to_owned());
    }
    assert!(second.starts_with("http://"));
    for id in &ids {
        app.eventually(60, || async {
            (app.game(id, None).await["status"] == "finished").then_some(())
        })
        .await;
        // One command per version: the chain has no fork and replays.
        let verified = verify_audit(&app, id).await;
        let commands = app
            .count(&format!(
                "events WHERE game_id = '{id}' AND command IS NOT NULL"
            ))
            .await;
        assert_eq!(usize::try_from(commands).unwrap(), verified.commands);
        assert_eq!(command_actors(&app, id).await, 2);
    }
}

/// A child process killed when the test ends, however it ends.
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[actix_web::test]
async fn the_readme_s_external_bot_accepts_an_invitation_and_plays_a_whole_game() {
    let app = TestApp::spawn().await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/bot.py");
    let _bot = Child(
        std::process::Command::new("python3")
            .args([script, &app.base, "outside-bot", "a long password"])
            .spawn()
            .expect("python3 runs the example bot"),
    );
    app.eventually(30, || async {
        let profile = app.get("/v1/users/outside-bot", None).await;
        (profile.status == 200 && profile.body["kind"] == "bot").then_some(())
    })
    .await;
    let me = app.register("challenger").await;
    let game = app
        .created_game(
            &me,
            // Watched by anyone with its address, so the test reads it signed out.
            &json!({"ruleset": "hats", "players": 2, "invitees": ["outside-bot"], "options": {"spectators": "link"}}),
        )
        .await;
    let id = game["id"].as_str().unwrap();
    // The invitation reaches the bot through its stream; it joins.
    app.eventually(30, || async {
        (app.game(id, None).await["status"] == "active").then_some(())
    })
    .await;
    let over = play_until_over(&app, id, &me).await;
    assert_eq!(over["status"], "finished");
    assert_eq!(over["seats"][1]["username"], "outside-bot");
    assert_eq!(over["seats"][1]["bot"], true);
    assert_eq!(command_actors(&app, id).await, 2);
    verify_audit(&app, id).await;
}

#[test]
fn the_bots_page_shows_the_example_bot_as_it_is_and_it_is_under_100_lines() {
    let readme = include_str!("../../docs/bots.md");
    let bot = include_str!("../../examples/bot.py");
    assert!(
        readme.contains(bot),
        "docs/bots.md must show examples/bot.py verbatim"
    );
    assert!(bot.lines().count() < 100);
}
