//! The Merkle tree of the transparency log, as RFC 9162 (Certificate
//! Transparency 2.0, section 2.1; RFC 6962 before it) defines it: SHA-256,
//! a leaf hashed as `H(0x00 ‖ data)`, a node as `H(0x01 ‖ left ‖ right)`,
//! the tree of `n` leaves split at the largest power of two below `n`, the
//! empty tree's root `H()`.
//!
//! Proofs are computed from the hashes of *complete* subtrees only (level
//! `l`, index `i`: the `2^l` leaves from `i · 2^l`), which is what a store
//! can keep once and never change as the log grows: every root, inclusion
//! proof and consistency proof reads `O(log n)` of them. [`Needed`] tells
//! which, so a store can fetch them in one read before computing.
//!
//! Verification follows RFC 9162's algorithms (2.1.3.2 and 2.1.4.2) word
//! for word; the tests hold both halves to the reference vectors of the
//! Certificate Transparency implementations and to every tree up to 70
//! leaves.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

use sha2::{Digest, Sha256};

/// A SHA-256 hash.
pub type Hash = [u8; 32];

/// The hash of a leaf: `H(0x00 ‖ data)`.
#[must_use]
pub fn leaf_hash(data: &[u8]) -> Hash {
    let mut h = Sha256::new();
    h.update([0]);
    h.update(data);
    h.finalize().into()
}

/// The hash of an inner node: `H(0x01 ‖ left ‖ right)`.
#[must_use]
pub fn node_hash(left: &Hash, right: &Hash) -> Hash {
    let mut h = Sha256::new();
    h.update([1]);
    h.update(left);
    h.update(right);
    h.finalize().into()
}

/// The root of the empty tree: `H()`.
#[must_use]
pub fn empty_root() -> Hash {
    Sha256::digest([]).into()
}

/// Where the hashes of complete subtrees come from.
pub trait Subtrees {
    /// The hash of the complete subtree at `level` (`2^level` leaves) and
    /// `index` (its first leaf is `index · 2^level`).
    fn subtree(&self, level: u32, index: u64) -> Hash;
}

impl Subtrees for HashMap<(u32, u64), Hash> {
    fn subtree(&self, level: u32, index: u64) -> Hash {
        self.get(&(level, index)).copied().unwrap_or_default()
    }
}

/// A store that answers zeros and remembers what was asked: run a
/// computation on it first to learn which subtrees the real one reads.
#[derive(Debug, Default)]
pub struct Needed(RefCell<BTreeSet<(u32, u64)>>);

impl Needed {
    /// The subtrees asked for, as `(level, index)`.
    #[must_use]
    pub fn into_set(self) -> BTreeSet<(u32, u64)> {
        self.0.into_inner()
    }
}

impl Subtrees for Needed {
    fn subtree(&self, level: u32, index: u64) -> Hash {
        self.0.borrow_mut().insert((level, index));
        [0; 32]
    }
}

/// The largest power of two strictly below `n` (`n ≥ 2`).
fn split(n: u64) -> u64 {
    1 << (63 - (n - 1).leading_zeros())
}

/// `MTH(D[start:end])` for a range that starts at a multiple of the
/// largest power of two it holds, as every range of the RFC's recursion does.
fn range_hash(store: &dyn Subtrees, start: u64, end: u64) -> Hash {
    let n = end - start;
    if n.is_power_of_two() && start.is_multiple_of(n) {
        return store.subtree(n.trailing_zeros(), start >> n.trailing_zeros());
    }
    let k = split(n);
    node_hash(
        &range_hash(store, start, start + k),
        &range_hash(store, start + k, end),
    )
}

/// The root of the first `size` leaves.
#[must_use]
pub fn root(store: &dyn Subtrees, size: u64) -> Hash {
    if size == 0 {
        empty_root()
    } else {
        range_hash(store, 0, size)
    }
}

/// The inclusion proof of leaf `index` in the tree of `size` leaves
/// (RFC 9162 2.1.3.1, `PATH(m, D[n])`), leaf to root; `None` when `index`
/// is not below `size`.
#[must_use]
pub fn inclusion_proof(store: &dyn Subtrees, index: u64, size: u64) -> Option<Vec<Hash>> {
    if index >= size {
        return None;
    }
    let mut proof = Vec::new();
    path(store, index, 0, size, &mut proof);
    Some(proof)
}

fn path(store: &dyn Subtrees, m: u64, start: u64, end: u64, out: &mut Vec<Hash>) {
    let n = end - start;
    if n <= 1 {
        return;
    }
    let k = split(n);
    if m < k {
        path(store, m, start, start + k, out);
        out.push(range_hash(store, start + k, end));
    } else {
        path(store, m - k, start + k, end, out);
        out.push(range_hash(store, start, start + k));
    }
}

/// The consistency proof from the tree of `old` leaves to the tree of `new`
/// (RFC 9162 2.1.4.1, `PROOF(m, D[n])`); `None` unless `0 < old ≤ new`.
#[must_use]
pub fn consistency_proof(store: &dyn Subtrees, old: u64, new: u64) -> Option<Vec<Hash>> {
    if old == 0 || old > new {
        return None;
    }
    let mut proof = Vec::new();
    subproof(store, old, 0, new, true, &mut proof);
    Some(proof)
}

fn subproof(store: &dyn Subtrees, m: u64, start: u64, end: u64, whole: bool, out: &mut Vec<Hash>) {
    let n = end - start;
    if m == n {
        if !whole {
            out.push(range_hash(store, start, end));
        }
        return;
    }
    let k = split(n);
    if m <= k {
        subproof(store, m, start, start + k, whole, out);
        out.push(range_hash(store, start + k, end));
    } else {
        subproof(store, m - k, start + k, end, false, out);
        out.push(range_hash(store, start, start + k));
    }
}

/// Whether `proof` shows the leaf hashed `leaf` at `index` in the tree of
/// `size` leaves whose root is `root` (RFC 9162 2.1.3.2).
#[must_use]
pub fn verify_inclusion(leaf: &Hash, index: u64, size: u64, proof: &[Hash], root: &Hash) -> bool {
    if index >= size {
        return false;
    }
    let (mut fn_, mut sn) = (index, size - 1);
    let mut r = *leaf;
    for p in proof {
        if sn == 0 {
            return false;
        }
        if fn_ & 1 == 1 || fn_ == sn {
            r = node_hash(p, &r);
            while fn_ & 1 == 0 && fn_ != 0 {
                fn_ >>= 1;
                sn >>= 1;
            }
        } else {
            r = node_hash(&r, p);
        }
        fn_ >>= 1;
        sn >>= 1;
    }
    sn == 0 && r == *root
}

/// Whether `proof` shows the tree of `new` leaves (root `new_root`)
/// extends the tree of `old` leaves (root `old_root`), i.e. the log was
/// only appended to between them (RFC 9162 2.1.4.2).
#[must_use]
pub fn verify_consistency(
    old: u64,
    new: u64,
    old_root: &Hash,
    new_root: &Hash,
    proof: &[Hash],
) -> bool {
    if old == 0 || old > new {
        return false;
    }
    if old == new {
        return proof.is_empty() && old_root == new_root;
    }
    let mut path: Vec<Hash> = Vec::with_capacity(proof.len() + 1);
    if old.is_power_of_two() {
        path.push(*old_root);
    }
    path.extend_from_slice(proof);
    let Some((first, rest)) = path.split_first() else {
        return false;
    };
    let (mut fn_, mut sn) = (old - 1, new - 1);
    while fn_ & 1 == 1 {
        fn_ >>= 1;
        sn >>= 1;
    }
    let (mut fr, mut sr) = (*first, *first);
    for c in rest {
        if sn == 0 {
            return false;
        }
        if fn_ & 1 == 1 || fn_ == sn {
            fr = node_hash(c, &fr);
            sr = node_hash(c, &sr);
            while fn_ & 1 == 0 && fn_ != 0 {
                fn_ >>= 1;
                sn >>= 1;
            }
        } else {
            sr = node_hash(&sr, c);
        }
        fn_ >>= 1;
        sn >>= 1;
    }
    fr == *old_root && sr == *new_root && sn == 0
}

/// The complete subtrees a tree of `size` leaves is made of, left to
/// right, as `(level, index)`: one per bit of `size`, highest first.
#[must_use]
pub fn frontier(size: u64) -> Vec<(u32, u64)> {
    let mut out = Vec::new();
    let mut start = 0;
    for level in (0..64).rev() {
        let width = 1u64 << level;
        if size & width != 0 {
            out.push((level, start >> level));
            start += width;
        }
    }
    out
}

/// Appends `leaves` (their leaf hashes) to a tree of `size` leaves whose
/// [`frontier`] hashes are `frontier` (in that order): every complete
/// subtree that appears, as `(level, index, hash)`, the leaves themselves
/// at level 0 included.
#[must_use]
pub fn append(size: u64, frontier_hashes: &[Hash], leaves: &[Hash]) -> Vec<(u32, u64, Hash)> {
    let mut stack: Vec<(u32, u64, Hash)> = frontier(size)
        .into_iter()
        .zip(frontier_hashes)
        .map(|((level, index), hash)| (level, index, *hash))
        .collect();
    let mut made = Vec::new();
    for (i, leaf) in (size..).zip(leaves) {
        stack.push((0, i, *leaf));
        made.push((0, i, *leaf));
        while let [.., (left_level, left_index, left), (right_level, _, right)] = stack[..] {
            if left_level != right_level {
                break;
            }
            let node = (left_level + 1, left_index >> 1, node_hash(&left, &right));
            stack.truncate(stack.len() - 2);
            stack.push(node);
            made.push(node);
        }
    }
    made
}

/// A whole tree in memory (for tests and small tools).
#[derive(Debug, Default, Clone)]
pub struct MemoryTree {
    pub size: u64,
    pub nodes: HashMap<(u32, u64), Hash>,
}

impl MemoryTree {
    /// Appends leaves (their leaf hashes).
    pub fn push(&mut self, leaves: &[Hash]) {
        let hashes: Vec<Hash> = frontier(self.size)
            .into_iter()
            .map(|(l, i)| self.nodes.subtree(l, i))
            .collect();
        for (level, index, hash) in append(self.size, &hashes, leaves) {
            self.nodes.insert((level, index), hash);
        }
        self.size += leaves.len() as u64;
    }

    #[must_use]
    pub fn root(&self) -> Hash {
        root(&self.nodes, self.size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(text: &str) -> Hash {
        hex::decode(text)
            .expect("hex")
            .try_into()
            .expect("32 bytes")
    }

    /// The reference leaves of RFC 6962's implementations.
    fn reference_leaves() -> Vec<Hash> {
        [
            "",
            "00",
            "10",
            "2021",
            "3031",
            "40414243",
            "5051525354555657",
            "606162636465666768696a6b6c6d6e6f",
        ]
        .iter()
        .map(|d| leaf_hash(&hex::decode(d).expect("hex")))
        .collect()
    }

    const ROOTS: [&str; 9] = [
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
        "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
        "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
        "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
        "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
    ];

    fn reference_tree(size: usize) -> MemoryTree {
        let mut tree = MemoryTree::default();
        tree.push(&reference_leaves()[..size]);
        tree
    }

    #[test]
    fn given_the_reference_leaves_then_every_root_is_the_published_one() {
        for (size, expected) in ROOTS.iter().enumerate() {
            assert_eq!(reference_tree(size).root(), h(expected), "size {size}");
        }
        // Appended one at a time, or all at once: the same tree.
        let mut one_by_one = MemoryTree::default();
        for leaf in reference_leaves() {
            one_by_one.push(&[leaf]);
        }
        assert_eq!(one_by_one.root(), h(ROOTS[8]));
    }

    #[test]
    fn given_the_reference_tree_then_inclusion_proofs_are_the_published_ones() {
        let cases: [(u64, u64, &[&str]); 5] = [
            (0, 1, &[]),
            (
                0,
                8,
                &[
                    "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                    "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                    "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
                ],
            ),
            (
                5,
                8,
                &[
                    "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
                    "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
                ],
            ),
            (
                2,
                3,
                &["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"],
            ),
            (
                1,
                5,
                &[
                    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
                    "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                    "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
                ],
            ),
        ];
        let leaves = reference_leaves();
        for (index, size, expected) in cases {
            let tree = reference_tree(usize::try_from(size).expect("small"));
            let proof = inclusion_proof(&tree.nodes, index, size).expect("in range");
            let expected: Vec<Hash> = expected.iter().map(|e| h(e)).collect();
            assert_eq!(proof, expected, "leaf {index} of {size}");
            let leaf = &leaves[usize::try_from(index).expect("small")];
            assert!(verify_inclusion(leaf, index, size, &expected, &tree.root()));
        }
    }

    #[test]
    fn given_the_reference_tree_then_consistency_proofs_are_the_published_ones() {
        let cases: [(u64, u64, &[&str]); 4] = [
            (1, 1, &[]),
            (
                1,
                8,
                &[
                    "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                    "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                    "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
                ],
            ),
            (
                6,
                8,
                &[
                    "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
                    "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
                ],
            ),
            (
                2,
                5,
                &[
                    "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                    "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
                ],
            ),
        ];
        let tree = reference_tree(8);
        for (old, new, expected) in cases {
            let proof = consistency_proof(&tree.nodes, old, new).expect("in range");
            let expected: Vec<Hash> = expected.iter().map(|e| h(e)).collect();
            assert_eq!(proof, expected, "{old} to {new}");
            let (old_root, new_root) = (h(ROOTS[old as usize]), h(ROOTS[new as usize]));
            assert!(verify_consistency(
                old, new, &old_root, &new_root, &expected
            ));
        }
    }

    /// A deterministic stream of leaves (no randomness crate needed here).
    fn leaves(n: u64, salt: u8) -> Vec<Hash> {
        (0..n)
            .map(|i| leaf_hash(&[&i.to_le_bytes()[..], &[salt]].concat()))
            .collect()
    }

    #[test]
    fn given_every_tree_up_to_70_leaves_then_every_proof_verifies_and_any_change_fails() {
        let all = leaves(70, 1);
        let mut tree = MemoryTree::default();
        let mut roots = vec![tree.root()];
        for leaf in &all {
            tree.push(&[*leaf]);
            roots.push(tree.root());
        }
        let mut other = [0u8; 32];
        other[0] = 9;
        for size in 1..=70u64 {
            let root = roots[size as usize];
            for index in 0..size {
                let leaf = &all[index as usize];
                let proof = inclusion_proof(&tree.nodes, index, size).expect("in range");
                assert!(
                    verify_inclusion(leaf, index, size, &proof, &root),
                    "{index}/{size}"
                );
                assert!(!verify_inclusion(&other, index, size, &proof, &root));
                if size > 1 {
                    assert!(!verify_inclusion(
                        leaf,
                        (index + 1) % size,
                        size,
                        &proof,
                        &root
                    ));
                }
                if let Some((_, shorter)) = proof.split_last() {
                    assert!(!verify_inclusion(leaf, index, size, shorter, &root));
                    let mut bent = proof.clone();
                    bent[0][5] ^= 1;
                    assert!(!verify_inclusion(leaf, index, size, &bent, &root));
                }
            }
            for old in 1..=size {
                let proof = consistency_proof(&tree.nodes, old, size).expect("in range");
                let old_root = roots[old as usize];
                assert!(
                    verify_consistency(old, size, &old_root, &root, &proof),
                    "{old}->{size}"
                );
                assert!(!verify_consistency(old, size, &other, &root, &proof));
                assert!(!verify_consistency(old, size, &old_root, &other, &proof));
                if let Some((_, shorter)) = proof.split_last() {
                    assert!(!verify_consistency(old, size, &old_root, &root, shorter));
                }
            }
        }
    }

    #[test]
    fn given_a_rewritten_leaf_then_no_consistency_proof_joins_the_two_heads() {
        // A fork: the same first 5 leaves, then leaf 5 rewritten.
        let honest = leaves(9, 2);
        let mut forked = honest.clone();
        forked[5] = leaf_hash(b"rewritten");
        let (mut a, mut b) = (MemoryTree::default(), MemoryTree::default());
        a.push(&honest[..7]);
        b.push(&forked);
        let (a_root, b_root) = (a.root(), b.root());
        // The proof the forked log offers does not verify, nor does an
        // honest log's proof join its head to the fork's.
        let proof = consistency_proof(&b.nodes, 7, 9).expect("in range");
        assert!(!verify_consistency(7, 9, &a_root, &b_root, &proof));
        a.push(&honest[7..]);
        let honest_proof = consistency_proof(&a.nodes, 7, 9).expect("in range");
        assert!(verify_consistency(7, 9, &a_root, &a.root(), &honest_proof));
        assert!(!verify_consistency(7, 9, &a_root, &b_root, &honest_proof));
    }

    #[test]
    fn the_store_is_read_log_n_times() {
        let mut tree = MemoryTree::default();
        tree.push(&leaves(1000, 3));
        for (index, size) in [(0, 1000), (999, 1000), (517, 777)] {
            let needed = Needed::default();
            let _ = inclusion_proof(&needed, index, size);
            assert!(needed.into_set().len() <= 2 * 10, "{index}/{size}");
        }
        let needed = Needed::default();
        let _ = consistency_proof(&needed, 333, 1000);
        assert!(needed.into_set().len() <= 2 * 10);
        // Computed from what `Needed` named alone: the same proof.
        let needed = Needed::default();
        let _ = consistency_proof(&needed, 333, 1000);
        let fetched: HashMap<(u32, u64), Hash> = needed
            .into_set()
            .into_iter()
            .map(|k| (k, tree.nodes.subtree(k.0, k.1)))
            .collect();
        assert_eq!(
            consistency_proof(&fetched, 333, 1000),
            consistency_proof(&tree.nodes, 333, 1000)
        );
    }
}
