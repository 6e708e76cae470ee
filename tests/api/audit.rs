//! Audits: published once a game is over, verified offline by `hatstand
//! verify`, and any tampering found and located.

use std::process::Command;

use serde_json::{Value, json};

use crate::play::{play, verified_audit};
use crate::support::TestApp;

pub fn verify_cli(doc: &Value) -> (bool, String) {
    let dir = std::env::temp_dir().join(format!("hatstand-audit-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("audit.json");
    std::fs::write(&file, serde_json::to_vec_pretty(doc).unwrap()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hatstand"))
        .arg("verify")
        .arg(&file)
        .env("RUST_LOG", "off")
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// Recomputes every hash after `from`, as a forger who rewrites the chain would.
pub fn rechain(doc: &mut Value) {
    let events: Vec<hatstand::record::verify::AuditEvent> =
        serde_json::from_value(doc["events"].clone()).unwrap();
    let mut prev = hatstand::record::chain::GENESIS_HASH.to_owned();
    let mut out = Vec::new();
    for event in &events {
        let mut logged = hatstand::record::chain::LoggedEvent::from(event);
        logged.prev_hash = prev.clone();
        logged.hash = logged.expected_hash();
        prev = logged.hash.clone();
        out.push(hatstand::record::verify::AuditEvent::from(&logged));
    }
    doc["events"] = serde_json::to_value(out).unwrap();
}

#[actix_web::test]
async fn the_audit_is_published_only_once_the_game_is_over() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    app.get(&format!("/v1/games/{id}/audit"), None)
        .await
        .assert_problem(409, "game_not_finished");
    app.get(&format!("/v1/games/{}/audit", uuid::Uuid::new_v4()), None)
        .await
        .assert_problem(404, "not_found");
}

#[actix_web::test]
async fn verify_accepts_a_true_audit_and_locates_every_tampering() {
    let app = TestApp::spawn().await;
    let played = play(&app, "hats", 3, json!({}), 11).await;
    let audit = verified_audit(&app, &played.id).await;
    assert_eq!(audit["seed_commitment"], played.game["seed_commitment"]);
    assert_eq!(
        hatstand::engine::random::seed_commitment(audit["seed"].as_str().unwrap()),
        audit["seed_commitment"].as_str().unwrap()
    );
    let (ok, text) = verify_cli(&audit);
    assert!(ok, "{text}");
    assert!(text.contains("verified"), "{text}");

    // An altered event breaks its hash.
    let mut altered = audit.clone();
    let n = altered["events"].as_array().unwrap().len();
    altered["events"][n - 3]["data"] = json!({"forged": true});
    let (ok, text) = verify_cli(&altered);
    assert!(!ok);
    assert!(
        text.contains(&format!("event {}", n - 2)) && text.contains("hash"),
        "{text}"
    );

    // Another seed than the committed one.
    let mut reseeded = audit.clone();
    reseeded["seed"] = json!("another seed");
    let (ok, text) = verify_cli(&reseeded);
    assert!(!ok);
    assert!(text.contains("seed"), "{text}");

    // Two events swapped.
    let mut swapped = audit.clone();
    let events = swapped["events"].as_array_mut().unwrap();
    events.swap(7, 8);
    let (ok, text) = verify_cli(&swapped);
    assert!(!ok);
    assert!(
        text.contains("out of order") || text.contains("prev_hash"),
        "{text}"
    );

    // Reordered commands with a recomputed chain: the replay finds it.
    let mut reordered = audit.clone();
    let events = reordered["events"].as_array_mut().unwrap();
    let commands: Vec<usize> = (0..events.len())
        .filter(|&i| !events[i]["command"].is_null())
        .collect();
    let (a, b) = (commands[1], commands[2]);
    let (ea, eb) = (events[a].clone(), events[b].clone());
    events[a]["command"] = eb["command"].clone();
    events[b]["command"] = ea["command"].clone();
    rechain(&mut reordered);
    let (ok, text) = verify_cli(&reordered);
    assert!(!ok, "{text}");
    assert!(text.contains("event "), "{text}");

    // A forged deal with a recomputed chain: the seed's shuffle finds it.
    let mut forged = audit.clone();
    let start = forged["events"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e["type"] == "game_started")
        .unwrap();
    let deal = &mut forged["events"][start + 1]["data"];
    let text = deal.to_string();
    let swapped_text = swap_two_cards(&text);
    *deal = serde_json::from_str(&swapped_text).unwrap();
    rechain(&mut forged);
    let (ok, text) = verify_cli(&forged);
    assert!(!ok);
    assert!(text.contains(&format!("event {}", start + 2)), "{text}");

    // A changed final score.
    let mut rescored = audit.clone();
    rescored["result"]["scores"][0] = json!(999);
    let (ok, text) = verify_cli(&rescored);
    assert!(!ok);
    assert!(text.contains("result"), "{text}");
}

/// Swaps the first two distinct card codes in a deal's JSON text.
fn swap_two_cards(text: &str) -> String {
    let codes: Vec<String> = text
        .split('"')
        .filter(|s| s.len() == 2 && s.as_bytes()[1].is_ascii_digit())
        .map(str::to_owned)
        .collect();
    let a = codes[0].clone();
    let b = codes.iter().find(|c| **c != a).unwrap().clone();
    text.replace(&format!("\"{a}\""), "\"@@\"")
        .replace(&format!("\"{b}\""), &format!("\"{a}\""))
        .replace("\"@@\"", &format!("\"{b}\""))
}

#[actix_web::test]
async fn state_at_steps_through_the_game_as_the_viewer_saw_it() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let now = app.game(&id, Some(&users[0])).await;
    let version = now["version"].as_i64().unwrap();
    let at_start = app
        .get(
            &format!("/v1/games/{id}/state?at={version}"),
            Some(&users[0].token),
        )
        .await
        .ok(200);
    assert_eq!(at_start["view"], now["view"]);
    assert_eq!(at_start["to_act"], now["to_act"]);
    let created = app
        .get(&format!("/v1/games/{id}/state?at=1"), None)
        .await
        .ok(200);
    assert_eq!(created["view"], Value::Null);
    assert_eq!(created["status"], "open");
    let spectator = app
        .get(&format!("/v1/games/{id}/state?at={version}"), None)
        .await
        .ok(200);
    assert_eq!(spectator["view"], app.game(&id, None).await["view"]);
}

#[actix_web::test]
async fn once_the_game_is_over_state_at_shows_every_hand_to_anyone() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let version = app.game(&id, None).await["version"].as_i64().unwrap();
    let state_at = format!("/v1/games/{id}/state?at={version}");
    // Given a game in play, a spectator sees no hand, a player only their own.
    let spectator = app.get(&state_at, None).await.ok(200);
    assert!(spectator["view"]["seats"][0]["hand"].is_null());
    assert!(spectator["view"]["seats"][1]["hand"].is_null());
    let player = app.get(&state_at, Some(&users[0].token)).await.ok(200);
    assert!(player["view"]["seats"][0]["hand"].is_array());
    assert!(player["view"]["seats"][1]["hand"].is_null());
    // When it ends,
    app.post(
        &format!("/v1/games/{id}/resign"),
        Some(&users[0].token),
        &json!({}),
    )
    .await
    .ok(200);
    assert_eq!(app.game(&id, None).await["status"], "finished");
    // then every hand of every step is shown to anyone, as the audit shows them.
    let spectator = app.get(&state_at, None).await.ok(200);
    assert!(
        spectator["view"]["seats"][0]["hand"].is_array(),
        "{spectator}"
    );
    assert!(
        spectator["view"]["seats"][1]["hand"].is_array(),
        "{spectator}"
    );
    assert!(spectator["view"]["deck_cards"].is_array(), "{spectator}");
}
