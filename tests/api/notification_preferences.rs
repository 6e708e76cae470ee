//! Notification preferences: kinds left out per channel, quiet hours for
//! pushes in the user's time zone (held, then released; a newer push of
//! the game replaces a held one), and the reminder's lead time.

use chrono::Timelike;
use serde_json::{Value, json};

use crate::push::{Device, push_service};
use crate::support::{TestApp, User};

const PATH: &str = "/v1/me/notification-preferences";

async fn patch(app: &TestApp, user: &User, body: &Value) -> crate::support::Reply {
    app.send("PATCH", PATH, Some(&user.token), &[], body).await
}

#[actix_web::test]
async fn preferences_are_read_and_changed_and_bad_input_writes_nothing() {
    let app = TestApp::spawn().await;
    let user = app.register("chooser").await;
    let fresh = app.get(PATH, Some(&user.token)).await.ok(200);
    assert_eq!(
        fresh,
        json!({"off": {"push": [], "email": [], "webhooks": []},
               "quiet_hours": null, "reminder_before_minutes": null})
    );
    let changed = patch(
        &app,
        &user,
        &json!({"off": {"push": ["talk", "game_finished"], "email": ["reminder"]},
                "quiet_hours": {"start": "22:00", "end": "07:30"},
                "reminder_before_minutes": 120}),
    )
    .await
    .ok(200);
    let expected = json!({"off": {"push": ["talk", "game_finished"], "email": ["reminder"], "webhooks": []},
                          "quiet_hours": {"start": "22:00", "end": "07:30"},
                          "reminder_before_minutes": 120});
    assert_eq!(changed, expected);
    assert_eq!(app.get(PATH, Some(&user.token)).await.ok(200), expected);

    let cases = [
        (json!({"off": {"sms": ["talk"]}}), 422, "unknown_channel"),
        (
            json!({"off": {"push": ["confirm_address"]}}),
            422,
            "unknown_notification_kind",
        ),
        (
            json!({"off": {"push": ["talk"], "email": ["nope"]}}),
            422,
            "unknown_notification_kind",
        ),
        (
            json!({"quiet_hours": {"start": "25:00", "end": "07:00"}}),
            422,
            "invalid_quiet_hours",
        ),
        (
            json!({"quiet_hours": {"start": "07:00", "end": "07:00"}}),
            422,
            "invalid_quiet_hours",
        ),
        (
            json!({"quiet_hours": {"start": "7pm", "end": "07:00"}}),
            422,
            "invalid_quiet_hours",
        ),
        (
            json!({"reminder_before_minutes": 4}),
            422,
            "invalid_duration",
        ),
        (
            json!({"reminder_before_minutes": 10081}),
            422,
            "invalid_duration",
        ),
        // A bad part spoils the whole change: the valid quiet hours are not kept either.
        (
            json!({"quiet_hours": {"start": "01:00", "end": "02:00"}, "off": {"fax": []}}),
            422,
            "unknown_channel",
        ),
        (
            json!({"quiet_hours": {"start": "01:00"}}),
            400,
            "bad_request",
        ),
        (json!({"colour": "blue"}), 400, "bad_request"),
    ];
    for (body, status, code) in &cases {
        patch(&app, &user, body).await.assert_problem(*status, code);
        assert_eq!(
            app.get(PATH, Some(&user.token)).await.ok(200),
            expected,
            "{body}"
        );
    }
    // Clearing: null quiet hours, the quarter rule again, a channel emptied.
    let cleared = patch(
        &app,
        &user,
        &json!({"off": {"push": []}, "quiet_hours": null, "reminder_before_minutes": null}),
    )
    .await
    .ok(200);
    assert_eq!(
        cleared,
        json!({"off": {"push": [], "email": ["reminder"], "webhooks": []},
               "quiet_hours": null, "reminder_before_minutes": null})
    );
}

#[actix_web::test]
async fn a_kind_left_out_of_a_channel_is_not_queued_on_it() {
    let app = TestApp::spawn_with(|s| s.background.push_tick_ms = 0).await;
    let users = app.users(2).await;
    for user in &users {
        let body =
            Device::new().subscription(&format!("https://push.example.com/wpush/{}", user.id));
        app.post("/v1/me/push-subscriptions", Some(&user.token), &body)
            .await
            .ok(201);
        app.post(
            "/v1/me/webhooks",
            Some(&user.token),
            &json!({"url": format!("https://hooks.example.com/{}", user.id)}),
        )
        .await
        .ok(201);
        app.sql(&format!(
            "INSERT INTO email_addresses (user_id, address, confirmed_at)
             VALUES ('{}', '{}@example.com', now())",
            user.id, user.id
        ))
        .await;
    }
    // The first leaves turns out of every channel; the second changes nothing.
    patch(
        &app,
        &users[0],
        &json!({"off": {"push": ["your_turn", "reminder"], "email": ["your_turn", "reminder"],
                        "webhooks": ["your_turn"]}}),
    )
    .await
    .ok(200);
    let id = app
        .started_game(&users, "hats", json!({"turn_timeout": "P1D"}))
        .await;
    crate::play::play_out(&app, id, users.clone(), 7).await;
    let turns = |user: &User, table: &str| {
        format!(
            "{table} o JOIN notifications n ON n.id = o.notification_id
              WHERE n.user_id = '{}' AND n.kind = 'your_turn'",
            user.id
        )
    };
    for table in ["push_outbox", "mail_outbox", "webhook_deliveries"] {
        assert_eq!(app.count(&turns(&users[0], table)).await, 0, "{table}");
        assert!(app.count(&turns(&users[1], table)).await > 0, "{table}");
    }
    // No reminders for the first, on push or mail; the feed keeps everything.
    for table in ["push_outbox", "mail_outbox"] {
        let reminders =
            |u: &User| format!("{table} WHERE user_id = '{}' AND kind = 'reminder'", u.id);
        assert_eq!(app.count(&reminders(&users[0])).await, 0);
        assert!(app.count(&reminders(&users[1])).await > 0);
    }
    assert!(
        app.count(&format!(
            "notifications WHERE user_id = '{}' AND kind = 'your_turn'",
            users[0].id
        ))
        .await
            > 0
    );
    // Both still get the game's end everywhere.
    for user in &users {
        let ends = format!(
            "push_outbox WHERE user_id = '{}' AND kind = 'game_finished'",
            user.id
        );
        assert_eq!(app.count(&ends).await, 1);
    }
}

#[actix_web::test]
async fn the_reminder_comes_the_chosen_time_before_the_clock_runs_out() {
    let app = TestApp::spawn_with(|s| s.background.push_tick_ms = 0).await;
    let users = app.users(2).await;
    for user in &users {
        let body =
            Device::new().subscription(&format!("https://push.example.com/wpush/{}", user.id));
        app.post("/v1/me/push-subscriptions", Some(&user.token), &body)
            .await
            .ok(201);
        app.sql(&format!(
            "INSERT INTO email_addresses (user_id, address, confirmed_at)
             VALUES ('{}', '{}@example.com', now())",
            user.id, user.id
        ))
        .await;
        // An hour before, for both...
        patch(&app, user, &json!({"reminder_before_minutes": 60}))
            .await
            .ok(200);
    }
    // ...but the second changes their mind: a quarter of the turn's time again.
    patch(&app, &users[1], &json!({"reminder_before_minutes": null}))
        .await
        .ok(200);
    let id = app
        .started_game(&users, "hats", json!({"turn_timeout": "P1D"}))
        .await;
    crate::play::play_out(&app, id, users.clone(), 11).await;
    let quarter = "((t.payload ->> 'deadline')::timestamptz - t.created_at) / 4";
    for (n, lead) in [(0, "interval '60 minutes'"), (1, quarter)] {
        let user = &users[n];
        let all = |table: &str, due: &str| {
            format!(
                "{table} o JOIN notifications t ON t.id = o.notification_id
                  WHERE o.user_id = '{}' AND o.kind = 'reminder'{due}",
                user.id
            )
        };
        let on_time = format!(" AND o.{{at}} = (t.payload ->> 'deadline')::timestamptz - {lead}");
        for (table, at) in [("push_outbox", "not_before"), ("mail_outbox", "due_at")] {
            let queued = app.count(&all(table, "")).await;
            assert!(queued > 0, "{table}");
            let timely = app.count(&all(table, &on_time.replace("{at}", at))).await;
            assert_eq!(timely, queued, "user {n}, {table}");
        }
    }
}

#[actix_web::test]
async fn a_push_in_quiet_hours_waits_and_a_newer_one_of_the_game_replaces_it() {
    let app = TestApp::spawn().await;
    let service = push_service(&crate::push::server_key(&app).await);
    let users = app.users(2).await;
    let zone: chrono_tz::Tz = "Asia/Tokyo".parse().unwrap();
    // Quiet hours around now on the users' clock (Tokyo): an hour each side.
    let local = chrono::Utc::now().with_timezone(&zone);
    let minute = i64::from(local.hour() * 60 + local.minute());
    let clock = |m: i64| {
        let m = m.rem_euclid(1440);
        format!("{:02}:{:02}", m / 60, m % 60)
    };
    let (start, end) = (clock(minute - 60), clock(minute + 60));
    for (n, user) in users.iter().enumerate() {
        app.send(
            "PATCH",
            "/v1/me/settings",
            Some(&user.token),
            &[],
            &json!({"time_zone": "Asia/Tokyo"}),
        )
        .await
        .ok(200);
        patch(
            &app,
            user,
            &json!({"quiet_hours": {"start": start, "end": end}}),
        )
        .await
        .ok(200);
        let body = Device::new().subscription(&service.endpoint(&format!("d{n}")));
        app.post("/v1/me/push-subscriptions", Some(&user.token), &body)
            .await
            .ok(201);
    }
    let id = app.started_game(&users, "hats", json!({})).await;
    let seat = app.game(&id, None).await["to_act"][0].as_u64().unwrap() as usize;
    // The turn's push is held until the quiet hours end, on the Tokyo clock.
    app.eventually(10, || async {
        (app.count("push_outbox WHERE held_until IS NOT NULL AND state = 'pending'")
            .await
            == 1)
            .then_some(())
    })
    .await;
    let until = hatstand::notifications::preferences::quiet_until(
        chrono::Utc::now(),
        zone,
        hatstand::notifications::preferences::minutes(&start).unwrap(),
        hatstand::notifications::preferences::minutes(&end).unwrap(),
    )
    .unwrap();
    assert_eq!(
        app.count(&format!(
            "push_outbox WHERE kind = 'your_turn' AND user_id = '{}'
               AND next_attempt_at = held_until AND attempts = 0
               AND abs(extract(epoch FROM held_until - '{}'::timestamptz)) < 60",
            users[seat].id,
            until.to_rfc3339()
        ))
        .await,
        1
    );
    // The game ends meanwhile: a newer push about it, to both.
    app.post(
        &format!("/v1/games/{id}/resign"),
        Some(&users[1 - seat].token),
        &json!({}),
    )
    .await
    .ok(200);
    app.eventually(10, || async {
        (app.count("push_outbox WHERE held_until IS NOT NULL AND state = 'pending'")
            .await
            == 2)
            .then_some(())
    })
    .await;
    assert!(service.taken.lock().unwrap().is_empty());

    // The quiet hours end (cleared): what was held goes, the turn replaced by the end.
    for user in &users {
        patch(&app, user, &json!({"quiet_hours": null}))
            .await
            .ok(200);
    }
    app.eventually(10, || async {
        (service.taken.lock().unwrap().len() == 2).then_some(())
    })
    .await;
    assert_eq!(
        app.count(
            "push_outbox WHERE state = 'skipped' AND last_error = 'replaced by a newer push'"
        )
        .await,
        1
    );
    assert_eq!(
        app.count("push_outbox WHERE state = 'sent' AND kind = 'game_finished'")
            .await,
        2
    );
    assert_eq!(app.count("push_outbox WHERE state = 'pending'").await, 0);
}
