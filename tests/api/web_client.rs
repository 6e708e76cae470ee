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
    for page in [
        "inbox",
        "signin",
        "new-game",
        "game",
        "watch",
        "audit",
        "tournaments",
    ] {
        let module = app.get(&format!("/js/pages/{page}.js"), None).await;
        assert_eq!(module.status.as_u16(), 200, "{page}");
    }
}

/// The static imports of a served module, as absolute paths.
fn static_imports(path: &str, source: &str) -> Vec<String> {
    let dir = &path[..path.rfind('/').unwrap()];
    source
        .lines()
        .filter(|line| line.starts_with("import "))
        .filter_map(|line| line.split(['\'', '"']).nth(1))
        .map(|relative| {
            let mut parts: Vec<&str> = dir.split('/').collect();
            for part in relative.split('/') {
                match part {
                    "." => {}
                    ".." => {
                        parts.pop();
                    }
                    name => parts.push(name),
                }
            }
            parts.join("/")
        })
        .collect()
}

/// Every module the start and game pages import is preloaded by the page,
/// so the browser fetches them at once rather than one import level after
/// another (a module missed here cost the game page its Lighthouse floor).
#[actix_web::test]
async fn every_module_the_start_and_game_pages_import_is_preloaded() {
    let app = TestApp::spawn().await;
    let page = app.get("/", None).await;
    let page = page.body.as_str().unwrap().to_owned();
    let preloaded: std::collections::BTreeSet<String> = page
        .split("<link rel=\"modulepreload\" href=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].to_owned())
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    let mut next: Vec<String> = ["main", "pages/inbox", "pages/signin", "pages/game"]
        .iter()
        .map(|module| format!("/js/{module}.js"))
        .collect();
    while let Some(path) = next.pop() {
        if !seen.insert(path.clone()) {
            continue;
        }
        let module = app.get(&path, None).await;
        assert_eq!(module.status.as_u16(), 200, "{path}");
        next.extend(static_imports(&path, module.body.as_str().unwrap()));
    }
    let missing: Vec<_> = seen.difference(&preloaded).collect();
    assert!(
        missing.is_empty(),
        "imported but not preloaded: {missing:?}"
    );
    let unused: Vec<_> = preloaded.difference(&seen).collect();
    assert!(unused.is_empty(), "preloaded but not imported: {unused:?}");
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

#[actix_web::test]
async fn the_app_installs_with_a_manifest_icons_and_a_service_worker_that_keeps_only_the_shell() {
    let app = TestApp::spawn().await;
    let page = app.get("/", None).await;
    let html = page.body.as_str().unwrap();
    assert!(
        html.contains(r#"<link rel="manifest" href="/manifest.webmanifest">"#),
        "{html}"
    );

    let manifest = app.get("/manifest.webmanifest", None).await;
    assert_eq!(manifest.status.as_u16(), 200);
    assert_eq!(
        manifest.headers.get("content-type").unwrap(),
        "application/manifest+json"
    );
    let manifest = manifest.body;
    assert_eq!(manifest["display"], "standalone");
    assert_eq!(manifest["start_url"], "/#/");
    assert_eq!(manifest["id"], "/");
    let icons = manifest["icons"].as_array().unwrap();
    for (size, purpose) in [
        ("192x192", "any"),
        ("512x512", "any"),
        ("512x512", "maskable"),
    ] {
        let icon = icons
            .iter()
            .find(|icon| icon["sizes"] == size && icon["purpose"] == purpose)
            .unwrap_or_else(|| panic!("no {purpose} icon of {size}"));
        let mut png = app
            .request("GET", icon["src"].as_str().unwrap(), None, &[])
            .send()
            .await
            .unwrap();
        assert_eq!(png.status().as_u16(), 200, "{icon}");
        assert_eq!(png.headers().get("content-type").unwrap(), "image/png");
        let bytes = png.body().await.unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{icon}");
        let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
        assert_eq!(format!("{width}x{width}"), size, "{icon}");
        assert!(bytes.len() < 16_000, "{icon}: {} bytes", bytes.len());
    }

    let worker = app.get("/sw.js", None).await;
    assert_eq!(worker.status.as_u16(), 200);
    assert_eq!(
        worker.headers.get("content-type").unwrap(),
        "text/javascript; charset=utf-8"
    );
    let script = worker.body.as_str().unwrap();
    let files_line = script
        .lines()
        .find_map(|line| line.strip_prefix("const SHELL_FILES = "))
        .expect("the worker is told the shell's files");
    let files: Vec<String> = serde_json::from_str(files_line.trim_end_matches(';')).unwrap();
    for needed in [
        "/",
        "/js/main.js",
        "/js/offline.js",
        "/js/pages/tournaments.js",
        "/css/app.css",
        "/manifest.webmanifest",
    ] {
        assert!(files.iter().any(|f| f == needed), "{needed} in {files:?}");
    }
    // Every file of the shell is served, and none is an API answer.
    for file in &files {
        assert!(!file.starts_with("/v1"), "{file}");
        assert_eq!(app.get(file, None).await.status.as_u16(), 200, "{file}");
    }
    assert!(script.contains("const SHELL_VERSION = \""), "{script}");
    assert!(script.contains("addEventListener('push'"), "{script}");
    assert!(
        script.contains("addEventListener('notificationclick'"),
        "{script}"
    );
    // Revalidated like every other file.
    let again = app
        .send_raw(
            "GET",
            "/sw.js",
            None,
            &[("If-None-Match", &worker.header("etag"))],
            Vec::new(),
        )
        .await;
    assert_eq!(again.status.as_u16(), 304);
}
