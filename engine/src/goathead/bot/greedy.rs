//! The greedy heuristic: one ply of hand strength and cheap captures.

use super::{Command, played, plays, suit_cards};
use crate::bots::Seen;
use crate::goathead::Goathead;
use crate::goathead::cards::{Card, CardSet, Contract, JC, JS, Rank};
use crate::goathead::rules::{playable, trick_winner};
use crate::goathead::view::GoatheadView;
use crate::ruleset::Seat;

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
pub(super) fn greedy(seen: &Seen<'_, Goathead>) -> Option<Command> {
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
    let may_steal = seen.legal.contains(&Command::Steal {});
    Some(greedy_bid(seen.view.highest_bid, may_steal, hand, players))
}

/// The greedy bid with `hand` when the highest contract bid so far is
/// `highest` and the seat `may_steal` it (see [`greedy`]).
pub(super) fn greedy_bid(
    highest: Option<Contract>,
    may_steal: bool,
    hand: CardSet,
    players: usize,
) -> Command {
    if let Some(highest) = highest
        && may_steal
        && margin(highest, hand, players) >= 0.0
    {
        return Command::Steal {};
    }
    let floor = highest.unwrap_or(Contract::Leasters);
    match best_contract(floor.higher(), hand, players) {
        Some((contract, m)) if m >= 0.0 => Command::Bid { contract },
        _ => Command::Pass {},
    }
}

/// How far `hand` is from a hand on which [`greedy_bid`] sends `sent` (in
/// the same position): 0 when it does (up to ties at the bar), else the
/// [`margin`] it lacks for `sent`, plus the margin by which it would have
/// stolen or bid something else.
pub(super) fn bid_distance(
    highest: Option<Contract>,
    may_steal: bool,
    hand: CardSet,
    players: usize,
    sent: Command,
) -> f64 {
    let steal = highest
        .filter(|_| may_steal)
        .map_or(f64::MIN, |h| margin(h, hand, players));
    if sent == (Command::Steal {}) {
        return (-steal).max(0.0);
    }
    let floor = highest.unwrap_or(Contract::Leasters);
    let best = best_contract(floor.higher(), hand, players).map_or(f64::MIN, |(_, m)| m);
    let not_stolen = steal.max(0.0);
    match sent {
        Command::Bid { contract } => {
            let m = margin(contract, hand, players);
            not_stolen + (-m).max(0.0) + (best - m).max(0.0)
        }
        _ => not_stolen + best.max(0.0),
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
