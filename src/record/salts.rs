//! Players' salts: how the seats of a game contribute to its shuffle.
//!
//! Under a rules version whose seats salt the shuffle
//! ([`hatstand_engine::RulesVersion::salted`]), and unless the creator made
//! the seed public, every `player_joined` carries the seat's salt: 32 bytes
//! written as 64 lowercase hex digits, sent by the player's client or made by
//! the server when the client sent none (then `salt_by_server` is true; bots'
//! seats always get one made). The salts are public from the start; the
//! server's seed, committed to in `game_created` before any salt was known,
//! is revealed by the audit. Every random draw of the game (deals,
//! reshuffles, autoplay's picks) comes from
//! [`hatstand_engine::random::deal_seed`] of the seed and the salts in seat
//! order, computed when the last seat fills. So the server cannot steer the
//! deal (its seed was fixed before the salts) and no player can (the seed
//! stays hidden until the end).
//!
//! A game with a public seed takes no salts: anyone can compute its deals
//! (that is what a public seed is for), and a salt would only let the last
//! to join choose among them.

use hatstand_engine::Randomness;
use hatstand_engine::random::{SALT_BYTES, deal_seed, parse_salt};

/// Whether a game under `rules` with a public seed or not takes salts.
#[must_use]
pub fn takes_salts(rules: hatstand_engine::Rules, seed_public: bool) -> bool {
    rules.salted() && !seed_public
}

/// A fresh salt made by the server: 32 random bytes from the operating
/// system, as hex.
#[must_use]
pub fn server_salt() -> String {
    let mut bytes = [0u8; SALT_BYTES];
    rand::fill(&mut bytes);
    hex::encode(bytes)
}

/// The randomness of a game: drawn from `seed` alone, or, when the game
/// takes salts, from the deal seed of `seed` and `salts` (one per seat, in
/// seat order).
///
/// # Errors
/// A seat without a salt, or a salt that is not 64 lowercase hex digits,
/// in a game that takes them; a salt in a game that takes none.
pub fn randomness(seed: &str, salted: bool, salts: &[Option<&str>]) -> Result<Randomness, String> {
    if !salted {
        if let Some(seat) = salts.iter().position(Option::is_some) {
            return Err(format!("seat {seat} has a salt, but the game takes none"));
        }
        return Ok(Randomness::from_seed(seed));
    }
    let bytes = salts
        .iter()
        .enumerate()
        .map(|(seat, salt)| {
            let salt = salt.ok_or_else(|| format!("seat {seat} has no salt"))?;
            parse_salt(salt)
                .ok_or_else(|| format!("seat {seat}'s salt is not 64 lowercase hex digits"))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Randomness::from_seed(&deal_seed(seed, &bytes)))
}

#[cfg(test)]
mod tests {
    use hatstand_engine::{GameKind, Rules};
    use rand::RngCore;

    use super::*;

    fn draw(r: &Randomness) -> u64 {
        r.stream("deal", 0).next_u64()
    }

    #[test]
    fn given_a_salted_game_when_its_randomness_is_made_then_it_is_the_deal_seeds() {
        let a = "11".repeat(32);
        let b = "22".repeat(32);
        let salted = randomness("s", true, &[Some(&a), Some(&b)]).unwrap();
        let expected = Randomness::from_seed(&deal_seed("s", &[[0x11; 32], [0x22; 32]]));
        assert_eq!(draw(&salted), draw(&expected));
        assert_ne!(draw(&salted), draw(&Randomness::from_seed("s")));
        let other = randomness("s", true, &[Some(&b), Some(&a)]).unwrap();
        assert_ne!(draw(&salted), draw(&other));
    }

    #[test]
    fn given_missing_or_misplaced_salts_when_the_randomness_is_made_then_it_is_refused() {
        let a = "11".repeat(32);
        assert!(randomness("s", true, &[Some(&a), None]).is_err());
        assert!(randomness("s", true, &[Some(&a), Some("11")]).is_err());
        assert!(randomness("s", false, &[Some(&a), None]).is_err());
        let plain = randomness("s", false, &[None, None]).unwrap();
        assert_eq!(draw(&plain), draw(&Randomness::from_seed("s")));
    }

    #[test]
    fn given_server_salts_when_made_then_they_parse_and_differ() {
        let (a, b) = (server_salt(), server_salt());
        assert!(parse_salt(&a).is_some());
        assert_ne!(a, b);
    }

    #[test]
    fn a_public_seed_or_an_old_version_takes_no_salts() {
        let new = Rules::newest(GameKind::Hats);
        assert!(takes_salts(new, false));
        assert!(!takes_salts(new, true));
        assert!(!takes_salts(Rules::of(GameKind::Hats, 1).unwrap(), false));
    }
}
