//! `/metrics`: the series an operator alerts on exist, carry labels from
//! fixed sets (route patterns, never ids), and follow what the server did.

use std::collections::BTreeMap;

use serde_json::json;

use crate::support::{TestApp, User};

/// One scrape: each sample's name and labels, with its value.
struct Scrape(Vec<(String, BTreeMap<String, String>, f64)>);

impl Scrape {
    fn parse(page: &str) -> Scrape {
        let mut samples = Vec::new();
        for line in page
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let (series, value) = line.rsplit_once(' ').unwrap();
            let (name, labels) = match series.split_once('{') {
                Some((name, labels)) => (name, labels.trim_end_matches('}')),
                None => (series, ""),
            };
            let labels = labels
                .split(',')
                .filter(|l| !l.is_empty())
                .map(|l| {
                    let (k, v) = l.split_once('=').unwrap();
                    (k.to_owned(), v.trim_matches('"').to_owned())
                })
                .collect();
            samples.push((name.to_owned(), labels, value.parse().unwrap()));
        }
        Scrape(samples)
    }

    /// The value of the one sample of `name` whose labels include `labels`.
    fn value(&self, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
        let matching: Vec<f64> = self
            .0
            .iter()
            .filter(|(n, l, _)| {
                n == name
                    && labels
                        .iter()
                        .all(|(k, v)| l.get(*k).map(String::as_str) == Some(v))
            })
            .map(|(_, _, v)| *v)
            .collect();
        assert!(matching.len() <= 1, "{name} {labels:?}: {matching:?}");
        matching.first().copied()
    }
}

async fn scrape(app: &TestApp) -> Scrape {
    let reply = app.get("/metrics", None).await;
    assert_eq!(reply.status.as_u16(), 200);
    assert_eq!(
        reply.headers.get("content-type").unwrap(),
        "text/plain; version=0.0.4; charset=utf-8"
    );
    Scrape::parse(reply.body.as_str().unwrap())
}

/// Plays the first legal command of the seat to act; returns the new version.
async fn play_one(app: &TestApp, users: &[User], id: &str) -> i64 {
    let game = app.game(id, None).await;
    let seat = game["to_act"][0].as_u64().unwrap() as usize;
    let view = app.game(id, Some(&users[seat])).await;
    let version = view["version"].as_i64().unwrap();
    let reply = app
        .command(id, &users[seat], version, &view["legal_commands"][0])
        .await;
    reply.ok(200)["version"].as_i64().unwrap()
}

const COMMANDS: &str = "/v1/games/{id}/commands";

#[actix_web::test]
async fn requests_commands_the_pool_and_the_outbox_are_counted() {
    // No webhook worker: deliveries stay in the outbox.
    let app = TestApp::spawn_with(|s| s.background.webhook_tick_ms = 0).await;
    let users = app.users(2).await;
    for user in &users {
        app.post(
            "/v1/me/webhooks",
            Some(&user.token),
            &json!({"url": "http://127.0.0.1:9/hook"}),
        )
        .await
        .ok(201);
    }
    let id = app.started_game(&users, "hats", json!({})).await;
    for _ in 0..3 {
        play_one(&app, &users, &id).await;
    }
    let missing = uuid::Uuid::new_v4();
    app.get(&format!("/v1/games/{missing}"), None)
        .await
        .assert_problem(404, "not_found");
    app.get("/no/such/page", None)
        .await
        .assert_problem(404, "not_found");

    let page = app.get("/metrics", None).await.body;
    let page = page.as_str().unwrap();
    // Labels never carry a request's ids or raw paths.
    for raw in [id.as_str(), &missing.to_string(), "/no/such/page"] {
        assert!(!page.contains(raw), "{raw} in {page}");
    }
    let m = Scrape::parse(page);
    let requests = "hatstand_http_request_duration_seconds_count";
    let sent = [("route", COMMANDS), ("method", "POST"), ("status", "2xx")];
    assert_eq!(m.value(requests, &sent), Some(3.0));
    assert_eq!(
        m.value("hatstand_commands_accepted_total", &[("ruleset", "hats")]),
        Some(3.0)
    );
    let missing_game = [
        ("route", "/v1/games/{id}"),
        ("method", "GET"),
        ("status", "4xx"),
    ];
    assert_eq!(m.value(requests, &missing_game), Some(1.0));
    let unmatched = [("route", "unmatched"), ("method", "GET"), ("status", "4xx")];
    assert_eq!(m.value(requests, &unmatched), Some(1.0));
    // The latency of the three commands: positive, under the time a test takes.
    let took = m
        .value("hatstand_http_request_duration_seconds_sum", &sent)
        .unwrap();
    assert!(took > 0.0 && took < 60.0, "{took}");
    let within = m
        .value(
            "hatstand_http_request_duration_seconds_bucket",
            &[sent[0], sent[1], sent[2], ("le", "+Inf")],
        )
        .unwrap();
    assert_eq!(within, 3.0);

    // The pools of the test settings, in use by no one now: 4 connections
    // for requests (2 for each of the 2 HTTP worker threads) and 4 for the
    // background workers.
    assert_eq!(m.value("hatstand_db_pool_max_size", &[]), Some(8.0));
    let size = m.value("hatstand_db_pool_size", &[]).unwrap();
    let available = m.value("hatstand_db_pool_available", &[]).unwrap();
    assert!((1.0..=8.0).contains(&size), "{size}");
    assert!(available <= size, "{available} of {size}");
    assert_eq!(m.value("hatstand_db_pool_waiting", &[]), Some(0.0));

    // Every turn change told the next player, whose webhook got a delivery.
    let pending = m.value("hatstand_webhook_deliveries_pending", &[]).unwrap();
    assert_eq!(pending, app.count("webhook_deliveries").await as f64);
    assert!(pending >= 1.0);
    assert!(m.value("hatstand_webhook_oldest_due_seconds", &[]).unwrap() >= 0.0);
    // No address, no mail.
    assert_eq!(m.value("hatstand_mail_due", &[]), Some(0.0));

    assert!(m.value("process_cpu_seconds_total", &[]).unwrap() > 0.0);
    assert!(m.value("process_resident_memory_bytes", &[]).unwrap() > 1_048_576.0);
    assert_eq!(m.value("hatstand_long_polls_held", &[]), Some(0.0));
    assert_eq!(m.value("hatstand_event_streams_open", &[]), Some(0.0));

    // The scrape itself is a request of its own route.
    let again = scrape(&app).await;
    let scraped = [("route", "/metrics"), ("method", "GET"), ("status", "2xx")];
    assert!(again.value(requests, &scraped).unwrap() >= 1.0);
}

#[actix_web::test]
async fn held_long_polls_and_streams_are_gauged_while_they_wait() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let version = app.game(&id, None).await["version"].as_i64().unwrap();

    let stream = app
        .request("GET", &format!("/v1/games/{id}/stream"), None, &[])
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status().as_u16(), 200);
    let open = scrape(&app).await;
    assert_eq!(open.value("hatstand_event_streams_open", &[]), Some(1.0));

    let poll = async {
        app.get(
            &format!("/v1/games/{id}/events?after={version}&wait=30"),
            None,
        )
        .await
        .ok(200)
    };
    let waited_on = async {
        app.eventually(20, || async {
            let m = scrape(&app).await;
            (m.value("hatstand_long_polls_held", &[]) == Some(1.0)).then_some(())
        })
        .await;
        play_one(&app, &users, &id).await
    };
    let (page, new_version) = futures_util::future::join(poll, waited_on).await;
    assert_eq!(page["version"], new_version);
    let after = scrape(&app).await;
    assert_eq!(after.value("hatstand_long_polls_held", &[]), Some(0.0));
    let polls = [
        ("route", "/v1/games/{id}/events"),
        ("method", "GET"),
        ("status", "2xx"),
    ];
    assert_eq!(
        after.value("hatstand_http_request_duration_seconds_count", &polls),
        Some(1.0)
    );

    // A stream closed by its client stops counting (at the latest when the
    // server writes its next keep-alive, 15 s on).
    drop(stream);
    app.eventually(30, || async {
        let m = scrape(&app).await;
        (m.value("hatstand_event_streams_open", &[]) == Some(0.0)).then_some(())
    })
    .await;
}

#[actix_web::test]
async fn deadline_lag_is_how_late_a_timeout_fired() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app
        .started_game(&users, "hats", json!({"turn_timeout": "PT1H"}))
        .await;
    // Due a second ago: the worker (every 100 ms) fires it at least 1 s late.
    app.expire(&id).await;
    let m = app
        .eventually(30, || async {
            let m = scrape(&app).await;
            (m.value("hatstand_deadline_lag_seconds_count", &[]) == Some(1.0)).then_some(m)
        })
        .await;
    let lag = m.value("hatstand_deadline_lag_seconds_sum", &[]).unwrap();
    assert!((1.0..30.0).contains(&lag), "{lag}");
    assert_eq!(
        m.value("hatstand_deadline_lag_seconds_bucket", &[("le", "0.5")]),
        Some(0.0)
    );
}
