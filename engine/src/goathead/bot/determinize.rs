//! Determinization: a complete state the match could be in, given only what
//! a seat sees.
//!
//! Everything public is copied from the seat's view (bids, contract,
//! declarer, tricks, points, game points, the last scored round). The cards
//! the seat cannot see — the other hands and the unseen part of the kitty —
//! are dealt at random among the cards not in its hand, not played this round
//! and not seen in the kitty, with the view's hand and kitty sizes, so that:
//! - a seat that did not follow a led (effective) suit this round holds none
//!   of it;
//! - 4 players, suit contract, in play: the announcer held both black Jacks
//!   when play began; without an announcement no seat held both;
//! - the hidden sides are those the rules derive from the hands as they were
//!   when play began (the hands now plus the cards each seat played);
//! - among several such deals, one under which the other seats' bids are
//!   those the greedy bidder would have made is preferred (see
//!   [`super::inference`]).
//!
//! What the view does not carry is guessed (see [`swap_step`] and
//! [`declarer_swapped`]): in the 4-player kitty round, which step it is when
//! the seat swaps twice (its first turn or the dealer's last one), and
//! whether the declarer swapped (the "swapped nothing" bonus). Only the last
//! scored round of the match history is in the view; the earlier ones are
//! left out (they never change the play, only the result's breakdown).

use super::inference::likeliest_deal;
use super::{played, plays, suit_cards};
use crate::bots::{BotRng, Seen};
use crate::goathead::Goathead;
use crate::goathead::cards::{Card, CardSet, Contract, JC, JS};
use crate::goathead::scoring::sides;
use crate::goathead::state::{BidAction, GoatheadState, Phase, RoundState};
use crate::goathead::view::GoatheadView;
use crate::random::{below, shuffle};
use crate::ruleset::seat;

/// Tries to deal the hidden cards within every constraint before dropping
/// the suits seats showed they lack.
const DEAL_ATTEMPTS: usize = 24;

/// Per seat, the cards it cannot hold: the effective suits it failed to
/// follow in this round's tricks.
fn voids(view: &GoatheadView, contract: Contract) -> Vec<CardSet> {
    let n = usize::from(view.players);
    let mut out = vec![CardSet::EMPTY; n];
    let tricks = view
        .tricks
        .iter()
        .map(|t| (t.leader, t.cards.clone()))
        .chain(
            view.trick
                .first()
                .map(|p| (p.seat, view.trick.iter().map(|p| p.card).collect())),
        );
    for (leader, cards) in tricks {
        let Some(&first) = cards.first() else {
            continue;
        };
        let led = contract.effective_suit(first);
        for (k, &card) in cards.iter().enumerate().skip(1) {
            if contract.effective_suit(card) != led {
                let s = (leader.index() + k) % n;
                out[s] = out[s].union(suit_cards(contract, led));
            }
        }
    }
    out
}

/// The phase the view stands in (the seat is the one to act).
fn phase_of(seen: &Seen<'_, Goathead>, rng: &mut BotRng) -> Phase {
    let view = seen.view;
    let turn = view.to_act.first().copied().unwrap_or(seen.seat);
    match view.phase {
        "bidding" => Phase::Bidding { turn },
        "kitty_choice" => Phase::KittyChoice,
        "bury" => Phase::Bury,
        "contract_choice" => Phase::ContractChoice,
        "swap" => Phase::Swap {
            step: swap_step(seen, rng),
        },
        "play" => Phase::Play { turn },
        "finished" => Phase::Finished,
        _ => Phase::RoundOver,
    }
}

/// The step of the 4-player kitty round at which the seat swaps now.
///
/// The view does not say it when the seat swaps twice (it is the dealer, and
/// also the declarer or one of the others). The seat's second turn is certain
/// when the contract was upgraded (that follows step 0) or when a card it put
/// into the kitty lies there; otherwise one of the possible steps is drawn.
fn swap_step(seen: &Seen<'_, Goathead>, rng: &mut BotRng) -> u8 {
    let view = seen.view;
    let n = usize::from(view.players);
    let declarer = view.declarer.unwrap_or(seat(0));
    let upgraded = view.contract != view.highest_bid;
    let swapped_before = !view.kitty_known.is_empty();
    let candidates: Vec<u8> = (0u8..=4)
        .filter(|&step| {
            let s = if step >= 4 {
                view.dealer
            } else {
                seat((declarer.index() + usize::from(step)) % n)
            };
            s == seen.seat
        })
        .filter(|&step| step != 0 || !upgraded)
        .filter(|&step| step == 4 || !swapped_before)
        .collect();
    match candidates.len() {
        0 => 4,
        1 => candidates[0],
        k => candidates[below(rng, k)],
    }
}

/// Whether the declarer swapped with the kitty (4 players), which the view
/// does not carry: certain when the seat is the declarer and a card it put
/// into the kitty lies there; the declarer's own guess is "no" otherwise; any
/// other seat draws it.
fn declarer_swapped(seen: &Seen<'_, Goathead>, phase: Phase, rng: &mut BotRng) -> bool {
    let view = seen.view;
    if view.players != 4 || phase == (Phase::Swap { step: 0 }) {
        return false;
    }
    if view.declarer == Some(seen.seat) {
        !view.kitty_known.is_empty()
    } else {
        below(rng, 2) == 0
    }
}

/// The constraints of the hidden deal.
struct Hidden {
    /// The cards to deal.
    cards: Vec<Card>,
    /// Per holder (the seats, then the kitty at index `players`), how many
    /// hidden cards it takes.
    room: Vec<usize>,
    /// Per holder, the cards it cannot take.
    banned: Vec<CardSet>,
    /// Cards that must go to one holder.
    forced: Vec<(Card, usize)>,
    /// 4 players, suit contract in play, no announcement: no seat held both
    /// black Jacks when play began. Per seat, the black Jacks it played.
    no_pair: Option<Vec<CardSet>>,
}

/// The hidden deal's constraints, from the view.
fn hidden(seen: &Seen<'_, Goathead>, phase: Phase) -> Hidden {
    let view = seen.view;
    let n = usize::from(view.players);
    let me = seen.seat.index();
    let hand = view.hand.unwrap_or_default();
    let kitty_seen = view.kitty.unwrap_or(view.kitty_known);
    let visible = hand.union(played(view)).union(kitty_seen);
    let cards: Vec<Card> = Card::all().filter(|&c| !visible.contains(c)).collect();
    let mut room: Vec<usize> = (0..n)
        .map(|i| {
            if i == me {
                0
            } else {
                view.hand_sizes.get(i).copied().unwrap_or(0)
            }
        })
        .collect();
    room.push(view.kitty_size.saturating_sub(kitty_seen.len()));
    let contract = view.contract.unwrap_or(Contract::Leasters);
    let mut banned = voids(view, contract);
    banned.push(CardSet::EMPTY);
    let mut forced = Vec::new();
    let mut no_pair = None;
    let in_play = matches!(phase, Phase::Play { .. });
    if n == 4 && in_play && matches!(contract, Contract::Suit(_)) {
        let mut jacks_played = vec![CardSet::EMPTY; n];
        for (s, c) in plays(view) {
            if c == JC || c == JS {
                jacks_played[s.index()].insert(c);
            }
        }
        match view.announced {
            Some(a) => forced.extend(
                [JC, JS]
                    .into_iter()
                    .filter(|c| cards.contains(c))
                    .map(|c| (c, a.index())),
            ),
            None => {
                for (i, jacks) in jacks_played.iter().enumerate() {
                    // A seat that played one black Jack never held the other.
                    if jacks.contains(JC) {
                        banned[i].insert(JS);
                    }
                    if jacks.contains(JS) {
                        banned[i].insert(JC);
                    }
                }
                no_pair = Some(jacks_played);
            }
        }
    }
    Hidden {
        cards,
        room,
        banned,
        forced,
        no_pair,
    }
}

/// One random deal of the hidden cards: each goes to a holder that may take
/// it, chosen in proportion to the room left; the most constrained cards go
/// first. `None` when it gets stuck or breaks the black-Jack rule.
fn try_deal(h: &Hidden, strict: bool, rng: &mut BotRng) -> Option<Vec<CardSet>> {
    let mut room = h.room.clone();
    let mut out = vec![CardSet::EMPTY; room.len()];
    let mut cards = h.cards.clone();
    shuffle(&mut cards, rng);
    for &(card, holder) in &h.forced {
        let r = room.get_mut(holder)?;
        *r = r.checked_sub(1)?;
        out[holder].insert(card);
        cards.retain(|&c| c != card);
    }
    let allowed = |card: Card, holder: usize| !strict || !h.banned[holder].contains(card);
    cards.sort_by_key(|&c| (0..room.len()).filter(|&k| allowed(c, k)).count());
    for card in cards {
        let total: usize = (0..room.len())
            .filter(|&k| allowed(card, k))
            .map(|k| room[k])
            .sum();
        if total == 0 {
            return None;
        }
        let mut pick = below(rng, total);
        let holder = (0..room.len()).find(|&k| {
            let r = if allowed(card, k) { room[k] } else { 0 };
            if pick < r {
                true
            } else {
                pick -= r;
                false
            }
        })?;
        room[holder] -= 1;
        out[holder].insert(card);
    }
    let paired = h.no_pair.as_ref().is_some_and(|played| {
        played.iter().zip(&out).any(|(p, hand)| {
            let held = p.union(*hand);
            held.contains(JC) && held.contains(JS)
        })
    });
    (!paired || !strict).then_some(out)
}

/// Deals the hidden cards, within every constraint if it can, else without
/// the suits seats lack (the sizes always hold).
fn deal_hidden(h: &Hidden, rng: &mut BotRng) -> Vec<CardSet> {
    for _ in 0..DEAL_ATTEMPTS {
        if let Some(deal) = try_deal(h, true, rng) {
            return deal;
        }
    }
    for _ in 0..DEAL_ATTEMPTS {
        if let Some(deal) = try_deal(h, false, rng) {
            return deal;
        }
    }
    // Unreachable for a view of a real game: fill the holders in order.
    let mut out = vec![CardSet::EMPTY; h.room.len()];
    let mut cards = h.cards.iter().copied();
    for (holder, &room) in h.room.iter().enumerate() {
        out[holder] = CardSet::of(cards.by_ref().take(room));
    }
    out
}

/// A complete state consistent with `seen` (see the module docs).
pub(super) fn determinize(seen: &Seen<'_, Goathead>, rng: &mut BotRng) -> GoatheadState {
    let view = seen.view;
    let n = usize::from(view.players);
    let me = seen.seat.index();
    let phase = phase_of(seen, rng);
    let hidden = hidden(seen, phase);
    let mut dealt = likeliest_deal(seen, rng, |rng| deal_hidden(&hidden, rng));
    let kitty_seen = view.kitty.unwrap_or(view.kitty_known);
    let kitty = dealt.pop().unwrap_or_default().union(kitty_seen);
    let mut hands = dealt;
    hands.resize(n, CardSet::EMPTY);
    hands[me] = view.hand.unwrap_or_default();
    let mut kitty_known = vec![CardSet::EMPTY; n];
    kitty_known[me] = view.kitty_known;
    if n == 3
        && view.kitty_taken
        && let Some(d) = view.declarer
        && d.index() != me
    {
        // Whatever lies in a taken kitty was buried by the declarer.
        kitty_known[d.index()] = kitty;
    }
    let contract = view.contract.unwrap_or(Contract::Leasters);
    let declaring_side = if matches!(phase, Phase::Play { .. }) {
        let mut start = hands.clone();
        for (s, c) in plays(view) {
            start[s.index()].insert(c);
        }
        sides(n, contract, view.declarer.unwrap_or(seat(0)), &start).0
    } else {
        0
    };
    let trick_leader = match phase {
        Phase::Play { turn } => Some(view.trick.first().map_or(turn, |p| p.seat)),
        _ => None,
    };
    let declarer_swapped = declarer_swapped(seen, phase, rng);
    GoatheadState {
        players: view.players,
        rounds: view.rounds,
        deals: seen.options().deals.clone(),
        round: view.round,
        dealer: view.dealer,
        game_points: view.game_points.clone(),
        history: view.last_round.iter().cloned().collect(),
        phase,
        current: RoundState {
            hands,
            kitty,
            kitty_known,
            bids: view.bids.clone(),
            passed: view
                .bids
                .iter()
                .filter(|b| b.action == BidAction::Pass)
                .fold(0, |m, b| m | (1 << b.seat.0)),
            leader: view.bid_leader,
            highest: view.highest_bid,
            contract: view.contract,
            declarer: view.declarer,
            kitty_taken: view.kitty_taken,
            declarer_swapped,
            announced: view.announced,
            declaring_side,
            trick_leader,
            trick: view.trick.iter().map(|p| p.card).collect(),
            tricks: view.tricks.clone(),
            trick_points: view.trick_points.clone(),
            tricks_won: view.tricks_won.clone(),
        },
    }
}
