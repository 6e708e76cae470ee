//! What Goathead gives its bots: determinization and the greedy heuristic.

use super::Goathead;
use crate::bots::{BotRng, BotRules, Seen};

impl BotRules for Goathead {
    fn determinize(_seen: &Seen<'_, Self>, _rng: &mut BotRng) -> Self::State {
        todo!("determinize")
    }

    fn greedy(seen: &Seen<'_, Self>, rng: &mut BotRng) -> Self::Command {
        crate::bots::random(seen, rng)
    }
}
