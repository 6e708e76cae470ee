//! A tournament's audit (docs/tournaments.md): published once it is over,
//! checked offline by `hatstand verify`, which recomputes every pairing,
//! deal, score and standing and refuses a forged one even when its chain
//! was forged to match.

use serde_json::Value;

use hatstand::record::chain::LoggedEvent;
use hatstand::record::verify::AuditEvent;
use hatstand::tournaments::verify::{TournamentAudit, verify};

use crate::support::TestApp;

/// The audit of tournament `id`.
pub async fn audit(app: &TestApp, id: &str) -> TournamentAudit {
    let body = app
        .get(&format!("/v1/tournaments/{id}/audit"), None)
        .await
        .ok(200);
    serde_json::from_value(body).unwrap()
}

/// Runs `hatstand verify` on `doc` written to a file: (success, what it said).
pub async fn verify_offline(doc: &TournamentAudit) -> (bool, String) {
    verify_file(&serde_json::to_string_pretty(doc).unwrap()).await
}

/// Runs `hatstand verify` on a file holding `text`: (success, stdout then stderr).
async fn verify_file(text: &str) -> (bool, String) {
    let file =
        std::env::temp_dir().join(format!("hatstand-tournament-{}.json", uuid::Uuid::new_v4()));
    std::fs::write(&file, text).unwrap();
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_hatstand"))
        .arg("verify")
        .arg(&file)
        .env("RUST_LOG", "off")
        .output()
        .await
        .unwrap();
    let _ = std::fs::remove_file(&file);
    let mut said = String::from_utf8_lossy(&out.stdout).into_owned();
    said.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.success(), said)
}

/// `doc` with the record's event `seq` changed by `change`, and the chain
/// from there hashed again, as a forger with the whole document would.
fn forged(doc: &TournamentAudit, kind: &str, change: impl Fn(&mut Value)) -> TournamentAudit {
    let mut doc = doc.clone();
    let at = doc.events.iter().position(|e| e.kind == kind).unwrap();
    change(&mut doc.events[at].data);
    let mut prev = doc.events[at].prev_hash.clone();
    for event in &mut doc.events[at..] {
        event.prev_hash.clone_from(&prev);
        event.hash = LoggedEvent::from(&*event).expected_hash();
        prev.clone_from(&event.hash);
    }
    // The chain holds again.
    let logged: Vec<LoggedEvent> = doc.events.iter().map(LoggedEvent::from).collect();
    hatstand::record::verify::check_chain(&logged).unwrap();
    doc
}

fn refused(doc: &TournamentAudit, why: &str) {
    let said = verify(doc).unwrap_err();
    assert!(said.contains(why), "expected {why:?}, got {said:?}");
}

/// The finished tournament `id` of `entrants` over `rounds` rounds of
/// `tables` tables in all verifies offline, and every kind of forgery of
/// its document is refused, saying where.
pub async fn verified_offline(
    app: &TestApp,
    id: &str,
    entrants: usize,
    rounds: usize,
    tables: usize,
) {
    let doc = audit(app, id).await;
    assert_eq!(doc.format, "hatstand-tournament-audit/1");
    assert_eq!(doc.games.len(), tables);
    let checked = verify(&doc).unwrap();
    assert_eq!(
        (checked.entrants, checked.rounds, checked.tables),
        (entrants, rounds, tables)
    );
    let (ok, said) = verify_offline(&doc).await;
    assert!(ok, "{said}");
    assert!(
        said.contains(&format!("{tables} tables' audits verified")),
        "{said}"
    );

    // A document that says it is a tournament's audit and is not one.
    let (ok, said) = verify_file(r#"{"format": "hatstand-tournament-audit/1"}"#).await;
    assert!(
        !ok && said.contains("not a tournament audit document"),
        "{said}"
    );

    // An altered event breaks the chain.
    let mut altered = doc.clone();
    let scored = altered
        .events
        .iter()
        .position(|e| e.kind == "table_finished")
        .unwrap();
    altered.events[scored].data["points"][0] = serde_json::json!(999_999);
    refused(&altered, "hash mismatch");
    let (ok, said) = verify_offline(&altered).await;
    assert!(!ok && said.contains("verification FAILED"), "{said}");

    // Another seed does not open the commitment.
    let mut reseeded = doc.clone();
    reseeded.seed = "0".repeat(64);
    refused(&reseeded, "seed does not match");

    // Forgeries whose chain was hashed again: each step is recomputed.
    refused(
        &forged(&doc, "table_finished", |data| {
            let points = data["points"].as_array_mut().unwrap();
            points.swap(0, 1);
            if points[0] == points[1] {
                points[0] = serde_json::json!(points[0].as_i64().unwrap() + 1);
            }
        }),
        "points recorded are not the results'",
    );
    refused(
        &forged(&doc, "round_paired", |data| {
            let tables = data["tables"].as_array_mut().unwrap();
            let (a, b) = (tables[0][0].clone(), tables[1][0].clone());
            tables[0][0] = b;
            tables[1][0] = a;
        }),
        "the pairing is not the one the rules give",
    );
    refused(
        &forged(&doc, "started", |data| {
            data["entrants"].as_array_mut().unwrap().swap(0, 1);
            data["ratings"].as_array_mut().unwrap().swap(0, 1);
        }),
        "not seeded by rating",
    );
    refused(
        &forged(&doc, "round_scored", |data| {
            data["standings"].as_array_mut().unwrap().swap(0, 1);
        }),
        "standings are not those of the points",
    );
    refused(
        &forged(&doc, "table_finished", |data| {
            data["result"] = Value::Null;
        }),
        "the result recorded is not the game's",
    );

    // The tables' games: swapped, missing, or not the round's deals.
    let mut swapped = doc.clone();
    let (a, b) = (
        swapped.games[0].audit.clone(),
        swapped.games[1].audit.clone(),
    );
    swapped.games[0].audit = b;
    swapped.games[1].audit = a;
    refused(&swapped, "the audit is of another game");
    let mut missing = doc.clone();
    missing.games.pop();
    refused(&missing, "its game's audit is missing");
    let mut extra = doc.clone();
    extra.games.push(extra.games[0].clone());
    extra.games.last_mut().unwrap().round = 99;
    refused(&extra, "games that are no table");
    let mut redealt = doc.clone();
    let game = &mut redealt.games[0].audit;
    let created: &mut AuditEvent = &mut game.events[0];
    created.data["options"]["deals"] = serde_json::json!([]);
    refused(&redealt, "round 1 table 1: game");
}
