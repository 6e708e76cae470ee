//! Takebacks (docs/turn-conveniences.md): offered by the player of the last
//! command, accepted by every other player, written as events; the game is
//! again in the state before the command, and the audit verifies.

use serde_json::{Value, json};

use crate::audit::verify_cli;
use crate::support::{TestApp, User};

const CASUAL: &str = r#"{"takebacks": true, "rated": false}"#;

fn casual() -> Value {
    serde_json::from_str(CASUAL).unwrap()
}

/// The first legal command of type `move`, else the first.
fn a_move(legal: &[Value]) -> Value {
    legal
        .iter()
        .find(|c| c["type"] == "move")
        .unwrap_or(&legal[0])
        .clone()
}

/// Plays game `id` (each seat its first legal move) until `seat` is to
/// act in the play (stacks on the board, a move among its commands).
pub async fn until_turn_in_play(app: &TestApp, id: &str, users: &[User], seat: usize) {
    for _ in 0..200 {
        let game = app.game(id, None).await;
        let next = game["to_act"][0].as_u64().unwrap() as usize;
        let mine = app.game(id, Some(&users[next])).await;
        let legal = mine["legal_commands"].as_array().unwrap().clone();
        let in_play = legal.iter().any(|c| c["type"] == "move");
        if next == seat && in_play {
            return;
        }
        let version = mine["version"].as_i64().unwrap();
        app.command(id, &users[next], version, &a_move(&legal))
            .await
            .ok(200);
    }
    panic!("no turn of seat {seat} in the play");
}

pub async fn offer(app: &TestApp, id: &str, user: &User, version: i64) -> crate::support::Reply {
    app.post(
        &format!("/v1/games/{id}/takeback"),
        Some(&user.token),
        &json!({"expected_version": version}),
    )
    .await
}

pub async fn answer(
    app: &TestApp,
    id: &str,
    user: &User,
    version: i64,
    accept: bool,
) -> crate::support::Reply {
    app.post(
        &format!("/v1/games/{id}/takeback/answer"),
        Some(&user.token),
        &json!({"expected_version": version, "accept": accept}),
    )
    .await
}

async fn status(app: &TestApp, id: &str, user: &User) -> Value {
    app.get(&format!("/v1/games/{id}/takeback"), Some(&user.token))
        .await
        .ok(200)
}

fn version(game: &Value) -> i64 {
    game["version"].as_i64().unwrap()
}

/// Seat `seat` plays its first move; returns the game before it (as `seat` saw it).
async fn move_of(app: &TestApp, id: &str, users: &[User], seat: usize) -> Value {
    let before = app.game(id, Some(&users[seat])).await;
    let command = a_move(before["legal_commands"].as_array().unwrap());
    app.command(id, &users[seat], version(&before), &command)
        .await
        .ok(200);
    before
}

#[actix_web::test]
async fn an_accepted_takeback_brings_the_state_back_and_the_audit_verifies() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app.started_game(&users, "top-hats", casual()).await;
    until_turn_in_play(&app, &id, &users, 0).await;
    let before_other = app.game(&id, Some(&users[1])).await;
    let before = move_of(&app, &id, &users, 0).await;
    let moved = version(&app.game(&id, None).await);

    // Seat 1 may not offer seat 0's command back; seat 0 may.
    assert_eq!(status(&app, &id, &users[1]).await["can_offer"], false);
    let mine = status(&app, &id, &users[0]).await;
    assert_eq!(mine["can_offer"], true, "{mine}");
    assert_eq!(mine["offer"], Value::Null);

    let offered = offer(&app, &id, &users[0], moved).await.ok(200);
    assert_eq!(offered["version"], moved + 1);
    assert_eq!(
        offered["offer"],
        json!({"seat": 0, "to_version": version(&before), "accepted": [], "waiting": [1]})
    );
    // Seat 1 is told, and sees the offer.
    let notes = app
        .get("/v1/me/notifications", Some(&users[1].token))
        .await
        .ok(200);
    let told = notes["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["type"] == "takeback_offered")
        .collect::<Vec<_>>();
    assert_eq!(told.len(), 1, "{notes}");
    assert_eq!(told[0]["data"]["seat"], 0);
    assert_eq!(told[0]["data"]["to_version"], version(&before));
    assert_eq!(
        status(&app, &id, &users[1]).await["offer"]["waiting"],
        json!([1])
    );
    // The offerer cannot answer their own offer, nor offer twice.
    answer(&app, &id, &users[0], moved + 1, true)
        .await
        .assert_problem(409, "takeback_no_offer");
    offer(&app, &id, &users[0], moved + 1)
        .await
        .assert_problem(409, "takeback_not_allowed");

    let taken = answer(&app, &id, &users[1], moved + 1, true).await.ok(200);
    assert_eq!(taken["taken_back_to"], version(&before));
    assert_eq!(taken["offer"], Value::Null);
    assert_eq!(taken["version"], moved + 3, "accepted, then taken back");

    // The state is the one before the command, for either seat.
    let after = app.game(&id, Some(&users[0])).await;
    assert_eq!(after["view"], before["view"]);
    assert_eq!(after["to_act"], before["to_act"]);
    assert_eq!(after["legal_commands"], before["legal_commands"]);
    assert_eq!(
        app.game(&id, Some(&users[1])).await["view"],
        before_other["view"]
    );
    // The log kept everything: offer, acceptance and takeback are events.
    let kinds = app
        .count(&format!(
            "events WHERE game_id = '{id}' AND type IN \
             ('turn_takeback_offered', 'turn_takeback_accepted', 'turn_taken_back')"
        ))
        .await;
    assert_eq!(kinds, 3);

    // The game goes on from there, ends, and its audit verifies, offline too.
    move_of(&app, &id, &users, 0).await;
    app.post(
        &format!("/v1/games/{id}/resign"),
        Some(&users[1].token),
        &json!({}),
    )
    .await
    .ok(200);
    let audit = crate::play::verified_audit(&app, &id).await;
    let (ok, text) = verify_cli(&audit);
    assert!(ok, "{text}");

    // A forged audit: the acceptance removed (and the chain made again).
    let mut forged = audit.clone();
    let events = forged["events"].as_array_mut().unwrap();
    let at = events
        .iter()
        .position(|e| e["type"] == "turn_takeback_accepted")
        .unwrap();
    events.remove(at);
    for (i, e) in events.iter_mut().enumerate() {
        e["seq"] = json!(i + 1);
    }
    crate::audit::rechain(&mut forged);
    let (ok, text) = verify_cli(&forged);
    assert!(!ok, "a takeback nobody accepted verifies");
    assert!(text.contains("not accepted by every other seat"), "{text}");
}

#[actix_web::test]
async fn refused_takebacks_write_nothing() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;

    // Never in a rated game: a public game of players is rated unless told.
    let games = app.count("games").await;
    app.post(
        "/v1/games",
        Some(&users[0].token),
        &json!({"ruleset": "top-hats", "players": 2, "options": {"takebacks": true}}),
    )
    .await
    .assert_problem(422, "takebacks_in_rated_game");
    app.post(
        "/v1/games",
        Some(&users[0].token),
        &json!({"ruleset": "top-hats", "players": 2, "options": {"takebacks": true, "rated": true}}),
    )
    .await
    .assert_problem(422, "takebacks_in_rated_game");
    assert_eq!(app.count("games").await, games);

    // Off by default.
    let off = app.started_game(&users, "top-hats", json!({})).await;
    until_turn_in_play(&app, &off, &users, 0).await;
    move_of(&app, &off, &users, 0).await;
    let at = version(&app.game(&off, None).await);
    let footprint = app.footprint().await;
    offer(&app, &off, &users[0], at)
        .await
        .assert_problem(422, "takeback_disabled");
    assert_eq!(status(&app, &off, &users[0]).await["enabled"], false);

    // On: not the other seat's command, not at another version, no answer
    // without an offer, not by a stranger.
    let id = app.started_game(&users, "top-hats", casual()).await;
    until_turn_in_play(&app, &id, &users, 0).await;
    move_of(&app, &id, &users, 0).await;
    let at = version(&app.game(&id, None).await);
    let stranger = app.register("stranger").await;
    let footprint_on = app.footprint().await;
    offer(&app, &id, &users[1], at)
        .await
        .assert_problem(409, "takeback_not_allowed");
    offer(&app, &id, &users[0], at - 1)
        .await
        .assert_problem(409, "version_conflict");
    answer(&app, &id, &users[1], at, true)
        .await
        .assert_problem(409, "takeback_no_offer");
    offer(&app, &id, &stranger, at)
        .await
        .assert_problem(403, "not_a_player");
    app.post(
        &format!("/v1/games/{id}/takeback"),
        Some(&users[0].token),
        &json!({"expected_version": at, "extra": 1}),
    )
    .await
    .assert_problem(400, "bad_request");
    assert_eq!(app.footprint().await, footprint_on);
    assert!(footprint_on[3] > footprint[3]);

    // Declined: the offer ends for good, the move stands.
    offer(&app, &id, &users[0], at).await.ok(200);
    let declined = answer(&app, &id, &users[1], at + 1, false).await.ok(200);
    assert_eq!(declined["offer"], Value::Null);
    assert_eq!(declined["taken_back_to"], Value::Null);
    assert_eq!(status(&app, &id, &users[0]).await["can_offer"], false);
    offer(&app, &id, &users[0], at + 2)
        .await
        .assert_problem(409, "takeback_not_allowed");
    // A new command also ends the chance: seat 1 moves, and seat 0's
    // command is no longer the last.
    move_of(&app, &id, &users, 1).await;
    let now = version(&app.game(&id, None).await);
    offer(&app, &id, &users[0], now)
        .await
        .assert_problem(409, "takeback_not_allowed");
}

#[actix_web::test]
async fn a_card_shown_cannot_be_taken_back() {
    let app = TestApp::spawn().await;
    let users = app.users(3).await;
    let id = app.started_game(&users, "hat-trick", casual()).await;
    let game = app.game(&id, None).await;
    let seat = game["to_act"][0].as_u64().unwrap() as usize;
    let mine = app.game(&id, Some(&users[seat])).await;
    let command = mine["legal_commands"][0].clone();
    app.command(&id, &users[seat], version(&mine), &command)
        .await
        .ok(200);
    let at = version(&app.game(&id, None).await);
    let footprint = app.footprint().await;
    assert_eq!(status(&app, &id, &users[seat]).await["can_offer"], false);
    offer(&app, &id, &users[seat], at)
        .await
        .assert_problem(409, "takeback_not_allowed");
    assert_eq!(app.footprint().await, footprint);
}

#[actix_web::test]
async fn two_acceptances_at_once_take_the_command_back_once() {
    let app = TestApp::spawn().await;
    let users = app.users(3).await;
    let id = app.started_game(&users, "top-hats", casual()).await;
    until_turn_in_play(&app, &id, &users, 0).await;
    let before = move_of(&app, &id, &users, 0).await;
    let at = version(&app.game(&id, None).await);
    offer(&app, &id, &users[0], at).await.ok(200);
    assert_eq!(
        status(&app, &id, &users[2]).await["offer"]["waiting"],
        json!([1, 2])
    );
    // Seats 1 and 2 accept at once: one is written, the other lost the race.
    let (x, y) = tokio::join!(
        answer(&app, &id, &users[1], at + 1, true),
        answer(&app, &id, &users[2], at + 1, true)
    );
    let (won, lost, loser) = if x.status == 200 {
        (x, y, 2)
    } else {
        (y, x, 1)
    };
    lost.assert_problem(409, "version_conflict");
    let won = won.ok(200);
    assert_eq!(won["taken_back_to"], Value::Null);
    assert_eq!(won["offer"]["waiting"], json!([loser]));
    // The loser answers again: the last acceptance takes it back, once.
    let taken = answer(&app, &id, &users[loser], at + 2, true).await.ok(200);
    assert_eq!(taken["taken_back_to"], version(&before));
    let (x, y) = tokio::join!(
        answer(&app, &id, &users[1], at + 4, true),
        answer(&app, &id, &users[2], at + 4, true)
    );
    x.assert_problem(409, "takeback_no_offer");
    y.assert_problem(409, "takeback_no_offer");
    let back = app
        .count(&format!(
            "events WHERE game_id = '{id}' AND type = 'turn_taken_back'"
        ))
        .await;
    assert_eq!(back, 1);
    assert_eq!(app.game(&id, Some(&users[0])).await["view"], before["view"]);
}

#[actix_web::test]
async fn against_bots_an_offer_is_accepted_at_once() {
    // No bot worker: the bot's seat answers only as the offer's step says.
    let app = TestApp::spawn_with(|s| s.background.bot_tick_ms = 0).await;
    let users = app.users(1).await;
    let game = app
        .created_game(
            &users[0],
            &json!({"ruleset": "top-hats", "players": 2, "bots": ["random"], "options": casual()}),
        )
        .await;
    let id = game["id"].as_str().unwrap().to_owned();
    let mine = app.game(&id, Some(&users[0])).await;
    assert!(
        mine["to_act"].as_array().unwrap().contains(&json!(0)),
        "{mine}"
    );
    let command = mine["legal_commands"][0].clone();
    let played = app
        .command(&id, &users[0], version(&mine), &command)
        .await
        .ok(200);
    let at = version(&played);
    let taken = offer(&app, &id, &users[0], at).await.ok(200);
    assert_eq!(taken["taken_back_to"], version(&mine));
    assert_eq!(
        taken["version"],
        at + 3,
        "offered, the bot's acceptance, taken back"
    );
    let after = app.game(&id, Some(&users[0])).await;
    assert_eq!(after["view"], mine["view"]);
    assert_eq!(after["legal_commands"], mine["legal_commands"]);
}

/// The caller's finished games as the export gives them (JSON Lines).
async fn exported(app: &TestApp, user: &User) -> Vec<Value> {
    let mut reply = app
        .request("GET", "/v1/me/games/export", Some(&user.token), &[])
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status().as_u16(), 200);
    let body = reply.body().limit(16 << 20).await.unwrap();
    String::from_utf8(body.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[actix_web::test]
async fn a_game_mixing_forced_moves_conditional_lines_and_a_takeback_replays_and_verifies_offline()
{
    use rand::{Rng, SeedableRng};
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app.started_game(&users, "top-hats", casual()).await;
    until_turn_in_play(&app, &id, &users, 1).await;

    // Seat 1 moves (a move ends its turn), and asks to take it back once it
    // has seen seat 0's options: seat 0 agrees.
    let before = app.game(&id, Some(&users[1])).await;
    let x = a_move(before["legal_commands"].as_array().unwrap());
    assert_eq!(x["type"], "move", "{x}");
    let moved = app
        .command(&id, &users[1], version(&before), &x)
        .await
        .ok(200);
    let seen = app.game(&id, Some(&users[0])).await;
    assert_eq!(seen["to_act"], json!([0]), "seat 0 has a decision to make");
    let y = a_move(seen["legal_commands"].as_array().unwrap());
    offer(&app, &id, &users[1], version(&moved)).await.ok(200);
    let taken = answer(&app, &id, &users[0], version(&moved) + 1, true)
        .await
        .ok(200);
    assert_eq!(taken["taken_back_to"], version(&before));

    // Seat 0 answers that move before it comes: a conditional line.
    let at = version(&taken);
    app.send(
        "PUT",
        &format!("/v1/games/{id}/conditional"),
        Some(&users[0].token),
        &[],
        &json!({"expected_version": at,
                "lines": [[{"seat": 1, "command": x}, {"seat": 0, "command": y}]]}),
    )
    .await
    .ok(200);
    // Seat 1 plays the same move again: the line fires in that step.
    let again = app.command(&id, &users[1], at, &x).await.ok(200);
    let fired = app
        .count(&format!(
            "events WHERE game_id = '{id}' AND seq > {at} AND seq <= {} AND actor_seat = 0 \
             AND actor_user = '{}' AND command IS NOT NULL",
            version(&again),
            users[0].id
        ))
        .await;
    assert_eq!(fired, 1, "seat 0's line fired in seat 1's step: {again}");

    // From here on both players have the server play their forced moves
    // (before, one could have followed seat 1's move in its step).
    for user in &users {
        crate::turns::set_forced(&app, user, true).await;
    }

    // The rest of the game at random, both players sparing their forced
    // moves; seat 1 resigns if it drags on.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(45);
    for _ in 0..400 {
        let game = app.game(&id, None).await;
        if game["status"] != "active" {
            break;
        }
        let seat = game["to_act"][0].as_u64().unwrap() as usize;
        let mine = app.game(&id, Some(&users[seat])).await;
        let legal = mine["legal_commands"].as_array().unwrap();
        assert!(legal.len() > 1, "the game never waits on a forced move");
        let command = &legal[rng.random_range(0..legal.len())];
        app.command(&id, &users[seat], version(&mine), command)
            .await
            .ok(200);
    }
    if app.game(&id, None).await["status"] == "active" {
        app.post(
            &format!("/v1/games/{id}/resign"),
            Some(&users[1].token),
            &json!({}),
        )
        .await
        .ok(200);
    }

    // Exported, then verified offline by `hatstand verify`.
    let lines = exported(&app, &users[0]).await;
    assert_eq!(lines.len(), 1);
    let audit = &lines[0];
    let kinds: Vec<&str> = audit["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    for kind in ["turn_forced", "turn_takeback_offered", "turn_taken_back"] {
        assert!(kinds.contains(&kind), "no {kind} in the game");
    }
    let (ok, text) = verify_cli(audit);
    assert!(ok, "{text}");
    assert!(text.contains("verified"), "{text}");
}
