//! A tournament's record: its own hash-chained log, as a game's.
//!
//! Each event is `{"type", "data"}` and is chained exactly as a game's
//! events are (`record::chain`: `SHA-256(prev_hash ‖ canonical JSON of
//! {actor, at, command: null, data, seq, type})`, 64 zeros before the
//! first), so the same check ([`crate::record::verify::check_chain`])
//! holds a tournament file to its chain. The events, in the order written:
//!
//! - `tournament_created`: the organiser's settings and the seed's
//!   commitment (never the seed);
//! - `registered`, `withdrew`: a player joining or leaving before the start;
//! - `started`: the field in seed order (entrant `i` is `entrants[i]`) and
//!   the ratings it was seeded by;
//! - `round_paired`: a round's tables (seat order) and byes, by entrant;
//! - `table_created`: a table's game id;
//! - `table_finished`: a table's game result (null for a game abandoned
//!   without one) and each seat's points, all of a round's tables at once
//!   when its last game ends;
//! - `round_scored`: the standings after a round;
//! - `tournament_finished`: the final standings and the seed, revealed;
//! - `cancelled`: too few players at the start (instead of `started`).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

use super::Entrant;
use super::points::Points;
use super::standings::Standing;
use crate::record::chain::{Actor, Chain};

/// One event of a tournament's record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
pub enum TournamentEvent {
    TournamentCreated {
        organiser: Uuid,
        name: String,
        ruleset: String,
        /// The games' options as anyone may see them.
        options: Value,
        table_size: u8,
        format: String,
        rounds: u32,
        duplicate: bool,
        seed_commitment: String,
    },
    Registered {
        user_id: Uuid,
    },
    Withdrew {
        user_id: Uuid,
    },
    Started {
        entrants: Vec<Uuid>,
        /// Each entrant's rating when the field was seeded (the ruleset's
        /// at the table size, or the starting rating), in seed order: the
        /// field is seeded by rating, highest first, then by registration.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        ratings: Vec<f64>,
    },
    RoundPaired {
        round: u32,
        tables: Vec<Vec<Entrant>>,
        byes: Vec<Entrant>,
    },
    TableCreated {
        round: u32,
        table: u32,
        game_id: Uuid,
    },
    TableFinished {
        round: u32,
        table: u32,
        game_id: Uuid,
        result: Value,
        points: Vec<Points>,
    },
    RoundScored {
        round: u32,
        standings: Vec<Standing>,
    },
    TournamentFinished {
        standings: Vec<Standing>,
        seed: String,
    },
    /// Too few players when it was due to start: nothing is played, and
    /// the seed is revealed.
    Cancelled {
        registered: u32,
        seed: String,
    },
}

impl TournamentEvent {
    /// The event's `type` and `data`, as the chain hashes them.
    ///
    /// # Errors
    /// Only if serialization fails (these types always serialize).
    pub fn to_parts(&self) -> Result<(String, Value), serde_json::Error> {
        let mut value = serde_json::to_value(self)?;
        let kind = value
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let data = value
            .get_mut("data")
            .map(Value::take)
            .unwrap_or(Value::Null);
        Ok((kind, data))
    }

    /// The event read back from its `type` and `data`.
    ///
    /// # Errors
    /// When they are not a tournament event.
    pub fn from_parts(kind: &str, data: &Value) -> Result<Self, serde_json::Error> {
        serde_json::from_value(serde_json::json!({"type": kind, "data": data}))
    }

    /// Appends this event to `chain`.
    ///
    /// # Errors
    /// Only if serialization fails.
    pub fn push_to(&self, chain: &mut Chain, actor: Actor) -> Result<(), serde_json::Error> {
        let (kind, data) = self.to_parts()?;
        chain.push(&kind, data, actor, None);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::chain::{GENESIS_HASH, now};
    use crate::record::verify::check_chain;
    use crate::tournaments::duplicate::commitment;

    fn created() -> TournamentEvent {
        TournamentEvent::TournamentCreated {
            organiser: Uuid::nil(),
            name: "t".to_owned(),
            ruleset: "hats".to_owned(),
            options: serde_json::json!({}),
            table_size: 2,
            format: "swiss".to_owned(),
            rounds: 3,
            duplicate: true,
            seed_commitment: commitment("seed"),
        }
    }

    #[test]
    fn given_events_then_they_round_trip_through_type_and_data() {
        let events = vec![
            created(),
            TournamentEvent::Registered {
                user_id: Uuid::nil(),
            },
            TournamentEvent::RoundPaired {
                round: 0,
                tables: vec![vec![0, 1]],
                byes: vec![2],
            },
            TournamentEvent::TableFinished {
                round: 0,
                table: 0,
                game_id: Uuid::nil(),
                result: serde_json::json!({"scores": [1, 0]}),
                points: vec![Points::ROUND, Points(0)],
            },
        ];
        for event in events {
            let (kind, data) = event.to_parts().unwrap();
            assert_eq!(TournamentEvent::from_parts(&kind, &data).unwrap(), event);
        }
        let (kind, data) = created().to_parts().unwrap();
        assert_eq!(kind, "tournament_created");
        assert_eq!(data["seed_commitment"], commitment("seed"));
    }

    #[test]
    fn given_a_record_then_its_chain_checks_and_an_altered_event_breaks_it() {
        let mut chain = Chain::after(0, GENESIS_HASH, now());
        created().push_to(&mut chain, Actor::SYSTEM).unwrap();
        TournamentEvent::Registered {
            user_id: Uuid::nil(),
        }
        .push_to(&mut chain, Actor::SYSTEM)
        .unwrap();
        assert_eq!(check_chain(&chain.events), Ok(()));
        let mut altered = chain.events.clone();
        altered[0].data["rounds"] = serde_json::json!(4);
        assert!(check_chain(&altered).unwrap_err().contains("altered"));
    }
}
