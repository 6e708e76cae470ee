//! Conditional moves in the card games (docs/turn-conveniences.md): lines
//! whose conditions are what every seat sees (a card played face up), the
//! owner's steps checked when they come, private to their owner.

use serde_json::{Value, json};

use crate::support::{Reply, TestApp, User};

async fn store(app: &TestApp, id: &str, user: &User, body: &Value) -> Reply {
    app.send(
        "PUT",
        &format!("/v1/games/{id}/conditional"),
        Some(&user.token),
        &[],
        body,
    )
    .await
}

async fn stored(app: &TestApp, id: &str, user: &User) -> Value {
    app.get(&format!("/v1/games/{id}/conditional"), Some(&user.token))
        .await
        .ok(200)
}

async fn legal(app: &TestApp, id: &str, user: &User) -> Vec<Value> {
    app.game(id, Some(user)).await["legal_commands"]
        .as_array()
        .unwrap()
        .clone()
}

async fn version(app: &TestApp, id: &str) -> i64 {
    app.game(id, None).await["version"].as_i64().unwrap()
}

/// The commands of `owner`'s seat in game `id` since `after`.
async fn owner_commands(app: &TestApp, id: &str, owner: &User, seat: u8, after: i64) -> i64 {
    app.count(&format!(
        "events WHERE game_id = '{id}' AND seq > {after} AND actor_seat = {seat} \
         AND actor_user = '{}' AND command IS NOT NULL",
        owner.id
    ))
    .await
}

/// A game of Hat Trick for two with a public seed: the same deal every
/// time, seat 1 (forehand) to lead.
async fn hat_trick(app: &TestApp, users: &[User]) -> String {
    let id = app
        .started_game(
            users,
            "hat-trick",
            json!({"seed": "lines at the card table"}),
        )
        .await;
    assert_eq!(app.game(&id, None).await["to_act"], json!([1]));
    id
}

#[actix_web::test]
async fn a_card_played_face_up_fires_the_owners_answer_once_in_the_same_step_and_nobody_else_sees_the_line()
 {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    // The probe shows what seat 1 leads and what seat 0 may answer.
    let probe = hat_trick(&app, &users).await;
    let real = hat_trick(&app, &users).await;
    let theirs = legal(&app, &probe, &users[1]).await[0].clone();
    let at = version(&app, &probe).await;
    app.command(&probe, &users[1], at, &theirs).await.ok(200);
    let mine = legal(&app, &probe, &users[0]).await[0].clone();
    let at = version(&app, &probe).await;
    app.command(&probe, &users[0], at, &mine).await.ok(200);

    // Given seat 0's line on the real game, stored while seat 1 is to lead.
    let before = version(&app, &real).await;
    let line = json!([[{"seat": 1, "command": theirs}, {"seat": 0, "command": mine}]]);
    let answer = store(
        &app,
        &real,
        &users[0],
        &json!({"expected_version": before, "lines": line}),
    )
    .await
    .ok(200);
    assert_eq!(answer, json!({"version": before, "lines": line}));

    // Nobody else learns of it: no event, no version, no notification,
    // nothing in seat 1's lines, view or events.
    let notes = app.count("notifications").await;
    assert_eq!(
        stored(&app, &real, &users[1]).await,
        json!({"version": before, "lines": []})
    );
    let their_view = app.game(&real, Some(&users[1])).await;
    assert_eq!(their_view["version"], before);
    let events = app
        .get(
            &format!("/v1/games/{real}/events?after=0&limit=1000"),
            Some(&users[1].token),
        )
        .await
        .ok(200);
    let text = format!("{their_view}{events}");
    assert!(!text.contains("conditional"), "{text}");
    assert_eq!(app.count("notifications").await, notes);

    // When seat 1 leads the card twice at once, one request wins and the
    // answer is played once, in that step, as seat 0's own command.
    let body = json!({"expected_version": before, "command": theirs});
    let path = format!("/v1/games/{real}/commands");
    let (x, y) = tokio::join!(
        app.post(&path, Some(&users[1].token), &body),
        app.post(&path, Some(&users[1].token), &body)
    );
    let (won, lost) = if x.status == 200 { (x, y) } else { (y, x) };
    lost.assert_problem(409, "version_conflict");
    let won = won.ok(200);
    assert_eq!(
        won["game"]["version"],
        app.game(&probe, None).await["version"]
    );
    assert_eq!(owner_commands(&app, &real, &users[0], 0, before).await, 1);
    for user in &users {
        let real_view = app.game(&real, Some(user)).await;
        let probe_view = app.game(&probe, Some(user)).await;
        assert_eq!(real_view["view"], probe_view["view"]);
        assert_eq!(real_view["to_act"], probe_view["to_act"]);
    }
    assert_eq!(stored(&app, &real, &users[0]).await["lines"], json!([]));
    assert_eq!(app.count("conditional_lines").await, 0);
}

#[actix_web::test]
async fn an_answer_that_is_not_legal_when_it_comes_is_dropped_unfired() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let game = hat_trick(&app, &users).await;
    let hand = legal(&app, &game, &users[1]).await;
    let theirs = hand[0].clone();
    // A card of seat 1's: never in seat 0's hand, so never legal for it.
    let other = hand
        .iter()
        .find(|c| c["card"] != theirs["card"])
        .expect("two cards");
    let mine = json!({"type": "play", "card": other["card"], "predict": false});
    let before = version(&app, &game).await;
    store(
        &app,
        &game,
        &users[0],
        &json!({"expected_version": before, "lines": [[{"seat": 1, "command": theirs}, {"seat": 0, "command": mine}]]}),
    )
    .await
    .ok(200);
    app.command(&game, &users[1], before, &theirs).await.ok(200);
    assert_eq!(owner_commands(&app, &game, &users[0], 0, before).await, 0);
    assert_eq!(app.game(&game, None).await["to_act"], json!([0]));
    assert_eq!(stored(&app, &game, &users[0]).await["lines"], json!([]));
    assert_eq!(app.count("conditional_lines").await, 0);
}

#[actix_web::test]
async fn a_line_naming_a_card_the_other_seat_does_not_hold_is_answered_as_one_it_holds() {
    // Whether the expected card is in the other hand is not checked (it
    // would tell the owner what that hand holds): both lines are stored.
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let game = hat_trick(&app, &users).await;
    let held = legal(&app, &game, &users[1]).await[0].clone();
    let own = app.game(&game, Some(&users[0])).await;
    let not_held = json!({"type": "play", "card": own["view"]["hands"][0][0], "predict": false});
    assert!(not_held["card"].is_string(), "{own}");
    let at = version(&app, &game).await;
    let answer = json!({"type": "play", "card": own["view"]["hands"][0][1], "predict": false});
    for first in [&held, &not_held] {
        let line = json!([[{"seat": 1, "command": first}, {"seat": 0, "command": answer}]]);
        let reply = store(
            &app,
            &game,
            &users[0],
            &json!({"expected_version": at, "lines": line}),
        )
        .await;
        assert_eq!(reply.ok(200)["lines"], line);
    }
}

#[actix_web::test]
async fn hidden_conditions_and_lines_that_cannot_start_are_refused_and_nothing_is_written() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let game = app.started_game(&users, "hats", json!({})).await;
    let view = app.game(&game, None).await;
    let waiting = view["to_act"][0].as_u64().unwrap() as usize;
    let owner = 1 - waiting;
    let at = view["version"].as_i64().unwrap();
    let theirs = legal(&app, &game, &users[waiting]).await;
    let of_type = |kind: &str| {
        theirs
            .iter()
            .find(|c| c["type"] == kind)
            .unwrap_or_else(|| panic!("no {kind} in {theirs:?}"))
            .clone()
    };
    let exchange = of_type("exchange");
    let mine = json!({"type": "black_hat", "card": exchange["card"]});
    let body = |lines: Value| json!({"expected_version": at, "lines": lines});
    let line = |first: Value| json!([[{"seat": waiting, "command": first}, {"seat": owner, "command": mine}]]);
    let cases = [
        (
            body(line(of_type("discard_draw"))),
            422,
            "conditional_hidden_step",
        ),
        (
            body(line(of_type("black_hat"))),
            422,
            "conditional_hidden_step",
        ),
        (
            body(
                json!([[{"seat": waiting, "command": exchange}, {"seat": waiting, "command": of_type("black_hat")}, {"seat": owner, "command": mine}]]),
            ),
            422,
            "conditional_hidden_step",
        ),
        (
            body(json!([[{"seat": owner, "command": mine}]])),
            422,
            "conditional_never_matches",
        ),
        (
            body(
                json!([[{"seat": waiting, "command": {"type": "exchange", "card": "nothing", "position": 1}}, {"seat": owner, "command": mine}]]),
            ),
            422,
            "conditional_unparsable",
        ),
        (
            json!({"expected_version": at - 1, "lines": line(exchange.clone())}),
            409,
            "version_conflict",
        ),
    ];
    for (body, status, code) in cases {
        let reply = store(&app, &game, &users[owner], &body).await;
        assert_eq!(reply.code(), code, "{body}: {}", reply.body);
        reply.assert_problem(status, code);
    }
    // The seat to play stores none.
    store(
        &app,
        &game,
        &users[waiting],
        &body(json!([[{"seat": owner, "command": mine}, {"seat": waiting, "command": exchange}]])),
    )
    .await
    .assert_problem(409, "conditional_on_your_turn");
    assert_eq!(app.count("conditional_lines").await, 0);
    assert_eq!(version(&app, &game).await, at);
    // A card exchanged face up is a condition.
    store(&app, &game, &users[owner], &body(line(exchange)))
        .await
        .ok(200);
    assert_eq!(app.count("conditional_lines").await, 1);
    assert_eq!(version(&app, &game).await, at);
}
