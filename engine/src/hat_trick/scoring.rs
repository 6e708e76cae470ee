//! Scoring a deal and the match.

use serde::{Deserialize, Serialize};

use super::cards::Trump;
use super::options::Mode;

use crate::ruleset::{Seat, seat};

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
