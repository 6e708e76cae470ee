//! The rules of the deal and of play: dealing, trump, what may be played,
//! who takes a trick, when a prediction may be made.

use super::cards::{Card, Hand, JACK, JOKERS, KING, QUEEN, Suit, highest};
use super::events::Dealt;
use super::options::{Deal, HatTrickOptions, IndicatorKind, Mode, PlayRule};
use super::state::{HatTrickState, Play, Trump};
use crate::random::Randomness;
use crate::ruleset::{Seat, seat};

/// Trump and negativity of deal `round` with this indicator.
///
/// By the indicator: its suit; a K, Q or joker → no-trump. By the cycle:
/// ♥ ♦ ♣ ♠ NT (♥ ♦ ♣ ♠ NT NEG with `cycle_with_negative`, NEG at no-trump).
/// `negative`: every deal; `jack_negative`: a Jack indicator (its suit stays trump).
#[must_use]
pub fn trump_of(options: &HatTrickOptions, round: u8, indicator: Option<Card>) -> (Trump, bool) {
    const CYCLE: [Trump; 5] = [Trump::H, Trump::D, Trump::C, Trump::S, Trump::NT];
    if options.mode == Mode::CycleWithNegative {
        let step = usize::from(round % 6);
        return (CYCLE.get(step).copied().unwrap_or(Trump::NT), step == 5);
    }
    let negative = options.mode == Mode::Negative;
    match indicator {
        Some(card) if !options.uses_cycle() => {
            let trump = match card.suit() {
                Some(_) if card.rank() == KING || card.rank() == QUEEN => Trump::NT,
                Some(suit) => Trump::of(suit),
                None => Trump::NT,
            };
            let jack = options.mode == Mode::JackNegative && card.rank() == JACK;
            (trump, negative || jack)
        }
        _ => (CYCLE[usize::from(round % 5)], negative),
    }
}

/// The deal of round `round`: the explicit `deals[round]` if given, else
/// [`Deal::drawn`] from `rng` (the shuffle is described there).
#[must_use]
pub fn deal(state: &HatTrickState, round: u8, rng: &Randomness) -> Dealt {
    let n = state.n();
    let dealer = seat(usize::from(round) % n);
    let table = state.table();
    let drawn;
    let given = match state.options.deals.get(usize::from(round)) {
        Some(deal) => deal,
        None => {
            drawn = Deal::drawn(&state.options, n, round, rng);
            &drawn
        }
    };
    let (trump, negative) = trump_of(&state.options, round, given.indicator);
    Dealt {
        round,
        dealer,
        hands: given.hands.iter().map(|h| Hand::of(h)).collect(),
        left: given.left.clone(),
        indicator: given.indicator,
        indicator_is_cut: table.indicator == IndicatorKind::Cut,
        trump,
        negative,
    }
}

/// The suit to follow: that of the first card of the trick that is not a joker.
#[must_use]
pub fn led_suit(trick: &[Play]) -> Option<Suit> {
    trick.iter().find_map(|p| p.card.suit())
}

/// The cards `seat` may play now, as a set.
///
/// With `joker_by_trick`, once the tricks left up to that one are no more than
/// the jokers held, only jokers. Else: leading (or after jokers only), any
/// card. Else follow suit; unable, by the rule of play: `standard` the highest
/// trump (at no-trump the highest of the suit of the same colour);
/// `colour_first` the highest of the same colour, else the highest trump;
/// `colour_or_trump` either of them; unable to do that either, any card. A
/// joker may always be played.
#[must_use]
pub fn legal_cards(state: &HatTrickState, seat: Seat) -> u64 {
    let hand = state.hands[seat.index()].0;
    let jokers = hand & JOKERS;
    if jokers != 0
        && let Some(by) = state.options.joker_by_trick
        && i32::from(by) - i32::from(state.trick_number) < jokers.count_ones().cast_signed()
    {
        return jokers;
    }
    let Some(led) = led_suit(&state.trick) else {
        return hand;
    };
    let follow = hand & led.mask();
    if follow != 0 {
        return follow | jokers;
    }
    let colour = highest(hand & led.partner().mask());
    let trump_suit = state.trump.suit();
    let trump = trump_suit.map_or(0, |t| highest(hand & t.mask()));
    let must = match state.options.play_rule {
        PlayRule::Standard if trump_suit.is_some() => trump,
        PlayRule::Standard => colour,
        PlayRule::ColourFirst if colour != 0 => colour,
        PlayRule::ColourFirst => trump,
        PlayRule::ColourOrTrump => colour | trump,
    };
    if must == 0 { hand } else { must | jokers }
}

/// Who takes a complete trick: in a negative deal the first joker; else the
/// highest trump, else the highest card of the led suit (a joker never wins).
#[must_use]
pub fn trick_winner(trick: &[Play], trump: Trump, negative: bool) -> Seat {
    let first = trick.first().map_or(seat(0), |p| p.seat);
    if negative && let Some(p) = trick.iter().find(|p| p.card.is_joker()) {
        return p.seat;
    }
    let Some(led) = led_suit(trick) else {
        return first;
    };
    let best_of = |suit: Suit| {
        trick
            .iter()
            .filter(|p| p.card.suit() == Some(suit))
            .max_by_key(|p| p.card.rank())
            .map(|p| p.seat)
    };
    trump
        .suit()
        .and_then(best_of)
        .or_else(|| best_of(led))
        .unwrap_or(first)
}

/// The prediction window open now (0: claiming the 6th trick, on tricks 2–5;
/// 1: claiming the last, on tricks 7 to the one before last), if no one has
/// claimed in it yet and the deal is not negative.
#[must_use]
pub fn prediction_window(state: &HatTrickState) -> Option<usize> {
    if state.negative {
        return None;
    }
    let t = state.trick_number;
    let window = if (2..=5).contains(&t) {
        0
    } else if t >= 7 && t < state.tricks() {
        1
    } else {
        return None;
    };
    state.predictions[window].is_none().then_some(window)
}

/// The value of a prediction made on trick `t`: 2 → 4, 3 → 3, 4 → 2, 5 → 1;
/// 7 → 4, 8 → 3, 9 → 2, 10 → 1.
#[must_use]
pub fn prediction_value(t: u8) -> i32 {
    if t <= 5 {
        6 - i32::from(t)
    } else {
        11 - i32::from(t)
    }
}
