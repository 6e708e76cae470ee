//! Checking the log's proofs offline, as `hatstand verify` and
//! `hatstand log monitor` do: a head's signature, a game's inclusion under
//! a signed head, and two heads' consistency.

use hatstand_engine::merkle::{self, Hash};
use uuid::Uuid;

use super::log::{ConsistencyProof, InclusionProof, TreeHead, leaf_data};
use super::signing::KeySet;

fn hash(text: &str, what: &str) -> Result<Hash, String> {
    hex::decode(text)
        .ok()
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| format!("{what} is not 32 bytes of hex"))
}

fn path(items: &[String]) -> Result<Vec<Hash>, String> {
    items.iter().map(|h| hash(h, "a proof's hash")).collect()
}

/// Checks a head's signature; its root.
///
/// # Errors
/// A malformed head, or a signature that does not check.
pub fn head(head: &TreeHead, keys: &KeySet) -> Result<Hash, String> {
    let root = hash(&head.root_hash, "the tree head's root")?;
    keys.check_tree_head(&head.signature, head.tree_size, head.timestamp, &root)
        .map_err(|e| format!("the tree head of size {}: {e}", head.tree_size))?;
    Ok(root)
}

/// Checks that game `game`, whose last event's hash is `final_hash`, is in
/// the log under the signed head of `proof`.
///
/// # Errors
/// What does not hold.
pub fn inclusion(
    game: Uuid,
    final_hash: &str,
    proof: &InclusionProof,
    keys: &KeySet,
) -> Result<(), String> {
    if proof.game_id != game {
        return Err("the log proof is another game's".to_owned());
    }
    if proof.final_hash != final_hash {
        return Err(
            "the log holds another last event for this game: the record was rewritten after it was logged"
                .to_owned(),
        );
    }
    let root = head(&proof.tree_head, keys)?;
    let leaf = merkle::leaf_hash(&leaf_data(game, &hash(final_hash, "the final hash")?));
    if !merkle::verify_inclusion(
        &leaf,
        proof.leaf_index,
        proof.tree_head.tree_size,
        &path(&proof.audit_path)?,
        &root,
    ) {
        return Err(format!(
            "the inclusion proof does not lead to the root of the signed head of size {}",
            proof.tree_head.tree_size
        ));
    }
    Ok(())
}

/// Checks that the second head extends the first (both signed).
///
/// # Errors
/// A bad signature, or a proof that does not join them: the log forked.
pub fn consistency(proof: &ConsistencyProof, keys: &KeySet) -> Result<(), String> {
    let (first, second) = (head(&proof.first, keys)?, head(&proof.second, keys)?);
    let (m, n) = (proof.first.tree_size, proof.second.tree_size);
    if !merkle::verify_consistency(m, n, &first, &second, &path(&proof.proof)?) {
        return Err(format!(
            "the signed heads of sizes {m} and {n} are not consistent: the log forked (or was rewritten)"
        ));
    }
    Ok(())
}

/// The audit documents in a file's text: the whole text when it is one
/// JSON value, else each non-blank line (JSON Lines, as exports are).
#[must_use]
pub fn documents(text: &str) -> Vec<&str> {
    if serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok() {
        return vec![text];
    }
    text.lines().filter(|l| !l.trim().is_empty()).collect()
}

/// What `hatstand verify` established about one document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub verified: crate::record::verify::Verified,
    pub game_id: Uuid,
    /// The key that signed it, when keys were given.
    pub signed_by: Option<String>,
    /// Where it is in the log, when it carries a proof and keys were given:
    /// `(leaf index, size of the signed head)`.
    pub logged: Option<(u64, u64)>,
    /// It carries a log proof (checked only with keys).
    pub has_log_proof: bool,
}

/// Verifies one audit document's text: with `keys`, its signature first
/// (over the members exactly as read: an unsigned or altered document is
/// refused before anything else), then everything `record::verify` checks,
/// then its proof of inclusion in the log under a signed head.
///
/// # Errors
/// The first failure, saying which check failed.
pub fn audit_text(text: &str, keys: Option<&KeySet>) -> Result<Report, String> {
    use crate::record::verify::{self, AuditDocument, Rejection};
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not an audit document: {e}"))?;
    let signed_by = keys
        .map(|keys| keys.check_document(&value))
        .transpose()
        .map_err(|e| format!("verification FAILED: signature: {e}"))?;
    let doc: AuditDocument =
        serde_json::from_value(value).map_err(|e| format!("not an audit document: {e}"))?;
    let verified = verify::verify(&doc).map_err(|why| match why {
        Rejection::UnknownRules(why) => {
            format!("verification REFUSED (not checked, not tampered): {why}")
        }
        Rejection::Failed(why) => format!("verification FAILED: {why}"),
    })?;
    let logged = match (&doc.log, keys) {
        (Some(proof), Some(keys)) => {
            let last = doc
                .events
                .last()
                .map(|e| e.hash.as_str())
                .unwrap_or_default();
            inclusion(doc.game_id, last, proof, keys)
                .map_err(|e| format!("verification FAILED: log: {e}"))?;
            Some((proof.leaf_index, proof.tree_head.tree_size))
        }
        _ => None,
    };
    Ok(Report {
        verified,
        game_id: doc.game_id,
        signed_by,
        logged,
        has_log_proof: doc.log.is_some(),
    })
}
