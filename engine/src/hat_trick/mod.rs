//! Hat Trick (Brisbane Cards), a "last trick" game for 2–6 players.
//!
//! # The game
//!
//! Decks: 2 players 9–A + JK (25; 11 each, 3 left face down, the top one
//! turned for trump); 3 players 7–A + JK (33; 11 each, trump by the cut
//! card); 4 players 4–A + JK (45; 11 each, the card left over face up for
//! trump); 5 players 2–A + JK1 + JK2 (54; 11 each, the dealer 10 and sits out
//! trick 1; trump by the cut card); 6 players 2–12, J, Q, K, A + JK (61; 10
//! each, the card left over face up). Option `no_joker` (4 and 6 players)
//! removes the joker; trump is then by the cut card. The dealer of deal 1 is
//! seat 0, then the deal moves left; forehand (left of the dealer) leads.
//!
//! Trump is the indicator's suit; a K, Q or joker gives no-trump (NT). With
//! `trump_mode: cycle` it goes ♥ ♦ ♣ ♠ NT by deal number.
//!
//! Play: follow suit; unable, play the highest trump (at NT the highest card
//! of the suit of the same colour); unable, anything. The joker may be played
//! at any time and never wins; a led joker lets the next non-joker card set
//! the suit. Highest trump wins, else highest of the led suit; the winner
//! leads. `play_rule: colour_first` (follow → highest of same colour →
//! highest trump → any) and `colour_or_trump` (follow → highest of same
//! colour or highest trump → any). `joker_by_trick` (3 or 5): the joker must
//! be played by that trick.
//!
//! Scoring: tricks 1, 6 and last score 1, 4, 8; all three (a hat trick) +3 to
//! the taker and −3 to everyone else. Predictions (`predict: true` with a
//! play) on tricks 2–5 claim trick 6, on tricks 7 to the one before last
//! claim the last; worth 4, 3, 2, 1 by the trick they were made on; won
//! plus the value, lost minus twice the value; the first claim of each window only.
//!
//! `mode`: `negative` (penalty points, no predictions, the joker always wins,
//! lowest total wins), `cycle_with_negative` (♥ ♦ ♣ ♠ NT NEG), `jack_negative`
//! (a Jack indicator makes the deal negative). In a mixed game a negative
//! deal's points are subtracted. The match is `rounds` deals; highest total
//! wins (lowest in the negative game); ties are shared.
//!
//! # Rulings (from `hat-trick.md`)
//!
//! - `no_joker` with 4 players: 44 cards and the cut card.
//! - The cut card (3 and 5 players, 4 and 6 without joker) is a uniformly
//!   random card of the shuffled deck, shown to all, dealt to the dealer.
//! - In the negative game the joker always wins; of two jokers the first
//!   played wins.
//! - A seat holding both jokers under `joker_by_trick` is forced one trick
//!   earlier; the forcing overrides following suit.
//! - `colour_first` is applied literally, also when trump is led.
//! - The 5-player dealer may predict only on tricks they play.
//! - `cycle_with_negative` uses the six-deal cycle whatever `trump_mode`
//!   says, NEG at no-trump; under `jack_negative` a Jack indicator keeps its
//!   suit as trump; in `negative` mode trump is chosen as usual.
//! - Ties for the win are shared (`tie_break: "shared"`).
//!
//! # Further rulings of this engine
//!
//! - With trump by the cycle (`trump_mode: cycle` or `cycle_with_negative`)
//!   there is no indicator: no cut card, and the left-over cards of 2, 4 and 6
//!   players all stay face down (shown only to the audit); an explicit deal
//!   must then omit `indicator`.
//! - `jack_negative` requires `trump_mode: cut` (refused otherwise); `no_joker`
//!   is refused for 2, 3 and 5 players; more explicit deals than rounds are
//!   refused.
//! - The joker wins in every negative deal, also the negative deals of a
//!   mixed game (`cycle_with_negative`, `jack_negative`).
//! - No predictions are made in any negative deal (also in a mixed game).
//! - `joker_by_trick` counts trick numbers: a seat is forced once
//!   `deadline − trick + 1 ≤ jokers held`, so the 5-player dealer (who sits out
//!   trick 1) holding both jokers with deadline 3 plays them on tricks 2 and 3.
//!   A forced joker may still carry `predict: true`.
//! - `colour_or_trump` at no-trump is the highest card of the same colour;
//!   under every rule, a seat with none of the required cards plays anything.
//! - The shuffle: the deck in its fixed order (♥ ♦ ♣ ♠ low to high, jokers
//!   last) is shuffled with `rng.stream("deal", round)`; the cut card is then
//!   taken out at `below(len)` of the same stream; hands are dealt in one
//!   block each from forehand round to the dealer (packets of 2 and 3 do not
//!   change the distribution); the rest is left over, top first.
//!   `options::Deal::drawn` is that shuffle, as an explicit deal (a duplicate
//!   tournament gives every table of a round the deals it draws).
//! - After the last card of a deal the same command records the trick, the
//!   deal's score and the next deal (or the end of the match).
//! - A trick of jokers only (impossible with these decks) would go to its leader.
//! - Views list the cards played to the earlier tricks of the deal
//!   (`played`, in order; every `played` event shows them anyway), so that a
//!   player (or a bot) need not keep the deal's history to know them.
//! - Views name the cut card's holder (`indicator_holder`, the dealer) while it
//!   is still in their hand; the indicator itself stays public all deal.
//! - A prediction is made with a play (`predict: true`), by any seat about to
//!   play to a trick of the window, the leader included.
//! - Once a deal's last trick is taken, `trick_number` is one past the last
//!   trick until the next deal.
//!
//! # Events
//!
//! `dealt`, `played`, `trick_won`, `round_scored`, `match_ended`.
//! Command: `play` (`card`, `predict`).

mod bot;
pub mod cards;
pub mod commands;
pub mod events;
pub mod options;
pub mod rules;
pub mod scoring;
pub mod state;
pub mod tally;
pub mod view;

#[cfg(test)]
mod tests;

use crate::random::Randomness;
use crate::ruleset::{GameResult, OptionsError, RuleViolation, Ruleset, Seat, Viewer};
use crate::testing::CommandSpace;

use cards::{Hand, bits};
pub use commands::HatTrickCommand;
pub use events::HatTrickEventView;
use events::{HatTrickEvent, MatchEnded, Played, TrickWon};
pub use options::HatTrickOptions;
use rules::{deal, legal_cards, prediction_value, prediction_window, trick_winner};
pub use scoring::RoundResult;
pub use state::HatTrickState;
use state::{Play, Prediction};
pub use view::HatTrickView;

/// The Hat Trick ruleset.
#[derive(Clone, Copy, Debug, Default)]
pub struct HatTrick;

impl Ruleset for HatTrick {
    const ID: &'static str = "hat-trick";
    const NAME: &'static str = "Hat Trick";
    const MIN_PLAYERS: usize = 2;
    const MAX_PLAYERS: usize = 6;
    const RULES_VERSIONS: &'static [crate::RulesVersion] = &[
        crate::RulesVersion {
            number: 1,
            summary: "The rules of seed 004 with the rulings of the first release.",
            salted: false,
        },
        crate::RulesVersion {
            number: 2,
            summary: "Players contribute to the shuffle: every seat adds a salt when it sits, and the deals are drawn from a hash of the server's committed seed and every salt in seat order.",
            salted: true,
        },
    ];

    type Options = HatTrickOptions;
    type State = HatTrickState;
    type Command = HatTrickCommand;
    type Event = HatTrickEvent;
    type View = HatTrickView;
    type EventView = HatTrickEventView;
    type Round = RoundResult;

    fn options_schema() -> serde_json::Value {
        options::schema()
    }

    fn new_game(players: usize, options: HatTrickOptions) -> Result<HatTrickState, OptionsError> {
        options.validate(players)?;
        Ok(HatTrickState::new(players, options))
    }

    fn start(state: &HatTrickState, rng: &Randomness) -> Vec<HatTrickEvent> {
        vec![HatTrickEvent::Dealt(deal(state, 0, rng))]
    }

    fn evolve(state: &mut HatTrickState, event: &HatTrickEvent) {
        match event {
            HatTrickEvent::Dealt(d) => {
                let n = state.n();
                state.round = d.round;
                state.dealer = d.dealer;
                state.hands.clone_from(&d.hands);
                state.left.clone_from(&d.left);
                state.indicator = d.indicator;
                state.indicator_is_cut = d.indicator_is_cut;
                state.trump = d.trump;
                state.negative = d.negative;
                state.trick_number = 1;
                state.leader = d.dealer.left(n);
                state.trick.clear();
                state.played.clear();
                state.tricks_won.iter_mut().for_each(|t| *t = 0);
                state.scoring = [None; 3];
                state.predictions = [None; 2];
            }
            HatTrickEvent::Played(p) => {
                if p.predict
                    && let Some(window) = prediction_window(state)
                {
                    let t = state.trick_number;
                    state.predictions[window] = Some(Prediction {
                        seat: p.seat,
                        made_on: t,
                        claims: if window == 0 { 6 } else { state.tricks() },
                        value: prediction_value(t),
                    });
                }
                if let Some(hand) = state.hands.get_mut(p.seat.index()) {
                    hand.0 &= !p.card.bit();
                }
                state.trick.push(Play {
                    seat: p.seat,
                    card: p.card,
                });
            }
            HatTrickEvent::TrickWon(t) => {
                state.played.append(&mut state.trick);
                if let Some(won) = state.tricks_won.get_mut(t.winner.index()) {
                    *won += 1;
                }
                let slot = if t.trick == 1 {
                    Some(0)
                } else if t.trick == 6 {
                    Some(1)
                } else if t.trick == state.tricks() {
                    Some(2)
                } else {
                    None
                };
                if let Some(slot) = slot {
                    state.scoring[slot] = Some(t.winner);
                }
                state.leader = t.winner;
                state.trick_number = t.trick + 1;
            }
            HatTrickEvent::RoundScored(r) => {
                state.scores.clone_from(&r.totals);
                state.played.clear();
                state.results.push(r.clone());
            }
            HatTrickEvent::MatchEnded(_) => state.finished = true,
        }
    }

    fn to_act(state: &HatTrickState) -> Vec<Seat> {
        state.next_to_play().into_iter().collect()
    }

    fn legal_commands(state: &HatTrickState, seat: Seat) -> Vec<HatTrickCommand> {
        if state.next_to_play() != Some(seat) {
            return Vec::new();
        }
        let mask = legal_cards(state, seat);
        let predict = prediction_window(state).is_some();
        let mut out = Vec::with_capacity(mask.count_ones() as usize * (1 + usize::from(predict)));
        for card in Hand(mask).cards() {
            out.push(HatTrickCommand::Play {
                card,
                predict: false,
            });
            if predict {
                out.push(HatTrickCommand::Play {
                    card,
                    predict: true,
                });
            }
        }
        out
    }

    fn decide(
        state: &HatTrickState,
        seat: Seat,
        command: &HatTrickCommand,
        rng: &Randomness,
    ) -> Result<Vec<HatTrickEvent>, RuleViolation> {
        let HatTrickCommand::Play { card, predict } = *command;
        if state.finished {
            return Err(RuleViolation::new("the game is over"));
        }
        if state.next_to_play() != Some(seat) {
            return Err(RuleViolation::new("it is not your turn"));
        }
        if !state.hands[seat.index()].contains(card) {
            return Err(RuleViolation::new(format!(
                "card {card} is not in your hand"
            )));
        }
        let legal = legal_cards(state, seat);
        if legal & card.bit() == 0 {
            let allowed: Vec<&str> = bits(legal).map(cards::Card::code).collect();
            return Err(RuleViolation::new(format!(
                "you may not play {card} now; you may play {}",
                allowed.join(", ")
            )));
        }
        if predict && prediction_window(state).is_none() {
            return Err(RuleViolation::new(
                "no prediction can be made now (tricks 2–5 and 7 to the one before last, \
                 the first claim only, none in a negative deal)",
            ));
        }
        let mut events = Vec::with_capacity(2);
        events.push(HatTrickEvent::Played(Played {
            seat,
            card,
            predict,
        }));
        if state.trick.len() + 1 < state.trick_size() {
            return Ok(events);
        }
        let mut plays = [Play { seat, card }; 6];
        plays[..state.trick.len()].copy_from_slice(&state.trick);
        let winner = trick_winner(&plays[..=state.trick.len()], state.trump, state.negative);
        events.push(HatTrickEvent::TrickWon(TrickWon {
            trick: state.trick_number,
            winner,
        }));
        if state.trick_number < state.tricks() {
            return Ok(events);
        }
        let round = tally::score_round(state, winner);
        let totals = round.totals.clone();
        events.push(HatTrickEvent::RoundScored(round));
        if state.round + 1 < state.rounds {
            events.push(HatTrickEvent::Dealt(deal(state, state.round + 1, rng)));
        } else {
            events.push(HatTrickEvent::MatchEnded(MatchEnded {
                winners: scoring::winners(state.options.mode, &totals),
                scores: totals,
            }));
        }
        Ok(events)
    }

    fn view(state: &HatTrickState, viewer: Viewer) -> HatTrickView {
        view::view(state, viewer)
    }

    fn redact(event: &HatTrickEvent, viewer: Viewer) -> HatTrickEventView {
        view::redact(event, viewer)
    }

    fn result(state: &HatTrickState) -> Option<GameResult<RoundResult>> {
        tally::result(state)
    }

    fn reveals(event: &HatTrickEvent) -> bool {
        events::reveals(event)
    }
}

impl CommandSpace for HatTrick {
    fn candidate_commands(state: &HatTrickState, seat: Seat) -> Vec<HatTrickCommand> {
        state.hands[seat.index()]
            .cards()
            .flat_map(|card| [false, true].map(|predict| HatTrickCommand::Play { card, predict }))
            .collect()
    }
}
