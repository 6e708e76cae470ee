//! Conditional moves (docs/turn-conveniences.md): lines stored by a seat
//! whose turn it is not, fired in the step that makes them due, private to
//! their owner.

use serde_json::{Value, json};

use crate::support::{Reply, TestApp, User};

/// The first of `legal` of type `move`, else the first.
fn a_move(legal: &[Value]) -> Value {
    legal
        .iter()
        .find(|c| c["type"] == "move")
        .unwrap_or(&legal[0])
        .clone()
}

/// Sends `command` of `user` to game `id` at its current version.
async fn play(app: &TestApp, id: &str, user: &User, command: &Value) -> Value {
    let version = app.game(id, Some(user)).await["version"].as_i64().unwrap();
    app.command(id, user, version, command).await.ok(200)
}

/// Whether the commands of `legal` are of the play (not the setup).
fn in_play(legal: &[Value]) -> bool {
    legal
        .iter()
        .any(|c| c["type"] == "move" || c["type"] == "jump")
}

/// Two Top Hats games of `users` played alike (Top Hats draws nothing at
/// random) into the play, up to a turn of seat 1.
async fn twin_games(app: &TestApp, users: &[User]) -> [String; 2] {
    let a = app.started_game(users, "top-hats", json!({})).await;
    let b = app.started_game(users, "top-hats", json!({})).await;
    for _ in 0..200 {
        let game = app.game(&a, None).await;
        let seat = game["to_act"][0].as_u64().unwrap() as usize;
        let mine = app.game(&a, Some(&users[seat])).await;
        let legal = mine["legal_commands"].as_array().unwrap().clone();
        if seat == 1 && in_play(&legal) {
            return [a, b];
        }
        let command = if in_play(&legal) {
            a_move(&legal)
        } else {
            legal[0].clone()
        };
        play(app, &a, &users[seat], &command).await;
        play(app, &b, &users[seat], &command).await;
    }
    panic!("no turn of seat 1 in the play");
}

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

#[actix_web::test]
async fn a_stored_line_fires_in_the_step_that_makes_it_due_once_and_only_its_owner_sees_it() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let [probe, real] = twin_games(&app, &users).await;

    // On the probe game: seat 1's turn (a chain of jumps may take several
    // commands), then seat 0's answer.
    let mut theirs = Vec::new();
    let after = loop {
        let view = app.game(&probe, Some(&users[1])).await;
        if view["to_act"] != json!([1]) {
            break app.game(&probe, Some(&users[0])).await;
        }
        let command = a_move(view["legal_commands"].as_array().unwrap());
        play(&app, &probe, &users[1], &command).await;
        theirs.push(command);
    };
    assert_eq!(after["to_act"], json!([0]), "{after}");
    let mine = a_move(after["legal_commands"].as_array().unwrap());
    play(&app, &probe, &users[0], &mine).await;

    // On the real game, seat 0 stores the line before seat 1 moves.
    let before = app.game(&real, Some(&users[0])).await;
    let version = before["version"].as_i64().unwrap();
    let mut steps: Vec<Value> = theirs
        .iter()
        .map(|c| json!({"seat": 1, "command": c}))
        .collect();
    steps.push(json!({"seat": 0, "command": mine}));
    let line = json!([steps]);
    let answer = store(
        &app,
        &real,
        &users[0],
        &json!({"expected_version": version, "lines": line}),
    )
    .await
    .ok(200);
    assert_eq!(answer, json!({"version": version, "lines": line}));
    assert_eq!(stored(&app, &real, &users[0]).await["lines"], line);

    // Nobody else sees it: no event, no new version, nothing in seat 1's
    // lines, view or events, no notification.
    let notes_before = app.count("notifications").await;
    assert_eq!(
        stored(&app, &real, &users[1]).await,
        json!({"version": version, "lines": []})
    );
    let theirs_view = app.game(&real, Some(&users[1])).await;
    assert_eq!(theirs_view["version"], version);
    let events = app
        .get(
            &format!("/v1/games/{real}/events?after=0&limit=1000"),
            Some(&users[1].token),
        )
        .await
        .ok(200);
    let text = format!("{theirs_view}{events}");
    assert!(!text.contains("conditional"), "{text}");
    assert_eq!(app.count("notifications").await, notes_before);
    let stranger = app.register("stranger").await;
    app.get(
        &format!("/v1/games/{real}/conditional"),
        Some(&stranger.token),
    )
    .await
    .assert_problem(403, "not_a_player");

    // Seat 1 moves, sending its last command twice at once: one request
    // wins, and the line fires once, in that step, as seat 0's own command.
    let (last, first) = theirs.split_last().unwrap();
    for command in first {
        play(&app, &real, &users[1], command).await;
    }
    let at = app.game(&real, None).await["version"].as_i64().unwrap();
    let body = json!({"expected_version": at, "command": last});
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
        app.game(&probe, None).await["version"],
        "seat 0's answer was played"
    );
    let by_owner = app
        .count(&format!(
            "events WHERE game_id = '{real}' AND seq > {version} AND actor_seat = 0 \
             AND actor_user = '{}' AND command IS NOT NULL",
            users[0].id
        ))
        .await;
    assert_eq!(by_owner, 1, "one command of seat 0's, fired once");
    let fired_at = app
        .count(&format!(
            "events WHERE game_id = '{real}' AND seq > {at} \
             AND created_at = (SELECT created_at FROM events WHERE game_id = '{real}' AND seq = {})",
            at + 1
        ))
        .await;
    assert_eq!(
        fired_at as i64,
        won["version"].as_i64().unwrap() - at,
        "in the same step"
    );
    // The real game is where the probe is: the same view for either seat.
    for user in &users {
        let real_view = app.game(&real, Some(user)).await;
        let probe_view = app.game(&probe, Some(user)).await;
        assert_eq!(real_view["view"], probe_view["view"]);
        assert_eq!(real_view["version"], probe_view["version"]);
    }
    // The line is done: nothing is left of it.
    assert_eq!(stored(&app, &real, &users[0]).await["lines"], json!([]));
    assert_eq!(app.count("conditional_lines").await, 0);
}

#[actix_web::test]
async fn a_line_the_game_leaves_is_dropped_and_an_answer_never_fires_after_it() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let [game, _] = twin_games(&app, &users).await;
    let legal = app.game(&game, Some(&users[1])).await["legal_commands"]
        .as_array()
        .unwrap()
        .clone();
    let moves: Vec<&Value> = legal.iter().collect();
    assert!(moves.len() >= 2, "{legal:?}");
    let version = app.game(&game, None).await["version"].as_i64().unwrap();
    // Seat 0 expects the first move, with an answer that is any command;
    // seat 1 plays the second.
    let line =
        json!([[{"seat": 1, "command": moves[0]}, {"seat": 0, "command": {"type": "end_turn"}}]]);
    store(
        &app,
        &game,
        &users[0],
        &json!({"expected_version": version, "lines": line}),
    )
    .await
    .ok(200);
    play(&app, &game, &users[1], moves[1]).await;
    let by_owner = app
        .count(&format!(
            "events WHERE game_id = '{game}' AND seq > {version} AND actor_seat = 0"
        ))
        .await;
    assert_eq!(by_owner, 0, "nothing fired");
    assert_eq!(stored(&app, &game, &users[0]).await["lines"], json!([]));
    assert_eq!(app.count("conditional_lines").await, 0);
}

#[actix_web::test]
async fn bad_lines_are_refused_with_their_codes_and_nothing_is_written() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let [game, _] = twin_games(&app, &users).await;
    let legal = app.game(&game, Some(&users[1])).await["legal_commands"]
        .as_array()
        .unwrap()
        .clone();
    let theirs = a_move(&legal);
    let version = app.game(&game, None).await["version"].as_i64().unwrap();
    let mine = json!({"type": "end_turn"});
    let body = |lines: Value| json!({"expected_version": version, "lines": lines});
    let cases = [
        (
            json!({"expected_version": version, "lines": [], "extra": 1}),
            400,
            "bad_request",
        ),
        (json!({"lines": []}), 400, "bad_request"),
        (body(json!([])), 422, "conditional_unparsable"),
        (
            body(json!([[{"seat": 1, "command": {"type": "fly"}}, {"seat": 0, "command": mine}]])),
            422,
            "conditional_unparsable",
        ),
        (
            body(json!([[{"seat": 1, "command": theirs}]])),
            422,
            "conditional_unparsable",
        ),
        (
            body(json!([[{"seat": 7, "command": theirs}, {"seat": 0, "command": mine}]])),
            422,
            "conditional_unparsable",
        ),
        (
            body(json!([
                [{"seat": 1, "command": theirs}, {"seat": 0, "command": mine}],
                [{"seat": 1, "command": theirs}, {"seat": 0, "command": {"type": "move", "from": "a1", "to": "a2"}}]
            ])),
            422,
            "conditional_unparsable",
        ),
        (
            body(
                json!([[{"seat": 1, "command": {"type": "move", "from": "a1", "to": "a2"}}, {"seat": 0, "command": mine}]]),
            ),
            422,
            "conditional_never_matches",
        ),
        (
            body(
                json!([[{"seat": 1, "command": {"type": "build_stack", "under": ["red", "red"]}}, {"seat": 0, "command": mine}]]),
            ),
            422,
            "conditional_hidden_step",
        ),
        (
            body(json!([[{"seat": 0, "command": mine}]])),
            422,
            "conditional_never_matches",
        ),
        (
            json!({"expected_version": version - 1, "lines": [[{"seat": 1, "command": theirs}, {"seat": 0, "command": mine}]]}),
            409,
            "version_conflict",
        ),
    ];
    for (body, status, code) in cases {
        let reply = store(&app, &game, &users[0], &body).await;
        assert_eq!(reply.code(), code, "{body}: {}", reply.body);
        reply.assert_problem(status, code);
    }
    // Seat 1, whose turn it is, may not store lines; a stranger neither.
    store(
        &app,
        &game,
        &users[1],
        &body(json!([[{"seat": 0, "command": mine}, {"seat": 1, "command": theirs}]])),
    )
    .await
    .assert_problem(409, "conditional_on_your_turn");
    let stranger = app.register("stranger").await;
    store(
        &app,
        &game,
        &stranger,
        &body(json!([[{"seat": 1, "command": theirs}, {"seat": 0, "command": mine}]])),
    )
    .await
    .assert_problem(403, "not_a_player");
    assert_eq!(app.count("conditional_lines").await, 0);
    assert_eq!(
        app.game(&game, None).await["version"].as_i64().unwrap(),
        version
    );
    // Removing lines that are not there is fine; a stored line is removed.
    let path = format!("/v1/games/{game}/conditional");
    let removed = app
        .send("DELETE", &path, Some(&users[0].token), &[], &Value::Null)
        .await;
    assert_eq!(removed.status, 204);
    store(
        &app,
        &game,
        &users[0],
        &body(json!([[{"seat": 1, "command": theirs}, {"seat": 0, "command": mine}]])),
    )
    .await
    .ok(200);
    assert_eq!(app.count("conditional_lines").await, 1);
    let removed = app
        .send("DELETE", &path, Some(&users[0].token), &[], &Value::Null)
        .await;
    assert_eq!(removed.status, 204);
    assert_eq!(app.count("conditional_lines").await, 0);
}
