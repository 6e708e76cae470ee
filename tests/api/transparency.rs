//! Records nobody can dispute: signed audits checked against the keys at
//! the well-known address, the transparency log's proofs, a fork reported,
//! and every game logged exactly once while games end at once in two
//! processes.

use hatstand::transparency::check;
use hatstand::transparency::log::{ConsistencyProof, InclusionProof, TreeHead};
use hatstand::transparency::monitor::{self, Seen};
use hatstand::transparency::signing::KeySet;
use serde_json::{Value, json};

use crate::play::play;
use crate::support::{TestApp, settings, start_server};

async fn keys(app: &TestApp) -> KeySet {
    let reply = app.get("/.well-known/hatstand-keys.json", None).await;
    assert_eq!(reply.header("cache-control"), "public, max-age=300");
    serde_json::from_value(reply.ok(200)).unwrap()
}

/// The game's audit once it carries its log proof.
async fn logged_audit(app: &TestApp, id: &str) -> Value {
    app.eventually(20, || async {
        let audit = app
            .get(&format!("/v1/games/{id}/audit"), None)
            .await
            .ok(200);
        audit.get("log").is_some().then_some(audit)
    })
    .await
}

/// The newest head once it holds at least `size` games.
async fn head_of_at_least(app: &TestApp, size: u64) -> TreeHead {
    app.eventually(20, || async {
        let reply = app.get("/v1/log/head", None).await;
        if reply.status != 200 {
            return None;
        }
        let head: TreeHead = serde_json::from_value(reply.body).unwrap();
        (head.tree_size >= size).then_some(head)
    })
    .await
}

#[actix_web::test]
async fn an_audit_is_signed_and_logged_and_a_changed_byte_is_refused_for_its_signature_first() {
    let app = TestApp::spawn().await;
    let played = play(&app, "hats", 2, json!({}), 31).await;
    let keys = keys(&app).await;
    assert_eq!(keys.keys.len(), 1);
    let audit = logged_audit(&app, &played.id).await;
    let text = serde_json::to_string(&audit).unwrap();

    let report = check::audit_text(&text, Some(&keys)).unwrap();
    assert_eq!(
        report.signed_by.as_deref(),
        Some(keys.keys[0].key_id.as_str())
    );
    assert_eq!(report.logged, Some((0, report.logged.unwrap().1)));
    // Without keys the game still verifies; nothing is said of its origin.
    assert_eq!(check::audit_text(&text, None).unwrap().signed_by, None);

    // One byte of the seed changed: refused for its signature, before the
    // seed commitment (which would also fail) is looked at.
    let mut altered = audit.clone();
    let seed = altered["seed"].as_str().unwrap().to_owned();
    let flipped = if seed.ends_with('0') { "1" } else { "0" };
    altered["seed"] = json!(format!("{}{flipped}", &seed[..seed.len() - 1]));
    let why = check::audit_text(&altered.to_string(), Some(&keys)).unwrap_err();
    assert!(why.starts_with("verification FAILED: signature:"), "{why}");
    assert!(why.contains("altered"), "{why}");
    // A member added after issue, or the signature removed: refused too.
    let mut added = audit.clone();
    added["note"] = json!("mine");
    assert!(
        check::audit_text(&added.to_string(), Some(&keys))
            .unwrap_err()
            .contains("signature")
    );
    let mut unsigned = audit.clone();
    unsigned.as_object_mut().unwrap().remove("signature");
    let why = check::audit_text(&unsigned.to_string(), Some(&keys)).unwrap_err();
    assert!(why.contains("not signed"), "{why}");
    // Keys of another server: refused.
    let other = hatstand::transparency::signing::Signer::from_secret(&[9; 32]);
    let other = KeySet::parse(&other.public_hex()).unwrap();
    let why = check::audit_text(&text, Some(&other)).unwrap_err();
    assert!(why.contains("not among the keys given"), "{why}");

    // The proof on its own endpoint is the one the document carries.
    let proof: InclusionProof = serde_json::from_value(
        app.get(&format!("/v1/games/{}/log-proof", played.id), None)
            .await
            .ok(200),
    )
    .unwrap();
    let carried: InclusionProof = serde_json::from_value(audit["log"].clone()).unwrap();
    assert_eq!(proof.leaf_index, carried.leaf_index);
    let last = audit["events"].as_array().unwrap().last().unwrap()["hash"]
        .as_str()
        .unwrap()
        .to_owned();
    check::inclusion(played.id.parse().unwrap(), &last, &proof, &keys).unwrap();
    // A rewritten last event is not the one logged.
    let why =
        check::inclusion(played.id.parse().unwrap(), &"0".repeat(64), &proof, &keys).unwrap_err();
    assert!(why.contains("rewritten"), "{why}");
}

#[actix_web::test]
async fn exported_lines_are_signed_and_old_keys_stay_published_after_a_rotation() {
    let app = TestApp::spawn().await;
    let played = play(&app, "top-hats", 2, json!({"quiet_turn_limit": 10}), 32).await;
    logged_audit(&app, &played.id).await;
    let mut reply = app
        .request(
            "GET",
            "/v1/me/games/export",
            Some(&played.users[0].token),
            &[],
        )
        .send()
        .await
        .unwrap();
    let body = String::from_utf8(reply.body().limit(16 << 20).await.unwrap().to_vec()).unwrap();
    let before = keys(&app).await;
    let lines = check::documents(&body);
    assert_eq!(lines.len(), 1);
    let report = check::audit_text(lines[0], Some(&before)).unwrap();
    assert!(report.logged.is_some(), "the export carries the log proof");

    let mut conn = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    let new_id = hatstand::transparency::keys::rotate(&mut conn)
        .await
        .unwrap();
    let after = keys(&app).await;
    assert_eq!(after.keys.len(), 2);
    assert_eq!(after.keys[0].key_id, new_id);
    assert!(after.keys[0].retired_at.is_none());
    assert!(
        after.keys[1].retired_at.is_some(),
        "the old key is retired, still published"
    );
    // What the old key signed still checks against the published keys.
    check::audit_text(lines[0], Some(&after)).unwrap();
    // A process started now signs with the new key …
    let pool = hatstand::db::pool(&app.db.url, 1).unwrap();
    let signer = hatstand::transparency::keys::load(&pool).await.unwrap();
    assert_eq!(signer.cached().key_id(), new_id);
    // … and so does the one running, without a restart: its next audit,
    // export line and tree head are signed with the new key.
    let audit = app
        .get(&format!("/v1/games/{}/audit", played.id), None)
        .await
        .ok(200);
    assert_eq!(audit["signature"]["key_id"], new_id.as_str());
    check::audit_text(&audit.to_string(), Some(&after)).unwrap();
    let mut reply = app
        .request(
            "GET",
            "/v1/me/games/export",
            Some(&played.users[0].token),
            &[],
        )
        .send()
        .await
        .unwrap();
    let body = String::from_utf8(reply.body().limit(16 << 20).await.unwrap().to_vec()).unwrap();
    let line: Value = serde_json::from_str(check::documents(&body)[0]).unwrap();
    assert_eq!(line["signature"]["key_id"], new_id.as_str());
    play(&app, "hats", 2, json!({}), 36).await;
    let head = head_of_at_least(&app, 2).await;
    assert_eq!(head.signature.key_id, new_id);
}

#[actix_web::test]
async fn successive_heads_are_consistent_and_a_rewritten_log_is_reported_as_a_fork() {
    let app = TestApp::spawn().await;
    let keys = keys(&app).await;
    assert_eq!(app.get("/v1/log/head", None).await.code(), "not_found");
    play(&app, "hats", 2, json!({}), 33).await;
    let first = head_of_at_least(&app, 1).await;
    assert_eq!(monitor::step(None, &first, None, &keys), Ok(Seen::First(1)));
    play(&app, "hats", 2, json!({}), 34).await;
    play(&app, "hats", 2, json!({}), 35).await;
    let second = head_of_at_least(&app, 3).await;
    let proof: ConsistencyProof = serde_json::from_value(
        app.get(
            &format!(
                "/v1/log/consistency?first={}&second={}",
                first.tree_size, second.tree_size
            ),
            None,
        )
        .await
        .ok(200),
    )
    .unwrap();
    assert_eq!(
        monitor::step(Some(&first), &second, Some(&proof), &keys),
        Ok(Seen::Grew(1, 3))
    );
    assert_eq!(
        monitor::step(Some(&second), &second, None, &keys),
        Ok(Seen::Unchanged(3))
    );
    let heads: Vec<TreeHead> =
        serde_json::from_value(app.get("/v1/log/heads?after=0", None).await.ok(200)).unwrap();
    assert_eq!(heads.last(), Some(&second));
    app.get("/v1/log/consistency?first=3&second=1", None)
        .await
        .assert_problem(400, "bad_request");
    app.get("/v1/log/consistency?first=1&second=99", None)
        .await
        .assert_problem(404, "not_found");
    // Sizes are int64 in the document: one past it is refused, not read.
    for path in [
        "/v1/log/heads?after=9223372036854775808",
        "/v1/log/consistency?first=1&second=9223372036854775808",
    ] {
        app.get(path, None).await.assert_problem(400, "bad_request");
    }

    // The server rewrites its first game's history and builds its log anew.
    app.sql(
        "DELETE FROM log_heads; DELETE FROM log_nodes; DELETE FROM log_leaves;
         UPDATE games SET last_hash = repeat('ab', 32)
          WHERE id = (SELECT id FROM games WHERE finished_at IS NOT NULL ORDER BY finished_at LIMIT 1);
         UPDATE games SET logged_at = NULL;",
    )
    .await;
    let rewritten = head_of_at_least(&app, 3).await;
    assert_eq!(rewritten.tree_size, 3);
    let why = monitor::step(Some(&second), &rewritten, None, &keys).unwrap_err();
    assert!(why.starts_with("FORK"), "{why}");
    // Grown past the fork, it cannot prove it extends the head it signed.
    play(&app, "hats", 2, json!({}), 36).await;
    let grown = head_of_at_least(&app, 4).await;
    let proof: ConsistencyProof = serde_json::from_value(
        app.get(
            &format!("/v1/log/consistency?first=3&second={}", grown.tree_size),
            None,
        )
        .await
        .ok(200),
    )
    .unwrap();
    let why = monitor::step(Some(&second), &grown, Some(&proof), &keys).unwrap_err();
    assert!(why.starts_with("FORK"), "{why}");
    // And the honest proof from the old root, offered as if the server had
    // kept it, does not join the old head to the new one either.
    let forged = ConsistencyProof {
        first: second.clone(),
        ..proof
    };
    let why = monitor::step(Some(&second), &grown, Some(&forged), &keys).unwrap_err();
    assert!(why.starts_with("FORK"), "{why}");
}

#[actix_web::test]
async fn every_game_is_logged_exactly_once_when_games_end_at_once_in_two_processes() {
    let app = TestApp::spawn_with(|s| s.background.log_tick_ms = 20).await;
    let mut second = settings(&app.db.url);
    second.background.log_tick_ms = 20;
    start_server(&app.db.url, &second).await;
    let games = futures_util::future::join_all(
        (0..6u64).map(|seed| play(&app, "hats", 2, json!({}), 40 + seed)),
    )
    .await;
    let head = head_of_at_least(&app, 6).await;
    assert_eq!(head.tree_size, 6);
    assert_eq!(app.count("log_leaves").await, 6);
    assert_eq!(
        app.count("(SELECT DISTINCT game_id FROM log_leaves) d")
            .await,
        6
    );
    assert_eq!(
        app.count("(SELECT DISTINCT idx FROM log_leaves WHERE idx < 6) d")
            .await,
        6
    );
    assert_eq!(
        app.count("games WHERE finished_at IS NOT NULL AND logged_at IS NULL")
            .await,
        0
    );
    let keys = keys(&app).await;
    for game in &games {
        let proof: InclusionProof = serde_json::from_value(
            app.get(
                &format!("/v1/games/{}/log-proof?tree_size=6", game.id),
                None,
            )
            .await
            .ok(200),
        )
        .unwrap();
        assert_eq!(proof.tree_head, head);
        let audit = app
            .get(&format!("/v1/games/{}/audit", game.id), None)
            .await
            .ok(200);
        let last = audit["events"].as_array().unwrap().last().unwrap()["hash"]
            .as_str()
            .unwrap()
            .to_owned();
        check::inclusion(game.id.parse().unwrap(), &last, &proof, &keys).unwrap();
    }
}

/// The signed records of the corpus (`tests/records/signed/`, written by
/// `scripts/records.py --signed`) verify with the keys published beside
/// them: signature, replay and log proof; one changed byte anywhere in a
/// record is refused for its signature first.
#[test]
fn every_signed_record_verifies_with_its_keys_and_its_log_proof() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/records/signed");
    let keys = KeySet::parse(&std::fs::read_to_string(dir.join("keys.json")).unwrap()).unwrap();
    let mut records: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && !p.ends_with("keys.json"))
        .collect();
    records.sort();
    assert!(records.len() >= 20, "a record of every ruleset and ending");
    for path in &records {
        let text = std::fs::read_to_string(path).unwrap();
        let report = check::audit_text(&text, Some(&keys))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            report.signed_by.is_some() && report.logged.is_some(),
            "{}",
            path.display()
        );
        // A byte of the seed changed (the seed is hex: still a string).
        let at = text.find("\"seed\": \"").unwrap() + 9;
        let mut altered = text.clone().into_bytes();
        altered[at] = if altered[at] == b'a' { b'b' } else { b'a' };
        let why =
            check::audit_text(std::str::from_utf8(&altered).unwrap(), Some(&keys)).unwrap_err();
        assert!(why.starts_with("verification FAILED: signature"), "{why}");
    }
}

fn hatstand(args: &[&str]) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hatstand"))
        .args(args)
        .env("RUST_LOG", "off")
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// `hatstand verify --key` on the signed corpus and a changed copy, and
/// `hatstand log monitor` against a server, run as their users run them.
#[actix_web::test]
async fn the_commands_verify_signatures_and_monitor_the_log_until_it_forks() {
    let dir = tempdir();
    let records = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/records/signed");
    let keys = format!("{records}/keys.json");
    let (ok, text) = hatstand(&["verify", "--key", &keys, &format!("{records}/hats-2p.json")]);
    assert!(ok, "{text}");
    assert!(
        text.contains("signature: valid") && text.contains("log: the game is leaf"),
        "{text}"
    );
    let original = std::fs::read_to_string(format!("{records}/hats-2p.json")).unwrap();
    let altered = dir.join("altered.json");
    std::fs::write(
        &altered,
        original.replacen("\"status\": \"finished\"", "\"status\": \"abandoned\"", 1),
    )
    .unwrap();
    let (ok, text) = hatstand(&["verify", "--key", &keys, altered.to_str().unwrap()]);
    assert!(!ok && text.contains("FAILED: signature"), "{text}");

    let app = TestApp::spawn().await;
    play(&app, "hats", 2, json!({}), 51).await;
    head_of_at_least(&app, 1).await;
    let state = dir.join("head.json");
    let monitor = || {
        hatstand(&[
            "log",
            "monitor",
            "--server",
            &app.base,
            "--state",
            state.to_str().unwrap(),
        ])
    };
    let (ok, text) = monitor();
    assert!(ok && text.contains("first head seen: 1 games"), "{text}");
    play(&app, "hats", 2, json!({}), 52).await;
    head_of_at_least(&app, 2).await;
    let (ok, text) = monitor();
    assert!(
        ok && text.contains("consistent: the log grew from 1 to 2"),
        "{text}"
    );
    // The log rebuilt with the first game rewritten: the monitor says so.
    app.sql(
        "DELETE FROM log_heads; DELETE FROM log_nodes; DELETE FROM log_leaves;
         UPDATE games SET last_hash = repeat('cd', 32)
          WHERE id = (SELECT id FROM games WHERE finished_at IS NOT NULL ORDER BY finished_at LIMIT 1);
         UPDATE games SET logged_at = NULL;",
    )
    .await;
    head_of_at_least(&app, 2).await;
    let (ok, text) = monitor();
    assert!(!ok && text.contains("FORK"), "{text}");
}

fn tempdir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("hatstand-records-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
