//! Substitutes (docs/seats.md): a seat whose player left a game that goes
//! on is vacant, listed in the lobby, and taken over by a new player, who
//! sees that seat's view and no more.

use futures_util::future::join_all;
use serde_json::{Value, json};

use crate::audit::verify_cli;
use crate::play::{play_out, verified_audit};
use crate::support::{Reply, TestApp, User};
use crate::talk::fetched;

/// The rows a refused takeover must leave as they are.
async fn footprint(app: &TestApp) -> Vec<i64> {
    let mut out = app.footprint().await;
    out.push(app.count("seat_substitutions").await);
    out.push(app.count("notifications").await);
    out.push(app.count("seats WHERE resigned_at IS NOT NULL").await);
    out.push(app.count("user_records").await);
    out
}

async fn take(app: &TestApp, id: &str, seat: u8, user: &User) -> Reply {
    app.post(
        &format!("/v1/games/{id}/seats/{seat}/take"),
        Some(&user.token),
        &json!({}),
    )
    .await
}

async fn resign(app: &TestApp, id: &str, user: &User) {
    app.post(
        &format!("/v1/games/{id}/resign"),
        Some(&user.token),
        &json!({}),
    )
    .await
    .ok(200);
}

/// A started 3-player Hats game of `users` where player2 (seat 2) left.
async fn vacated(app: &TestApp, users: &[User], options: Value) -> String {
    let id = started(app, users, options).await;
    resign(app, &id, &users[2]).await;
    id
}

/// A started 3-player Hats game of `users` created with `options` (a
/// private one with its code).
async fn started(app: &TestApp, users: &[User], mut options: Value) -> String {
    if options.get("private") != Some(&json!(true)) {
        return app.started_game(users, "hats", options).await;
    }
    options.as_object_mut().unwrap().remove("private");
    let mut body = json!({"ruleset": "hats", "players": 3, "private": true});
    body["options"] = options;
    let game = app.created_game(&users[0], &body).await;
    let id = game["id"].as_str().unwrap().to_owned();
    let code = game["invite_code"].as_str().unwrap().to_owned();
    for user in &users[1..] {
        app.post(
            &format!("/v1/games/{id}/join"),
            Some(&user.token),
            &json!({"code": code}),
        )
        .await
        .ok(200);
    }
    id
}

async fn named(app: &TestApp, names: &[&str]) -> Vec<User> {
    let mut out = Vec::new();
    for name in names {
        out.push(app.register(name).await);
    }
    out
}

async fn vacant(app: &TestApp) -> Value {
    app.get("/v1/seats/vacant", None).await.ok(200)
}

#[actix_web::test]
async fn a_vacant_seat_is_listed_taken_over_told_and_the_record_verifies_offline() {
    let app = &TestApp::spawn().await;
    let users = app.users(3).await;
    let sub = &app.register("sub").await;
    assert_eq!(vacant(app).await["seats"], json!([]));
    // Given player2 left a public game of three that goes on …
    let id = vacated(app, &users, json!({})).await;
    let game = app.game(&id, None).await;
    assert_eq!(game["status"], "active");
    // … its seat is listed in the lobby, …
    let listed = vacant(app).await;
    assert_eq!(listed["seats"].as_array().unwrap().len(), 1, "{listed}");
    assert_eq!(listed["seats"][0]["game_id"], json!(id));
    assert_eq!(listed["seats"][0]["seat"], 2);
    assert_eq!(listed["seats"][0]["ruleset"], "hats");
    // … one page at a time.
    let page = app.get("/v1/seats/vacant?limit=1", None).await.ok(200);
    assert_eq!(page["seats"].as_array().unwrap().len(), 1);
    assert_eq!(page["next_cursor"], Value::Null);
    app.get("/v1/seats/vacant?cursor=nope", None)
        .await
        .assert_problem(400, "bad_request");
    // When a substitute takes it
    let taken = take(app, &id, 2, sub).await.ok(200);
    // Then they hold seat 2 with its view, the lobby lists it no more, …
    assert_eq!(taken["my_seat"], 2);
    assert_eq!(taken["seats"][2]["username"], "sub");
    assert_eq!(vacant(app).await["seats"], json!([]));
    // … the record says who took it from whom, …
    let events = app
        .get(&format!("/v1/games/{id}/events"), None)
        .await
        .ok(200);
    let took: Vec<&Value> = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "seat_substituted")
        .collect();
    assert_eq!(took.len(), 1, "{events}");
    assert_eq!(
        took[0]["data"],
        json!({"seat": 2, "from": users[2].id, "to": sub.id, "username": "sub"})
    );
    // … the players still seated are told, the leaver is not, …
    for (user, told) in [(&users[0], 1), (&users[1], 1), (&users[2], 0), (sub, 0)] {
        let n = app
            .count(&format!(
                "notifications WHERE user_id = '{}' AND kind = 'seat_substituted'",
                user.id
            ))
            .await;
        assert_eq!(n, told, "{}", user.id);
    }
    let note = app
        .get("/v1/me/notifications", Some(&users[0].token))
        .await
        .ok(200)
        .to_string();
    assert!(
        note.contains("seat_substituted") && note.contains("\"sub\""),
        "{note}"
    );
    // … and the leaver's record counts the game played and left.
    let profile = app.get("/v1/users/player2", None).await.ok(200);
    assert_eq!(profile["reliability"]["played"], 1, "{profile}");
    assert_eq!(profile["reliability"]["left"], 1, "{profile}");
    // The substitute plays the seat to the end; the record shows whose
    // moves were whose, and verifies in process and offline.
    let players = vec![users[0].clone(), users[1].clone(), sub.clone()];
    play_out(app, id.clone(), players, 7).await;
    let audit = verified_audit(app, &id).await;
    let (ok, text) = verify_cli(&audit);
    assert!(ok, "{text}");
    let mut after = false;
    let mut subs_moves = 0;
    for e in audit["events"].as_array().unwrap() {
        after |= e["type"] == "seat_substituted";
        if e["command"].is_null() || e["actor"]["seat"] != 2 || e["actor"]["user_id"].is_null() {
            continue;
        }
        assert_eq!(
            e["actor"]["user_id"],
            json!(if after { sub.id } else { users[2].id })
        );
        subs_moves += usize::from(after);
    }
    assert!(subs_moves > 0, "the substitute moved");
    // A record whose later moves are claimed by the leaver fails to verify.
    let mut forged = audit.clone();
    let forged_at = forged["events"]
        .as_array()
        .unwrap()
        .iter()
        .rposition(|e| !e["command"].is_null() && e["actor"]["user_id"] == json!(sub.id))
        .unwrap();
    forged["events"][forged_at]["actor"]["user_id"] = json!(users[2].id);
    let (ok, _) = verify_cli(&forged);
    assert!(!ok, "a move claimed by the leaver after the takeover");
}

#[actix_web::test]
async fn each_refusal_answers_its_code_and_writes_nothing() {
    let app = &TestApp::spawn_with(|s| s.limits.seats_at_once = 1).await;
    let users = app.users(3).await;
    let sub = &app.register("sub").await;
    let id = vacated(app, &users, json!({})).await;
    let before = footprint(app).await;
    // A seat its player holds, a seat that does not exist.
    take(app, &id, 0, sub)
        .await
        .assert_problem(409, "seat_not_vacant");
    take(app, &id, 7, sub)
        .await
        .assert_problem(422, "no_such_seat");
    // A player of the game already seated.
    take(app, &id, 2, &users[0])
        .await
        .assert_problem(409, "already_joined");
    assert_eq!(footprint(app).await, before);
    // A player of the game blocks the substitute (or is blocked by them).
    app.post(
        "/v1/me/blocks",
        Some(&users[1].token),
        &json!({"username": "sub"}),
    )
    .await
    .ok(200);
    let blocked_before = footprint(app).await;
    take(app, &id, 2, sub)
        .await
        .assert_problem(403, "seat_refused");
    assert_eq!(footprint(app).await, blocked_before);
    app.send(
        "DELETE",
        "/v1/me/blocks/sub",
        Some(&users[1].token),
        &[],
        &json!(null),
    )
    .await
    .ok(200);
    // Over the cap on games at once.
    let busy = &app.register("busy").await;
    app.created_game(busy, &json!({"ruleset": "hats", "players": 3}))
        .await;
    let capped_before = footprint(app).await;
    take(app, &id, 2, busy)
        .await
        .assert_problem(409, "too_many_games");
    assert_eq!(footprint(app).await, capped_before);
    // Below the table's minimum reliability.
    let flaky = &app.register("flaky").await;
    app.sql(&format!(
        "INSERT INTO user_records (user_id, played, left_seats) VALUES ('{}', 10, 5)",
        flaky.id
    ))
    .await;
    let strict = vacated(
        app,
        &named(app, &["strict0", "strict1", "strict2"]).await,
        json!({"min_reliability": 80}),
    )
    .await;
    let strict_before = footprint(app).await;
    take(app, &strict, 2, flaky)
        .await
        .assert_problem(403, "reliability_too_low");
    assert_eq!(footprint(app).await, strict_before);
    // A game that takes no substitutes.
    let closed = vacated(
        app,
        &named(app, &["closed0", "closed1", "closed2"]).await,
        json!({"substitutes": false}),
    )
    .await;
    let closed_before = footprint(app).await;
    take(app, &closed, 2, sub)
        .await
        .assert_problem(409, "substitutes_forbidden");
    assert_eq!(footprint(app).await, closed_before);
    // A game not on (open).
    let open = app
        .created_game(
            &users[0],
            &json!({"ruleset": "hats", "players": 3, "join": false}),
        )
        .await;
    let open = open["id"].as_str().unwrap();
    let open_before = footprint(app).await;
    take(app, open, 0, sub)
        .await
        .assert_problem(409, "seat_not_vacant");
    assert_eq!(footprint(app).await, open_before);
    // Nothing of it is listed but the vacancies of games taking substitutes.
    let listed = vacant(app).await.to_string();
    assert!(listed.contains(&id) && listed.contains(&strict), "{listed}");
    assert!(!listed.contains(&closed), "{listed}");
}

#[actix_web::test]
async fn two_taking_one_seat_at_once_seat_exactly_one() {
    let app = &TestApp::spawn().await;
    let users = app.users(3).await;
    let id = vacated(app, &users, json!({})).await;
    let takers = named(app, &["taker0", "taker1", "taker2", "taker3"]).await;
    let replies = join_all(takers.iter().map(|t| take(app, &id, 2, t))).await;
    let won: Vec<&Reply> = replies
        .iter()
        .filter(|r| r.status.as_u16() == 200)
        .collect();
    assert_eq!(won.len(), 1, "{replies:?}");
    for r in replies.iter().filter(|r| r.status.as_u16() != 200) {
        r.assert_problem(409, "seat_not_vacant");
    }
    assert_eq!(app.count("seat_substitutions").await, 1);
    assert_eq!(app.count("events WHERE type = 'seat_substituted'").await, 1);
}

#[actix_web::test]
async fn a_rated_game_of_two_takes_no_substitutes_unless_it_says_so() {
    let app = &TestApp::spawn().await;
    let users = app.users(2).await;
    let sub = &app.register("sub").await;
    // A player of two leaving ends the game by forfeit: no seat to take.
    let id = app.started_game(&users, "hats", json!({})).await;
    resign(app, &id, &users[1]).await;
    take(app, &id, 1, sub)
        .await
        .assert_problem(409, "seat_not_vacant");
    let game = app.game(&id, None).await;
    assert_eq!(game["status"], "finished");
}

/// A 3-player Hats deal; `twin` swaps seat 0's first card with the deck's
/// last: a difference seat 2 never sees.
fn deal(twin: bool) -> Value {
    let mut deck: Vec<String> = ["T", "S", "H", "C", "D", "F", "W"]
        .iter()
        .flat_map(|t| (1..=6).map(move |n| format!("{t}{n}")))
        .collect();
    if twin {
        deck.swap(6, 41);
    }
    json!({
        "line": deck[0..6],
        "hands": [deck[6..15], deck[15..24], deck[24..33]],
        "deck": deck[33..],
    })
}

/// Plays `moves` commands, each the first legal one that leaves the two
/// swapped cards alone and draws nothing.
async fn play_alike(app: &TestApp, id: &str, users: &[User], moves: usize) {
    let swapped = ["S1", "W6"];
    for _ in 0..moves {
        let any = app.game(id, None).await;
        let seat = any["to_act"][0].as_u64().unwrap() as usize;
        let game = app.game(id, Some(&users[seat])).await;
        let command = game["legal_commands"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| {
                c["type"] != "discard_draw" && !swapped.contains(&c["card"].as_str().unwrap_or(""))
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

/// Twin games, identical but for a card seat 2 never saw (seat 0's first,
/// swapped with the deck's last): after seat 2's player leaves and a
/// substitute takes it over, every fetch of the substitute's (the take's
/// answer, the game, its feed, its log, its talk) answers the same bytes
/// in both, and the game's tags are the same.
#[actix_web::test]
async fn a_substitute_sees_in_twin_games_nothing_that_differs() {
    let app = &TestApp::spawn().await;
    let users = app.users(3).await;
    let sub = &app.register("sub").await;
    let twins: Vec<String> = {
        let mut out = Vec::new();
        for twin in [false, true] {
            let options = json!({"seed": "twins", "deals": [deal(twin)]});
            let id = vacated(app, &users, options).await;
            out.push(id);
        }
        out
    };
    let (a, b) = (&twins[0], &twins[1]);
    let taken_a = take(app, a, 2, sub).await.ok(200).to_string();
    let taken_b = take(app, b, 2, sub).await.ok(200).to_string();
    let alike = crate::talk::alike;
    assert_eq!(alike(&taken_a), alike(&taken_b));
    let seated = vec![users[0].clone(), users[1].clone(), sub.clone()];
    let paths = [
        "/v1/games/{id}",
        "/v1/games/{id}/events",
        "/v1/games/{id}/log",
        "/v1/games/{id}/talk",
    ];
    for round in 0..3 {
        for path in paths {
            let in_a = fetched(app, &path.replace("{id}", a), Some(&sub.token)).await;
            let in_b = fetched(app, &path.replace("{id}", b), Some(&sub.token)).await;
            assert_eq!(in_a.0, 200, "{path}: {}", in_a.2);
            assert_eq!(in_a.2, in_b.2, "round {round}: {path}");
            if path == "/v1/games/{id}" {
                assert_eq!(in_a.1, in_b.1, "round {round}: {path}");
            }
        }
        play_alike(app, a, &seated, 2).await;
        play_alike(app, b, &seated, 2).await;
    }
}

/// Every player's record, as the profile reads it.
async fn records(url: &str) -> Vec<String> {
    use diesel_async::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::Text)]
        row: String,
    }
    let mut conn = hatstand::db::locate::connect(url).await.unwrap();
    diesel::sql_query(
        "SELECT format('%s %s %s %s %s %s', user_id, played, lost, left_seats, timeouts,
                       vacation_secs) AS row
           FROM user_records ORDER BY user_id",
    )
    .load::<Row>(&mut conn)
    .await
    .unwrap()
    .into_iter()
    .map(|r| r.row)
    .collect()
}

/// A database the release before substitutes wrote (players' records of
/// games over, some left), upgraded in place: the rebuild counts the same
/// as before, and after a takeover the leaver's game is counted once, by
/// the takeover and by the rebuild alike.
#[actix_web::test]
async fn records_written_before_substitutes_and_takeovers_after_are_counted_alike_by_the_rebuild() {
    use diesel_async::SimpleAsyncConnection;
    let db = crate::support::TestDb::before("2026-12-10-000300_substitutes").await;
    let url = db.url.clone();
    let mut conn = hatstand::db::locate::connect(&url).await.unwrap();
    let users: Vec<uuid::Uuid> = (0..3).map(|_| uuid::Uuid::new_v4()).collect();
    let mut sql = String::new();
    for (i, u) in users.iter().enumerate() {
        sql += &format!(
            "INSERT INTO users (id, username, password_hash, created_at) VALUES ('{u}', 'old{i}', 'x', now());"
        );
    }
    for g in 0..6usize {
        let id = uuid::Uuid::new_v4();
        let (a, b) = (users[g % 3], users[(g + 1) % 3]);
        sql += &format!(
            "INSERT INTO games (id, ruleset, players, options, seed, seed_public, seed_commitment, status,
               version, last_hash, to_act, created_by, created_at, updated_at, server_options, private, rules_version)
             VALUES ('{id}', 'hats', 2, '{{}}', 's', false, 'c', 'active', 1, 'h', '{{}}', '{a}', now(), now(),
                     '{{}}', false, 1);
             INSERT INTO seats (game_id, seat, user_id, joined_at, timeouts, vacation_used_secs, resigned_at)
             VALUES ('{id}', 0, '{a}', now(), {}, 0, NULL),
                    ('{id}', 1, '{b}', now(), 0, 0, {});
             UPDATE games SET status = 'finished', version = 2, result = '{{\"winners\": [0]}}',
                    updated_at = now()
              WHERE id = '{id}';",
            g % 3,
            if g % 2 == 0 { "now()" } else { "NULL" },
        );
    }
    conn.batch_execute(&sql).await.unwrap();
    drop(conn);
    let app = &TestApp::spawn_on(db, |_| {}).await;
    let rebuild = async || {
        let mut conn = hatstand::db::locate::connect(&url).await.unwrap();
        hatstand::ratings::reliability::rebuild(&mut conn)
            .await
            .unwrap();
    };
    let upgraded = records(&url).await;
    assert!(!upgraded.is_empty());
    rebuild().await;
    assert_eq!(records(&url).await, upgraded);
    // A takeover after the upgrade, played to the end.
    let players = named(app, &["new0", "new1", "new2"]).await;
    let sub = &app.register("sub").await;
    let id = vacated(app, &players, json!({})).await;
    take(app, &id, 2, sub).await.ok(200);
    play_out(
        app,
        id,
        vec![players[0].clone(), players[1].clone(), sub.clone()],
        3,
    )
    .await;
    let counted = records(&url).await;
    let leaver = counted
        .iter()
        .find(|r| r.starts_with(&players[2].id.to_string()))
        .unwrap();
    assert!(
        leaver.ends_with(" 1 1 1 0 0"),
        "played, lost, left: {leaver}"
    );
    rebuild().await;
    assert_eq!(records(&url).await, counted);
}

#[actix_web::test]
async fn a_player_offers_a_private_games_vacant_seat_to_a_named_player_who_takes_it() {
    let app = &TestApp::spawn().await;
    let users = app.users(3).await;
    let cand = &app.register("cand").await;
    let shy = &app.register("shy").await;
    let id = vacated(app, &users, json!({"private": true})).await;
    let offer = |by: &User, name: &str| {
        let path = format!("/v1/games/{id}/seats/2/offer");
        let token = by.token.clone();
        let body = json!({"username": name});
        async move { app.post(&path, Some(&token), &body).await }
    };
    // A private game's vacant seat is not listed, nor taken without its code.
    assert_eq!(vacant(app).await["seats"], json!([]));
    take(app, &id, 2, cand)
        .await
        .assert_problem(403, "not_invited");
    // Who may not offer, and to whom not: nothing is written.
    let before = footprint(app).await;
    let invitations = app.count("invitations").await;
    offer(cand, "cand")
        .await
        .assert_problem(403, "not_a_player");
    offer(&users[2], "cand")
        .await
        .assert_problem(403, "not_a_player");
    offer(&users[0], "nobody")
        .await
        .assert_problem(404, "not_found");
    offer(&users[0], "player1")
        .await
        .assert_problem(409, "already_joined");
    assert_eq!(footprint(app).await, before);
    // One who blocks the offerer is neither invited nor told; the offerer
    // is answered as ever.
    app.post(
        "/v1/me/blocks",
        Some(&shy.token),
        &json!({"username": "player0"}),
    )
    .await
    .ok(200);
    offer(&users[0], "shy").await.ok(200);
    assert_eq!(app.count("invitations").await, invitations);
    // The named player is invited and told, and takes the seat without the code.
    offer(&users[0], "cand").await.ok(200);
    assert_eq!(app.count("invitations").await, invitations + 1);
    let told = app
        .count(&format!(
            "notifications WHERE user_id = '{}' AND kind = 'invited'",
            cand.id
        ))
        .await;
    assert_eq!(told, 1);
    let taken = take(app, &id, 2, cand).await.ok(200);
    assert_eq!(taken["my_seat"], 2);
}

/// A seat out after `abandon_after` turns run out (inactive) is vacant and
/// listed as a resigned one is, and taken over the same way.
#[actix_web::test]
async fn a_seat_out_for_inactivity_is_listed_and_taken_over() {
    let app = &TestApp::spawn_with(|s| s.background.deadline_tick_ms = 0).await;
    let users = app.users(3).await;
    let sub = &app.register("sub").await;
    let options = json!({"turn_timeout": "PT1H", "abandon_after": 1});
    let id = app.started_game(&users, "hats", options).await;
    let seat = app.game(&id, None).await["to_act"][0].as_u64().unwrap() as u8;
    app.expire(&id).await;
    let pool = hatstand::db::pool(&app.db.url, 1).unwrap();
    assert_eq!(hatstand::deadlines::tick(&pool).await.unwrap(), 1);
    let events = app
        .get(&format!("/v1/games/{id}/events"), None)
        .await
        .ok(200)
        .to_string();
    assert!(events.contains("\"inactive\""), "{events}");
    let listed = vacant(app).await;
    assert_eq!(listed["seats"][0]["seat"], seat, "{listed}");
    let taken = take(app, &id, seat, sub).await.ok(200);
    assert_eq!(taken["my_seat"], seat);
}

/// A player's devices are pushed `seat_substituted` (it was queued on no
/// channel but the feed, mail and webhooks).
#[actix_web::test]
async fn given_a_player_with_a_device_when_a_substitute_takes_a_seat_then_it_is_pushed() {
    use crate::push::{Device, push_service, server_key, subscribe};
    let app = &TestApp::spawn().await;
    let service = push_service(&server_key(app).await);
    let users = app.users(3).await;
    let sub = &app.register("sub").await;
    let device = Device::new();
    subscribe(
        app,
        &users[0],
        &device.subscription(&service.endpoint("d0")),
    )
    .await
    .ok(201);
    let id = vacated(app, &users, json!({})).await;
    take(app, &id, 2, sub).await.ok(200);
    let pushed = app
        .eventually(20, || async {
            service
                .of("d0")
                .into_iter()
                .map(|p| device.read(&p))
                .find(|m| m["kind"] == "seat_substituted")
        })
        .await;
    assert_eq!(pushed["game"], json!(id));
    assert_eq!(pushed["text"], "A new player took over a seat in Hats.");
    assert_eq!(
        app.count("push_outbox WHERE kind = 'seat_substituted'")
            .await,
        1,
        "only the device of the player told"
    );
}

/// The one-click unsubscribe link of a `seat_substituted` mail turns those
/// mails off (it answered 404: the kind was not one a user chooses about).
#[actix_web::test]
async fn given_a_substitution_mail_when_its_unsubscribe_link_is_posted_then_those_mails_stop() {
    use crate::mail::{Catcher, confirmed_address, mail_app};
    let catcher = Catcher::start().await;
    let (app, _) = mail_app(&catcher).await;
    let app = &app;
    let users = app.users(3).await;
    let sub = &app.register("sub").await;
    confirmed_address(app, &catcher, &users[0], "ada@mail.test").await;
    let id = vacated(app, &users, json!({})).await;
    take(app, &id, 2, sub).await.ok(200);
    let mut kept = Vec::new();
    let mail = loop {
        let mail = catcher.next_to("ada@mail.test", &mut kept).await;
        if mail.subject().contains("takes over seat 3") {
            break mail;
        }
    };
    let header = mail.header("List-Unsubscribe").unwrap();
    let url = header.trim_start_matches('<').trim_end_matches('>');
    let path = url.trim_start_matches("http://hatstand.test");
    assert!(path.contains("kind=seat_substituted"), "{path}");
    assert_eq!(app.get(path, None).await.status.as_u16(), 200);
    let done = app.post(path, None, &Value::Null).await;
    assert_eq!(done.status.as_u16(), 200, "{:?}", done.body);
    let settings = app.get("/v1/me/email", Some(&users[0].token)).await.ok(200);
    assert_eq!(settings["preferences"]["seat_substituted"], "never");
    assert_eq!(settings["preferences"]["your_turn"], "immediately");
    // The next takeover, in another game, is told but not mailed.
    let before = app
        .count("mail_outbox WHERE kind = 'seat_substituted'")
        .await;
    let again = vacated(app, &users, json!({})).await;
    let other = app.register("other").await;
    take(app, &again, 2, &other).await.ok(200);
    assert_eq!(
        app.count("notifications WHERE kind = 'seat_substituted'")
            .await,
        4
    );
    assert_eq!(
        app.count("mail_outbox WHERE kind = 'seat_substituted'")
            .await,
        before
    );
}
