//! What `hatstand log monitor` decides, given the head it trusted last and
//! the server's newest: that the log only grew, or that it forked. A fork
//! (two signed heads that cannot both be extensions of one another) is
//! proof, signed by the server itself, that it rewrote or dropped a record.

use super::check;
use super::log::{ConsistencyProof, TreeHead};
use super::signing::KeySet;

/// What the monitor saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seen {
    /// The first head, now trusted.
    First(u64),
    /// The same head as before.
    Unchanged(u64),
    /// The log grew from the first size to the second, consistently.
    Grew(u64, u64),
}

/// Checks the server's newest head against the one trusted last; the proof
/// is the server's consistency proof between them (needed when it grew).
///
/// # Errors
/// A bad signature, or the fork found, saying how.
pub fn step(
    trusted: Option<&TreeHead>,
    newest: &TreeHead,
    proof: Option<&ConsistencyProof>,
    keys: &KeySet,
) -> Result<Seen, String> {
    check::head(newest, keys)?;
    let Some(trusted) = trusted else {
        return Ok(Seen::First(newest.tree_size));
    };
    if newest.tree_size < trusted.tree_size {
        return Err(format!(
            "FORK: the server's newest head has {} games, fewer than the {} it signed before",
            newest.tree_size, trusted.tree_size
        ));
    }
    if newest.tree_size == trusted.tree_size {
        if newest.root_hash != trusted.root_hash {
            return Err(format!(
                "FORK: two signed heads of {} games with different roots",
                newest.tree_size
            ));
        }
        return Ok(Seen::Unchanged(newest.tree_size));
    }
    let proof = proof.ok_or("the server gave no consistency proof")?;
    if proof.first.tree_size != trusted.tree_size
        || proof.first.root_hash != trusted.root_hash
        || proof.second.tree_size != newest.tree_size
        || proof.second.root_hash != newest.root_hash
    {
        return Err(format!(
            "FORK: the server proves consistency from a head of {} games that is not the one it signed before",
            proof.first.tree_size
        ));
    }
    check::consistency(proof, keys).map_err(|e| format!("FORK: {e}"))?;
    Ok(Seen::Grew(trusted.tree_size, newest.tree_size))
}
