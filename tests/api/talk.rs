//! Table talk (docs/talk.md): each audience reads what it may and nothing
//! else, refusals write nothing, the rate limit, plain text, mutes, reports
//! and an operator's hiding.

use serde_json::{Value, json};

use crate::support::{TestApp, User};

/// Says `body` in game `id` as `user`.
async fn say(app: &TestApp, id: &str, user: &User, body: Value) -> crate::support::Reply {
    app.post(&format!("/v1/games/{id}/talk"), Some(&user.token), &body)
        .await
}

/// The texts of game `id`'s talk as `user` (none: signed out) reads it.
async fn texts(app: &TestApp, id: &str, user: Option<&User>) -> Vec<String> {
    let page = app
        .get(
            &format!("/v1/games/{id}/talk"),
            user.map(|u| u.token.as_str()),
        )
        .await
        .ok(200);
    page["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap_or("<hidden>").to_owned())
        .collect()
}

/// A started 3-player Hats game of `users` with `options`.
async fn game(app: &TestApp, users: &[User], options: Value) -> String {
    app.started_game(users, "hats", options).await
}

#[actix_web::test]
async fn each_audience_reads_its_rooms_and_nothing_else() {
    let app = TestApp::spawn().await;
    let users = app.users(3).await;
    let watcher = app.register("watcher").await;
    let id = game(&app, &users, json!({"talk": "press"})).await;
    let created = app.game(&id, Some(&users[0])).await;
    assert_eq!(created["options"]["talk"], "press");

    let table = say(&app, &id, &users[0], json!({"text": "hello table"}))
        .await
        .ok(201);
    assert_eq!(table["room"], "table");
    assert_eq!(table["from"]["seat"], 0);
    assert_eq!(table["from"]["username"], "player0");
    say(
        &app,
        &id,
        &users[0],
        json!({"room": "press", "to": [1], "text": "psst, seat 1"}),
    )
    .await
    .ok(201);
    say(
        &app,
        &id,
        &watcher,
        json!({"room": "spectators", "text": "nice hand"}),
    )
    .await
    .ok(201);

    assert_eq!(
        texts(&app, &id, Some(&users[0])).await,
        ["hello table", "psst, seat 1"]
    );
    assert_eq!(
        texts(&app, &id, Some(&users[1])).await,
        ["hello table", "psst, seat 1"]
    );
    assert_eq!(texts(&app, &id, Some(&users[2])).await, ["hello table"]);
    assert_eq!(
        texts(&app, &id, Some(&watcher)).await,
        ["hello table", "nice hand"]
    );
    assert_eq!(texts(&app, &id, None).await, ["hello table", "nice hand"]);

    // Paging: after the first message, the rest the reader reads.
    let page = app
        .get(
            &format!(
                "/v1/games/{id}/talk?after={}",
                table["cursor"].as_str().unwrap()
            ),
            Some(&users[1].token),
        )
        .await
        .ok(200);
    assert_eq!(page["messages"].as_array().unwrap().len(), 1);
    assert_eq!(page["messages"][0]["to"], json!([1]));
    let next = page["next"].as_str().unwrap();
    let empty = app
        .get(
            &format!("/v1/games/{id}/talk?after={next}&limit=1"),
            Some(&users[1].token),
        )
        .await
        .ok(200);
    assert_eq!(empty["messages"], json!([]));
    assert_eq!(empty["next"], next);
}

#[actix_web::test]
async fn talk_leaves_the_game_its_version_and_its_tags() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = game(&app, &users, json!({})).await;
    let before = app
        .get(&format!("/v1/games/{id}"), Some(&users[1].token))
        .await;
    let events = app
        .get(&format!("/v1/games/{id}/events"), Some(&users[1].token))
        .await
        .ok(200);
    say(&app, &id, &users[0], json!({"text": "hi"}))
        .await
        .ok(201);
    let after = app
        .get(&format!("/v1/games/{id}"), Some(&users[1].token))
        .await;
    assert_eq!(before.header("etag"), after.header("etag"));
    assert_eq!(before.body, after.body);
    assert_eq!(
        events,
        app.get(&format!("/v1/games/{id}/events"), Some(&users[1].token))
            .await
            .ok(200)
    );
}

#[actix_web::test]
async fn refusals_say_why_and_write_nothing() {
    let app = TestApp::spawn().await;
    let users = app.users(3).await;
    let watcher = app.register("watcher").await;
    let silent = game(&app, &users, json!({"talk": "none"})).await;
    let table = game(&app, &users, json!({})).await;
    let press = game(&app, &users, json!({"talk": "press"})).await;
    assert_eq!(app.game(&table, None).await["options"]["talk"], "table");

    let cases: Vec<(&str, &User, Value, u16, &str)> = vec![
        (
            &silent,
            &users[0],
            json!({"text": "hi"}),
            403,
            "talk_not_allowed",
        ),
        (
            &table,
            &users[0],
            json!({"room": "press", "to": [1], "text": "hi"}),
            403,
            "talk_not_allowed",
        ),
        (
            &table,
            &users[0],
            json!({"room": "spectators", "text": "hi"}),
            403,
            "talk_not_allowed",
        ),
        (&table, &watcher, json!({"text": "hi"}), 403, "not_a_player"),
        (
            &press,
            &watcher,
            json!({"room": "press", "to": [1], "text": "hi"}),
            403,
            "not_a_player",
        ),
        (
            &press,
            &users[0],
            json!({"room": "press", "to": [3], "text": "hi"}),
            422,
            "audience_not_a_seat",
        ),
        (
            &press,
            &users[0],
            json!({"room": "press", "to": [0], "text": "hi"}),
            422,
            "audience_not_a_seat",
        ),
        (
            &press,
            &users[0],
            json!({"room": "press", "to": [2147483646], "text": "hi"}),
            422,
            "audience_not_a_seat",
        ),
        (
            &press,
            &users[0],
            json!({"room": "press", "to": [-1], "text": "hi"}),
            422,
            "audience_not_a_seat",
        ),
        (
            &press,
            &users[0],
            json!({"room": "press", "text": "hi"}),
            422,
            "audience_not_a_seat",
        ),
        (
            &table,
            &users[0],
            json!({"text": "x".repeat(1001)}),
            422,
            "message_too_long",
        ),
        (&table, &users[0], json!({"text": "  "}), 400, "bad_request"),
        (
            &table,
            &users[0],
            json!({"text": "a\u{0}b"}),
            400,
            "bad_request",
        ),
        (
            &table,
            &users[0],
            json!({"text": "hi", "to": [1]}),
            400,
            "bad_request",
        ),
        (
            &table,
            &users[0],
            json!({"text": "hi", "room": "kitchen"}),
            400,
            "bad_request",
        ),
    ];
    for (game, user, body, status, code) in cases {
        say(&app, game, user, body.clone())
            .await
            .assert_problem(status, code);
        assert_eq!(app.count("talk_messages").await, 0, "{body}");
    }
    let unknown = uuid::Uuid::new_v4();
    say(&app, &unknown.to_string(), &users[0], json!({"text": "hi"}))
        .await
        .assert_problem(404, "not_found");
    // A private game's talk does not exist for those who may not watch it.
    let private = app
        .created_game(
            &users[0],
            &json!({"ruleset": "hats", "players": 2, "private": true}),
        )
        .await;
    let private = private["id"].as_str().unwrap();
    app.get(&format!("/v1/games/{private}/talk"), Some(&watcher.token))
        .await
        .assert_problem(404, "not_found");
    say(
        &app,
        private,
        &watcher,
        json!({"room": "spectators", "text": "hi"}),
    )
    .await
    .assert_problem(404, "not_found");
    assert_eq!(app.count("talk_messages").await, 0);
    // 1,000 characters (not bytes) are fine.
    say(&app, &table, &users[0], json!({"text": "é".repeat(1000)}))
        .await
        .ok(201);
}

#[actix_web::test]
async fn a_few_messages_a_minute_per_player_per_game() {
    let app = TestApp::spawn_with(|s| s.limits.talk_per_minute = 3).await;
    let users = app.users(2).await;
    let id = game(&app, &users, json!({})).await;
    let other = game(&app, &users, json!({})).await;
    for n in 0..3 {
        say(&app, &id, &users[0], json!({"text": format!("m{n}")}))
            .await
            .ok(201);
    }
    let refused = say(&app, &id, &users[0], json!({"text": "one more"})).await;
    refused.assert_problem(429, "limit_reached");
    let wait: u64 = refused.header("retry-after").parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert_eq!(app.count("talk_messages").await, 3);
    // Another player, and another game, have their own count.
    say(&app, &id, &users[1], json!({"text": "me too"}))
        .await
        .ok(201);
    say(&app, &other, &users[0], json!({"text": "elsewhere"}))
        .await
        .ok(201);
    // A minute later the window is new.
    app.sql("UPDATE limit_windows SET window_start = window_start - interval '61 seconds'")
        .await;
    say(&app, &id, &users[0], json!({"text": "again"}))
        .await
        .ok(201);
}

#[actix_web::test]
async fn markup_and_script_are_plain_text() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = game(&app, &users, json!({})).await;
    let text = "<b>bold</b><script>alert('x')</script><img src=x onerror=alert(1)> & &amp;";
    let said = say(&app, &id, &users[0], json!({"text": text}))
        .await
        .ok(201);
    assert_eq!(said["text"], text);
    assert_eq!(texts(&app, &id, Some(&users[1])).await, [text]);
    let raw = app
        .request("GET", &format!("/v1/games/{id}/talk"), None, &[])
        .send()
        .await
        .unwrap();
    assert_eq!(
        raw.headers().get("content-type").unwrap(),
        "application/json"
    );
}

#[actix_web::test]
async fn a_muted_user_reaches_the_muter_nowhere() {
    let app = TestApp::spawn().await;
    let users = app.users(3).await;
    let id = game(&app, &users, json!({"talk": "press"})).await;
    let muted = app
        .send(
            "PUT",
            "/v1/me/mutes/PLAYER0",
            Some(&users[1].token),
            &[],
            &json!(null),
        )
        .await
        .ok(200);
    assert_eq!(muted, json!({"muted": ["player0"]}));
    say(&app, &id, &users[0], json!({"text": "anyone?"}))
        .await
        .ok(201);
    say(&app, &id, &users[2], json!({"text": "me"}))
        .await
        .ok(201);
    assert_eq!(texts(&app, &id, Some(&users[1])).await, ["me"]);
    assert_eq!(texts(&app, &id, Some(&users[2])).await, ["anyone?", "me"]);
    // Press to the muter alone is refused; to the muter and another, the other reads it.
    say(
        &app,
        &id,
        &users[0],
        json!({"room": "press", "to": [1], "text": "hey"}),
    )
    .await
    .assert_problem(403, "muted");
    say(
        &app,
        &id,
        &users[0],
        json!({"room": "press", "to": [1, 2], "text": "you two"}),
    )
    .await
    .ok(201);
    assert_eq!(texts(&app, &id, Some(&users[1])).await, ["me"]);
    let unmuted = app
        .send(
            "DELETE",
            "/v1/me/mutes/player0",
            Some(&users[1].token),
            &[],
            &json!(null),
        )
        .await
        .ok(200);
    assert_eq!(unmuted, json!({"muted": []}));
    assert_eq!(
        texts(&app, &id, Some(&users[1])).await,
        ["anyone?", "me", "you two"]
    );
    app.send(
        "PUT",
        "/v1/me/mutes/player1",
        Some(&users[1].token),
        &[],
        &json!(null),
    )
    .await
    .assert_problem(403, "forbidden");
    app.send(
        "PUT",
        "/v1/me/mutes/nobody",
        Some(&users[1].token),
        &[],
        &json!(null),
    )
    .await
    .assert_problem(404, "not_found");
}

#[actix_web::test]
async fn an_operator_hides_a_reported_message_and_the_record_keeps_who() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let operator = app.register("operator").await;
    let id = game(&app, &users, json!({})).await;
    let rude = say(&app, &id, &users[0], json!({"text": "rude words"}))
        .await
        .ok(201);
    let message = rude["id"].as_str().unwrap();
    let hide = format!("/v1/games/{id}/talk/{message}/hide");
    app.post(&hide, Some(&users[1].token), &json!(null))
        .await
        .assert_problem(403, "forbidden");
    app.sql(&format!(
        "INSERT INTO operators VALUES ('{}', now())",
        operator.id
    ))
    .await;
    app.post(&hide, Some(&operator.token), &json!(null))
        .await
        .assert_problem(409, "not_reported");
    let report = format!("/v1/games/{id}/talk/{message}/report");
    app.post(
        &report,
        Some(&users[1].token),
        &json!({"reason": "x".repeat(501)}),
    )
    .await
    .assert_problem(400, "bad_request");
    let unknown = format!("/v1/games/{id}/talk/{}/report", uuid::Uuid::new_v4());
    app.post(&unknown, Some(&users[1].token), &json!({}))
        .await
        .assert_problem(404, "not_found");
    app.post(
        &report,
        Some(&users[1].token),
        &json!({"reason": "insults"}),
    )
    .await
    .ok(204);
    app.post(&report, Some(&users[1].token), &json!({}))
        .await
        .ok(204);
    assert_eq!(app.count("talk_reports").await, 1);
    let hidden = app
        .post(&hide, Some(&operator.token), &json!(null))
        .await
        .ok(200);
    assert_eq!(hidden["hidden"], true);
    assert_eq!(hidden["text"], Value::Null);
    for user in [Some(&users[0]), Some(&users[1]), None] {
        assert_eq!(texts(&app, &id, user).await, ["<hidden>"]);
    }
    assert_eq!(
        app.count(&format!(
            "talk_messages WHERE hidden_by = '{}' AND hidden_at IS NOT NULL AND body = 'rude words'",
            operator.id
        ))
        .await,
        1
    );
}

/// A body's bytes with what differs between any two games made alike:
/// UUIDs numbered by first appearance, RFC 3339 times, page cursors,
/// SHA-256 hashes (the chain's, the commitments') and messages' random salts. Everything else stays
/// byte for byte.
pub(crate) fn alike(raw: &str) -> String {
    let mut uuids: Vec<String> = Vec::new();
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(start) = rest.find('"') {
        out.push_str(&rest[..=start]);
        rest = &rest[start + 1..];
        let mut end = 0;
        let bytes = rest.as_bytes();
        while bytes[end] != b'"' {
            end += if bytes[end] == b'\\' { 2 } else { 1 };
        }
        let text = &rest[..end];
        let is_uuid = |t: &str| t.len() == 36 && uuid::Uuid::parse_str(t).is_ok();
        let replaced = if is_uuid(text) {
            let n = uuids.iter().position(|u| u == text).unwrap_or_else(|| {
                uuids.push(text.to_owned());
                uuids.len() - 1
            });
            format!("<uuid {n}>")
        } else if text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
            "<hash>".to_owned()
        } else if text.len() == 32 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
            "<salt>".to_owned()
        } else if chrono::DateTime::parse_from_rfc3339(text).is_ok() {
            "<time>".to_owned()
        } else if let Some((micros, id)) = text.split_once('_')
            && micros.bytes().all(|b| b.is_ascii_digit())
            && is_uuid(id)
        {
            "<cursor>".to_owned()
        } else {
            text.to_owned()
        };
        out.push_str(&replaced);
        out.push('"');
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// GET `path` as `token`: the status, the tag, and the body made [`alike`].
pub(crate) async fn fetched(
    app: &TestApp,
    path: &str,
    token: Option<&str>,
) -> (u16, String, String) {
    let mut response = app.request("GET", path, token, &[]).send().await.unwrap();
    let status = response.status().as_u16();
    let tag = response
        .headers()
        .get("etag")
        .map(|t| t.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let body = response.body().limit(1 << 24).await.unwrap();
    let mut text = std::str::from_utf8(&body).unwrap().to_owned();
    // An audit's place in the transparency log, and its signature over
    // it, differ between any two games (docs/audits.md): the twins are
    // compared without them.
    if let Ok(Value::Object(mut audit)) = serde_json::from_str::<Value>(&text)
        && audit.contains_key("format")
    {
        audit.remove("log");
        audit.remove("signature");
        text = Value::Object(audit).to_string();
    }
    (status, tag, alike(&text))
}

/// What game stream `path` sends `token` in its first `millis`
/// milliseconds, made [`alike`] (its ids' talk positions too).
async fn streamed(app: &TestApp, path: &str, token: Option<&str>, millis: u64) -> String {
    use futures_util::StreamExt;
    let mut response = app.request("GET", path, token, &[]).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200, "{path}");
    let until = tokio::time::Instant::now() + std::time::Duration::from_millis(millis);
    let mut text = String::new();
    while let Ok(Some(chunk)) = tokio::time::timeout_at(until, response.next()).await {
        text.push_str(std::str::from_utf8(&chunk.unwrap()).unwrap());
    }
    text.lines()
        .map(
            |line| match line.strip_prefix("id: ").and_then(|id| id.split_once('/')) {
                Some((seq, talk)) if talk != "0" => format!("id: {seq}/<cursor>"),
                _ => alike(line),
            },
        )
        .collect::<Vec<_>>()
        .join("\n")
}

/// Asserts that twin games answer alike: `what` (`a`, `b`).
fn assert_twins(what: &str, in_a: &str, in_b: &str) {
    let at = in_a
        .bytes()
        .zip(in_b.bytes())
        .take_while(|(x, y)| x == y)
        .count();
    assert_eq!(
        in_a,
        in_b,
        "{what}: from byte {at}: {:?} / {:?}",
        in_a.get(at.saturating_sub(80)..(at + 200).min(in_a.len())),
        in_b.get(at.saturating_sub(80)..(at + 200).min(in_b.len())),
    );
}

/// Plays game `id` to its end: each time, the first seat to act plays its
/// first legal command.
async fn play_out(app: &TestApp, id: &str, users: &[User]) {
    loop {
        let seen = app.game(id, Some(&users[0])).await;
        if seen["status"] != "active" {
            return;
        }
        let seat = seen["to_act"][0].as_u64().unwrap() as usize;
        let mine = app.game(id, Some(&users[seat])).await;
        app.command(
            id,
            &users[seat],
            mine["version"].as_i64().unwrap(),
            &mine["legal_commands"][0],
        )
        .await
        .ok(200);
    }
}

/// Twin games, identical but for press messages between seats 0 and 1 in
/// the second: every fetch by seat 2, by a signed-in watcher and by someone
/// signed out answers the same bytes (and tags) in both, while the game is
/// played and once it is over (its audit included) — the game's long poll
/// and its stream with their talk too, and a long poll waiting while the
/// press is said answers when and what its twin answers.
#[actix_web::test]
async fn twin_games_differ_for_a_third_seat_and_spectators_in_nothing() {
    let app = TestApp::spawn_with(|s| s.limits.talk_per_minute = 50).await;
    let users = app.users(3).await;
    let watcher = app.register("watcher").await;
    let options = json!({"talk": "press", "seed": "twins"});
    let a = game(&app, &users, options.clone()).await;
    let b = game(&app, &users, options).await;
    for id in [&a, &b] {
        say(&app, id, &users[0], json!({"text": "good luck"}))
            .await
            .ok(201);
        say(
            &app,
            id,
            &watcher,
            json!({"room": "spectators", "text": "watching"}),
        )
        .await
        .ok(201);
    }
    let secret = say(
        &app,
        &b,
        &users[0],
        json!({"room": "press", "to": [1], "text": "let us gang up on seat 2"}),
    )
    .await
    .ok(201);
    assert_eq!(secret["to"], json!([1]));
    for id in [&a, &b] {
        say(&app, id, &users[1], json!({"text": "and to you"}))
            .await
            .ok(201);
    }
    let readers = [
        ("seat 2", Some(users[2].token.as_str())),
        ("a watcher", Some(watcher.token.as_str())),
        ("someone signed out", None),
    ];
    let compare = async |paths: &[&str]| {
        for (who, token) in readers {
            for path in paths {
                let in_a = fetched(&app, &path.replace("{id}", &a), token).await;
                let in_b = fetched(&app, &path.replace("{id}", &b), token).await;
                let at = in_a
                    .2
                    .bytes()
                    .zip(in_b.2.bytes())
                    .take_while(|(x, y)| x == y)
                    .count();
                assert_eq!(
                    (in_a.0, &in_a.2),
                    (in_b.0, &in_b.2),
                    "{who}: {path}: from byte {at}: {:?} / {:?}",
                    in_a.2
                        .get(at.saturating_sub(80)..(at + 200).min(in_a.2.len())),
                    in_b.2
                        .get(at.saturating_sub(80)..(at + 200).min(in_b.2.len())),
                );
                assert_eq!(in_a.0, 200, "{who}: {path}: {}", in_a.2);
                // The game's tag names its version and viewer (other tags
                // hash their bodies, whose times and ids differ by game).
                if *path == "/v1/games/{id}" {
                    assert_eq!(in_a.1, in_b.1, "{who}: {path}");
                }
            }
        }
    };
    let during = [
        "/v1/games/{id}",
        "/v1/games/{id}/events",
        "/v1/games/{id}/log",
        "/v1/games/{id}/talk",
        "/v1/games/{id}/talk?limit=1",
        "/v1/games/{id}/events?talk_after=0",
        "/v1/games/{id}/events?talk_after=0&limit=1",
    ];
    compare(&during).await;
    // The game's stream with its talk, from the start: the same bytes.
    let compare_streams = async || {
        for (who, token) in readers {
            let path = "/v1/games/{id}/stream?talk_after=0";
            let (path_a, path_b) = (path.replace("{id}", &a), path.replace("{id}", &b));
            let (in_a, in_b) = tokio::join!(
                streamed(&app, &path_a, token, 1200),
                streamed(&app, &path_b, token, 1200),
            );
            assert!(in_a.contains("event: talk"), "{who}: {in_a}");
            assert_twins(&format!("{who}: {path}"), &in_a, &in_b);
        }
    };
    compare_streams().await;
    // Live: each reader long polls and streams both games from where it is;
    // seat 0 tells seat 1 something in b, then seat 1 speaks at both
    // tables. The press wakes b's waiters, who read nothing and wait on:
    // every one answers with seat 1's message, as in a.
    let live = async |who: &str, token: Option<&str>, id: &str| {
        let page = app
            .get(&format!("/v1/games/{id}/events?talk_after=0"), token)
            .await
            .ok(200);
        let version = page["version"].as_i64().unwrap();
        let next = page["talk"]["next"].as_str().unwrap();
        let poll = format!("/v1/games/{id}/events?after={version}&talk_after={next}&wait=4");
        let stream = format!("/v1/games/{id}/stream?after={version}&talk_after={next}");
        let started = std::time::Instant::now();
        let (polled, streamed) = tokio::join!(
            async {
                let answer = fetched(&app, &poll, token).await;
                (answer, started.elapsed())
            },
            streamed(&app, &stream, token, 2500),
        );
        assert_eq!(polled.0.0, 200, "{who}");
        (polled.0.2, polled.1, streamed)
    };
    for (who, token) in readers {
        let ((poll_a, waited_a, stream_a), (poll_b, waited_b, stream_b), ()) =
            tokio::join!(live(who, token, &a), live(who, token, &b), async {
                tokio::time::sleep(std::time::Duration::from_millis(300)).await;
                say(
                    &app,
                    &b,
                    &users[0],
                    json!({"room": "press", "to": [1], "text": "seat 2 is listening"}),
                )
                .await
                .ok(201);
                tokio::time::sleep(std::time::Duration::from_millis(700)).await;
                for id in [&a, &b] {
                    say(&app, id, &users[1], json!({"text": format!("to {who}")}))
                        .await
                        .ok(201);
                }
            },);
        assert!(poll_a.contains(&format!("to {who}")), "{who}: {poll_a}");
        assert_twins(&format!("{who}: long poll"), &poll_a, &poll_b);
        assert_twins(&format!("{who}: stream"), &stream_a, &stream_b);
        assert!(stream_a.contains(&format!("to {who}")), "{who}: {stream_a}");
        for waited in [waited_a, waited_b] {
            assert!(
                waited >= std::time::Duration::from_millis(900),
                "{who}: the long poll answered at {waited:?}, before anything it reads was said"
            );
        }
    }
    // Seat 1 reads the press in b only; so nobody else is compared blind.
    let seat1 = app
        .get(&format!("/v1/games/{b}/talk"), Some(&users[1].token))
        .await
        .ok(200);
    assert!(seat1.to_string().contains("gang up"));
    assert!(
        !fetched(&app, &format!("/v1/games/{b}/talk"), Some(&users[2].token))
            .await
            .2
            .contains("gang up")
    );
    play_out(&app, &a, &users).await;
    play_out(&app, &b, &users).await;
    compare(&[&during[..], &["/v1/games/{id}/audit"]].concat()).await;
    compare_streams().await;
    let audit = app.get(&format!("/v1/games/{b}/audit"), None).await.ok(200);
    assert!(!audit.to_string().contains("gang up"));
    assert!(audit["talk"]["press"]["commitment"].is_string());
}

/// The audit holds the public talk with texts anyone can hash again; press
/// by its commitment alone, or revealed when the game chose so; `hatstand
/// verify` accepts both and finds an altered message.
#[actix_web::test]
async fn the_audit_records_public_talk_and_commits_to_press() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let watcher = app.register("watcher").await;
    for revealed in [false, true] {
        let id = game(
            &app,
            &users,
            json!({"talk": "press", "press_revealed_at_end": revealed}),
        )
        .await;
        say(&app, &id, &users[0], json!({"text": "hello"}))
            .await
            .ok(201);
        say(
            &app,
            &id,
            &users[1],
            json!({"room": "press", "to": [0], "text": "private word"}),
        )
        .await
        .ok(201);
        say(
            &app,
            &id,
            &watcher,
            json!({"room": "spectators", "text": "go seat 1"}),
        )
        .await
        .ok(201);
        // During play the audit is refused as ever, and a spectator reads no press.
        app.get(&format!("/v1/games/{id}/audit"), None)
            .await
            .assert_problem(409, "game_not_finished");
        play_out(&app, &id, &users).await;
        let audit = app
            .get(&format!("/v1/games/{id}/audit"), None)
            .await
            .ok(200);
        let talk = &audit["talk"];
        let public: Vec<&str> = talk["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap())
            .collect();
        assert_eq!(public, ["hello", "go seat 1"]);
        assert_eq!(talk["messages"][0]["author"], users[0].id.to_string());
        assert!(talk["press"]["commitment"].is_string());
        assert_eq!(
            audit.to_string().contains("private word"),
            revealed,
            "{audit}"
        );
        let after = texts(&app, &id, None).await;
        assert_eq!(after.contains(&"private word".to_owned()), revealed);
        assert!(after.contains(&"go seat 1".to_owned()));
        let players = texts(&app, &id, Some(&users[0])).await;
        assert!(
            players.contains(&"go seat 1".to_owned()),
            "players read the spectators once over"
        );
        let (ok, out) = crate::audit::verify_cli(&audit);
        assert!(ok, "{out}");
        let (ok, out) = web_verify(&audit).await;
        let press = if revealed { "revealed" } else { "committed" };
        assert!(
            ok && out.contains(&format!("\"press\":\"{press}\"")),
            "{out}"
        );
        let mut forged = audit.clone();
        forged["talk"]["messages"][0]["text"] = json!("goodbye");
        let (ok, out) = crate::audit::verify_cli(&forged);
        assert!(!ok && out.contains("does not match"), "{out}");
        let (ok, out) = web_verify(&forged).await;
        assert!(!ok && out.contains("does not match its hash"), "{out}");
        let mut public_press = audit.clone();
        public_press["talk"]["messages"][0]["room"] = json!("press");
        let (ok, out) = web_verify(&public_press).await;
        assert!(!ok && out.contains("not listed here"), "{out}");
        if revealed {
            let mut dropped = audit.clone();
            dropped["talk"]["press"]["revealed"]["messages"] = json!([]);
            let (ok, out) = crate::audit::verify_cli(&dropped);
            assert!(!ok && out.contains("commitment"), "{out}");
            let (ok, out) = web_verify(&dropped).await;
            assert!(!ok && out.contains("commitment"), "{out}");
        }
    }
}

/// The web client's verifier (web/js/audit/verify.js, under Node) on
/// `audit`: whether it verified, and its outcome as JSON.
async fn web_verify(audit: &Value) -> (bool, String) {
    let file = std::env::temp_dir().join(format!("talk-audit-{}.json", uuid::Uuid::new_v4()));
    std::fs::write(&file, audit.to_string()).unwrap();
    let verifier = concat!(env!("CARGO_MANIFEST_DIR"), "/web/js/audit/verify.js");
    let script = "globalThis.crypto ??= (await import('node:crypto')).webcrypto;
        const { readFileSync } = await import('node:fs');
        const { pathToFileURL } = await import('node:url');
        const { verifyAudit } = await import(pathToFileURL(process.argv[1]).href);
        const outcome = await verifyAudit(readFileSync(process.argv[2], 'utf8'));
        console.log(JSON.stringify(outcome, (k, v) => typeof v === 'bigint' ? String(v) : v));";
    let out = tokio::process::Command::new("node")
        .args(["--input-type=module", "-e", script, verifier])
        .arg(&file)
        .output()
        .await
        .expect("Node.js runs the web client's verifier");
    let _ = std::fs::remove_file(&file);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let outcome: Value = serde_json::from_str(text.trim()).unwrap();
    (outcome["ok"] == true, text)
}

/// The `talk` notifications `user` was sent: (room, text) each.
async fn told(app: &TestApp, user: &User) -> Vec<(String, String)> {
    let page = app
        .get("/v1/me/notifications", Some(&user.token))
        .await
        .ok(200);
    page["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["type"] == "talk")
        .map(|n| {
            let m = &n["data"]["message"];
            (
                m["room"].as_str().unwrap().to_owned(),
                m["text"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// The next mail to `address` whose subject says someone spoke.
async fn talk_mail(
    catcher: &crate::mail::Catcher,
    address: &str,
    kept: &mut Vec<crate::mail::Caught>,
) -> crate::mail::Caught {
    loop {
        let mail = catcher.next_to(address, kept).await;
        if mail.subject().contains(" says ") {
            return mail;
        }
    }
}

/// A message reaches its readers who sit at the table as a `talk`
/// notification — the inbox, its stream, webhooks — and as mail per their
/// `talk` preference; press only the seats addressed; nothing from a user
/// one muted; the spectators' room tells nobody.
#[actix_web::test]
async fn messages_reach_their_readers_by_notification_stream_and_mail() {
    let catcher = crate::mail::Catcher::start().await;
    let (app, _) = crate::mail::mail_app(&catcher).await;
    let users = app.users(3).await;
    let addresses = ["p0@mail.test", "p1@mail.test", "p2@mail.test"];
    for (user, address) in users.iter().zip(addresses) {
        crate::mail::confirmed_address(&app, &catcher, user, address).await;
    }
    app.send(
        "PATCH",
        "/v1/me/email",
        Some(&users[2].token),
        &[],
        &json!({"talk": "never"}),
    )
    .await
    .ok(200);
    let watcher = app.register("watcher").await;
    let id = game(&app, &users, json!({"talk": "press"})).await;
    let stream = app.sse("/v1/me/stream", Some(&users[1].token), &[], 10, |m| {
        m.iter().any(|(_, kind, _)| kind == "talk")
    });
    let (streamed, _) = tokio::join!(stream, async {
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        say(&app, &id, &users[0], json!({"text": "<b>hi</b> all"}))
            .await
            .ok(201);
    });
    let item = streamed.iter().find(|(_, kind, _)| kind == "talk").unwrap();
    assert_eq!(item.2["data"]["message"]["text"], "<b>hi</b> all");
    say(
        &app,
        &id,
        &users[0],
        json!({"room": "press", "to": [1], "text": "just you"}),
    )
    .await
    .ok(201);
    say(
        &app,
        &id,
        &watcher,
        json!({"room": "spectators", "text": "hm"}),
    )
    .await
    .ok(201);
    assert!(told(&app, &users[0]).await.is_empty(), "not told one's own");
    assert_eq!(
        told(&app, &users[1]).await,
        [
            ("table".to_owned(), "<b>hi</b> all".to_owned()),
            ("press".to_owned(), "just you".to_owned())
        ]
    );
    assert_eq!(
        told(&app, &users[2]).await,
        [("table".to_owned(), "<b>hi</b> all".to_owned())]
    );
    let mut kept = Vec::new();
    let first = talk_mail(&catcher, addresses[1], &mut kept).await;
    assert!(
        first.subject().contains("player0 says"),
        "{}",
        first.subject()
    );
    assert!(first.text().contains("<b>hi</b> all"), "{}", first.text());
    let html = first.parsed().body_html(0).unwrap_or_default().into_owned();
    assert!(
        html.contains("&lt;b&gt;hi&lt;/b&gt;") && !html.contains("<b>hi"),
        "{html}"
    );
    let second = talk_mail(&catcher, addresses[1], &mut kept).await;
    assert!(second.text().contains("says to you"), "{}", second.text());
    assert!(second.text().contains("just you"));
    // Seat 2 turned talk mail off: its mails hold no talk.
    assert_eq!(
        app.count("mail_outbox WHERE kind = 'talk'").await,
        2,
        "seat 1's two"
    );
    // Muted: seat 1 hears no more of seat 0, anywhere.
    app.send(
        "PUT",
        "/v1/me/mutes/player0",
        Some(&users[1].token),
        &[],
        &json!(null),
    )
    .await
    .ok(200);
    say(&app, &id, &users[0], json!({"text": "still there?"}))
        .await
        .ok(201);
    assert_eq!(told(&app, &users[1]).await.len(), 2);
    assert_eq!(told(&app, &users[2]).await.len(), 2);
    assert_eq!(app.count("mail_outbox WHERE kind = 'talk'").await, 2);
}

/// A game written by a release before talk (no `talk` option) talks at the
/// table once the database is upgraded in place, and allows no press.
#[actix_web::test]
async fn games_from_before_talk_talk_at_the_table() {
    let db = crate::support::TestDb::before("2026-11-26-000100_rules_version").await;
    let in_progress = crate::upgrade::legacy("hats-2p.json");
    let upto = in_progress.events.len() - 6;
    let sql = crate::upgrade::rows_as_written_before(&in_progress, upto);
    {
        use diesel_async::SimpleAsyncConnection;
        let mut conn = hatstand::db::locate::connect(&db.url).await.unwrap();
        conn.batch_execute(&sql).await.unwrap();
    }
    let app = TestApp::spawn_on(db, |_| {}).await;
    let id = in_progress.game_id.to_string();
    let before = app.game(&id, None).await;
    assert!(before["options"].get("talk").is_none(), "as it was written");
    let users = [
        crate::upgrade::login(&app, &in_progress, 0).await,
        crate::upgrade::login(&app, &in_progress, 1).await,
    ];
    say(&app, &id, &users[0], json!({"text": "still here?"}))
        .await
        .ok(201);
    say(
        &app,
        &id,
        &users[1],
        json!({"room": "press", "to": [0], "text": "psst"}),
    )
    .await
    .assert_problem(403, "talk_not_allowed");
    assert_eq!(texts(&app, &id, Some(&users[1])).await, ["still here?"]);
    assert_eq!(app.game(&id, None).await, before, "the game is untouched");
}

/// The game's long poll and its stream, asked for talk (`talk_after`),
/// carry the messages their reader reads — the table, its seat's press, the
/// spectators' room to a watcher without a seat, nothing of a muted user —
/// resume from their positions, and without `talk_after` carry the events
/// alone, as before.
#[actix_web::test]
async fn the_games_long_poll_and_stream_carry_the_talk_each_reader_reads() {
    let app = TestApp::spawn().await;
    let users = app.users(3).await;
    let watcher = app.register("watcher").await;
    let id = game(&app, &users, json!({"talk": "press"})).await;
    say(&app, &id, &users[0], json!({"text": "hello"}))
        .await
        .ok(201);
    say(
        &app,
        &id,
        &users[0],
        json!({"room": "press", "to": [1], "text": "psst"}),
    )
    .await
    .ok(201);
    say(
        &app,
        &id,
        &watcher,
        json!({"room": "spectators", "text": "nice hand"}),
    )
    .await
    .ok(201);
    app.send(
        "PUT",
        "/v1/me/mutes/player1",
        Some(&users[2].token),
        &[],
        &json!(null),
    )
    .await
    .ok(200);
    say(&app, &id, &users[1], json!({"text": "from seat 1"}))
        .await
        .ok(201);

    let polled = async |user: Option<&User>| -> Vec<String> {
        let page = app
            .get(
                &format!("/v1/games/{id}/events?talk_after=0"),
                user.map(|u| u.token.as_str()),
            )
            .await
            .ok(200);
        assert!(!page["events"].as_array().unwrap().is_empty());
        page["talk"]["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        polled(Some(&users[0])).await,
        ["hello", "psst", "from seat 1"]
    );
    assert_eq!(
        polled(Some(&users[1])).await,
        ["hello", "psst", "from seat 1"]
    );
    assert_eq!(polled(Some(&users[2])).await, ["hello"], "muted seat 1");
    assert_eq!(
        polled(Some(&watcher)).await,
        ["hello", "nice hand", "from seat 1"]
    );
    assert_eq!(polled(None).await, ["hello", "nice hand", "from seat 1"]);

    // Paging from a position; `next` stays where it was when nothing is new.
    let page = app
        .get(
            &format!("/v1/games/{id}/events?talk_after=0"),
            Some(&users[1].token),
        )
        .await
        .ok(200);
    let first = page["talk"]["messages"][0]["cursor"].as_str().unwrap();
    let last = page["talk"]["next"].as_str().unwrap();
    let rest = app
        .get(
            &format!("/v1/games/{id}/events?talk_after={first}"),
            Some(&users[1].token),
        )
        .await
        .ok(200);
    assert_eq!(rest["talk"]["messages"].as_array().unwrap().len(), 2);
    let version = page["version"].as_i64().unwrap();
    let none = app
        .get(
            &format!("/v1/games/{id}/events?after={version}&talk_after={last}"),
            Some(&users[1].token),
        )
        .await
        .ok(200);
    assert_eq!(none["events"], json!([]));
    assert_eq!(none["talk"], json!({"messages": [], "next": last}));
    // Without talk_after: the events alone, as before.
    let plain = app
        .get(&format!("/v1/games/{id}/events"), Some(&users[1].token))
        .await
        .ok(200);
    assert!(plain.get("talk").is_none(), "{plain}");
    assert_eq!(plain["events"], page["events"]);

    // The stream: events, then the talk, each id `<seq>/<position>`.
    let seat1 = app
        .sse(
            &format!("/v1/games/{id}/stream?talk_after=0"),
            Some(&users[1].token),
            &[],
            10,
            |m| m.iter().filter(|(_, kind, _)| kind == "talk").count() == 3,
        )
        .await;
    let said: Vec<&(String, String, Value)> =
        seat1.iter().filter(|(_, kind, _)| kind == "talk").collect();
    assert_eq!(said[1].2["text"], "psst");
    assert_eq!(
        said[1].0,
        format!("{version}/{}", said[1].2["cursor"].as_str().unwrap())
    );
    let events = seat1.len() - 3;
    assert_eq!(events as i64, version);
    assert_eq!(seat1[0].0, "1/0", "an event before any talk");
    // Resumed after the press: the table message after it, no events again.
    let resumed = app
        .sse(
            &format!("/v1/games/{id}/stream?talk_after=0"),
            Some(&users[1].token),
            &[("Last-Event-ID", said[1].0.as_str())],
            10,
            |m| !m.is_empty(),
        )
        .await;
    assert_eq!(resumed[0].1, "talk");
    assert_eq!(resumed[0].2["text"], "from seat 1");
    // A message said while the stream is open arrives on it; press to
    // others and the spectators' room do not reach seat 2.
    let live_path = format!("/v1/games/{id}/stream?after={version}&talk_after={last}");
    let live = app.sse(&live_path, Some(&users[2].token), &[], 10, |m| {
        !m.is_empty()
    });
    let (live, ()) = tokio::join!(live, async {
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        say(
            &app,
            &id,
            &users[0],
            json!({"room": "press", "to": [1], "text": "again"}),
        )
        .await
        .ok(201);
        say(
            &app,
            &id,
            &watcher,
            json!({"room": "spectators", "text": "hm"}),
        )
        .await
        .ok(201);
        say(&app, &id, &users[0], json!({"text": "live"}))
            .await
            .ok(201);
    });
    assert_eq!(live.len(), 1);
    assert_eq!(live[0].2["text"], "live");
    // Without talk_after, the stream is the events alone, with their seqs.
    let plain = app
        .sse(
            &format!("/v1/games/{id}/stream"),
            Some(&users[1].token),
            &[],
            10,
            |m| m.len() as i64 == version,
        )
        .await;
    assert!(
        plain
            .iter()
            .all(|(id, kind, _)| kind != "talk" && !id.contains('/'))
    );

    // Bad positions: 400, for the long poll and the stream.
    for bad in ["abc", "1_x", "00"] {
        app.get(
            &format!("/v1/games/{id}/events?talk_after={bad}"),
            Some(&users[1].token),
        )
        .await
        .assert_problem(400, "bad_request");
        app.get(
            &format!("/v1/games/{id}/stream?talk_after={bad}"),
            Some(&users[1].token),
        )
        .await
        .assert_problem(400, "bad_request");
    }
    let reply = app
        .request(
            "GET",
            &format!("/v1/games/{id}/stream"),
            Some(&users[1].token),
            &[("Last-Event-ID", "x/0")],
        )
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status().as_u16(), 400);
}

/// Plays game `id` on until seat `seat`, having moved and waited for
/// others, is to act again: the seat to act plays its first legal command
/// each time (`seat` first, when it is).
async fn until_to_act_again(app: &TestApp, id: &str, users: &[User], seat: usize) {
    let (mut moved, mut waited) = (false, false);
    for _ in 0..200 {
        let seen = app.game(id, Some(&users[0])).await;
        let to_act: Vec<usize> = seen["to_act"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap() as usize)
            .collect();
        waited |= moved && !to_act.contains(&seat);
        if waited && to_act.contains(&seat) {
            return;
        }
        let next = if to_act.contains(&seat) {
            seat
        } else {
            to_act[0]
        };
        let mine = app.game(id, Some(&users[next])).await;
        app.command(
            id,
            &users[next],
            mine["version"].as_i64().unwrap(),
            &mine["legal_commands"][0],
        )
        .await
        .ok(200);
        moved |= next == seat;
    }
    panic!("seat {seat} was not to act again");
}

/// The next turn mail to `address`.
async fn turn_mail(
    catcher: &crate::mail::Catcher,
    address: &str,
    kept: &mut Vec<crate::mail::Caught>,
) -> crate::mail::Caught {
    loop {
        let mail = catcher.next_to(address, kept).await;
        if mail.subject().contains("your turn") {
            return mail;
        }
    }
}

/// A turn mail lists what was said to its reader since their last turn
/// mail: the table and press to them, not press to others, not the
/// spectators' room, not their own words, not a user they muted — even
/// with talk mails turned off.
#[actix_web::test]
async fn a_turn_mail_lists_what_was_said_to_its_reader_since_the_last() {
    let catcher = crate::mail::Catcher::start().await;
    let (app, _) = crate::mail::mail_app(&catcher).await;
    let users = app.users(3).await;
    let addresses = ["p0@mail.test", "p1@mail.test", "p2@mail.test"];
    for (user, address) in users.iter().zip(addresses) {
        crate::mail::confirmed_address(&app, &catcher, user, address).await;
        app.send(
            "PATCH",
            "/v1/me/email",
            Some(&user.token),
            &[],
            &json!({"talk": "never"}),
        )
        .await
        .ok(200);
    }
    let watcher = app.register("watcher").await;
    let id = game(&app, &users, json!({"talk": "press"})).await;
    let seat = app.game(&id, None).await["to_act"][0].as_u64().unwrap() as usize;
    let (one, two) = ((seat + 1) % 3, (seat + 2) % 3);
    let mut kept = Vec::new();
    let first = turn_mail(&catcher, addresses[seat], &mut kept).await;
    assert!(!first.text().contains("Said since"), "{}", first.text());
    app.send(
        "PUT",
        &format!("/v1/me/mutes/player{two}"),
        Some(&users[seat].token),
        &[],
        &json!(null),
    )
    .await
    .ok(200);
    say(&app, &id, &users[one], json!({"text": "hello <b>all</b>"}))
        .await
        .ok(201);
    say(
        &app,
        &id,
        &users[one],
        json!({"room": "press", "to": [seat], "text": "just for you"}),
    )
    .await
    .ok(201);
    say(
        &app,
        &id,
        &users[one],
        json!({"room": "press", "to": [two], "text": "not for the reader"}),
    )
    .await
    .ok(201);
    say(&app, &id, &users[two], json!({"text": "muted words"}))
        .await
        .ok(201);
    say(&app, &id, &users[seat], json!({"text": "my own words"}))
        .await
        .ok(201);
    say(
        &app,
        &id,
        &watcher,
        json!({"room": "spectators", "text": "from the rail"}),
    )
    .await
    .ok(201);
    until_to_act_again(&app, &id, &users, seat).await;
    let next = turn_mail(&catcher, addresses[seat], &mut kept).await;
    let text = crate::mail::flat(&next.text());
    assert!(text.contains("Said since your last turn mail:"), "{text}");
    assert!(
        text.contains(&format!("player{one}: hello <b>all</b>")),
        "{text}"
    );
    assert!(
        text.contains(&format!("player{one} to you: just for you")),
        "{text}"
    );
    for unread in [
        "not for the reader",
        "muted words",
        "my own words",
        "from the rail",
    ] {
        assert!(!text.contains(unread), "{unread}: {text}");
    }
    let html = next.parsed().body_html(0).unwrap_or_default().into_owned();
    assert!(html.contains("hello &lt;b&gt;all&lt;/b&gt;"), "{html}");
    assert_eq!(app.count("mail_outbox WHERE kind = 'talk'").await, 0);
}

/// A reply to a talk mail, through the server's SMTP listener, is said in
/// the game: at the table when it answers the table, to the author alone
/// when it answers press; without what it quotes; once; and only from the
/// reader's confirmed address.
#[actix_web::test]
async fn a_reply_to_a_talk_mail_is_said_at_the_table_or_to_the_author_alone() {
    let catcher = crate::mail::Catcher::start().await;
    let (app, listen) = crate::mail::mail_app(&catcher).await;
    let users = app.users(3).await;
    let addresses = ["p0@mail.test", "p1@mail.test", "p2@mail.test"];
    for (user, address) in users.iter().zip(addresses) {
        crate::mail::confirmed_address(&app, &catcher, user, address).await;
    }
    let id = game(&app, &users, json!({"talk": "press"})).await;
    let mut kept = Vec::new();
    say(&app, &id, &users[0], json!({"text": "who leads?"}))
        .await
        .ok(201);
    let asked = talk_mail(&catcher, addresses[1], &mut kept).await;
    let to = asked.reply_to().expect("a talk mail has a reply address");
    assert!(
        to.starts_with("talk+") && to.ends_with("@play.test"),
        "{to}"
    );
    let raw = crate::mail::reply(addresses[1], &to, "r1@client.test", &asked, "I do.");
    crate::mail::smtp_in(listen, addresses[1], &to, &raw)
        .await
        .unwrap();
    let answered = app
        .get(&format!("/v1/games/{id}/talk"), Some(&users[2].token))
        .await
        .ok(200);
    let last = answered["messages"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last["text"], "I do.");
    assert_eq!(last["room"], "table");
    assert_eq!(last["from"]["username"], "player1");
    // The same mail again is not said again; another sender is not the reader.
    assert!(
        crate::mail::smtp_in(listen, addresses[1], &to, &raw)
            .await
            .is_err()
    );
    let forged = crate::mail::reply(addresses[2], &to, "r2@client.test", &asked, "forged");
    assert!(
        crate::mail::smtp_in(listen, addresses[2], &to, &forged)
            .await
            .is_err()
    );
    assert_eq!(app.count("talk_messages WHERE body = 'I do.'").await, 1);
    assert_eq!(app.count("talk_messages WHERE body = 'forged'").await, 0);

    // Press: the answer goes to the author alone.
    say(
        &app,
        &id,
        &users[0],
        json!({"room": "press", "to": [1, 2], "text": "shall we?"}),
    )
    .await
    .ok(201);
    let press = talk_mail(&catcher, addresses[1], &mut kept).await;
    assert!(
        press.text().contains("answer them alone"),
        "{}",
        press.text()
    );
    let to = press.reply_to().unwrap();
    let raw = crate::mail::reply(addresses[1], &to, "r3@client.test", &press, "Agreed.");
    crate::mail::smtp_in(listen, addresses[1], &to, &raw)
        .await
        .unwrap();
    assert!(
        !texts(&app, &id, Some(&users[2]))
            .await
            .contains(&"Agreed.".to_owned())
    );
    let seat0 = app
        .get(&format!("/v1/games/{id}/talk"), Some(&users[0].token))
        .await
        .ok(200);
    let agreed = seat0["messages"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(agreed["text"], "Agreed.");
    assert_eq!(
        (agreed["room"].clone(), agreed["to"].clone()),
        (json!("press"), json!([0]))
    );
    // A move's reply address does not say talk, nor a talk address move.
    let moved = app.count("talk_messages").await;
    let bogus = to.replacen("talk+", "play+", 1);
    let raw = crate::mail::reply(addresses[1], &bogus, "r4@client.test", &press, "1");
    assert!(
        crate::mail::smtp_in(listen, addresses[1], &bogus, &raw)
            .await
            .is_err()
    );
    assert_eq!(app.count("talk_messages").await, moved);
}

/// Runs `hatstand talk …` against `app`'s database: (success, stdout, stderr).
async fn talk_cli(app: &TestApp, args: &[&str]) -> (bool, String, String) {
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_hatstand"))
        .arg("talk")
        .args(args)
        .env("DATABASE_URL", &app.db.url)
        .env("RUST_LOG", "off")
        .output()
        .await
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `hatstand talk reported` lists the reported messages with their
/// reasons; `hatstand talk hide` hides one as an operator, keeping why.
#[actix_web::test]
async fn operators_list_reported_messages_and_hide_them_from_the_command_line() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let operator = app.register("operator").await;
    let id = game(&app, &users, json!({})).await;
    let rude = say(&app, &id, &users[0], json!({"text": "rude words"}))
        .await
        .ok(201);
    let message = rude["id"].as_str().unwrap().to_owned();
    let fine = say(&app, &id, &users[0], json!({"text": "fine words"}))
        .await
        .ok(201);
    let (ok, out, err) = talk_cli(&app, &["reported"]).await;
    assert!(ok && out.is_empty(), "{out}{err}");
    app.post(
        &format!("/v1/games/{id}/talk/{message}/report"),
        Some(&users[1].token),
        &json!({"reason": "insults"}),
    )
    .await
    .ok(204);
    let (ok, out, err) = talk_cli(&app, &["reported"]).await;
    assert!(ok, "{err}");
    assert!(
        out.contains(&message) && out.contains("insults") && out.contains("rude words"),
        "{out}"
    );
    assert!(!out.contains("fine words"), "{out}");

    let hide = |who: &'static str, which: String| {
        let id = id.clone();
        let app = &app;
        async move {
            talk_cli(
                app,
                &["hide", &id, &which, "--operator", who, "--reason", "spam"],
            )
            .await
        }
    };
    // Not an operator, then a message nobody reported: refused, nothing hidden.
    let (ok, _, err) = hide("operator", message.clone()).await;
    assert!(!ok && err.contains("forbidden"), "{err}");
    app.sql(&format!(
        "INSERT INTO operators VALUES ('{}', now())",
        operator.id
    ))
    .await;
    let (ok, _, err) = hide("operator", fine["id"].as_str().unwrap().to_owned()).await;
    assert!(!ok && err.contains("not_reported"), "{err}");
    assert_eq!(
        app.count("talk_messages WHERE hidden_at IS NOT NULL").await,
        0
    );
    let (ok, out, err) = hide("operator", message.clone()).await;
    assert!(ok, "{err}");
    assert!(out.contains(&message), "{out}");
    assert_eq!(
        app.count(&format!(
            "talk_messages WHERE hidden_reason = 'spam' AND hidden_by = '{}'",
            operator.id
        ))
        .await,
        1
    );
    assert_eq!(
        texts(&app, &id, Some(&users[1])).await,
        ["<hidden>", "fine words"]
    );
    // Hidden, it leaves the list unless asked for.
    let (_, out, _) = talk_cli(&app, &["reported"]).await;
    assert!(out.is_empty(), "{out}");
    let (_, out, _) = talk_cli(&app, &["reported", "--hidden"]).await;
    assert!(out.contains("(hidden)"), "{out}");
    let (ok, _, err) = talk_cli(&app, &["reported", "--limit", "0"]).await;
    assert!(!ok && err.contains("bad_request"), "{err}");
}
