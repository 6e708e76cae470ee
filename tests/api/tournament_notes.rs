//! What a tournament tells its players (docs/tournaments.md): each player
//! of a new table `tournament_round` about their own table's game (and
//! nothing of any other table), each entrant `tournament_finished` with
//! their place at the end, each registered player `tournament_finished`
//! marked `cancelled` when too few registered; the same by mail.

use serde_json::{Value, json};

use crate::mail::{Catcher, Caught, confirmed_address, mail_app};
use crate::support::{TestApp, User};
use crate::tournament_rounds::{
    field_of, play_round, rounds, start_round, tick, tournament, with_field,
};

/// `user`'s notifications of `kind`.
async fn of_kind(app: &TestApp, user: &User, kind: &str) -> Vec<Value> {
    app.all_notifications(user)
        .await
        .into_iter()
        .filter(|n| n["type"] == kind)
        .collect()
}

/// `user`'s table's game in `round`, as they see the rounds.
async fn own_table(app: &TestApp, id: &str, round: usize, user: &User) -> String {
    let seen = rounds(app, id, Some(user)).await;
    let table = seen[round]["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| {
            t["players"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p["user_id"] == json!(user.id))
        })
        .unwrap_or_else(|| panic!("{} has no table in round {round}", user.id))
        .clone();
    table["game_id"].as_str().unwrap().to_owned()
}

/// Every table's game of `round`, as each table's first player sees it.
async fn all_tables(app: &TestApp, id: &str, round: usize, users: &[User]) -> Vec<String> {
    let mut games = Vec::new();
    for user in users {
        let game = own_table(app, id, round, user).await;
        if !games.contains(&game) {
            games.push(game);
        }
    }
    games
}

#[actix_web::test]
async fn given_a_swiss_of_four_when_each_round_starts_and_it_ends_then_each_player_is_told_of_their_own_table_and_their_place()
 {
    let app = TestApp::spawn().await;
    let (users, id) = field_of(&app, &tournament("hats", "swiss", 2, 2, true), 4).await;
    for round in 0..2 {
        // When the round starts (round 1 once round 0 is played: one step
        // scores it and pairs the next)
        start_round(&app, &id, round).await;
        assert_eq!(tick(&app).await, 1);
        let games = all_tables(&app, &id, round, &users).await;
        assert_eq!(games.len(), 2);
        // Then each player has exactly one `tournament_round` for this
        // round, about their own table's game, …
        for user in &users {
            let mine = own_table(&app, &id, round, user).await;
            let told = of_kind(&app, user, "tournament_round").await;
            assert_eq!(told.len(), round + 1, "{told:?}");
            let note = &told[round];
            assert_eq!(note["game_id"], json!(mine));
            assert_eq!(
                note["data"],
                json!({"game_id": mine, "ruleset": "hats", "tournament_id": id,
                       "name": "Test cup", "round": round})
            );
            // … and nothing in their whole feed names another table.
            let all = serde_json::to_string(&app.all_notifications(user).await).unwrap();
            for other in games.iter().filter(|g| **g != mine) {
                assert!(!all.contains(other.as_str()), "{other} told to {}", user.id);
            }
        }
        play_round(&app, &id, round, &users, 40 + round as u64).await;
    }
    for user in &users {
        assert!(of_kind(&app, user, "tournament_finished").await.is_empty());
    }
    // When the last round is scored, the tournament ends
    assert_eq!(tick(&app).await, 1);
    let standings = app
        .get(&format!("/v1/tournaments/{id}/standings"), None)
        .await
        .ok(200);
    assert_eq!(standings["final_standings"], true);
    // Then each entrant is told their place of the field, about their last table.
    for user in &users {
        let told = of_kind(&app, user, "tournament_finished").await;
        assert_eq!(told.len(), 1, "{told:?}");
        let line = standings["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["user_id"] == json!(user.id))
            .unwrap_or_else(|| panic!("{standings}"));
        let last = own_table(&app, &id, 1, user).await;
        assert_eq!(told[0]["game_id"], json!(last));
        assert_eq!(
            told[0]["data"],
            json!({"game_id": last, "ruleset": "hats", "tournament_id": id, "name": "Test cup",
                   "place": line["rank"], "field": 4})
        );
    }
    assert_eq!(
        app.count("notifications WHERE kind = 'tournament_finished'")
            .await,
        4
    );
    assert_eq!(tick(&app).await, 0);
    assert_eq!(
        app.count("notifications WHERE kind LIKE 'tournament%'")
            .await,
        12,
        "nothing told twice"
    );
}

#[actix_web::test]
async fn given_too_few_players_when_the_start_comes_then_each_registered_player_is_told_it_is_cancelled()
 {
    let app = TestApp::spawn().await;
    let organiser = app.register("director").await;
    let users = app.users(2).await;
    let body = tournament("goathead", "swiss", 3, 2, false);
    let id = with_field(&app, &organiser, &body, &users).await;
    start_round(&app, &id, 0).await;
    assert_eq!(tick(&app).await, 1);
    for user in &users {
        let told = of_kind(&app, user, "tournament_finished").await;
        assert_eq!(told.len(), 1, "{told:?}");
        assert_eq!(told[0]["game_id"], Value::Null);
        assert_eq!(
            told[0]["data"],
            json!({"game_id": null, "ruleset": "goathead", "tournament_id": id,
                   "name": "Test cup", "place": null, "field": 2, "cancelled": true})
        );
    }
    assert!(
        of_kind(&app, &organiser, "tournament_finished")
            .await
            .is_empty()
    );
    assert_eq!(tick(&app).await, 0);
    assert_eq!(app.count("notifications").await, 2);
}

/// The next mail to `address` whose subject contains `about` (others kept).
async fn mail_about(
    catcher: &Catcher,
    address: &str,
    about: &str,
    kept: &mut Vec<Caught>,
) -> Caught {
    let mut others = Vec::new();
    loop {
        let mail = catcher.next_to(address, kept).await;
        if mail.subject().contains(about) {
            kept.extend(others);
            return mail;
        }
        others.push(mail);
    }
}

#[actix_web::test]
async fn given_players_with_addresses_when_their_round_starts_and_the_tournament_ends_then_each_gets_a_letter()
 {
    let catcher = Catcher::start().await;
    let (app, _) = mail_app(&catcher).await;
    let organiser = app.register("director").await;
    let users = app.users(2).await;
    let addresses = ["ada@mail.test", "bruno@mail.test"];
    for (user, address) in users.iter().zip(addresses) {
        confirmed_address(&app, &catcher, user, address).await;
    }
    let mut body = tournament("hats", "round_robin", 2, 1, false);
    body["name"] = json!("Winter cup");
    let id = with_field(&app, &organiser, &body, &users).await;
    start_round(&app, &id, 0).await;
    assert_eq!(tick(&app).await, 1);
    let game = own_table(&app, &id, 0, &users[0]).await;
    let mut kept = Vec::new();
    let mail = mail_about(&catcher, addresses[0], "Winter cup", &mut kept).await;
    // The subject names the tournament, the round from 1, and the table's tag.
    assert_eq!(
        mail.subject(),
        format!(
            "Round 1 of Winter cup started: your table is ready [{}]",
            &game.replace('-', "")[..4]
        )
    );
    let text = crate::mail::flat(&mail.text());
    assert!(
        text.contains(
            "Hello player0, round 1 of Winter cup has started and your table is ready: Hats vs player1."
        ),
        "{text}"
    );
    assert!(
        text.contains(&format!("http://hatstand.test/#/games/{game}")),
        "{text}"
    );
    assert!(
        text.contains(&format!("http://hatstand.test/#/tournaments/{id}")),
        "{text}"
    );
    // Its unsubscribe link turns tournament rounds' mails off, and only them.
    let header = mail.header("List-Unsubscribe").unwrap();
    let url = header.trim_start_matches('<').trim_end_matches('>');
    let path = url.trim_start_matches("http://hatstand.test");
    assert!(path.contains("kind=tournament_round"), "{path}");
    let done = app.post(path, None, &Value::Null).await;
    assert_eq!(done.status.as_u16(), 200, "{:?}", done.body);
    let settings = app.get("/v1/me/email", Some(&users[0].token)).await.ok(200);
    assert_eq!(settings["preferences"]["tournament_round"], "never");
    assert_eq!(
        settings["preferences"]["tournament_finished"],
        "immediately"
    );

    // When the tournament ends, each player reads their place.
    play_round(&app, &id, 0, &users, 11).await;
    assert_eq!(tick(&app).await, 1);
    let standings = app
        .get(&format!("/v1/tournaments/{id}/standings"), None)
        .await
        .ok(200);
    for (n, (user, address)) in users.iter().zip(addresses).enumerate() {
        let place = standings["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["user_id"] == json!(user.id))
            .unwrap()["rank"]
            .clone();
        let mail = mail_about(&catcher, address, "Winter cup ended", &mut kept).await;
        assert_eq!(
            mail.subject(),
            format!(
                "Winter cup ended: you placed {place} of 2 [{}]",
                &game.replace('-', "")[..4]
            )
        );
        let text = crate::mail::flat(&mail.text());
        assert!(
            text.contains(&format!(
                "Hello player{n}, Winter cup has ended: you placed {place} of 2."
            )),
            "{text}"
        );
        assert!(
            text.contains(&format!("http://hatstand.test/#/tournaments/{id}")),
            "{text}"
        );
    }
}

#[actix_web::test]
async fn given_players_with_devices_when_their_round_starts_then_each_device_is_pushed_its_table() {
    use crate::push::{Device, push_service, server_key, subscribe};
    let app = TestApp::spawn().await;
    let service = push_service(&server_key(&app).await);
    let organiser = app.register("director").await;
    let users = app.users(2).await;
    let devices = [Device::new(), Device::new()];
    for (n, (user, device)) in users.iter().zip(&devices).enumerate() {
        let body = device.subscription(&service.endpoint(&format!("d{n}")));
        subscribe(&app, user, &body).await.ok(201);
    }
    let id = with_field(
        &app,
        &organiser,
        &tournament("hats", "round_robin", 2, 1, false),
        &users,
    )
    .await;
    start_round(&app, &id, 0).await;
    assert_eq!(tick(&app).await, 1);
    let game = own_table(&app, &id, 0, &users[0]).await;
    for (n, device) in devices.iter().enumerate() {
        let pushed = app
            .eventually(20, || async {
                service
                    .of(&format!("d{n}"))
                    .iter()
                    .map(|p| (device.read(p), p.urgency.clone()))
                    .find(|(m, _)| m["kind"] == "tournament_round")
            })
            .await;
        assert_eq!(
            pushed.0,
            json!({"game": game, "version": null, "kind": "tournament_round",
                   "text": "Your tournament table of Hats is ready."})
        );
        assert_eq!(pushed.1, "normal");
    }
}

#[actix_web::test]
async fn given_a_player_with_an_address_when_the_tournament_is_cancelled_then_the_letter_says_so_without_a_game()
 {
    let catcher = Catcher::start().await;
    let (app, _) = mail_app(&catcher).await;
    let organiser = app.register("director").await;
    let users = app.users(2).await;
    confirmed_address(&app, &catcher, &users[1], "bruno@mail.test").await;
    let id = with_field(
        &app,
        &organiser,
        &tournament("goathead", "swiss", 3, 2, false),
        &users,
    )
    .await;
    start_round(&app, &id, 0).await;
    assert_eq!(tick(&app).await, 1);
    let mail = mail_about(&catcher, "bruno@mail.test", "Test cup", &mut Vec::new()).await;
    assert_eq!(mail.subject(), "Test cup cancelled: too few players");
    let text = crate::mail::flat(&mail.text());
    assert!(
        text.contains(
            "Hello player1, Test cup was cancelled at its start: too few players had registered (2)."
        ),
        "{text}"
    );
    assert!(
        text.contains(&format!("http://hatstand.test/#/tournaments/{id}")),
        "{text}"
    );
    assert!(!text.contains("#/games/"), "{text}");
    assert!(
        mail.header("List-Unsubscribe")
            .unwrap()
            .contains("kind=tournament_finished")
    );
}
