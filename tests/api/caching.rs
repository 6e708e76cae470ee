//! Entity tags and caching per viewer: a tag names one viewer's
//! representation, a 304 answers only the viewer whose own current body
//! carries the tag, and no cache may hand one viewer's answer to another.

use serde_json::{Value, json};

use crate::support::{Reply, TestApp, User};

/// A GET with an optional token and `If-None-Match`.
async fn get_if(app: &TestApp, path: &str, token: Option<&str>, tag: Option<&str>) -> Reply {
    let headers: Vec<(&str, &str)> = tag.map(|t| ("If-None-Match", t)).into_iter().collect();
    app.send("GET", path, token, &headers, &Value::Null).await
}

/// The Hats deck as card codes.
fn deck() -> Vec<String> {
    ["T", "S", "H", "C", "D"]
        .iter()
        .flat_map(|t| (1..=6).map(move |n| format!("{t}{n}")))
        .collect()
}

/// A 2-player Hats deal; `twin` swaps seat 0's first card with the last
/// card of the deck: a difference only seat 0 can see.
fn hats_deal(twin: bool) -> Value {
    let mut deck = deck();
    if twin {
        deck.swap(5, 29);
    }
    json!({"line": deck[0..5], "hands": [deck[5..14], deck[14..23]], "deck": deck[23..]})
}

/// A started 2-player Hats game and its players.
async fn table(app: &TestApp) -> (Vec<User>, String) {
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    (users, id)
}

#[actix_web::test]
async fn a_games_tag_differs_by_viewer_and_answers_304_only_to_its_own() {
    let app = TestApp::spawn().await;
    let (users, id) = table(&app).await;
    let outsider = app.register("outsider").await;
    let path = format!("/v1/games/{id}");
    let seat0 = app.get(&path, Some(&users[0].token)).await;
    let seat1 = app.get(&path, Some(&users[1].token)).await;
    let anonymous = app.get(&path, None).await;
    let signed_in = app.get(&path, Some(&outsider.token)).await;
    let tag0 = seat0.header("etag");
    let version = seat0.body["version"].as_i64().unwrap();
    assert!(tag0.starts_with(&format!("\"{version}.")), "{tag0}");
    assert_ne!(tag0, seat1.header("etag"));
    assert_ne!(tag0, anonymous.header("etag"));
    assert_eq!(
        anonymous.header("etag"),
        signed_in.header("etag"),
        "every spectator sees the same body"
    );
    assert_eq!(anonymous.body, signed_in.body);

    // The leak: a spectator, or the other seat, sending seat 0's tag.
    for (who, token, own) in [
        ("a spectator", None, &anonymous),
        ("the other seat", Some(users[1].token.as_str()), &seat1),
        (
            "a signed-in spectator",
            Some(outsider.token.as_str()),
            &signed_in,
        ),
    ] {
        let reply = get_if(&app, &path, token, Some(&tag0)).await;
        assert_eq!(
            reply.status.as_u16(),
            200,
            "{who} is told seat 0's view is its own"
        );
        assert_eq!(reply.body, own.body, "{who} gets its own body");
        assert_eq!(reply.header("etag"), own.header("etag"));
    }
    // The same viewer, the same version: 304 without a body.
    for (token, reply) in [
        (Some(users[0].token.as_str()), &seat0),
        (Some(users[1].token.as_str()), &seat1),
        (None, &anonymous),
    ] {
        let tag = reply.header("etag");
        let again = get_if(&app, &path, token, Some(&tag)).await;
        assert_eq!(again.status.as_u16(), 304);
        assert_eq!(again.body, Value::Null);
        assert_eq!(again.header("etag"), tag);
        assert!(again.header("vary").contains("Authorization"));
    }
    // A version later, the old tag is stale.
    let command = seat0.body["legal_commands"][0].clone();
    app.command(&id, &users[0], version, &command).await.ok(200);
    let stale = get_if(&app, &path, Some(&users[0].token), Some(&tag0)).await;
    assert_eq!(stale.status.as_u16(), 200);
    assert_ne!(stale.header("etag"), tag0);
}

#[actix_web::test]
async fn a_seats_answer_is_never_stored_and_a_spectators_is_revalidated() {
    let app = TestApp::spawn().await;
    let (users, id) = table(&app).await;
    let path = format!("/v1/games/{id}");
    let seat = app.get(&path, Some(&users[0].token)).await;
    assert_eq!(seat.header("cache-control"), "private, no-store");
    assert!(seat.header("vary").contains("Authorization"));
    let spectator = app.get(&path, None).await;
    assert_eq!(spectator.header("cache-control"), "private, no-cache");
    assert!(spectator.header("vary").contains("Authorization"));
}

#[actix_web::test]
async fn a_commands_tag_is_the_callers_and_serves_as_if_match() {
    let app = TestApp::spawn().await;
    let (users, id) = table(&app).await;
    let path = format!("/v1/games/{id}");
    let game = app.game(&id, Some(&users[0])).await;
    let tag = app.get(&path, Some(&users[0].token)).await.header("etag");
    let command = game["legal_commands"][0].clone();
    let reply = app
        .send(
            "POST",
            &format!("{path}/commands"),
            Some(&users[0].token),
            &[("If-Match", tag.as_str())],
            &json!({"command": command}),
        )
        .await;
    assert_eq!(reply.header("cache-control"), "private, no-store");
    let after = reply.header("etag");
    let body = reply.ok(200);
    let now = app.get(&path, Some(&users[0].token)).await;
    assert_eq!(
        now.header("etag"),
        after,
        "the command's tag is the caller's GET tag"
    );
    assert_eq!(now.body["version"], body["version"]);
    // The old tag as If-Match is a stale version.
    let again = app
        .send(
            "POST",
            &format!("{path}/commands"),
            Some(&users[0].token),
            &[("If-Match", tag.as_str())],
            &json!({"command": command}),
        )
        .await;
    again.assert_problem(412, "version_conflict");
}

/// Every per-viewer GET of the OpenAPI document that declares an `ETag`
/// (and a 304): another viewer's tag gets 200 and the caller's own body;
/// the caller's own tag gets 304.
#[actix_web::test]
async fn every_tagged_operation_answers_304_only_to_its_own_viewer() {
    let app = TestApp::spawn().await;
    let (users, id) = table(&app).await;
    let game = app.game(&id, Some(&users[0])).await;
    let command = game["legal_commands"][0].clone();
    app.command(&id, &users[0], game["version"].as_i64().unwrap(), &command)
        .await
        .ok(200);
    let doc = app.get("/openapi.json", None).await.ok(200);
    let mut checked = Vec::new();
    for (template, item) in doc["paths"].as_object().unwrap() {
        let Some(op) = item.get("get") else { continue };
        let declares_tag = op["responses"]["200"]["headers"].get("ETag").is_some();
        assert_eq!(
            declares_tag,
            op["responses"].get("304").is_some(),
            "{template}: an ETag and a 304 go together"
        );
        if !declares_tag {
            continue;
        }
        let path = concrete(template, op, &id, "player0");
        let anonymous_allowed = op["security"]
            .as_array()
            .is_some_and(|s| s.iter().any(|r| r.as_object().unwrap().is_empty()));
        let seat0 = app.get(&path, Some(&users[0].token)).await;
        assert_eq!(seat0.status.as_u16(), 200, "{path}: {}", seat0.body);
        let tag0 = seat0.header("etag");
        let mut others = vec![("seat 1", Some(users[1].token.as_str()))];
        if anonymous_allowed {
            others.push(("a spectator", None));
        }
        for (who, token) in others {
            let own = app.get(&path, token).await;
            assert_ne!(
                own.header("etag"),
                tag0,
                "{path}: {who} shares seat 0's tag"
            );
            let sent = get_if(&app, &path, token, Some(&tag0)).await;
            assert_eq!(sent.status.as_u16(), 200, "{path}: {who} sent seat 0's tag");
            assert_eq!(sent.body, own.body, "{path}: {who} gets its own body");
            let mine = get_if(&app, &path, token, Some(&own.header("etag"))).await;
            assert_eq!(mine.status.as_u16(), 304, "{path}: {who}'s own tag");
        }
        let mine = get_if(&app, &path, Some(&users[0].token), Some(&tag0)).await;
        assert_eq!(mine.status.as_u16(), 304, "{path}: seat 0's own tag");
        assert_eq!(mine.body, Value::Null);
        checked.push(op["operationId"].as_str().unwrap().to_owned());
    }
    checked.sort();
    assert_eq!(
        checked,
        [
            "get_game",
            "get_game_log",
            "get_game_state",
            "list_events",
            "list_games",
            "list_my_games",
            "list_notifications",
            "list_vacant_seats"
        ]
    );
}

/// Every GET of the OpenAPI document a token may change (its security
/// names `bearer`) answers `Vary: Authorization` and `Cache-Control`
/// `private` or `no-store`, streams included; only answers the same for
/// everyone may be cached publicly.
#[actix_web::test]
async fn every_per_viewer_answer_is_private_and_varies_by_authorization() {
    let app = TestApp::spawn().await;
    let (users, id) = table(&app).await;
    let doc = app.get("/openapi.json", None).await.ok(200);
    let mut checked = 0;
    for (template, item) in doc["paths"].as_object().unwrap() {
        let Some(op) = item.get("get") else { continue };
        let per_viewer = op["security"]
            .as_array()
            .is_some_and(|s| s.iter().any(|r| r.get("bearer").is_some()));
        if !per_viewer {
            continue;
        }
        let path = concrete(template, op, &id, "player1");
        // Read the headers only: a stream's body does not end.
        let response = app
            .request("GET", &path, Some(&users[0].token), &[])
            .send()
            .await
            .unwrap();
        // Understood and authorised (`/v1/me/email` is 404 until an address
        // is set, an audit 409 until the game is over, conditional lines 422
        // in a ruleset without them): the headers hold for refusals too.
        let status = response.status().as_u16();
        assert!([200, 404, 409, 422].contains(&status), "{path}: {status}");
        let header = |name: &str| {
            response
                .headers()
                .get_all(name)
                .map(|v| v.to_str().unwrap().to_owned())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let cache = header("cache-control");
        assert!(
            cache.contains("private") || cache.contains("no-store"),
            "{path}: Cache-Control {cache:?}"
        );
        assert!(!cache.contains("public"), "{path}: {cache}");
        assert!(header("vary").contains("Authorization"), "{path}: no Vary");
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} per-viewer operations found");
}

/// `template` with its path parameters filled in (`id`: the game, any
/// `username`: `user`, any `ruleset`: Hats) and its required query parameters at their minimum.
fn concrete(template: &str, op: &Value, id: &str, user: &str) -> String {
    let mut path = template
        .replace("{id}", id)
        .replace("{username}", user)
        .replace("{ruleset}", "hats");
    let mut query = Vec::new();
    for param in op["parameters"].as_array().into_iter().flatten() {
        if param["in"] == "query" && param["required"] == true {
            let min = param["schema"]["minimum"].as_i64().unwrap_or(1);
            query.push(format!("{}={min}", param["name"].as_str().unwrap()));
        }
    }
    if !query.is_empty() {
        path = format!("{path}?{}", query.join("&"));
    }
    assert!(!path.contains('{'), "{template}: a parameter left");
    path
}

/// Twin games that differ only in a card seat 0 holds: an observer (seat 1,
/// a spectator) gets the same body, so the same tag, in both; seat 0's
/// bodies differ.
#[actix_web::test]
async fn an_observers_tags_of_twin_games_differ_only_where_its_bodies_do() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    // The same salts in both: they are public, and twins differ only in
    // what seat 0 holds.
    let twin = |deal: Value| {
        let (app, users) = (&app, &users);
        async move {
            let game = app
                .created_game(
                    &users[0],
                    &json!({"ruleset": "hats", "players": 2, "options": {"deals": [deal]},
                            "salt": "11".repeat(32)}),
                )
                .await;
            let id = game["id"].as_str().unwrap().to_owned();
            app.post(
                &format!("/v1/games/{id}/join"),
                Some(&users[1].token),
                &json!({"salt": "22".repeat(32)}),
            )
            .await
            .ok(200);
            id
        }
    };
    let a = twin(hats_deal(false)).await;
    let b = twin(hats_deal(true)).await;
    /// A body without what differs between any two games (ids, times, the
    /// seed's commitment).
    fn normal(mut body: Value) -> Value {
        for key in ["id", "created_at", "updated_at", "seed_commitment"] {
            body.as_object_mut().unwrap().remove(key);
        }
        body
    }
    for (who, token) in [
        ("seat 1", Some(users[1].token.as_str())),
        ("a spectator", None),
    ] {
        let in_a = app.get(&format!("/v1/games/{a}"), token).await;
        let in_b = app.get(&format!("/v1/games/{b}"), token).await;
        assert_eq!(
            normal(in_a.body.clone()),
            normal(in_b.body.clone()),
            "{who}"
        );
        assert_eq!(in_a.header("etag"), in_b.header("etag"), "{who}");
    }
    let own_a = app.game(&a, Some(&users[0])).await;
    let own_b = app.game(&b, Some(&users[0])).await;
    assert_ne!(normal(own_a), normal(own_b), "seat 0 holds another card");
}

#[actix_web::test]
async fn an_unknown_or_malformed_tag_is_answered_in_full_and_a_star_is_not_modified() {
    let app = TestApp::spawn().await;
    let (users, id) = table(&app).await;
    let path = format!("/v1/games/{id}/events");
    let token = Some(users[0].token.as_str());
    let own = app.get(&path, token).await;
    let malformed = get_if(&app, &path, token, Some("nope")).await;
    assert_eq!(malformed.status.as_u16(), 200);
    assert_eq!(malformed.body, own.body);
    let unknown = get_if(&app, &path, token, Some("\"0123\"")).await;
    assert_eq!(unknown.status.as_u16(), 200);
    let star = get_if(&app, &path, token, Some("*")).await;
    assert_eq!(
        star.status.as_u16(),
        304,
        "* names any current representation"
    );
}
