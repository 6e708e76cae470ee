//! What Hat Trick gives its bots: determinization and the greedy heuristic.
//!
//! # Determinization
//!
//! Everything public is copied from the view: the deal number, dealer, trump,
//! indicator, the trick under way and the cards played to the earlier tricks
//! of the deal, tricks taken, scoring tricks, predictions, scores and the
//! last scored deal (the view holds only the last one, so the rebuilt state's
//! score sheet has only that deal; nothing in play reads the earlier ones).
//! The seat's own hand is its own. Explicit deals are never read: players
//! are not shown them ([`BotRules::public_options`] removes them). The other
//! cards of the deck are *unaccounted for*: they are in another seat's hand
//! (the view gives each count) or among the face-down left-over cards (the
//! view gives their number); whatever remains beyond those (only in a game
//! stored before views listed the cards played) was played. They are dealt
//! at random into those places, respecting what the view proves:
//!
//! - the cut card is in the dealer's hand while the view names its holder,
//!   and has been played once it does not;
//! - a seat that did not follow the led suit in a trick of the deal holds
//!   none of it, nor whatever the rule of play would have made it play
//!   instead (the highest trump or card of the same colour: none of it, or
//!   none above the card it played);
//! - with `joker_by_trick`, a seat holds no more jokers than would leave it
//!   unforced so far: none after that trick, and on it none once it has played.

use super::HatTrick;
use super::cards::{Card, Hand, JOKERS, Suit, bits};
use super::commands::HatTrickCommand;
use super::events::HandView;
use super::options::{HatTrickOptions, IndicatorKind, PlayRule};
use super::rules::{led_suit, trick_winner};
use super::scoring::RoundResult;
use super::state::{HatTrickState, Play, Trump};
use super::view;
use super::view::HatTrickView;
use crate::bots::{BotRng, BotRules, Seen};
use crate::random::below;
use crate::ruleset::Seat;
use crate::ruleset::{GameResult, Viewer};

/// Attempts at a constrained deal before the constraints of play are dropped.
const ATTEMPTS: usize = 32;

impl BotRules for HatTrick {
    /// Everything but the explicit deals, which players are not shown.
    fn public_options(options: &HatTrickOptions) -> HatTrickOptions {
        HatTrickOptions {
            deals: Vec::new(),
            ..options.clone()
        }
    }

    fn determinize(seen: &Seen<'_, Self>, rng: &mut BotRng) -> HatTrickState {
        let mut state = public_state(seen);
        let places = hidden_places(seen, &state);
        let dealt = deal_hidden(&places, rng);
        for (place, cards) in places.holders.iter().zip(dealt) {
            match place.slot {
                Slot::Seat(s) => state.hands[s].0 |= cards,
                Slot::Left => {
                    let mut hidden = Hand(cards).cards();
                    for (card, shown) in state.left.iter_mut().zip(&seen.view.left) {
                        if shown.is_none()
                            && let Some(c) = hidden.next()
                        {
                            *card = c;
                        }
                    }
                }
                Slot::Played => {}
            }
        }
        state
    }

    /// The greedy player, from its hand and the trick under way.
    ///
    /// Cards are ordered by strength: trumps above the other suits, then by
    /// rank; the joker is the weakest card (the strongest in a negative deal,
    /// where it always wins).
    ///
    /// - A scoring trick (1st, 6th, last) of a normal deal: play the cheapest
    ///   card that takes the trick as it stands when playing last (or on the
    ///   1st trick, worth only 1), else the strongest card that takes it;
    ///   unable to take it, throw the weakest card.
    /// - Any other trick of a normal deal: keep strength for the scoring
    ///   tricks: the weakest card that does not take the trick, else the
    ///   weakest card.
    /// - A negative deal turns this round: on a scoring trick lead the weakest
    ///   card, else play the strongest card that does not take the trick (the
    ///   strongest if all do); on another trick shed the strongest card.
    /// - Predict the last trick on the trick before it when the card kept for
    ///   it is sure to win: a trump with every higher trump in the trick under
    ///   way.
    ///
    /// Ties between equally strong cards are broken with `rng`.
    fn greedy(seen: &Seen<'_, Self>, rng: &mut BotRng) -> HatTrickCommand {
        let mut cards: Vec<Card> = Vec::with_capacity(seen.legal.len());
        for HatTrickCommand::Play { card, .. } in seen.legal {
            if !cards.contains(card) {
                cards.push(*card);
            }
        }
        let card = choose_card(seen, &cards, rng);
        let claim = HatTrickCommand::Play {
            card,
            predict: true,
        };
        let predict = sure_of_last_trick(seen, card) && seen.legal.contains(&claim);
        HatTrickCommand::Play { card, predict }
    }

    /// Each seat's margin over the best other seat in the final totals
    /// (lowest wins in the negative game), squashed into `0..=1`; the search
    /// stops sooner, at [`BotRules::horizon_rewards`], which scores the
    /// match the same way.
    fn rewards(result: &GameResult<RoundResult>, _players: usize) -> Vec<f64> {
        margin_rewards(&result.scores, lowest_wins(&result.rounds))
    }

    /// The greedy heuristic from the actor's own view of `state`, except a
    /// uniformly random command one time in [`RANDOM_ONE_IN`].
    fn playout_command(
        state: &HatTrickState,
        actor: Seat,
        legal: &[HatTrickCommand],
        rng: &mut BotRng,
    ) -> HatTrickCommand {
        if below(rng, RANDOM_ONE_IN) == 0 {
            return legal[below(rng, legal.len())].clone();
        }
        let view = view::view(state, Viewer::Seat(actor));
        let seen = Seen::<HatTrick>::new(&state.options, state.n(), actor, &view, legal);
        HatTrick::greedy(&seen, rng)
    }

    /// The other seats play the greedy heuristic in the tree as well, each
    /// from its own cards.
    const OTHERS_BY_POLICY: bool = true;

    /// Once the deal of `seen` is scored (or the match is over), the totals'
    /// margins, as [`BotRules::rewards`]: the later deals are dealt afresh
    /// and this decision changes nothing in them.
    fn horizon_rewards(seen: &Seen<'_, Self>, state: &HatTrickState) -> Option<Vec<f64>> {
        let past = state.round != seen.view.round || state.finished;
        past.then(|| {
            margin_rewards(
                &state.scores,
                state.options.mode == super::options::Mode::Negative,
            )
        })
    }
}

/// One playout command in this many is drawn at random.
const RANDOM_ONE_IN: usize = 10;

/// The points of a margin that make it count (about a scoring trick).
const MARGIN_SCALE: f64 = 5.0;

/// Whether the lowest total wins: a match of negative deals only.
fn lowest_wins(rounds: &[RoundResult]) -> bool {
    !rounds.is_empty() && rounds.iter().all(|r| r.negative)
}

/// Per seat, the logistic of its margin over the best other seat in
/// `scores` (in the negative game: the best other's total minus its own),
/// in points of scale [`MARGIN_SCALE`].
fn margin_rewards(scores: &[i32], lowest_wins: bool) -> Vec<f64> {
    let sign = if lowest_wins { -1.0 } else { 1.0 };
    (0..scores.len())
        .map(|i| {
            let best_other = (0..scores.len())
                .filter(|&j| j != i)
                .map(|j| sign * f64::from(scores[j]))
                .fold(f64::MIN, f64::max);
            let margin = sign * f64::from(scores[i]) - best_other;
            1.0 / (1.0 + (-margin / MARGIN_SCALE).exp())
        })
        .collect()
}

/// Where unaccounted-for cards may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// Another seat's hand.
    Seat(usize),
    /// The face-down left-over cards.
    Left,
    /// Played to an earlier trick of the deal.
    Played,
}

/// One place to fill with hidden cards.
#[derive(Clone, Copy, Debug)]
struct Holder {
    slot: Slot,
    /// Cards still to deal to it.
    count: usize,
    /// The cards it may get (by what the view proves).
    allowed: u64,
    /// The most jokers it may hold.
    max_jokers: u32,
    /// Cards it is known to hold, outside the draw (the cut card).
    fixed: u64,
}

/// The places to fill and the cards to fill them with.
struct Places {
    holders: Vec<Holder>,
    /// The unaccounted-for cards not yet placed.
    unknown: u64,
}

/// The state with everything the view shows; other seats' hands are empty
/// and face-down left-over cards are placeholders.
fn public_state(seen: &Seen<'_, HatTrick>) -> HatTrickState {
    let view = seen.view;
    let players = usize::from(view.players);
    let table = seen.options().table(players);
    let mut hands = vec![Hand::default(); players];
    if let (Some(own), Some(HandView::Cards(h))) = (
        hands.get_mut(seen.seat.index()),
        view.hands.get(seen.seat.index()),
    ) {
        *own = *h;
    }
    HatTrickState {
        players: view.players,
        options: seen.options().clone(),
        rounds: view.rounds,
        round: view.round,
        dealer: view.dealer,
        hands,
        left: view.left.iter().map(|c| c.unwrap_or(Card::JOKER)).collect(),
        indicator: view.indicator,
        indicator_is_cut: table.indicator == IndicatorKind::Cut,
        trump: view.trump,
        negative: view.negative,
        trick_number: view.trick_number,
        leader: view.leader,
        trick: view.trick.clone(),
        played: view.played.clone(),
        tricks_won: view.tricks_won.clone(),
        scoring: view.scoring_tricks,
        predictions: view.predictions,
        scores: view.scores.clone(),
        results: view.last_result.iter().cloned().collect(),
        finished: view.finished,
    }
}

/// The cards the seat cannot place, and where they may be.
fn hidden_places(seen: &Seen<'_, HatTrick>, state: &HatTrickState) -> Places {
    let view = seen.view;
    let players = state.n();
    let table = seen.options().table(players);
    let trick_cards = view
        .trick
        .iter()
        .chain(&view.played)
        .fold(0, |m, p| m | p.card.bit());
    let shown_left = view.left.iter().flatten().fold(0, |m, c| m | c.bit());
    let mut unknown = table.deck.0 & !state.hands[seen.seat.index()].0 & !trick_cards & !shown_left;
    let mut holders: Vec<Holder> = (0..players)
        .filter(|&s| s != seen.seat.index())
        .map(|s| Holder {
            slot: Slot::Seat(s),
            count: match view.hands.get(s) {
                Some(HandView::Count(k)) => usize::from(*k),
                _ => 0,
            },
            allowed: !0,
            max_jokers: u32::MAX,
            fixed: 0,
        })
        .collect();
    holders.push(Holder {
        slot: Slot::Left,
        count: view.left.iter().filter(|c| c.is_none()).count(),
        allowed: !0,
        max_jokers: u32::MAX,
        fixed: 0,
    });
    if state.indicator_is_cut
        && let Some(cut) = view.indicator
        && unknown & cut.bit() != 0
    {
        unknown &= !cut.bit();
        if view.indicator_holder == Some(view.dealer)
            && let Some(h) = holders
                .iter_mut()
                .find(|h| h.slot == Slot::Seat(view.dealer.index()))
        {
            h.count = h.count.saturating_sub(1);
            h.fixed |= cut.bit();
        }
    }
    restrict_by_trick(seen, &mut holders);
    let placed: usize = holders.iter().map(|h| h.count).sum();
    holders.push(Holder {
        slot: Slot::Played,
        count: (unknown.count_ones() as usize).saturating_sub(placed),
        allowed: !0,
        max_jokers: u32::MAX,
        fixed: 0,
    });
    Places { holders, unknown }
}

/// What the trick under way proves about the seats that played to it (see
/// the module documentation).
fn restrict_by_trick(seen: &Seen<'_, HatTrick>, holders: &mut [Holder]) {
    let view = seen.view;
    for trick in tricks_of_deal(view) {
        for (i, play) in trick.iter().enumerate() {
            let Some(h) = holders
                .iter_mut()
                .find(|h| h.slot == Slot::Seat(play.seat.index()))
            else {
                continue;
            };
            h.allowed &= !cards_refused(seen, &trick[..i], play.card);
        }
    }
    if let Some(by) = seen.options().joker_by_trick {
        for h in holders.iter_mut() {
            if let Slot::Seat(s) = h.slot {
                let played = view.trick.iter().any(|p| p.seat.index() == s);
                let cap = i32::from(by) - i32::from(view.trick_number) + i32::from(!played);
                h.max_jokers = u32::try_from(cap).unwrap_or(0);
            }
        }
    }
}

/// The tricks of the deal so far, the one under way last: the earlier ones
/// cut from `played` (the first trick of 5 players has 4 cards, every other
/// trick one per seat).
fn tricks_of_deal(view: &HatTrickView) -> Vec<&[Play]> {
    let n = usize::from(view.players);
    let mut out = Vec::with_capacity(usize::from(view.trick_number));
    let mut rest: &[Play] = &view.played;
    let mut size = if n == 5 { n - 1 } else { n };
    while !rest.is_empty() {
        let (trick, later) = rest.split_at(size.min(rest.len()));
        out.push(trick);
        rest = later;
        size = n;
    }
    out.push(&view.trick);
    out
}

/// The cards a seat cannot hold after playing `card` on `before`: the led
/// suit when it did not follow, and what the rule of play would have made it
/// play instead.
fn cards_refused(seen: &Seen<'_, HatTrick>, before: &[Play], card: Card) -> u64 {
    let (Some(led), Some(suit)) = (led_suit(before), card.suit()) else {
        return 0;
    };
    if suit == led {
        return 0;
    }
    let colour = led.partner();
    let trump = seen.view.trump.suit();
    let none_of = |s: Option<Suit>| s.map_or(0, Suit::mask);
    let refused = match (seen.options().play_rule, trump) {
        (PlayRule::Standard, Some(t)) if suit == t => higher(card),
        (PlayRule::Standard, Some(t)) => t.mask(),
        (PlayRule::Standard, None) if suit == colour => higher(card),
        (PlayRule::Standard, None) => colour.mask(),
        (PlayRule::ColourFirst, _) if suit == colour => higher(card),
        (PlayRule::ColourFirst, t) if Some(suit) == t => colour.mask() | higher(card),
        (PlayRule::ColourOrTrump, t) if suit == colour || Some(suit) == t => higher(card),
        (PlayRule::ColourFirst | PlayRule::ColourOrTrump, t) => colour.mask() | none_of(t),
    };
    refused | led.mask()
}

/// The cards of `card`'s suit above it.
fn higher(card: Card) -> u64 {
    card.suit()
        .map_or(0, |s| s.mask() & !(card.bit() | (card.bit() - 1)))
}

/// Deals the unaccounted-for cards to the holders (constrained places
/// first); after [`ATTEMPTS`] failed tries, ignores the constraints of play.
/// Each holder's result includes its fixed cards.
fn deal_hidden(places: &Places, rng: &mut BotRng) -> Vec<u64> {
    let dealt = (0..ATTEMPTS)
        .find_map(|_| try_deal(&places.holders, places.unknown, rng))
        .unwrap_or_else(|| {
            let loose: Vec<Holder> = places
                .holders
                .iter()
                .map(|h| Holder {
                    allowed: !0,
                    max_jokers: u32::MAX,
                    ..*h
                })
                .collect();
            try_deal(&loose, places.unknown, rng).unwrap_or_else(|| vec![0; loose.len()])
        });
    dealt
        .iter()
        .zip(&places.holders)
        .map(|(d, h)| d | h.fixed)
        .collect()
}

/// One try at dealing: each holder (fewest spare choices first, the cards
/// played before last) draws its cards uniformly among those still unplaced
/// that it may hold.
fn try_deal(holders: &[Holder], unknown: u64, rng: &mut BotRng) -> Option<Vec<u64>> {
    let mut order: Vec<usize> = (0..holders.len()).collect();
    order.sort_by_key(|&i| {
        let h = &holders[i];
        let spare = ((h.allowed & unknown).count_ones() as usize).saturating_sub(h.count);
        (h.slot == Slot::Played, spare)
    });
    let mut remaining = unknown;
    let mut dealt = vec![0u64; holders.len()];
    for i in order {
        let h = &holders[i];
        for _ in 0..h.count {
            let mut choice = remaining & h.allowed;
            if (dealt[i] & JOKERS).count_ones() >= h.max_jokers {
                choice &= !JOKERS;
            }
            if choice == 0 {
                return None;
            }
            let pick = nth_bit(choice, below(rng, choice.count_ones() as usize));
            dealt[i] |= pick;
            remaining &= !pick;
        }
    }
    Some(dealt)
}

/// The `n`th lowest set bit of `mask`, as a one-bit set.
fn nth_bit(mut mask: u64, n: usize) -> u64 {
    for _ in 0..n {
        mask &= mask.wrapping_sub(1);
    }
    mask & mask.wrapping_neg()
}

/// The card the greedy player plays (see [`HatTrick::greedy`]).
fn choose_card(seen: &Seen<'_, HatTrick>, cards: &[Card], rng: &mut BotRng) -> Card {
    let view = seen.view;
    let strength = |c: &Card| power(*c, view.trump, view.negative);
    let takes: Vec<Card> = cards
        .iter()
        .copied()
        .filter(|&c| takes_trick(view, seen.seat, c))
        .collect();
    let leaves: Vec<Card> = cards
        .iter()
        .copied()
        .filter(|c| !takes.contains(c))
        .collect();
    let last_to_play = view.trick.len() + 1 == trick_size(view);
    let scoring = is_scoring(view);
    let pick =
        |pool: &[Card], strongest: bool, rng: &mut BotRng| extreme(pool, strongest, strength, rng);
    match (view.negative, scoring) {
        (false, true) if takes.is_empty() => pick(cards, false, rng),
        (false, true) if last_to_play || view.trick_number == 1 => pick(&takes, false, rng),
        (false, true) => pick(&takes, true, rng),
        (false, false) if leaves.is_empty() => pick(cards, false, rng),
        (false, false) => pick(&leaves, false, rng),
        (true, true) if view.trick.is_empty() => pick(cards, false, rng),
        (true, true) if leaves.is_empty() => pick(cards, true, rng),
        (true, true) => pick(&leaves, true, rng),
        (true, false) => pick(cards, true, rng),
    }
}

/// One of the strongest (or weakest) cards of `pool`, ties broken by `rng`.
fn extreme(
    pool: &[Card],
    strongest: bool,
    strength: impl Fn(&Card) -> i32,
    rng: &mut BotRng,
) -> Card {
    let best = if strongest {
        pool.iter().map(&strength).max()
    } else {
        pool.iter().map(&strength).min()
    };
    let tied: Vec<Card> = pool
        .iter()
        .copied()
        .filter(|c| Some(strength(c)) == best)
        .collect();
    tied.get(below(rng, tied.len()))
        .or(pool.first())
        .copied()
        .unwrap_or(Card::JOKER)
}

/// How strong a card is: trumps above other suits, then by rank; the joker
/// weakest (strongest in a negative deal).
fn power(card: Card, trump: Trump, negative: bool) -> i32 {
    match card.suit() {
        None if negative => 100,
        None => 0,
        Some(s) if Some(s) == trump.suit() => 50 + i32::from(card.rank()),
        Some(_) => i32::from(card.rank()),
    }
}

/// Whether `card` from `seat` would take the trick as it stands.
fn takes_trick(view: &HatTrickView, seat: Seat, card: Card) -> bool {
    let mut plays = view.trick.clone();
    plays.push(Play { seat, card });
    trick_winner(&plays, view.trump, view.negative) == seat
}

/// How many cards make the trick under way.
fn trick_size(view: &HatTrickView) -> usize {
    usize::from(view.players) - usize::from(view.sitting_out.is_some())
}

/// The number of tricks of a deal.
fn tricks(view: &HatTrickView) -> u8 {
    if view.players == 6 { 10 } else { 11 }
}

/// Whether the trick under way scores (1st, 6th, last).
fn is_scoring(view: &HatTrickView) -> bool {
    matches!(view.trick_number, 1 | 6) || view.trick_number == tricks(view)
}

/// Whether, playing `card` to the trick before the last, the one card left
/// surely takes the last trick: a trump with every higher trump of the deck
/// in the trick under way.
fn sure_of_last_trick(seen: &Seen<'_, HatTrick>, card: Card) -> bool {
    let view = seen.view;
    if view.negative || view.trick_number + 1 != tricks(view) {
        return false;
    }
    let Some(HandView::Cards(hand)) = view.hands.get(seen.seat.index()) else {
        return false;
    };
    let mut kept = bits(hand.0 & !card.bit());
    let (Some(last), None) = (kept.next(), kept.next()) else {
        return false;
    };
    let deck = seen.options().table(usize::from(view.players)).deck.0;
    let in_trick = view.trick.iter().fold(card.bit(), |m, p| m | p.card.bit());
    last.suit().is_some()
        && last.suit() == view.trump.suit()
        && higher(last) & deck & !in_trick == 0
}
