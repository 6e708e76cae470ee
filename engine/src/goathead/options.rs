//! The options of a match: its length and explicit deals.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::cards::{Card, CardSet, DECK_SIZE};
use crate::random::{Randomness, shuffle};
use crate::ruleset::OptionsError;

/// Rounds in a match unless the options say otherwise.
pub const DEFAULT_ROUNDS: u8 = 15;
/// Most rounds a match may have.
pub const MAX_ROUNDS: u8 = 100;

/// The options of a Goathead match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct GoatheadOptions {
    /// Rounds in the match (1–100, default 15).
    #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 100))]
    pub rounds: u8,
    /// Explicit deals: `deals[r]` is dealt in round `r`; later rounds are shuffled.
    pub deals: Vec<Deal>,
}

impl Default for GoatheadOptions {
    fn default() -> Self {
        GoatheadOptions {
            rounds: DEFAULT_ROUNDS,
            deals: Vec::new(),
        }
    }
}

/// One explicit deal: a hand per seat and the kitty.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = GoatheadDeal))]
#[serde(deny_unknown_fields)]
pub struct Deal {
    /// The cards of each seat, seat 0 first.
    pub hands: Vec<Vec<Card>>,
    /// The kitty.
    pub kitty: Vec<Card>,
}

impl Deal {
    /// The deal of round `round` drawn from `rng` for `players`, as a match
    /// without explicit deals deals it: the deck in index order shuffled with
    /// the `deal` stream of the round, seat 0 taking the first hand's worth of
    /// cards, seat 1 the next, ..., the kitty the rest. A duplicate tournament
    /// gives every table of a round the deals drawn from the round's seed.
    #[must_use]
    pub fn drawn(players: usize, round: u8, rng: &Randomness) -> Deal {
        let mut deck: Vec<Card> = Card::all().collect();
        shuffle(&mut deck, &mut rng.stream("deal", u64::from(round)));
        let size = hand_size(players);
        Deal {
            hands: deck
                .chunks(size)
                .take(players)
                .map(<[Card]>::to_vec)
                .collect(),
            kitty: deck[players * size..DECK_SIZE].to_vec(),
        }
    }
}

/// Cards per hand with `players` players: 6 with three, 4 with four.
#[must_use]
pub fn hand_size(players: usize) -> usize {
    if players == 3 { 6 } else { 4 }
}

/// Cards in the kitty with `players` players: 2 with three, 4 with four.
#[must_use]
pub fn kitty_size(players: usize) -> usize {
    DECK_SIZE - players * hand_size(players)
}

impl GoatheadOptions {
    /// Checks the options for a table of `players`: 3 or 4 seats, 1–100 rounds,
    /// at most one deal per round, each deal the whole deck once with the right sizes.
    ///
    /// # Errors
    /// Why these options cannot be played.
    pub fn validate(&self, players: usize) -> Result<(), OptionsError> {
        if !(3..=4).contains(&players) {
            return Err(OptionsError::new("Goathead is played by 3 or 4 players"));
        }
        if !(1..=MAX_ROUNDS).contains(&self.rounds) {
            return Err(OptionsError::new("rounds must be between 1 and 100"));
        }
        if self.deals.len() > usize::from(self.rounds) {
            return Err(OptionsError::new("more deals than rounds"));
        }
        for (r, deal) in self.deals.iter().enumerate() {
            deal.validate(players)
                .map_err(|e| OptionsError::new(format!("deal {r}: {e}")))?;
        }
        Ok(())
    }
}

impl Deal {
    /// Checks one deal: a hand of the right size per seat, the kitty, every card once.
    ///
    /// # Errors
    /// What is wrong with the deal.
    pub fn validate(&self, players: usize) -> Result<(), String> {
        if self.hands.len() != players {
            return Err(format!("{} hands for {players} players", self.hands.len()));
        }
        let size = hand_size(players);
        if let Some((s, hand)) = self.hands.iter().enumerate().find(|(_, h)| h.len() != size) {
            return Err(format!("seat {s} has {} cards, not {size}", hand.len()));
        }
        if self.kitty.len() != kitty_size(players) {
            return Err(format!(
                "the kitty has {} cards, not {}",
                self.kitty.len(),
                kitty_size(players)
            ));
        }
        let all: Vec<Card> = self
            .hands
            .iter()
            .flatten()
            .chain(&self.kitty)
            .copied()
            .collect();
        if CardSet::of(all.iter().copied()) != CardSet::deck() || all.len() != DECK_SIZE {
            return Err("the deal must hold each of the 20 cards exactly once".into());
        }
        Ok(())
    }
}

/// The JSON schema of the options.
#[must_use]
pub fn schema() -> serde_json::Value {
    let card = json!({
        "type": "string",
        "enum": Card::all().map(|c| c.to_string()).collect::<Vec<_>>(),
    });
    json!({
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "rounds": {
                "type": "integer", "minimum": 1, "maximum": MAX_ROUNDS, "default": DEFAULT_ROUNDS,
                "description": "Rounds in the match; the dealer moves left each round."
            },
            "deals": {
                "type": "array",
                "default": [],
                "description": "Explicit deals: deals[r] is used for round r (3 players: 6 cards per hand and 2 in the kitty; 4 players: 4 and 4).",
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["hands", "kitty"],
                    "properties": {
                        "hands": {"type": "array", "items": {"type": "array", "items": card}},
                        "kitty": {"type": "array", "items": card}
                    }
                }
            }
        }
    })
}
