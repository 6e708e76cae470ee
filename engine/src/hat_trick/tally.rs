//! A deal scored from the state of its end, and the result of a finished
//! match (the figures in `scoring.rs`).

use super::options::Mode;
use super::scoring::{HAT_TRICK, PredictionOutcome, RoundResult, TRICK_POINTS, winners};
use super::state::HatTrickState;
use crate::ruleset::{GameResult, Seat};

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
