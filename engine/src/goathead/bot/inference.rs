//! What the other seats' bids say about their hands.
//!
//! A seat's bids depend on its hand; the search models every other seat as
//! the greedy bidder, so a deal under which a seat would have bid otherwise
//! than it did is less likely than one under which it would not. Of up to
//! [`INFERENCE_ATTEMPTS`] deals drawn, the first under which every bid the
//! view shows is greedy's is kept, else the one whose hands come nearest to
//! such hands (the least "surprise", see [`bid_distance`]). A seat that bids
//! otherwise (a person) only makes the preference weaker: every deal stays
//! possible.
//!
//! A hand is checked only when the view tells what it was during the
//! bidding: every hand but the seat's own while bidding; with 3 players the
//! hands now plus the cards played, except the declarer's when it took the
//! kitty; with 4 players none after the bidding (the kitty round may have
//! changed any hand, and the view does not say whose).

use super::greedy::bid_distance;
use super::{Command, plays};
use crate::bots::{BotRng, Seen};
use crate::goathead::Goathead;
use crate::goathead::cards::CardSet;
use crate::goathead::state::BidAction;
use crate::ruleset::Seat;

/// The most deals drawn for one determinization.
const INFERENCE_ATTEMPTS: usize = 20;

/// The deal (as `deal` draws them: the hidden cards per seat, then the
/// kitty) most consistent with the other seats' bids, of up to
/// [`INFERENCE_ATTEMPTS`] drawn (the first of the least surprise).
pub(super) fn likeliest_deal(
    seen: &Seen<'_, Goathead>,
    rng: &mut BotRng,
    mut deal: impl FnMut(&mut BotRng) -> Vec<CardSet>,
) -> Vec<CardSet> {
    let mut best = deal(rng);
    let mut least = surprise(seen, &best, f64::INFINITY);
    for _ in 1..INFERENCE_ATTEMPTS {
        if least <= 0.0 {
            break;
        }
        let other = deal(rng);
        let distance = surprise(seen, &other, least);
        if distance < least {
            least = distance;
            best = other;
        }
    }
    best
}

/// Per seat, the hand it bid with, given the hidden cards `dealt` (per
/// seat, then the kitty), when the view tells it: none for the seat itself
/// and for hands changed since in ways the view hides.
fn bidding_hands(seen: &Seen<'_, Goathead>, dealt: &[CardSet]) -> Vec<Option<CardSet>> {
    let view = seen.view;
    let n = usize::from(view.players);
    let mut out: Vec<Option<CardSet>> = (0..n).map(|i| dealt.get(i).copied()).collect();
    out[seen.seat.index()] = None;
    if view.phase == "bidding" {
        return out;
    }
    if n == 4 {
        return vec![None; n];
    }
    if view.kitty_taken
        && let Some(d) = view.declarer
    {
        out[d.index()] = None;
    }
    for (s, c) in plays(view) {
        if let Some(h) = out[s.index()].as_mut() {
            h.insert(c);
        }
    }
    out
}

/// How far the hands of `dealt` are from hands on which the greedy bidder
/// would have sent the other seats' bids (see [`bid_distance`]), summed;
/// the sum stops once it reaches `limit`.
fn surprise(seen: &Seen<'_, Goathead>, dealt: &[CardSet], limit: f64) -> f64 {
    let view = seen.view;
    let n = usize::from(view.players);
    let hands = bidding_hands(seen, dealt);
    let mut highest = None;
    let mut leader: Option<Seat> = None;
    let mut sum = 0.0;
    for record in &view.bids {
        if let Some(hand) = hands.get(record.seat.index()).copied().flatten() {
            let may_steal = leader.is_some_and(|l| {
                view.game_points[record.seat.index()] < view.game_points[l.index()]
            });
            let sent = match (record.action, record.contract) {
                (BidAction::Bid, Some(contract)) => Command::Bid { contract },
                (BidAction::Steal, _) => Command::Steal {},
                _ => Command::Pass {},
            };
            sum += bid_distance(highest, may_steal, hand, n, sent);
            if sum >= limit {
                return sum;
            }
        }
        if record.action != BidAction::Pass {
            highest = record.contract;
            leader = Some(record.seat);
        }
    }
    sum
}
