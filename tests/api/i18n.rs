//! English and French (docs/i18n.md): a user's `language` setting, and
//! problem titles in the language of the request's `Accept-Language`, with
//! codes and field names the same in both.

use serde_json::json;

use crate::support::TestApp;

#[actix_web::test]
async fn a_user_chooses_a_language_clears_it_and_is_refused_any_other_writing_nothing() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let me = &users[0];
    let patch = |body: serde_json::Value| {
        let app = &app;
        let token = me.token.clone();
        async move {
            app.send("PATCH", "/v1/me/settings", Some(&token), &[], &body)
                .await
        }
    };
    // None chosen: the member is absent, as before the setting existed.
    assert_eq!(
        app.get("/v1/me/settings", Some(&me.token)).await.ok(200),
        json!({"auto_play_forced": false})
    );
    // Bad input: a language not spoken, or not a string. Nothing is written.
    for (body, status, code) in [
        (json!({"language": "de"}), 422, "unsupported_language"),
        (json!({"language": "FR"}), 422, "unsupported_language"),
        (json!({"language": ""}), 422, "unsupported_language"),
        (json!({"language": 7}), 400, "bad_request"),
    ] {
        patch(body).await.assert_problem(status, code);
    }
    assert_eq!(app.count("user_settings").await, 0);

    assert_eq!(
        patch(json!({"language": "fr"})).await.ok(200),
        json!({"auto_play_forced": false, "language": "fr"})
    );
    // What is absent stays: the language and the turn setting alike.
    assert_eq!(
        patch(json!({"auto_play_forced": true})).await.ok(200),
        json!({"auto_play_forced": true, "language": "fr"})
    );
    assert_eq!(
        app.get("/v1/me/settings", Some(&me.token)).await.ok(200),
        json!({"auto_play_forced": true, "language": "fr"})
    );
    patch(json!({"language": "xx"}))
        .await
        .assert_problem(422, "unsupported_language");
    assert_eq!(
        app.get("/v1/me/settings", Some(&me.token)).await.ok(200),
        json!({"auto_play_forced": true, "language": "fr"})
    );
    // Another user's choice is theirs.
    assert_eq!(
        app.get("/v1/me/settings", Some(&users[1].token))
            .await
            .ok(200),
        json!({"auto_play_forced": false})
    );
    // `null` clears it: the request decides again.
    assert_eq!(
        patch(json!({"language": null})).await.ok(200),
        json!({"auto_play_forced": true})
    );
}

#[actix_web::test]
async fn settings_stored_before_languages_existed_read_as_none_chosen_and_keep_their_values() {
    let app = TestApp::spawn().await;
    let me = app.register("earlier").await;
    // A row as the release before wrote it (no language column named).
    app.sql(&format!(
        "INSERT INTO user_settings (user_id, auto_play_forced, updated_at) VALUES ('{}', true, now())",
        me.id
    ))
    .await;
    assert_eq!(
        app.get("/v1/me/settings", Some(&me.token)).await.ok(200),
        json!({"auto_play_forced": true})
    );
    assert_eq!(
        app.send(
            "PATCH",
            "/v1/me/settings",
            Some(&me.token),
            &[],
            &json!({"language": "en"})
        )
        .await
        .ok(200),
        json!({"auto_play_forced": true, "language": "en"})
    );
}

#[actix_web::test]
async fn problem_titles_follow_accept_language_and_codes_stay_the_same() {
    let app = TestApp::spawn().await;
    let unknown = "/v1/games/00000000-0000-0000-0000-000000000000";
    let english = app.get(unknown, None).await;
    english.assert_problem(404, "not_found");
    assert_eq!(english.body["title"], "Not found");

    for (accept, title) in [
        ("fr-FR,fr;q=0.9,en;q=0.8", "Introuvable"),
        ("fr", "Introuvable"),
        ("de, en;q=0.5", "Not found"),
        ("en-GB", "Not found"),
    ] {
        let answer = app
            .send_raw(
                "GET",
                unknown,
                None,
                &[("Accept-Language", accept)],
                Vec::new(),
            )
            .await;
        answer.assert_problem(404, "not_found");
        assert_eq!(answer.body["title"], title, "{accept}");
        assert_eq!(answer.body["detail"], english.body["detail"], "{accept}");
    }

    // A problem met before any handler (an unknown route; a bad body) too.
    let unrouted = app
        .send_raw(
            "GET",
            "/v1/nowhere",
            None,
            &[("Accept-Language", "fr")],
            Vec::new(),
        )
        .await;
    unrouted.assert_problem(404, "not_found");
    assert_eq!(unrouted.body["title"], "Introuvable");
    let me = app.register("lectrice").await;
    let refused = app
        .send_raw(
            "PATCH",
            "/v1/me/settings",
            Some(&me.token),
            &[
                ("Accept-Language", "fr"),
                ("content-type", "application/json"),
            ],
            br#"{"language": "de"}"#.to_vec(),
        )
        .await;
    refused.assert_problem(422, "unsupported_language");
    assert_eq!(refused.body["title"], "Requête impossible à traiter");
}
