//! The conditional lines a step dropped without firing them are told to
//! their owner alone, with their turn: in the `your_turn` notification's
//! `unfired` and in the turn mail (docs/turn-conveniences.md).

use serde_json::{Value, json};

use crate::mail::{Catcher, confirmed_address, mail_app};
use crate::takeback::until_turn_in_play;

/// The moves among `legal`.
fn moves(legal: &Value) -> Vec<Value> {
    legal
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["type"] == "move")
        .cloned()
        .collect()
}

#[actix_web::test]
async fn a_line_the_game_left_is_told_to_its_owner_alone_by_notification_and_turn_mail() {
    let catcher = Catcher::start().await;
    let (app, _listen) = mail_app(&catcher).await;
    let addresses = ["ada@mail.test", "bo@mail.test"];
    let users = app.users(2).await;
    for (user, address) in users.iter().zip(addresses) {
        confirmed_address(&app, &catcher, user, address).await;
    }
    let id = app.started_game(&users, "top-hats", json!({})).await;
    until_turn_in_play(&app, &id, &users, 1).await;
    let theirs = app.game(&id, Some(&users[1])).await;
    // Seat 1 will play a move (which ends its turn); seat 0 expects another
    // of its commands.
    let played_move = moves(&theirs["legal_commands"])[0].clone();
    let expected = theirs["legal_commands"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| **c != played_move)
        .expect("two legal commands")
        .clone();
    let version = theirs["version"].as_i64().unwrap();

    // Seat 0 would answer by ending its turn.
    let line = json!([[{"seat": 1, "command": expected},
                       {"seat": 0, "command": {"type": "end_turn"}}]]);
    app.send(
        "PUT",
        &format!("/v1/games/{id}/conditional"),
        Some(&users[0].token),
        &[],
        &json!({"expected_version": version, "lines": line}),
    )
    .await
    .ok(200);
    let played = app
        .command(&id, &users[1], version, &played_move)
        .await
        .ok(200);
    assert_eq!(played["game"]["to_act"], json!([0]), "{played}");

    // The owner's your_turn carries what was left of the line.
    let notes = app
        .get("/v1/me/notifications", Some(&users[0].token))
        .await
        .ok(200);
    let turn = notes["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["type"] == "your_turn" && n["game_id"] == id.as_str())
        .max_by_key(|n| n["data"]["version"].as_i64())
        .unwrap()
        .clone();
    assert_eq!(turn["data"]["unfired"], line, "{turn}");
    // Nobody else hears of it.
    let others = app
        .get("/v1/me/notifications", Some(&users[1].token))
        .await
        .ok(200);
    assert!(!others.to_string().contains("unfired"), "{others}");
    assert!(!others.to_string().contains("end_turn"), "{others}");
    // The line is gone.
    let left = app
        .get(
            &format!("/v1/games/{id}/conditional"),
            Some(&users[0].token),
        )
        .await
        .ok(200);
    assert_eq!(left["lines"], json!([]));

    // The owner's turn mail lists it, the other player's mails never.
    let mut kept = Vec::new();
    let mut told = None;
    for _ in 0..400 {
        let mail = catcher.next_to(addresses[0], &mut kept).await;
        if mail.text().contains("did not fire") {
            told = Some(mail);
            break;
        }
    }
    let told = told.expect("a turn mail with the lines that did not fire");
    let text = told.text();
    assert!(text.contains("seat 2: "), "{text}");
    assert!(text.contains("you: "), "{text}");
    assert!(text.contains("end_turn"), "{text}");
    for mail in kept
        .iter()
        .filter(|m| m.to.iter().any(|t| t == addresses[1]))
    {
        assert!(!mail.text().contains("did not fire"), "{}", mail.text());
    }
}
