//! Rules versions: every game is pinned to the rules it was created under,
//! its record says which, and records of every kind (the corpus in
//! `tests/records/`) keep verifying with this build.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::play::{play_out, verified_audit};
use crate::support::{TestApp, User};

/// Creates a two-player Top Hats game under `rules_version` (the newest when
/// `None`) and seats both users.
async fn top_hats_game(app: &TestApp, users: &[User], rules_version: Option<u16>) -> String {
    let mut body = json!({"ruleset": "top-hats", "players": 2});
    if let Some(version) = rules_version {
        body["rules_version"] = json!(version);
    }
    let game = app.created_game(&users[0], &body).await;
    let id = game["id"].as_str().unwrap().to_owned();
    app.joined(&id, &users[1]).await;
    id
}

#[actix_web::test]
async fn a_game_keeps_its_rules_version_to_the_end_and_both_versions_verify() {
    let app = TestApp::spawn().await;
    let top_hats = app.ruleset("top-hats").await;
    assert_eq!(top_hats["rules"], "top-hats@2");
    let versions: Vec<&str> = top_hats["rules_versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_str().unwrap())
        .collect();
    assert_eq!(versions, ["top-hats@2", "top-hats@1"], "newest first");

    let users = app.users(2).await;
    // Given a game created under the old rule and one under the new …
    let old = top_hats_game(&app, &users, Some(1)).await;
    let new = top_hats_game(&app, &users, None).await;
    for (id, rules, limit) in [(&old, "top-hats@1", 60), (&new, "top-hats@2", 100)] {
        let game = app.game(id, None).await;
        assert_eq!(game["rules"], rules);
        assert_eq!(game["options"]["quiet_turn_limit"], limit);
    }
    // … when both are played to the end, each plays its own rule and its
    // record says which.
    for (id, rules, limit, seed) in [(old, "top-hats@1", 60, 7), (new, "top-hats@2", 100, 8)] {
        let played = play_out(&app, id, users.clone(), seed).await;
        assert_eq!(played.game["rules"], rules);
        let audit = verified_audit(&app, &played.id).await;
        assert_eq!(audit["rules"], rules);
        assert_eq!(audit["events"][0]["data"]["rules"], rules);
        assert_eq!(
            audit["events"][0]["data"]["options"]["quiet_turn_limit"],
            limit
        );
    }
}

#[actix_web::test]
async fn an_unknown_rules_version_is_refused_and_nothing_is_written() {
    let app = TestApp::spawn().await;
    let users = app.users(1).await;
    let before = app.footprint().await;
    for (ruleset, version) in [("hats", 3), ("top-hats", 3), ("goathead", 0)] {
        app.post(
            "/v1/games",
            Some(&users[0].token),
            &json!({"ruleset": ruleset, "players": 3, "rules_version": version}),
        )
        .await
        .assert_problem(422, "unknown_rules_version");
    }
    app.post(
        "/v1/games",
        Some(&users[0].token),
        &json!({"ruleset": "hats", "players": 2, "rules_version": "one"}),
    )
    .await
    .assert_problem(400, "bad_request");
    assert_eq!(app.footprint().await, before);
}

#[actix_web::test]
async fn an_audit_under_rules_this_build_does_not_know_is_refused_not_called_tampered() {
    let mut doc: hatstand::record::verify::AuditDocument = serde_json::from_str(
        &std::fs::read_to_string(records().join("legacy/hats-2p.json")).unwrap(),
    )
    .unwrap();
    // As a later build would write it: version 99, with an intact chain.
    doc.rules = Some("hats@99".into());
    doc.events[0].data["rules"] = json!("hats@99");
    let mut prev = hatstand::record::chain::GENESIS_HASH.to_owned();
    for event in &mut doc.events {
        event.prev_hash.clone_from(&prev);
        event.hash = hatstand::record::chain::LoggedEvent::from(&*event).expected_hash();
        prev.clone_from(&event.hash);
    }
    match hatstand::record::verify::verify(&doc) {
        Err(hatstand::record::verify::Rejection::UnknownRules(why)) => {
            assert!(why.contains("hats@99"), "{why}");
        }
        other => panic!("expected an unknown-rules refusal, got {other:?}"),
    }
}

fn records() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/records")
}

fn audits_in(dir: &Path) -> Vec<(String, hatstand::record::verify::AuditDocument)> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, serde_json::from_str(&text).unwrap())
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Every record of the corpus, and every record written before rules
/// versions existed (`legacy/`, read as version 1), verifies with this build:
/// the same chain, shuffles, events, final state and result. A change to an
/// engine that alters what a recorded game meant fails here, unless it comes
/// as a new rules version (`scripts/records.py` regenerates the corpus and
/// names the records that changed).
#[test]
fn every_recorded_game_still_means_what_it_meant() {
    let current = audits_in(&records());
    let legacy = audits_in(&records().join("legacy"));
    assert!(!legacy.is_empty());
    for (name, doc) in current.iter().chain(&legacy) {
        let verified = hatstand::record::verify::verify(doc)
            .unwrap_or_else(|e| panic!("{name} no longer verifies: {e}"));
        assert_eq!(
            Some(&verified.rules),
            doc.rules.as_ref().or(Some(&format!("{}@1", doc.ruleset))),
            "{name}"
        );
    }
    for (name, doc) in &legacy {
        assert!(
            doc.rules.is_none(),
            "{name} is not a record from before rules versions"
        );
    }
    // The corpus covers every ruleset at every player count, both Top Hats
    // versions, a timeout, a resignation and an abandoned game.
    let covered: std::collections::BTreeSet<(String, usize)> = current
        .iter()
        .filter(|(_, d)| d.status == "finished")
        .map(|(_, d)| (d.ruleset.clone(), players(d)))
        .collect();
    for kind in hatstand_engine::GameKind::ALL {
        let (low, high) = hatstand_engine::with_ruleset!(*kind, |R| {
            (
                <R as hatstand_engine::Ruleset>::MIN_PLAYERS,
                <R as hatstand_engine::Ruleset>::MAX_PLAYERS,
            )
        });
        for n in low..=high {
            assert!(
                covered.contains(&(kind.id().to_owned(), n)),
                "no record of {} for {n}",
                kind.id()
            );
        }
    }
    let rules: Vec<&str> = current
        .iter()
        .filter_map(|(_, d)| d.rules.as_deref())
        .collect();
    assert!(rules.contains(&"top-hats@1") && rules.contains(&"top-hats@2"));
    let kinds: Vec<&str> = current
        .iter()
        .flat_map(|(_, d)| d.events.iter().map(|e| e.kind.as_str()))
        .collect();
    for kind in ["turn_timed_out", "player_resigned", "game_cancelled"] {
        assert!(kinds.contains(&kind), "no record with {kind}");
    }
}

fn players(doc: &hatstand::record::verify::AuditDocument) -> usize {
    let created: &Value = &doc.events[0].data;
    usize::try_from(created["players"].as_u64().unwrap()).unwrap()
}
