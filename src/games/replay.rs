//! Folding a game's log into its state: the log is the truth, and snapshots,
//! step-through replays (`state?at=N`) and audits are all computed this way.

use hatstand_engine::{Ruleset, apply_all};
use serde_json::Value;

use super::codec::event_from_parts;
use super::lifecycle::{self, GameCreated, PlayerJoined};
use crate::db::event_store::LoggedEvent;

/// A game rebuilt from its events.
#[derive(Debug)]
pub struct Replay<R: Ruleset> {
    /// The data of `game_created`.
    pub created: Option<GameCreated>,
    /// The engine options.
    pub options: Option<R::Options>,
    /// Who sits where.
    pub seats: Vec<Option<PlayerJoined>>,
    /// The engine state, once started.
    pub state: Option<R::State>,
    /// The number of events applied.
    pub version: i64,
}

impl<R: Ruleset> Default for Replay<R> {
    fn default() -> Self {
        Replay {
            created: None,
            options: None,
            seats: Vec::new(),
            state: None,
            version: 0,
        }
    }
}

impl<R: Ruleset> Replay<R> {
    /// The replay of a whole log.
    ///
    /// # Errors
    /// Where and why the log cannot be replayed.
    pub fn of(events: &[LoggedEvent]) -> Result<Self, String> {
        let mut replay = Replay::default();
        for event in events {
            replay.apply(event)?;
        }
        Ok(replay)
    }

    /// Applies the next event of the log.
    ///
    /// # Errors
    /// Where and why the event does not fit.
    pub fn apply(&mut self, event: &LoggedEvent) -> Result<(), String> {
        let at = event.seq;
        if event.seq != self.version + 1 {
            return Err(format!("event {at}: expected seq {}", self.version + 1));
        }
        match event.kind.as_str() {
            lifecycle::GAME_CREATED => {
                let created: GameCreated = parse(&event.data, at)?;
                if created.ruleset != R::ID {
                    return Err(format!(
                        "event {at}: ruleset {} is not {}",
                        created.ruleset,
                        R::ID
                    ));
                }
                let options: R::Options = parse(&created.options, at)?;
                R::new_game(usize::from(created.players), options.clone())
                    .map_err(|e| format!("event {at}: options refused: {e}"))?;
                self.seats = vec![None; usize::from(created.players)];
                self.options = Some(options);
                self.created = Some(created);
            }
            lifecycle::PLAYER_JOINED => {
                let joined: PlayerJoined = parse(&event.data, at)?;
                let slot = self
                    .seats
                    .get_mut(usize::from(joined.seat))
                    .ok_or_else(|| format!("event {at}: no seat {}", joined.seat))?;
                if slot.is_some() {
                    return Err(format!("event {at}: seat {} is already taken", joined.seat));
                }
                *slot = Some(joined);
            }
            lifecycle::GAME_STARTED => {
                let options = self
                    .options
                    .clone()
                    .ok_or_else(|| format!("event {at}: started before created"))?;
                if self.seats.iter().any(Option::is_none) {
                    return Err(format!("event {at}: started with empty seats"));
                }
                let state = R::new_game(self.seats.len(), options)
                    .map_err(|e| format!("event {at}: options refused: {e}"))?;
                self.state = Some(state);
            }
            kind if lifecycle::is_lifecycle(kind) => {
                return Err(format!("event {at}: unknown server event {kind}"));
            }
            kind => {
                let state = self
                    .state
                    .as_mut()
                    .ok_or_else(|| format!("event {at}: {kind} before the game started"))?;
                let engine_event = event_from_parts::<R>(kind, &event.data)
                    .map_err(|_| format!("event {at}: {kind} is not a {} event", R::ID))?;
                apply_all::<R>(state, std::slice::from_ref(&engine_event));
            }
        }
        self.version = event.seq;
        Ok(())
    }
}

fn parse<T: serde::de::DeserializeOwned>(data: &Value, at: i64) -> Result<T, String> {
    T::deserialize(data).map_err(|e| format!("event {at}: {e}"))
}
