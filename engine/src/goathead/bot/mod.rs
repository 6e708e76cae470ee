//! What Goathead gives its bots.
//!
//! - [`determinize`]: a complete state consistent with a seat's view, its
//!   hidden cards dealt at random within what the view proves, preferring
//!   deals that explain the other seats' bids ([`inference`]);
//! - [`greedy`]: the one-ply heuristic of the `greedy` level;
//! - [`playout`]: how the search plays on from a determinization (the
//!   greedy heuristic, now and then a random command, for every seat) and
//!   where it stops (once the round being decided is scored).

mod determinize;
mod greedy;
mod inference;
mod playout;

use super::cards::{Card, CardSet, Contract, Suit};
use super::commands::GoatheadCommand;
use super::state::GoatheadState;
use super::view::GoatheadView;
use super::{Goathead, GoatheadOptions, GoatheadRound};
use crate::bots::{BotRng, BotRules, Seen};
use crate::ruleset::{GameResult, Seat, seat};

type Command = GoatheadCommand;

impl BotRules for Goathead {
    /// Everything but the explicit deals, which players are not shown.
    fn public_options(options: &GoatheadOptions) -> GoatheadOptions {
        GoatheadOptions {
            rounds: options.rounds,
            deals: Vec::new(),
        }
    }

    fn determinize(seen: &Seen<'_, Self>, rng: &mut BotRng) -> GoatheadState {
        determinize::determinize(seen, rng)
    }

    fn greedy(seen: &Seen<'_, Self>, rng: &mut BotRng) -> Command {
        greedy::greedy(seen).unwrap_or_else(|| crate::bots::random(seen, rng))
    }

    /// Each seat's margin over the best other seat in the final match score,
    /// squashed into `0..=1` by a logistic of scale 6 game points; the
    /// search stops sooner, at [`BotRules::horizon_rewards`], which scores
    /// the match the same way.
    fn rewards(result: &GameResult<GoatheadRound>, _players: usize) -> Vec<f64> {
        playout::margin_rewards(&result.scores)
    }

    /// The greedy heuristic from the actor's own view of `state`, except a
    /// uniformly random command one time in ten.
    fn playout_command(
        state: &GoatheadState,
        actor: Seat,
        legal: &[Command],
        rng: &mut BotRng,
    ) -> Command {
        playout::command(state, actor, legal, rng)
    }

    /// The other seats play the greedy heuristic in the tree as well: the
    /// search answers them as they play, each from its own cards.
    const OTHERS_BY_POLICY: bool = true;

    /// Once the round of `seen` is scored (or the match is over), the match
    /// score's margins, as [`BotRules::rewards`].
    fn horizon_rewards(seen: &Seen<'_, Self>, state: &GoatheadState) -> Option<Vec<f64>> {
        playout::horizon_rewards(seen, state)
    }
}

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
