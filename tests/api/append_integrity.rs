//! The append's own guarantees, which the foreign keys from `events` to
//! `games` and from `notifications` to `users` used to double: an event is
//! written only with the bump of its game's row at the expected version, so
//! an append for a game that does not exist, or at a version the game is no
//! longer at, writes nothing (nor its notifications); a command from
//! someone who holds no seat is refused before any append, and every
//! notification's user is a seated one. A database written before the keys
//! were dropped upgrades and plays on.

use hatstand::db::games::{Update, append};
use hatstand::db::json_text::JsonText;
use hatstand::record::chain::LoggedEvent;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::support::{TestApp, TestDb};
use crate::upgrade::{legacy, login, rows_as_written_before};

/// The keys dropped, as a `count` of `pg_constraint`.
const KEYS: &str =
    "pg_constraint WHERE conname IN ('events_game_id_fkey', 'notifications_user_id_fkey')";

/// A game of Hats one command into play: its id, and the logged event of
/// that command (as the audit serves it).
async fn a_game_one_command_in(app: &TestApp) -> (String, LoggedEvent) {
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let seat = app.game(&id, None).await["to_act"][0].as_u64().unwrap();
    let user = &users[usize::try_from(seat).unwrap()];
    let game = app.game(&id, Some(user)).await;
    let version = game["version"].as_i64().unwrap();
    app.command(&id, user, version, &game["legal_commands"][0])
        .await
        .ok(200);
    let audit = app
        .get(&format!("/v1/games/{id}/audit"), None)
        .await
        .ok(200);
    let last = audit["events"].as_array().unwrap().last().unwrap().clone();
    let seat = app.game(&id, None).await["to_act"][0].as_u64().unwrap();
    let next = app
        .game(&id, Some(&users[usize::try_from(seat).unwrap()]))
        .await["legal_commands"][0]
        .clone();
    (id, serde_json::from_value(last).unwrap(), next)
}

/// The append of `event` to game `id` at `expected_version`, with a
/// notification for `notify`.
async fn try_append(
    app: &TestApp,
    id: Uuid,
    expected_version: i64,
    event: &LoggedEvent,
    notify: Uuid,
) -> hatstand::db::games::Appended {
    let mut conn = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    let state = JsonText::of(&json!({})).unwrap();
    let mut event = event.clone();
    event.seq = expected_version + 1;
    let notes = json!([{"user_id": notify, "kind": "your_turn", "payload": {}}]);
    let update = Update {
        id,
        expected_version,
        version: expected_version + 1,
        last_hash: &event.hash,
        state: Some(&state),
        to_act: &[0],
        status: "active",
        result: None,
        updated_at: chrono::Utc::now(),
        events: std::slice::from_ref(&event),
        deadline: None,
        seats: &json!([]),
        notifications: &notes,
        conditionals: &json!([]),
        pause: None,
    };
    append(&mut conn, &update, None).await.unwrap()
}

#[actix_web::test]
async fn given_no_keys_from_events_or_notifications_when_an_append_names_a_game_that_does_not_exist_then_nothing_is_written()
 {
    // Given a database whose event log has no foreign key to its games
    let app = TestApp::spawn().await;
    assert_eq!(app.count(KEYS).await, 0);
    let (_, event, _) = a_game_one_command_in(&app).await;
    let (events, notes) = (app.count("events").await, app.count("notifications").await);

    // When the append statement runs for a game id no game has
    let ghost = Uuid::new_v4();
    let appended = try_append(&app, ghost, 1, &event, event.actor_user.unwrap()).await;

    // Then it applies nothing and writes no event nor notification
    assert!(appended.is_none());
    assert_eq!(app.count("events").await, events);
    assert_eq!(app.count("notifications").await, notes);
    assert_eq!(
        app.count(&format!("events WHERE game_id = '{ghost}'")).await,
        0
    );
}

#[actix_web::test]
async fn given_a_game_when_an_append_is_at_a_version_it_is_no_longer_at_then_nothing_is_written() {
    // Given a game one command in
    let app = TestApp::spawn().await;
    let (id, event, _) = a_game_one_command_in(&app).await;
    let (events, notes) = (app.count("events").await, app.count("notifications").await);
    let version = app.game(&id, None).await["version"].as_i64().unwrap();

    // When an append names a version before the game's
    let appended = try_append(
        &app,
        id.parse().unwrap(),
        version - 1,
        &event,
        event.actor_user.unwrap(),
    )
    .await;

    // Then nothing is written: the version guard stands where the key did
    assert!(appended.is_none());
    assert_eq!(app.count("events").await, events);
    assert_eq!(app.count("notifications").await, notes);
}

#[actix_web::test]
async fn given_a_game_when_an_unknown_user_or_a_user_without_a_seat_commands_then_it_is_refused_and_nothing_is_written()
 {
    // Given a game one command in, and a user with no seat in it
    let app = TestApp::spawn().await;
    let (id, _, command) = a_game_one_command_in(&app).await;
    let stranger = app.users(1).await.remove(0);
    let game = app.game(&id, None).await;
    let version = game["version"].as_i64().unwrap();
    let events = app.count("events").await;

    // When the stranger commands, and someone commands a game that does not exist
    let refused = app.command(&id, &stranger, version, &command).await;
    let ghost = app
        .command(&Uuid::new_v4().to_string(), &stranger, 1, &command)
        .await;

    // Then both are refused and no event is written
    refused.assert_problem(403, "not_a_player");
    ghost.assert_problem(404, "not_found");
    assert_eq!(app.count("events").await, events);
    // (and every event's game and every notification's user exist: what
    // the keys guaranteed)
    assert_eq!(
        app.count("events e WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.id = e.game_id)")
            .await,
        0
    );
    assert!(app.count("notifications").await > 0);
    assert_eq!(
        app.count("notifications n WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = n.user_id)")
            .await,
        0
    );
}

#[actix_web::test]
async fn a_game_in_progress_written_with_the_keys_plays_on_after_they_are_dropped() {
    // Given a database of the release before, holding a game in progress
    // written as that release wrote it (with the key in place) …
    let db = TestDb::before("2026-12-11-000201_append_without_keys").await;
    let in_progress = legacy("hats-2p.json");
    let upto = in_progress.events.len() - 6;
    {
        use diesel_async::SimpleAsyncConnection;
        let mut conn = hatstand::db::locate::connect(&db.url).await.unwrap();
        conn.batch_execute(&rows_as_written_before(&in_progress, upto))
            .await
            .unwrap();
        conn.batch_execute(
            "DO $$ BEGIN
                 IF (SELECT count(*) FROM pg_constraint
                      WHERE conname IN ('events_game_id_fkey', 'notifications_user_id_fkey')) <> 2 THEN
                     RAISE EXCEPTION 'the release before had both keys';
                 END IF;
             END $$",
        )
        .await
        .unwrap();
    }
    // … when this release starts on it (and migrates it) …
    let app = TestApp::spawn_on(db, |_| {}).await;
    assert_eq!(app.count(KEYS).await, 0);

    // … then the game keeps its version and plays on to the end, its
    // record verified.
    let id = in_progress.game_id.to_string();
    assert_eq!(app.game(&id, None).await["version"], upto);
    let users = vec![
        login(&app, &in_progress, 0).await,
        login(&app, &in_progress, 1).await,
    ];
    let played = crate::play::play_out(&app, id.clone(), users, 3).await;
    assert_eq!(played.game["status"], "finished");
    let audit: Value = crate::play::verified_audit(&app, &id).await;
    assert_eq!(
        audit["events"].as_array().unwrap().len(),
        usize::try_from(played.game["version"].as_u64().unwrap()).unwrap()
    );
}
