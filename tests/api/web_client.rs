//! The web client is served at `/` beside the API: its page and modules,
//! with a strict Content Security Policy, and problem+json for what it lacks.

use crate::support::TestApp;

#[actix_web::test]
async fn the_web_client_is_served_at_the_root_with_a_strict_policy() {
    let app = TestApp::spawn().await;
    let page = app.get("/", None).await;
    assert_eq!(page.status.as_u16(), 200);
    assert_eq!(
        page.headers.get("content-type").unwrap(),
        "text/html; charset=utf-8"
    );
    let html = page.body.as_str().unwrap();
    assert!(
        html.contains(r#"<script type="module" src="/js/main.js">"#),
        "{html}"
    );
    let policy = page.headers.get("content-security-policy").unwrap();
    let policy = policy.to_str().unwrap();
    assert!(policy.contains("script-src 'self'"), "{policy}");
    assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
    assert_eq!(
        page.headers.get("x-content-type-options").unwrap(),
        "nosniff"
    );

    let module = app.get("/js/main.js", None).await;
    assert_eq!(module.status.as_u16(), 200);
    assert_eq!(
        module.headers.get("content-type").unwrap(),
        "text/javascript; charset=utf-8"
    );
    assert!(module.body.as_str().unwrap().contains("import"));
    let style = app.get("/css/app.css", None).await;
    assert_eq!(style.status.as_u16(), 200);
    assert_eq!(
        style.headers.get("content-type").unwrap(),
        "text/css; charset=utf-8"
    );
}

#[actix_web::test]
async fn every_board_the_page_imports_is_served() {
    let app = TestApp::spawn().await;
    for board in ["hats", "goathead", "top-hats", "hat-trick"] {
        let module = app.get(&format!("/js/games/{board}.js"), None).await;
        assert_eq!(module.status.as_u16(), 200, "{board}");
        assert!(
            module
                .body
                .as_str()
                .unwrap()
                .contains("export function render"),
            "{board}"
        );
    }
    for page in ["inbox", "signin", "new-game", "game", "watch", "audit"] {
        let module = app.get(&format!("/js/pages/{page}.js"), None).await;
        assert_eq!(module.status.as_u16(), 200, "{page}");
    }
}

#[actix_web::test]
async fn a_revalidated_file_answers_304_and_unknown_files_are_problem_json() {
    let app = TestApp::spawn().await;
    let first = app.get("/js/api.js", None).await;
    let etag = first.header("etag");
    let again = app
        .send_raw(
            "GET",
            "/js/api.js",
            None,
            &[("If-None-Match", &etag)],
            Vec::new(),
        )
        .await;
    assert_eq!(again.status.as_u16(), 304);

    app.get("/js/nope.js", None)
        .await
        .assert_problem(404, "not_found");
    app.get("/js/games/README.md", None)
        .await
        .assert_problem(404, "not_found");
    app.get("/js/../Cargo.toml", None)
        .await
        .assert_problem(404, "not_found");
}
