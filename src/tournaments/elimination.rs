//! Single elimination: a seeded bracket, one player of each table goes on.
//!
//! Rules, at tables of `k` (2 for a knock-out of duels):
//! - the bracket has `k^r` places, the smallest power of `k` (at least `k`)
//!   holding the field; `r` is the number of rounds;
//! - the places are filled in *seeding order*: for a bracket of one place,
//!   seed 0; for `k·m` places, each seed `s` of the `m`-place order becomes
//!   the table `s, 2m − 1 − s, 2m + s, 4m − 1 − s, …` (column `j` holds
//!   `j·m + s` for even `j`, `(j + 1)·m − 1 − s` for odd `j`); with `k = 2`
//!   this is the usual bracket 1–8, 4–5, 2–7, 3–6, and the seeds' sums at
//!   each table are as even as they can be;
//! - places numbered beyond the field are empty: the top seeds meet them, so
//!   a non-power field gives its top seeds byes; a table left with one
//!   player is that player's bye (they go on), a table with none is dropped
//!   from the next round's count but keeps its place in the bracket;
//! - a table's winner is the player with the most points there, ties going
//!   to the better seed (the lower entrant); the winners of consecutive
//!   groups of `k` tables meet in the next round, in bracket order.

use super::Entrant;
use super::pairing::Pairing;
use super::points::Points;

/// The places of the bracket of `n` players at tables of `k`.
#[must_use]
pub fn bracket_size(n: usize, k: usize) -> usize {
    let k = k.max(2);
    let mut size = k;
    while size < n {
        size *= k;
    }
    size
}

/// The number of rounds of an elimination of `n` players at tables of `k`.
#[must_use]
pub fn rounds(n: usize, k: usize) -> usize {
    let k = k.max(2);
    let (mut size, mut rounds) = (k, 1);
    while size < n {
        size *= k;
        rounds += 1;
    }
    rounds
}

/// The seeds (0-based) of a bracket of `size` places (a power of `k`) in
/// place order: consecutive groups of `k` are the first round's tables.
#[must_use]
pub fn seeding_order(size: usize, k: usize) -> Vec<usize> {
    let k = k.max(2);
    if size <= 1 {
        return vec![0];
    }
    let m = size / k;
    seeding_order(m, k)
        .into_iter()
        .flat_map(|s| {
            (0..k).map(move |j| {
                if j % 2 == 0 {
                    j * m + s
                } else {
                    (j + 1) * m - 1 - s
                }
            })
        })
        .collect()
}

/// The first round's groups, in bracket order: the entrants of each table
/// (empty places left out; a group of one is a bye, of none a spent place).
#[must_use]
pub fn first_groups(n: usize, k: usize) -> Vec<Vec<Entrant>> {
    let k = k.max(2);
    seeding_order(bracket_size(n, k), k)
        .chunks(k)
        .map(|group| group.iter().copied().filter(|&s| s < n).collect())
        .collect()
}

/// The next round's groups from the previous round's winners in bracket
/// order (`None`: a spent place, nobody goes on from it).
#[must_use]
pub fn next_groups(winners: &[Option<Entrant>], k: usize) -> Vec<Vec<Entrant>> {
    winners
        .chunks(k.max(2))
        .map(|group| group.iter().flatten().copied().collect())
        .collect()
}

/// The round's pairing from its groups: groups of two or more are tables,
/// a group of one is a bye.
#[must_use]
pub fn pairing(groups: &[Vec<Entrant>]) -> Pairing {
    let mut pairing = Pairing::default();
    for group in groups {
        match group.len() {
            0 => {}
            1 => pairing.byes.push(group[0]),
            _ => pairing.tables.push(group.clone()),
        }
    }
    pairing
}

/// Who goes on from a group: its one player when a bye; the table's winner
/// (most points, ties to the lower entrant) when played; `None` when empty.
/// `points` are the table's points in the group's seat order.
#[must_use]
pub fn winner(group: &[Entrant], points: &[Points]) -> Option<Entrant> {
    if group.len() == 1 {
        return Some(group[0]);
    }
    group
        .iter()
        .zip(points)
        .max_by(|(a, pa), (b, pb)| pa.cmp(pb).then(b.cmp(a)))
        .map(|(&e, _)| e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_eight_players_then_the_bracket_is_1v8_4v5_2v7_3v6() {
        assert_eq!(
            first_groups(8, 2),
            vec![vec![0, 7], vec![3, 4], vec![1, 6], vec![2, 5]]
        );
        assert_eq!(rounds(8, 2), 3);
    }

    #[test]
    fn given_six_players_then_the_top_two_seeds_have_byes() {
        let groups = first_groups(6, 2);
        assert_eq!(groups, vec![vec![0], vec![3, 4], vec![1], vec![2, 5]]);
        let p = pairing(&groups);
        assert_eq!(p.byes, vec![0, 1]);
        assert_eq!(p.tables, vec![vec![3, 4], vec![2, 5]]);
        assert_eq!(rounds(6, 2), 3);
    }

    #[test]
    fn given_the_favourites_win_then_the_final_is_the_top_two_seeds() {
        let mut groups = first_groups(6, 2);
        for _ in 0..2 {
            // The lower entrant wins every table.
            let winners: Vec<Option<Entrant>> = groups
                .iter()
                .map(|g| {
                    let points: Vec<Points> = g
                        .iter()
                        .map(|&e| {
                            if e == *g.iter().min().unwrap() {
                                Points::ROUND
                            } else {
                                Points(0)
                            }
                        })
                        .collect();
                    winner(g, &points)
                })
                .collect();
            groups = next_groups(&winners, 2);
        }
        assert_eq!(groups, vec![vec![0, 1]]);
    }

    #[test]
    fn given_a_tied_table_then_the_better_seed_goes_on() {
        assert_eq!(winner(&[5, 2], &[Points::HALF, Points::HALF]), Some(2));
        assert_eq!(winner(&[5, 2], &[Points::ROUND, Points(0)]), Some(5));
        assert_eq!(winner(&[], &[]), None);
    }

    #[test]
    fn given_tables_of_three_then_nine_places_hold_seven_players_in_three_tables() {
        assert_eq!(seeding_order(3, 3), vec![0, 1, 2]);
        assert_eq!(seeding_order(9, 3), vec![0, 5, 6, 1, 4, 7, 2, 3, 8]);
        let groups = first_groups(7, 3);
        assert_eq!(groups, vec![vec![0, 5, 6], vec![1, 4], vec![2, 3]]);
        assert_eq!(rounds(7, 3), 2);
    }

    #[test]
    fn given_any_field_then_every_entrant_is_placed_once_and_top_seeds_get_the_byes() {
        for n in 2..40 {
            let groups = first_groups(n, 2);
            let mut all: Vec<Entrant> = groups.iter().flatten().copied().collect();
            all.sort_unstable();
            assert_eq!(all, (0..n).collect::<Vec<_>>());
            let byes = pairing(&groups).byes;
            let expected = bracket_size(n, 2) - n;
            assert_eq!(byes.len(), expected, "n={n}");
            assert!(byes.iter().all(|&b| b < expected), "n={n}: {byes:?}");
        }
    }
}
