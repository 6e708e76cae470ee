//! What a finished table's game gives the tournament: each seat's place,
//! and in duplicate mode each deal's result per seat.
//!
//! Rules:
//! - **places** (1 = first): the game's winners share place 1; every other
//!   seat is placed after the winners and after every other seat with a
//!   higher match total (`scores`), equal totals sharing a place;
//! - **deal results** (duplicate mode, higher is better): Hats has one
//!   deal, its result a seat's score; Goathead one deal per round of the
//!   match, its result the game points the seat gained or paid that round;
//! - a deal the game did not reach (a match ended early) counts as beaten
//!   by every other table for the seats that are not among the winners and
//!   as beating every other table for the winners, so leaving a match
//!   never pays;
//! - a round's **points**: by places ([`super::points::by_places`]), or in
//!   duplicate mode the matchpoint shares of every table of the round
//!   ([`super::matchpoints::shares`]), each table compared only with the
//!   tables of its own size (an elimination's bracket can leave a table
//!   short, and its deals were drawn for its size).

use hatstand_engine::GameKind;
use serde_json::Value;

use super::matchpoints;
use super::points::{Points, by_places};

/// Why a result cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable(pub String);

fn ints(value: &Value, what: &str) -> Result<Vec<i64>, Unreadable> {
    value
        .as_array()
        .ok_or_else(|| Unreadable(format!("{what} is not a list")))?
        .iter()
        .map(|v| {
            v.as_i64()
                .ok_or_else(|| Unreadable(format!("{what} holds a non-integer")))
        })
        .collect()
}

fn winners(result: &Value) -> Result<Vec<usize>, Unreadable> {
    Ok(ints(&result["winners"], "winners")?
        .into_iter()
        .filter_map(|w| usize::try_from(w).ok())
        .collect())
}

/// Each seat's place (1 = first) in a game's `result`.
///
/// # Errors
/// When `result` has no `scores` and `winners` lists.
pub fn places(result: &Value) -> Result<Vec<u16>, Unreadable> {
    let scores = ints(&result["scores"], "scores")?;
    let winners = winners(result)?;
    Ok((0..scores.len())
        .map(|s| {
            if winners.contains(&s) {
                return 1;
            }
            let ahead = (0..scores.len())
                .filter(|&o| o != s && !winners.contains(&o) && scores[o] > scores[s])
                .count();
            u16::try_from(1 + winners.len() + ahead).unwrap_or(u16::MAX)
        })
        .collect())
}

/// Each deal's result per seat (`[deal][seat]`) in a game's `result`, for a
/// ruleset with a duplicate mode; `deals` is how many deals the tables were
/// given (missing ones are filled as the rules above say).
///
/// # Errors
/// When `result` is not the ruleset's, or the ruleset has no duplicate mode.
pub fn deal_results(
    kind: GameKind,
    result: &Value,
    deals: usize,
) -> Result<Vec<Vec<i64>>, Unreadable> {
    let mut played: Vec<Vec<i64>> = match kind {
        GameKind::Hats => vec![ints(&result["scores"], "scores")?],
        GameKind::Goathead => result["rounds"]
            .as_array()
            .ok_or_else(|| Unreadable("rounds is not a list".to_owned()))?
            .iter()
            .map(|round| ints(&round["payments"], "payments"))
            .collect::<Result<_, _>>()?,
        other => return Err(Unreadable(format!("{} has no duplicate mode", other.id()))),
    };
    let seats = ints(&result["scores"], "scores")?.len();
    let winners = winners(result)?;
    played.truncate(deals);
    while played.len() < deals {
        played.push(
            (0..seats)
                .map(|s| {
                    if winners.contains(&s) {
                        i64::MAX
                    } else {
                        i64::MIN
                    }
                })
                .collect(),
        );
    }
    Ok(played)
}

/// How a table's game ended: its seats, and its result (`None`: the game
/// was abandoned without one; every seat scores nothing, and in duplicate
/// mode every deal counts as beaten by every other table).
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub seats: usize,
    pub result: Option<Value>,
}

/// Each table's seats' points for a round whose tables' games ended with
/// `results` (in table order).
///
/// # Errors
/// A result that cannot be read, or tables that did not play the same deals.
pub fn round_points(
    kind: GameKind,
    duplicate: bool,
    deals: usize,
    results: &[Outcome],
) -> Result<Vec<Vec<Points>>, Unreadable> {
    if !duplicate {
        return results
            .iter()
            .map(|o| match &o.result {
                Some(r) => Ok(by_places(&places(r)?)),
                None => Ok(vec![Points(0); o.seats]),
            })
            .collect();
    }
    let compared: Vec<Vec<Vec<i64>>> = results
        .iter()
        .map(|o| match &o.result {
            Some(r) => deal_results(kind, r, deals),
            None => Ok(vec![vec![i64::MIN; o.seats]; deals]),
        })
        .collect::<Result<_, _>>()?;
    // Tables held the same cards only when they seat as many players.
    let mut points = vec![Vec::new(); results.len()];
    let mut sizes: Vec<usize> = results.iter().map(|o| o.seats).collect();
    sizes.sort_unstable();
    sizes.dedup();
    for size in sizes {
        let group: Vec<usize> = (0..results.len())
            .filter(|&t| results[t].seats == size)
            .collect();
        let same: Vec<Vec<Vec<i64>>> = group.iter().map(|&t| compared[t].clone()).collect();
        let shares = matchpoints::shares(&same).map_err(|e| Unreadable(format!("{e:?}")))?;
        for (&t, share) in group.iter().zip(shares) {
            points[t] = share;
        }
    }
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn given_a_winner_and_equal_totals_behind_then_places_are_1_2_2() {
        let r = json!({"scores": [10, 4, 4], "winners": [0], "rounds": []});
        assert_eq!(places(&r).unwrap(), vec![1, 2, 2]);
    }

    #[test]
    fn given_a_tie_break_winner_then_the_winner_is_first_despite_equal_totals() {
        let r = json!({"scores": [7, 7], "winners": [1], "rounds": []});
        assert_eq!(places(&r).unwrap(), vec![2, 1]);
        assert_eq!(
            by_places(&places(&r).unwrap()),
            vec![Points(0), Points::ROUND]
        );
    }

    #[test]
    fn given_a_goathead_match_then_each_round_s_payments_are_its_deal_results() {
        let r = json!({"scores": [3, -3], "winners": [0],
            "rounds": [{"payments": [2, -2]}, {"payments": [1, -1]}]});
        assert_eq!(
            deal_results(GameKind::Goathead, &r, 2).unwrap(),
            vec![vec![2, -2], vec![1, -1]]
        );
    }

    #[test]
    fn given_a_match_ended_early_then_its_missing_deals_go_to_the_winners() {
        let r = json!({"scores": [2, -2], "winners": [0], "rounds": [{"payments": [2, -2]}]});
        assert_eq!(
            deal_results(GameKind::Goathead, &r, 2).unwrap()[1],
            vec![i64::MAX, i64::MIN]
        );
    }

    #[test]
    fn given_two_duplicate_hats_tables_then_the_better_score_in_a_seat_takes_its_top() {
        // Table 0: seat 0 scored 12, seat 1 scored 9; table 1: 10 and 9.
        let results = [
            json!({"scores": [12, 9], "winners": [0], "rounds": []}),
            json!({"scores": [10, 9], "winners": [0], "rounds": []}),
        ]
        .map(|r| Outcome {
            seats: 2,
            result: Some(r),
        });
        let points = round_points(GameKind::Hats, true, 1, &results).unwrap();
        assert_eq!(points[0], vec![Points::ROUND, Points::HALF]);
        assert_eq!(points[1], vec![Points(0), Points::HALF]);
        // Not duplicate: each table by places.
        let points = round_points(GameKind::Hats, false, 1, &results).unwrap();
        assert_eq!(points[1], vec![Points::ROUND, Points(0)]);
    }

    #[test]
    fn given_an_abandoned_table_then_its_seats_score_nothing() {
        let abandoned = Outcome {
            seats: 2,
            result: None,
        };
        let won = Outcome {
            seats: 2,
            result: Some(json!({"scores": [3, 1], "winners": [0], "rounds": []})),
        };
        let points = round_points(GameKind::Hats, true, 1, &[abandoned.clone(), won]).unwrap();
        assert_eq!(points[0], vec![Points(0), Points(0)]);
        assert_eq!(points[1], vec![Points::ROUND, Points::ROUND]);
        let points = round_points(GameKind::Hats, false, 1, &[abandoned]).unwrap();
        assert_eq!(points[0], vec![Points(0), Points(0)]);
    }
}
