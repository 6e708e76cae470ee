//! What Goathead gives its bots: determinization and the greedy heuristic.
//!
//! # Determinization
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
//!   when play began (the hands now plus the cards each seat played).
//!
//! What the view does not carry is guessed (see [`swap_step`] and
//! [`declarer_swapped`]): in the 4-player kitty round, which step it is when
//! the seat swaps twice (its first turn or the dealer's last one), and
//! whether the declarer swapped (the "swapped nothing" bonus). Only the last
//! scored round of the match history is in the view; the earlier ones are
//! left out (they never change the play, only the result's breakdown).

use super::cards::{Card, CardSet, Contract, JC, JS, Rank, Suit};
use super::commands::GoatheadCommand;
use super::rules::{playable, trick_winner};
use super::scoring::sides;
use super::state::{BidAction, GoatheadState, Phase, RoundState};
use super::view::GoatheadView;
use super::{Goathead, GoatheadRound};
use crate::bots::{BotRng, BotRules, Seen};
use crate::random::{below, shuffle};
use crate::ruleset::{GameResult, Seat, seat};

type Command = GoatheadCommand;

/// Tries to deal the hidden cards within every constraint before dropping
/// the suits seats showed they lack.
const DEAL_ATTEMPTS: usize = 24;

impl BotRules for Goathead {
    fn determinize(seen: &Seen<'_, Self>, rng: &mut BotRng) -> GoatheadState {
        determinize(seen, rng)
    }

    fn greedy(seen: &Seen<'_, Self>, rng: &mut BotRng) -> Command {
        greedy(seen).unwrap_or_else(|| crate::bots::random(seen, rng))
    }

    /// The seat's margin over the best other seat in the match score as
    /// the search's root sees it, squashed into `0..=1` by a logistic of
    /// scale [`MARGIN_SCALE`] game points: the scores before the first round
    /// the result lists, plus its first two rounds (the round of the root,
    /// and the last scored one or the next), the later ones left out.
    ///
    /// Why not the default win share: a match is 15 rounds by default, and
    /// the search plays every round after the root at random, so who wins
    /// the match is mostly noise to a decision of this round, which moves
    /// only this round's payments. The determinized history holds only the
    /// view's last scored round (see the module docs), so the result's first
    /// two rounds always cover the root's round. In the last round this is
    /// the match standing itself, so the end of a match is played for the
    /// win. Measured (3 seats, 200 iterations, against two greedy seats): a
    /// win share of about 0.23 with the default, 0.3–0.4 with this.
    fn rewards(result: &GameResult<GoatheadRound>, players: usize) -> Vec<f64> {
        let scores = root_scores(result, players);
        (0..players)
            .map(|i| {
                let mine = scores.get(i).copied().unwrap_or(0.0);
                let best_other = (0..players)
                    .filter(|&j| j != i)
                    .filter_map(|j| scores.get(j).copied())
                    .fold(f64::MIN, f64::max);
                1.0 / (1.0 + (-(mine - best_other) / MARGIN_SCALE).exp())
            })
            .collect()
    }
}

/// The game points that make a margin count (see [`BotRules::rewards`]).
const MARGIN_SCALE: f64 = 6.0;

/// Rounds of a result counted by the reward (see [`BotRules::rewards`]).
const ROUNDS_COUNTED: usize = 2;

/// The match score as the search's root sees it: the final scores less
/// the payments of every round after the first [`ROUNDS_COUNTED`] the
/// result lists.
fn root_scores(result: &GameResult<GoatheadRound>, players: usize) -> Vec<f64> {
    let mut out: Vec<f64> = (0..players)
        .map(|i| f64::from(result.scores.get(i).copied().unwrap_or(0)))
        .collect();
    for round in result.rounds.iter().skip(ROUNDS_COUNTED) {
        for (total, &paid) in out.iter_mut().zip(&round.payments) {
            *total -= f64::from(paid);
        }
    }
    out
}

// ----------------------------------------------------------------- determinize

/// The cards played this round so far (finished tricks and the trick on the table).
fn played(view: &GoatheadView) -> CardSet {
    CardSet::of(
        view.tricks
            .iter()
            .flat_map(|t| t.cards.iter().copied())
            .chain(view.trick.iter().map(|p| p.card)),
    )
}

/// Every card played this round, with the seat that played it.
fn plays(view: &GoatheadView) -> Vec<(Seat, Card)> {
    let n = usize::from(view.players);
    let mut out: Vec<(Seat, Card)> = view
        .tricks
        .iter()
        .flat_map(|t| {
            t.cards
                .iter()
                .enumerate()
                .map(move |(k, &c)| (seat((t.leader.index() + k) % n), c))
        })
        .collect();
    out.extend(view.trick.iter().map(|p| (p.seat, p.card)));
    out
}

/// The cards of effective suit `led` under `contract` (`None`: the trumps).
fn suit_cards(contract: Contract, led: Option<Suit>) -> CardSet {
    CardSet::of(Card::all().filter(|&c| contract.effective_suit(c) == led))
}

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
fn determinize(seen: &Seen<'_, Goathead>, rng: &mut BotRng) -> GoatheadState {
    let view = seen.view;
    let n = usize::from(view.players);
    let me = seen.seat.index();
    let phase = phase_of(seen, rng);
    let mut dealt = deal_hidden(&hidden(seen, phase), rng);
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
        deals: seen.options.deals.clone(),
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

// ----------------------------------------------------------------- greedy

/// How much `card` helps its holder take tricks under `contract` (0 for a
/// card that rarely wins one): trump Jacks 3.0 / 2.6 / 2.2 / 1.8 (♣ ♠ ♥ ♦),
/// other trumps A 1.8, 10 1.4, K 1.0, Q 0.8; side Aces 1.2, a side 10 0.5
/// with its Ace in the same hand and 0.2 alone, side Kings 0.1.
fn card_power(contract: Contract, card: Card, hand: CardSet) -> f64 {
    if contract.is_trump(card) {
        if card.is_jack() {
            return [3.0, 2.6, 2.2, 1.8][card.suit() as usize];
        }
        return [1.8, 1.4, 1.0, 0.8, 0.0][card.rank() as usize];
    }
    match card.rank() {
        Rank::Ace => 1.2,
        Rank::Ten if hand.contains(Card::new(card.suit(), Rank::Ace)) => 0.5,
        Rank::Ten => 0.2,
        Rank::King => 0.1,
        _ => 0.0,
    }
}

/// How likely `card` is to win a trick in Nil (no trumps): A 3, 10 2, K 1,
/// Q 0.5, J 0.2.
fn nil_risk(card: Card) -> f64 {
    [3.0, 2.0, 1.0, 0.5, 0.2][card.rank() as usize]
}

/// A hand's worth for `contract`, per card, minus what it takes to bid it:
/// at least 0 means "good enough to declare".
///
/// Trump contracts: the mean [`card_power`] must reach 0.95 (3 players) or
/// 1.1 (4 players, where Court is played alone and suits with an unknown
/// partner); Court, worth twice a suit, needs 0.15 more. Nil: the mean
/// [`nil_risk`] must stay at most 0.6 (no Ace and hardly a Ten).
fn margin(contract: Contract, hand: CardSet, players: usize) -> f64 {
    let cards = hand.len().max(1) as f64;
    if contract == Contract::Nil {
        let risk: f64 = hand.iter().map(nil_risk).sum::<f64>() / cards;
        return 0.6 - risk;
    }
    let power: f64 = hand
        .iter()
        .map(|c| card_power(contract, c, hand))
        .sum::<f64>()
        / cards;
    let need = if players == 3 { 0.95 } else { 1.1 };
    let court = if contract == Contract::Court {
        0.15
    } else {
        0.0
    };
    power - need - court
}

/// The best of `contracts` for `hand` by [`margin`] (the higher one on a tie).
fn best_contract(
    contracts: impl Iterator<Item = Contract>,
    hand: CardSet,
    players: usize,
) -> Option<(Contract, f64)> {
    contracts
        .map(|c| (c, margin(c, hand, players)))
        .max_by(|a, b| a.1.total_cmp(&b.1).then(a.0.rank().cmp(&b.0.rank())))
}

/// The greedy command, if the heuristic has one among `seen.legal`.
///
/// - Bidding: steal when allowed and the hand is good enough for the
///   contract led; else bid the best higher contract the hand is good enough
///   for (see [`margin`]); else pass.
/// - 3-player kitty: leave it (for the bonus) only with a hand 0.35 above the
///   bar, else take it; bury the card least worth keeping (see
///   [`bury_score`]).
/// - Contract choice: upgrade to a higher contract whose margin beats the
///   current one by 0.25 and is good enough; else keep.
/// - 4-player kitty: swap the pair that gains the most (see [`swap_gain`])
///   when it gains enough (the declarer gives up its bonus, so it asks more).
/// - Play: see [`play_card`].
fn greedy(seen: &Seen<'_, Goathead>) -> Option<Command> {
    let view = seen.view;
    let hand = view.hand.unwrap_or_default();
    let players = usize::from(view.players);
    let choice = match view.phase {
        "bidding" => bid(seen, hand, players),
        "kitty_choice" => kitty_choice(view, hand, players),
        "bury" => hand
            .iter()
            .max_by(|&a, &b| bury_score(view, hand, a).total_cmp(&bury_score(view, hand, b)))
            .map(|card| Command::Bury { card }),
        "contract_choice" => contract_choice(view, hand, players),
        "swap" => swap(seen, hand),
        "play" => play_card(seen, hand).map(|card| Command::Play { card }),
        _ => None,
    };
    choice.filter(|c| seen.legal.contains(c))
}

fn bid(seen: &Seen<'_, Goathead>, hand: CardSet, players: usize) -> Option<Command> {
    let view = seen.view;
    if let Some(highest) = view.highest_bid
        && seen.legal.contains(&Command::Steal {})
        && margin(highest, hand, players) >= 0.0
    {
        return Some(Command::Steal {});
    }
    let floor = view.highest_bid.unwrap_or(Contract::Leasters);
    match best_contract(floor.higher(), hand, players) {
        Some((contract, m)) if m >= 0.0 => Some(Command::Bid { contract }),
        _ => Some(Command::Pass {}),
    }
}

fn kitty_choice(view: &GoatheadView, hand: CardSet, players: usize) -> Option<Command> {
    let contract = view.contract?;
    if contract != Contract::Nil && margin(contract, hand, players) >= 0.35 {
        Some(Command::LeaveKitty {})
    } else {
        Some(Command::TakeKitty {})
    }
}

/// How much burying `card` is worth: in Nil, its [`nil_risk`]; else its
/// points (a buried card counts for the declarer) less ten times its
/// [`card_power`] (trumps and Aces win tricks), plus 1 when it is the last of
/// its suit (a void to trump in).
fn bury_score(view: &GoatheadView, hand: CardSet, card: Card) -> f64 {
    let contract = view.contract.unwrap_or(Contract::Leasters);
    if contract == Contract::Nil {
        return nil_risk(card);
    }
    let led = contract.effective_suit(card);
    let alone = led.is_some() && hand.intersection(suit_cards(contract, led)).len() == 1;
    f64::from(card.points()) - 10.0 * card_power(contract, card, hand) + f64::from(u8::from(alone))
}

fn contract_choice(view: &GoatheadView, hand: CardSet, players: usize) -> Option<Command> {
    let current = view.contract?;
    let now = margin(current, hand, players);
    match best_contract(current.higher(), hand, players) {
        Some((contract, m)) if m >= 0.0 && m > now + 0.25 => Some(Command::Upgrade { contract }),
        _ => Some(Command::KeepContract {}),
    }
}

/// What swapping `give` for `take` gains the seat: the change of its
/// hand's [`card_power`] (of [`nil_risk`], lowered, for the Nil declarer),
/// plus a tenth of the points it moves into the kitty for the declarer (the
/// kitty counts for the declaring side), less for the others.
fn swap_gain(contract: Contract, declarer: bool, hand: CardSet, give: Card, take: Card) -> f64 {
    let after = {
        let mut h = hand;
        h.remove(give);
        h.insert(take);
        h
    };
    let worth = |c: Card, h: CardSet| {
        if contract == Contract::Nil {
            if declarer { -nil_risk(c) } else { 0.0 }
        } else {
            card_power(contract, c, h)
        }
    };
    let power = worth(take, after) - worth(give, hand);
    let kitty = 0.1 * (f64::from(give.points()) - f64::from(take.points()));
    if declarer {
        power + kitty
    } else {
        power - kitty
    }
}

fn swap(seen: &Seen<'_, Goathead>, hand: CardSet) -> Option<Command> {
    let view = seen.view;
    let contract = view.contract?;
    let declarer = view.declarer == Some(seen.seat);
    let kitty = view.kitty?;
    let best = hand
        .iter()
        .flat_map(|give| kitty.iter().map(move |take| (give, take)))
        .map(|(give, take)| (give, take, swap_gain(contract, declarer, hand, give, take)))
        .max_by(|a, b| a.2.total_cmp(&b.2));
    let bar = if declarer { 1.0 } else { 0.3 };
    match best {
        Some((hand_card, kitty_card, gain)) if gain > bar => Some(Command::KittySwap {
            hand_card,
            kitty_card,
        }),
        _ => Some(Command::KittySkip {}),
    }
}

/// The seats known to play on the seat's side this round (a bit per seat),
/// or `None` when the view does not tell yet (4 players, suit contract,
/// before the black Jacks show who holds them). Leasters: nobody.
fn friends(view: &GoatheadView, me: Seat, hand: CardSet) -> Option<u8> {
    let n = usize::from(view.players);
    let all = (1u8 << n) - 1;
    let contract = view.contract.unwrap_or(Contract::Leasters);
    let declarer = view.declarer?;
    let solo = n == 3 || matches!(contract, Contract::Nil | Contract::Court);
    if contract == Contract::Leasters {
        return Some(0);
    }
    if solo {
        return Some(if me == declarer {
            0
        } else {
            all & !(1 << me.0) & !(1 << declarer.0)
        });
    }
    let mut start: Vec<CardSet> = vec![CardSet::EMPTY; n];
    start[me.index()] = hand;
    for (s, c) in plays(view) {
        start[s.index()].insert(c);
    }
    let known = |c: Card| start.iter().position(|h| h.contains(c));
    let Contract::Suit(trump) = contract else {
        return None;
    };
    let queen = known(Card::new(trump, Rank::Queen));
    let group: u8 = match (known(JC), known(JS), view.announced) {
        (_, _, Some(a)) => (1 << a.0) | queen.map_or(0, |q| 1 << q),
        (Some(a), Some(b), None) if a != b => (1 << a) | (1 << b),
        _ => return None,
    };
    if view.announced.is_some() && queen.is_none() {
        return None;
    }
    let side = if group & (1 << declarer.0) != 0 {
        group
    } else {
        all & !group
    };
    let mine = if side & (1 << me.0) != 0 {
        side
    } else {
        all & !side
    };
    Some(mine & !(1 << me.0))
}

/// The card to play (see the rules of each case below).
///
/// - Nil, declarer: the strongest card that does not take the trick (the
///   lowest when leading or when every card takes it).
/// - Nil, others: never take a trick the declarer would take; lead and
///   follow low.
/// - Leasters: the card worth the most points that does not take the trick;
///   if every card takes it, the one worth the fewest.
/// - Other contracts, leading: a side Ace, else the highest trump when it is
///   the highest one left, else the cheapest card.
/// - Following, a friend taking the trick: the most points, trumps spared.
/// - Else take it when possible and it pays (last to play, or points on the
///   table, or with a side Ace), with the cheapest card that takes it; else
///   throw the cheapest card.
fn play_card(seen: &Seen<'_, Goathead>, hand: CardSet) -> Option<Card> {
    let view = seen.view;
    let contract = view.contract.unwrap_or(Contract::Leasters);
    let trick: Vec<Card> = view.trick.iter().map(|p| p.card).collect();
    let legal = playable(contract, &trick, hand).to_vec();
    let takes = |card: Card| {
        let mut t = trick.clone();
        t.push(card);
        trick_winner(contract, &t) == trick.len()
    };
    let strength = |c: Card| contract.strength(c, Some(c.suit())) + contract.strength(c, None);
    let cheapest = |cards: &[Card]| {
        cards
            .iter()
            .copied()
            .min_by_key(|&c| (c.points(), strength(c)))
    };
    let (taking, losing): (Vec<Card>, Vec<Card>) = legal.iter().partition(|&&c| takes(c));
    let me = seen.seat;
    match contract {
        Contract::Nil if view.declarer == Some(me) => {
            if trick.is_empty() {
                return legal.iter().copied().min_by_key(|&c| strength(c));
            }
            losing
                .iter()
                .copied()
                .max_by_key(|&c| strength(c))
                .or_else(|| cheapest(&legal))
        }
        Contract::Nil => {
            let declarer_winning = view
                .trick
                .get(trick_winner(contract, &trick))
                .is_some_and(|p| Some(p.seat) == view.declarer);
            if declarer_winning {
                losing
                    .iter()
                    .copied()
                    .max_by_key(|&c| strength(c))
                    .or_else(|| cheapest(&legal))
            } else {
                legal.iter().copied().min_by_key(|&c| strength(c))
            }
        }
        Contract::Leasters => losing
            .iter()
            .copied()
            .max_by_key(|&c| (c.points(), strength(c)))
            .or_else(|| cheapest(&taking)),
        _ if trick.is_empty() => lead(view, contract, hand, &legal),
        _ => follow(view, me, hand, &trick, &taking, &legal),
    }
}

/// The lead of a trump contract: a side Ace, else the highest trump if no
/// higher one is left, else the cheapest card.
fn lead(view: &GoatheadView, contract: Contract, hand: CardSet, legal: &[Card]) -> Option<Card> {
    if let Some(ace) = legal
        .iter()
        .copied()
        .find(|&c| !contract.is_trump(c) && c.rank() == Rank::Ace)
    {
        return Some(ace);
    }
    let gone = played(view).union(hand);
    let top = legal
        .iter()
        .copied()
        .filter(|&c| contract.is_trump(c))
        .max_by_key(|&c| contract.strength(c, None));
    if let Some(top) = top {
        let higher_left = Card::all().any(|c| {
            contract.is_trump(c)
                && !gone.contains(c)
                && contract.strength(c, None) > contract.strength(top, None)
        });
        if !higher_left {
            return Some(top);
        }
    }
    legal
        .iter()
        .copied()
        .min_by_key(|&c| (c.points(), contract.strength(c, None), c.index()))
}

/// Following in a trump contract (see [`play_card`]).
fn follow(
    view: &GoatheadView,
    me: Seat,
    hand: CardSet,
    trick: &[Card],
    taking: &[Card],
    legal: &[Card],
) -> Option<Card> {
    let contract = view.contract.unwrap_or(Contract::Leasters);
    let n = usize::from(view.players);
    let winner = view
        .trick
        .get(trick_winner(contract, trick))
        .map(|p| p.seat);
    let friendly = friends(view, me, hand)
        .zip(winner)
        .is_some_and(|(f, w)| f & (1 << w.0) != 0);
    let cost = |c: Card| {
        let trump = if contract.is_trump(c) {
            20 + u32::from(contract.strength(c, None))
        } else {
            0
        };
        u32::from(c.points()) + trump
    };
    if friendly {
        return legal
            .iter()
            .copied()
            .max_by_key(|&c| i32::from(c.points()) - if contract.is_trump(c) { 12 } else { 0 });
    }
    let last = trick.len() + 1 == n;
    let on_table: u8 = trick.iter().map(|c| c.points()).sum();
    let led = trick.first().and_then(|&c| contract.effective_suit(c));
    let take_with = taking
        .iter()
        .copied()
        .filter(|&c| last || on_table >= 4 || (!contract.is_trump(c) && c.rank() == Rank::Ace))
        .min_by_key(|&c| {
            if last {
                // Last to play: the take is sure; spare trumps, add points.
                (contract.strength(c, None), 100 - c.points())
            } else {
                (contract.strength(c, led), c.points())
            }
        });
    take_with.or_else(|| legal.iter().copied().min_by_key(|&c| (cost(c), c.index())))
}
