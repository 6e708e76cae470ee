//! Swiss pairings: players of like score meet, no two twice while avoidable.
//!
//! Rules, given the standings before the round (see [`super::standings`])
//! and who is still playing:
//! - **byes**: when the field is not a multiple of the table size `k`, the
//!   `n mod k` lowest-ranked players who have not had a bye yet sit the round
//!   out with one (scored as a whole round); when too few have never had
//!   one, the lowest-ranked of those with the fewest byes;
//! - **tables of two**: the highest-ranked unpaired player meets the
//!   highest-ranked unpaired player they have not met yet, provided the rest
//!   can still be paired without a repeat (a search that backs up; it gives
//!   up after [`SEARCH_BUDGET`] steps); when no pairing without a repeat
//!   exists, players are paired in standings order, 1–2, 3–4, …;
//! - **seat 0 of a two-player table** goes to the player who has held seat
//!   0 less often; on equal counts, to the higher-ranked;
//! - **tables of `k > 2`**: the highest-ranked unseated player sits with
//!   the highest-ranked players who have met nobody at the table yet, table
//!   after table, provided the rest can still be seated without a repeat (a
//!   search that backs up, within the same [`SEARCH_BUDGET`]); with no such
//!   seating, each table takes the top unseated player and then, one by
//!   one, the player who has met the fewest of those already seated (the
//!   higher-ranked on equal counts). A table's seats are in rank order.

use std::collections::BTreeSet;

use super::Entrant;
use super::pairing::Pairing;
use super::standings::Standing;

/// Steps the search for a pairing without repeats may take before it gives up.
pub const SEARCH_BUDGET: usize = 200_000;

/// What the earlier rounds say about each player.
#[derive(Clone, Debug, Default)]
pub struct History {
    /// Pairs (lower entrant first) that have shared a table.
    pub met: BTreeSet<(Entrant, Entrant)>,
    /// Times each entrant held seat 0 (indexed by entrant; missing: 0).
    pub seat_zero: Vec<usize>,
}

impl History {
    /// The history of the pairings played so far.
    #[must_use]
    pub fn of(rounds: &[Pairing]) -> History {
        let mut history = History::default();
        for round in rounds {
            for table in &round.tables {
                if let Some(&first) = table.first() {
                    if history.seat_zero.len() <= first {
                        history.seat_zero.resize(first + 1, 0);
                    }
                    history.seat_zero[first] += 1;
                }
                for (i, &a) in table.iter().enumerate() {
                    for &b in &table[i + 1..] {
                        history.met.insert((a.min(b), a.max(b)));
                    }
                }
            }
        }
        history
    }

    /// Whether `a` and `b` have shared a table.
    #[must_use]
    pub fn have_met(&self, a: Entrant, b: Entrant) -> bool {
        self.met.contains(&(a.min(b), a.max(b)))
    }

    fn seat_zero_of(&self, e: Entrant) -> usize {
        self.seat_zero.get(e).copied().unwrap_or(0)
    }
}

/// The next round's pairing: `standings` in rank order, holding only the
/// players still in the tournament.
#[must_use]
pub fn pair(table_size: usize, standings: &[Standing], history: &History) -> Pairing {
    let k = table_size.max(2);
    let n = standings.len();
    let bye_count = if n < k { n } else { n % k };
    let byes = choose_byes(standings, bye_count);
    let playing: Vec<Entrant> = standings
        .iter()
        .map(|s| s.entrant)
        .filter(|e| !byes.contains(e))
        .collect();
    let tables = if k == 2 {
        let pairs = without_repeats(&playing, history, &mut SEARCH_BUDGET.clone())
            .unwrap_or_else(|| playing.chunks(2).map(|p| (p[0], p[1])).collect());
        pairs
            .into_iter()
            .map(|(a, b)| {
                if history.seat_zero_of(b) < history.seat_zero_of(a) {
                    vec![b, a]
                } else {
                    vec![a, b]
                }
            })
            .collect()
    } else {
        let mut tables = groups_without_repeats(&playing, k, history, &mut SEARCH_BUDGET.clone())
            .unwrap_or_else(|| fewest_repeats(&playing, k, history));
        for table in &mut tables {
            table.sort_by_key(|e| playing.iter().position(|p| p == e));
        }
        tables
    };
    Pairing { tables, byes }
}

/// Tables of `k` from `order` (rank order, a multiple of `k` long) where no
/// two players at a table have met: the top player with the highest-ranked
/// companions that allow the rest to be seated; `None` when there is no
/// such seating, or the budget ran out.
fn groups_without_repeats(
    order: &[Entrant],
    k: usize,
    history: &History,
    budget: &mut usize,
) -> Option<Vec<Vec<Entrant>>> {
    let Some((&top, rest)) = order.split_first() else {
        return Some(Vec::new());
    };
    let mut table = vec![top];
    complete(&mut table, rest, 0, k, history, budget)
}

/// Completes `table` with players of `rest` from index `from` on (so each
/// set of companions is tried once, best ranks first), then seats the
/// others.
fn complete(
    table: &mut Vec<Entrant>,
    rest: &[Entrant],
    from: usize,
    k: usize,
    history: &History,
    budget: &mut usize,
) -> Option<Vec<Vec<Entrant>>> {
    if table.len() == k {
        let others: Vec<Entrant> = rest
            .iter()
            .copied()
            .filter(|e| !table.contains(e))
            .collect();
        let mut tables = groups_without_repeats(&others, k, history, budget)?;
        tables.insert(0, table.clone());
        return Some(tables);
    }
    for (i, &candidate) in rest.iter().enumerate().skip(from) {
        if table
            .iter()
            .any(|&seated| history.have_met(seated, candidate))
        {
            continue;
        }
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        table.push(candidate);
        let found = complete(table, rest, i + 1, k, history, budget);
        table.pop();
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Tables of `k` from `order` (rank order) with few repeats, greedily: each
/// table takes the top unseated player, then one by one the unseated
/// player who has met the fewest of those at the table (the higher-ranked
/// on equal counts).
fn fewest_repeats(order: &[Entrant], k: usize, history: &History) -> Vec<Vec<Entrant>> {
    let mut unseated: Vec<Entrant> = order.to_vec();
    let mut tables = Vec::new();
    while !unseated.is_empty() {
        let mut table = vec![unseated.remove(0)];
        while table.len() < k && !unseated.is_empty() {
            let met = |e: Entrant| table.iter().filter(|&&s| history.have_met(s, e)).count();
            let best = (0..unseated.len())
                .min_by_key(|&i| (met(unseated[i]), i))
                .unwrap_or(0);
            table.push(unseated.remove(best));
        }
        tables.push(table);
    }
    tables
}

/// The `count` players to sit out, lowest-ranked first among those with the
/// fewest byes.
fn choose_byes(standings: &[Standing], count: usize) -> Vec<Entrant> {
    let mut candidates: Vec<&Standing> = standings.iter().collect();
    // Lowest-ranked first, then (stably) fewest byes first.
    candidates.reverse();
    candidates.sort_by_key(|s| s.byes);
    let mut byes: Vec<Entrant> = candidates.iter().take(count).map(|s| s.entrant).collect();
    byes.sort_unstable();
    byes
}

/// Pairs of `order` (in rank order) with no repeat meeting, the top player
/// meeting the highest-ranked one they can; `None` when there is none, or
/// the budget ran out.
fn without_repeats(
    order: &[Entrant],
    history: &History,
    budget: &mut usize,
) -> Option<Vec<(Entrant, Entrant)>> {
    let Some((&top, rest)) = order.split_first() else {
        return Some(Vec::new());
    };
    for (j, &other) in rest.iter().enumerate() {
        if history.have_met(top, other) {
            continue;
        }
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let remaining: Vec<Entrant> = rest
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != j)
            .map(|(_, &e)| e)
            .collect();
        if let Some(mut pairs) = without_repeats(&remaining, history, budget) {
            pairs.insert(0, (top, other));
            return Some(pairs);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournaments::points::Points;
    use crate::tournaments::standings::{PlayedRound, PlayedTable, standings};

    fn played(tables: &[(&[Entrant], &[u32])], byes: &[Entrant]) -> PlayedRound {
        PlayedRound {
            tables: tables
                .iter()
                .map(|(seats, points)| PlayedTable {
                    seats: seats.to_vec(),
                    points: points.iter().map(|&p| Points(p)).collect(),
                })
                .collect(),
            byes: byes.to_vec(),
        }
    }

    fn pairing_of(round: &PlayedRound) -> Pairing {
        Pairing {
            tables: round.tables.iter().map(|t| t.seats.clone()).collect(),
            byes: round.byes.clone(),
        }
    }

    #[test]
    fn given_a_fresh_field_of_six_then_seeds_meet_in_order_1v2_3v4_5v6() {
        let s = standings(6, &[]);
        let p = pair(2, &s, &History::default());
        assert_eq!(p.tables, vec![vec![0, 1], vec![2, 3], vec![4, 5]]);
        assert!(p.byes.is_empty());
    }

    /// Given round 1: 0 beat 1, 2 beat 3, 4 beat 5, 6 beat 7 (standings:
    /// 0, 2, 4, 6 on 1 point, then 1, 3, 5, 7),
    /// then round 2 pairs the winners and the losers among themselves, top
    /// down: 0–2, 4–6, 1–3, 5–7.
    #[test]
    fn given_round_one_played_then_winners_meet_winners_and_losers_losers() {
        let r1 = played(
            &[
                (&[0, 1], &[1000, 0]),
                (&[2, 3], &[1000, 0]),
                (&[4, 5], &[1000, 0]),
                (&[6, 7], &[1000, 0]),
            ],
            &[],
        );
        let s = standings(8, std::slice::from_ref(&r1));
        let p = pair(2, &s, &History::of(&[pairing_of(&r1)]));
        let mut tables: Vec<Vec<Entrant>> = p
            .tables
            .iter()
            .map(|t| {
                let mut t = t.clone();
                t.sort_unstable();
                t
            })
            .collect();
        tables.sort();
        assert_eq!(tables, vec![vec![0, 2], vec![1, 3], vec![4, 6], vec![5, 7]]);
    }

    /// Given four players where 0–1 and 2–3 drew in round 1 (so the order is
    /// still 0, 1, 2, 3), then round 2 does not pair 0–1 again: 0–2, 1–3.
    #[test]
    fn given_the_top_two_have_met_then_they_are_not_paired_again() {
        let r1 = played(&[(&[0, 1], &[500, 500]), (&[2, 3], &[500, 500])], &[]);
        let s = standings(4, std::slice::from_ref(&r1));
        let p = pair(2, &s, &History::of(&[pairing_of(&r1)]));
        let mut tables: Vec<Vec<Entrant>> = p
            .tables
            .iter()
            .map(|t| {
                let mut t = t.clone();
                t.sort_unstable();
                t
            })
            .collect();
        tables.sort();
        assert_eq!(tables, vec![vec![0, 2], vec![1, 3]]);
    }

    /// Given 0 has met 1 and 2, and 1 has met 3, the only pairing without a
    /// repeat is 0–3, 1–2; given 0 has met 3 as well, none exists and the
    /// field is paired in standings order.
    #[test]
    fn given_only_one_pairing_avoids_repeats_then_the_search_finds_it() {
        let mut history = History::default();
        for pair in [(0, 1), (0, 2), (1, 3)] {
            history.met.insert(pair);
        }
        let s = standings(4, &[]);
        let p = pair(2, &s, &history);
        assert_eq!(p.tables, vec![vec![0, 3], vec![1, 2]]);
        history.met.insert((0, 3));
        let p = pair(2, &s, &history);
        assert_eq!(p.tables, vec![vec![0, 1], vec![2, 3]]);
    }

    /// Given 2–3 and 0–2 have met, the greedy 0–1 would leave 2–3, a
    /// repeat: the search backs up past 0–2 (met) to 0–3, leaving 1–2.
    #[test]
    fn given_a_dead_end_for_the_greedy_choice_then_the_search_backs_up() {
        let mut history = History::default();
        for pair in [(2, 3), (0, 2)] {
            history.met.insert(pair);
        }
        let p = pair(2, &standings(4, &[]), &history);
        assert_eq!(p.tables, vec![vec![0, 3], vec![1, 2]]);
    }

    #[test]
    fn given_an_odd_field_then_the_lowest_ranked_without_a_bye_gets_it() {
        // Round 1: 4 (the lowest seed) had the bye; 0 beat 1, 2 beat 3.
        let r1 = played(&[(&[0, 1], &[1000, 0]), (&[2, 3], &[1000, 0])], &[4]);
        let s = standings(5, std::slice::from_ref(&r1));
        // Standings: 0, 2, 4 (1 point each), then 1, 3 (lowest: 3).
        let p = pair(2, &s, &History::of(&[pairing_of(&r1)]));
        assert_eq!(p.byes, vec![3]);
        assert_eq!(p.entrants(), vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn given_everyone_has_had_a_bye_then_the_lowest_ranked_gets_another() {
        let s: Vec<Standing> = standings(3, &[])
            .into_iter()
            .map(|mut s| {
                s.byes = 1;
                s
            })
            .collect();
        assert_eq!(pair(2, &s, &History::default()).byes, vec![2]);
    }

    #[test]
    fn given_a_bye_then_it_scores_a_whole_round() {
        let r1 = played(&[(&[0, 1], &[0, 1000])], &[2]);
        let s = standings(3, &[r1]);
        let two = s.iter().find(|s| s.entrant == 2).unwrap();
        assert_eq!(two.points, Points::ROUND);
        assert_eq!(two.buchholz, Points(0));
    }

    #[test]
    fn given_seat_zero_counts_then_the_player_who_had_it_less_takes_it() {
        let history = History {
            seat_zero: vec![1, 0],
            ..History::default()
        };
        let p = pair(2, &standings(2, &[]), &history);
        assert_eq!(p.tables, vec![vec![1, 0]]);
    }

    #[test]
    fn given_tables_of_four_then_players_are_seated_by_standings_and_the_rest_have_byes() {
        // Standings after a round where 5 beat everyone: 5 first.
        let r1 = played(&[(&[0, 1, 2, 5], &[0, 0, 0, 1000])], &[]);
        let s = standings(10, &[r1]);
        let p = pair(4, &s, &History::default());
        // 10 players, tables of 4: two tables, two byes for the lowest (8, 9).
        assert_eq!(p.byes, vec![8, 9]);
        assert_eq!(p.tables[0][0], 5);
        assert_eq!(p.tables.len(), 2);
        assert!(p.tables.iter().all(|t| t.len() == 4));
    }

    /// Given round 1 at tables of three: 0 1 2, 3 4 5 and 6 7 8 (placed in
    /// that order), then round 2 seats no two who met: each table takes one
    /// player of each old table, the leaders together.
    #[test]
    fn given_tables_of_three_then_no_one_meets_a_tablemate_again_while_avoidable() {
        let r1 = played(
            &[
                (&[0, 1, 2], &[1000, 500, 0]),
                (&[3, 4, 5], &[1000, 500, 0]),
                (&[6, 7, 8], &[1000, 500, 0]),
            ],
            &[],
        );
        let s = standings(9, std::slice::from_ref(&r1));
        let p = pair(3, &s, &History::of(&[pairing_of(&r1)]));
        assert_eq!(p.tables, vec![vec![0, 3, 6], vec![1, 4, 7], vec![2, 5, 8]]);
        // Six players at two tables of three cannot avoid it: one repeat
        // at each table, the least there can be.
        let r1 = played(
            &[(&[0, 1, 2], &[1000, 500, 0]), (&[3, 4, 5], &[1000, 500, 0])],
            &[],
        );
        let history = History::of(&[pairing_of(&r1)]);
        let p = pair(3, &standings(6, std::slice::from_ref(&r1)), &history);
        for t in &p.tables {
            let met = (0..3)
                .flat_map(|i| (i + 1..3).map(move |j| (i, j)))
                .filter(|&(i, j)| history.have_met(t[i], t[j]))
                .count();
            assert_eq!(met, 1, "{:?}", p.tables);
        }
    }

    #[test]
    fn given_no_seating_without_repeats_then_tables_of_three_repeat_the_fewest_meetings() {
        // Six players at tables of three, and 0 has met all the others:
        // 0's table must hold two repeats; the other table need hold none.
        let r1 = played(&[(&[0, 1, 2], &[1000, 0, 0])], &[]);
        let r2 = played(&[(&[0, 3, 4], &[1000, 0, 0])], &[]);
        let r3 = played(&[(&[0, 5, 1], &[1000, 0, 0])], &[]);
        let rounds = [r1, r2, r3];
        let pairings: Vec<Pairing> = rounds.iter().map(pairing_of).collect();
        let history = History::of(&pairings);
        let p = pair(3, &standings(6, &rounds), &history);
        assert_eq!(p.tables.len(), 2);
        let repeats = |t: &Vec<Entrant>| {
            let mut n = 0;
            for (i, &a) in t.iter().enumerate() {
                for &b in &t[i + 1..] {
                    n += usize::from(history.have_met(a, b));
                }
            }
            n
        };
        let total: usize = p.tables.iter().map(repeats).sum();
        assert_eq!(total, 2, "{:?}", p.tables);
        assert_eq!(p.tables[0][0], 0, "the leader still heads the top table");
    }

    #[test]
    fn given_five_rounds_of_eight_then_no_pair_repeats() {
        // After four rounds of eight, those not yet met form a graph of
        // degree three on eight players, which always has a perfect
        // matching: a pairing without repeats exists in each of five rounds,
        // and the search finds it.
        let mut pairings: Vec<Pairing> = Vec::new();
        let mut rounds: Vec<PlayedRound> = Vec::new();
        for _ in 0..5 {
            let s = standings(8, &rounds);
            let p = pair(2, &s, &History::of(&pairings));
            let history = History::of(&pairings);
            for t in &p.tables {
                assert!(!history.have_met(t[0], t[1]), "{t:?} repeated");
            }
            // The lower entrant wins every game: a stable order.
            rounds.push(PlayedRound {
                tables: p
                    .tables
                    .iter()
                    .map(|t| PlayedTable {
                        seats: t.clone(),
                        points: if t[0] < t[1] {
                            vec![Points::ROUND, Points(0)]
                        } else {
                            vec![Points(0), Points::ROUND]
                        },
                    })
                    .collect(),
                byes: vec![],
            });
            pairings.push(p);
        }
        assert_eq!(History::of(&pairings).met.len(), 20);
    }
}
