//! What the transparency log proves, as documents carry it (pure types):
//! a signed tree head, a game's inclusion proof, and the consistency of two
//! heads. The log that makes them is `transparency::log`; the tree is
//! `hatstand_engine::merkle` (RFC 9162).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::signing::Signature;

/// A signed tree head: the log's size and root at a time, signed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TreeHead {
    /// The number of games in the log.
    #[schema(example = 42)]
    pub tree_size: u64,
    /// The Merkle tree hash of those games' leaves, hex.
    #[schema(example = "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328")]
    pub root_hash: String,
    /// When it was signed, in milliseconds since the Unix epoch.
    #[schema(example = 1_795_000_000_000_u64)]
    pub timestamp: u64,
    /// Over `"hatstand/tree-head/v1" ‖ 0x00 ‖ tree_size (u64 BE) ‖
    /// timestamp (u64 BE) ‖ root hash (32 bytes)`.
    pub signature: Signature,
}

/// That a game is in the log: its leaf, and the path from it to the root
/// of a signed tree head.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct InclusionProof {
    pub game_id: Uuid,
    /// The hash of the game's last event, as logged (hex).
    #[schema(example = "9f2c7e1d0a4b6c8e9f2c7e1d0a4b6c8e9f2c7e1d0a4b6c8e9f2c7e1d0a4b6c8e")]
    pub final_hash: String,
    /// The game's position in the log (0-based).
    #[schema(example = 7)]
    pub leaf_index: u64,
    /// RFC 9162's inclusion path, leaf to root, hex.
    #[schema(example = json!(["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7"]))]
    pub audit_path: Vec<String>,
    /// The head whose root the path leads to.
    pub tree_head: TreeHead,
}

/// That the log at `second` holds the log at `first` unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ConsistencyProof {
    pub first: TreeHead,
    pub second: TreeHead,
    /// RFC 9162's consistency proof, hex (empty when the sizes are equal).
    #[schema(example = json!(["5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e"]))]
    pub proof: Vec<String>,
}
