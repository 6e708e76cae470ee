//! A tournament as its record tells it: the events folded, in order, into
//! where it stands. The round worker reads this to decide its next step and
//! `verify` to recompute every step; neither trusts anything else.

use serde_json::Value;
use uuid::Uuid;

use super::pairing::Pairing;
use super::points::Points;
use super::record::TournamentEvent;
use super::settings::Format;
use super::standings::{PlayedRound, PlayedTable, Standing};

/// What `tournament_created` fixed.
#[derive(Clone, Debug, PartialEq)]
pub struct Created {
    pub organiser: Uuid,
    pub ruleset: String,
    pub options: Value,
    pub table_size: usize,
    pub format: Format,
    pub rounds: usize,
    pub duplicate: bool,
    pub seed_commitment: String,
}

/// One table of a round.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub game_id: Option<Uuid>,
    /// The game's result and each seat's points, once the round is scored.
    pub finished: Option<(Value, Vec<Points>)>,
}

/// One round, from its pairing on.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Round {
    pub pairing: Pairing,
    pub tables: Vec<Table>,
    /// The standings after it, once scored.
    pub standings: Option<Vec<Standing>>,
}

/// Where a tournament stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed {
    pub created: Created,
    /// The players registered now (before the start), earliest first.
    pub registered: Vec<Uuid>,
    /// The field in seed order, once started.
    pub entrants: Option<Vec<Uuid>>,
    pub rounds: Vec<Round>,
    /// The final standings, once finished.
    pub standings: Option<Vec<Standing>>,
    /// The seed, once revealed (finished or cancelled).
    pub seed: Option<String>,
    pub cancelled: bool,
}

impl Replayed {
    /// The rounds scored so far, as [`super::standings`] and
    /// [`super::schedule`] read them.
    #[must_use]
    pub fn played(&self) -> Vec<PlayedRound> {
        self.rounds
            .iter()
            .take_while(|r| r.standings.is_some())
            .map(|r| PlayedRound {
                tables: r
                    .pairing
                    .tables
                    .iter()
                    .zip(&r.tables)
                    .map(|(seats, t)| PlayedTable {
                        seats: seats.clone(),
                        points: t
                            .finished
                            .as_ref()
                            .map(|(_, p)| p.clone())
                            .unwrap_or_default(),
                    })
                    .collect(),
                byes: r.pairing.byes.clone(),
            })
            .collect()
    }

    /// Whether every round paired so far is scored.
    #[must_use]
    pub fn between_rounds(&self) -> bool {
        self.rounds.iter().all(|r| r.standings.is_some())
    }
}

/// Why a record cannot be folded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Broken(pub String);

fn broken(at: usize, why: impl std::fmt::Display) -> Broken {
    Broken(format!("event {}: {why}", at + 1))
}

/// Folds the record `events`, in order.
///
/// # Errors
/// When an event comes out of its place (a round paired twice, a table of
/// an unknown round, anything before `tournament_created`, …).
pub fn replay(events: &[TournamentEvent]) -> Result<Replayed, Broken> {
    let Some(TournamentEvent::TournamentCreated {
        organiser,
        ruleset,
        options,
        table_size,
        format,
        rounds,
        duplicate,
        seed_commitment,
        ..
    }) = events.first()
    else {
        return Err(broken(0, "a record begins with tournament_created"));
    };
    let mut t = Replayed {
        created: Created {
            organiser: *organiser,
            ruleset: ruleset.clone(),
            options: options.clone(),
            table_size: usize::from(*table_size),
            format: Format::parse(format).ok_or_else(|| broken(0, "an unknown format"))?,
            rounds: *rounds as usize,
            duplicate: *duplicate,
            seed_commitment: seed_commitment.clone(),
        },
        registered: Vec::new(),
        entrants: None,
        rounds: Vec::new(),
        standings: None,
        seed: None,
        cancelled: false,
    };
    for (at, event) in events.iter().enumerate().skip(1) {
        if t.seed.is_some() {
            return Err(broken(at, "an event after the tournament ended"));
        }
        let started = t.entrants.is_some();
        match event {
            TournamentEvent::TournamentCreated { .. } => {
                return Err(broken(at, "a second tournament_created"));
            }
            TournamentEvent::Registered { user_id } if !started => {
                if t.registered.contains(user_id) {
                    return Err(broken(at, "registered twice"));
                }
                t.registered.push(*user_id);
            }
            TournamentEvent::Withdrew { user_id } if !started => {
                let before = t.registered.len();
                t.registered.retain(|u| u != user_id);
                if t.registered.len() == before {
                    return Err(broken(at, "a withdrawal of someone not registered"));
                }
            }
            TournamentEvent::Started { entrants, .. } if !started => {
                t.entrants = Some(entrants.clone());
            }
            TournamentEvent::Cancelled { seed, .. } if !started => {
                t.cancelled = true;
                t.seed = Some(seed.clone());
            }
            TournamentEvent::RoundPaired {
                round,
                tables,
                byes,
            } if started => {
                if *round as usize != t.rounds.len() || !t.between_rounds() {
                    return Err(broken(at, format!("round {round} paired out of turn")));
                }
                t.rounds.push(Round {
                    pairing: Pairing {
                        tables: tables.clone(),
                        byes: byes.clone(),
                    },
                    tables: vec![Table::default(); tables.len()],
                    standings: None,
                });
            }
            TournamentEvent::TableCreated {
                round,
                table,
                game_id,
            } => {
                let slot =
                    table_of(&mut t, *round, *table).ok_or_else(|| broken(at, "no such table"))?;
                if slot.game_id.replace(*game_id).is_some() {
                    return Err(broken(at, "a table created twice"));
                }
            }
            TournamentEvent::TableFinished {
                round,
                table,
                game_id,
                result,
                points,
            } => {
                let slot =
                    table_of(&mut t, *round, *table).ok_or_else(|| broken(at, "no such table"))?;
                if slot.game_id != Some(*game_id) || slot.finished.is_some() {
                    return Err(broken(at, "a table finished twice or with another game"));
                }
                slot.finished = Some((result.clone(), points.clone()));
            }
            TournamentEvent::RoundScored { round, standings } => {
                let last = t.rounds.len().checked_sub(1);
                let r = t
                    .rounds
                    .last_mut()
                    .filter(|_| last == Some(*round as usize))
                    .ok_or_else(|| broken(at, "a round scored out of turn"))?;
                if r.standings.is_some() || r.tables.iter().any(|t| t.finished.is_none()) {
                    return Err(broken(at, "a round scored twice or before its tables"));
                }
                r.standings = Some(standings.clone());
            }
            TournamentEvent::TournamentFinished { standings, seed } if started => {
                if !t.between_rounds() {
                    return Err(broken(at, "finished during a round"));
                }
                t.standings = Some(standings.clone());
                t.seed = Some(seed.clone());
            }
            other => {
                let (kind, _) = other.to_parts().unwrap_or_default();
                return Err(broken(at, format!("{kind} out of its place")));
            }
        }
    }
    Ok(t)
}

fn table_of(t: &mut Replayed, round: u32, table: u32) -> Option<&mut Table> {
    t.rounds
        .get_mut(round as usize)?
        .tables
        .get_mut(table as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournaments::duplicate::commitment;

    fn created() -> TournamentEvent {
        TournamentEvent::TournamentCreated {
            organiser: Uuid::nil(),
            name: "t".to_owned(),
            ruleset: "hats".to_owned(),
            options: serde_json::json!({}),
            table_size: 2,
            format: "swiss".to_owned(),
            rounds: 1,
            duplicate: false,
            seed_commitment: commitment("s"),
        }
    }

    #[test]
    fn given_a_round_played_then_it_is_replayed_as_played() {
        let (a, b) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let game = Uuid::from_u128(9);
        let events = vec![
            created(),
            TournamentEvent::Registered { user_id: a },
            TournamentEvent::Registered { user_id: b },
            TournamentEvent::Started {
                entrants: vec![a, b],
                ratings: vec![],
            },
            TournamentEvent::RoundPaired {
                round: 0,
                tables: vec![vec![0, 1]],
                byes: vec![],
            },
            TournamentEvent::TableCreated {
                round: 0,
                table: 0,
                game_id: game,
            },
            TournamentEvent::TableFinished {
                round: 0,
                table: 0,
                game_id: game,
                result: serde_json::json!({"scores": [1, 0], "winners": [0]}),
                points: vec![Points::ROUND, Points(0)],
            },
            TournamentEvent::RoundScored {
                round: 0,
                standings: vec![],
            },
        ];
        let t = replay(&events).unwrap();
        assert_eq!(t.played().len(), 1);
        assert_eq!(
            t.played()[0].tables[0].points,
            vec![Points::ROUND, Points(0)]
        );
        assert!(t.between_rounds());
    }

    #[test]
    fn given_a_round_paired_twice_then_the_record_is_broken() {
        let pair = TournamentEvent::RoundPaired {
            round: 0,
            tables: vec![],
            byes: vec![0],
        };
        let events = vec![
            created(),
            TournamentEvent::Started {
                entrants: vec![Uuid::nil()],
                ratings: vec![],
            },
            pair.clone(),
            pair,
        ];
        assert!(replay(&events).unwrap_err().0.contains("out of turn"));
    }

    #[test]
    fn given_no_creation_then_the_record_is_broken() {
        assert!(
            replay(&[TournamentEvent::Started {
                entrants: vec![],
                ratings: vec![],
            }])
            .is_err()
        );
    }
}
