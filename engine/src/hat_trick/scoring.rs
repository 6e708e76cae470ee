//! Scoring a deal and the match.

use serde::{Deserialize, Serialize};

use super::options::Mode;
use super::state::{HatTrickState, Trump};
use crate::ruleset::{GameResult, Seat, seat};

/// Points of the scoring tricks (1st, 6th, last).
pub const TRICK_POINTS: [i32; 3] = [1, 4, 8];
/// The hat-trick bonus (and what every other player loses).
pub const HAT_TRICK: i32 = 3;

/// How a prediction turned out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HatTrickPredictionOutcome))]
pub struct PredictionOutcome {
    /// Who predicted.
    pub seat: Seat,
    /// The trick they played to when predicting.
    pub made_on: u8,
    /// The trick claimed.
    pub claims: u8,
    /// Its value.
    pub value: i32,
    /// Whether they took the claimed trick.
    pub won: bool,
    /// + value if won, − 2 × value if lost.
    pub points: i32,
}

/// One deal's line of the result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HatTrickRoundResult))]
pub struct RoundResult {
    /// The deal number (0-based).
    pub round: u8,
    /// The dealer.
    pub dealer: Seat,
    /// Trump of the deal.
    pub trump: Trump,
    /// Whether the deal was negative.
    pub negative: bool,
    /// Who took the 1st, 6th and last trick.
    pub scoring_tricks: [Seat; 3],
    /// Who took all three, if anyone.
    pub hat_trick: Option<Seat>,
    /// The predictions and how they went.
    pub predictions: Vec<PredictionOutcome>,
    /// This deal's points per seat (penalty points in the negative game,
    /// subtracted in a mixed game's negative deal).
    pub points: Vec<i32>,
    /// Match totals per seat after this deal.
    pub totals: Vec<i32>,
}

/// Scores the deal whose last trick `last_winner` has just taken.
///
/// Scoring tricks 1st, 6th and last: 1, 4, 8 to their winner; a hat trick
/// (all three) +3 to its taker and −3 to every other player; predictions
/// plus their value when won, minus twice it when lost. A negative deal gives the same
/// numbers as penalty points (no predictions): added in the `negative` game,
/// subtracted from the score in a mixed game.
#[must_use]
pub fn score_round(state: &HatTrickState, last_winner: Seat) -> RoundResult {
    let n = state.n();
    let winners = [
        state.scoring[0].unwrap_or(last_winner),
        state.scoring[1].unwrap_or(last_winner),
        last_winner,
    ];
    let mut points = vec![0; n];
    for (w, p) in winners.iter().zip(TRICK_POINTS) {
        points[w.index()] += p;
    }
    let hat_trick = (winners[0] == winners[1] && winners[1] == winners[2]).then_some(winners[0]);
    if let Some(h) = hat_trick {
        for (s, p) in points.iter_mut().enumerate() {
            *p += if s == h.index() {
                HAT_TRICK
            } else {
                -HAT_TRICK
            };
        }
    }
    let mut predictions = Vec::new();
    for (window, prediction) in state.predictions.iter().enumerate() {
        if let Some(p) = prediction {
            let won = winners[window + 1] == p.seat;
            let delta = if won { p.value } else { -2 * p.value };
            points[p.seat.index()] += delta;
            predictions.push(PredictionOutcome {
                seat: p.seat,
                made_on: p.made_on,
                claims: p.claims,
                value: p.value,
                won,
                points: delta,
            });
        }
    }
    if state.negative && state.options.mode != Mode::Negative {
        for p in &mut points {
            *p = -*p;
        }
    }
    let totals = state
        .scores
        .iter()
        .zip(&points)
        .map(|(a, b)| a + b)
        .collect();
    RoundResult {
        round: state.round,
        dealer: state.dealer,
        trump: state.trump,
        negative: state.negative,
        scoring_tricks: winners,
        hat_trick,
        predictions,
        points,
        totals,
    }
}

/// The winners of a match with these totals: the highest (the lowest in the
/// `negative` game); ties are shared.
#[must_use]
pub fn winners(mode: Mode, totals: &[i32]) -> Vec<Seat> {
    let best = if mode == Mode::Negative {
        totals.iter().min()
    } else {
        totals.iter().max()
    };
    let Some(&best) = best else {
        return Vec::new();
    };
    (0..totals.len())
        .filter(|&s| totals[s] == best)
        .map(seat)
        .collect()
}

/// The result of a finished match.
#[must_use]
pub fn result(state: &HatTrickState) -> Option<GameResult<RoundResult>> {
    if !state.finished {
        return None;
    }
    let winners = winners(state.options.mode, &state.scores);
    Some(GameResult {
        scores: state.scores.clone(),
        tie_break: (winners.len() > 1).then(|| "shared".to_owned()),
        winners,
        teams: None,
        outcome: None,
        rounds: state.results.clone(),
    })
}
