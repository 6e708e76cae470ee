//! Seeded, reproducible randomness.
//!
//! A game has one secret (or public) seed string. Every random choice is drawn
//! from a ChaCha20 stream derived from that seed, a purpose and an index:
//!
//! ```text
//! key(seed, purpose, index) = SHA-256("hatstand/rng/v1" ‖ SHA-256(seed) ‖ purpose ‖ 0x00 ‖ index as u64 little-endian)
//! ```
//!
//! Under rules versions whose seats salt the shuffle (see
//! [`crate::RulesVersion::salted`]) the seed string the streams are derived
//! from is not the server's seed but the game's *deal seed*, [`deal_seed`]:
//!
//! ```text
//! deal_seed = hex(SHA-256("hatstand/deal-seed/v1" ‖ 0x00 ‖ len(seed) as u32 big-endian ‖ seed
//!                         ‖ number of seats as one byte ‖ salt of seat 0 ‖ … ‖ salt of seat n−1))
//! ```
//!
//! where `seed` is the server's seed's UTF-8 bytes and each salt is its 32
//! bytes (sent as 64 lowercase hex digits). The server commits to its seed
//! before any salt is known, and the salts are public while the seed stays
//! secret: so neither the server nor any player can choose the deal.
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

/// The length in bytes of a seat's salt.
pub const SALT_BYTES: usize = 32;

/// A seat's salt read from its text form: exactly 64 lowercase hex digits
/// (32 bytes); `None` for anything else.
#[must_use]
pub fn parse_salt(text: &str) -> Option<[u8; SALT_BYTES]> {
    if text.len() != 2 * SALT_BYTES || !text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        return None;
    }
    let mut salt = [0u8; SALT_BYTES];
    hex::decode_to_slice(text, &mut salt).ok()?;
    Some(salt)
}

/// The deal seed of a salted game: the hash of the server's seed and every
/// seat's salt in seat order (see the module documentation), as hex. The
/// game's randomness is [`Randomness::from_seed`] of it.
#[must_use]
pub fn deal_seed(seed: &str, salts: &[[u8; SALT_BYTES]]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"hatstand/deal-seed/v1\0");
    let len = u32::try_from(seed.len()).unwrap_or(u32::MAX);
    hasher.update(len.to_be_bytes());
    hasher.update(seed.as_bytes());
    hasher.update([u8::try_from(salts.len()).unwrap_or(u8::MAX)]);
    for salt in salts {
        hasher.update(salt);
    }
    hex::encode(hasher.finalize())
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
        shuffle(
            &mut b,
            &mut Randomness::from_seed("table 7").stream("deal", 0),
        );
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
    fn given_salts_when_the_deal_seed_is_computed_then_every_salt_and_its_seat_count() {
        let a = [1u8; SALT_BYTES];
        let b = [2u8; SALT_BYTES];
        let base = deal_seed("server", &[a, b]);
        assert_eq!(base.len(), 64);
        assert_eq!(base, deal_seed("server", &[a, b]), "deterministic");
        assert_ne!(base, deal_seed("server", &[b, a]), "seat order counts");
        assert_ne!(base, deal_seed("server", &[a, a]), "every salt counts");
        assert_ne!(base, deal_seed("server!", &[a, b]), "the seed counts");
        assert_ne!(
            base,
            deal_seed("server", &[a]),
            "the number of seats counts"
        );
        assert_ne!(
            base,
            seed_commitment("server"),
            "the commitment alone does not give it"
        );
        // The published construction, byte for byte.
        let mut bytes = b"hatstand/deal-seed/v1\0".to_vec();
        bytes.extend(6u32.to_be_bytes());
        bytes.extend(b"server");
        bytes.push(2);
        bytes.extend(a);
        bytes.extend(b);
        assert_eq!(base, hex::encode(Sha256::digest(&bytes)));
    }

    #[test]
    fn given_salt_texts_when_parsed_then_only_64_lowercase_hex_digits_are_salts() {
        let good = "0f".repeat(32);
        assert_eq!(parse_salt(&good), Some([0x0f; SALT_BYTES]));
        for bad in [
            String::new(),
            "0f".repeat(31),
            "0f".repeat(33),
            "0F".repeat(32),
            format!("{}zz", "0f".repeat(31)),
            format!("{} ", &"0f".repeat(32)[1..]),
            "é".repeat(32),
        ] {
            assert_eq!(parse_salt(&bad), None, "{bad:?}");
        }
    }

    #[test]
    fn commitment_is_sha256_hex_of_the_seed() {
        assert_eq!(
            seed_commitment("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
