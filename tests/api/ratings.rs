//! Ratings: a projection of finished games (docs/ratings.md). Incremental
//! rating equals a rebuild, to the bit, over hundreds of random games of
//! every ruleset finished by concurrent connections; games rated exactly
//! once; rated or casual by the game's options; the upgrade rates games
//! finished before ratings existed.

use std::process::Command;
use std::sync::Arc;

use diesel::QueryableByName;
use diesel_async::{RunQueryDsl, SimpleAsyncConnection};
use hatstand::db::locate;
use hatstand_engine::testing::playout;
use hatstand_engine::{GameKind, Ruleset, with_ruleset};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::play::play;
use crate::support::{TestApp, TestDb};

/// A random finished result of `ruleset` at `players` seats, played by the
/// engine with random legal commands.
fn random_result(ruleset: &str, players: usize, seed: u64) -> Value {
    let kind = GameKind::from_id(ruleset).unwrap();
    with_ruleset!(kind, |R| {
        let (state, _) = playout::<R>(players, Default::default(), seed, 100_000).unwrap();
        serde_json::to_value(R::result(&state).unwrap()).unwrap()
    })
}

/// The ratings' tables as text, every float to the bit (shortest exact form).
async fn ledger(url: &str) -> String {
    #[derive(QueryableByName)]
    struct Text {
        #[diesel(sql_type = diesel::sql_types::Text)]
        t: String,
    }
    let mut conn = locate::connect(url).await.unwrap();
    conn.batch_execute("SET extra_float_digits = 3")
        .await
        .unwrap();
    let changes: Text = diesel::sql_query(
        "SELECT COALESCE(string_agg(concat_ws('|', game_id, seat, user_id, finish_seq, ruleset, players,
                place, rating_before, deviation_before, volatility_before, rating_after,
                deviation_after, volatility_after), E'\\n' ORDER BY finish_seq, seat), '') AS t
           FROM rating_changes",
    )
    .get_result(&mut conn)
    .await
    .unwrap();
    let ratings: Text = diesel::sql_query(
        "SELECT COALESCE(string_agg(concat_ws('|', user_id, ruleset, players, rating, deviation,
                volatility, games, last_seq), E'\\n' ORDER BY user_id, ruleset, players), '') AS t
           FROM ratings",
    )
    .get_result(&mut conn)
    .await
    .unwrap();
    format!("{}\n--\n{}", changes.t, ratings.t)
}

const TABLES: [(&str, usize); 9] = [
    ("hats", 2),
    ("hats", 3),
    ("hats", 4),
    ("hat-trick", 2),
    ("hat-trick", 4),
    ("top-hats", 2),
    ("top-hats", 3),
    ("goathead", 3),
    ("goathead", 4),
];

/// One random game: (ruleset, players, seated users, server options,
/// private, result, expected rated).
struct Planned {
    id: Uuid,
    ruleset: &'static str,
    seats: Vec<Uuid>,
    options: Value,
    private: bool,
    result: Value,
    rated: bool,
}

fn plan(users: &[Uuid], bot: Uuid, seed: u64) -> Planned {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (ruleset, players) = TABLES[rng.random_range(0..TABLES.len())];
    let mut pool = users.to_vec();
    let mut seats = Vec::new();
    for _ in 0..players {
        seats.push(pool.swap_remove(rng.random_range(0..pool.len())));
    }
    let (options, private, rated) = match rng.random_range(0..10) {
        0 => (json!({}), true, false),
        1 => (json!({"rated": false}), false, false),
        2 => {
            seats[0] = bot;
            (json!({"rated": true}), false, true)
        }
        3 => {
            seats[0] = bot;
            (json!({}), false, false)
        }
        _ => (json!({}), false, true),
    };
    Planned {
        id: Uuid::new_v4(),
        ruleset,
        seats,
        options,
        private,
        result: random_result(ruleset, players, seed),
        rated,
    }
}

async fn insert_active(conn: &mut diesel_async::AsyncPgConnection, game: &Planned) {
    let mut sql = format!(
        "INSERT INTO games (id, ruleset, players, options, seed, seed_public, seed_commitment, status,
           version, last_hash, to_act, created_by, created_at, updated_at, server_options, private, rules_version)
         VALUES ('{}', '{}', {}, '{{}}', 's', false, 'c', 'active', 1, 'h', '{{}}', '{}', now(), now(),
                 '{}', {}, 1);",
        game.id,
        game.ruleset,
        game.seats.len(),
        game.seats[1],
        game.options,
        game.private
    );
    for (seat, user) in game.seats.iter().enumerate() {
        sql += &format!(
            "INSERT INTO seats (game_id, seat, user_id, joined_at) VALUES ('{}', {seat}, '{user}', now());",
            game.id
        );
    }
    conn.batch_execute(&sql).await.unwrap();
}

async fn finish(conn: &mut diesel_async::AsyncPgConnection, game: &Planned) {
    conn.batch_execute(&format!(
        "UPDATE games SET status = 'finished', version = 2, result = $r${}$r$, updated_at = now()
          WHERE id = '{}'",
        game.result, game.id
    ))
    .await
    .unwrap();
}

async fn count(url: &str, sql: &str) -> i64 {
    #[derive(QueryableByName)]
    struct N {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let mut conn = locate::connect(url).await.unwrap();
    diesel::sql_query(sql)
        .get_result::<N>(&mut conn)
        .await
        .unwrap()
        .n
}

fn rebuild_with_the_binary(url: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hatstand"))
        .args(["ratings", "rebuild"])
        .env("DATABASE_URL", url)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[actix_web::test]
async fn incremental_ratings_equal_a_rebuild_over_hundreds_of_random_games_finished_at_once() {
    const GAMES: u64 = 320;
    const WRITERS: u64 = 4;
    let app = TestApp::spawn().await;
    let url = app.db.url.clone();
    let mut users = Vec::new();
    for i in 0..10 {
        users.push(app.register(&format!("rated{i}")).await.id);
    }
    let bot = {
        #[derive(QueryableByName)]
        struct Id {
            #[diesel(sql_type = diesel::sql_types::Uuid)]
            id: Uuid,
        }
        let mut conn = locate::connect(&url).await.unwrap();
        diesel::sql_query("SELECT id FROM users WHERE kind = 'bot' ORDER BY id LIMIT 1")
            .get_result::<Id>(&mut conn)
            .await
            .unwrap()
            .id
    };
    let users = Arc::new(users);
    // Four writers, as four processes would: each starts games, finishes
    // them (several finishes at the same moment) and rates at once.
    let mut tasks = Vec::new();
    for w in 0..WRITERS {
        let (url, users) = (url.clone(), Arc::clone(&users));
        tasks.push(tokio::spawn(async move {
            let mut conn = locate::connect(&url).await.unwrap();
            let mut expected = 0;
            let mut open: Vec<Planned> = Vec::new();
            let mut rng = ChaCha8Rng::seed_from_u64(w);
            for g in (w..GAMES).step_by(WRITERS as usize) {
                let game = plan(&users, bot, g);
                insert_active(&mut conn, &game).await;
                open.push(game);
                // Finish one of the games in play, not always the oldest.
                if open.len() > 2 || g + WRITERS >= GAMES {
                    let game = open.swap_remove(rng.random_range(0..open.len()));
                    finish(&mut conn, &game).await;
                    hatstand::ratings::projection::catch_up(&mut conn)
                        .await
                        .unwrap();
                    expected += if game.rated {
                        game.seats.len() as i64
                    } else {
                        0
                    };
                }
            }
            for game in open.drain(..) {
                finish(&mut conn, &game).await;
                hatstand::ratings::projection::catch_up(&mut conn)
                    .await
                    .unwrap();
                expected += if game.rated {
                    game.seats.len() as i64
                } else {
                    0
                };
            }
            expected
        }));
    }
    let mut expected = 0;
    for t in tasks {
        expected += t.await.unwrap();
    }
    // Exactly once: one change a seat of every rated game, none for casual ones.
    assert_eq!(
        count(
            &url,
            "SELECT count(*) AS n FROM games WHERE status = 'finished'"
        )
        .await,
        GAMES as i64
    );
    assert_eq!(
        count(&url, "SELECT count(*) AS n FROM rating_changes").await,
        expected
    );
    assert_eq!(
        count(
            &url,
            "SELECT count(DISTINCT finish_seq) AS n FROM games WHERE finish_seq IS NOT NULL"
        )
        .await,
        GAMES as i64
    );
    // Every table size was rated, and the bot too.
    assert_eq!(
        count(
            &url,
            "SELECT count(DISTINCT (ruleset, players)) AS n FROM ratings"
        )
        .await,
        TABLES.len() as i64
    );
    assert!(
        count(
            &url,
            &format!("SELECT count(*) AS n FROM ratings WHERE user_id = '{bot}'")
        )
        .await
            > 0
    );
    // A player's games counted equal their changes.
    assert_eq!(
        count(
            &url,
            "SELECT count(*) AS n FROM ratings r WHERE games <> (SELECT count(*) FROM rating_changes c
               WHERE c.user_id = r.user_id AND c.ruleset = r.ruleset AND c.players = r.players)"
        )
        .await,
        0
    );
    let incremental = ledger(&url).await;
    assert!(incremental.lines().count() > 500, "{incremental}");
    let printed = rebuild_with_the_binary(&url);
    eprintln!("{printed}");
    assert!(
        printed.contains(&format!("from {GAMES} finished games")),
        "{printed}"
    );
    assert_eq!(ledger(&url).await, incremental);
}

#[actix_web::test]
async fn a_public_game_between_people_is_rated_and_a_private_one_is_casual() {
    let app = TestApp::spawn().await;
    let played = play(&app, "hats", 2, json!({}), 7).await;
    assert_eq!(played.game["rated"], true);
    let changes = count(
        &app.db.url,
        &format!(
            "SELECT count(*) AS n FROM rating_changes WHERE game_id = '{}'",
            played.id
        ),
    )
    .await;
    assert_eq!(changes, 2, "rated as the finishing command returned");
    let winner = played.game["result"]["winners"][0].as_u64();
    if let Some(w) = winner {
        let user = played.users[w as usize].id;
        assert_eq!(
            count(
                &app.db.url,
                &format!(
                    "SELECT count(*) AS n FROM ratings WHERE user_id = '{user}' AND rating > 1500 AND games = 1"
                )
            )
            .await,
            1
        );
    }
    let private = play(&app, "top-hats", 2, json!({"rated": false}), 8).await;
    assert_eq!(private.game["rated"], false);
    assert_eq!(
        count(
            &app.db.url,
            &format!(
                "SELECT count(*) AS n FROM rating_changes WHERE game_id = '{}'",
                private.id
            ),
        )
        .await,
        0
    );
}

/// A finishing command whose ratings' lock is held by another transaction
/// answers without waiting for it; its process's sweeper rates the game
/// once the lock is free.
#[actix_web::test]
async fn a_finishing_command_does_not_wait_for_a_rating_batch_and_its_game_is_rated_after() {
    let app = TestApp::spawn().await;
    let users = vec![app.register("quick0").await, app.register("quick1").await];
    let id = app.started_game(&users, "hats", json!({})).await;
    // One move each, so that the forfeit below is rated.
    for _ in 0..2 {
        let game = app.game(&id, None).await;
        let seat = game["to_act"][0].as_u64().unwrap() as usize;
        let mine = app.game(&id, Some(&users[seat])).await;
        let command = mine["legal_commands"][0].clone();
        app.command(
            &id,
            &users[seat],
            mine["version"].as_i64().unwrap(),
            &command,
        )
        .await
        .ok(200);
    }
    // Another transaction holds the ratings' lock, as a batch running
    // elsewhere would.
    let mut holder = locate::connect(&app.db.url).await.unwrap();
    holder
        .batch_execute("BEGIN; SELECT pg_advisory_xact_lock(7215682);")
        .await
        .unwrap();
    let resigned = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        app.post(
            &format!("/v1/games/{id}/resign"),
            Some(&users[1].token),
            &json!({}),
        ),
    )
    .await
    .expect("the finishing command waited for the ratings' lock");
    assert_eq!(resigned.ok(200)["status"], "finished");
    let rated = format!("SELECT count(*) AS n FROM rating_changes WHERE game_id = '{id}'");
    assert_eq!(
        count(&app.db.url, &rated).await,
        0,
        "rated under another's lock"
    );
    holder.batch_execute("COMMIT").await.unwrap();
    let mut waited = 0;
    while count(&app.db.url, &rated).await != 2 {
        waited += 1;
        assert!(
            waited < 100,
            "the game was never rated once the lock was free"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[actix_web::test]
async fn the_first_start_rates_games_finished_before_ratings_existed_in_finish_order() {
    let db = TestDb::before("2026-12-07-000120_ratings").await;
    let url = db.url.clone();
    // Rows as the release before wrote them: users, finished games, seats.
    let mut conn = locate::connect(&url).await.unwrap();
    let users: Vec<Uuid> = (0..4).map(|_| Uuid::new_v4()).collect();
    for (i, u) in users.iter().enumerate() {
        conn.batch_execute(&format!(
            "INSERT INTO users (id, username, password_hash, created_at) VALUES ('{u}', 'old{i}', 'x', now())"
        ))
        .await
        .unwrap();
    }
    let mut planned = Vec::new();
    for g in 0..40u64 {
        let mut game = plan(&users, Uuid::nil(), 1000 + g);
        if game.seats.contains(&Uuid::nil()) || planned.len() == 12 {
            continue;
        }
        game.options = json!({});
        game.private = false;
        game.rated = true;
        planned.push(game);
    }
    for (i, game) in planned.iter().enumerate() {
        insert_active(&mut conn, game).await;
        conn.batch_execute(&format!(
            "UPDATE games SET status = 'finished', version = 2, result = $r${}$r$,
                    updated_at = now() - interval '{} minutes' WHERE id = '{}'",
            game.result,
            100 - i,
            game.id
        ))
        .await
        .unwrap();
    }
    drop(conn);
    let app = TestApp::spawn_on(db, |_| {}).await;
    let url = app.db.url.clone();
    let expected: i64 = planned.iter().map(|g| g.seats.len() as i64).sum();
    assert_eq!(
        count(&url, "SELECT count(*) AS n FROM rating_changes").await,
        expected
    );
    // Numbered oldest first, below every new number.
    assert_eq!(
        count(
            &url,
            "SELECT count(*) AS n FROM games a JOIN games b ON a.finished_at < b.finished_at
              WHERE a.finish_seq > b.finish_seq OR a.finish_seq >= 0"
        )
        .await,
        0
    );
    let before = ledger(&url).await;
    rebuild_with_the_binary(&url);
    assert_eq!(ledger(&url).await, before);
    // A new game rates after them.
    let played = play(&app, "hats", 2, json!({}), 9).await;
    assert_eq!(
        count(
            &url,
            &format!(
                "SELECT count(*) AS n FROM games WHERE id = '{}' AND finish_seq > 0",
                played.id
            )
        )
        .await,
        1
    );
    assert_eq!(
        count(&url, "SELECT count(*) AS n FROM rating_changes").await,
        expected + 2
    );
}

#[actix_web::test]
async fn a_rated_game_shows_on_the_game_the_profile_the_history_and_once_established_the_board() {
    let app = TestApp::spawn().await;
    let played = play(&app, "hats", 2, json!({}), 11).await;
    let changes = app
        .get(&format!("/v1/games/{}/ratings", played.id), None)
        .await
        .ok(200);
    assert_eq!(changes["method"], "glicko2");
    assert_eq!(changes["changes"].as_array().unwrap().len(), 2, "{changes}");
    assert_eq!(changes["changes"][0]["before"]["rating"], 1500.0);
    assert_eq!(changes["changes"][0]["before"]["provisional"], true);
    let name = changes["changes"][0]["username"]
        .as_str()
        .unwrap()
        .to_owned();
    let profile = app.get(&format!("/v1/users/{name}"), None).await.ok(200);
    assert_eq!(profile["ratings"][0]["ruleset"], "hats");
    assert_eq!(profile["ratings"][0]["players"], 2);
    assert_eq!(profile["ratings"][0]["games"], 1);
    assert_eq!(profile["record"]["played"], 1);
    let outcomes = ["won", "drawn", "lost"]
        .iter()
        .map(|k| profile["record"][k].as_i64().unwrap())
        .sum::<i64>();
    assert_eq!(outcomes, 1, "{profile}");
    let history = app
        .get(&format!("/v1/users/{name}/ratings/hats?players=2"), None)
        .await
        .ok(200);
    assert_eq!(history["items"][0]["game_id"], played.id.as_str());
    assert_eq!(
        history["items"][0]["rating"],
        changes["changes"][0]["after"]["rating"]
    );
    // One game leaves a rating provisional: not on the board yet.
    let board = app.get("/v1/rulesets/hats/leaderboard", None).await.ok(200);
    assert_eq!(board["items"].as_array().unwrap().len(), 0, "{board}");
    app.sql("UPDATE ratings SET deviation = 80").await;
    let board = app
        .get("/v1/rulesets/hats/leaderboard?players=2&limit=1", None)
        .await
        .ok(200);
    assert_eq!(board["items"].as_array().unwrap().len(), 1, "{board}");
    let cursor = board["next_cursor"].as_str().unwrap().to_owned();
    let next = app
        .get(
            &format!("/v1/rulesets/hats/leaderboard?players=2&limit=1&cursor={cursor}"),
            None,
        )
        .await
        .ok(200);
    assert_eq!(next["items"].as_array().unwrap().len(), 1, "{next}");
    assert!(next["items"][0]["rating"].as_f64() <= board["items"][0]["rating"].as_f64());
    assert_ne!(next["items"][0]["user_id"], board["items"][0]["user_id"]);
    let bots = app
        .get("/v1/rulesets/hats/leaderboard?bots=true", None)
        .await
        .ok(200);
    assert_eq!(bots["items"].as_array().unwrap().len(), 0, "{bots}");
}

#[actix_web::test]
async fn bad_input_to_the_ratings_endpoints_is_refused_and_changes_nothing() {
    let app = TestApp::spawn().await;
    let before = app.footprint().await;
    for (path, status, code) in [
        ("/v1/rulesets/chess/leaderboard", 404, "not_found"),
        (
            "/v1/rulesets/hats/leaderboard?players=9",
            400,
            "bad_request",
        ),
        ("/v1/rulesets/hats/leaderboard?limit=0", 400, "bad_request"),
        ("/v1/rulesets/hats/leaderboard?cursor=x", 400, "bad_request"),
        (
            "/v1/rulesets/hats/leaderboard?cursor=NaN_00000000-0000-0000-0000-000000000000",
            400,
            "bad_request",
        ),
        (
            "/v1/rulesets/hats/leaderboard?colour=red",
            400,
            "bad_request",
        ),
        ("/v1/users/nobody-here/ratings/hats", 404, "not_found"),
        ("/v1/users/nobody-here", 404, "not_found"),
        ("/v1/games/not-a-uuid/ratings", 400, "bad_request"),
        (
            "/v1/games/00000000-0000-0000-0000-000000000000/ratings",
            404,
            "not_found",
        ),
    ] {
        app.get(path, None).await.assert_problem(status, code);
    }
    let user = app.register("asker").await;
    app.get(
        "/v1/users/asker/ratings/hats?cursor=soon",
        Some(&user.token),
    )
    .await
    .assert_problem(400, "bad_request");
    assert_eq!(app.footprint().await[1..], before[1..]);
}

#[actix_web::test]
async fn the_independent_script_recomputes_the_ratings_from_exported_audits() {
    let app = TestApp::spawn().await;
    let mut users = Vec::new();
    for i in 0..3 {
        users.push(app.register(&format!("scripted{i}")).await);
    }
    for (n, (ruleset, seated)) in [("hats", 2), ("top-hats", 2), ("hats", 3), ("hats", 2)]
        .into_iter()
        .enumerate()
    {
        let seats = &users[n % 2..n % 2 + seated.min(3 - n % 2)];
        if seats.len() < seated {
            continue;
        }
        let id = app.started_game(seats, ruleset, json!({})).await;
        crate::play::play_out(&app, id, seats.to_vec(), 30 + n as u64).await;
    }
    let export = Command::new(env!("CARGO_BIN_EXE_hatstand"))
        .args(["export"])
        .env("DATABASE_URL", &app.db.url)
        .output()
        .unwrap();
    assert!(
        export.status.success(),
        "{}",
        String::from_utf8_lossy(&export.stderr)
    );
    let file = std::env::temp_dir().join(format!("audits-{}.jsonl", Uuid::new_v4()));
    std::fs::write(&file, &export.stdout).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/ratings.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(&file)
        .output()
        .unwrap();
    std::fs::remove_file(&file).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.len() >= 4, "{lines:?}");
    for line in &lines {
        let profile = app
            .get(
                &format!("/v1/users/{}", line["username"].as_str().unwrap()),
                None,
            )
            .await
            .ok(200);
        let pool = profile["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["ruleset"] == line["ruleset"] && r["players"] == line["players"])
            .unwrap_or_else(|| panic!("{profile} lacks {line}"));
        for field in ["rating", "deviation"] {
            let (server, script) = (pool[field].as_f64().unwrap(), line[field].as_f64().unwrap());
            assert!(
                (server - script).abs() < 1e-9,
                "{field}: {server} vs {script} ({line})"
            );
        }
    }
}

#[actix_web::test]
async fn a_table_seeking_a_rating_range_refuses_players_outside_it_and_writes_nothing() {
    let app = TestApp::spawn().await;
    let users = app.users(3).await;
    let strong = app
        .created_game(
            &users[0],
            &json!({"ruleset": "hats", "players": 2, "options": {"rating_min": 1600}}),
        )
        .await;
    assert_eq!(strong["options"]["rating_min"], 1600.0);
    let id = strong["id"].as_str().unwrap();
    let before = app.footprint().await;
    app.post(
        &format!("/v1/games/{id}/join"),
        Some(&users[1].token),
        &json!({}),
    )
    .await
    .assert_problem(403, "rating_out_of_range");
    assert_eq!(app.footprint().await, before);
    let listed = app.get("/v1/games?status=open", None).await.ok(200);
    let item = listed["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id)
        .unwrap();
    assert_eq!(item["rating_min"], 1600.0, "{item}");
    // A newcomer (1500) fits a table for 1400 to 1550.
    let open = app
        .created_game(
            &users[0],
            &json!({"ruleset": "hats", "players": 2,
                    "options": {"rating_min": 1400, "rating_max": 1550}}),
        )
        .await;
    app.joined(open["id"].as_str().unwrap(), &users[2]).await;
    for bad in [
        json!({"rating_min": 1700, "rating_max": 1600}),
        json!({"rating_min": -1}),
        json!({"rating_max": "high"}),
    ] {
        app.post(
            "/v1/games",
            Some(&users[0].token),
            &json!({"ruleset": "hats", "players": 2, "options": bad}),
        )
        .await
        .assert_problem(422, "invalid_options");
    }
}

/// Every game id of `path`'s pages (`?limit=1`, following `next_cursor`).
async fn every_page(app: &TestApp, path: &str, token: Option<&str>) -> Vec<String> {
    let mut ids = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..20 {
        let url = match &cursor {
            Some(c) => format!("{path}?limit=1&cursor={c}"),
            None => format!("{path}?limit=1"),
        };
        let page = app.get(&url, token).await.ok(200);
        for game in page["games"].as_array().unwrap() {
            ids.push(game["id"].as_str().unwrap().to_owned());
        }
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => return ids,
        }
    }
    panic!("the pages do not end");
}

#[actix_web::test]
async fn a_profile_lists_recent_games_a_page_at_a_time_and_never_a_private_one_to_others() {
    let app = TestApp::spawn().await;
    let ada = app.register("ada").await;
    let bruno = app.register("bruno").await;
    let pair = vec![ada.clone(), bruno.clone()];
    let first = app.started_game(&pair, "hats", json!({})).await;
    crate::play::play_out(&app, first.clone(), pair.clone(), 1).await;
    // A private game the creator chose to rate.
    let private = app
        .created_game(
            &ada,
            &json!({"ruleset": "hats", "players": 2, "private": true,
                    "options": {"rated": true, "spectators": "link"}}),
        )
        .await;
    let private_id = private["id"].as_str().unwrap().to_owned();
    let code = private["invite_code"].as_str().unwrap();
    app.post(
        &format!("/v1/games/{private_id}/join"),
        Some(&bruno.token),
        &json!({"code": code}),
    )
    .await
    .ok(200);
    crate::play::play_out(&app, private_id.clone(), pair.clone(), 2).await;
    let last = app.started_game(&pair, "hats", json!({})).await;
    crate::play::play_out(&app, last.clone(), pair.clone(), 3).await;

    // To others, the public games only, the latest ended first.
    let seen = app.get("/v1/users/ada", None).await.ok(200);
    let listed: Vec<&str> = seen["recent_games"]["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, [last.as_str(), first.as_str()], "{seen}");
    assert_eq!(seen["record"]["played"], 3, "counts name no game");
    assert_eq!(
        every_page(&app, "/v1/users/ada/games", Some(&bruno.token)).await,
        [last.clone(), first.clone()],
        "another player (even one of that private game) pages through the public ones"
    );
    // The player sees all of theirs.
    let own = app.get("/v1/users/ada", Some(&ada.token)).await.ok(200);
    assert_eq!(own["recent_games"]["games"].as_array().unwrap().len(), 3);
    assert_eq!(
        every_page(&app, "/v1/users/ada/games", Some(&ada.token)).await,
        [last.clone(), private_id.clone(), first.clone()]
    );
    // The rating history names the private game to its player only.
    let public_points = app
        .get("/v1/users/ada/ratings/hats?players=2", None)
        .await
        .ok(200);
    let items = public_points["items"].as_array().unwrap();
    assert_eq!(items.len(), 3, "every rated game is a point");
    assert!(
        !public_points.to_string().contains(&private_id),
        "{public_points}"
    );
    assert_eq!(items[1]["game_id"], Value::Null);
    let own_points = app
        .get("/v1/users/ada/ratings/hats?players=2", Some(&ada.token))
        .await
        .ok(200);
    assert_eq!(own_points["items"][1]["game_id"], private_id.as_str());

    // The counters the database keeps are the counts of the seats.
    for user in [&ada, &bruno] {
        let profile = app
            .get(
                &format!(
                    "/v1/users/{}",
                    if user.id == ada.id { "ada" } else { "bruno" }
                ),
                None,
            )
            .await
            .ok(200);
        let won = count(
            &app.db.url,
            &format!(
                "SELECT count(*) AS n FROM seats s JOIN games g ON g.id = s.game_id
                  WHERE s.user_id = '{}' AND g.result->'winners' @> to_jsonb(s.seat)",
                user.id
            ),
        )
        .await;
        assert_eq!(profile["record"]["won"], won);
        let r = &profile["record"];
        assert_eq!(
            r["won"].as_i64().unwrap() + r["drawn"].as_i64().unwrap() + r["lost"].as_i64().unwrap(),
            3
        );
    }

    let before = app.footprint().await;
    for (path, status, code) in [
        ("/v1/users/ada/games?cursor=x", 400, "bad_request"),
        ("/v1/users/ada/games?limit=0", 400, "bad_request"),
        ("/v1/users/ada/games?limit=101", 400, "bad_request"),
        ("/v1/users/ada/games?colour=red", 400, "bad_request"),
        ("/v1/users/nobody-here/games", 404, "not_found"),
    ] {
        app.get(path, None).await.assert_problem(status, code);
    }
    assert_eq!(app.footprint().await, before);
}

/// Users whose counters differ from their seats' games over, counted the
/// long way.
const RECORDS_DIFFERING: &str = "SELECT count(*) AS n FROM (
    SELECT s.user_id, count(*) AS played,
           count(*) FILTER (WHERE g.status = 'finished' AND g.result->'winners' @> to_jsonb(s.seat)) AS won,
           count(*) FILTER (WHERE g.status = 'finished' AND jsonb_array_length(g.result->'winners') = 0) AS drawn,
           count(*) FILTER (WHERE g.status = 'finished' AND jsonb_array_length(g.result->'winners') > 0
                              AND NOT g.result->'winners' @> to_jsonb(s.seat)) AS lost,
           count(*) FILTER (WHERE g.status = 'abandoned') AS abandoned
      FROM seats s JOIN games g ON g.id = s.game_id
     WHERE g.finished_at IS NOT NULL
     GROUP BY s.user_id) want
  FULL JOIN user_records r USING (user_id)
 WHERE (want.played, want.won, want.drawn, want.lost, want.abandoned)
       IS DISTINCT FROM (r.played, r.won, r.drawn, r.lost, r.abandoned)";

#[actix_web::test]
async fn games_over_before_the_counters_existed_are_counted_once_by_the_upgrade() {
    let db = TestDb::before("2026-12-08-000201_user_records").await;
    let url = db.url.clone();
    let mut conn = locate::connect(&url).await.unwrap();
    let users: Vec<Uuid> = (0..4).map(|_| Uuid::new_v4()).collect();
    for (i, u) in users.iter().enumerate() {
        conn.batch_execute(&format!(
            "INSERT INTO users (id, username, password_hash, created_at) VALUES ('{u}', 'old{i}', 'x', now())"
        ))
        .await
        .unwrap();
    }
    let mut over = 0;
    for g in 0..30u64 {
        let mut game = plan(&users, Uuid::nil(), 2000 + g);
        if game.seats.contains(&Uuid::nil()) {
            continue;
        }
        game.private = false;
        game.options = json!({});
        insert_active(&mut conn, &game).await;
        if g % 5 == 0 {
            conn.batch_execute(&format!(
                "UPDATE games SET status = 'abandoned', updated_at = now() WHERE id = '{}'",
                game.id
            ))
            .await
            .unwrap();
        } else {
            finish(&mut conn, &game).await;
        }
        over += game.seats.len() as i64;
    }
    drop(conn);
    let app = TestApp::spawn_on(db, |_| {}).await;
    let url = app.db.url.clone();
    assert_eq!(count(&url, RECORDS_DIFFERING).await, 0);
    assert_eq!(
        count(&url, "SELECT sum(played)::int8 AS n FROM user_records").await,
        over
    );
    // Games ending now are counted as they end, once.
    play(&app, "hats", 2, json!({}), 4).await;
    assert_eq!(count(&url, RECORDS_DIFFERING).await, 0);
    assert_eq!(
        count(&url, "SELECT sum(played)::int8 AS n FROM user_records").await,
        over + 2
    );
}
