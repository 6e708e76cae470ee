//! How the search plays on from a determinization, and where it stops.
//!
//! # Policy
//! Every seat, the searching one included, sends what the greedy heuristic
//! sends from its own view of the determinized state, except one command in
//! [`RANDOM_ONE_IN`], drawn uniformly among the legal ones. Random play says
//! little about a Goathead position: a random declarer fails and random
//! defenders let a weak contract through, so a search on random playouts
//! judges bids and kitty choices by a game no one plays; the occasional
//! random command keeps every line of play possible.
//!
//! # Horizon
//! A playout stops once the round of the search's root is scored (or the
//! match is over). Each seat's reward is then its margin over the best other
//! seat in the match score, squashed into `0..=1` by a logistic of scale
//! [`MARGIN_SCALE`] game points. The later rounds of a 15-round match would
//! be dealt at random and played for nothing this decision changes: noise,
//! and most of a playout's cost. Early in a match the margin follows the
//! round's payments; in the last round it is the match standing itself, so
//! the end of a match is played for the win.

use super::Command;
use super::greedy::greedy;
use crate::bots::{BotRng, Seen};
use crate::goathead::state::GoatheadState;
use crate::goathead::{Goathead, GoatheadOptions};
use crate::random::below;
use crate::ruleset::{Ruleset, Seat, Viewer};

/// One playout command in this many is drawn at random.
const RANDOM_ONE_IN: usize = 10;

/// The game points that make a margin count.
const MARGIN_SCALE: f64 = 6.0;

/// The playout command of `actor` in `state` (see the module docs).
pub(super) fn command(
    state: &GoatheadState,
    actor: Seat,
    legal: &[Command],
    rng: &mut BotRng,
) -> Command {
    let random = |rng: &mut BotRng| legal[below(rng, legal.len())];
    if below(rng, RANDOM_ONE_IN) == 0 {
        return random(rng);
    }
    let view = Goathead::view(state, Viewer::Seat(actor));
    // The heuristic reads no option.
    let options = GoatheadOptions::default();
    let seen = Seen::<Goathead>::new(&options, state.player_count(), actor, &view, legal);
    greedy(&seen).unwrap_or_else(|| random(rng))
}

/// The rewards at the horizon of a search from `seen`, once `state` is past
/// it; `None` before.
pub(super) fn horizon_rewards(
    seen: &Seen<'_, Goathead>,
    state: &GoatheadState,
) -> Option<Vec<f64>> {
    let past = state.round != seen.view.round || state.finished();
    past.then(|| margin_rewards(&state.game_points))
}

/// Per seat, the logistic of its margin over the best other seat in
/// `scores`, in game points of scale [`MARGIN_SCALE`].
pub(super) fn margin_rewards(scores: &[i32]) -> Vec<f64> {
    (0..scores.len())
        .map(|i| {
            let best_other = (0..scores.len())
                .filter(|&j| j != i)
                .map(|j| f64::from(scores[j]))
                .fold(f64::MIN, f64::max);
            let margin = f64::from(scores[i]) - best_other;
            1.0 / (1.0 + (-margin / MARGIN_SCALE).exp())
        })
        .collect()
}
