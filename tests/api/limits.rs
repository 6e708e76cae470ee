//! The limits of `docs/limits.md`, held under concurrency: bursts are sent
//! at once, and what they cost is counted in the database afterwards.

use futures_util::future::join_all;
use serde_json::{Value, json};

use crate::support::{Reply, TestApp};

/// A server behind a proxy at 127.0.0.1, so that each request may name its
/// client address in `X-Forwarded-For`; `adjust` changes more settings.
async fn proxied(adjust: impl FnOnce(&mut hatstand::config::Settings)) -> TestApp {
    TestApp::spawn_with(|s| {
        s.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
        adjust(s);
    })
    .await
}

/// `POST path` with `body`, from client address `from`.
async fn from(app: &TestApp, from: &str, path: &str, token: Option<&str>, body: &Value) -> Reply {
    app.send("POST", path, token, &[("X-Forwarded-For", from)], body)
        .await
}

async fn login(app: &TestApp, address: &str, name: &str, password: &str) -> Reply {
    let body = json!({"username": name, "password": password});
    from(app, address, "/v1/auth/login", None, &body).await
}

/// How many of `replies` have `status`; every 429 and 503 must carry a
/// problem code and `Retry-After`.
fn count(replies: &[Reply], status: u16) -> usize {
    for reply in replies {
        if matches!(reply.status.as_u16(), 429 | 503) {
            assert!(!reply.code().is_empty(), "{}", reply.body);
            let secs: u64 = reply.header("retry-after").parse().unwrap();
            assert!(secs >= 1);
        }
    }
    replies
        .iter()
        .filter(|r| r.status.as_u16() == status)
        .count()
}

/// Moves every limit window of the database back by `minutes`, as if that
/// time had passed.
async fn time_passes(app: &TestApp, minutes: u32) {
    app.sql(&format!(
        "UPDATE limit_windows SET window_start = window_start - interval '{minutes} minutes',
                                  last_at = last_at - interval '{minutes} minutes'"
    ))
    .await;
}

#[actix_web::test]
async fn fifty_wrong_passwords_at_once_get_five_checked_and_the_right_one_waits_out_the_window() {
    let app = &proxied(|_| {}).await;
    app.register("ann").await;
    let pair = hatstand::config::LimitSettings::default().login_pair_failures as usize;
    // Given 50 wrong passwords for ann from one address, sent at once …
    let burst = join_all((0..50).map(|_| login(app, "203.0.113.9", "ann", "wrong-password"))).await;
    // … only the limit's worth were checked (401); the rest were refused
    // before hashing (429 rate_limited with Retry-After).
    assert_eq!(count(&burst, 401), pair);
    assert_eq!(count(&burst, 429), 50 - pair);
    assert!(
        burst
            .iter()
            .filter(|r| r.status == 429)
            .all(|r| r.code() == "rate_limited")
    );
    // The right password from that address is refused until the window ends …
    let refused = login(app, "203.0.113.9", "ann", "password123").await;
    refused.assert_problem(429, "rate_limited");
    let wait: i64 = refused.header("retry-after").parse().unwrap();
    assert!((14 * 60..=15 * 60).contains(&wait), "{wait}");
    time_passes(app, 14).await;
    login(app, "203.0.113.9", "ann", "password123")
        .await
        .assert_problem(429, "rate_limited");
    // … while from another address ann signs in at once: nobody locked her out.
    login(app, "198.51.100.7", "ann", "password123")
        .await
        .ok(200);
    time_passes(app, 2).await;
    login(app, "203.0.113.9", "ann", "password123")
        .await
        .ok(200);
}

#[actix_web::test]
async fn failures_from_many_addresses_slow_the_account_but_not_its_usual_address_nor_its_refresh_token()
 {
    let app = &proxied(|s| s.limits.login_account_delay_secs = 60).await;
    app.register("bea").await;
    // bea signs in from her usual address, and keeps the refresh token.
    let session = login(app, "198.51.100.1", "bea", "password123")
        .await
        .ok(200);
    let free = crate::support::settings(&app.db.url).login_account_failures as usize;
    // Given 50 wrong passwords for bea at once, each from its own address …
    let burst = join_all((1..=50).map(|n| {
        let address = format!("203.0.113.{n}");
        async move { login(app, &address, "bea", "wrong-password").await }
    }))
    .await;
    // … the account's free failures were checked, and no more.
    assert_eq!(count(&burst, 401), free);
    assert_eq!(count(&burst, 429), 50 - free);
    // From a new address, even the right password waits (slowed, not locked) …
    let slowed = login(app, "192.0.2.200", "bea", "password123").await;
    slowed.assert_problem(429, "rate_limited");
    let wait: u64 = slowed.header("retry-after").parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    // … but not from her usual address, nor with her refresh token.
    login(app, "198.51.100.1", "bea", "password123")
        .await
        .ok(200);
    app.post(
        "/v1/auth/refresh",
        None,
        &json!({"refresh_token": session["refresh_token"]}),
    )
    .await
    .ok(200);
    // Once the wait has passed, the new address signs in too.
    time_passes(app, 2).await;
    login(app, "192.0.2.200", "bea", "password123")
        .await
        .ok(200);
}

#[actix_web::test]
async fn a_full_password_queue_answers_busy_at_once_and_writes_nothing() {
    let app = &proxied(|s| s.limits.password_queue = 1).await;
    let cy = app.register("cyd").await;
    for n in 1..=20 {
        login(app, &format!("203.0.113.{n}"), "cyd", "password123")
            .await
            .ok(200);
    }
    let sessions = app.count("sessions").await;
    // Given 20 right passwords at once, each from its own usual address …
    let burst = join_all((1..=20).map(|n| {
        let address = format!("203.0.113.{n}");
        async move { login(app, &address, "cyd", "password123").await }
    }))
    .await;
    // … some are checked, the rest answer 503 busy at once; only the
    // checked ones start sessions, and a refused one counts no failure.
    let (signed_in, busy) = (count(&burst, 200), count(&burst, 503));
    assert_eq!(signed_in + busy, 20);
    assert!(
        signed_in >= 1 && busy >= 1,
        "{signed_in} signed in, {busy} busy"
    );
    assert!(
        burst
            .iter()
            .filter(|r| r.status == 503)
            .all(|r| r.code() == "busy")
    );
    assert_eq!(app.count("sessions").await, sessions + signed_in as i64);
    assert_eq!(app.count("limit_windows WHERE used > 0").await, 0);
    // A signed-in request never goes through the password threads.
    app.get("/v1/me/games", Some(&cy.token)).await.ok(200);
}

#[actix_web::test]
async fn registrations_from_one_address_are_limited_even_when_sent_at_once() {
    let app = &proxied(|s| s.limits.registrations_per_address = 3).await;
    let users = app.count("users").await;
    let burst = join_all((0..10).map(|n| {
        let body = json!({"username": format!("reg{n}"), "password": "password123"});
        async move { from(app, "203.0.113.5", "/v1/auth/register", None, &body).await }
    }))
    .await;
    assert_eq!(count(&burst, 201), 3);
    assert_eq!(count(&burst, 429), 7);
    assert!(
        burst
            .iter()
            .filter(|r| r.status == 429)
            .all(|r| r.code() == "limit_reached")
    );
    assert_eq!(app.count("users").await, users + 3);
    // Another address registers as usual.
    let body = json!({"username": "elsewhere", "password": "password123"});
    from(app, "198.51.100.5", "/v1/auth/register", None, &body)
        .await
        .ok(201);
}

#[actix_web::test]
async fn confirmation_codes_are_limited_per_client_address_and_per_mailbox() {
    let app = &proxied(|s| {
        s.limits.codes_per_address = 3;
        s.limits.codes_per_mailbox = 2;
    })
    .await;
    let users = app.users(6).await;
    let set = |n: usize, client: &'static str, mailbox: &'static str| {
        let token = users[n].token.clone();
        async move {
            app.send(
                "PUT",
                "/v1/me/email",
                Some(&token),
                &[("X-Forwarded-For", client)],
                &json!({"address": mailbox}),
            )
            .await
        }
    };
    // Three accounts ask codes for carol's mailbox at once: two are mailed.
    let burst = join_all((0..3).map(|n| set(n, "203.0.113.1", "carol@mail.test"))).await;
    assert_eq!(count(&burst, 200), 2);
    assert_eq!(count(&burst, 429), 1);
    let outbox = app.count("mail_outbox").await;
    set(3, "198.51.100.1", "CAROL@mail.test")
        .await
        .assert_problem(429, "limit_reached");
    assert_eq!(app.count("mail_outbox").await, outbox);
    // The first client address has asked for two codes that were sent (a
    // refused one counts for nothing): one more, and it is done …
    set(3, "203.0.113.1", "dan@mail.test").await.ok(200);
    set(4, "203.0.113.1", "eve@mail.test")
        .await
        .assert_problem(429, "limit_reached");
    // … another one is not.
    set(4, "198.51.100.2", "eve@mail.test").await.ok(200);
}

#[actix_web::test]
async fn games_a_user_creates_are_limited_per_hour_even_when_sent_at_once() {
    let app = &TestApp::spawn_with(|s| s.limits.games_per_hour = 3).await;
    let eve = app.register("eve").await;
    let body = json!({"ruleset": "hats", "players": 3});
    let burst = join_all((0..10).map(|_| app.post("/v1/games", Some(&eve.token), &body))).await;
    assert_eq!(count(&burst, 201), 3);
    assert_eq!(count(&burst, 429), 7);
    assert!(
        burst
            .iter()
            .filter(|r| r.status == 429)
            .all(|r| r.code() == "limit_reached")
    );
    assert_eq!(app.count("games").await, 3);
    // Others still create games; eve again once the hour has passed.
    let fay = app.register("fay").await;
    app.created_game(&fay, &body).await;
    time_passes(app, 61).await;
    app.created_game(&eve, &body).await;
}

#[actix_web::test]
async fn games_open_at_once_bots_alone_and_strong_bots_are_limited() {
    let app = &TestApp::spawn_with(|s| {
        s.limits.games_at_once = 3;
        s.limits.bot_games_at_once = 1;
        s.limits.strong_bots_at_once = 3;
        // The bots do not play: the games stay in play.
        s.background.bot_tick_ms = 0;
    })
    .await;
    let gus = &app.register("gus").await;
    let create = |body: Value| async move { app.post("/v1/games", Some(&gus.token), &body).await };
    // A game of two strong bots alone, started at once.
    let bots_only =
        json!({"ruleset": "hats", "players": 2, "join": false, "bots": ["ismcts", "ismcts"]});
    let first = create(bots_only.clone()).await.ok(201);
    assert_eq!(first["status"], "active");
    // A second game of bots alone is one too many …
    create(json!({"ruleset": "hats", "players": 2, "join": false, "bots": ["random", "random"]}))
        .await
        .assert_problem(429, "limit_reached");
    // … and so is a third strong bot at gus's own table, but a weaker one is not.
    let with_strong = json!({"ruleset": "hats", "players": 3, "bots": ["ismcts", "ismcts"]});
    create(with_strong)
        .await
        .assert_problem(429, "limit_reached");
    create(json!({"ruleset": "hats", "players": 3, "bots": ["greedy"]}))
        .await
        .ok(201);
    // Three games at once, concurrently asked for two more: refused both.
    let open = json!({"ruleset": "hats", "players": 3});
    create(open.clone()).await.ok(201);
    let burst = join_all((0..2).map(|_| create(open.clone()))).await;
    assert_eq!(count(&burst, 429), 2);
    assert_eq!(app.count("games").await, 3);
    // A game that ends frees its place.
    let id = first["id"].as_str().unwrap();
    app.sql(&format!(
        "UPDATE games SET status = 'finished' WHERE id = '{id}'"
    ))
    .await;
    create(open).await.ok(201);
}

#[actix_web::test]
async fn invitations_beyond_the_limits_are_listed_but_not_sent() {
    let app = &TestApp::spawn_with(|s| {
        s.limits.invitations_received_per_day = 2;
        s.limits.invitations_per_hour = 3;
        // Deliveries are queued, not attempted.
        s.background.webhook_tick_ms = 0;
    })
    .await;
    let users = app.users(4).await;
    let (hal, carol, dee) = (&users[0], &users[1], &users[3]);
    for user in [carol, &users[2], dee] {
        app.post(
            "/v1/me/webhooks",
            Some(&user.token),
            &json!({"url": "http://127.0.0.1:9/hook"}),
        )
        .await
        .ok(201);
    }
    // Given three games inviting carol, created at once …
    let invite = |names: Vec<&str>| {
        let body = json!({"ruleset": "hats", "players": 3, "invitees": names});
        async move { app.post("/v1/games", Some(&hal.token), &body).await }
    };
    let games = join_all((0..3).map(|_| invite(vec!["player1"]))).await;
    assert_eq!(count(&games, 201), 3);
    // … all three are hers to see and join, and in her feed …
    let notes = app
        .get("/v1/me/notifications", Some(&carol.token))
        .await
        .ok(200);
    let invited = notes["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["type"] == "invited")
        .count();
    assert_eq!(invited, 3);
    assert_eq!(
        app.count(&format!("invitations WHERE user_id = '{}'", carol.id))
            .await,
        3
    );
    // … but only two were sent on.
    let sent = |user: &crate::support::User| {
        let sql = format!("webhook_deliveries WHERE user_id = '{}'", user.id);
        async move { app.count(&sql).await }
    };
    assert_eq!(sent(carol).await, 2);
    // hal has had two of his three sent this hour (one that was not sent
    // counts for neither): of two more, one is sent.
    invite(vec!["player2", "player3"]).await.ok(201);
    assert_eq!(sent(&users[2]).await + sent(dee).await, 1);
}

#[actix_web::test]
async fn anonymous_streams_and_long_polls_are_limited_per_address() {
    let app = &TestApp::spawn_with(|s| s.limits.streams_per_address = 2).await;
    let users = app.users(2).await;
    let (id, _, _) = app.opening(&users).await;
    let path = format!("/v1/games/{id}/stream");
    let open = || app.request("GET", &path, None, &[]).send();
    let first = open().await.unwrap();
    let second = open().await.unwrap();
    assert_eq!(
        (first.status().as_u16(), second.status().as_u16()),
        (200, 200)
    );
    // A third stream without a token, and a long poll, are refused …
    let third = TestApp::reply(open().await.unwrap()).await;
    third.assert_problem(429, "limit_reached");
    assert_eq!(third.header("retry-after"), "5");
    app.get(&format!("/v1/games/{id}/events?after=1000&wait=5"), None)
        .await
        .assert_problem(429, "limit_reached");
    // … a plain read is not, and a player's stream counts as theirs.
    app.get(&format!("/v1/games/{id}/events"), None)
        .await
        .ok(200);
    let mine = app
        .request("GET", &path, Some(&users[0].token), &[])
        .send()
        .await
        .unwrap();
    assert_eq!(mine.status().as_u16(), 200);
    drop((first, second, mine));
}

#[actix_web::test]
async fn a_webhook_error_does_not_tell_an_inward_name_from_one_that_does_not_resolve() {
    let app = &TestApp::spawn_with(|s| s.background.webhook_allow_private = false).await;
    let users = app.users(3).await;
    // `127.1` is no IP literal to a URL parser, but resolves to 127.0.0.1.
    let urls = ["http://127.1:9/hook", "http://no-such-host.invalid:9/hook"];
    for (user, url) in users[1..].iter().zip(urls) {
        app.post("/v1/me/webhooks", Some(&user.token), &json!({"url": url}))
            .await
            .ok(201);
    }
    let body = json!({"ruleset": "hats", "players": 3, "invitees": ["player1", "player2"]});
    app.created_game(&users[0], &body).await;
    let mut errors = Vec::new();
    for user in &users[1..] {
        errors.push(
            app.eventually(20, || async {
                let hooks = app.get("/v1/me/webhooks", Some(&user.token)).await.ok(200);
                hooks[0]["last_error"].as_str().map(str::to_owned)
            })
            .await,
        );
    }
    assert_eq!(errors[0], errors[1]);
    assert!(
        errors[0].contains("could not connect to the receiver"),
        "{}",
        errors[0]
    );
}

#[actix_web::test]
async fn a_webhook_at_an_ipv6_literal_is_delivered() {
    // A receiver on [::1] that answers 204 to whatever comes.
    let listener = std::net::TcpListener::bind("[::1]:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        use std::io::{Read, Write};
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut buf = [0u8; 16 * 1024];
            let _ = stream.read(&mut buf);
            let _ = stream.write_all(
                b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            );
        }
    });
    // Loopback is allowed here (as for receivers on a private network); the
    // literal is connected to as itself.
    let app = &TestApp::spawn().await;
    let users = app.users(2).await;
    let url = format!("http://[::1]:{port}/hook");
    app.post(
        "/v1/me/webhooks",
        Some(&users[1].token),
        &json!({"url": url}),
    )
    .await
    .ok(201);
    let body = json!({"ruleset": "hats", "players": 2, "invitees": ["player1"]});
    app.created_game(&users[0], &body).await;
    let hooks = app
        .eventually(20, || async {
            let hooks = app
                .get("/v1/me/webhooks", Some(&users[1].token))
                .await
                .ok(200);
            (hooks[0]["delivered"] == 1 || hooks[0]["last_error"].is_string()).then_some(hooks)
        })
        .await;
    assert_eq!(hooks[0]["delivered"], 1, "{hooks}");
    assert_eq!(hooks[0]["last_status"], 204);
}
