use crate::support::TestApp;

#[actix_web::test]
async fn health_and_readiness_answer() {
    let app = TestApp::spawn().await;
    assert_eq!(app.get("/healthz", None).await.ok(200)["status"], "ok");
    assert_eq!(app.get("/readyz", None).await.ok(200)["status"], "ready");
}

#[actix_web::test]
async fn the_openapi_document_and_the_docs_are_served() {
    let app = TestApp::spawn().await;
    let doc = app.get("/openapi.json", None).await.ok(200);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    assert!(doc["paths"]["/v1/games/{id}/commands"]["post"].is_object());
    let docs = app.get("/docs/", None).await;
    assert_eq!(docs.status.as_u16(), 200);
    // The README's address, without the slash, lands on the same page.
    let bare = app.get("/docs", None).await;
    assert_eq!(bare.status.as_u16(), 200, "{}", bare.body);
}

#[actix_web::test]
async fn unknown_routes_and_methods_are_problem_json() {
    let app = TestApp::spawn().await;
    app.get("/nope", None)
        .await
        .assert_problem(404, "not_found");
    app.get("/v1/nope", None)
        .await
        .assert_problem(404, "not_found");
    let reply = app
        .send("DELETE", "/v1/rulesets", None, &[], &serde_json::json!({}))
        .await;
    assert!(matches!(reply.status.as_u16(), 404 | 405), "{}", reply.body);
    assert!(reply.body["code"].is_string());
}

#[actix_web::test]
async fn a_method_a_path_does_not_serve_is_405_with_allow() {
    let app = TestApp::spawn().await;
    let reply = app
        .send("DELETE", "/v1/rulesets", None, &[], &serde_json::json!({}))
        .await;
    reply.assert_problem(405, "method_not_allowed");
    assert_eq!(reply.headers.get("allow").unwrap(), "GET");
    let id = uuid::Uuid::new_v4();
    let reply = app
        .send(
            "PUT",
            &format!("/v1/games/{id}/commands"),
            None,
            &[],
            &serde_json::json!({}),
        )
        .await;
    reply.assert_problem(405, "method_not_allowed");
    assert_eq!(reply.headers.get("allow").unwrap(), "POST");
    app.get("/v1/games/x/y/z", None)
        .await
        .assert_problem(404, "not_found");
}

#[test]
fn the_committed_openapi_document_is_the_one_the_code_builds() {
    let committed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json"))
            .unwrap();
    let built = hatstand::openapi::document_json().unwrap();
    assert!(
        committed == built,
        "openapi/openapi.json is stale: run `cargo run -- openapi --out openapi/openapi.json`"
    );
}

#[test]
fn every_cursor_parameter_declares_the_shape_the_server_parses() {
    let doc = serde_json::to_value(hatstand::openapi::document()).unwrap();
    let mut cursors = 0;
    for item in doc["paths"].as_object().unwrap().values() {
        for operation in item.as_object().unwrap().values() {
            for parameter in operation["parameters"].as_array().into_iter().flatten() {
                if parameter["name"] == "cursor" {
                    cursors += 1;
                    let pattern = parameter["schema"]["pattern"].as_str().unwrap_or_default();
                    assert!(
                        [
                            hatstand::games::read::CURSOR_PATTERN,
                            hatstand::ratings_read::BOARD_CURSOR_PATTERN,
                            hatstand::ratings_read::HISTORY_CURSOR_PATTERN,
                            hatstand::games::substitute::VACANT_CURSOR_PATTERN,
                        ]
                        .contains(&pattern),
                        "{pattern:?}"
                    );
                }
            }
        }
    }
    assert_eq!(
        cursors, 6,
        "list_games, list_my_games, list_user_games, get_leaderboard, get_rating_history and list_vacant_seats take a cursor"
    );
}

#[actix_web::test]
async fn readiness_names_a_table_left_without_autovacuum() {
    let app = TestApp::spawn().await;
    // Autovacuum itself is the PostgreSQL server's setting, whatever it is
    // where the tests run (a test may not change it); a table's own setting
    // is the same warning.
    let before = app.get("/readyz", None).await.ok(200)["detail"].to_string();
    assert!(!before.contains("seats"), "{before}");
    app.sql("ALTER TABLE seats SET (autovacuum_enabled = false)")
        .await;
    let ready = app.get("/readyz", None).await.ok(200);
    assert_eq!(ready["status"], "ready");
    let detail = ready["detail"].to_string();
    assert!(detail.contains("autovacuum is off for seats"), "{detail}");
}
