//! Retention: expired idempotency keys are new requests, pruned
//! notifications answer `410 cursor_expired` to a cursor into them, finished
//! deliveries and ended sessions go, pruning is shared by processes, and
//! invalid settings stop the server at start.

use chrono::Utc;
use hatstand::pruner::{Pruned, prune};
use hatstand::retention::Retention;
use serde_json::json;

use crate::support::TestApp;

fn retention(app: &TestApp) -> Retention {
    Retention::from_settings(&crate::support::settings(&app.db.url).retention).unwrap()
}

async fn prune_now(app: &TestApp) -> Pruned {
    let pool = hatstand::db::pool(&app.db.url, 2).unwrap();
    prune(&pool, &retention(app), Utc::now()).await.unwrap()
}

#[actix_web::test]
async fn an_idempotency_key_older_than_a_day_is_a_new_request() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let view = app.game(&id, Some(&users[0])).await;
    let seat = if view["to_act"][0] == 0 { 0 } else { 1 };
    let me = &users[seat];
    let view = app.game(&id, Some(me)).await;
    let version = view["version"].as_i64().unwrap();
    let send = |version: i64, command: serde_json::Value| {
        let token = me.token.clone();
        let app = &app;
        let path = format!("/v1/games/{id}/commands");
        async move {
            app.send(
                "POST",
                &path,
                Some(&token),
                &[("Idempotency-Key", "move-1")],
                &json!({"expected_version": version, "command": command}),
            )
            .await
        }
    };
    let first = send(version, view["legal_commands"][0].clone())
        .await
        .ok(200);
    // Within a day, the same request answers the stored response.
    assert_eq!(
        send(version, view["legal_commands"][0].clone())
            .await
            .ok(200),
        first
    );
    // A day later the key has expired: the same request is new, and stale.
    app.sql("UPDATE idempotency_keys SET created_at = now() - interval '24 hours 1 second'")
        .await;
    send(version, view["legal_commands"][0].clone())
        .await
        .assert_problem(409, "version_conflict");
    // … and a new request may use the key (not `idempotency_key_reused`):
    // once it is my turn again, a new command with it is accepted.
    let other = &users[1 - seat];
    loop {
        let public = app.game(&id, None).await;
        if public["to_act"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| *s == seat)
        {
            break;
        }
        let theirs = app.game(&id, Some(other)).await;
        app.command(
            &id,
            other,
            theirs["version"].as_i64().unwrap(),
            &theirs["legal_commands"][0],
        )
        .await
        .ok(200);
    }
    let mine = app.game(&id, Some(me)).await;
    let fresh = send(
        mine["version"].as_i64().unwrap(),
        mine["legal_commands"][0].clone(),
    )
    .await
    .ok(200);
    assert_ne!(fresh["version"], first["version"]);
    // Pruning removes what expired and keeps the rest.
    app.sql("UPDATE idempotency_keys SET created_at = now() - interval '2 days'")
        .await;
    let pruned = prune_now(&app).await;
    assert!(pruned.idempotency_keys >= 1, "{pruned:?}");
    assert_eq!(app.count("idempotency_keys").await, 0);
}

#[actix_web::test]
async fn a_cursor_into_pruned_notifications_answers_410_never_a_gap() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    // Invitations give each user notifications.
    for _ in 0..3 {
        app.created_game(
            &users[0],
            &json!({"ruleset": "hats", "players": 2, "invitees": ["player1"]}),
        )
        .await;
    }
    let bob = &users[1];
    let all = app
        .get("/v1/me/notifications", Some(&bob.token))
        .await
        .ok(200);
    let ids: Vec<i64> = all["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids.len(), 3);
    // Given the first two are older than 30 days and pruned …
    app.sql(&format!(
        "UPDATE notifications SET created_at = now() - interval '31 days' WHERE id <= {}",
        ids[1]
    ))
    .await;
    let pruned = prune_now(&app).await;
    assert_eq!(pruned.notifications, 2, "{pruned:?}");
    // … a client that had read only the first learns it missed some …
    app.get(
        &format!("/v1/me/notifications?after={}", ids[0]),
        Some(&bob.token),
    )
    .await
    .assert_problem(410, "cursor_expired");
    let stream = app
        .request(
            "GET",
            "/v1/me/stream",
            Some(&bob.token),
            &[("Last-Event-ID", &ids[0].to_string())],
        )
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status().as_u16(), 410);
    // … while a client that read past them, or starts over, goes on.
    let rest = app
        .get(
            &format!("/v1/me/notifications?after={}", ids[1]),
            Some(&bob.token),
        )
        .await
        .ok(200);
    assert_eq!(rest["notifications"][0]["id"], ids[2]);
    let again = app
        .get("/v1/me/notifications", Some(&bob.token))
        .await
        .ok(200);
    assert_eq!(again["notifications"].as_array().unwrap().len(), 1);
}

#[actix_web::test]
async fn finished_deliveries_older_than_a_week_and_ended_sessions_are_pruned() {
    let app = TestApp::spawn().await;
    let ann = app.register("ann").await;
    app.sql(&format!(
        "INSERT INTO webhooks (id, user_id, url, secret) VALUES (gen_random_uuid(), '{0}', 'http://127.0.0.1:9/', 's');
         INSERT INTO notifications (user_id, kind, payload) SELECT '{0}', 'invited', '{{}}' FROM generate_series(1, 4);
         INSERT INTO webhook_deliveries (user_id, webhook_id, notification_id, state, delivered_at, last_attempt_at)
         SELECT n.user_id, w.id, n.id,
                CASE n.id % 4 WHEN 0 THEN 'pending' WHEN 1 THEN 'delivered' WHEN 2 THEN 'failed' ELSE 'delivered' END,
                CASE WHEN n.id % 4 IN (1, 3) THEN now() - CASE n.id % 4 WHEN 1 THEN interval '8 days' ELSE interval '6 days' END END,
                now() - interval '8 days'
           FROM webhooks w, notifications n;
         UPDATE sessions SET revoked_at = now() - interval '8 days' WHERE user_id = '{0}';",
        ann.id
    ))
    .await;
    assert_eq!(app.count("webhook_deliveries").await, 4);
    let pruned = prune_now(&app).await;
    // Delivered 8 days ago and failed 8 days ago go; pending and delivered
    // 6 days ago stay.
    assert_eq!(pruned.deliveries, 2, "{pruned:?}");
    assert_eq!(app.count("webhook_deliveries").await, 2);
    assert_eq!(
        app.count("webhook_deliveries WHERE state = 'pending'")
            .await,
        1
    );
    assert_eq!(pruned.sessions, 1);
    assert_eq!(app.count("sessions").await, 0);
    // A second pass finds nothing.
    assert_eq!(prune_now(&app).await, Pruned::default());
}

#[actix_web::test]
async fn processes_pruning_at_once_share_a_backlog_without_errors() {
    let app = TestApp::spawn().await;
    let ann = app.register("ann").await;
    let game = app
        .created_game(&ann, &json!({"ruleset": "hats", "players": 2}))
        .await;
    app.sql(&format!(
        "INSERT INTO idempotency_keys (user_id, key, game_id, request_hash, response_status, response_body, created_at)
         SELECT '{}', 'k' || n, '{}', 'h', 200, '{{}}', now() - interval '2 days'
           FROM generate_series(1, 5000) AS n",
        ann.id,
        game["id"].as_str().unwrap()
    ))
    .await;
    let retention = retention(&app);
    let now = Utc::now();
    let pools: Vec<_> = (0..3)
        .map(|_| hatstand::db::pool(&app.db.url, 1).unwrap())
        .collect();
    let passes =
        futures_util::future::join_all(pools.iter().map(|pool| prune(pool, &retention, now))).await;
    let total: i64 = passes
        .into_iter()
        .map(|p| p.unwrap().idempotency_keys)
        .sum();
    assert_eq!(total, 5000);
    assert_eq!(app.count("idempotency_keys").await, 0);
}

#[test]
fn invalid_retention_settings_stop_the_server_at_start() {
    for (flag, value) in [
        ("--idempotency-ttl-hours", "0"),
        ("--notification-retention-days", "0"),
        ("--delivery-retention-days", "4000"),
        ("--archive-after-days", "0"),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_hatstand"))
            .args([flag, value, "--bind", "127.0.0.1:0", "serve"])
            .env("DATABASE_URL", "postgres://nobody@127.0.0.1:1/none")
            .output()
            .unwrap();
        assert!(!out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("{flag} must be between 1 and")),
            "{stderr}"
        );
    }
}

#[actix_web::test]
async fn the_storage_report_counts_each_finished_games_rows() {
    let app = TestApp::spawn().await;
    // Given two finished games of Hats and one game still going …
    let first = crate::play::play(&app, "hats", 2, json!({}), 1).await;
    crate::play::play(&app, "hats", 2, json!({}), 2).await;
    let users = app.users(2).await;
    app.started_game(&users, "hats", json!({})).await;
    let mut conn = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    let costs = hatstand::db::storage::measure(&mut conn).await.unwrap();
    // … the report has Hats alone, with the finished games' rows only.
    assert_eq!(costs.len(), 1);
    let hats = &costs[0];
    assert_eq!((hats.ruleset.as_str(), hats.games), ("hats", 2));
    let events = app
        .count("events WHERE game_id IN (SELECT id FROM games WHERE status = 'finished')")
        .await;
    let table = |name: &str| hats.tables.iter().find(|t| t.table == name).unwrap();
    assert_eq!(table("events").rows, events);
    assert_eq!(table("seats").rows, 4);
    assert_eq!(table("games").rows, 2);
    assert!(table("events").heap_bytes > events * 100, "{hats:?}");
    assert!(hats.kept_per_game() > 0.0 && hats.expiring_per_game() > 0.0);
    // `hatstand storage` prints the report.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hatstand"))
        .args(["storage", "--database-url", &app.db.url])
        .env("RUST_LOG", "off")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(
        printed.contains("storage: hats: 2 finished games"),
        "{printed}"
    );
    assert!(first.commands > 0);
}

/// The raw body of a GET.
async fn raw(app: &TestApp, path: &str, token: Option<&str>) -> (u16, Vec<u8>) {
    let mut response = app.request("GET", path, token, &[]).send().await.unwrap();
    let body = response.body().limit(64 * 1024 * 1024).await.unwrap();
    (response.status().as_u16(), body.to_vec())
}

#[actix_web::test]
async fn an_archived_game_is_served_and_verified_as_before() {
    let app = TestApp::spawn().await;
    let played = crate::play::play(&app, "hat-trick", 3, json!({}), 7).await;
    let id = played.id.clone();
    let token = played.users[0].token.clone();
    let paths = [
        format!("/v1/games/{id}/audit"),
        format!("/v1/games/{id}/events?after=0&limit=100"),
        format!("/v1/games/{id}/events?after=7&limit=5"),
        format!("/v1/games/{id}/state?at=9"),
        format!("/v1/games/{id}"),
        "/v1/me/games/export".to_owned(),
    ];
    let read_all = || async {
        let mut out = Vec::new();
        for path in &paths {
            out.push(raw(&app, path, Some(&token)).await);
            out.push(raw(&app, path, None).await);
        }
        out
    };
    // Once the game is in the transparency log, its audit carries the same
    // proof and signature before and after archiving.
    app.eventually(20, || async {
        (app.get(&format!("/v1/games/{id}/log-proof"), None)
            .await
            .status
            == 200)
            .then_some(())
    })
    .await;
    let before = read_all().await;
    let events = app.count(&format!("events WHERE game_id = '{id}'")).await;
    // Not before its time …
    let pool = hatstand::db::pool(&app.db.url, 2).unwrap();
    assert_eq!(
        prune(&pool, &retention(&app), Utc::now())
            .await
            .unwrap()
            .archived,
        0
    );
    // … but once it has been over for 30 days it is archived.
    let archive = || {
        hatstand::games::archive_old::archive_due(
            &pool,
            Utc::now() + chrono::TimeDelta::days(1),
            Utc::now(),
        )
    };
    assert_eq!(archive().await.unwrap(), 1);
    assert_eq!(
        app.count(&format!("events WHERE game_id = '{id}'")).await,
        0
    );
    assert_eq!(
        app.count(&format!(
            "games WHERE id = '{id}' AND state IS NULL AND archived_at IS NOT NULL"
        ))
        .await,
        1
    );
    // … and every read answers exactly as before, for a player and a spectator.
    let after = read_all().await;
    for ((path, b), a) in paths.iter().flat_map(|p| [p, p]).zip(&before).zip(&after) {
        assert_eq!(a.0, b.0, "{path}");
        assert!(
            a.1 == b.1,
            "{path} changed:\n{}\n{}",
            String::from_utf8_lossy(&b.1),
            String::from_utf8_lossy(&a.1)
        );
    }
    crate::play::verified_audit(&app, &id).await;
    // A second pass archives nothing more; commands meet a finished game.
    assert_eq!(archive().await.unwrap(), 0);
    app.post(
        &format!("/v1/games/{id}/commands"),
        Some(&token),
        &json!({"expected_version": 1, "command": {"type": "pass"}}),
    )
    .await
    .assert_problem(409, "game_finished");
    // The archive row is a fraction of the events it replaced.
    let mut conn = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    let costs = hatstand::db::storage::measure(&mut conn).await.unwrap();
    let archived = costs[0]
        .tables
        .iter()
        .find(|t| t.table == "archived_games")
        .unwrap();
    assert_eq!(archived.rows, 1);
    assert!(
        archived.heap_bytes * 3 < events * 300,
        "{archived:?} vs {events} events"
    );
}
