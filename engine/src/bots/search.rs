//! Single-observer information-set Monte Carlo tree search (SO-ISMCTS,
//! Cowling, Powley and Whitehouse, 2012), for any number of seats.
//!
//! One tree of commands is shared by all determinizations. An iteration:
//! 1. draws a complete state consistent with the bot's view
//!    ([`BotRules::determinize`]);
//! 2. walks down from the root (whose commands are the ruleset's candidates,
//!    [`BotRules::root_candidates`], all legal ones by default): at each step the first seat to act chooses;
//!    every child whose command is legal now gains one *availability*; if a
//!    legal command has no child yet, one is added and the walk stops there,
//!    else the child with the best UCB score (mean reward + `C`·√(ln
//!    availability / visits)) is taken. When the ruleset models the other
//!    seats ([`BotRules::OTHERS_BY_POLICY`]), another seat's only candidate
//!    is the command its playout policy sends in this determinization;
//! 3. plays the rest of the game with the ruleset's playout policy
//!    ([`BotRules::playout_command`], uniformly random by default), or up to
//!    the ruleset's horizon ([`BotRules::horizon_rewards`]), where the walk
//!    of step 2 stops too;
//! 4. adds each node's actor's reward ([`BotRules::rewards`], or the
//!    horizon's) to the nodes walked.
//!
//! The answer is the root's most visited command (ties: the higher mean
//! reward, then the first listed).

use rand::RngCore;

use super::{BotRng, BotRules, Budget, Seen};
use crate::random::{Randomness, below};
use crate::ruleset::{Seat, apply_all};

/// The exploration constant of UCB1 (rewards lie in `0..=1`).
const EXPLORATION: f64 = 0.7;

/// The most commands one playout sends before it gives up (a safety net; every
/// ruleset ends far sooner).
const PLAYOUT_LIMIT: usize = 20_000;

struct Node<C> {
    /// The command that leads here, and who sent it (none for the root).
    edge: Option<(Seat, C)>,
    children: Vec<usize>,
    visits: u32,
    availability: u32,
    /// Summed rewards of `edge`'s seat.
    reward: f64,
}

impl<C> Node<C> {
    fn ucb(&self) -> f64 {
        let visits = f64::from(self.visits.max(1));
        self.reward / visits
            + EXPLORATION * (f64::from(self.availability.max(1)).ln() / visits).sqrt()
    }
}

/// The command ISMCTS chooses for `seen.seat` within `budget`.
///
/// # Panics
/// If `seen.legal` is empty.
pub fn ismcts<R: BotRules>(seen: &Seen<'_, R>, budget: Budget, rng: &mut BotRng) -> R::Command {
    let mut nodes: Vec<Node<R::Command>> = vec![Node {
        edge: None,
        children: Vec::new(),
        visits: 0,
        availability: 0,
        reward: 0.0,
    }];
    let root = R::root_candidates(seen);
    for iteration in 0..budget.iterations {
        // Checked before every iteration (a clock read is nothing beside
        // one), so a search overruns its deadline by one iteration at most.
        if iteration > 0
            && budget
                .deadline
                .is_some_and(|deadline| std::time::Instant::now() >= deadline)
        {
            break;
        }
        iterate::<R>(seen, &root, &mut nodes, rng);
    }
    let best = nodes[0]
        .children
        .iter()
        .map(|&i| &nodes[i])
        .filter(|n| {
            n.edge
                .as_ref()
                .is_some_and(|(s, c)| *s == seen.seat && seen.legal.contains(c))
        })
        .max_by(|a, b| {
            a.visits.cmp(&b.visits).then(
                (a.reward / f64::from(a.visits.max(1)))
                    .total_cmp(&(b.reward / f64::from(b.visits.max(1)))),
            )
        });
    best.and_then(|n| n.edge.as_ref().map(|(_, c)| c.clone()))
        .unwrap_or_else(|| seen.legal[0].clone())
}

/// One iteration: determinize, select, expand, play out, back up.
fn iterate<R: BotRules>(
    seen: &Seen<'_, R>,
    root: &[R::Command],
    nodes: &mut Vec<Node<R::Command>>,
    rng: &mut BotRng,
) {
    let mut state = R::determinize(seen, rng);
    let randomness = Randomness::from_seed(&format!("ismcts-{:016x}", rng.next_u64()));
    let mut path = vec![0usize];
    let mut current = 0usize;
    let mut expanded = false;
    while !expanded {
        if current != 0 && R::horizon_rewards(seen, &state).is_some() {
            break;
        }
        let (actor, legal) = if current == 0 {
            (seen.seat, root.to_vec())
        } else {
            let Some(actor) = R::to_act(&state).first().copied() else {
                break;
            };
            (actor, R::legal_commands(&state, actor))
        };
        if legal.is_empty() {
            break;
        }
        let legal = if R::OTHERS_BY_POLICY && actor != seen.seat {
            vec![R::playout_command(&state, actor, &legal, rng)]
        } else {
            legal
        };
        let mut untried: Vec<usize> = Vec::new();
        let mut best: Option<(usize, f64)> = None;
        for (index, command) in legal.iter().enumerate() {
            let child = nodes[current].children.iter().copied().find(|&c| {
                nodes[c]
                    .edge
                    .as_ref()
                    .is_some_and(|(s, cmd)| *s == actor && cmd == command)
            });
            match child {
                Some(c) => {
                    nodes[c].availability += 1;
                    let score = nodes[c].ucb();
                    if best.is_none_or(|(_, b)| score > b) {
                        best = Some((c, score));
                    }
                }
                None => untried.push(index),
            }
        }
        let next = if untried.is_empty() {
            match best {
                Some((c, _)) => c,
                None => break,
            }
        } else {
            let command = legal[untried[below(rng, untried.len())]].clone();
            nodes.push(Node {
                edge: Some((actor, command)),
                children: Vec::new(),
                visits: 0,
                availability: 1,
                reward: 0.0,
            });
            let c = nodes.len() - 1;
            nodes[current].children.push(c);
            expanded = true;
            c
        };
        let Some((_, command)) = nodes[next].edge.as_ref() else {
            break;
        };
        let Ok(events) = R::decide(&state, actor, command, &randomness) else {
            break;
        };
        apply_all::<R>(&mut state, &events);
        path.push(next);
        current = next;
    }
    let rewards =
        play_out::<R>(seen, &mut state, &randomness, rng).unwrap_or(vec![0.5; seen.players]);
    for &n in &path {
        let node = &mut nodes[n];
        node.visits += 1;
        if let Some((seat, _)) = &node.edge {
            node.reward += rewards.get(seat.index()).copied().unwrap_or(0.0);
        }
    }
}

/// Plays on with the ruleset's playout policy until its horizon or the end
/// of the game, and returns each seat's reward there (`None`: the playout
/// got stuck, which no ruleset does).
fn play_out<R: BotRules>(
    seen: &Seen<'_, R>,
    state: &mut R::State,
    randomness: &Randomness,
    rng: &mut BotRng,
) -> Option<Vec<f64>> {
    for _ in 0..PLAYOUT_LIMIT {
        if let Some(rewards) = R::horizon_rewards(seen, state) {
            return Some(rewards);
        }
        let Some(actor) = R::to_act(state).first().copied() else {
            break;
        };
        let legal = R::legal_commands(state, actor);
        if legal.is_empty() {
            break;
        }
        let command = R::playout_command(state, actor, &legal, rng);
        match R::decide(state, actor, &command, randomness) {
            Ok(events) => apply_all::<R>(state, &events),
            Err(_) => break,
        }
    }
    R::result(state).map(|result| R::rewards(&result, seen.players))
}
