//! The game's log in words (`GET /v1/games/{id}/log`): the same sentences
//! as the mails, told from the viewer's own events, with the counters
//! players count; the counters also stand in the game beside `version`.

use serde_json::{Value, json};

use crate::support::{TestApp, User};

/// A 2-player Hats deal; `twin` swaps seat 0's first card with the deck's
/// last: a difference only seat 0 may know.
fn deal(twin: bool) -> Value {
    let mut deck: Vec<String> = ["T", "S", "H", "C", "D"]
        .iter()
        .flat_map(|t| (1..=6).map(move |n| format!("{t}{n}")))
        .collect();
    if twin {
        deck.swap(5, 29);
    }
    json!({"line": deck[0..5], "hands": [deck[5..14], deck[14..23]], "deck": deck[23..]})
}

/// Plays `moves` commands, each the first legal one that leaves the two
/// swapped cards alone and draws nothing.
async fn play(app: &TestApp, id: &str, users: &[User], moves: usize, twin_cards: &[&str]) {
    for _ in 0..moves {
        let any = app.game(id, None).await;
        let seat = any["to_act"][0].as_u64().unwrap() as usize;
        let game = app.game(id, Some(&users[seat])).await;
        let command = game["legal_commands"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| {
                c["type"] != "discard_draw"
                    && !twin_cards.contains(&c["card"].as_str().unwrap_or(""))
            })
            .unwrap()
            .clone();
        app.command(
            id,
            &users[seat],
            game["version"].as_i64().unwrap(),
            &command,
        )
        .await
        .ok(200);
    }
}

#[actix_web::test]
async fn the_log_tells_each_move_in_words_with_the_counters_of_the_rule_book() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let before = app.game(&id, None).await;
    assert_eq!(before["counters"], json!({"turn": 1}));
    play(&app, &id, &users, 3, &[]).await;
    let game = app.game(&id, Some(&users[0])).await;
    assert_eq!(
        game["counters"],
        json!({"turn": 4}),
        "three main actions made"
    );
    let log = app
        .get(&format!("/v1/games/{id}/log"), Some(&users[0].token))
        .await
        .ok(200);
    assert_eq!(log["counters"], game["counters"]);
    assert_eq!(log["version"], game["version"]);
    let lines = log["lines"].as_array().unwrap();
    assert!(lines.len() >= 3, "{log}");
    let text: Vec<&str> = lines.iter().map(|l| l["text"].as_str().unwrap()).collect();
    assert!(text.iter().any(|t| t.starts_with("You ")), "{text:?}");
    assert!(text.iter().any(|t| t.starts_with("player1 ")), "{text:?}");
    assert!(
        text.iter()
            .all(|t| !t.contains("seat 0") && !t.contains("seat 1")),
        "{text:?}"
    );
    let mine = log["my_last_move"].as_i64().unwrap();
    assert!(mine > 0 && mine <= game["version"].as_i64().unwrap());
    let spectator = app.get(&format!("/v1/games/{id}/log"), None).await.ok(200);
    assert_eq!(spectator["my_last_move"], Value::Null);

    // In French when the request asks (the web client sends its language),
    // with a tag of its own: the tag is taken from the body.
    let english = app
        .send_raw(
            "GET",
            &format!("/v1/games/{id}/log"),
            Some(&users[0].token),
            &[],
            Vec::new(),
        )
        .await;
    let french = app
        .send_raw(
            "GET",
            &format!("/v1/games/{id}/log"),
            Some(&users[0].token),
            &[("Accept-Language", "fr")],
            Vec::new(),
        )
        .await;
    assert_eq!(french.status, 200);
    assert!(english.headers.get("etag").is_some());
    let told: Vec<&str> = french.body["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert!(
        told.iter()
            .any(|t| t.starts_with("vous avez ") || t.starts_with("Vous avez ")),
        "{told:?}"
    );
    assert_eq!(french.body["lines"].as_array().unwrap().len(), lines.len());
    assert_eq!(french.body["counters"], log["counters"]);
    assert_ne!(french.headers.get("etag"), english.headers.get("etag"));
}

#[actix_web::test]
async fn an_observers_log_of_twin_games_is_the_same() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let a = app
        .started_game(&users, "hats", json!({"deals": [deal(false)]}))
        .await;
    let b = app
        .started_game(&users, "hats", json!({"deals": [deal(true)]}))
        .await;
    // The two cards that differ between the twins: seat 0's first and the deck's last.
    let swapped = ["T6", "D6"];
    play(&app, &a, &users, 4, &swapped).await;
    play(&app, &b, &users, 4, &swapped).await;
    for (who, token) in [
        ("seat 1", Some(users[1].token.as_str())),
        ("a spectator", None),
    ] {
        let in_a = app.get(&format!("/v1/games/{a}/log"), token).await;
        let in_b = app.get(&format!("/v1/games/{b}/log"), token).await;
        assert_eq!(in_a.body, in_b.body, "{who}");
        assert_eq!(in_a.header("etag"), in_b.header("etag"), "{who}");
    }
}
