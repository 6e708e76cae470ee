//! Sides, the scoring of a round and the result of a match.

use serde::{Deserialize, Serialize};

use super::cards::{Card, CardSet, Contract, JC, JS, Rank};
use crate::ruleset::{Seat, seat};

/// Trick points a contract needs (with the kitty as the rules count it).
pub const TO_MAKE: u8 = 61;
/// Trick points of a winning side that earn the +1 bonus.
pub const BIG_WIN: u8 = 90;
/// All trick points of the deck.
pub const TOTAL_POINTS: u8 = 120;

/// One round's line in the match breakdown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct GoatheadRound {
    /// The round (0-based) and its dealer.
    pub round: u8,
    pub dealer: Seat,
    /// The contract played and its declarer (none in Leasters).
    pub contract: Contract,
    pub declarer: Option<Seat>,
    /// The declarer's side and the other side (both empty in Leasters).
    pub declaring_side: Vec<Seat>,
    pub defending_side: Vec<Seat>,
    /// Trick points and tricks taken per seat, the kitty not included.
    pub trick_points: Vec<u8>,
    pub tricks_won: Vec<u8>,
    /// The kitty's points as counted: for the declaring side, for the winner
    /// of the last trick in Leasters, 0 (for nobody) in Nil.
    pub kitty_points: u8,
    /// The declaring side's points, the kitty included (none in Leasters).
    pub side_points: Option<u8>,
    /// Whether the contract was made (none in Leasters).
    pub made: Option<bool>,
    /// What each loser pays (per the side sizes, see the rules); 1 in Leasters.
    pub value: i32,
    /// The game points each seat gained (negative: paid). They sum to zero.
    pub payments: Vec<i32>,
}

/// Which seat holds `card`, if any holds it (it may lie in the kitty).
fn holder(hands: &[CardSet], card: Card) -> Option<Seat> {
    hands.iter().position(|h| h.contains(card)).map(seat)
}

/// The declaring side (a bit per seat) and the seat that must announce holding
/// both black Jacks, from the hands when play begins.
///
/// Leasters has no sides (0). With 3 players, and in Court and Nil, the
/// declarer plays alone. A 4-player suit contract pairs the holders of the two
/// black Jacks; one holder of both announces it and partners the holder of the
/// trump Queen; a black Jack in the kitty makes the holder of the other one
/// partner the holder of the trump Queen; whoever finds no partner (the Queen
/// in their own hand or in the kitty) plays alone, and with no black Jack in
/// any hand the declarer plays alone. The declaring side is the one that
/// contains the declarer.
#[must_use]
pub fn sides(
    players: usize,
    contract: Contract,
    declarer: Seat,
    hands: &[CardSet],
) -> (u8, Option<Seat>) {
    let all = (1u8 << players) - 1;
    let alone = 1u8 << declarer.0;
    let trump = match contract {
        Contract::Leasters => return (0, None),
        Contract::Suit(trump) if players == 4 => trump,
        _ => return (alone, None),
    };
    let queen = holder(hands, Card::new(trump, Rank::Queen));
    let with_queen = |h: Seat| match queen {
        Some(q) if q != h => (1u8 << h.0) | (1 << q.0),
        _ => 1u8 << h.0,
    };
    let (group, announced) = match (holder(hands, JC), holder(hands, JS)) {
        (Some(a), Some(b)) if a != b => ((1u8 << a.0) | (1 << b.0), None),
        (Some(a), Some(_)) => (with_queen(a), Some(a)),
        (Some(h), None) | (None, Some(h)) => (with_queen(h), None),
        (None, None) => (alone, None),
    };
    let side = if group & alone != 0 {
        group
    } else {
        all & !group
    };
    (side, announced)
}

/// What the scoring of a round needs to know.
#[derive(Clone, Copy, Debug)]
pub struct RoundFacts<'a> {
    pub round: u8,
    pub dealer: Seat,
    pub players: usize,
    pub contract: Contract,
    pub declarer: Option<Seat>,
    /// The declaring side (a bit per seat).
    pub declaring_side: u8,
    pub trick_points: &'a [u8],
    pub tricks_won: &'a [u8],
    /// The kitty's trick points.
    pub kitty_points: u8,
    /// The declarer left the kitty (3p) or swapped nothing (4p).
    pub kitty_bonus: bool,
    /// The winner of the last trick played.
    pub last_winner: Seat,
}

/// Scores a finished round.
///
/// A contract is made with at least 61 points for the declaring side (kitty
/// included, except in Nil), Nil when the declarer won no trick. The value is
/// the base (suit 1, nil 2, court 2), +2 when the winning side took every
/// trick or else +1 when it has at least 90 points (neither for Nil), +1 when
/// the declarer left the kitty or swapped nothing; whichever side wins gets
/// it. Each seat of the larger side gains or loses the value, the smaller side
/// balances it evenly. Leasters: each seat with the most points pays 1 to each
/// seat with the fewest.
#[must_use]
pub fn score(facts: &RoundFacts<'_>) -> GoatheadRound {
    let n = facts.players;
    let mut round = GoatheadRound {
        round: facts.round,
        dealer: facts.dealer,
        contract: facts.contract,
        declarer: facts.declarer,
        declaring_side: Vec::new(),
        defending_side: Vec::new(),
        trick_points: facts.trick_points[..n].to_vec(),
        tricks_won: facts.tricks_won[..n].to_vec(),
        kitty_points: facts.kitty_points,
        side_points: None,
        made: None,
        value: 1,
        payments: vec![0; n],
    };
    if facts.contract == Contract::Leasters {
        score_leasters(facts, &mut round);
        return round;
    }
    let all = (1u8 << n) - 1;
    let declaring = facts.declaring_side & all;
    let defending = all & !declaring;
    let in_side = |mask: u8, i: usize| mask & (1 << i) != 0;
    let sum = |mask: u8, values: &[u8]| -> u8 {
        (0..n)
            .filter(|&i| in_side(mask, i))
            .map(|i| values[i])
            .sum()
    };
    let nil = facts.contract == Contract::Nil;
    if nil {
        round.kitty_points = 0;
    }
    let side_points = sum(declaring, facts.trick_points) + round.kitty_points;
    let made = if nil {
        facts
            .declarer
            .is_none_or(|d| facts.tricks_won[d.index()] == 0)
    } else {
        side_points >= TO_MAKE
    };
    let (winners, losers) = if made {
        (declaring, defending)
    } else {
        (defending, declaring)
    };
    let mut value = facts.contract.base_value();
    if !nil {
        let tricks_played: u8 = facts.tricks_won[..n].iter().sum();
        let winner_points = if made {
            side_points
        } else {
            TOTAL_POINTS - side_points
        };
        if sum(winners, facts.tricks_won) == tricks_played {
            value += 2;
        } else if winner_points >= BIG_WIN {
            value += 1;
        }
    }
    if facts.kitty_bonus {
        value += 1;
    }
    let (w, l) = (winners.count_ones(), losers.count_ones());
    // Each seat of the larger side moves by `value`; the smaller side balances.
    let (large_gain, small_gain) = if w >= l {
        let each = value * i32::try_from(w / l.max(1)).unwrap_or(1);
        (value, -each)
    } else {
        let each = value * i32::try_from(l / w.max(1)).unwrap_or(1);
        (-value, each)
    };
    for i in 0..n {
        let larger = if w >= l {
            in_side(winners, i)
        } else {
            in_side(losers, i)
        };
        round.payments[i] = if larger { large_gain } else { small_gain };
    }
    round.declaring_side = (0..n)
        .filter(|&i| in_side(declaring, i))
        .map(seat)
        .collect();
    round.defending_side = (0..n)
        .filter(|&i| in_side(defending, i))
        .map(seat)
        .collect();
    round.side_points = Some(side_points);
    round.made = Some(made);
    round.value = value;
    round
}

fn score_leasters(facts: &RoundFacts<'_>, round: &mut GoatheadRound) {
    let n = facts.players;
    let points: Vec<u8> = (0..n)
        .map(|i| {
            facts.trick_points[i]
                + if facts.last_winner.index() == i {
                    facts.kitty_points
                } else {
                    0
                }
        })
        .collect();
    let (most, fewest) = (
        points.iter().copied().max().unwrap_or(0),
        points.iter().copied().min().unwrap_or(0),
    );
    if most == fewest {
        return;
    }
    let count = |p: u8| i32::try_from(points.iter().filter(|&&x| x == p).count()).unwrap_or(0);
    let (payers, payees) = (count(most), count(fewest));
    for (i, &p) in points.iter().enumerate() {
        if p == most {
            round.payments[i] = -payees;
        } else if p == fewest {
            round.payments[i] = payers;
        }
    }
}

/// The seats with the highest total (several share a tie).
#[must_use]
pub fn winners(scores: &[i32]) -> Vec<Seat> {
    let best = scores.iter().copied().max().unwrap_or(0);
    (0..scores.len())
        .filter(|&i| scores[i] == best)
        .map(seat)
        .collect()
}
