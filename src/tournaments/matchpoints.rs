//! Matchpoints: duplicate scoring, each result against the other tables
//! that held the same cards.
//!
//! Rules (the same for every table size):
//! - every table of a round plays the same deals, the same hand in the same
//!   seat; a result is one integer per deal and seat, higher is better (a
//!   ruleset whose scores count against the player gives them negated);
//! - for each deal and seat, a table's result scores one matchpoint for
//!   every other table's result in that seat that it beat, and half a
//!   matchpoint for every one it tied: counted here in halves, so a top is
//!   `2 × (tables − 1)` halves;
//! - a seat's share of the round is its matchpoints over all deals divided
//!   by the tops of those deals ([`super::points::Points::ratio`]); with one
//!   table there is nothing to compare, and every share is half.
//!
//! Nothing depends on the order of the tables: permuting them permutes the
//! answers alike (a property test below).

use super::points::Points;

/// Matchpoints in halves (a tie is 1, a beaten result 2).
pub type Halves = u32;

/// Why a round's results cannot be compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mismatch {
    /// Tables report different numbers of deals.
    Deals { table: usize },
    /// A deal of a table reports another number of seats than the first.
    Seats { table: usize, deal: usize },
}

/// The matchpoints of a round: `results[table][deal][seat]` is a result;
/// the answer `[table][deal][seat]` is its matchpoints in halves.
///
/// # Errors
/// [`Mismatch`] when the tables do not report the same deals and seats.
pub fn matchpoints(results: &[Vec<Vec<i64>>]) -> Result<Vec<Vec<Vec<Halves>>>, Mismatch> {
    let Some(first) = results.first() else {
        return Ok(Vec::new());
    };
    for (t, table) in results.iter().enumerate() {
        if table.len() != first.len() {
            return Err(Mismatch::Deals { table: t });
        }
        for (d, deal) in table.iter().enumerate() {
            if deal.len() != first[d].len() {
                return Err(Mismatch::Seats { table: t, deal: d });
            }
        }
    }
    Ok(results
        .iter()
        .enumerate()
        .map(|(t, table)| {
            table
                .iter()
                .enumerate()
                .map(|(d, deal)| {
                    deal.iter()
                        .enumerate()
                        .map(|(s, &mine)| {
                            results
                                .iter()
                                .enumerate()
                                .filter(|&(u, _)| u != t)
                                .map(|(_, other)| match mine.cmp(&other[d][s]) {
                                    std::cmp::Ordering::Greater => 2,
                                    std::cmp::Ordering::Equal => 1,
                                    std::cmp::Ordering::Less => 0,
                                })
                                .sum()
                        })
                        .collect()
                })
                .collect()
        })
        .collect())
}

/// Each table's seats' shares of the round (`[table][seat]`), from the
/// results as [`matchpoints`] reads them.
///
/// # Errors
/// [`Mismatch`] when the tables do not report the same deals and seats.
pub fn shares(results: &[Vec<Vec<i64>>]) -> Result<Vec<Vec<Points>>, Mismatch> {
    let mps = matchpoints(results)?;
    let tables = results.len() as u64;
    Ok(mps
        .iter()
        .map(|table| {
            let seats = table.first().map_or(0, Vec::len);
            (0..seats)
                .map(|s| {
                    let won: u64 = table.iter().map(|deal| u64::from(deal[s])).sum();
                    let top = 2 * (tables - 1) * table.len() as u64;
                    Points::ratio(won, top)
                })
                .collect()
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    /// Given four tables of two seats on one deal, seat 0 scoring
    /// 420, 420, 450, −50: worked by hand, seat 0's matchpoints are
    /// 420: beats −50 (1), ties 420 (½), loses to 450 (0) = 1½ → 3 halves;
    /// 450: beats all three = 3 → 6 halves; −50: 0.
    /// Seat 1 is the mirror (−420, −420, −450, 50): 1½, 1½, 0, 3.
    #[test]
    fn given_four_tables_on_one_deal_then_matchpoints_are_as_worked_by_hand() {
        let results = vec![
            vec![vec![420, -420]],
            vec![vec![420, -420]],
            vec![vec![450, -450]],
            vec![vec![-50, 50]],
        ];
        let mp = matchpoints(&results).unwrap();
        assert_eq!(
            mp,
            vec![
                vec![vec![3, 3]],
                vec![vec![3, 3]],
                vec![vec![6, 0]],
                vec![vec![0, 6]],
            ]
        );
        // Every deal and seat hands out tables × (tables − 1) halves: 6 matchpoints.
        let seat0: u32 = mp.iter().map(|t| t[0][0]).sum();
        assert_eq!(seat0, 12);
    }

    /// Given three tables of three seats over two deals: worked by hand.
    /// Deal 0, seat 0: 10, 10, 4 → ties and a win: ½+1, ½+1, 0 = 3, 3, 0 halves.
    /// Deal 0, seat 1: 5, 7, 9 → 0, 2, 4. Deal 0, seat 2: 0, 0, 0 → 2, 2, 2.
    /// Deal 1, seat 0: 1, 2, 3 → 0, 2, 4. Seat 1: 3, 3, 3 → 2, 2, 2.
    /// Seat 2: 9, 1, 5 → 4, 0, 2.
    /// Shares over the top of 2 deals × 4 halves = 8: table 0 seat 0 holds
    /// 3 + 0 = 3 / 8 = 0.375; seat 1: 0 + 2 = 0.25; seat 2: 2 + 4 = 0.75.
    #[test]
    fn given_three_tables_of_three_over_two_deals_then_matchpoints_and_shares_are_as_worked() {
        let results = vec![
            vec![vec![10, 5, 0], vec![1, 3, 9]],
            vec![vec![10, 7, 0], vec![2, 3, 1]],
            vec![vec![4, 9, 0], vec![3, 3, 5]],
        ];
        let mp = matchpoints(&results).unwrap();
        assert_eq!(mp[0], vec![vec![3, 0, 2], vec![0, 2, 4]]);
        assert_eq!(mp[1], vec![vec![3, 2, 2], vec![2, 2, 0]]);
        assert_eq!(mp[2], vec![vec![0, 4, 2], vec![4, 2, 2]]);
        let shares = shares(&results).unwrap();
        assert_eq!(shares[0], vec![Points(375), Points(250), Points(750)]);
        assert_eq!(shares[1], vec![Points(625), Points(500), Points(250)]);
        assert_eq!(shares[2], vec![Points(500), Points(750), Points(500)]);
    }

    #[test]
    fn given_one_table_then_there_is_nothing_to_compare_and_every_share_is_half() {
        let shares = shares(&[vec![vec![100, -100]]]).unwrap();
        assert_eq!(shares, vec![vec![Points::HALF, Points::HALF]]);
    }

    #[test]
    fn given_tables_reporting_different_deals_or_seats_then_they_are_refused() {
        assert_eq!(
            matchpoints(&[vec![vec![1, 2]], vec![vec![1, 2], vec![3, 4]]]),
            Err(Mismatch::Deals { table: 1 })
        );
        assert_eq!(
            matchpoints(&[vec![vec![1, 2]], vec![vec![1, 2, 3]]]),
            Err(Mismatch::Seats { table: 1, deal: 0 })
        );
    }

    /// Property: for random rounds (2–9 tables, 1–4 deals, 2–5 seats, results
    /// drawn from a small range so ties happen), permuting the tables
    /// permutes the matchpoints and shares alike and changes no score; and
    /// every deal and seat hands out exactly `tables × (tables − 1)` halves.
    #[test]
    fn property_permuting_tables_changes_no_score() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(47);
        for _ in 0..500 {
            let tables = rng.random_range(2..10);
            let deals = rng.random_range(1..5);
            let seats = rng.random_range(2..6);
            let results: Vec<Vec<Vec<i64>>> = (0..tables)
                .map(|_| {
                    (0..deals)
                        .map(|_| (0..seats).map(|_| rng.random_range(-3..4)).collect())
                        .collect()
                })
                .collect();
            let mut order: Vec<usize> = (0..tables).collect();
            order.shuffle(&mut rng);
            let permuted: Vec<_> = order.iter().map(|&t| results[t].clone()).collect();
            let mp = matchpoints(&results).unwrap();
            let mp_permuted = matchpoints(&permuted).unwrap();
            let sh = shares(&results).unwrap();
            let sh_permuted = shares(&permuted).unwrap();
            for (i, &t) in order.iter().enumerate() {
                assert_eq!(mp_permuted[i], mp[t]);
                assert_eq!(sh_permuted[i], sh[t]);
            }
            for d in 0..deals {
                for s in 0..seats {
                    let handed: u32 = mp.iter().map(|t| t[d][s]).sum();
                    assert_eq!(handed as usize, tables * (tables - 1));
                }
            }
        }
    }
}
