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
//!   Hat Trick one per deal of the match, its result the deal's `points`
//!   (as the match adds them: a mixed game's negative deal already counts
//!   against the seat), negated in the `negative` game, where they are
//!   penalty points and the lowest total wins;
//! - a deal the game did not reach (a match ended early) counts as beaten
//!   by every other table for the seats that are not among the winners and
//!   as beating every other table for the winners, so leaving a match
//!   never pays;
//! - a round's **points**: by places ([`super::points::by_places`]), or in
//!   duplicate mode the matchpoint shares of every table of the round
//!   ([`super::matchpoints::shares`]), each table compared only with the
//!   tables of its own size (an elimination's bracket can leave a table
//!   short, and its deals were drawn for its size: as many as
//!   [`super::duplicate::deal_count`] gives for that size).

use hatstand_engine::GameKind;
use hatstand_engine::hat_trick::HatTrickOptions;
use hatstand_engine::hat_trick::options::Mode;
use serde_json::Value;

use super::points::{Points, by_places};
use super::{duplicate, matchpoints};

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
/// ruleset with a duplicate mode played with `options` (the tournament's);
/// `deals` is how many deals the tables were given (missing ones are filled
/// as the rules above say).
///
/// # Errors
/// When `result` or `options` are not the ruleset's, or the ruleset has no
/// duplicate mode.
pub fn deal_results(
    kind: GameKind,
    options: &Value,
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
        GameKind::HatTrick => {
            let options: HatTrickOptions = serde_json::from_value(options.clone())
                .map_err(|e| Unreadable(format!("options: {e}")))?;
            let sign = if options.mode == Mode::Negative {
                -1
            } else {
                1
            };
            result["rounds"]
                .as_array()
                .ok_or_else(|| Unreadable("rounds is not a list".to_owned()))?
                .iter()
                .map(|round| {
                    Ok(ints(&round["points"], "points")?
                        .into_iter()
                        .map(|p| sign * p)
                        .collect())
                })
                .collect::<Result<_, _>>()?
        }
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

/// Each table's seats' points for a round whose tables' games, played with
/// the tournament's `options`, ended with `results` (in table order).
///
/// # Errors
/// A result that cannot be read, or tables that did not play the same deals.
pub fn round_points(
    kind: GameKind,
    options: &Value,
    duplicate: bool,
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
        .map(|o| {
            let deals = duplicate::deal_count(kind, options, o.seats)
                .map_err(|e| Unreadable(format!("{e:?}")))?;
            match &o.result {
                Some(r) => deal_results(kind, options, r, deals),
                None => Ok(vec![vec![i64::MIN; o.seats]; deals]),
            }
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
            deal_results(GameKind::Goathead, &json!({"rounds": 2}), &r, 2).unwrap(),
            vec![vec![2, -2], vec![1, -1]]
        );
    }

    #[test]
    fn given_a_match_ended_early_then_its_missing_deals_go_to_the_winners() {
        let r = json!({"scores": [2, -2], "winners": [0], "rounds": [{"payments": [2, -2]}]});
        assert_eq!(
            deal_results(GameKind::Goathead, &json!({"rounds": 2}), &r, 2).unwrap()[1],
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
        let points = round_points(GameKind::Hats, &json!({}), true, &results).unwrap();
        assert_eq!(points[0], vec![Points::ROUND, Points::HALF]);
        assert_eq!(points[1], vec![Points(0), Points::HALF]);
        // Not duplicate: each table by places.
        let points = round_points(GameKind::Hats, &json!({}), false, &results).unwrap();
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
        let points =
            round_points(GameKind::Hats, &json!({}), true, &[abandoned.clone(), won]).unwrap();
        assert_eq!(points[0], vec![Points(0), Points(0)]);
        assert_eq!(points[1], vec![Points::ROUND, Points::ROUND]);
        let points = round_points(GameKind::Hats, &json!({}), false, &[abandoned]).unwrap();
        assert_eq!(points[0], vec![Points(0), Points(0)]);
    }

    /// A Hat Trick result of a 3-seat match from its deals' points.
    fn hat_trick(points: &[[i64; 3]], winners: &[usize]) -> Value {
        let scores: Vec<i64> = (0..3).map(|s| points.iter().map(|p| p[s]).sum()).collect();
        json!({"scores": scores, "winners": winners, "tie_break": null,
            "rounds": points.iter().map(|p| json!({"points": p})).collect::<Vec<_>>()})
    }

    fn outcomes(results: Vec<Value>) -> Vec<Outcome> {
        results
            .into_iter()
            .map(|r| Outcome {
                seats: r["scores"].as_array().map_or(0, Vec::len),
                result: Some(r),
            })
            .collect()
    }

    #[test]
    fn given_a_hat_trick_match_then_each_deal_s_points_are_its_deal_results() {
        let r = hat_trick(&[[1, 12, 0], [16, -3, -3]], &[0]);
        let standard = json!({"rounds": 2});
        assert_eq!(
            deal_results(GameKind::HatTrick, &standard, &r, 2).unwrap(),
            vec![vec![1, 12, 0], vec![16, -3, -3]]
        );
        // In the negative game they are penalty points: negated.
        let negative = json!({"rounds": 2, "mode": "negative"});
        assert_eq!(
            deal_results(GameKind::HatTrick, &negative, &r, 2).unwrap(),
            vec![vec![-1, -12, 0], vec![-16, 3, 3]]
        );
        // A mixed game's negative deal already counts against its seats.
        let mixed = json!({"rounds": 2, "mode": "cycle_with_negative"});
        assert_eq!(
            deal_results(GameKind::HatTrick, &mixed, &r, 2).unwrap()[1],
            vec![16, -3, -3]
        );
        // Options that are not Hat Trick's cannot be read.
        assert!(deal_results(GameKind::HatTrick, &json!({"kitty": 2}), &r, 2).is_err());
    }

    #[test]
    fn given_two_duplicate_hat_trick_tables_then_matchpoints_as_worked_by_hand() {
        // Deal 0: seat 0 scored 1 at table 0 and 5 at table 1 (table 1 beats
        // it), seat 1 12 and 8 (table 0), seat 2 0 and 0 (a tie). Deal 1:
        // seat 0 16 and 1 (table 0), seat 1 −3 and 4 (table 1), seat 2 −3
        // and 8 (table 1). Halves out of 4 (two deals, a top of 2 each):
        // table 0 2, 2, 1; table 1 2, 2, 3.
        let results = outcomes(vec![
            hat_trick(&[[1, 12, 0], [16, -3, -3]], &[0]),
            hat_trick(&[[5, 8, 0], [1, 4, 8]], &[1]),
        ]);
        let standard = json!({"rounds": 2});
        let points = round_points(GameKind::HatTrick, &standard, true, &results).unwrap();
        assert_eq!(points[0], vec![Points(500), Points(500), Points(250)]);
        assert_eq!(points[1], vec![Points(500), Points(500), Points(750)]);
        // The same points as penalty points in the negative game: every
        // comparison turns round (table 0 2, 2, 3; table 1 2, 2, 1).
        let negative = json!({"rounds": 2, "mode": "negative"});
        let points = round_points(GameKind::HatTrick, &negative, true, &results).unwrap();
        assert_eq!(points[0], vec![Points(500), Points(500), Points(750)]);
        assert_eq!(points[1], vec![Points(500), Points(500), Points(250)]);
    }

    #[test]
    fn given_short_hat_trick_tables_then_they_are_compared_over_their_own_deals() {
        // Default options: one deal per player, so two 2-seat tables of an
        // elimination played two deals (not three as the 3-seat tables).
        let two = |points: [[i64; 2]; 2], winner: usize| {
            json!({"scores": [points[0][0] + points[1][0], points[0][1] + points[1][1]],
                "winners": [winner],
                "rounds": [{"points": points[0]}, {"points": points[1]}]})
        };
        let results = outcomes(vec![
            hat_trick(&[[1, 0, 12], [12, 1, 0], [0, 13, 0]], &[1]),
            two([[5, 1], [1, 4]], 0),
            hat_trick(&[[1, 0, 12], [12, 1, 0], [0, 13, 0]], &[1]),
            two([[1, 5], [4, 1]], 1),
        ]);
        let points = round_points(GameKind::HatTrick, &json!({}), true, &results).unwrap();
        // Each 2-seat table beats the other in one deal per seat: 2 of 4.
        assert_eq!(points[1], vec![Points::HALF, Points::HALF]);
        assert_eq!(points[3], vec![Points::HALF, Points::HALF]);
        // The 3-seat tables tie everything.
        assert_eq!(points[0], vec![Points::HALF; 3]);
    }

    /// Property: for random duplicate Hat Trick rounds (2–7 tables of 3,
    /// 1–4 deals, points from a small range so ties happen, some tables
    /// abandoned), permuting the tables permutes their points alike.
    #[test]
    fn property_permuting_hat_trick_tables_changes_no_score() {
        use rand::seq::SliceRandom;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4747);
        for _ in 0..300 {
            let tables = rng.random_range(2..8);
            let deals: u8 = rng.random_range(1..5);
            let options = json!({"rounds": deals});
            let results: Vec<Outcome> = (0..tables)
                .map(|_| {
                    let points: Vec<[i64; 3]> = (0..deals)
                        .map(|_| [0; 3].map(|_| rng.random_range(-3..4)))
                        .collect();
                    Outcome {
                        seats: 3,
                        result: (rng.random_range(0..6) > 0)
                            .then(|| hat_trick(&points, &[rng.random_range(0..3)])),
                    }
                })
                .collect();
            let mut order: Vec<usize> = (0..tables).collect();
            order.shuffle(&mut rng);
            let permuted: Vec<Outcome> = order.iter().map(|&t| results[t].clone()).collect();
            let points = round_points(GameKind::HatTrick, &options, true, &results).unwrap();
            let again = round_points(GameKind::HatTrick, &options, true, &permuted).unwrap();
            for (i, &t) in order.iter().enumerate() {
                assert_eq!(again[i], points[t]);
            }
        }
    }
}
