//! What a viewer sees of a match.

use serde::Serialize;

use super::cards::{Card, CardSet, Contract};
use super::scoring::GoatheadRound;
use super::state::{BidRecord, GoatheadState, Phase, TrickRecord};
use crate::ruleset::{Seat, Viewer};

/// A card on the table: who played it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = GoatheadPlayedCard))]
pub struct PlayedCard {
    pub seat: Seat,
    pub card: Card,
}

/// The match as one viewer sees it.
///
/// Public: the round, dealer, bids, contract, declarer, the announcement, the
/// tricks (cards, winners, points), points taken per seat, game points and the
/// last scored round. Private: the viewer's own hand; the whole kitty to the
/// 4-player swapper while swapping and to the 4-player declarer while keeping
/// or upgrading; the kitty cards the viewer put there itself. The audit sees
/// every hand, the kitty and the sides.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct GoatheadView {
    pub players: u8,
    pub rounds: u8,
    pub round: u8,
    pub dealer: Seat,
    /// `bidding`, `kitty_choice`, `bury`, `contract_choice`, `swap`, `play`, `finished`.
    pub phase: &'static str,
    pub to_act: Vec<Seat>,
    pub game_points: Vec<i32>,
    pub bids: Vec<BidRecord>,
    pub bid_leader: Option<Seat>,
    pub highest_bid: Option<Contract>,
    pub contract: Option<Contract>,
    pub declarer: Option<Seat>,
    /// 3 players: whether the declarer took the kitty (once decided).
    pub kitty_taken: bool,
    /// 4 players: the seat that announced both black Jacks.
    pub announced: Option<Seat>,
    /// The viewer's hand (none for spectators and the audit).
    pub hand: Option<CardSet>,
    /// Every hand: the audit only.
    pub hands: Option<Vec<CardSet>>,
    pub hand_sizes: Vec<usize>,
    /// The whole kitty, when the viewer may see it.
    pub kitty: Option<CardSet>,
    /// The kitty cards the viewer put there itself.
    pub kitty_known: CardSet,
    pub kitty_size: usize,
    /// The declaring side's seats: the audit only.
    pub declaring_side: Option<Vec<Seat>>,
    /// The trick being played, in play order.
    pub trick: Vec<PlayedCard>,
    /// The finished tricks of this round.
    pub tricks: Vec<TrickRecord>,
    /// Trick points and tricks taken so far per seat (the kitty not included).
    pub trick_points: Vec<u8>,
    pub tricks_won: Vec<u8>,
    /// The last scored round, if any. The view stays the same size however
    /// long the match: every scored round is in the events and, once the
    /// match is over, in the result's `rounds`.
    pub last_round: Option<GoatheadRound>,
}

fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Bidding { .. } => "bidding",
        Phase::KittyChoice => "kitty_choice",
        Phase::Bury => "bury",
        Phase::ContractChoice => "contract_choice",
        Phase::Swap { .. } => "swap",
        Phase::Starting | Phase::Play { .. } => "play",
        Phase::RoundOver => "round_over",
        Phase::Finished => "finished",
    }
}

/// What `viewer` sees of `state`.
#[must_use]
pub fn view(state: &GoatheadState, viewer: Viewer) -> GoatheadView {
    let cur = &state.current;
    let own = match viewer {
        Viewer::Seat(s) => Some(s),
        _ => None,
    };
    let auditor = viewer.is_auditor();
    let sees_kitty = auditor || own.is_some_and(|s| state.sees_kitty(s));
    let n = state.player_count();
    let trick_leader = cur.trick_leader.map_or(0, Seat::index);
    GoatheadView {
        players: state.players,
        rounds: state.rounds,
        round: state.round,
        dealer: state.dealer,
        phase: phase_name(state.phase),
        to_act: state.actor().into_iter().collect(),
        game_points: state.game_points.clone(),
        bids: cur.bids.clone(),
        bid_leader: cur.leader,
        highest_bid: cur.highest,
        contract: cur.contract,
        declarer: cur.declarer,
        kitty_taken: cur.kitty_taken,
        announced: cur.announced,
        hand: own.and_then(|s| cur.hands.get(s.index()).copied()),
        hands: auditor.then(|| cur.hands.clone()),
        hand_sizes: cur.hands.iter().map(|h| h.len()).collect(),
        kitty: sees_kitty.then_some(cur.kitty),
        kitty_known: own
            .and_then(|s| cur.kitty_known.get(s.index()))
            .map_or(CardSet::EMPTY, |k| k.intersection(cur.kitty)),
        kitty_size: cur.kitty.len(),
        declaring_side: auditor.then(|| state.seats_of(cur.declaring_side)),
        trick: cur
            .trick
            .iter()
            .enumerate()
            .map(|(i, &card)| PlayedCard {
                seat: crate::ruleset::seat((trick_leader + i) % n),
                card,
            })
            .collect(),
        tricks: cur.tricks.clone(),
        trick_points: cur.trick_points.clone(),
        tricks_won: cur.tricks_won.clone(),
        last_round: state.history.last().cloned(),
    }
}
