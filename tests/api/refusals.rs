//! What a refusal costs: a client address over a limit of its own is
//! refused by the process that learnt it from the shared count, without a
//! database round trip, while the shared count stays the authority for
//! every other process (`docs/limits.md`, "Refusals stay cheap").

use serde_json::{Value, json};

use crate::support::{Reply, TestApp};

/// `POST path` with `body` to the server at `base`.
async fn post_to(app: &TestApp, base: &str, path: &str, body: &Value) -> Reply {
    TestApp::reply(
        app.client
            .post(format!("{base}{path}"))
            .send_json(body)
            .await
            .unwrap(),
    )
    .await
}

/// A wrong login for an unknown account `n` (no account limit applies).
fn wrong(n: usize) -> Value {
    json!({"username": format!("nobody{n}"), "password": "not-the-password"})
}

fn retry_after(reply: &Reply) -> u64 {
    reply.header("retry-after").parse().unwrap()
}

/// Asserts that `reply` is the very refusal `first` was (status, problem
/// code, title, detail, content type), with a `Retry-After` no later.
#[track_caller]
fn same_refusal(reply: &Reply, first: &Reply, code: &str) {
    reply.assert_problem(429, code);
    for field in ["type", "title", "detail", "code"] {
        assert_eq!(reply.body[field], first.body[field], "{field}");
    }
    let (now, then) = (retry_after(reply), retry_after(first));
    assert!(
        now <= then && now + 5 >= then,
        "Retry-After {now} after {then}"
    );
}

#[actix_web::test]
async fn wrong_logins_over_the_address_limit_need_no_database_and_other_processes_share_the_count()
{
    let limit = 3;
    let app = TestApp::spawn_with(|s| s.login_address_failures = limit).await;
    let mut settings = crate::support::settings(&app.db.url);
    settings.login_address_failures = limit;
    let other = crate::support::start_server(&app.db.url, &settings).await;
    // Given wrong logins from one address spread over two processes: the
    // shared count adds them up, so the process that sent two refuses the
    // next one …
    post_to(&app, &app.base, "/v1/auth/login", &wrong(0))
        .await
        .assert_problem(401, "unauthenticated");
    post_to(&app, &other, "/v1/auth/login", &wrong(1))
        .await
        .assert_problem(401, "unauthenticated");
    post_to(&app, &app.base, "/v1/auth/login", &wrong(2))
        .await
        .assert_problem(401, "unauthenticated");
    let first = post_to(&app, &app.base, "/v1/auth/login", &wrong(3)).await;
    first.assert_problem(429, "rate_limited");
    assert!(retry_after(&first) > 800, "the window's end, 15 minutes on");
    // … when the database can no longer be reached at all (the server's
    // pooled connections ended, new ones refused), then that process still
    // answers a storm from the address with the same refusal: it made no
    // round trip (one would answer 503) …
    app.database_reachable(false).await;
    for n in 4..40 {
        let reply = post_to(&app, &app.base, "/v1/auth/login", &wrong(n)).await;
        same_refusal(&reply, &first, "rate_limited");
    }
    // … (while a request that needs the database cannot be answered) …
    let unreachable = post_to(&app, &other, "/v1/auth/login", &wrong(40)).await;
    assert_eq!(unreachable.status.as_u16(), 503, "{}", unreachable.body);
    app.database_reachable(true).await;
    // … and the storm counted nothing, while the process that has not
    // been refused asks the shared count, which refuses the address too.
    assert_eq!(
        app.count("limit_windows WHERE key = 'login-address:127.0.0.1' AND used = 3")
            .await,
        1
    );
    let mut asked = post_to(&app, &other, "/v1/auth/login", &wrong(41)).await;
    for _ in 0..20 {
        // (its pooled connections died: the first may meet a dead one)
        if asked.status.as_u16() != 503 {
            break;
        }
        asked = post_to(&app, &other, "/v1/auth/login", &wrong(41)).await;
    }
    same_refusal(&asked, &first, "rate_limited");
}

#[actix_web::test]
async fn sign_ups_over_the_address_limit_need_no_database_and_other_processes_share_the_count() {
    let limit = 2;
    let app = TestApp::spawn_with(|s| s.limits.registrations_per_address = limit).await;
    let mut settings = crate::support::settings(&app.db.url);
    settings.limits.registrations_per_address = limit;
    let other = crate::support::start_server(&app.db.url, &settings).await;
    let sign_up = |n: usize| json!({"username": format!("new{n}"), "password": "password123"});
    // Given sign-ups from one address in two processes, up to the limit …
    post_to(&app, &app.base, "/v1/auth/register", &sign_up(0))
        .await
        .ok(201);
    post_to(&app, &other, "/v1/auth/register", &sign_up(1))
        .await
        .ok(201);
    let first = post_to(&app, &app.base, "/v1/auth/register", &sign_up(2)).await;
    first.assert_problem(429, "limit_reached");
    // … when the database cannot be reached, the refused process still
    // refuses the address the same way …
    app.database_reachable(false).await;
    for n in 3..20 {
        let reply = post_to(&app, &app.base, "/v1/auth/register", &sign_up(n)).await;
        same_refusal(&reply, &first, "limit_reached");
    }
    app.database_reachable(true).await;
    // … and the other process is refused by the shared count; nothing more
    // was written.
    let mut asked = post_to(&app, &other, "/v1/auth/register", &sign_up(20)).await;
    for _ in 0..20 {
        if asked.status.as_u16() != 503 {
            break;
        }
        asked = post_to(&app, &other, "/v1/auth/register", &sign_up(20)).await;
    }
    same_refusal(&asked, &first, "limit_reached");
    assert_eq!(app.count("users WHERE username LIKE 'new%'").await, 2);
}
