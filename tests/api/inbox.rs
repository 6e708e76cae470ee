//! The inbox (`GET /v1/me/games`) reads the caller's own seats, which carry
//! their game's creation time and status: it follows a game from open to
//! over, pages through the caller's games alone, and seats written before
//! the seats carried them are filled when the database is upgraded.

use serde_json::{Value, json};

use crate::play::play_out;
use crate::support::{TestApp, TestDb, User};

fn ids(page: &Value) -> Vec<String> {
    page["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect()
}

async fn inbox(app: &TestApp, user: &User, query: &str) -> Value {
    app.get(&format!("/v1/me/games{query}"), Some(&user.token))
        .await
        .ok(200)
}

#[actix_web::test]
async fn the_inbox_follows_each_game_from_open_to_over() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    // Given an open game of the first player …
    let open = app
        .created_game(&users[0], &json!({"ruleset": "hats", "players": 2}))
        .await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        ids(&inbox(&app, &users[0], "?status=open").await),
        vec![open.clone()]
    );
    assert_eq!(ids(&inbox(&app, &users[1], "").await), Vec::<String>::new());
    // … when the second joins, it is active for both …
    app.joined(&open, &users[1]).await;
    for user in &users {
        assert_eq!(
            ids(&inbox(&app, user, "?status=active").await),
            vec![open.clone()]
        );
        assert_eq!(inbox(&app, user, "?status=open").await["games"], json!([]));
    }
    // … and once played out, it is over for both, and nobody's turn.
    let played = play_out(&app, open.clone(), users.clone(), 7).await;
    assert_eq!(played.game["status"], "finished");
    for user in &users {
        assert_eq!(
            ids(&inbox(&app, user, "?status=finished").await),
            vec![open.clone()]
        );
        assert_eq!(
            inbox(&app, user, "?status=active").await["games"],
            json!([])
        );
        assert_eq!(inbox(&app, user, "?turn=mine").await["games"], json!([]));
        assert_eq!(ids(&inbox(&app, user, "").await), vec![open.clone()]);
    }
}

#[actix_web::test]
async fn the_inbox_pages_through_the_callers_games_alone_newest_first() {
    let app = TestApp::spawn().await;
    let users = app.users(3).await;
    // Five games of the first player (two private), and games of others
    // created between them.
    let mut mine = Vec::new();
    for n in 0..5 {
        let game = app
            .created_game(
                &users[0],
                &json!({"ruleset": "hats", "players": 2, "private": n % 2 == 1}),
            )
            .await;
        mine.push(game["id"].as_str().unwrap().to_owned());
        app.created_game(&users[1], &json!({"ruleset": "hats", "players": 2}))
            .await;
    }
    mine.reverse();
    let mut seen = Vec::new();
    let mut query = "?limit=2".to_owned();
    loop {
        let page = inbox(&app, &users[0], &query).await;
        seen.extend(ids(&page));
        match page["next_cursor"].as_str() {
            Some(cursor) => query = format!("?limit=2&cursor={cursor}"),
            None => break,
        }
    }
    assert_eq!(seen, mine);
    let open = ids(&inbox(&app, &users[0], "?status=open&limit=3").await);
    assert_eq!(open, mine[..3]);
    assert_eq!(inbox(&app, &users[2], "").await["games"], json!([]));
}

#[actix_web::test]
async fn seats_written_before_the_upgrade_are_listed_after_it() {
    use diesel_async::SimpleAsyncConnection;
    // Given a database of the release before, with a game over and a game
    // in play written as it wrote them …
    let db = TestDb::before("2026-12-06-000100_seats_inbox").await;
    let hash = hatstand::auth::password::hash("password123").unwrap();
    let (ann, bob) = (uuid::Uuid::new_v4(), uuid::Uuid::new_v4());
    let (over, playing) = (uuid::Uuid::new_v4(), uuid::Uuid::new_v4());
    let game = |id: uuid::Uuid, status: &str, age: &str| {
        format!(
            "INSERT INTO games (id, ruleset, players, options, seed, seed_public, seed_commitment,
                                status, version, last_hash, to_act, created_by, created_at,
                                updated_at, rules_version)
             VALUES ('{id}', 'hats', 2, '{{}}', '', false, '', '{status}', 1, '', '{{}}', '{ann}',
                     now() - interval '{age}', now() - interval '{age}', 1);
             INSERT INTO seats (game_id, seat, user_id, joined_at)
             VALUES ('{id}', 0, '{ann}', now()), ('{id}', 1, '{bob}', now());"
        )
    };
    let sql = format!(
        "INSERT INTO users (id, username, password_hash) VALUES
             ('{ann}', 'ann', '{hash}'), ('{bob}', 'bob', '{hash}');
         {}{}",
        game(over, "finished", "2 days"),
        game(playing, "active", "1 day"),
    );
    let mut conn = hatstand::db::locate::connect(&db.url).await.unwrap();
    conn.batch_execute(&sql).await.unwrap();
    drop(conn);
    // … when this release migrates it …
    let app = TestApp::spawn_on(db, |_| {}).await;
    assert_eq!(
        app.count("seats WHERE game_status IS NULL OR game_created_at IS NULL")
            .await,
        0
    );
    assert_eq!(
        app.count("seats WHERE game_finished_at IS NOT NULL").await,
        2
    );
    // … each player's inbox lists both, by status too.
    let login = app
        .post(
            "/v1/auth/login",
            None,
            &json!({"username": "bob", "password": "password123"}),
        )
        .await
        .ok(200);
    let bob = User {
        id: bob,
        token: login["access_token"].as_str().unwrap().to_owned(),
    };
    assert_eq!(
        ids(&inbox(&app, &bob, "").await),
        vec![playing.to_string(), over.to_string()]
    );
    assert_eq!(
        ids(&inbox(&app, &bob, "?status=finished").await),
        vec![over.to_string()]
    );
}
