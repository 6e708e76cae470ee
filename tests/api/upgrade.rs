//! Upgrading a live database in place: games written by the release before
//! keep their status, version, turn and result, games in progress play on,
//! and their audits verify; notifications, webhook deliveries and stored
//! answers keep working under their new keys.

use hatstand::record::chain::LoggedEvent;
use hatstand::record::replay::Replay;
use hatstand::record::verify::AuditDocument;
use hatstand_engine::{GameKind, Ruleset, with_ruleset};
use serde_json::{Value, json};

use crate::play::{play_out, verified_audit};
use crate::support::{TestApp, TestDb, User};

pub(crate) fn legacy(name: &str) -> AuditDocument {
    let path = format!("{}/tests/records/legacy/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// SQL text literal (dollar-quoted; the documents never contain the tag).
fn lit(text: &str) -> String {
    assert!(!text.contains("$q$"));
    format!("$q${text}$q$")
}

fn opt(value: Option<String>) -> String {
    value.map_or_else(|| "NULL".to_owned(), |v| lit(&v))
}

/// The rows the release before rules versions wrote for the game of `doc`,
/// as far as its first `upto` events (the whole game when that is all of
/// them): its users, game row (snapshot included), seats and events.
pub(crate) fn rows_as_written_before(doc: &AuditDocument, upto: usize) -> String {
    let events: Vec<LoggedEvent> = doc.events[..upto].iter().map(LoggedEvent::from).collect();
    let created = &doc.events[0].data;
    let kind = GameKind::from_id(&doc.ruleset).unwrap();
    let (state, to_act, result) = with_ruleset!(kind, |R| {
        let replay = Replay::<R>::of(&events).unwrap();
        let state = replay.state.as_ref().unwrap();
        (
            serde_json::to_string(state).unwrap(),
            R::to_act(state)
                .iter()
                .map(|s| s.0.to_string())
                .collect::<Vec<_>>(),
            R::result(state).map(|r| serde_json::to_value(r).unwrap()),
        )
    });
    let whole = upto == doc.events.len();
    let (status, to_act, result) = if whole {
        (doc.status.clone(), Vec::new(), doc.result.clone())
    } else {
        assert!(result.is_none(), "a prefix of a game in progress");
        ("active".to_owned(), to_act, None)
    };
    let last = events.last().unwrap();
    let password = hatstand::auth::password::hash("password123").unwrap();
    let mut sql = String::new();
    for joined in events.iter().filter(|e| e.kind == "player_joined") {
        sql += &format!(
            "INSERT INTO users (id, username, password_hash, created_at) VALUES ('{}', {}, {}, now());\n",
            joined.data["user_id"].as_str().unwrap(),
            lit(joined.data["username"].as_str().unwrap()),
            lit(&password),
        );
    }
    sql += &format!(
        "INSERT INTO games (id, ruleset, players, options, seed, seed_public, seed_commitment, status, \
         version, last_hash, state, to_act, result, created_by, created_at, updated_at, server_options, \
         deadline, private, invite_code) VALUES ('{}', {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, '{{{}}}', {}, \
         '{}', {}, {}, {}, NULL, false, NULL);\n",
        doc.game_id,
        lit(&doc.ruleset),
        created["players"],
        lit(&created["options"].to_string()),
        lit(&doc.seed),
        created.get("seed").is_some(),
        lit(&doc.seed_commitment),
        lit(&status),
        last.seq,
        lit(&last.hash),
        lit(&state),
        to_act.join(","),
        opt(result.map(|r| r.to_string())),
        created["created_by"].as_str().unwrap(),
        lit(&events[0].created_at),
        lit(&last.created_at),
        lit(&created
            .get("server_options")
            .cloned()
            .unwrap_or(json!({}))
            .to_string()),
    );
    for joined in events.iter().filter(|e| e.kind == "player_joined") {
        sql += &format!(
            "INSERT INTO seats (game_id, seat, user_id, joined_at, vacation_used_secs, timeouts) \
             VALUES ('{}', {}, '{}', {}, 0, 0);\n",
            doc.game_id,
            joined.data["seat"],
            joined.data["user_id"].as_str().unwrap(),
            lit(&joined.created_at),
        );
    }
    for e in &events {
        sql += &format!(
            "INSERT INTO events (game_id, seq, \"type\", data, actor_user, actor_seat, command, prev_hash, hash, created_at) \
             VALUES ('{}', {}, {}, {}, {}, {}, {}, {}, {}, {});\n",
            doc.game_id,
            e.seq,
            lit(&e.kind),
            lit(&e.data.to_string()),
            opt(e.actor_user.map(|u| u.to_string())),
            e.actor_seat
                .map_or_else(|| "NULL".to_owned(), |s| s.to_string()),
            opt(e.command.as_ref().map(Value::to_string)),
            lit(&e.prev_hash),
            lit(&e.hash),
            lit(&e.created_at),
        );
    }
    sql
}

pub(crate) async fn login(app: &TestApp, doc: &AuditDocument, seat: usize) -> User {
    let joined = doc
        .events
        .iter()
        .find(|e| e.kind == "player_joined" && e.data["seat"] == seat)
        .unwrap();
    let login = app
        .post(
            "/v1/auth/login",
            None,
            &json!({"username": joined.data["username"], "password": "password123"}),
        )
        .await
        .ok(200);
    User {
        id: joined.data["user_id"].as_str().unwrap().parse().unwrap(),
        token: login["access_token"].as_str().unwrap().to_owned(),
    }
}

#[actix_web::test]
async fn games_written_before_rules_versions_keep_their_state_and_play_on_under_version_1() {
    // Given a database of the release before rules versions, holding a
    // finished game and a game in progress, as that release wrote them …
    let db = TestDb::before("2026-11-26-000100_rules_version").await;
    let finished = legacy("goathead-3p.json");
    let in_progress = legacy("hats-2p.json");
    let upto = in_progress.events.len() - 6;
    let sql = rows_as_written_before(&finished, finished.events.len())
        + &rows_as_written_before(&in_progress, upto);
    {
        use diesel_async::SimpleAsyncConnection;
        let mut conn = hatstand::db::locate::connect(&db.url).await.unwrap();
        conn.batch_execute(&sql).await.unwrap();
    }
    // … when this release starts on it (and migrates it) …
    let app = TestApp::spawn_on(db, |_| {}).await;

    // … the finished game is as it was, its record unchanged and verified.
    let game = app.game(&finished.game_id.to_string(), None).await;
    assert_eq!(game["status"], "finished");
    assert_eq!(game["version"], finished.events.len());
    assert_eq!(game["rules"], "goathead@1");
    assert_eq!(game["result"], finished.result.clone().unwrap());
    let audit = verified_audit(&app, &finished.game_id.to_string()).await;
    assert_eq!(
        audit["events"],
        serde_json::to_value(&finished.events).unwrap()
    );
    assert_eq!(audit["rules"], "goathead@1");

    // … and the game in progress keeps its version and turn, and plays on
    // to the end under version 1.
    let id = in_progress.game_id.to_string();
    let before = app.game(&id, None).await;
    assert_eq!(before["status"], "active");
    assert_eq!(before["version"], upto);
    assert_eq!(before["rules"], "hats@1");
    assert!(!before["to_act"].as_array().unwrap().is_empty());
    let users = vec![
        login(&app, &in_progress, 0).await,
        login(&app, &in_progress, 1).await,
    ];
    let played = play_out(&app, id.clone(), users, 3).await;
    assert_eq!(played.game["status"], "finished");
    let audit = verified_audit(&app, &id).await;
    assert_eq!(audit["rules"], "hats@1");
    assert!(
        audit["events"][0]["data"].get("rules").is_none(),
        "the record is not rewritten"
    );

    // Both games, archived by this release, still serve and verify the
    // same records.
    let finished_id = finished.game_id.to_string();
    // (Once both are in the transparency log: their audits then carry the
    // same proof and signature before and after.)
    app.eventually(20, || async {
        (app.count("games WHERE logged_at IS NOT NULL").await == 2).then_some(())
    })
    .await;
    let before = [
        verified_audit(&app, &finished_id).await,
        verified_audit(&app, &id).await,
    ];
    // The events written before compaction are converted in batches (the
    // records read the same) …
    let legacy_rows = app.count("events WHERE digest IS NULL").await;
    assert!(legacy_rows > 0);
    assert!(
        app.count("events WHERE digest IS NOT NULL").await > 0,
        "new events are compact"
    );
    let mut conn = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    let mut compacted = 0;
    loop {
        let n = hatstand::db::retention::compact_events(&mut conn, 7)
            .await
            .unwrap();
        compacted += n;
        if n == 0 {
            break;
        }
    }
    assert_eq!(compacted, legacy_rows);
    assert_eq!(
        app.count("events WHERE hash IS NOT NULL OR prev_hash IS NOT NULL")
            .await,
        0
    );
    assert_eq!(verified_audit(&app, &finished_id).await, before[0]);
    assert_eq!(verified_audit(&app, &id).await, before[1]);
    // … and the log stays append-only: no other update is allowed.
    {
        use diesel_async::SimpleAsyncConnection;
        for sql in [
            "UPDATE events SET digest = sha256(digest) WHERE seq = 2",
            "UPDATE events SET digest = NULL, hash = encode(digest, 'hex'), prev_hash = repeat('0', 64) WHERE seq = 2",
        ] {
            let err = conn.batch_execute(sql).await.unwrap_err();
            assert!(err.to_string().contains("append-only"), "{sql}: {err}");
        }
    }

    let pool = hatstand::db::pool(&app.db.url, 1).unwrap();
    let later = chrono::Utc::now() + chrono::TimeDelta::days(1);
    let archived = hatstand::games::archive_old::archive_due(&pool, later, chrono::Utc::now())
        .await
        .unwrap();
    assert_eq!(archived, 2);
    assert_eq!(app.count("events").await, 0);
    assert_eq!(verified_audit(&app, &finished_id).await, before[0]);
    assert_eq!(verified_audit(&app, &id).await, before[1]);
}

#[actix_web::test]
async fn a_legacy_event_whose_prev_hash_was_tampered_with_is_not_compacted_and_still_fails_verify()
{
    let db = TestDb::before("2026-11-26-000100_rules_version").await;
    let finished = legacy("goathead-3p.json");
    let mut sql = rows_as_written_before(&finished, finished.events.len());
    // Someone with database access rewrote the chain link of event 5.
    sql += &format!(
        "UPDATE events SET prev_hash = repeat('a', 64) WHERE game_id = '{}' AND seq = 5;",
        finished.game_id
    );
    {
        use diesel_async::SimpleAsyncConnection;
        let mut conn = hatstand::db::locate::connect(&db.url).await.unwrap();
        conn.batch_execute("ALTER TABLE events DISABLE TRIGGER events_no_update_or_delete")
            .await
            .unwrap();
        conn.batch_execute(&sql).await.unwrap();
        conn.batch_execute("ALTER TABLE events ENABLE TRIGGER events_no_update_or_delete")
            .await
            .unwrap();
    }
    let app = TestApp::spawn_on(db, |_| {}).await;
    let mut conn = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    while hatstand::db::retention::compact_events(&mut conn, 1000)
        .await
        .unwrap()
        > 0
    {}
    // Every event but the tampered one is compact; that one keeps its
    // stored link, so the audit still shows it and verification fails.
    assert_eq!(app.count("events WHERE digest IS NULL").await, 1);
    let audit = app
        .get(&format!("/v1/games/{}/audit", finished.game_id), None)
        .await
        .ok(200);
    let doc: AuditDocument = serde_json::from_value(audit).unwrap();
    let failed = hatstand::record::verify::verify(&doc)
        .unwrap_err()
        .to_string();
    assert!(failed.contains("event 5"), "{failed}");
}

#[actix_web::test]
async fn games_written_before_bots_keep_their_state_and_their_players_stay_human() {
    // Given a database of the release before bots, with a finished game
    // (won on a timeout the server played at random) and a game in progress …
    let db = TestDb::before("2026-11-29-000100_bots").await;
    let finished = legacy("hats-2p-timeout.json");
    let in_progress = legacy("top-hats-2p.json");
    // Cut at a command, not inside the events one command caused.
    let upto = (1..in_progress.events.len() - 4)
        .rev()
        .find(|&n| in_progress.events[n].command.is_some())
        .unwrap();
    // That release wrote `rules_version` (1 for these records) beside the
    // rows the release before it wrote.
    let sql = "ALTER TABLE games ALTER COLUMN rules_version SET DEFAULT 1;\n".to_owned()
        + &rows_as_written_before(&finished, finished.events.len())
        + &rows_as_written_before(&in_progress, upto)
        + "ALTER TABLE games ALTER COLUMN rules_version DROP DEFAULT;\n";
    {
        use diesel_async::SimpleAsyncConnection;
        let mut conn = hatstand::db::locate::connect(&db.url).await.unwrap();
        conn.batch_execute(&sql).await.unwrap();
    }
    // … when this release migrates it …
    let app = TestApp::spawn_on(db, |_| {}).await;

    // … every account is human and every seat says so; the built-in bots
    // are there; the finished game's record (its random autoplay included)
    // still verifies unchanged.
    assert_eq!(app.count("users WHERE kind = 'human'").await, 4);
    assert_eq!(app.count("users WHERE kind = 'bot'").await, 15);
    let game = app.game(&finished.game_id.to_string(), None).await;
    assert_eq!(game["status"], "finished");
    assert_eq!(game["version"], finished.events.len());
    assert!(
        game["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["bot"] == false)
    );
    let audit = verified_audit(&app, &finished.game_id.to_string()).await;
    assert_eq!(
        audit["events"],
        serde_json::to_value(&finished.events).unwrap()
    );

    // … and the game in progress keeps its version and turn and plays on.
    let id = in_progress.game_id.to_string();
    let before = app.game(&id, None).await;
    assert_eq!(before["status"], "active");
    assert_eq!(before["version"], upto);
    let users = vec![
        login(&app, &in_progress, 0).await,
        login(&app, &in_progress, 1).await,
    ];
    let played = play_out(&app, id.clone(), users, 5).await;
    assert_eq!(played.game["status"], "finished");
    verified_audit(&app, &id).await;
}

/// The request hash the command path stores with an idempotent answer.
fn request_hash(game: &str, version: i64, command: &Value) -> String {
    use sha2::{Digest, Sha256};
    let canonical = hatstand::record::canonical::canonical_json(
        &json!({"game": game, "expected_version": version, "command": command}),
    );
    hex::encode(Sha256::digest(canonical.as_bytes()))
}

#[actix_web::test]
async fn notifications_deliveries_and_keys_written_before_sharding_keys_keep_working() {
    // Given a database of the release before keys were made shardable, with
    // a game in progress, notifications for its players (one of them 31 days
    // old), a webhook of seat 0 with a pending delivery of each of its
    // notifications, and an answer stored under an idempotency key …
    let db = TestDb::before("2026-11-30-000100_sharding_keys").await;
    let doc = legacy("hats-2p.json");
    let upto = (1..doc.events.len() - 4)
        .rev()
        .find(|&n| doc.events[n].command.is_some())
        .unwrap();
    let id = doc.game_id.to_string();
    let sql = "ALTER TABLE games ALTER COLUMN rules_version SET DEFAULT 1;\n".to_owned()
        + &rows_as_written_before(&doc, upto)
        + &format!(
            "ALTER TABLE games ALTER COLUMN rules_version DROP DEFAULT;
             INSERT INTO notifications (user_id, game_id, kind, payload, created_at)
             SELECT user_id, game_id, 'your_turn', '{{}}', now() FROM seats WHERE game_id = '{id}';
             INSERT INTO notifications (user_id, game_id, kind, payload, created_at)
             SELECT user_id, game_id, 'your_turn', '{{}}', now() - interval '31 days'
               FROM seats WHERE game_id = '{id}' AND seat = 0;
             INSERT INTO webhooks (id, user_id, url, secret)
             SELECT gen_random_uuid(), user_id, 'http://127.0.0.1:9/', 's'
               FROM seats WHERE game_id = '{id}' AND seat = 0;
             INSERT INTO webhook_deliveries (webhook_id, notification_id)
             SELECT w.id, n.id FROM webhooks w JOIN notifications n ON n.user_id = w.user_id;"
        );
    {
        use diesel_async::SimpleAsyncConnection;
        let mut conn = hatstand::db::locate::connect(&db.url).await.unwrap();
        conn.batch_execute(&sql).await.unwrap();
    }
    let app = TestApp::spawn_on(db, |_| {}).await;
    let users = [login(&app, &doc, 0).await, login(&app, &doc, 1).await];

    // … each delivery lives with its notification's user …
    assert_eq!(
        app.count(
            "webhook_deliveries d JOIN notifications n
               ON n.user_id = d.user_id AND n.id = d.notification_id"
        )
        .await,
        2
    );
    // … the feed lists a user's notifications …
    let feed = app
        .get("/v1/me/notifications", Some(&users[0].token))
        .await
        .ok(200);
    assert_eq!(feed["notifications"].as_array().unwrap().len(), 2);
    // … the webhook worker attempts the pending deliveries …
    app.eventually(10, || async {
        (app.count("webhook_deliveries WHERE attempts > 0").await == 2).then_some(())
    })
    .await;
    // … the notification past its retention goes with its delivery …
    let mut conn = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    let pruned = hatstand::db::retention::delete_expired(
        &mut conn,
        hatstand::db::retention::Expiring::Notifications,
        chrono::Utc::now() - chrono::TimeDelta::days(30),
        1000,
    )
    .await
    .unwrap();
    assert_eq!(pruned, 1);
    assert_eq!(app.count("notifications").await, 2);
    assert_eq!(app.count("webhook_deliveries").await, 1);

    // … and a retry under a stored key answers the stored answer, writing
    // nothing, while the game plays on.
    let view = app.game(&id, Some(&users[0])).await;
    let seat = usize::from(view["to_act"][0] != 0);
    let me = &users[seat];
    let view = app.game(&id, Some(me)).await;
    let version = view["version"].as_i64().unwrap();
    let command = view["legal_commands"][0].clone();
    let stored = json!({"version": version + 1, "stored": true});
    app.sql(&format!(
        "INSERT INTO idempotency_keys (user_id, key, game_id, request_hash, response_status, response_body, created_at)
         VALUES ('{}', 'retry-1', '{id}', '{}', 200, '{stored}', now())",
        me.id,
        request_hash(&id, version, &command)
    ))
    .await;
    let before = app.footprint().await;
    let body = json!({"expected_version": version, "command": command});
    let path = format!("/v1/games/{id}/commands");
    let replayed = app
        .send(
            "POST",
            &path,
            Some(&me.token),
            &[("Idempotency-Key", "retry-1")],
            &body,
        )
        .await
        .ok(200);
    assert_eq!(replayed, stored);
    assert_eq!(app.footprint().await, before);
    let played = play_out(&app, id.clone(), users.to_vec(), 5).await;
    assert_eq!(played.game["status"], "finished");
    verified_audit(&app, &id).await;
}

#[actix_web::test]
async fn codes_of_confirmation_mails_done_before_the_upgrade_leave_the_outbox() {
    // Given a database of the release that kept every code in its outbox
    // row: one mail sent, one skipped, one still waiting to go …
    let db = TestDb::before("2026-12-03-000100_forget_sent_codes").await;
    {
        use diesel_async::SimpleAsyncConnection;
        let mut conn = hatstand::db::locate::connect(&db.url).await.unwrap();
        conn.batch_execute(
            "INSERT INTO users (id, username, password_hash)
             VALUES ('00000000-0000-4000-8000-000000000001', 'old-mailer', 'x');
             INSERT INTO mail_outbox (user_id, kind, payload, state)
             SELECT '00000000-0000-4000-8000-000000000001', 'confirm_address',
                    jsonb_build_object('address', 'old@mail.test', 'code', c), s
               FROM (VALUES ('11111111', 'sent'), ('22222222', 'skipped'), ('33333333', 'pending')) v(c, s);",
        )
        .await
        .unwrap();
    }
    // … after the upgrade, only the waiting mail still holds its code, and
    // every row keeps its address.
    let app = TestApp::spawn_on(db, |_| {}).await;
    assert_eq!(app.count("mail_outbox WHERE payload ? 'code'").await, 1);
    assert_eq!(
        app.count("mail_outbox WHERE state = 'pending' AND payload ->> 'code' = '33333333'")
            .await,
        1
    );
    assert_eq!(
        app.count("mail_outbox WHERE payload ->> 'address' = 'old@mail.test'")
            .await,
        3
    );
}

#[actix_web::test]
async fn games_over_before_the_transparency_log_are_logged_after_the_upgrade_and_sign_their_audits()
{
    // Given a database of the release before signed records, holding two
    // games that are over and one in progress …
    let db = TestDb::before("2026-12-07-000100_signing_keys").await;
    let (first, second, playing) = (
        legacy("goathead-3p.json"),
        legacy("top-hats-2p.json"),
        legacy("hats-2p.json"),
    );
    // (The rows as written before rules versions, with the version 1 the
    // release before wrote.)
    let sql = "ALTER TABLE games ALTER COLUMN rules_version SET DEFAULT 1;".to_owned()
        + &rows_as_written_before(&first, first.events.len())
        + &rows_as_written_before(&second, second.events.len())
        + &rows_as_written_before(&playing, playing.events.len() - 6)
        + "ALTER TABLE games ALTER COLUMN rules_version DROP DEFAULT;";
    {
        use diesel_async::SimpleAsyncConnection;
        let mut conn = hatstand::db::locate::connect(&db.url).await.unwrap();
        conn.batch_execute(&sql).await.unwrap();
    }
    // … when this release starts on it, it makes its signing key, logs the
    // games that were over (not the one in progress), and signs a head …
    let app = TestApp::spawn_on(db, |_| {}).await;
    let keys: hatstand::transparency::signing::KeySet = serde_json::from_value(
        app.get("/.well-known/hatstand-keys.json", None)
            .await
            .ok(200),
    )
    .unwrap();
    assert_eq!(keys.keys.len(), 1);
    let head = app
        .eventually(20, || async {
            let reply = app.get("/v1/log/head", None).await;
            (reply.status == 200).then_some(reply.body)
        })
        .await;
    assert_eq!(head["tree_size"], 2);
    assert_eq!(app.count("games WHERE logged_at IS NOT NULL").await, 2);
    // … and their audits, unchanged, come signed and with their log proof.
    for doc in [&first, &second] {
        let audit = verified_audit(&app, &doc.game_id.to_string()).await;
        assert_eq!(audit["events"], serde_json::to_value(&doc.events).unwrap());
        let report =
            hatstand::transparency::check::audit_text(&audit.to_string(), Some(&keys)).unwrap();
        assert!(report.logged.is_some() && report.signed_by.is_some());
    }
}

#[actix_web::test]
async fn games_on_the_fixed_per_turn_clock_written_before_clocks_keep_it_and_time_out_as_before() {
    // Given a database of the release before clocks, holding a game in
    // progress on a fixed per-turn clock (`turn_timeout: PT1S`, forfeit),
    // its deadline as that release set it …
    let db = TestDb::before("2026-12-09-000200_clocks").await;
    let doc = legacy("hats-2p-timeout.json");
    let upto = doc
        .events
        .iter()
        .position(|e| e.kind == "turn_timed_out")
        .unwrap();
    let id = doc.game_id.to_string();
    let sql = "ALTER TABLE games ALTER COLUMN rules_version SET DEFAULT 1;\n".to_owned()
        + &rows_as_written_before(&doc, upto)
        + "ALTER TABLE games ALTER COLUMN rules_version DROP DEFAULT;\n"
        + &format!(
            "UPDATE games SET deadline = updated_at + interval '1 second' WHERE id = '{id}';\n"
        );
    {
        use diesel_async::SimpleAsyncConnection;
        let mut conn = hatstand::db::locate::connect(&db.url).await.unwrap();
        conn.batch_execute(&sql).await.unwrap();
    }
    // … when this release migrates it (its deadline worker held back) …
    let app = TestApp::spawn_on(db, |s| s.background.deadline_tick_ms = 0).await;
    let before = app.game(&id, None).await;
    assert_eq!(before["status"], "active");
    assert!(before.get("clocks").is_none(), "no clocks: {before}");
    let seat = before["to_act"][0].as_u64().unwrap() as usize;
    // … a move restarts the one deadline at the move's time plus
    // `turn_timeout`, as before, and writes no clock event …
    let user = login(&app, &doc, seat).await;
    let mine = app.game(&id, Some(&user)).await;
    let answer = app
        .command(
            &id,
            &user,
            mine["version"].as_i64().unwrap(),
            &mine["legal_commands"][0],
        )
        .await
        .ok(200);
    let game = &answer["game"];
    let moved: chrono::DateTime<chrono::Utc> =
        serde_json::from_value(game["updated_at"].clone()).unwrap();
    let deadline: chrono::DateTime<chrono::Utc> =
        serde_json::from_value(game["deadline"].clone()).unwrap();
    assert_eq!(deadline - moved, chrono::TimeDelta::seconds(1));
    assert_eq!(
        app.count("events WHERE type IN ('game_clock_started', 'seat_bank_changed')")
            .await,
        0
    );
    assert_eq!(app.count("seats WHERE clock IS NOT NULL").await, 0);
    // … and once it passes, the seat to act times out and forfeits, and the
    // record verifies.
    let wait = (deadline - chrono::Utc::now()).to_std().unwrap_or_default();
    actix_web::rt::time::sleep(wait + std::time::Duration::from_millis(50)).await;
    let pool = hatstand::db::pool(&app.db.url, 1).unwrap();
    assert_eq!(hatstand::deadlines::tick(&pool).await.unwrap(), 1);
    let over = app.game(&id, None).await;
    assert_eq!(over["status"], "finished");
    assert_eq!(over["result"]["outcome"], "forfeit");
    verified_audit(&app, &id).await;
}

#[actix_web::test]
async fn games_written_before_tournaments_play_on_and_a_tournament_runs_beside_them() {
    // Given a database of the release before tournaments, holding a Hats
    // game in progress as that release wrote it …
    let db = TestDb::before("2026-12-10-000500_tournaments").await;
    let doc = legacy("hats-2p.json");
    let upto = doc.events.len() / 2;
    let id = doc.game_id.to_string();
    let sql = "ALTER TABLE games ALTER COLUMN rules_version SET DEFAULT 1;\n".to_owned()
        + &rows_as_written_before(&doc, upto)
        + "ALTER TABLE games ALTER COLUMN rules_version DROP DEFAULT;\n";
    {
        use diesel_async::SimpleAsyncConnection;
        let mut conn = hatstand::db::locate::connect(&db.url).await.unwrap();
        conn.batch_execute(&sql).await.unwrap();
    }
    // … when this release migrates it …
    let app = TestApp::spawn_on(db, |s| s.background.deadline_tick_ms = 0).await;
    let before = app.game(&id, None).await;
    assert_eq!(before["status"], "active");
    assert_eq!(before["version"].as_i64().unwrap(), upto as i64);
    // … a tournament runs beside it (its tables are new games; the old one
    // is no table, so it stays readable as before) …
    let t = crate::tournament_rounds::one_round_played(&app).await;
    let shown = app.get(&format!("/v1/tournaments/{t}"), None).await.ok(200);
    assert_eq!(shown["status"], "finished");
    // … and the old game plays on to the end and verifies.
    let mut seats = Vec::new();
    for seat in 0..2 {
        seats.push(login(&app, &doc, seat).await);
    }
    play_out(&app, id.clone(), seats, 5).await;
    verified_audit(&app, &id).await;
}

#[actix_web::test]
async fn notifications_of_every_kind_written_before_tournament_notifications_stay_and_tournaments_notify_after()
 {
    // Given a database of the release before tournament notifications, with
    // a game in progress and a notification of every kind that release
    // wrote for each of its players …
    let db = TestDb::before("2026-12-11-000100_tournament_notifications").await;
    let doc = legacy("hats-2p.json");
    let upto = doc.events.len() / 2;
    let id = doc.game_id.to_string();
    let mut sql = "ALTER TABLE games ALTER COLUMN rules_version SET DEFAULT 1;\n".to_owned()
        + &rows_as_written_before(&doc, upto)
        + "ALTER TABLE games ALTER COLUMN rules_version DROP DEFAULT;\n";
    let kinds = [
        "your_turn",
        "game_finished",
        "invited",
        "talk",
        "takeback_offered",
        "seat_substituted",
    ];
    for kind in kinds {
        sql += &format!(
            "INSERT INTO notifications (user_id, game_id, kind, payload, created_at)
             SELECT user_id, game_id, '{kind}', '{{\"ruleset\": \"hats\"}}', now()
               FROM seats WHERE game_id = '{id}';\n"
        );
    }
    {
        use diesel_async::SimpleAsyncConnection;
        let mut conn = hatstand::db::locate::connect(&db.url).await.unwrap();
        conn.batch_execute(&sql).await.unwrap();
    }
    // … when this release migrates it …
    let app = TestApp::spawn_on(db, |s| s.background.deadline_tick_ms = 0).await;
    // … the check admits the new kinds and holds for every row (validated) …
    assert_eq!(
        app.count(
            "pg_constraint WHERE conname = 'notifications_kind_check' AND convalidated
               AND pg_get_constraintdef(oid) LIKE '%tournament_round%tournament_finished%'"
        )
        .await,
        1
    );
    // … every notification written before is listed as it was …
    let seat0 = login(&app, &doc, 0).await;
    let feed = app
        .get("/v1/me/notifications", Some(&seat0.token))
        .await
        .ok(200);
    let listed: Vec<&str> = feed["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["type"].as_str().unwrap())
        .collect();
    assert_eq!(listed, kinds);
    // … and a tournament's players are told of their table and of the end.
    crate::tournament_rounds::one_round_played(&app).await;
    assert_eq!(
        app.count("notifications WHERE kind = 'tournament_round'")
            .await,
        2
    );
    assert_eq!(
        app.count("notifications WHERE kind = 'tournament_finished'")
            .await,
        2
    );
}
