//! Folding a game's log into its state: the log is the truth, and snapshots,
//! step-through replays (`state?at=N`) and audits are all computed this way.

use hatstand_engine::{Ruleset, apply_all};
use serde_json::Value;

use super::codec::event_from_parts;
use super::lifecycle::{
    self, ForfeitResult, GameCreated, Invitee, PlayerJoined, PlayerResigned, SeatVacation,
    TurnTimedOut,
};
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
    /// Seats that are out (resigned, forfeited on timeout, inactive).
    pub out: Vec<bool>,
    /// The result, when the game ended by forfeit.
    pub forfeit: Option<Value>,
    /// Whether the game was cancelled before it started.
    pub cancelled: bool,
}

impl<R: Ruleset> Default for Replay<R> {
    fn default() -> Self {
        Replay {
            created: None,
            options: None,
            seats: Vec::new(),
            state: None,
            version: 0,
            out: Vec::new(),
            forfeit: None,
            cancelled: false,
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
        if self.forfeit.is_some() || self.cancelled {
            return Err(format!("event {at}: {} after the game ended", event.kind));
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
                self.out = vec![false; usize::from(created.players)];
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
            lifecycle::PLAYER_INVITED | lifecycle::PLAYER_DECLINED => {
                let _: Invitee = parse(&event.data, at)?;
                if self.state.is_some() {
                    return Err(format!("event {at}: {} after the start", event.kind));
                }
            }
            lifecycle::GAME_CANCELLED => {
                if self.state.is_some() {
                    return Err(format!("event {at}: cancelled after the start"));
                }
                self.cancelled = true;
            }
            lifecycle::TURN_TIMED_OUT => {
                let timed_out: TurnTimedOut = parse(&event.data, at)?;
                self.check_waits_on(timed_out.seat, at)?;
            }
            lifecycle::SEAT_VACATION => {
                let vacation: SeatVacation = parse(&event.data, at)?;
                self.check_waits_on(vacation.seat, at)?;
            }
            lifecycle::PLAYER_RESIGNED => {
                let resigned: PlayerResigned = parse(&event.data, at)?;
                if self.state.is_none() {
                    return Err(format!("event {at}: resigned before the start"));
                }
                if !["resigned", "timeout", "inactive"].contains(&resigned.reason.as_str()) {
                    return Err(format!("event {at}: unknown reason {}", resigned.reason));
                }
                let out = self
                    .out
                    .get_mut(usize::from(resigned.seat))
                    .ok_or_else(|| format!("event {at}: no seat {}", resigned.seat))?;
                if *out {
                    return Err(format!("event {at}: seat {} is already out", resigned.seat));
                }
                *out = true;
            }
            lifecycle::GAME_FORFEITED => {
                let result: ForfeitResult = parse(&event.data, at)?;
                if self.state.is_none() || self.out.iter().filter(|o| !**o).count() > 1 {
                    return Err(format!(
                        "event {at}: a forfeit while two seats or more are still in"
                    ));
                }
                if result != ForfeitResult::of(&self.out) {
                    return Err(format!("event {at}: the forfeit result does not follow"));
                }
                self.forfeit = Some(event.data.clone());
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

impl<R: Ruleset> Replay<R> {
    /// Checks that the started game waits on `seat`.
    fn check_waits_on(&self, seat: u8, at: i64) -> Result<(), String> {
        let state = self
            .state
            .as_ref()
            .ok_or_else(|| format!("event {at}: before the start"))?;
        if !R::to_act(state).contains(&hatstand_engine::Seat(seat)) {
            return Err(format!(
                "event {at}: the game was not waiting for seat {seat}"
            ));
        }
        Ok(())
    }

    /// The result: the forfeit's, or the engine's.
    ///
    /// # Errors
    /// When the engine's result does not serialize.
    pub fn result(&self) -> Result<Option<Value>, String> {
        if let Some(forfeit) = &self.forfeit {
            return Ok(Some(forfeit.clone()));
        }
        self.state
            .as_ref()
            .and_then(R::result)
            .map(serde_json::to_value)
            .transpose()
            .map_err(|e| e.to_string())
    }
}

fn parse<T: serde::de::DeserializeOwned>(data: &Value, at: i64) -> Result<T, String> {
    T::deserialize(data).map_err(|e| format!("event {at}: {e}"))
}
