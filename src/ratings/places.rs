//! The order of places of a finished game, from its stored result.
//!
//! Rules (the same for every ruleset, read from the result alone):
//! - the *sides* are the result's teams when it has any, else one seat each;
//! - a side holding a winning seat is first (several when the win is
//!   shared); no winner at all is a draw: every side is first;
//! - the other sides follow by score, in the direction the winners show:
//!   higher is better unless the winners hold the lowest score and not the
//!   highest (a penalty game); equal scores share a place;
//! - a place is one more than the number of sides strictly ahead (1, 2, 2, 4).
//!
//! A forfeit's result (winners: the seats not out, every score 0) gives the
//! seats not out first and the seats that are out tied after them.

use serde_json::Value;

/// One side of a game: its seats and its place (1 = first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Side {
    pub seats: Vec<u8>,
    pub place: u16,
}

/// The sides of a finished game, by the rules above; `None` when the result
/// does not name every seat of a `players`-seat table exactly once.
#[must_use]
pub fn sides(result: &Value, players: usize) -> Option<Vec<Side>> {
    let scores: Vec<i64> = result
        .get("scores")?
        .as_array()?
        .iter()
        .map(Value::as_i64)
        .collect::<Option<_>>()?;
    let winners: Vec<u8> = seats_of(result.get("winners")?)?;
    let teams: Option<Vec<(Vec<u8>, i64)>> = match result.get("teams") {
        None | Some(Value::Null) => None,
        Some(Value::Array(teams)) => Some(
            teams
                .iter()
                .map(|t| Some((seats_of(t.get("seats")?)?, t.get("score")?.as_i64()?)))
                .collect::<Option<_>>()?,
        ),
        Some(_) => return None,
    };
    let raw: Vec<(Vec<u8>, i64)> = match teams {
        Some(teams) if !teams.is_empty() => teams,
        _ => (0..players)
            .map(|s| Some((vec![u8::try_from(s).ok()?], *scores.get(s)?)))
            .collect::<Option<_>>()?,
    };
    let mut all: Vec<u8> = raw.iter().flat_map(|(s, _)| s.iter().copied()).collect();
    all.sort_unstable();
    if all
        != (0..players)
            .filter_map(|s| u8::try_from(s).ok())
            .collect::<Vec<_>>()
    {
        return None;
    }
    let won: Vec<bool> = raw
        .iter()
        .map(|(seats, _)| seats.iter().any(|s| winners.contains(s)))
        .collect();
    if !won.iter().any(|w| *w) {
        return Some(
            raw.into_iter()
                .map(|(seats, _)| Side { seats, place: 1 })
                .collect(),
        );
    }
    let score = |i: usize| raw[i].1;
    let best = (0..raw.len()).map(score).max()?;
    let worst = (0..raw.len()).map(score).min()?;
    let winning: Vec<i64> = (0..raw.len()).filter(|&i| won[i]).map(score).collect();
    let lower_is_better =
        winning.iter().all(|s| *s == worst) && !winning.iter().all(|s| *s == best);
    let better = |a: i64, b: i64| if lower_is_better { a < b } else { a > b };
    let winners_count = won.iter().filter(|w| **w).count();
    let places: Vec<u16> = (0..raw.len())
        .map(|i| {
            if won[i] {
                1
            } else {
                let ahead = winners_count
                    + (0..raw.len())
                        .filter(|&j| !won[j] && better(score(j), score(i)))
                        .count();
                u16::try_from(ahead + 1).unwrap_or(u16::MAX)
            }
        })
        .collect();
    Some(
        places
            .into_iter()
            .zip(raw)
            .map(|(place, (seats, _))| Side { seats, place })
            .collect(),
    )
}

fn seats_of(value: &Value) -> Option<Vec<u8>> {
    value
        .as_array()?
        .iter()
        .map(|s| u8::try_from(s.as_u64()?).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn places(result: Value, players: usize) -> Vec<(Vec<u8>, u16)> {
        sides(&result, players)
            .expect("sides")
            .into_iter()
            .map(|s| (s.seats, s.place))
            .collect()
    }

    #[test]
    fn given_a_free_for_all_when_placed_then_higher_scores_come_first_and_ties_share() {
        let result = json!({"scores": [10, 30, 10, 20], "winners": [1], "rounds": []});
        assert_eq!(
            places(result, 4),
            vec![(vec![0], 3), (vec![1], 1), (vec![2], 3), (vec![3], 2)]
        );
    }

    #[test]
    fn given_a_penalty_game_when_placed_then_lower_scores_come_first() {
        let result = json!({"scores": [5, -3, 12], "winners": [1], "rounds": []});
        assert_eq!(
            places(result, 3),
            vec![(vec![0], 2), (vec![1], 1), (vec![2], 3)]
        );
    }

    #[test]
    fn given_a_tie_break_when_placed_then_the_winner_is_first_alone() {
        let result =
            json!({"scores": [20, 20], "winners": [0], "tie_break": "black_hats", "rounds": []});
        assert_eq!(places(result, 2), vec![(vec![0], 1), (vec![1], 2)]);
    }

    #[test]
    fn given_a_draw_when_placed_then_every_side_is_first() {
        let result = json!({"scores": [7, 7], "winners": [], "outcome": "draw", "rounds": []});
        assert_eq!(places(result, 2), vec![(vec![0], 1), (vec![1], 1)]);
    }

    #[test]
    fn given_teams_when_placed_then_the_teams_are_the_sides() {
        let result = json!({"scores": [3, 9, 4, 2], "winners": [1, 3],
            "teams": [{"seats": [0, 2], "score": 7}, {"seats": [1, 3], "score": 11}], "rounds": []});
        assert_eq!(places(result, 4), vec![(vec![0, 2], 2), (vec![1, 3], 1)]);
    }

    #[test]
    fn given_a_forfeit_when_placed_then_the_seats_out_share_the_last_place() {
        let result =
            json!({"outcome": "forfeit", "winners": [2], "scores": [0, 0, 0], "forfeited": [0, 1]});
        assert_eq!(
            places(result, 3),
            vec![(vec![0], 2), (vec![1], 2), (vec![2], 1)]
        );
    }

    #[test]
    fn given_a_result_that_misses_a_seat_when_placed_then_there_are_no_sides() {
        assert_eq!(sides(&json!({"scores": [1], "winners": [0]}), 2), None);
        assert_eq!(
            sides(
                &json!({"scores": [1, 2], "winners": [0],
                "teams": [{"seats": [0], "score": 1}]}),
                2
            ),
            None
        );
        assert_eq!(sides(&json!({"winners": [0]}), 2), None);
    }
}
