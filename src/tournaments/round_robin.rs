//! Round robin by the circle method.
//!
//! Rules:
//! - the field of `n` is made even with one empty place when `n` is odd
//!   (`m = n` or `n + 1`); there are `m − 1` rounds;
//! - in round `r` (0-based) place 0 holds entrant 0 and places `1..m` hold
//!   the others rotated by `r`: place `i` holds entrant `1 + (i − 1 + r) mod (m − 1)`;
//! - the places are read *folded*: 0, m−1, 1, m−2, 2, …, so that consecutive
//!   pairs are the circle's pairs (place `i` with place `m − 1 − i`);
//! - tables of two: each pair is a table; the first of the pair sits in
//!   seat 0 in even rounds, the second in odd rounds; a player paired with
//!   the empty place has the bye. Every two players meet exactly once;
//! - tables of `k > 2`: the folded order without the empty place is cut into
//!   tables of `k`; the `n mod k` players left at the end have byes. With
//!   `k` even and `n` a multiple of `k`, each table holds `k / 2` whole
//!   pairs of the circle, so every two players meet at least once.

use super::Entrant;
use super::pairing::Pairing;

/// The number of rounds of a round robin of `n` players.
#[must_use]
pub fn rounds(n: usize) -> usize {
    let m = n + n % 2;
    m.saturating_sub(1)
}

/// The pairing of round `round` (0-based) of a round robin of `n` players at
/// tables of `table_size`.
#[must_use]
pub fn round(n: usize, table_size: usize, round: usize) -> Pairing {
    let m = n + n % 2;
    if m < 2 || table_size < 2 {
        return Pairing {
            tables: Vec::new(),
            byes: (0..n).collect(),
        };
    }
    let at = |place: usize| -> Option<Entrant> {
        let e = if place == 0 {
            0
        } else {
            1 + (place - 1 + round) % (m - 1)
        };
        (e < n).then_some(e)
    };
    let folded: Vec<Option<Entrant>> = (0..m / 2).flat_map(|i| [at(i), at(m - 1 - i)]).collect();
    let mut pairing = Pairing::default();
    if table_size == 2 {
        for pair in folded.chunks(2) {
            match (pair[0], pair[1]) {
                (Some(a), Some(b)) => pairing.tables.push(if round.is_multiple_of(2) {
                    vec![a, b]
                } else {
                    vec![b, a]
                }),
                (Some(a), None) | (None, Some(a)) => pairing.byes.push(a),
                (None, None) => {}
            }
        }
        return pairing;
    }
    let players: Vec<Entrant> = folded.into_iter().flatten().collect();
    let full = players.len() / table_size * table_size;
    pairing.tables = players[..full]
        .chunks(table_size)
        .map(<[Entrant]>::to_vec)
        .collect();
    pairing.byes = players[full..].to_vec();
    pairing
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// How often each two players shared a table over the whole round robin.
    fn meetings(n: usize, k: usize) -> BTreeMap<(Entrant, Entrant), usize> {
        let mut met = BTreeMap::new();
        for r in 0..rounds(n) {
            for table in round(n, k, r).tables {
                for (i, &a) in table.iter().enumerate() {
                    for &b in &table[i + 1..] {
                        *met.entry((a.min(b), a.max(b))).or_insert(0) += 1;
                    }
                }
            }
        }
        met
    }

    #[test]
    fn given_four_players_then_round_one_is_0v3_1v2_and_every_pair_meets_once() {
        let first = round(4, 2, 0);
        assert_eq!(first.tables, vec![vec![0, 3], vec![1, 2]]);
        assert!(first.byes.is_empty());
        assert_eq!(round(4, 2, 1).tables, vec![vec![1, 0], vec![3, 2]]);
        assert_eq!(rounds(4), 3);
        let met = meetings(4, 2);
        assert_eq!(met.len(), 6);
        assert!(met.values().all(|&c| c == 1));
    }

    #[test]
    fn given_an_odd_field_then_each_round_has_one_bye_and_everyone_has_exactly_one() {
        for n in [3, 5, 7, 9] {
            let mut byes = vec![0; n];
            for r in 0..rounds(n) {
                let p = round(n, 2, r);
                assert_eq!(p.byes.len(), 1, "n={n} r={r}");
                byes[p.byes[0]] += 1;
                assert_eq!(p.entrants(), (0..n).collect::<Vec<_>>());
            }
            assert!(byes.iter().all(|&b| b == 1), "n={n}: {byes:?}");
            let met = meetings(n, 2);
            assert_eq!(met.len(), n * (n - 1) / 2);
            assert!(met.values().all(|&c| c == 1));
        }
    }

    #[test]
    fn given_two_player_tables_then_seat_zero_alternates_by_round() {
        let firsts: Vec<Entrant> = (0..rounds(6))
            .map(|r| round(6, 2, r).tables[0][0])
            .collect();
        // The table of entrant 0: seat 0 in even rounds, the other in odd ones.
        assert_eq!(firsts[0], 0);
        assert_ne!(firsts[1], 0);
        assert_eq!(firsts[2], 0);
    }

    #[test]
    fn given_eight_players_at_tables_of_four_then_every_pair_meets_at_least_once() {
        let met = meetings(8, 4);
        assert_eq!(met.len(), 8 * 7 / 2);
        for r in 0..rounds(8) {
            let p = round(8, 4, r);
            assert_eq!(p.tables.len(), 2);
            assert!(p.byes.is_empty());
        }
    }

    #[test]
    fn given_seven_players_at_tables_of_three_then_the_one_left_over_has_the_bye() {
        for r in 0..rounds(7) {
            let p = round(7, 3, r);
            assert_eq!(p.tables.len(), 2);
            assert_eq!(p.byes.len(), 1);
            assert!(p.tables.iter().all(|t| t.len() == 3));
            assert_eq!(p.entrants(), (0..7).collect::<Vec<_>>());
        }
    }
}
