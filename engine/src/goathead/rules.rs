//! The rules: dealing, whose turn it is, what is legal, what a command causes,
//! and how each event changes the state.

use super::cards::{Card, CardSet, Contract, Suit};
use super::commands::GoatheadCommand;
use super::events::GoatheadEvent;
use super::options::{Deal, hand_size};
use super::scoring::{self, RoundFacts};
use super::state::{BidAction, BidRecord, GoatheadState, Phase, RoundState, TrickRecord};
use crate::random::Randomness;
use crate::ruleset::{RuleViolation, Seat, seat};

type Command = GoatheadCommand;
type Event = GoatheadEvent;

// ----------------------------------------------------------------- dealing

/// The deal of round `round`: `options.deals[round]` when given, else the deck
/// in index order shuffled with the `deal` stream of the round, seat 0 taking
/// the first hand's worth of cards, seat 1 the next, ..., the kitty the rest.
#[must_use]
pub fn deal(state: &GoatheadState, round: u8, rng: &Randomness) -> Event {
    let n = state.player_count();
    let dealer = seat(usize::from(round) % n);
    let (hands, kitty) = if let Some(deal) = state.deals.get(usize::from(round)) {
        (
            deal.hands
                .iter()
                .map(|h| CardSet::of(h.iter().copied()))
                .collect(),
            CardSet::of(deal.kitty.iter().copied()),
        )
    } else {
        let drawn = Deal::drawn(n, round, rng);
        (
            drawn
                .hands
                .iter()
                .map(|h| CardSet::of(h.iter().copied()))
                .collect(),
            CardSet::of(drawn.kitty.iter().copied()),
        )
    };
    Event::Dealt {
        round,
        dealer,
        hands,
        kitty,
    }
}

/// The opening events: the deal of round 0.
#[must_use]
pub fn start(state: &GoatheadState, rng: &Randomness) -> Vec<Event> {
    vec![deal(state, 0, rng)]
}

// ----------------------------------------------------------------- tricks

/// The cards of `suit` in index order form a run of five bits.
fn suit_mask(suit: Suit) -> u32 {
    0b11111 << (suit as u32 * 5)
}

/// The four Jacks.
const JACKS: u32 = 0b10000_10000_10000_10000;

/// The trumps of `contract`.
fn trump_mask(contract: Contract) -> u32 {
    match contract {
        Contract::Nil => 0,
        Contract::Court | Contract::Leasters => JACKS,
        Contract::Suit(trump) => JACKS | suit_mask(trump),
    }
}

/// The cards of effective suit `led` (`None`: the trumps).
fn led_mask(contract: Contract, led: Option<Suit>) -> u32 {
    let trumps = trump_mask(contract);
    match led {
        None => trumps,
        Some(suit) => suit_mask(suit) & !trumps,
    }
}

/// The cards of `hand` that may be played to `trick` (cards in play order):
/// those of the led effective suit if there are any, else all.
#[must_use]
pub fn playable(contract: Contract, trick: &[Card], hand: CardSet) -> CardSet {
    let Some(&first) = trick.first() else {
        return hand;
    };
    let follow = hand.bits() & led_mask(contract, contract.effective_suit(first));
    if follow == 0 {
        hand
    } else {
        CardSet::from_bits(follow)
    }
}

/// The position (in play order) of the card that wins `trick`: the highest
/// trump, else the highest card of the led effective suit.
#[must_use]
pub fn trick_winner(contract: Contract, trick: &[Card]) -> usize {
    let led = trick.first().and_then(|&c| contract.effective_suit(c));
    let mut best = (0, 0);
    for (i, &card) in trick.iter().enumerate() {
        let strength = contract.strength(card, led);
        if strength > best.1 {
            best = (i, strength);
        }
    }
    best.0
}

// ----------------------------------------------------------------- bidding

/// The next seat to bid after `after`: the next one clockwise that has not
/// passed and does not lead; `None` when the bidding is over (only the leader
/// left, or everyone passed).
fn next_bidder(players: usize, after: Seat, passed: u8, leader: Option<Seat>) -> Option<Seat> {
    (1..=players)
        .map(|k| seat((after.index() + k) % players))
        .find(|s| passed & (1 << s.0) == 0 && Some(*s) != leader)
}

fn turn_error(state: &GoatheadState, s: Seat) -> Option<RuleViolation> {
    match state.actor() {
        None => Some(RuleViolation::new("nobody is to act")),
        Some(actor) if actor != s => Some(RuleViolation::new(format!("it is {actor}'s turn"))),
        Some(_) => None,
    }
}

fn can_steal(state: &GoatheadState, s: Seat) -> bool {
    state
        .current
        .leader
        .is_some_and(|l| state.game_points[s.index()] < state.game_points[l.index()])
}

// ----------------------------------------------------------------- legal commands

/// The exact list of commands `s` may send now.
#[must_use]
pub fn legal_commands(state: &GoatheadState, s: Seat) -> Vec<Command> {
    if state.actor() != Some(s) {
        return Vec::new();
    }
    let hand = state.current.hands[s.index()];
    match state.phase {
        Phase::Bidding { .. } => {
            let floor = state.current.highest.unwrap_or(Contract::Leasters);
            let mut out: Vec<Command> = floor
                .higher()
                .map(|contract| Command::Bid { contract })
                .collect();
            if can_steal(state, s) {
                out.push(Command::Steal {});
            }
            out.push(Command::Pass {});
            out
        }
        Phase::KittyChoice => vec![Command::TakeKitty {}, Command::LeaveKitty {}],
        Phase::Bury => hand.iter().map(|card| Command::Bury { card }).collect(),
        Phase::ContractChoice => {
            let mut out = vec![Command::KeepContract {}];
            out.extend(
                state
                    .contract()
                    .higher()
                    .map(|contract| Command::Upgrade { contract }),
            );
            out
        }
        Phase::Swap { .. } => {
            let kitty = state.current.kitty;
            let mut out = Vec::with_capacity(1 + hand.len() * kitty.len());
            out.push(Command::KittySkip {});
            for hand_card in hand.iter() {
                for kitty_card in kitty.iter() {
                    out.push(Command::KittySwap {
                        hand_card,
                        kitty_card,
                    });
                }
            }
            out
        }
        Phase::Play { .. } => playable(state.contract(), &state.current.trick, hand)
            .iter()
            .map(|card| Command::Play { card })
            .collect(),
        Phase::Starting | Phase::RoundOver | Phase::Finished => Vec::new(),
    }
}

// ----------------------------------------------------------------- decide

/// Validates `command` from `s` and returns the events it causes.
///
/// # Errors
/// Why the rules forbid the command now.
pub fn decide(
    state: &GoatheadState,
    s: Seat,
    command: &Command,
    rng: &Randomness,
) -> Result<Vec<Event>, RuleViolation> {
    if let Some(error) = turn_error(state, s) {
        return Err(error);
    }
    let n = state.player_count();
    let cur = &state.current;
    let hand = cur.hands[s.index()];
    match (*command, state.phase) {
        (Command::Play { card }, Phase::Play { .. }) => decide_play(state, s, card, rng),
        (Command::Play { .. }, _) => Err(RuleViolation::new("playing a card is not possible now")),
        (Command::Bid { contract }, Phase::Bidding { .. }) => {
            if !contract.is_biddable() {
                return Err(RuleViolation::new("leasters cannot be bid"));
            }
            if let Some(highest) = cur.highest
                && contract.rank() <= highest.rank()
            {
                return Err(RuleViolation::new(format!(
                    "a bid must be higher than {highest}"
                )));
            }
            let mut events = vec![Event::Bid { seat: s, contract }];
            if next_bidder(n, s, cur.passed, Some(s)).is_none() {
                events.push(Event::ContractSet {
                    declarer: Some(s),
                    contract,
                });
            }
            Ok(events)
        }
        (Command::Steal {}, Phase::Bidding { .. }) => match (cur.leader, cur.highest) {
            (Some(_), Some(contract)) if can_steal(state, s) => {
                Ok(vec![Event::Stole { seat: s, contract }])
            }
            (Some(_), Some(_)) => Err(RuleViolation::new(
                "you may steal only with fewer game points than the leader",
            )),
            _ => Err(RuleViolation::new("there is no bid to steal")),
        },
        (Command::Pass {}, Phase::Bidding { .. }) => {
            let passed = cur.passed | (1 << s.0);
            let mut events = vec![Event::Passed { seat: s }];
            if next_bidder(n, s, passed, cur.leader).is_none() {
                match (cur.leader, cur.highest) {
                    (Some(leader), Some(contract)) => events.push(Event::ContractSet {
                        declarer: Some(leader),
                        contract,
                    }),
                    _ => {
                        events.push(Event::ContractSet {
                            declarer: None,
                            contract: Contract::Leasters,
                        });
                        begin_play(state, Contract::Leasters, &cur.hands, &mut events);
                    }
                }
            }
            Ok(events)
        }
        (Command::Bid { .. } | Command::Steal {} | Command::Pass {}, _) => {
            Err(RuleViolation::new("bidding is not possible now"))
        }
        (Command::TakeKitty {}, Phase::KittyChoice) => Ok(vec![Event::KittyTaken {
            seat: s,
            cards: cur.kitty,
        }]),
        (Command::LeaveKitty {}, Phase::KittyChoice) => Ok(vec![Event::KittyLeft { seat: s }]),
        (Command::TakeKitty {} | Command::LeaveKitty {}, _) => Err(RuleViolation::new(
            "taking or leaving the kitty is not possible now",
        )),
        (Command::Bury { card }, Phase::Bury) => {
            if hand.contains(card) {
                Ok(vec![Event::Buried { seat: s, card }])
            } else {
                Err(RuleViolation::new(format!("{card} is not in your hand")))
            }
        }
        (Command::Bury { .. }, _) => Err(RuleViolation::new("burying is not possible now")),
        (Command::KeepContract {}, Phase::ContractChoice) => {
            let contract = state.contract();
            let mut events = vec![Event::ContractKept { seat: s, contract }];
            if n == 3 {
                begin_play(state, contract, &cur.hands, &mut events);
            }
            Ok(events)
        }
        (Command::Upgrade { contract }, Phase::ContractChoice) => {
            if !contract.is_biddable() || contract.rank() <= state.contract().rank() {
                return Err(RuleViolation::new(format!(
                    "an upgrade must be a contract higher than {}",
                    state.contract()
                )));
            }
            let mut events = vec![Event::ContractUpgraded { seat: s, contract }];
            if n == 3 {
                begin_play(state, contract, &cur.hands, &mut events);
            }
            Ok(events)
        }
        (Command::KeepContract {} | Command::Upgrade { .. }, _) => Err(RuleViolation::new(
            "keeping or upgrading the contract is not possible now",
        )),
        (
            Command::KittySwap {
                hand_card,
                kitty_card,
            },
            Phase::Swap { step },
        ) => {
            if !hand.contains(hand_card) {
                return Err(RuleViolation::new(format!(
                    "{hand_card} is not in your hand"
                )));
            }
            if !cur.kitty.contains(kitty_card) {
                return Err(RuleViolation::new(format!(
                    "{kitty_card} is not in the kitty"
                )));
            }
            let mut events = vec![Event::KittySwapped {
                seat: s,
                hand_card,
                kitty_card,
            }];
            if step >= 4 {
                let mut hands = cur.hands.clone();
                hands[s.index()].remove(hand_card);
                hands[s.index()].insert(kitty_card);
                begin_play(state, state.contract(), &hands, &mut events);
            }
            Ok(events)
        }
        (Command::KittySkip {}, Phase::Swap { step }) => {
            let mut events = vec![Event::KittySkipped { seat: s }];
            if step >= 4 {
                begin_play(state, state.contract(), &cur.hands, &mut events);
            }
            Ok(events)
        }
        (Command::KittySwap { .. } | Command::KittySkip {}, _) => Err(RuleViolation::new(
            "swapping with the kitty is not possible now",
        )),
    }
}

/// The events that begin play: the announcement (if any) and the sides, from
/// `hands` as they are when play begins; the seat left of the dealer leads.
fn begin_play(
    state: &GoatheadState,
    contract: Contract,
    hands: &[CardSet],
    events: &mut Vec<Event>,
) {
    let (side, announced) = scoring::sides(state.player_count(), contract, state.declarer(), hands);
    if let (Some(seat), Contract::Suit(trump)) = (announced, contract) {
        events.push(Event::Announced {
            seat,
            partner_card: Card::new(trump, super::cards::Rank::Queen),
        });
    }
    events.push(Event::PlayStarted {
        leader: state.left(state.dealer),
        declaring_side: state.seats_of(side),
    });
}

fn decide_play(
    state: &GoatheadState,
    s: Seat,
    card: Card,
    rng: &Randomness,
) -> Result<Vec<Event>, RuleViolation> {
    let cur = &state.current;
    let hand = cur.hands[s.index()];
    if !hand.contains(card) {
        return Err(RuleViolation::new(format!("{card} is not in your hand")));
    }
    let contract = state.contract();
    if !playable(contract, &cur.trick, hand).contains(card) {
        return Err(RuleViolation::new("you must follow the suit led"));
    }
    let mut events = Vec::with_capacity(2);
    events.push(Event::CardPlayed { seat: s, card });
    let n = state.player_count();
    if cur.trick.len() + 1 < n {
        return Ok(events);
    }
    let mut trick = [card; 4];
    trick[..cur.trick.len()].copy_from_slice(&cur.trick);
    let trick = &trick[..n];
    let leader = cur.trick_leader.unwrap_or(s);
    let winner = state.left_by(leader, trick_winner(contract, trick));
    let points = trick.iter().map(|c| c.points()).sum();
    events.push(Event::TrickWon {
        seat: winner,
        points,
    });
    let last_trick = hand.len() == 1;
    let nil_broken = contract == Contract::Nil && cur.declarer == Some(winner);
    if last_trick || nil_broken {
        end_round(state, winner, points, rng, &mut events);
    }
    Ok(events)
}

/// The events that end a round whose last trick `winner` just took for
/// `points`: its score, then the next deal or the end of the match.
fn end_round(
    state: &GoatheadState,
    winner: Seat,
    points: u8,
    rng: &Randomness,
    events: &mut Vec<Event>,
) {
    let cur = &state.current;
    let n = state.player_count();
    let mut trick_points = cur.trick_points.clone();
    let mut tricks_won = cur.tricks_won.clone();
    trick_points[winner.index()] += points;
    tricks_won[winner.index()] += 1;
    let kitty_bonus = if n == 3 {
        !cur.kitty_taken
    } else {
        !cur.declarer_swapped
    };
    let round = scoring::score(&RoundFacts {
        round: state.round,
        dealer: state.dealer,
        players: n,
        contract: state.contract(),
        declarer: cur.declarer,
        declaring_side: cur.declaring_side,
        trick_points: &trick_points,
        tricks_won: &tricks_won,
        kitty_points: cur.kitty.points(),
        kitty_bonus,
        last_winner: winner,
    });
    let scores: Vec<i32> = state
        .game_points
        .iter()
        .zip(&round.payments)
        .map(|(a, b)| a + b)
        .collect();
    events.push(Event::RoundScored(round));
    if state.round + 1 < state.rounds {
        events.push(deal(state, state.round + 1, rng));
    } else {
        events.push(Event::MatchEnded {
            winners: scoring::winners(&scores),
            scores,
        });
    }
}

// ----------------------------------------------------------------- evolve

/// Applies one event.
pub fn evolve(state: &mut GoatheadState, event: &Event) {
    let n = state.player_count();
    match event {
        Event::Dealt {
            round,
            dealer,
            hands,
            kitty,
        } => {
            state.round = *round;
            state.dealer = *dealer;
            state.current = RoundState {
                hands: hands.clone(),
                kitty: *kitty,
                kitty_known: vec![CardSet::EMPTY; n],
                trick_points: vec![0; n],
                tricks_won: vec![0; n],
                ..RoundState::default()
            };
            state.phase = Phase::Bidding {
                turn: state.left(*dealer),
            };
        }
        Event::Bid { seat, contract } | Event::Stole { seat, contract } => {
            let action = if matches!(event, Event::Bid { .. }) {
                BidAction::Bid
            } else {
                BidAction::Steal
            };
            let cur = &mut state.current;
            cur.bids.push(BidRecord {
                seat: *seat,
                action,
                contract: Some(*contract),
            });
            cur.leader = Some(*seat);
            cur.highest = Some(*contract);
            advance_bidding(state, *seat);
        }
        Event::Passed { seat } => {
            let cur = &mut state.current;
            cur.bids.push(BidRecord {
                seat: *seat,
                action: BidAction::Pass,
                contract: None,
            });
            cur.passed |= 1 << seat.0;
            advance_bidding(state, *seat);
        }
        Event::ContractSet { declarer, contract } => {
            state.current.declarer = *declarer;
            state.current.contract = Some(*contract);
            state.phase = if *contract == Contract::Leasters {
                Phase::Starting
            } else if n == 3 {
                Phase::KittyChoice
            } else {
                Phase::Swap { step: 0 }
            };
        }
        Event::KittyTaken { seat, cards } => {
            let cur = &mut state.current;
            cur.hands[seat.index()] = cur.hands[seat.index()].union(*cards);
            cur.kitty = CardSet::EMPTY;
            cur.kitty_taken = true;
            state.phase = Phase::Bury;
        }
        Event::KittyLeft { .. } => state.phase = Phase::ContractChoice,
        Event::Buried { seat, card } => {
            let cur = &mut state.current;
            cur.hands[seat.index()].remove(*card);
            cur.kitty.insert(*card);
            cur.kitty_known[seat.index()].insert(*card);
            if cur.hands[seat.index()].len() <= hand_size(n) {
                state.phase = Phase::ContractChoice;
            }
        }
        Event::ContractKept { contract, .. } | Event::ContractUpgraded { contract, .. } => {
            state.current.contract = Some(*contract);
            state.phase = if n == 3 {
                Phase::Starting
            } else {
                Phase::Swap { step: 1 }
            };
        }
        Event::KittySwapped {
            seat,
            hand_card,
            kitty_card,
        } => {
            let cur = &mut state.current;
            let hand = &mut cur.hands[seat.index()];
            hand.remove(*hand_card);
            hand.insert(*kitty_card);
            cur.kitty.remove(*kitty_card);
            cur.kitty.insert(*hand_card);
            for known in &mut cur.kitty_known {
                known.remove(*kitty_card);
            }
            cur.kitty_known[seat.index()].insert(*hand_card);
            if cur.declarer == Some(*seat) {
                cur.declarer_swapped = true;
            }
            advance_swap(state);
        }
        Event::KittySkipped { .. } => advance_swap(state),
        Event::Announced { seat, .. } => state.current.announced = Some(*seat),
        Event::PlayStarted {
            leader,
            declaring_side,
        } => {
            let cur = &mut state.current;
            cur.declaring_side = declaring_side.iter().fold(0, |m, s| m | (1 << s.0));
            cur.trick_leader = Some(*leader);
            state.phase = Phase::Play { turn: *leader };
        }
        Event::CardPlayed { seat, card } => {
            let cur = &mut state.current;
            cur.hands[seat.index()].remove(*card);
            if cur.trick.is_empty() {
                cur.trick_leader = Some(*seat);
            }
            cur.trick.push(*card);
            if cur.trick.len() < n {
                state.phase = Phase::Play { turn: seat.left(n) };
            }
        }
        Event::TrickWon { seat, points } => {
            let cur = &mut state.current;
            let leader = cur.trick_leader.unwrap_or(*seat);
            cur.tricks.push(TrickRecord {
                leader,
                cards: std::mem::take(&mut cur.trick),
                winner: *seat,
                points: *points,
            });
            cur.trick_points[seat.index()] += points;
            cur.tricks_won[seat.index()] += 1;
            cur.trick_leader = Some(*seat);
            let nil_broken = cur.contract == Some(Contract::Nil) && cur.declarer == Some(*seat);
            state.phase = if nil_broken || cur.hands.iter().all(|h| h.is_empty()) {
                Phase::RoundOver
            } else {
                Phase::Play { turn: *seat }
            };
        }
        Event::RoundScored(round) => {
            for (total, gain) in state.game_points.iter_mut().zip(&round.payments) {
                *total += gain;
            }
            state.history.push(round.clone());
            state.phase = Phase::RoundOver;
        }
        Event::MatchEnded { .. } => state.phase = Phase::Finished,
    }
}

fn advance_bidding(state: &mut GoatheadState, after: Seat) {
    let cur = &state.current;
    state.phase = match next_bidder(state.player_count(), after, cur.passed, cur.leader) {
        Some(turn) => Phase::Bidding { turn },
        // The contract is set by the event that follows.
        None => Phase::Starting,
    };
}

fn advance_swap(state: &mut GoatheadState) {
    state.phase = match state.phase {
        Phase::Swap { step: 0 } => Phase::ContractChoice,
        Phase::Swap { step } if step < 4 => Phase::Swap { step: step + 1 },
        _ => Phase::Starting,
    };
}
