//! Duplicate deals: every table of a round plays the same cards, drawn from
//! the tournament's own seed.
//!
//! Rules:
//! - the tournament has one secret seed; its **commitment**,
//!   `hex(SHA-256(seed))` (as a game commits to its seed), is published when
//!   the tournament is created, and the seed is revealed when it ends;
//! - round `r` (0-based) has its own **round seed**:
//!   `hex(SHA-256("hatstand/tournament/round/v1" ‖ 0x00 ‖ seed ‖ 0x00 ‖ r as u32 big-endian))`;
//! - the round's **deals** are those a game without explicit deals would deal
//!   from the round seed (the engine's `Deal::drawn`: the `deal` stream of
//!   each of the game's rounds): Hats one deal, Goathead one per round of the
//!   match (`rounds` of the options, 15 by default), Hat Trick one per deal
//!   of the match (`rounds` of the options, one per player by default), each
//!   drawn for the table's size and options (deck, `no_joker`, the dealer of
//!   that deal, the trump indicator or none by the cycle);
//! - every table of the round gets those deals as its options' explicit
//!   `deals`, the same hand in the same seat, so that [`super::matchpoints`]
//!   compares like with like; games show only their count.
//!
//! Top Hats has no duplicate mode (it is not a card game).

use hatstand_engine::random::Randomness;
use hatstand_engine::{GameKind, goathead, hat_trick, hats};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// Why a round's deals cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoDeals {
    /// The ruleset has no duplicate mode.
    Ruleset(GameKind),
    /// The options are not the ruleset's (the message says why).
    Options(String),
}

/// The commitment to a tournament's seed: `hex(SHA-256(seed))`.
#[must_use]
pub fn commitment(seed: &str) -> String {
    hatstand_engine::random::seed_commitment(seed)
}

/// Whether `seed` is the one `commitment` committed to.
#[must_use]
pub fn opens(commitment_hex: &str, seed: &str) -> bool {
    commitment(seed) == commitment_hex
}

/// The seed of round `round` (0-based) of the tournament seeded `seed`.
#[must_use]
pub fn round_seed(seed: &str, round: u32) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"hatstand/tournament/round/v1");
    hasher.update([0u8]);
    hasher.update(seed.as_bytes());
    hasher.update([0u8]);
    hasher.update(round.to_be_bytes());
    hex::encode(hasher.finalize())
}

/// Whether `kind` has a duplicate mode.
#[must_use]
pub fn supports(kind: GameKind) -> bool {
    matches!(
        kind,
        GameKind::Hats | GameKind::Goathead | GameKind::HatTrick
    )
}

/// The deals of a round (as the options' `deals` list) for a `players`-seat
/// game of `kind` with `options`, drawn from `round_seed`.
///
/// # Errors
/// [`NoDeals`] for a ruleset without duplicate mode, or options it cannot read.
pub fn deals(
    kind: GameKind,
    options: &Value,
    players: usize,
    round_seed: &str,
) -> Result<Value, NoDeals> {
    let rng = Randomness::from_seed(round_seed);
    let drawn = match kind {
        GameKind::Hats => serde_json::to_value(vec![hats::Deal::drawn(players, &rng)]),
        GameKind::Goathead => {
            let options: goathead::GoatheadOptions = serde_json::from_value(options.clone())
                .map_err(|e| NoDeals::Options(e.to_string()))?;
            serde_json::to_value(
                (0..options.rounds)
                    .map(|r| goathead::Deal::drawn(players, r, &rng))
                    .collect::<Vec<_>>(),
            )
        }
        GameKind::HatTrick => {
            let options: hat_trick::HatTrickOptions = serde_json::from_value(options.clone())
                .map_err(|e| NoDeals::Options(e.to_string()))?;
            serde_json::to_value(
                (0..options.round_count(players))
                    .map(|r| hat_trick::options::Deal::drawn(&options, players, r, &rng))
                    .collect::<Vec<_>>(),
            )
        }
        other => return Err(NoDeals::Ruleset(other)),
    };
    drawn.map_err(|e| NoDeals::Options(e.to_string()))
}

/// How many deals a `players`-seat table of `kind` with `options` is given
/// in duplicate mode (what [`deals`] draws): Hats 1, Goathead `rounds`,
/// Hat Trick `rounds` (one per player by default).
///
/// # Errors
/// [`NoDeals`] for a ruleset without duplicate mode, or options it cannot read.
pub fn deal_count(kind: GameKind, options: &Value, players: usize) -> Result<usize, NoDeals> {
    let read = |e: serde_json::Error| NoDeals::Options(e.to_string());
    match kind {
        GameKind::Hats => Ok(1),
        GameKind::Goathead => {
            let options: goathead::GoatheadOptions =
                serde_json::from_value(options.clone()).map_err(read)?;
            Ok(usize::from(options.rounds))
        }
        GameKind::HatTrick => {
            let options: hat_trick::HatTrickOptions =
                serde_json::from_value(options.clone()).map_err(read)?;
            Ok(usize::from(options.round_count(players)))
        }
        other => Err(NoDeals::Ruleset(other)),
    }
}

/// `options` with `deals` as their explicit deals (any given before replaced).
#[must_use]
pub fn with_deals(options: &Value, deals: Value) -> Value {
    let mut map = match options {
        Value::Object(map) => map.clone(),
        _ => Map::new(),
    };
    map.insert("deals".to_owned(), deals);
    Value::Object(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hatstand_engine::Ruleset;
    use hatstand_engine::goathead::{Goathead, GoatheadEvent};
    use hatstand_engine::hat_trick::HatTrick;
    use hatstand_engine::hat_trick::events::HatTrickEvent;
    use hatstand_engine::hats::{Hats, HatsEvent};
    use serde_json::json;

    #[test]
    fn given_a_seed_then_its_commitment_opens_with_it_and_no_other() {
        let c = commitment("tournament seed");
        assert_eq!(c.len(), 64);
        assert!(opens(&c, "tournament seed"));
        assert!(!opens(&c, "tournament seed "));
    }

    #[test]
    fn given_a_seed_then_each_round_has_its_own_fixed_seed() {
        assert_eq!(round_seed("s", 0), round_seed("s", 0));
        assert_ne!(round_seed("s", 0), round_seed("s", 1));
        assert_ne!(round_seed("s", 0), round_seed("t", 0));
        // Fixed forever: verify recomputes it from the revealed seed.
        assert_eq!(
            round_seed("s", 0),
            hex::encode(Sha256::digest(b"hatstand/tournament/round/v1\0s\0\0\0\0\0"))
        );
    }

    #[test]
    fn given_a_round_seed_then_hats_tables_deal_what_a_game_of_that_seed_would() {
        let seed = round_seed("the tournament", 2);
        let deals = deals(GameKind::Hats, &json!({}), 3, &seed).unwrap();
        let options = with_deals(&json!({"first_seat": 1}), deals.clone());
        assert_eq!(options["first_seat"], 1);
        let given: hats::HatsOptions = serde_json::from_value(options).unwrap();
        // The table given these deals opens as a game dealt from the round seed.
        let table = Hats::new_game(3, given).unwrap();
        let shuffled = Hats::new_game(3, hats::HatsOptions::default()).unwrap();
        let opened = Hats::start(&table, &Randomness::from_seed("any table seed"));
        let dealt = Hats::start(&shuffled, &Randomness::from_seed(&seed));
        assert_eq!(opened, dealt);
        assert!(matches!(opened[0], HatsEvent::Dealt { .. }));
        // Another round deals other cards.
        let other = super::deals(
            GameKind::Hats,
            &json!({}),
            3,
            &round_seed("the tournament", 3),
        );
        assert_ne!(other.unwrap(), deals);
    }

    #[test]
    fn given_a_round_seed_then_goathead_tables_get_one_deal_per_round_of_the_match() {
        let seed = round_seed("t", 0);
        let deals = deals(GameKind::Goathead, &json!({"rounds": 3}), 4, &seed).unwrap();
        assert_eq!(deals.as_array().unwrap().len(), 3);
        let options: goathead::GoatheadOptions =
            serde_json::from_value(with_deals(&json!({"rounds": 3}), deals)).unwrap();
        let table = Goathead::new_game(4, options).unwrap();
        let shuffled = Goathead::new_game(
            4,
            goathead::GoatheadOptions {
                rounds: 3,
                deals: Vec::new(),
            },
        )
        .unwrap();
        let opened = Goathead::start(&table, &Randomness::from_seed("another"));
        let dealt = Goathead::start(&shuffled, &Randomness::from_seed(&seed));
        assert_eq!(opened, dealt);
        assert!(matches!(opened[0], GoatheadEvent::Dealt { .. }));
        // Default options: fifteen deals.
        let fifteen = super::deals(GameKind::Goathead, &json!({}), 3, &seed).unwrap();
        assert_eq!(fifteen.as_array().unwrap().len(), 15);
        assert_eq!(deal_count(GameKind::Goathead, &json!({}), 3), Ok(15));
        assert_eq!(deal_count(GameKind::Hats, &json!({}), 3), Ok(1));
    }

    #[test]
    fn given_a_round_seed_then_hat_trick_tables_get_one_deal_per_deal_of_the_match() {
        let seed = round_seed("t", 1);
        let settings = json!({"rounds": 3, "no_joker": true});
        let deals = deals(GameKind::HatTrick, &settings, 4, &seed).unwrap();
        assert_eq!(deals.as_array().unwrap().len(), 3);
        let options: hat_trick::HatTrickOptions =
            serde_json::from_value(with_deals(&settings, deals.clone())).unwrap();
        let table = HatTrick::new_game(4, options).unwrap();
        let shuffled = HatTrick::new_game(
            4,
            hat_trick::HatTrickOptions {
                rounds: Some(3),
                no_joker: true,
                ..hat_trick::HatTrickOptions::default()
            },
        )
        .unwrap();
        // The table given these deals opens as a game dealt from the round seed.
        let opened = HatTrick::start(&table, &Randomness::from_seed("another"));
        let dealt = HatTrick::start(&shuffled, &Randomness::from_seed(&seed));
        assert_eq!(opened, dealt);
        assert!(matches!(opened[0], HatTrickEvent::Dealt(_)));
        // Default options: one deal per player, drawn for the table's size.
        let five = super::deals(GameKind::HatTrick, &json!({}), 5, &seed).unwrap();
        assert_eq!(five.as_array().unwrap().len(), 5);
        assert_eq!(deal_count(GameKind::HatTrick, &json!({}), 5), Ok(5));
        assert_eq!(deal_count(GameKind::HatTrick, &settings, 4), Ok(3));
        assert_eq!(five[0]["hands"].as_array().unwrap().len(), 5);
        // Another round deals other cards.
        let other = super::deals(GameKind::HatTrick, &settings, 4, &round_seed("t", 2));
        assert_ne!(other.unwrap(), deals);
        assert!(supports(GameKind::HatTrick));
    }

    #[test]
    fn given_a_ruleset_without_duplicate_mode_or_bad_options_then_no_deals() {
        assert!(!supports(GameKind::TopHats));
        assert_eq!(
            deals(GameKind::TopHats, &json!({}), 2, "s"),
            Err(NoDeals::Ruleset(GameKind::TopHats))
        );
        assert!(matches!(
            deals(GameKind::Goathead, &json!({"rounds": "many"}), 4, "s"),
            Err(NoDeals::Options(_))
        ));
        assert!(matches!(
            deals(GameKind::HatTrick, &json!({"trumps": "cut"}), 4, "s"),
            Err(NoDeals::Options(_))
        ));
    }
}
