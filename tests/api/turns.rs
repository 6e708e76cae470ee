//! Turn conveniences (docs/turn-conveniences.md): the caller's settings and
//! forced moves, played by the server in the step that makes them due.

use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use crate::play::verified_audit;
use crate::support::{TestApp, User};

/// Turns `auto_play_forced` on (or off) for `user`.
pub async fn set_forced(app: &TestApp, user: &User, on: bool) {
    let reply = app
        .send(
            "PATCH",
            "/v1/me/settings",
            Some(&user.token),
            &[],
            &json!({"auto_play_forced": on}),
        )
        .await
        .ok(200);
    assert_eq!(reply, json!({"auto_play_forced": on}));
}

#[actix_web::test]
async fn settings_start_off_change_by_what_is_named_and_refuse_bad_input_writing_nothing() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let me = &users[0];
    let read = app.get("/v1/me/settings", Some(&me.token)).await.ok(200);
    assert_eq!(read, json!({"auto_play_forced": false}));
    app.get("/v1/me/settings", None)
        .await
        .assert_problem(401, "unauthenticated");
    // Bad input: unknown members, wrong types, not JSON. Nothing is written.
    for body in [
        json!({"auto_play": true}),
        json!({"auto_play_forced": "yes"}),
        json!([true]),
    ] {
        app.send("PATCH", "/v1/me/settings", Some(&me.token), &[], &body)
            .await
            .assert_problem(400, "bad_request");
    }
    app.send_raw(
        "PATCH",
        "/v1/me/settings",
        Some(&me.token),
        &[("content-type", "application/json")],
        b"{".to_vec(),
    )
    .await
    .assert_problem(400, "bad_request");
    app.send(
        "PATCH",
        "/v1/me/settings",
        None,
        &[],
        &json!({"auto_play_forced": true}),
    )
    .await
    .assert_problem(401, "unauthenticated");
    assert_eq!(app.count("user_settings").await, 0);
    set_forced(&app, me, true).await;
    // What is absent stays; another user's settings are theirs.
    let kept = app
        .send("PATCH", "/v1/me/settings", Some(&me.token), &[], &json!({}))
        .await
        .ok(200);
    assert_eq!(kept, json!({"auto_play_forced": true}));
    let other = app
        .get("/v1/me/settings", Some(&users[1].token))
        .await
        .ok(200);
    assert_eq!(other, json!({"auto_play_forced": false}));
    set_forced(&app, me, false).await;
    assert_eq!(
        app.get("/v1/me/settings", Some(&me.token)).await.ok(200),
        json!({"auto_play_forced": false})
    );
}

/// How a command is sent while a game is played out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sending {
    /// Once.
    Once,
    /// Twice at once, without an idempotency key: one must win, the other
    /// answer `version_conflict`.
    Twice,
}

/// Plays the started game `id` of `users` to the end with random legal
/// commands (seeded by `seed`). Whenever it is read, the game never waits
/// on a seat whose player (`forced[seat]`) has the server play forced
/// moves while that seat has exactly one legal command.
async fn play_out(
    app: &TestApp,
    id: &str,
    users: &[User],
    forced: &[bool],
    seed: u64,
    sending: Sending,
) -> Value {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = app.game(id, None).await;
    let mut waited_on_forced = vec![0; users.len()];
    let mut steps = 0;
    while game["status"] == "active" {
        let to_act: Vec<usize> = game["to_act"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap() as usize)
            .collect();
        for &seat in &to_act {
            let view = app.game(id, Some(&users[seat])).await;
            let legal = view["legal_commands"].as_array().unwrap().len();
            if legal == 1 {
                assert!(!forced[seat], "seat {seat} waits on a forced move: {view}");
                waited_on_forced[seat] += 1;
            }
        }
        let seat = to_act[rng.random_range(0..to_act.len())];
        let mine = app.game(id, Some(&users[seat])).await;
        let legal = mine["legal_commands"].as_array().unwrap();
        let command = &legal[rng.random_range(0..legal.len())];
        let version = mine["version"].as_i64().unwrap();
        game = match sending {
            Sending::Once => app
                .command(id, &users[seat], version, command)
                .await
                .ok(200)["game"]
                .clone(),
            Sending::Twice => {
                let (a, b) = tokio::join!(
                    app.command(id, &users[seat], version, command),
                    app.command(id, &users[seat], version, command)
                );
                let (won, lost) = if a.status == 200 { (a, b) } else { (b, a) };
                lost.assert_problem(409, "version_conflict");
                won.ok(200)["game"].clone()
            }
        };
        steps += 1;
        assert!(steps < 5000, "no end in sight");
    }
    assert_eq!(game["status"], "finished");
    json!(waited_on_forced)
}

/// The events of a finished game's audit.
async fn audit_events(app: &TestApp, id: &str) -> Vec<Value> {
    verified_audit(app, id).await["events"]
        .as_array()
        .unwrap()
        .clone()
}

/// Checks every `turn_forced` of a log: by a player who has the setting,
/// followed at once by that seat's command with the same actor; returns
/// their count per seat.
fn forced_turns(events: &[Value], users: &[User], forced: &[bool]) -> Vec<usize> {
    let mut per_seat = vec![0; users.len()];
    for (i, event) in events.iter().enumerate() {
        if event["type"] != "turn_forced" {
            continue;
        }
        let seat = event["data"]["seat"].as_u64().unwrap() as usize;
        assert!(forced[seat], "seat {seat} has not asked for forced moves");
        assert_eq!(event["actor"]["seat"], seat);
        assert_eq!(event["actor"]["user_id"], users[seat].id.to_string());
        let next = &events[i + 1];
        assert_eq!(next["actor"], event["actor"], "{next}");
        assert!(next["command"].is_object(), "{next}");
        assert_eq!(next["at"], event["at"], "played in the same step");
        per_seat[seat] += 1;
    }
    per_seat
}

/// Checks that no `your_turn` sent to `user` (at `seat`) was for a version
/// at which the seat's move was forced and played by the server.
async fn no_turn_note_for_forced(app: &TestApp, id: &str, user: &User, events: &[Value]) -> usize {
    let notes = app
        .get("/v1/me/notifications", Some(&user.token))
        .await
        .ok(200);
    let mut turns = 0;
    for note in notes["notifications"].as_array().unwrap() {
        if note["type"] != "your_turn" || note["game_id"] != id {
            continue;
        }
        turns += 1;
        let version = note["data"]["version"].as_i64().unwrap();
        let next = events.iter().find(|e| e["seq"] == version + 1);
        if let Some(next) = next {
            assert_ne!(
                next["type"], "turn_forced",
                "a your_turn for a forced move: {note}"
            );
        }
    }
    turns
}

#[actix_web::test]
async fn forced_moves_are_played_in_the_step_that_makes_them_due_and_verify() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    // Seat 0 asks for forced moves to be played; seat 1 does not.
    set_forced(&app, &users[0], true).await;
    let forced = [true, false];
    let id = app
        .started_game(&users, "hat-trick", json!({"rounds": 2}))
        .await;
    let waited = play_out(&app, &id, &users, &forced, 7, Sending::Once).await;
    let events = audit_events(&app, &id).await;
    let per_seat = forced_turns(&events, &users, &forced);
    // The last trick of each deal is forced for both seats: the server
    // played seat 0's, and the game waited on seat 1's.
    assert!(per_seat[0] >= 2, "{per_seat:?}");
    assert_eq!(per_seat[1], 0);
    assert!(waited[1].as_u64().unwrap() >= 2, "{waited}");
    let turns = no_turn_note_for_forced(&app, &id, &users[0], &events).await;
    assert!(turns > 0, "seat 0 was told of its other turns");
}

#[actix_web::test]
async fn chains_of_forced_moves_resolve_in_one_go_and_a_twin_request_loses() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    for user in &users {
        set_forced(&app, user, true).await;
    }
    let forced = [true, true];
    let id = app
        .started_game(&users, "hat-trick", json!({"rounds": 1}))
        .await;
    // Every command is sent twice at once: exactly one of each pair wins.
    play_out(&app, &id, &users, &forced, 11, Sending::Twice).await;
    let events = audit_events(&app, &id).await;
    let per_seat = forced_turns(&events, &users, &forced);
    assert!(per_seat.iter().all(|&n| n >= 1), "{per_seat:?}");
    // The last trick: both seats forced, one after the other, in the step
    // of the tenth trick's last card, which ends the game.
    let last_forced: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "turn_forced")
        .rev()
        .take(2)
        .collect();
    assert_eq!(last_forced[0]["at"], last_forced[1]["at"]);
    assert_ne!(
        last_forced[0]["data"]["seat"],
        last_forced[1]["data"]["seat"]
    );
    assert_eq!(events.last().unwrap()["at"], last_forced[0]["at"]);
    for user in &users {
        no_turn_note_for_forced(&app, &id, user, &events).await;
    }
    // The stored log has one forced turn per forced command: no twin
    // applied anything.
    let stored = app
        .count(&format!(
            "events WHERE game_id = '{id}' AND type = 'turn_forced'"
        ))
        .await;
    assert_eq!(stored as usize, per_seat.iter().sum::<usize>());
}

/// `doc` with its events renumbered and their hash chain recomputed, as a
/// forger who controls the server would write it.
fn rechained(
    mut doc: hatstand::record::verify::AuditDocument,
) -> hatstand::record::verify::AuditDocument {
    use hatstand::record::chain::{GENESIS_HASH, LoggedEvent};
    use hatstand::record::verify::AuditEvent;
    let mut prev = GENESIS_HASH.to_owned();
    for (i, event) in doc.events.iter_mut().enumerate() {
        let mut logged = LoggedEvent::from(&*event);
        logged.seq = i as i64 + 1;
        logged.prev_hash = prev.clone();
        logged.hash = logged.expected_hash();
        prev = logged.hash.clone();
        *event = AuditEvent::from(&logged);
    }
    doc
}

#[actix_web::test]
async fn verify_refuses_a_forced_turn_that_was_not_forced_or_not_the_players() {
    use hatstand::record::verify::{AuditDocument, verify};
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    for user in &users {
        set_forced(&app, user, true).await;
    }
    let id = app
        .started_game(&users, "hat-trick", json!({"rounds": 1}))
        .await;
    play_out(&app, &id, &users, &[true, true], 3, Sending::Once).await;
    let audit = verified_audit(&app, &id).await;
    let doc: AuditDocument = serde_json::from_value(audit).unwrap();

    // A `turn_forced` slipped in before the first card of the deal, when
    // the seat held eleven.
    let first = doc.events.iter().position(|e| e.command.is_some()).unwrap();
    let mut forged = doc.clone();
    let mut marker = forged.events[first].clone();
    marker.kind = "turn_forced".to_owned();
    marker.data = json!({"seat": marker.actor.unwrap().seat.unwrap()});
    marker.command = None;
    forged.events.insert(first, marker);
    let why = verify(&rechained(forged)).unwrap_err().to_string();
    assert!(why.contains("legal commands"), "{why}");

    // A forced turn's command attributed to the other player.
    let forced_at = doc
        .events
        .iter()
        .position(|e| e.kind == "turn_forced")
        .unwrap();
    let mut forged = doc.clone();
    let other = users
        .iter()
        .find(|u| Some(u.id) != forged.events[forced_at].actor.unwrap().user_id)
        .unwrap()
        .id;
    forged.events[forced_at + 1].actor.as_mut().unwrap().user_id = Some(other);
    let why = verify(&rechained(forged)).unwrap_err().to_string();
    assert!(why.contains("not its seat's player's"), "{why}");

    // Without its marker the same command is an ordinary move of the
    // player, which verifies: the marker says how it was played, no more.
    let mut unmarked = doc.clone();
    unmarked.events.remove(forced_at);
    verify(&rechained(unmarked)).unwrap();
}
