//! The options of a game of Hats and the explicit deal.

use serde::{Deserialize, Serialize};

use super::cards::{Card, HAND_SIZE, cards_in_play, line_length};
use crate::random::{Randomness, shuffle};
use crate::ruleset::OptionsError;

/// The options of a game of Hats.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct HatsOptions {
    /// The seat that starts (instead of "who most recently ate a cookie");
    /// seat 0 by default; below the number of players.
    #[cfg_attr(feature = "schema", schema(maximum = 3))]
    pub first_seat: u8,
    /// Explicit deals: `deals[0]` is the deal of the game's one round. Empty:
    /// the cards are shuffled from the game's seed.
    pub deals: Vec<Deal>,
}

/// An explicit deal: together exactly the cards in play, each once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HatsDeal))]
#[serde(deny_unknown_fields)]
pub struct Deal {
    /// The tea table line, position 1 first (5 cards with 2 players, 6 otherwise).
    pub line: Vec<Card>,
    /// Nine cards per seat.
    pub hands: Vec<Vec<Card>>,
    /// The rest, top of the deck first.
    pub deck: Vec<Card>,
}

impl Deal {
    /// The deal drawn from `rng` for `players`, as a game without explicit
    /// deals deals it: the cards in play shuffled with the `deal` stream of
    /// round 0, then the line (positions 1…), nine cards per seat in seat
    /// order, the rest the deck. A duplicate tournament gives every table of a
    /// round the deal drawn from the round's seed.
    #[must_use]
    pub fn drawn(players: usize, rng: &Randomness) -> Deal {
        let mut cards: Vec<Card> = cards_in_play(players).collect();
        shuffle(&mut cards, &mut rng.stream("deal", 0));
        let length = line_length(players);
        let line = cards[..length].to_vec();
        let hands = (0..players)
            .map(|s| {
                let from = length + s * HAND_SIZE;
                cards[from..from + HAND_SIZE].to_vec()
            })
            .collect();
        let deck = cards[length + players * HAND_SIZE..].to_vec();
        Deal { line, hands, deck }
    }

    /// Checks that this deal can be played by `players`: the line's length,
    /// nine cards per seat, and exactly the cards in play, each once.
    ///
    /// # Errors
    /// What is wrong with the deal.
    pub fn validate(&self, players: usize) -> Result<(), OptionsError> {
        let length = line_length(players);
        if self.line.len() != length {
            return Err(OptionsError::new(format!(
                "the line of a {players}-player deal has {length} cards, not {}",
                self.line.len()
            )));
        }
        if self.hands.len() != players {
            return Err(OptionsError::new(format!(
                "a {players}-player deal has {players} hands, not {}",
                self.hands.len()
            )));
        }
        if let Some((seat, hand)) = self
            .hands
            .iter()
            .enumerate()
            .find(|(_, h)| h.len() != HAND_SIZE)
        {
            return Err(OptionsError::new(format!(
                "hand {seat} has {} cards, not {HAND_SIZE}",
                hand.len()
            )));
        }
        let mut seen = [false; Card::ALL_COUNT];
        let all = self
            .line
            .iter()
            .chain(self.hands.iter().flatten())
            .chain(&self.deck);
        for &card in all {
            if seen[card.index()] {
                return Err(OptionsError::new(format!("card {card} is dealt twice")));
            }
            seen[card.index()] = true;
        }
        let in_play: Vec<Card> = cards_in_play(players).collect();
        if let Some(card) = (0..Card::ALL_COUNT)
            .map(Card::from_index)
            .find(|c| seen[c.index()] && !in_play.contains(c))
        {
            return Err(OptionsError::new(format!(
                "card {card} is not in play with {players} players"
            )));
        }
        if let Some(card) = in_play.iter().find(|c| !seen[c.index()]) {
            return Err(OptionsError::new(format!(
                "card {card} is missing from the deal"
            )));
        }
        Ok(())
    }
}

impl HatsOptions {
    /// Checks the options against the number of players.
    ///
    /// # Errors
    /// What cannot be played.
    pub fn validate(&self, players: usize) -> Result<(), OptionsError> {
        if !(2..=4).contains(&players) {
            return Err(OptionsError::new(format!(
                "Hats is played by 2 to 4 players, not {players}"
            )));
        }
        if usize::from(self.first_seat) >= players {
            return Err(OptionsError::new(format!(
                "first_seat {} is not a seat of a {players}-player game",
                self.first_seat
            )));
        }
        if self.deals.len() > 1 {
            return Err(OptionsError::new(format!(
                "Hats has one round, so at most one deal, not {}",
                self.deals.len()
            )));
        }
        for deal in &self.deals {
            deal.validate(players)?;
        }
        Ok(())
    }
}

/// The JSON schema of [`HatsOptions`].
#[must_use]
pub fn schema() -> serde_json::Value {
    let card = serde_json::json!({
        "type": "string",
        "pattern": "^[TSHCDFW][1-6]$",
        "description": "a hat card: type letter (T star, S spade, H heart, C club, D diamond, F flower, W helm) and number"
    });
    serde_json::json!({
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "first_seat": {
                "type": "integer",
                "minimum": 0,
                "maximum": 3,
                "default": 0,
                "description": "the seat that starts"
            },
            "deals": {
                "type": "array",
                "maxItems": 1,
                "default": [],
                "description": "an explicit deal for the game's one round (hidden from players)",
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["line", "hands", "deck"],
                    "properties": {
                        "line": {
                            "type": "array", "items": card, "minItems": 5, "maxItems": 6,
                            "description": "the tea table line, position 1 first"
                        },
                        "hands": {
                            "type": "array", "minItems": 2, "maxItems": 4,
                            "items": { "type": "array", "items": card, "minItems": 9, "maxItems": 9 },
                            "description": "nine cards per seat"
                        },
                        "deck": {
                            "type": "array", "items": card,
                            "description": "the remaining cards, top first"
                        }
                    }
                }
            }
        }
    })
}
