//! Seeded, reproducible randomness.
//!
//! A game has one secret (or public) seed string. Every random choice is drawn
//! from a ChaCha20 stream derived from that seed, a purpose and an index:
//!
//! ```text
//! key(seed, purpose, index) = SHA-256("hatstand/rng/v1" ‖ SHA-256(seed) ‖ purpose ‖ 0x00 ‖ index as u64 little-endian)
//! ```
//!
//! Rulesets use the purpose `deal` with the round number (0-based) for the
//! shuffles and cuts of a round, so the deals of a game can be recomputed from
//! the revealed seed alone. Shuffles are Fisher–Yates from the last position
//! down, drawing each index with [`below`]; this module is the whole algorithm,
//! so an auditor can reimplement it in any language.

use rand::RngCore;
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use sha2::{Digest, Sha256};

/// The source of all randomness of one game.
#[derive(Clone)]
pub struct Randomness {
    seed_digest: [u8; 32],
}

impl Randomness {
    /// Randomness derived from a game's seed string.
    #[must_use]
    pub fn from_seed(seed: &str) -> Self {
        Randomness {
            seed_digest: Sha256::digest(seed.as_bytes()).into(),
        }
    }

    /// The ChaCha20 stream for `purpose` and `index` (for instance `("deal", round)`).
    #[must_use]
    pub fn stream(&self, purpose: &str, index: u64) -> ChaCha20Rng {
        let mut hasher = Sha256::new();
        hasher.update(b"hatstand/rng/v1");
        hasher.update(self.seed_digest);
        hasher.update(purpose.as_bytes());
        hasher.update([0u8]);
        hasher.update(index.to_le_bytes());
        ChaCha20Rng::from_seed(hasher.finalize().into())
    }
}

impl std::fmt::Debug for Randomness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Randomness(..)")
    }
}

/// The SHA-256 commitment to a seed, as hex: published when a game is created.
#[must_use]
pub fn seed_commitment(seed: &str) -> String {
    hex::encode(Sha256::digest(seed.as_bytes()))
}

/// A uniform integer in `0..n` (`n > 0`), by rejection sampling on 64-bit draws:
/// draws at or above the largest multiple of `n` are thrown away.
pub fn below(rng: &mut impl RngCore, n: usize) -> usize {
    let n64 = n.max(1) as u64;
    let zone = (u64::MAX / n64) * n64;
    loop {
        let x = rng.next_u64();
        if x < zone {
            // `x % n64 < n`, which fits in usize.
            return usize::try_from(x % n64).unwrap_or(0);
        }
    }
}

/// Shuffles `items` in place (Fisher–Yates, from the last position down).
pub fn shuffle<T>(items: &mut [T], rng: &mut impl RngCore) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i + 1);
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_shuffle() {
        let r = Randomness::from_seed("table 7");
        let mut a: Vec<u32> = (0..42).collect();
        let mut b = a.clone();
        shuffle(&mut a, &mut r.stream("deal", 0));
        shuffle(&mut b, &mut Randomness::from_seed("table 7").stream("deal", 0));
        assert_eq!(a, b);
        assert_ne!(a, (0..42).collect::<Vec<_>>());
    }

    #[test]
    fn streams_differ_by_purpose_index_and_seed() {
        let r = Randomness::from_seed("s");
        let draw = |mut g: ChaCha20Rng| g.next_u64();
        let base = draw(r.stream("deal", 0));
        assert_ne!(base, draw(r.stream("deal", 1)));
        assert_ne!(base, draw(r.stream("reshuffle", 0)));
        assert_ne!(base, draw(Randomness::from_seed("t").stream("deal", 0)));
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut g = Randomness::from_seed("x").stream("test", 0);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[below(&mut g, 7)] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800), "{seen:?}");
    }

    #[test]
    fn commitment_is_sha256_hex_of_the_seed() {
        assert_eq!(
            seed_commitment("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
