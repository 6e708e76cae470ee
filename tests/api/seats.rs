//! Seats that never stay empty (docs/seats.md): the cap on games at once,
//! blocks, reliability and substitutes.

use futures_util::future::join_all;
use serde_json::{Value, json};

use crate::play::play;
use crate::support::{Reply, TestApp, User};

fn hats(players: usize) -> Value {
    json!({"ruleset": "hats", "players": players})
}

async fn join(app: &TestApp, id: &str, user: &User) -> Reply {
    app.post(
        &format!("/v1/games/{id}/join"),
        Some(&user.token),
        &json!({}),
    )
    .await
}

fn id_of(game: &Value) -> String {
    game["id"].as_str().unwrap().to_owned()
}

/// The rows a refused seat must leave as they are.
async fn footprint(app: &TestApp) -> Vec<i64> {
    let mut out = app.footprint().await;
    out.push(app.count("invitations").await);
    out.push(app.count("notifications").await);
    out.push(app.count("rematches WHERE state <> 'offered'").await);
    out
}

#[actix_web::test]
async fn the_cap_on_games_at_once_refuses_a_seat_past_it_however_it_is_taken() {
    let app = &TestApp::spawn_with(|s| s.limits.seats_at_once = 2).await;
    let ann = &app.register("ann").await;
    let bob = &app.register("bob").await;
    // Given ann seated in two games …
    let first = id_of(&app.created_game(ann, &hats(3)).await);
    let second = id_of(&app.created_game(bob, &hats(3)).await);
    join(app, &second, ann).await.ok(200);
    // … a third seat is refused, by creation, by joining, by accepting an
    // invitation, and nothing is written.
    let invited = app
        .created_game(
            bob,
            &json!({"ruleset": "hats", "players": 3, "invitees": ["ann"], "join": false}),
        )
        .await;
    let invited = id_of(&invited);
    let third = json!({"ruleset": "hats", "players": 3, "join": false});
    let third = id_of(&app.created_game(bob, &third).await);
    let before = footprint(app).await;
    let refused = app.post("/v1/games", Some(&ann.token), &hats(3)).await;
    refused.assert_problem(409, "too_many_games");
    assert!(
        refused.body["detail"].as_str().unwrap().contains("2 games"),
        "{}",
        refused.body
    );
    join(app, &third, ann)
        .await
        .assert_problem(409, "too_many_games");
    join(app, &invited, ann)
        .await
        .assert_problem(409, "too_many_games");
    assert_eq!(footprint(app).await, before);
    // A game created without a seat holds none: it is not capped.
    app.post(
        "/v1/games",
        Some(&ann.token),
        &json!({"ruleset": "hats", "players": 2, "join": false}),
    )
    .await
    .ok(201);
    // Other players are not held by ann's cap.
    let cy = &app.register("cyd").await;
    join(app, &third, cy).await.ok(200);
    // A game cancelled frees its place: ann accepts the invitation.
    app.post(
        &format!("/v1/games/{first}/cancel"),
        Some(&ann.token),
        &json!({}),
    )
    .await
    .ok(200);
    join(app, &invited, ann).await.ok(200);
    join(app, &third, ann)
        .await
        .assert_problem(409, "too_many_games");
}

#[actix_web::test]
async fn seats_taken_at_once_at_the_cap_seat_exactly_one() {
    let app = &TestApp::spawn_with(|s| s.limits.seats_at_once = 1).await;
    let bob = &app.register("bob").await;
    let ann = &app.register("ann").await;
    let open = json!({"ruleset": "hats", "players": 3, "join": false});
    let mut games = Vec::new();
    for _ in 0..4 {
        games.push(id_of(&app.created_game(bob, &open).await));
    }
    // Four joins at once, and a creation with a seat among them.
    let joins = join_all(games.iter().map(|id| join(app, id, ann)));
    let body = hats(3);
    let create = app.post("/v1/games", Some(&ann.token), &body);
    let (mut replies, created) = tokio::join!(joins, create);
    replies.push(created);
    let won = replies.iter().filter(|r| r.status.is_success()).count();
    assert_eq!(won, 1, "{replies:?}");
    for reply in replies.iter().filter(|r| !r.status.is_success()) {
        reply.assert_problem(409, "too_many_games");
    }
    assert_eq!(
        app.count(&format!("seats WHERE user_id = '{}'", ann.id))
            .await,
        1
    );
}

#[actix_web::test]
async fn a_rematch_past_a_players_cap_is_refused_and_writes_nothing() {
    let app = &TestApp::spawn_with(|s| s.limits.seats_at_once = 1).await;
    let played = play(app, "hats", 2, json!({}), 3).await;
    let (ada, bruno) = (&played.users[0], &played.users[1]);
    let id = played.id.as_str();
    // bruno takes his one seat elsewhere meanwhile.
    app.created_game(bruno, &hats(3)).await;
    app.post(
        &format!("/v1/games/{id}/rematch"),
        Some(&ada.token),
        &json!({}),
    )
    .await
    .ok(200);
    let before = footprint(app).await;
    let refused = app
        .post(
            &format!("/v1/games/{id}/rematch/accept"),
            Some(&bruno.token),
            &json!({}),
        )
        .await;
    refused.assert_problem(409, "too_many_games");
    assert_eq!(footprint(app).await, before);
}

async fn block(app: &TestApp, user: &User, name: &str) -> Reply {
    app.post(
        "/v1/me/blocks",
        Some(&user.token),
        &json!({"username": name}),
    )
    .await
}

async fn unblock(app: &TestApp, user: &User, name: &str) -> Reply {
    app.send(
        "DELETE",
        &format!("/v1/me/blocks/{name}"),
        Some(&user.token),
        &[],
        &json!(null),
    )
    .await
}

#[actix_web::test]
async fn blocks_are_listed_added_removed_and_bad_input_writes_nothing() {
    let app = &TestApp::spawn().await;
    let ann = &app.register("ann").await;
    app.register("mallory").await;
    app.register("bob").await;
    assert_eq!(
        app.get("/v1/me/blocks", Some(&ann.token)).await.ok(200),
        json!({"blocked": []})
    );
    assert_eq!(
        block(app, ann, "MALLORY").await.ok(200),
        json!({"blocked": ["mallory"]})
    );
    // Again: nothing changes.
    assert_eq!(
        block(app, ann, "mallory").await.ok(200),
        json!({"blocked": ["mallory"]})
    );
    block(app, ann, "bob").await.ok(200);
    assert_eq!(
        app.get("/v1/me/blocks", Some(&ann.token)).await.ok(200),
        json!({"blocked": ["bob", "mallory"]})
    );
    let rows = app.count("user_blocks").await;
    assert_eq!(rows, 2);
    block(app, ann, "ann")
        .await
        .assert_problem(403, "forbidden");
    block(app, ann, "nobody")
        .await
        .assert_problem(404, "not_found");
    app.post("/v1/me/blocks", Some(&ann.token), &json!({"user": "bob"}))
        .await
        .assert_problem(400, "bad_request");
    app.post("/v1/me/blocks", Some(&ann.token), &json!({"username": 7}))
        .await
        .assert_problem(400, "bad_request");
    app.post("/v1/me/blocks", None, &json!({"username": "bob"}))
        .await
        .assert_problem(401, "unauthenticated");
    unblock(app, ann, "nobody")
        .await
        .assert_problem(404, "not_found");
    assert_eq!(app.count("user_blocks").await, rows);
    assert_eq!(
        unblock(app, ann, "Bob").await.ok(200),
        json!({"blocked": ["mallory"]})
    );
    // Unblocking one not blocked changes nothing.
    assert_eq!(
        unblock(app, ann, "bob").await.ok(200),
        json!({"blocked": ["mallory"]})
    );
}

#[actix_web::test]
async fn a_block_past_the_most_is_refused_and_writes_nothing() {
    let app = &TestApp::spawn().await;
    let ann = &app.register("ann").await;
    app.register("bob").await;
    // Given ann blocks as many users as she may …
    app.sql(
        "INSERT INTO users (id, username, password_hash, created_at)
           SELECT gen_random_uuid(), 'quiet' || g, 'x', now() FROM generate_series(1, 1000) AS g;
         INSERT INTO user_blocks (user_id, blocked, created_at)
           SELECT a.id, u.id, now() FROM users a, users u
            WHERE a.username = 'ann' AND u.username LIKE 'quiet%'",
    )
    .await;
    let rows = app.count("user_blocks").await;
    assert_eq!(rows, 1000);
    // … when she blocks one more, she is refused and nothing is written;
    block(app, ann, "bob")
        .await
        .assert_problem(409, "too_many_blocks");
    assert_eq!(app.count("user_blocks").await, rows);
    // blocking one she already blocks is still no change, and answered.
    block(app, ann, "quiet7").await.ok(200);
    assert_eq!(app.count("user_blocks").await, rows);
}

#[actix_web::test]
async fn blocked_players_never_sit_at_one_open_table_whoever_comes_second() {
    let app = &TestApp::spawn().await;
    let ann = &app.register("ann").await;
    let mallory = &app.register("mallory").await;
    let cy = &app.register("cyd").await;
    block(app, ann, "mallory").await.ok(200);
    // mallory comes to ann's table: refused, nothing written.
    let anns = id_of(&app.created_game(ann, &hats(3)).await);
    let before = footprint(app).await;
    let refused = join(app, &anns, mallory).await;
    refused.assert_problem(403, "seat_refused");
    assert_eq!(footprint(app).await, before);
    // ann comes to mallory's table: refused in the same words.
    let mallorys = id_of(&app.created_game(mallory, &hats(3)).await);
    let before = footprint(app).await;
    let refused_too = join(app, &mallorys, ann).await;
    refused_too.assert_problem(403, "seat_refused");
    assert_eq!(refused.body["detail"], refused_too.body["detail"]);
    assert_eq!(footprint(app).await, before);
    // Others sit with either.
    join(app, &anns, cy).await.ok(200);
    join(app, &mallorys, cy).await.ok(200);
    // Unblocked, they sit together.
    unblock(app, ann, "mallory").await.ok(200);
    join(app, &anns, mallory).await.ok(200);
}

#[actix_web::test]
async fn a_blocked_users_invitation_never_reaches_the_blocker_and_reads_unanswered() {
    let app = &TestApp::spawn().await;
    let ann = &app.register("ann").await;
    let mallory = &app.register("mallory").await;
    app.register("cyd").await;
    block(app, ann, "mallory").await.ok(200);
    // mallory invites ann and cy: the game is made as ever …
    let game = app
        .created_game(
            mallory,
            &json!({"ruleset": "hats", "players": 3, "invitees": ["ann", "cyd"]}),
        )
        .await;
    let id = id_of(&game);
    // … ann is neither invited nor told nor shown the game …
    assert_eq!(
        app.count(&format!("invitations WHERE user_id = '{}'", ann.id))
            .await,
        0
    );
    assert_eq!(
        app.count(&format!(
            "notifications WHERE user_id = '{}' AND kind = 'invited'",
            ann.id
        ))
        .await,
        0
    );
    app.get(&format!("/v1/games/{id}"), Some(&ann.token))
        .await
        .assert_problem(404, "not_found");
    let listed = app.get("/v1/games", Some(&ann.token)).await.ok(200);
    assert!(!listed.to_string().contains(&id), "{listed}");
    // … while mallory's record shows ann invited like cy, and no answer.
    let events = app
        .get(&format!("/v1/games/{id}/events"), Some(&mallory.token))
        .await
        .ok(200);
    let invited: Vec<&str> = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "player_invited")
        .map(|e| e["data"]["username"].as_str().unwrap())
        .collect();
    assert_eq!(invited, ["ann", "cyd"]);
    assert!(!events.to_string().contains("player_declined"));
    // The blocker inviting the one they block is refused, and told why.
    let before = footprint(app).await;
    let refused = app
        .post(
            "/v1/games",
            Some(&ann.token),
            &json!({"ruleset": "hats", "players": 3, "invitees": ["mallory"]}),
        )
        .await;
    refused.assert_problem(403, "seat_refused");
    assert!(refused.body["detail"].as_str().unwrap().contains("mallory"));
    assert_eq!(footprint(app).await, before);
}

#[actix_web::test]
async fn a_blocked_users_talk_reaches_the_blocker_nowhere() {
    let app = &TestApp::spawn().await;
    let users = app.users(3).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    block(app, &users[1], "player0").await.ok(200);
    say(app, &id, &users[0], "hello").await;
    say(app, &id, &users[2], "hi").await;
    assert_eq!(texts(app, &id, &users[1]).await, ["hi"]);
    assert_eq!(texts(app, &id, &users[2]).await, ["hello", "hi"]);
    // The game's feed with talk leaves it out too.
    let feed = app
        .get(
            &format!("/v1/games/{id}/events?talk_after=0"),
            Some(&users[1].token),
        )
        .await
        .ok(200);
    assert!(!feed["talk"].to_string().contains("hello"), "{feed}");
    // No talk notification for the blocker (but the third player's).
    assert_eq!(
        app.count(&format!(
            "notifications WHERE user_id = '{}' AND kind = 'talk' AND payload::text LIKE '%hello%'",
            users[1].id
        ))
        .await,
        0
    );
    // The author is not told: posting worked, and the third player reads it.
}

async fn say(app: &TestApp, id: &str, user: &User, text: &str) {
    app.post(
        &format!("/v1/games/{id}/talk"),
        Some(&user.token),
        &json!({"text": text}),
    )
    .await
    .ok(201);
}

async fn texts(app: &TestApp, id: &str, user: &User) -> Vec<String> {
    let page = app
        .get(&format!("/v1/games/{id}/talk"), Some(&user.token))
        .await
        .ok(200);
    page["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_owned())
        .collect()
}

async fn reliability(app: &TestApp, name: &str) -> Value {
    app.get(&format!("/v1/users/{name}"), None).await.ok(200)["reliability"].clone()
}

#[actix_web::test]
async fn reliability_counts_games_left_tables_may_ask_for_it_and_a_rebuild_gives_the_same() {
    let app = &TestApp::spawn().await;
    let users = app.users(2).await;
    let newcomer = &app.register("newcomer").await;
    assert_eq!(
        reliability(app, "newcomer").await,
        json!({"score": 100, "played": 0, "left": 0, "timeouts": 0, "vacation_days": 0})
    );
    // player1 leaves a game of two: it ends by forfeit.
    let id = app.started_game(&users, "hats", json!({})).await;
    app.post(
        &format!("/v1/games/{id}/resign"),
        Some(&users[1].token),
        &json!({}),
    )
    .await
    .ok(200);
    let stayed = reliability(app, "player0").await;
    let left = reliability(app, "player1").await;
    assert_eq!(stayed["score"], 100, "{stayed}");
    assert_eq!(stayed["played"], 1);
    assert_eq!(
        left,
        json!({"score": 0, "played": 1, "left": 1, "timeouts": 0, "vacation_days": 0})
    );
    // A table asking for 50 or more: player1 is refused and nothing is
    // written; a newcomer (100) sits.
    let table = app
        .created_game(
            &users[0],
            &json!({"ruleset": "hats", "players": 3, "options": {"min_reliability": 50}}),
        )
        .await;
    assert_eq!(table["options"]["min_reliability"], 50, "{table}");
    let table = id_of(&table);
    let before = footprint(app).await;
    let refused = join(app, &table, &users[1]).await;
    refused.assert_problem(403, "reliability_too_low");
    assert_eq!(footprint(app).await, before);
    join(app, &table, newcomer).await.ok(200);
    // Out of bounds is refused.
    app.post(
        "/v1/games",
        Some(&users[0].token),
        &json!({"ruleset": "hats", "players": 3, "options": {"min_reliability": 101}}),
    )
    .await
    .assert_problem(422, "invalid_options");
    // Counters gone wrong are counted again from the seats: the same numbers.
    app.sql(
        "UPDATE user_records SET played = 9, left_seats = 0, timeouts = 7, vacation_secs = 999999",
    )
    .await;
    assert_ne!(reliability(app, "player1").await, left);
    let mut conn = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    let players = hatstand::ratings::reliability::rebuild(&mut conn)
        .await
        .unwrap();
    assert_eq!(players, 2);
    assert_eq!(reliability(app, "player1").await, left);
    assert_eq!(reliability(app, "player0").await, stayed);
}

/// Players whose reliability counters differ from their seats in games
/// over, counted the long way.
const RELIABILITY_DIFFERING: &str = "SELECT count(*) AS n FROM (
    SELECT s.user_id, count(*) AS played,
           count(*) FILTER (WHERE s.resigned_at IS NOT NULL) AS left_seats,
           sum(s.timeouts)::int8 AS timeouts, sum(s.vacation_used_secs)::int8 AS vacation_secs
      FROM seats s JOIN games g ON g.id = s.game_id
     WHERE g.finished_at IS NOT NULL
     GROUP BY s.user_id) want
  FULL JOIN user_records r USING (user_id)
 WHERE (want.played, want.left_seats, want.timeouts, want.vacation_secs)
       IS DISTINCT FROM (r.played, r.left_seats, r.timeouts, r.vacation_secs)";

async fn count(url: &str, sql: &str) -> i64 {
    use diesel_async::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct N {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let mut conn = hatstand::db::locate::connect(url).await.unwrap();
    diesel::sql_query(sql)
        .get_result::<N>(&mut conn)
        .await
        .unwrap()
        .n
}

#[actix_web::test]
async fn games_over_before_reliability_are_counted_by_the_upgrade_and_the_rebuild_agrees() {
    use diesel_async::SimpleAsyncConnection;
    let db = crate::support::TestDb::before("2026-12-09-000301_reliability").await;
    let url = db.url.clone();
    let mut conn = hatstand::db::locate::connect(&url).await.unwrap();
    let users: Vec<uuid::Uuid> = (0..3).map(|_| uuid::Uuid::new_v4()).collect();
    let mut sql = String::new();
    for (i, u) in users.iter().enumerate() {
        sql += &format!(
            "INSERT INTO users (id, username, password_hash, created_at) VALUES ('{u}', 'old{i}', 'x', now());"
        );
    }
    // Games of two written as the release before wrote them: some seats
    // left, some turns run out, some vacation; every game then over.
    for g in 0..12usize {
        let id = uuid::Uuid::new_v4();
        let (a, b) = (users[g % 3], users[(g + 1) % 3]);
        sql += &format!(
            "INSERT INTO games (id, ruleset, players, options, seed, seed_public, seed_commitment, status,
               version, last_hash, to_act, created_by, created_at, updated_at, server_options, private, rules_version)
             VALUES ('{id}', 'hats', 2, '{{}}', 's', false, 'c', 'active', 1, 'h', '{{}}', '{a}', now(), now(),
                     '{{}}', false, 1);
             INSERT INTO seats (game_id, seat, user_id, joined_at, timeouts, vacation_used_secs, resigned_at)
             VALUES ('{id}', 0, '{a}', now(), {}, {}, NULL),
                    ('{id}', 1, '{b}', now(), {}, 0, {});
             UPDATE games SET status = '{}', version = 2, result = '{{\"winners\": [0]}}', updated_at = now()
              WHERE id = '{id}';",
            g % 4,
            (g % 3) * 86_400,
            g % 2,
            if g % 3 == 0 { "now()" } else { "NULL" },
            if g % 5 == 0 { "abandoned" } else { "finished" },
        );
    }
    conn.batch_execute(&sql).await.unwrap();
    drop(conn);
    let app = &TestApp::spawn_on(db, |_| {}).await;
    assert_eq!(count(&url, RELIABILITY_DIFFERING).await, 0);
    assert!(count(&url, "SELECT sum(left_seats)::int8 AS n FROM user_records").await > 0);
    let before = reliability(app, "old0").await;
    // Games ending now are counted as they end.
    play(app, "hats", 2, json!({}), 4).await;
    assert_eq!(count(&url, RELIABILITY_DIFFERING).await, 0);
    // The rebuild gives the same numbers.
    let mut conn = hatstand::db::locate::connect(&url).await.unwrap();
    hatstand::ratings::reliability::rebuild(&mut conn)
        .await
        .unwrap();
    assert_eq!(count(&url, RELIABILITY_DIFFERING).await, 0);
    assert_eq!(reliability(app, "old0").await, before);
}
