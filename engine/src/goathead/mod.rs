//! Goathead: a point-trick game of the Schafkopf family for 3 or 4 players,
//! with a 20-card deck, a kitty, contracts and (with 4) hidden partners.
//!
//! # Rules
//! - Cards A 10 K Q J in ♣ ♠ ♥ ♦ (codes `AC`, `10S`, `JD`), worth 11 10 4 3 2
//!   (120 in all). 3 players: 6 cards each and 2 in the kitty; 4 players: 4
//!   each and 4 in the kitty.
//! - A match is `options.rounds` rounds (default 15); seat 0 deals round 1 and
//!   the deal moves left. Game points are summed over the rounds and public.
//! - Bidding starts left of the dealer: `bid` a strictly higher contract
//!   (`suit:D` < `suit:H` < `nil` < `suit:S` < `suit:C` < `court`), `steal` the
//!   leader's contract with strictly fewer game points than the leader, or
//!   `pass` (final). It goes round until all but the leader passed; the leader
//!   declares. All pass before any bid: Leasters.
//! - Trumps: suit X — JC JS JH JD then A 10 K Q of X; court and Leasters — the
//!   Jacks; nil — none (A 10 K Q J in every suit). Jacks belong to the trump
//!   suit whenever Jacks are trumps, also for following suit.
//! - 3 players: the declarer takes the kitty (then buries two cards) or leaves
//!   it, then keeps or upgrades the contract. 4 players: the declarer may swap
//!   one card with the kitty, keeps or upgrades, then each other seat from the
//!   declarer's left may swap one, then the dealer once more.
//! - 4 players, suit contracts: the black Jacks' holders are partners; one
//!   holder of both announces it and partners the trump Queen's holder (alone
//!   if that is themselves or the kitty). Court and Nil: declarer alone.
//! - Play: left of the dealer leads; follow the led effective suit if able;
//!   highest trump, else highest card of the led suit wins; the winner leads.
//!   Nil ends as soon as the declarer wins a trick.
//! - Scoring: made with ≥ 61 (kitty included for the declaring side; in Nil,
//!   no trick for the declarer). Value = base (suit 1, nil 2, court 2), +2 if
//!   the winning side took every trick, else +1 if it has ≥ 90, +1 if the
//!   declarer left the kitty / swapped nothing. Each seat of the larger side
//!   gains or loses it, the smaller side balances evenly. Leasters: most
//!   points pays 1 to fewest.
//!
//! # Wire format
//! - Commands: `bid {contract}`, `steal`, `pass`, `take_kitty`, `leave_kitty`,
//!   `bury {card}`, `keep_contract`, `upgrade {contract}`,
//!   `kitty_swap {hand_card, kitty_card}`, `kitty_skip`, `play {card}`.
//! - Events: `dealt`, `bid`, `stole`, `passed`, `contract_set`, `kitty_taken`,
//!   `kitty_left`, `buried`, `contract_kept`, `contract_upgraded`,
//!   `kitty_swapped`, `kitty_skipped`, `announced`, `play_started`,
//!   `card_played`, `trick_won`, `round_scored`, `match_ended`.
//!
//! # Rulings of the rules file
//! - Seat 0 deals round 1. Leasters ranks like Court (no 9-8-7 in the deck).
//! - A pass is final; bidding skips passed seats until only the leader is left.
//! - The kitty counts for the declaring side whether taken or not, for nobody
//!   in Nil, for the winner of the last trick in Leasters.
//! - A declarer who leaves the kitty still keeps or upgrades; Leasters has no
//!   kitty phase.
//! - 4 players: the dealer always swaps once more (also after swapping as one
//!   of the others, also as declarer); "swapped nothing" means no swap by the
//!   declarer in the whole kitty phase.
//! - 4-player partnerships as listed in [`scoring::sides`]; the declaring side
//!   is the side containing the declarer.
//! - Bonuses do not stack (+2 all tricks replaces +1 for ≥ 90), apply to
//!   whichever side wins, and Nil gets only the kitty bonus.
//! - Leasters ties: each seat tied for most pays 1 to each seat tied for
//!   fewest; all equal, nobody pays.
//! - Match winners: the highest total; ties are shared (`tie_break: "shared"`).
//!
//! # Rulings made here
//! - Sides are fixed when play begins (after the whole kitty phase) and are
//!   not shown during play: they are revealed by the cards played, by the
//!   public announcement (made when play begins) and by the round's score.
//!   The `play_started` event carries them for the audit only.
//! - The announcement names the trump Queen as the partner card; whether its
//!   holder exists (or the announcer plays alone) is not announced.
//! - Buried cards may be any cards (trumps and points included).
//! - An upgrade may go to any strictly higher contract, Nil included; with 4
//!   players, an upgrade to Court or Nil makes the declarer play alone.
//! - Each seat sees the kitty only as the rules say; a card it put in the
//!   kitty stays visible to it while it lies there; a card taken out of the
//!   kitty is forgotten by whoever put it in (it is then in someone's hand).
//! - In Nil the kitty's points are reported as 0 (counted for nobody), so a
//!   Nil that ends early reveals nothing of the kitty.
//! - All tricks: the winning side took every trick played (a Nil ended early
//!   gets no such bonus anyway).
//! - A random deal shuffles the 20 cards (index order: ♣ A 10 K Q J, then ♠,
//!   ♥, ♦) with the `deal` stream of the round; seat 0 takes the first hand's
//!   worth, seat 1 the next, ..., the kitty the rest.
//! - `options.deals` may not hold more deals than rounds.

mod bot;
mod cards;
mod commands;
mod events;
mod options;
mod rules;
mod scoring;
mod state;
mod view;

#[cfg(test)]
mod tests;

pub use cards::{Card, CardSet, Contract, DECK_SIZE, JC, JS, Rank, Suit};
pub use commands::GoatheadCommand;
pub use events::{Cards, GoatheadEvent, GoatheadEventView};
pub use options::{Deal, GoatheadOptions, hand_size, kitty_size};
pub use rules::{playable, trick_winner};
pub use scoring::{GoatheadRound, RoundFacts, score, sides};
pub use state::{BidAction, BidRecord, GoatheadState, Phase, RoundState, TrickRecord};
pub use view::{GoatheadView, PlayedCard};

use crate::random::Randomness;
use crate::ruleset::{GameResult, OptionsError, RuleViolation, Ruleset, Seat, Viewer};
use crate::testing::CommandSpace;

/// The Goathead ruleset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Goathead;

impl Ruleset for Goathead {
    const ID: &'static str = "goathead";
    const NAME: &'static str = "Goathead";
    const MIN_PLAYERS: usize = 3;
    const MAX_PLAYERS: usize = 4;
    const RULES_VERSIONS: &'static [crate::RulesVersion] = &[
        crate::RulesVersion {
            number: 1,
            summary: "The rules of seed 002 with the rulings of the first release.",
            salted: false,
        },
        crate::RulesVersion {
            number: 2,
            summary: "Players contribute to the shuffle: every seat adds a salt when it sits, and the deals are drawn from a hash of the server's committed seed and every salt in seat order.",
            salted: true,
        },
    ];

    type Options = GoatheadOptions;
    type State = GoatheadState;
    type Command = GoatheadCommand;
    type Event = GoatheadEvent;
    type View = GoatheadView;
    type EventView = GoatheadEventView;
    type Round = GoatheadRound;

    fn options_schema() -> serde_json::Value {
        options::schema()
    }

    fn new_game(players: usize, options: GoatheadOptions) -> Result<GoatheadState, OptionsError> {
        options.validate(players)?;
        Ok(GoatheadState::new(players, options.rounds, options.deals))
    }

    fn start(state: &GoatheadState, rng: &Randomness) -> Vec<GoatheadEvent> {
        rules::start(state, rng)
    }

    fn evolve(state: &mut GoatheadState, event: &GoatheadEvent) {
        rules::evolve(state, event);
    }

    fn to_act(state: &GoatheadState) -> Vec<Seat> {
        state.actor().into_iter().collect()
    }

    fn legal_commands(state: &GoatheadState, seat: Seat) -> Vec<GoatheadCommand> {
        rules::legal_commands(state, seat)
    }

    fn decide(
        state: &GoatheadState,
        seat: Seat,
        command: &GoatheadCommand,
        rng: &Randomness,
    ) -> Result<Vec<GoatheadEvent>, RuleViolation> {
        rules::decide(state, seat, command, rng)
    }

    fn view(state: &GoatheadState, viewer: Viewer) -> GoatheadView {
        view::view(state, viewer)
    }

    fn redact(event: &GoatheadEvent, viewer: Viewer) -> GoatheadEventView {
        events::redact(event, viewer)
    }

    fn result(state: &GoatheadState) -> Option<GameResult<GoatheadRound>> {
        state.finished().then(|| result(state))
    }

    fn reveals(event: &GoatheadEvent) -> bool {
        events::reveals(event)
    }
}

impl CommandSpace for Goathead {
    /// Every command type; every contract (Leasters included) for `bid` and
    /// `upgrade`; every card of the hand and one card outside it for `play`
    /// and `bury`; swaps of those cards with every kitty card and one card
    /// outside the kitty.
    fn candidate_commands(state: &GoatheadState, s: Seat) -> Vec<GoatheadCommand> {
        use GoatheadCommand as C;
        let mut out = vec![
            C::Steal {},
            C::Pass {},
            C::TakeKitty {},
            C::LeaveKitty {},
            C::KeepContract {},
            C::KittySkip {},
        ];
        for contract in Contract::BIDDABLE.into_iter().chain([Contract::Leasters]) {
            out.push(C::Bid { contract });
            out.push(C::Upgrade { contract });
        }
        let cur = &state.current;
        let hand = cur.hands.get(s.index()).copied().unwrap_or_default();
        let not_in_hand = Card::all().find(|&c| !hand.contains(c));
        let not_in_kitty = Card::all().find(|&c| !cur.kitty.contains(c));
        for card in hand.iter().chain(not_in_hand) {
            out.push(C::Play { card });
            out.push(C::Bury { card });
            for kitty_card in cur.kitty.iter().chain(not_in_kitty) {
                out.push(C::KittySwap {
                    hand_card: card,
                    kitty_card,
                });
            }
        }
        out
    }
}

/// The result of a finished match: game points per seat, the winners (ties
/// shared) and every round.
#[must_use]
pub fn result(state: &GoatheadState) -> GameResult<GoatheadRound> {
    let winners = scoring::winners(&state.game_points);
    GameResult {
        scores: state.game_points.clone(),
        tie_break: (winners.len() > 1).then(|| "shared".to_string()),
        winners,
        teams: None,
        outcome: None,
        rounds: state.history.clone(),
    }
}
