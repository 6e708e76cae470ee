//! The next round's pairing, from the format and the rounds played: the one
//! function the round worker and `verify` both call, so a pairing in the
//! record can be recomputed from the record alone.
//!
//! Rules:
//! - a tournament has the rounds its organiser scheduled; after the last
//!   there is no next round;
//! - **round robin**: round `r` is [`super::round_robin::round`] of the field;
//! - **Swiss**: [`super::swiss::pair`] on the standings after the rounds
//!   played ([`super::standings::standings`]), with the history of who met
//!   whom and who held seat 0;
//! - **elimination**: the bracket's first groups
//!   ([`super::elimination::first_groups`]), then each round's winners
//!   ([`super::elimination::winner`] of each table's points; a bye goes on)
//!   meet in bracket order ([`super::elimination::next_groups`]); once one
//!   player is left (or none could go on) there is no next round, even if
//!   more were scheduled.

use super::pairing::Pairing;
use super::settings::Format;
use super::standings::{PlayedRound, standings};
use super::{Entrant, elimination, round_robin, swiss};

/// The pairing a played round had: its tables' seats and its byes.
#[must_use]
pub fn pairing_of(round: &PlayedRound) -> Pairing {
    Pairing {
        tables: round.tables.iter().map(|t| t.seats.clone()).collect(),
        byes: round.byes.clone(),
    }
}

/// The pairing of the round after `played` for a field of `entrants` at
/// tables of `table_size`, in a tournament of `rounds` rounds; `None` when
/// the tournament is over.
#[must_use]
pub fn next(
    format: Format,
    table_size: usize,
    entrants: usize,
    rounds: usize,
    played: &[PlayedRound],
) -> Option<Pairing> {
    let r = played.len();
    if r >= rounds {
        return None;
    }
    match format {
        Format::RoundRobin => Some(round_robin::round(entrants, table_size, r)),
        Format::Swiss => {
            let order = standings(entrants, played);
            let history = swiss::History::of(&played.iter().map(pairing_of).collect::<Vec<_>>());
            Some(swiss::pair(table_size, &order, &history))
        }
        Format::Elimination => {
            let groups = bracket(entrants, table_size, played);
            let left: usize = groups.iter().map(Vec::len).sum();
            (left >= 2).then(|| elimination::pairing(&groups))
        }
    }
}

/// The bracket's groups for the round after `played`.
fn bracket(entrants: usize, k: usize, played: &[PlayedRound]) -> Vec<Vec<Entrant>> {
    let mut groups = elimination::first_groups(entrants, k);
    for round in played {
        let winners: Vec<Option<Entrant>> = groups
            .iter()
            .map(|group| match group.len() {
                0 => None,
                1 => Some(group[0]),
                _ => round
                    .tables
                    .iter()
                    .find(|t| same_players(&t.seats, group))
                    .and_then(|t| elimination::winner(&t.seats, &t.points)),
            })
            .collect();
        groups = elimination::next_groups(&winners, k);
    }
    groups
}

fn same_players(a: &[Entrant], b: &[Entrant]) -> bool {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournaments::points::Points;
    use crate::tournaments::standings::PlayedTable;

    /// Plays `pairing` with the lower entrant of each table winning.
    fn lower_wins(pairing: &Pairing) -> PlayedRound {
        PlayedRound {
            tables: pairing
                .tables
                .iter()
                .map(|seats| {
                    let best = *seats.iter().min().unwrap();
                    PlayedTable {
                        seats: seats.clone(),
                        points: seats
                            .iter()
                            .map(|&e| if e == best { Points::ROUND } else { Points(0) })
                            .collect(),
                    }
                })
                .collect(),
            byes: pairing.byes.clone(),
        }
    }

    fn run(format: Format, k: usize, n: usize, rounds: usize) -> Vec<Pairing> {
        let mut played = Vec::new();
        let mut pairings = Vec::new();
        while let Some(p) = next(format, k, n, rounds, &played) {
            played.push(lower_wins(&p));
            pairings.push(p);
        }
        pairings
    }

    #[test]
    fn given_a_round_robin_of_four_then_three_rounds_and_everyone_meets_once() {
        let pairings = run(Format::RoundRobin, 2, 4, 3);
        assert_eq!(pairings.len(), 3);
        let history = swiss::History::of(&pairings);
        assert_eq!(history.met.len(), 6);
    }

    #[test]
    fn given_eight_in_an_elimination_then_the_top_seed_wins_in_three_rounds() {
        let pairings = run(Format::Elimination, 2, 8, 5);
        assert_eq!(pairings.len(), 3, "8 players need 3 rounds, not 5");
        assert_eq!(pairings[0].tables[0], vec![0, 7]);
        assert_eq!(pairings[2].tables, vec![vec![0, 1]]);
    }

    #[test]
    fn given_swiss_rounds_then_the_second_pairs_the_winners() {
        let pairings = run(Format::Swiss, 2, 8, 3);
        assert_eq!(pairings.len(), 3);
        // Round 1 pairs 0–1, 2–3, 4–5, 6–7; the lower entrant of each table
        // won, so 0, 2, 4, 6 lead and meet at the first two tables.
        assert_eq!(pairings[0].tables[0], vec![0, 1]);
        let mut winners: Vec<Entrant> = pairings[1]
            .tables
            .iter()
            .take(2)
            .flatten()
            .copied()
            .collect();
        winners.sort_unstable();
        assert_eq!(winners, vec![0, 2, 4, 6]);
        assert_eq!(
            swiss::History::of(&pairings).met.len(),
            12,
            "no pair met twice"
        );
    }

    #[test]
    fn given_the_scheduled_rounds_played_then_there_is_no_next() {
        assert_eq!(next(Format::Swiss, 2, 4, 0, &[]), None);
    }
}
