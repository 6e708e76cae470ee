//! A seat never receives what it may not see, checked over HTTP through
//! whole 4-player Hats games: at every step, no seat's view, and no event a
//! seat can read, holds a card that is in another seat's hand or among its
//! black hats (the partner who handed a card over in a swap excepted, for
//! the events that told them).

use std::collections::BTreeSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use crate::support::{TestApp, User};

/// Every Hats card code in a JSON document.
fn codes(value: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) => {
                let b = s.as_bytes();
                if b.len() == 2 && b"TSHCDFW".contains(&b[0]) && (b'1'..=b'6').contains(&b[1]) {
                    out.insert(s.clone());
                }
            }
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    out
}

/// The cards only `view`'s own seat may know: its hand and its black hats.
fn secrets(view: &Value) -> BTreeSet<String> {
    let mut out = codes(&view["view"]["hand"]);
    out.extend(codes(&view["view"]["black_hat_cards"]));
    out
}

async fn views(app: &TestApp, id: &str, users: &[User]) -> Vec<Value> {
    let mut out = Vec::new();
    for user in users {
        out.push(app.game(id, Some(user)).await);
    }
    out
}

#[actix_web::test]
async fn no_seat_ever_sees_another_seats_hand_or_black_hats() {
    let app = TestApp::spawn().await;
    let users = app.users(4).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut step = 0;
    loop {
        let seen = views(&app, &id, &users).await;
        if seen[0]["status"] != "active" {
            break;
        }
        let spectator = app.game(&id, None).await;
        for (t, owner) in seen.iter().enumerate() {
            let hidden = secrets(owner);
            assert!(!hidden.is_empty() || step > 0, "seat {t} sees its own hand");
            for (s, other) in seen.iter().enumerate().filter(|(s, _)| *s != t) {
                let leak: Vec<_> = codes(other).intersection(&hidden).cloned().collect();
                assert!(leak.is_empty(), "seat {s}'s view shows seat {t}'s {leak:?}");
            }
            let leak: Vec<_> = codes(&spectator).intersection(&hidden).cloned().collect();
            assert!(leak.is_empty(), "a spectator sees seat {t}'s {leak:?}");
            if step % 6 == 0 {
                for s in (0..4).filter(|&s| s != t && s != (t + 2) % 4) {
                    let events = app
                        .get(
                            &format!("/v1/games/{id}/events?limit=1000"),
                            Some(&users[s].token),
                        )
                        .await
                        .ok(200);
                    let leak: Vec<_> = codes(&events).intersection(&hidden).cloned().collect();
                    assert!(
                        leak.is_empty(),
                        "seat {s}'s events show seat {t}'s {leak:?}"
                    );
                }
            }
        }
        let to_act = seen[0]["to_act"].as_array().unwrap();
        let seat = to_act[rng.random_range(0..to_act.len())].as_u64().unwrap() as usize;
        let legal = seen[seat]["legal_commands"].as_array().unwrap();
        let command = &legal[rng.random_range(0..legal.len())];
        app.command(
            &id,
            &users[seat],
            seen[seat]["version"].as_i64().unwrap(),
            command,
        )
        .await
        .ok(200);
        step += 1;
    }
    assert!(step >= 32, "8 main actions each");
}
