//! Standings: the order of the field after the rounds played.
//!
//! Rules:
//! - a player's **points** are the sum of their points of every round
//!   played (a bye counts as [`Points::ROUND`]);
//! - **Buchholz** is the sum, over every table they played, of the current
//!   points of each other player of that table (a bye adds nothing);
//! - the order is points (more first), then Buchholz (more first), then
//!   seed (entrant number, lower first): so no two players share a rank.

use serde::{Deserialize, Serialize};

use super::Entrant;
use super::points::Points;

/// One table as played: its entrants in seat order and each one's points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedTable {
    pub seats: Vec<Entrant>,
    pub points: Vec<Points>,
}

/// One round as played: its tables and its byes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedRound {
    pub tables: Vec<PlayedTable>,
    pub byes: Vec<Entrant>,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub entrant: Entrant,
    /// 1 for the leader.
    pub rank: usize,
    pub points: Points,
    pub buchholz: Points,
    /// Rounds sat out with a bye.
    pub byes: usize,
}

/// The standings of `entrants` players (numbered `0..entrants`) after `rounds`.
#[must_use]
pub fn standings(entrants: usize, rounds: &[PlayedRound]) -> Vec<Standing> {
    let mut points = vec![Points::default(); entrants];
    let mut byes = vec![0usize; entrants];
    for round in rounds {
        for table in &round.tables {
            for (&e, &p) in table.seats.iter().zip(&table.points) {
                points[e] = points[e] + p;
            }
        }
        for &e in &round.byes {
            points[e] = points[e] + Points::ROUND;
            byes[e] += 1;
        }
    }
    let mut buchholz = vec![Points::default(); entrants];
    for round in rounds {
        for table in &round.tables {
            for &e in &table.seats {
                for &o in table.seats.iter().filter(|&&o| o != e) {
                    buchholz[e] = buchholz[e] + points[o];
                }
            }
        }
    }
    let mut order: Vec<Entrant> = (0..entrants).collect();
    order.sort_by(|&a, &b| {
        points[b]
            .cmp(&points[a])
            .then(buchholz[b].cmp(&buchholz[a]))
            .then(a.cmp(&b))
    });
    order
        .into_iter()
        .enumerate()
        .map(|(i, e)| Standing {
            entrant: e,
            rank: i + 1,
            points: points[e],
            buchholz: buchholz[e],
            byes: byes[e],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(seats: &[Entrant], points: &[u32]) -> PlayedTable {
        PlayedTable {
            seats: seats.to_vec(),
            points: points.iter().map(|&p| Points(p)).collect(),
        }
    }

    #[test]
    fn given_no_rounds_then_the_standings_are_the_seeds() {
        let s = standings(3, &[]);
        assert_eq!(
            s.iter().map(|s| s.entrant).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        assert_eq!(s[2].rank, 3);
    }

    /// Given round 1: 0 beat 1, 2 beat 3, 4 a bye; round 2: 2 beat 0, 4 beat 1,
    /// 3 a bye. Points: 0: 1, 1: 0, 2: 2, 3: 1, 4: 2.
    /// Buchholz: 2 met 3 (1) and 0 (1) = 2; 4 met 1 (0) = 0; 0 met 1 and 2 =
    /// 2; 3 met 2 = 2; 1 met 0 and 4 = 3.
    /// Then 2 (2, 2), 4 (2, 0), 0 (1, 2), 3 (1, 2; seed after 0), 1 (0, 3).
    #[test]
    fn given_two_rounds_then_points_then_buchholz_then_seed_order_the_field() {
        let rounds = vec![
            PlayedRound {
                tables: vec![table(&[0, 1], &[1000, 0]), table(&[2, 3], &[1000, 0])],
                byes: vec![4],
            },
            PlayedRound {
                tables: vec![table(&[2, 0], &[1000, 0]), table(&[4, 1], &[1000, 0])],
                byes: vec![3],
            },
        ];
        let s = standings(5, &rounds);
        let order: Vec<_> = s
            .iter()
            .map(|s| (s.entrant, s.points.0, s.buchholz.0))
            .collect();
        assert_eq!(
            order,
            vec![
                (2, 2000, 2000),
                (4, 2000, 0),
                (0, 1000, 2000),
                (3, 1000, 2000),
                (1, 0, 3000),
            ]
        );
        assert_eq!(s[1].byes, 1);
        assert_eq!(s[3].byes, 1);
        assert_eq!(
            s.iter().map(|s| s.rank).collect::<Vec<_>>(),
            vec![1, 2, 3, 4, 5]
        );
    }
}
