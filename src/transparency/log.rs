//! The transparency log of games that are over: every game that ended
//! (finished or abandoned) is appended once, as the leaf
//! `game id (16 bytes) ‖ hash of its last event (32 bytes)`, to an
//! append-only Merkle tree (`hatstand_engine::merkle`, RFC 9162), and the
//! server signs a tree head each time the log grows.
//!
//! One process appends at a time (a transaction-scoped advisory lock), a
//! batch of the games over and not yet logged (`games.logged_at`), oldest
//! end first; a game is logged exactly once (`log_leaves.game_id` is
//! unique and the game is marked in the same transaction). Games that
//! ended before the log existed are appended the same way, a batch a tick.

use std::collections::HashMap;
use std::time::Duration;

use diesel_async::AsyncConnection;
use hatstand_engine::merkle::{self, Hash, Needed, Subtrees};
use uuid::Uuid;

use crate::db::transparency::{self as store, StoredHead};
use crate::db::{Conn, Pool};
use crate::error::Failure;

use super::signing::{ALG, Signature, Signer};

/// Games appended by one tick at most.
pub const BATCH: i64 = 1000;

pub use crate::record::proofs::{ConsistencyProof, InclusionProof, TreeHead};

/// The leaf data of a game: its id's 16 bytes, then its final hash's 32.
#[must_use]
pub fn leaf_data(game: Uuid, final_hash: &[u8]) -> Vec<u8> {
    let mut data = game.as_bytes().to_vec();
    data.extend_from_slice(final_hash);
    data
}

fn head_of(stored: &StoredHead) -> TreeHead {
    TreeHead {
        tree_size: u64::try_from(stored.tree_size).unwrap_or_default(),
        root_hash: hex::encode(&stored.root_hash),
        timestamp: u64::try_from(stored.timestamp_ms).unwrap_or_default(),
        signature: Signature {
            alg: ALG.to_owned(),
            key_id: stored.key_id.clone(),
            value: hex::encode(&stored.signature),
        },
    }
}

/// The complete subtrees a computation reads, fetched in one query, then
/// the computation on them.
async fn fetch<T>(conn: &mut Conn, compute: impl Fn(&dyn Subtrees) -> T) -> Result<T, Failure> {
    let needed = Needed::default();
    let _ = compute(&needed);
    let wanted: Vec<(u32, u64)> = needed.into_set().into_iter().collect();
    let rows = store::nodes(conn, &wanted).await?;
    if rows.len() != wanted.len() {
        return Err(Failure::internal("the log is missing subtrees it needs"));
    }
    let mut nodes: HashMap<(u32, u64), Hash> = HashMap::with_capacity(rows.len());
    for (level, index, hash) in rows {
        let hash: Hash = hash
            .try_into()
            .map_err(|_| Failure::internal("a stored subtree hash is not 32 bytes"))?;
        nodes.insert((level, index), hash);
    }
    Ok(compute(&nodes))
}

/// Appends the games over and not yet logged (a batch) and signs the new
/// head; the number appended (0 when another process holds the lock or
/// nothing ended).
///
/// # Errors
/// Database errors (nothing is appended then).
pub async fn sequence(conn: &mut Conn, signer: &Signer, batch: i64) -> Result<u64, Failure> {
    conn.transaction::<_, Failure, _>(async |conn| {
        if !store::try_sequencer_lock(conn).await? {
            return Ok(0);
        }
        let games = store::unlogged(conn, batch).await?;
        if games.is_empty() {
            return Ok(0);
        }
        let size = u64::try_from(store::size(conn).await?).map_err(Failure::internal)?;
        let frontier = merkle::frontier(size);
        let frontier_hashes = fetch(conn, |s| {
            frontier
                .iter()
                .map(|(l, i)| s.subtree(*l, *i))
                .collect::<Vec<_>>()
        })
        .await?;
        let mut leaves = Vec::with_capacity(games.len());
        let mut hashes = Vec::with_capacity(games.len());
        for ((game, final_hash), index) in games.into_iter().zip(size..) {
            let final_hash = hex::decode(&final_hash).map_err(Failure::internal)?;
            hashes.push(merkle::leaf_hash(&leaf_data(game, &final_hash)));
            leaves.push((
                i64::try_from(index).map_err(Failure::internal)?,
                game,
                final_hash,
            ));
        }
        let made = merkle::append(size, &frontier_hashes, &hashes);
        store::append(conn, &leaves, &made).await?;
        let new_size = size + leaves.len() as u64;
        let mut nodes: HashMap<(u32, u64), Hash> =
            frontier.into_iter().zip(frontier_hashes).collect();
        nodes.extend(made.iter().map(|(l, i, h)| ((*l, *i), *h)));
        let root = merkle::root(&nodes, new_size);
        let timestamp = u64::try_from(chrono::Utc::now().timestamp_millis()).unwrap_or_default();
        let signature = signer.sign_tree_head(new_size, timestamp, &root);
        store::store_head(
            conn,
            &StoredHead {
                tree_size: i64::try_from(new_size).map_err(Failure::internal)?,
                root_hash: root.to_vec(),
                timestamp_ms: i64::try_from(timestamp).map_err(Failure::internal)?,
                key_id: signature.key_id,
                signature: hex::decode(signature.value).map_err(Failure::internal)?,
            },
        )
        .await?;
        Ok(leaves.len() as u64)
    })
    .await
}

/// Runs [`sequence`] every `every`, until the process ends.
/// Each tick signs with the key active then (`keys::CurrentSigner`).
pub async fn sequence_forever(
    pool: Pool,
    signer: std::sync::Arc<super::keys::CurrentSigner>,
    every: Duration,
) {
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let outcome = match pool.get().await {
            Ok(mut conn) => match signer.current(&mut conn).await {
                Ok(now) => sequence(&mut conn, &now, BATCH).await,
                Err(e) => Err(e),
            },
            Err(e) => Err(e.into()),
        };
        match outcome {
            Ok(0) => {}
            Ok(n) => tracing::debug!(appended = n, "transparency log grew"),
            Err(e) => tracing::warn!(error = %e.detail, "transparency log: appending failed"),
        }
    }
}

/// The newest signed head; `not_found` while the log is empty.
///
/// # Errors
/// `not_found`, database errors.
pub async fn latest(conn: &mut Conn) -> Result<TreeHead, Failure> {
    store::latest_head(conn)
        .await?
        .map(|h| head_of(&h))
        .ok_or_else(|| Failure::not_found("the log is empty: no tree head is signed yet"))
}

/// Up to `limit` signed heads after `after` games, smallest first.
///
/// # Errors
/// Database errors.
pub async fn heads(conn: &mut Conn, after: u64, limit: i64) -> Result<Vec<TreeHead>, Failure> {
    let after = i64::try_from(after).unwrap_or(i64::MAX);
    Ok(store::heads_after(conn, after, limit)
        .await?
        .iter()
        .map(head_of)
        .collect())
}

async fn head_at(conn: &mut Conn, size: u64) -> Result<StoredHead, Failure> {
    let size_i = i64::try_from(size).map_err(|_| Failure::not_found("no such tree head"))?;
    store::head(conn, size_i)
        .await?
        .ok_or_else(|| Failure::not_found(format!("no tree head was signed at size {size}")))
}

/// Game `id`'s inclusion proof under the head signed at `size` (the newest
/// when none is given); `None` while the game is not logged (or not under
/// that head).
///
/// # Errors
/// `not_found` for a size no head was signed at; database errors.
pub async fn inclusion(
    conn: &mut Conn,
    id: Uuid,
    size: Option<u64>,
) -> Result<Option<InclusionProof>, Failure> {
    let Some((index, final_hash)) = store::leaf_of(conn, id).await? else {
        return Ok(None);
    };
    let head = match size {
        Some(size) => head_at(conn, size).await?,
        None => match store::latest_head(conn).await? {
            Some(head) => head,
            None => return Ok(None),
        },
    };
    let index = u64::try_from(index).map_err(Failure::internal)?;
    let tree_size = u64::try_from(head.tree_size).map_err(Failure::internal)?;
    if index >= tree_size {
        return Ok(None);
    }
    let path = fetch(conn, |s| merkle::inclusion_proof(s, index, tree_size))
        .await?
        .unwrap_or_default();
    Ok(Some(InclusionProof {
        game_id: id,
        final_hash: hex::encode(final_hash),
        leaf_index: index,
        audit_path: path.iter().map(hex::encode).collect(),
        tree_head: head_of(&head),
    }))
}

/// The consistency proof between the heads signed at `first` and `second`.
///
/// # Errors
/// `bad_request` unless `0 < first ≤ second`; `not_found` for a size no
/// head was signed at.
pub async fn consistency(
    conn: &mut Conn,
    first: u64,
    second: u64,
) -> Result<ConsistencyProof, Failure> {
    if first == 0 || first > second {
        return Err(Failure::bad_request(
            "first and second are sizes of signed heads, 0 < first ≤ second",
        ));
    }
    let (a, b) = (head_at(conn, first).await?, head_at(conn, second).await?);
    let proof = fetch(conn, |s| merkle::consistency_proof(s, first, second))
        .await?
        .unwrap_or_default();
    Ok(ConsistencyProof {
        first: head_of(&a),
        second: head_of(&b),
        proof: proof.iter().map(hex::encode).collect(),
    })
}
