//! Players contribute to the shuffle: each seat's salt, sent by its client
//! or made by the server, is public from the moment it sits, and the deals
//! are drawn from the deal seed of the server's committed seed and every
//! salt (docs/audits.md). Whole games of every card ruleset verify offline
//! from the revealed seed and the salts; a seed changed once the salts are
//! in is caught; bad salts write nothing; games written before salts play
//! on under their old rules.

use hatstand::record::verify::{AuditDocument, Rejection, verify};
use hatstand_engine::random::{deal_seed, parse_salt};
use hatstand_engine::{GameKind, Randomness, Ruleset, with_ruleset};
use serde_json::{Value, json};

use crate::play::{play_out, verified_audit};
use crate::support::{TestApp, TestDb, User};
use crate::upgrade::{login, rows_as_written_before};

/// A salt as a client makes it: 32 random bytes, as 64 lowercase hex digits.
fn client_salt() -> String {
    let bytes: [u8; 32] = rand::random();
    hex::encode(bytes)
}

/// The `player_joined` events of an audit, in seat order.
fn joins(audit: &Value) -> Vec<Value> {
    let mut joined: Vec<Value> = audit["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "player_joined")
        .map(|e| e["data"].clone())
        .collect();
    joined.sort_by_key(|d| d["seat"].as_u64());
    joined
}

/// The engine's events of the opening deal of `doc` (those right after
/// `game_started`), as recorded.
fn recorded_opening(doc: &AuditDocument) -> Vec<(String, Value)> {
    let start = doc
        .events
        .iter()
        .position(|e| e.kind == "game_started")
        .unwrap();
    doc.events[start + 1..]
        .iter()
        .take_while(|e| e.command.is_none() && !e.kind.starts_with("game_"))
        .map(|e| (e.kind.clone(), e.data.clone()))
        .collect()
}

/// The opening deal the engine makes from `randomness` for `doc`'s game.
fn opening_from(doc: &AuditDocument, randomness: &Randomness) -> Vec<(String, Value)> {
    let created = &doc.events[0].data;
    let players = usize::try_from(created["players"].as_u64().unwrap()).unwrap();
    let kind = GameKind::from_id(&doc.ruleset).unwrap();
    with_ruleset!(kind, |R| {
        let options: <R as Ruleset>::Options =
            serde_json::from_value(created["options"].clone()).unwrap();
        let state = R::new_game(players, options).unwrap();
        R::start(&state, randomness)
            .iter()
            .map(|e| {
                hatstand::record::codec::split_tagged(serde_json::to_value(e).unwrap()).unwrap()
            })
            .collect()
    })
}

/// Given a game of `ruleset` whose creator sends a salt, whose second seat
/// sends its own and whose other seats ask the server for one, when it is
/// played to the end, then every salt was public from the join on, the
/// audit verifies offline, and its deals are the deal seed's, not the
/// server's seed's alone.
async fn salted_game(app: &TestApp, ruleset: &str, players: usize, options: Value, seed: u64) {
    let mut users: Vec<User> = Vec::new();
    for i in 0..players {
        users.push(app.register(&format!("salt-{ruleset}-{i}")).await);
    }
    let mine = [client_salt(), client_salt()];
    let created = app
        .created_game(
            &users[0],
            &json!({"ruleset": ruleset, "players": players, "options": options, "salt": mine[0]}),
        )
        .await;
    assert_eq!(created["salted"], true, "{created}");
    assert_eq!(created["rules"], format!("{ruleset}@2"));
    assert_eq!(
        created["seats"][0]["salt"], mine[0],
        "public from the start"
    );
    let commitment = created["seed_commitment"].as_str().unwrap().to_owned();
    let id = created["id"].as_str().unwrap().to_owned();
    let joined = app
        .post(
            &format!("/v1/games/{id}/join"),
            Some(&users[1].token),
            &json!({"salt": mine[1]}),
        )
        .await
        .ok(200);
    assert_eq!(joined["seats"][1]["salt"], mine[1]);
    for user in &users[2..] {
        let game = app.joined(&id, user).await;
        let made = game["seats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["user_id"] == user.id.to_string())
            .unwrap()["salt"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(parse_salt(&made).is_some(), "the server made one: {made}");
    }
    // Anyone may see the salts while the game is played; the seed stays secret.
    let watched = app.game(&id, None).await;
    assert_eq!(watched["status"], "active");
    assert_eq!(watched["seats"][1]["salt"], mine[1]);
    assert!(watched["options"].get("seed").is_none());
    let events = app
        .get(&format!("/v1/games/{id}/events"), None)
        .await
        .ok(200);
    let text = events.to_string();
    assert!(text.contains(&mine[0]) && text.contains(&mine[1]), "{text}");

    play_out(app, id.clone(), users, seed).await;
    let audit = verified_audit(app, &id).await;
    assert_eq!(
        audit["seed_commitment"], commitment,
        "the seed seen before the salts"
    );
    let joined = joins(&audit);
    assert_eq!(joined.len(), players);
    assert_eq!(joined[0]["salt"], mine[0]);
    assert_eq!(joined[1]["salt"], mine[1]);
    assert!(joined[0].get("salt_by_server").is_none());
    assert!(joined[1].get("salt_by_server").is_none());
    for made in &joined[2..] {
        assert_eq!(made["salt_by_server"], true, "{made}");
    }

    // Offline: the document alone, through the verifier …
    let doc: AuditDocument = serde_json::from_value(audit.clone()).unwrap();
    let verified = verify(&doc).unwrap();
    assert_eq!(verified.rules, format!("{ruleset}@2"));
    let told = verified.salted.expect("a salted game");
    assert_eq!((told.salts, told.by_server), (players, players - 2));
    // … whose deal is the deal seed's, recomputed here from the revealed
    // seed and the salts in seat order, and not the seed's alone.
    let salts: Vec<[u8; 32]> = joined
        .iter()
        .map(|d| parse_salt(d["salt"].as_str().unwrap()).unwrap())
        .collect();
    assert_eq!(told.deal_seed, deal_seed(&doc.seed, &salts));
    let dealt = Randomness::from_seed(&deal_seed(&doc.seed, &salts));
    let recorded = recorded_opening(&doc);
    assert!(!recorded.is_empty());
    assert_eq!(opening_from(&doc, &dealt), recorded);
    assert_ne!(
        opening_from(&doc, &Randomness::from_seed(&doc.seed)),
        recorded
    );

    // One salt changed in its join event (and the chain mended around it):
    // the deal no longer follows.
    let mut forged = doc.clone();
    let at = forged
        .events
        .iter()
        .position(|e| e.kind == "player_joined" && e.data["seat"] == 1)
        .unwrap();
    forged.events[at].data["salt"] = json!(client_salt());
    rehash(&mut forged);
    let why = verify(&forged).unwrap_err().to_string();
    assert!(why.contains("opening deal"), "{why}");
}

/// Recomputes every hash of the chain, as a server rewriting history would.
fn rehash(doc: &mut AuditDocument) {
    let mut prev = hatstand::record::chain::GENESIS_HASH.to_owned();
    for event in &mut doc.events {
        event.prev_hash.clone_from(&prev);
        event.hash = hatstand::record::chain::LoggedEvent::from(&*event).expected_hash();
        prev.clone_from(&event.hash);
    }
    doc.signature = None;
    doc.log = None;
}

#[actix_web::test]
async fn whole_games_of_every_card_ruleset_with_two_clients_salts_verify_offline() {
    let app = TestApp::spawn().await;
    salted_game(&app, "hats", 2, json!({}), 11).await;
    // Two rounds: each round's deal comes from the one deal seed.
    salted_game(&app, "goathead", 3, json!({"rounds": 2}), 12).await;
    salted_game(&app, "hat-trick", 3, json!({"rounds": 2}), 13).await;
}

#[actix_web::test]
async fn a_server_that_changes_its_seed_after_the_salts_are_in_is_caught() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let created = app
        .created_game(
            &users[0],
            &json!({"ruleset": "hats", "players": 2, "salt": client_salt()}),
        )
        .await;
    let seen = created["seed_commitment"].as_str().unwrap().to_owned();
    let id = created["id"].as_str().unwrap().to_owned();
    app.post(
        &format!("/v1/games/{id}/join"),
        Some(&users[1].token),
        &json!({"salt": client_salt()}),
    )
    .await
    .ok(200);
    play_out(&app, id.clone(), users, 5).await;
    let audit = verified_audit(&app, &id).await;
    let doc: AuditDocument = serde_json::from_value(audit).unwrap();

    // Given the salts, a server that would steer the deal needs another
    // seed. Revealing one against the commitment of event 1 fails …
    let mut other = doc.clone();
    other.seed = "a seed picked once the salts were known".into();
    other.seed_commitment = hatstand_engine::random::seed_commitment(&other.seed);
    let why = verify(&other).unwrap_err().to_string();
    assert!(why.contains("commitment"), "{why}");
    other.seed_commitment.clone_from(&doc.seed_commitment);
    let why = verify(&other).unwrap_err().to_string();
    assert!(why.contains("seed does not match"), "{why}");

    // … and rewriting event 1's commitment to fit (the chain rehashed)
    // makes a document whose deal is not the one played, and whose
    // commitment is not the one the players saw before they salted.
    let mut rewritten = doc.clone();
    rewritten.seed = other.seed.clone();
    rewritten.seed_commitment = hatstand_engine::random::seed_commitment(&rewritten.seed);
    rewritten.events[0].data["seed_commitment"] = json!(rewritten.seed_commitment);
    rehash(&mut rewritten);
    assert_ne!(rewritten.seed_commitment, seen);
    match verify(&rewritten) {
        Err(Rejection::Failed(why)) => assert!(why.contains("opening deal"), "{why}"),
        other => panic!("a rewritten seed verified: {other:?}"),
    }
}

#[actix_web::test]
async fn bad_salts_are_refused_with_bad_salt_and_nothing_is_written() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let open = app
        .created_game(&users[0], &json!({"ruleset": "hats", "players": 2}))
        .await;
    assert_eq!(open["salted"], true);
    let made = open["seats"][0]["salt"].as_str().unwrap();
    assert!(
        parse_salt(made).is_some(),
        "the creator sent none: one was made"
    );
    let open = open["id"].as_str().unwrap().to_owned();
    let public = app
        .created_game(
            &users[0],
            &json!({"ruleset": "hats", "players": 2, "options": {"seed": "everyone knows"}}),
        )
        .await;
    assert_eq!(public["salted"], false);
    assert!(public["seats"][0].get("salt").is_none());
    let old = app
        .created_game(
            &users[0],
            &json!({"ruleset": "hats", "players": 2, "rules_version": 1}),
        )
        .await;
    assert_eq!(old["salted"], false);
    let before = app.footprint().await;
    let good = client_salt();
    let bad = [
        json!("abc"),
        json!("0f".repeat(31)),
        json!("0f".repeat(33)),
        json!("0F".repeat(32)),
        json!(format!("{}zz", "0f".repeat(31))),
        json!(format!("{}=", &good[..63])),
        json!(""),
    ];
    for salt in &bad {
        app.post(
            "/v1/games",
            Some(&users[1].token),
            &json!({"ruleset": "hats", "players": 2, "salt": salt}),
        )
        .await
        .assert_problem(422, "bad_salt");
        app.post(
            &format!("/v1/games/{open}/join"),
            Some(&users[1].token),
            &json!({"salt": salt}),
        )
        .await
        .assert_problem(422, "bad_salt");
    }
    // A salt that is not a string is a malformed body.
    app.post(
        &format!("/v1/games/{open}/join"),
        Some(&users[1].token),
        &json!({"salt": 7}),
    )
    .await
    .assert_problem(400, "bad_request");
    // A good salt where none is taken.
    for game in [&public, &old] {
        app.post(
            &format!("/v1/games/{}/join", game["id"].as_str().unwrap()),
            Some(&users[1].token),
            &json!({"salt": good}),
        )
        .await
        .assert_problem(422, "bad_salt");
    }
    for body in [
        json!({"ruleset": "hats", "players": 2, "join": false, "salt": good}),
        json!({"ruleset": "hats", "players": 2, "salt": good, "options": {"seed": "s"}}),
        json!({"ruleset": "hats", "players": 2, "salt": good, "rules_version": 1}),
    ] {
        app.post("/v1/games", Some(&users[1].token), &body)
            .await
            .assert_problem(422, "bad_salt");
    }
    assert_eq!(app.footprint().await, before, "nothing written");
    assert_eq!(
        app.game(&open, None).await["seats"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[actix_web::test]
async fn bots_seats_get_salts_the_server_makes() {
    let app = TestApp::spawn().await;
    let users = app.users(1).await;
    let mine = client_salt();
    let game = app
        .created_game(
            &users[0],
            &json!({"ruleset": "hats", "players": 2, "bots": ["random"], "salt": mine}),
        )
        .await;
    assert_eq!(game["status"], "active");
    assert_eq!(game["seats"][0]["salt"], mine);
    let bot = game["seats"][1]["salt"].as_str().unwrap();
    assert!(parse_salt(bot).is_some());
    let events = app
        .get(
            &format!("/v1/games/{}/events", game["id"].as_str().unwrap()),
            None,
        )
        .await
        .ok(200);
    let joined: Vec<&Value> = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "player_joined")
        .collect();
    assert_eq!(joined.len(), 2, "{events}");
    assert!(joined[0]["data"].get("salt_by_server").is_none());
    assert_eq!(joined[1]["data"]["salt_by_server"], true);
}

#[actix_web::test]
async fn games_in_progress_written_before_salts_play_on_under_their_old_rules() {
    // Given a database of the release before salts, with a Hats game and a
    // Hat Trick game in progress as that release wrote them (under hats@1
    // and hat-trick@1, the newest rules it had) …
    let db = TestDb::before("2026-12-08-000300_seat_salts").await;
    let docs: Vec<AuditDocument> = ["hats-2p.json", "hat-trick-2p.json"]
        .iter()
        .map(|name| {
            let path = format!("{}/tests/records/{name}", env!("CARGO_MANIFEST_DIR"));
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
        })
        .collect();
    let mut sql = String::new();
    let mut upto = Vec::new();
    for doc in &docs {
        // Cut before a command a few from the end: a game between two moves.
        let n = (0..doc.events.len() - 2)
            .rev()
            .find(|&i| doc.events[i].command.is_some())
            .unwrap();
        // As that release wrote them: with their rules version, and seats
        // without salts.
        sql += &rows_as_written_before(doc, n)
            .replace(
                "private, invite_code) VALUES",
                "private, invite_code, rules_version) VALUES",
            )
            .replace("NULL, false, NULL);\n", "NULL, false, NULL, 1);\n");
        upto.push(n);
    }
    {
        use diesel_async::SimpleAsyncConnection;
        let mut conn = hatstand::db::locate::connect(&db.url).await.unwrap();
        conn.batch_execute(&sql).await.unwrap();
    }
    // … when this release starts on it …
    let app = TestApp::spawn_on(db, |_| {}).await;
    for (doc, upto) in docs.iter().zip(upto) {
        let id = doc.game_id.to_string();
        let before = app.game(&id, None).await;
        let old_rules = format!("{}@1", doc.ruleset);
        assert_eq!(before["status"], "active");
        assert_eq!(before["version"], upto);
        assert_eq!(before["rules"], old_rules);
        assert_eq!(before["salted"], false);
        // … each plays on to the end under its old rules, with its single
        // seed, and its record verifies without a salt.
        let users = vec![login(&app, doc, 0).await, login(&app, doc, 1).await];
        play_out(&app, id.clone(), users, 4).await;
        let audit = verified_audit(&app, &id).await;
        assert_eq!(audit["rules"], old_rules);
        assert!(joins(&audit).iter().all(|d| d.get("salt").is_none()));
    }
    // A game created now takes salts.
    let users = app.users(1).await;
    let new = app
        .created_game(&users[0], &json!({"ruleset": "hats", "players": 2}))
        .await;
    assert_eq!(new["rules"], "hats@2");
    assert_eq!(new["salted"], true);
}

/// The salted records of the corpus (`tests/records/salted/`, written by
/// `scripts/records.py --salted`): every card ruleset under its salted
/// rules, secret seed revealed, salts from two clients and the server; each
/// verifies offline with the keys beside it (signature, replay from the deal
/// seed, log proof), and a changed salt is refused for its signature first.
#[test]
fn every_salted_record_verifies_with_its_keys_salts_and_log_proof() {
    use hatstand::transparency::check;
    use hatstand::transparency::signing::KeySet;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/records/salted");
    let keys = KeySet::parse(&std::fs::read_to_string(dir.join("keys.json")).unwrap()).unwrap();
    let mut records: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && !p.ends_with("keys.json"))
        .collect();
    records.sort();
    let mut rulesets = std::collections::BTreeSet::new();
    for path in &records {
        let text = std::fs::read_to_string(path).unwrap();
        let report = check::audit_text(&text, Some(&keys))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(report.signed_by.is_some() && report.logged.is_some());
        let audit: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            audit["rules"],
            format!("{}@2", audit["ruleset"].as_str().unwrap())
        );
        assert!(
            audit["events"][0]["data"].get("seed").is_none(),
            "a secret seed"
        );
        let joined = joins(&audit);
        assert!(joined.iter().all(|d| d["salt"].is_string()));
        assert!(
            joined[0].get("salt_by_server").is_none(),
            "the creator's own"
        );
        assert!(
            joined[1].get("salt_by_server").is_none(),
            "the second client's own"
        );
        let doc: AuditDocument = serde_json::from_value(audit.clone()).unwrap();
        assert_ne!(
            opening_from(&doc, &Randomness::from_seed(&doc.seed)),
            recorded_opening(&doc),
            "{}: dealt from the salts",
            path.display()
        );
        rulesets.insert(audit["ruleset"].as_str().unwrap().to_owned());
        // One salt changed: the signature refuses it first.
        let salt = joined[1]["salt"].as_str().unwrap();
        let other = format!(
            "{}{}",
            &salt[..63],
            if salt.ends_with('0') { '1' } else { '0' }
        );
        let why = check::audit_text(&text.replacen(salt, &other, 1), Some(&keys)).unwrap_err();
        assert!(why.starts_with("verification FAILED: signature"), "{why}");
    }
    let expected: std::collections::BTreeSet<String> =
        ["hats", "goathead", "hat-trick"].map(String::from).into();
    assert_eq!(rulesets, expected);
}

/// `hatstand verify`, run as its users run it, names the deal seed it
/// recomputed from a salted record's revealed seed and salts.
#[test]
fn hatstand_verify_names_the_deal_seed_of_a_salted_record() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/records/salted");
    let record = format!("{dir}/hat-trick-3p.json");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hatstand"))
        .args(["verify", "--key", &format!("{dir}/keys.json"), &record])
        .env("RUST_LOG", "off")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}");
    let audit: Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let salts: Vec<[u8; 32]> = joins(&audit)
        .iter()
        .map(|d| parse_salt(d["salt"].as_str().unwrap()).unwrap())
        .collect();
    let expected = deal_seed(audit["seed"].as_str().unwrap(), &salts);
    assert!(
        text.contains("3 seats' salts (1 made by the server)") && text.contains(&expected),
        "{text}"
    );
}
