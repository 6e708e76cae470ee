//! `hatstand verify --key` and `hatstand log monitor`: the records' checks
//! (the library's `transparency`) on files and over HTTP.

use std::path::PathBuf;

use hatstand::tournaments::verify::{self, TournamentAudit};
use hatstand::transparency::check::{self, Report};
use hatstand::transparency::log::{ConsistencyProof, TreeHead};
use hatstand::transparency::monitor::{self, Seen};
use hatstand::transparency::signing::KeySet;

/// Keys given on the command line: a file (a key set or a hex key) or the
/// hex key itself.
pub fn read_keys(given: &str) -> Result<KeySet, String> {
    let text = match std::fs::read_to_string(given) {
        Ok(text) => text,
        Err(_) if given.len() == 64 => given.to_owned(),
        Err(e) => return Err(format!("cannot read the keys {given}: {e}")),
    };
    KeySet::parse(&text)
}

/// Verifies one document (a game's audit, or a tournament's) and says what
/// was established.
pub fn verify_text(text: &str, keys: Option<&KeySet>) -> Result<(), String> {
    if let Some(tournament) = tournament_document(text)? {
        return verify_tournament(&tournament);
    }
    let Report {
        verified,
        game_id,
        signed_by,
        logged,
        has_log_proof,
    } = check::audit_text(text, keys)?;
    println!(
        "verified: {} game {game_id} under {}, {} events, {} commands replayed; chain, seed commitment, shuffles, final state and result all match",
        verified.ruleset, verified.rules, verified.events, verified.commands
    );
    if let Some(salted) = &verified.salted {
        println!(
            "  salts: {} seats' salts ({} made by the server) and the revealed seed give the deal seed {}, from which every shuffle was replayed",
            salted.salts, salted.by_server, salted.deal_seed
        );
    }
    match signed_by {
        Some(key) => println!("  signature: valid, by key {key}"),
        None => println!("  signature: not checked (give --key to check it)"),
    }
    match (logged, has_log_proof) {
        (Some((index, size)), _) => println!(
            "  log: the game is leaf {index} of the log under the signed head of size {size}"
        ),
        (None, true) => println!("  log: a proof is included, not checked (give --key)"),
        (None, false) => println!(
            "  log: no proof in this document (issued before the game was logged); ask /v1/games/{game_id}/log-proof"
        ),
    }
    Ok(())
}

/// The document as a tournament's audit, when its `format` says it is one.
fn tournament_document(text: &str) -> Result<Option<TournamentAudit>, String> {
    #[derive(serde::Deserialize)]
    struct Format {
        format: Option<String>,
    }
    match serde_json::from_str::<Format>(text) {
        Ok(Format {
            format: Some(format),
        }) if format == verify::FORMAT => serde_json::from_str(text)
            .map(Some)
            .map_err(|e| format!("not a tournament audit document: {e}")),
        _ => Ok(None),
    }
}

/// Verifies a tournament's audit and says what was established.
fn verify_tournament(doc: &TournamentAudit) -> Result<(), String> {
    let v = verify::verify(doc).map_err(|why| format!("verification FAILED: {why}"))?;
    if v.cancelled {
        println!(
            "verified: tournament {} cancelled with too few players, {} events; chain and seed commitment match",
            doc.tournament_id, v.events
        );
        return Ok(());
    }
    println!(
        "verified: tournament {}, {} events, {} entrants, {} rounds; chain, seed commitment, seeding, every pairing, points and standings all match",
        doc.tournament_id, v.events, v.entrants, v.rounds
    );
    println!(
        "  games: {} tables' audits verified ({} commands replayed); {} deals drawn again from the seed and found at their tables",
        v.tables, v.commands, v.deals
    );
    Ok(())
}

async fn get<T: serde::de::DeserializeOwned>(client: &awc::Client, url: &str) -> Result<T, String> {
    let mut reply = client
        .get(url)
        .send()
        .await
        .map_err(|e| format!("{url}: {e}"))?;
    if !reply.status().is_success() {
        return Err(format!("{url}: {}", reply.status()));
    }
    reply
        .json::<T>()
        .limit(1 << 20)
        .await
        .map_err(|e| format!("{url}: {e}"))
}

/// `hatstand log monitor`: the newest head checked against the one kept in
/// `state`, which it replaces when the log grew consistently.
pub async fn monitor(server: String, state: PathBuf, key: Option<String>) -> Result<(), String> {
    let client = awc::Client::builder()
        .timeout(std::time::Duration::from_secs(30))
        .finish();
    let server = server.trim_end_matches('/');
    let keys = match key {
        Some(key) => read_keys(&key)?,
        None => get(&client, &format!("{server}/.well-known/hatstand-keys.json")).await?,
    };
    let trusted: Option<TreeHead> = match std::fs::read_to_string(&state) {
        Ok(text) => Some(
            serde_json::from_str(&text)
                .map_err(|e| format!("{}: not a tree head: {e}", state.display()))?,
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("cannot read {}: {e}", state.display())),
    };
    let newest: TreeHead = get(&client, &format!("{server}/v1/log/head")).await?;
    let proof: Option<ConsistencyProof> = match &trusted {
        Some(old) if old.tree_size < newest.tree_size => Some(
            get(
                &client,
                &format!(
                    "{server}/v1/log/consistency?first={}&second={}",
                    old.tree_size, newest.tree_size
                ),
            )
            .await?,
        ),
        _ => None,
    };
    let seen = monitor::step(trusted.as_ref(), &newest, proof.as_ref(), &keys)?;
    match seen {
        Seen::First(size) => println!("first head seen: {size} games; trusted from now on"),
        Seen::Unchanged(size) => println!("unchanged: {size} games"),
        Seen::Grew(from, to) => println!("consistent: the log grew from {from} to {to} games"),
    }
    let text = serde_json::to_string_pretty(&newest).map_err(|e| e.to_string())?;
    std::fs::write(&state, text).map_err(|e| format!("cannot write {}: {e}", state.display()))
}
