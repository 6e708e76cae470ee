//! The events endpoint: pages, redaction per viewer, and long polling.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::TestApp;

#[actix_web::test]
async fn events_page_with_after_and_limit() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let all = app
        .get(&format!("/v1/games/{id}/events"), None)
        .await
        .ok(200);
    let version = all["version"].as_i64().unwrap();
    let events = all["events"].as_array().unwrap();
    assert_eq!(events.len() as i64, version);
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e["seq"], i as i64 + 1);
        assert!(e["at"].as_str().unwrap().ends_with('Z'));
    }
    let page = app
        .get(&format!("/v1/games/{id}/events?after=2&limit=2"), None)
        .await
        .ok(200);
    let seqs: Vec<i64> = page["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_i64().unwrap())
        .collect();
    assert_eq!(seqs, [3, 4]);
    let none = app
        .get(&format!("/v1/games/{id}/events?after={version}"), None)
        .await
        .ok(200);
    assert_eq!(none["events"], json!([]));
}

#[actix_web::test]
async fn a_long_poll_returns_as_soon_as_the_next_event_is_written() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let (id, version, command) = app.opening(&users).await;
    let started = Instant::now();
    let path = format!("/v1/games/{id}/events?after={version}&wait=30");
    let wait = app.get(&path, Some(&users[1].token));
    let play = async {
        actix_web::rt::time::sleep(Duration::from_millis(300)).await;
        app.command(&id, &users[0], version, &command).await.ok(200)
    };
    let (page, _) = tokio::join!(wait, play);
    let page = page.ok(200);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "woken by the command, not the timeout"
    );
    assert!(
        started.elapsed() >= Duration::from_millis(250),
        "it did wait"
    );
    assert_eq!(page["events"][0]["seq"], version + 1);
}

#[actix_web::test]
async fn a_long_poll_with_nothing_new_ends_at_its_wait() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let version = app.game(&id, None).await["version"].as_i64().unwrap();
    let started = Instant::now();
    let page = app
        .get(
            &format!("/v1/games/{id}/events?after={version}&wait=1"),
            None,
        )
        .await
        .ok(200);
    assert!(started.elapsed() >= Duration::from_millis(900));
    assert_eq!(page["events"], json!([]));
    assert_eq!(page["version"], version);
}

#[actix_web::test]
async fn explicit_deals_are_not_shown_in_the_options_or_the_creation_event() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let deck: Vec<String> = ["T", "S", "H", "C", "D"]
        .iter()
        .flat_map(|t| (1..=6).map(move |n| format!("{t}{n}")))
        .collect();
    let deal = json!({
        "line": deck[0..5],
        "hands": [deck[5..14], deck[14..23]],
        "deck": deck[23..],
    });
    let id = app
        .started_game(&users, "hats", json!({"deals": [deal]}))
        .await;
    let game = app.game(&id, Some(&users[0])).await;
    assert_eq!(game["options"]["explicit_deals"], 1);
    assert!(game["options"].get("deals").is_none());
    let created = &app
        .get(&format!("/v1/games/{id}/events"), Some(&users[0].token))
        .await
        .ok(200)["events"][0];
    assert_eq!(created["type"], "game_created");
    let text = created.to_string();
    for card in &deck[14..23] {
        assert!(
            !text.contains(&format!("\"{card}\"")),
            "{card} of seat 1 leaks to seat 0 in {text}"
        );
    }
    // Seat 0's own view shows its dealt hand; nothing of seat 1's hand appears anywhere it can read.
    let mine = game.to_string();
    for card in &deck[5..14] {
        assert!(
            mine.contains(&format!("\"{card}\"")),
            "own card {card} missing from {mine}"
        );
    }
    let events = app
        .get(&format!("/v1/games/{id}/events"), Some(&users[0].token))
        .await
        .ok(200)
        .to_string();
    for card in &deck[14..23] {
        assert!(
            !mine.contains(&format!("\"{card}\"")),
            "{card} leaks into seat 0's view"
        );
        assert!(
            !events.contains(&format!("\"{card}\"")),
            "{card} leaks into seat 0's events"
        );
    }
    for card in &deck[23..] {
        assert!(
            !events.contains(&format!("\"{card}\"")),
            "deck card {card} leaks"
        );
    }
}
