//! Folding a game's log into its state: the log is the truth, and snapshots,
//! step-through replays (`state?at=N`) and audits are all computed this way.
//! Server events are read through their upcaster and checked against the
//! rules for seats that are out (`record::out`).

use hatstand_engine::{Ruleset, Seat, apply_all};
use serde_json::Value;

use super::chain::LoggedEvent;
use super::out::OutSeats;
use super::server_event::{ForfeitResult, GameCreated, PlayerJoined, ServerEvent};
use super::takeback::Tracker;
use crate::record::codec::event_from_parts;

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
    pub out: OutSeats,
    /// The result, when the game ended by forfeit.
    pub forfeit: Option<ForfeitResult>,
    /// Whether the game was cancelled before it started.
    pub cancelled: bool,
    /// Where a takeback stands (`record::takeback`), with the state before
    /// the last command: `turn_taken_back` brings it back.
    pub takeback: Tracker<Option<R::State>>,
}

impl<R: Ruleset> Default for Replay<R> {
    fn default() -> Self {
        Replay {
            created: None,
            options: None,
            seats: Vec::new(),
            state: None,
            version: 0,
            out: OutSeats::default(),
            forfeit: None,
            cancelled: false,
            takeback: Tracker::default(),
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
        match ServerEvent::read(&event.kind, event.schema_version, &event.data)
            .map_err(|e| format!("event {at}: {e}"))?
        {
            Some(server) => {
                if matches!(server, ServerEvent::TurnTakebackOffered(_))
                    && self.state.as_ref().is_none_or(|s| R::result(s).is_some())
                {
                    return Err(format!("event {at}: a takeback offer while no game is on"));
                }
                if let Some(before) = self
                    .takeback
                    .server(at, &server, event.actor(), &self.out)?
                {
                    // The state at the version before the taken-back command.
                    self.state = Some(before.ok_or_else(|| format!("event {at}: no state"))?);
                }
                self.apply_server(server, &event.kind, at)?;
            }
            None => {
                let kind = &event.kind;
                let state = self
                    .state
                    .as_mut()
                    .ok_or_else(|| format!("event {at}: {kind} before the game started"))?;
                let engine_event = event_from_parts::<R>(kind, &event.data)
                    .map_err(|_| format!("event {at}: {kind} is not a {} event", R::ID))?;
                self.takeback.engine(
                    at,
                    event.actor(),
                    event.command.is_some(),
                    R::reveals(&engine_event),
                    || Some(state.clone()),
                );
                apply_all::<R>(state, std::slice::from_ref(&engine_event));
            }
        }
        self.version = event.seq;
        Ok(())
    }

    fn apply_server(&mut self, event: ServerEvent, kind: &str, at: i64) -> Result<(), String> {
        let started = self.state.is_some();
        match event {
            ServerEvent::GameCreated(created) => {
                if created.ruleset != R::ID {
                    return Err(format!(
                        "event {at}: ruleset {} is not {}",
                        created.ruleset,
                        R::ID
                    ));
                }
                let options: R::Options = serde_json::from_value(created.options.clone())
                    .map_err(|e| format!("event {at}: {e}"))?;
                R::new_game(usize::from(created.players), options.clone())
                    .map_err(|e| format!("event {at}: options refused: {e}"))?;
                self.seats = vec![None; usize::from(created.players)];
                self.out = OutSeats::none_of(usize::from(created.players));
                self.options = Some(options);
                self.created = Some(created);
            }
            ServerEvent::PlayerJoined(joined) => {
                self.check_salt(&joined, at)?;
                let slot = self
                    .seats
                    .get_mut(usize::from(joined.seat))
                    .ok_or_else(|| format!("event {at}: no seat {}", joined.seat))?;
                if slot.is_some() {
                    return Err(format!("event {at}: seat {} is already taken", joined.seat));
                }
                *slot = Some(joined);
            }
            ServerEvent::GameStarted(_) => {
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
            ServerEvent::PlayerInvited(_) | ServerEvent::PlayerDeclined(_) if started => {
                return Err(format!("event {at}: {kind} after the start"));
            }
            ServerEvent::PlayerInvited(_) | ServerEvent::PlayerDeclined(_) => {}
            ServerEvent::GameCancelled(_) => {
                if started {
                    return Err(format!("event {at}: cancelled after the start"));
                }
                self.cancelled = true;
            }
            ServerEvent::TurnTimedOut(timed_out) => self.check_waits_on(timed_out.seat, at)?,
            ServerEvent::TurnForced(forced) => self.check_forced(forced.seat, at)?,
            // The rules are `record::takeback`'s, checked before.
            ServerEvent::TurnTakebackOffered(_)
            | ServerEvent::TurnTakebackAccepted(_)
            | ServerEvent::TurnTakebackDeclined(_)
            | ServerEvent::TurnTakenBack(_) => {}
            ServerEvent::SeatVacation(vacation) => self.check_waits_on(vacation.seat, at)?,
            ServerEvent::GameClockStarted(clock) => {
                if !started || clock.zones.len() != self.seats.len() {
                    return Err(format!(
                        "event {at}: the clocks start with the game, one zone per seat"
                    ));
                }
            }
            ServerEvent::SeatBankChanged(_) => {
                if !started {
                    return Err(format!("event {at}: a bank before the start"));
                }
            }
            // The rules are `record::pause`'s, folded by `verify`.
            ServerEvent::GamePauseProposed(_)
            | ServerEvent::GamePauseVoted(_)
            | ServerEvent::GamePaused(_)
            | ServerEvent::GameResumed(_) => {
                if !started {
                    return Err(format!("event {at}: a pause before the start"));
                }
            }
            ServerEvent::PlayerResigned(resigned) => {
                if !started {
                    return Err(format!("event {at}: resigned before the start"));
                }
                self.out
                    .mark(resigned.seat)
                    .map_err(|e| format!("event {at}: {e}"))?;
            }
            ServerEvent::SeatSubstituted(sub) => self.substitute(&sub, at)?,
            ServerEvent::GameForfeited(result) => {
                let due = self.out.forfeit().filter(|_| started);
                match due {
                    None => {
                        return Err(format!(
                            "event {at}: a forfeit while two seats or more are still in"
                        ));
                    }
                    Some(due) if due != result => {
                        return Err(format!("event {at}: the forfeit result does not follow"));
                    }
                    Some(_) => self.forfeit = Some(result),
                }
            }
        }
        Ok(())
    }

    /// A substitute takes a seat that is out (docs/seats.md): only in a
    /// game on and not over, from the player who held it, and never a
    /// player already seated; the seat is in again, held by `to`.
    fn substitute(
        &mut self,
        sub: &super::server_event::Substituted,
        at: i64,
    ) -> Result<(), String> {
        if self.state.as_ref().is_none_or(|s| R::result(s).is_some()) {
            return Err(format!("event {at}: a substitute while no game is on"));
        }
        if self.holder(sub.seat) != Some(sub.from) {
            return Err(format!(
                "event {at}: seat {} was not held by the player it names",
                sub.seat
            ));
        }
        if self.seat_of(sub.to).is_some() {
            return Err(format!("event {at}: the substitute holds a seat already"));
        }
        self.out
            .restore(sub.seat)
            .map_err(|e| format!("event {at}: {e}"))?;
        if let Some(Some(joined)) = self.seats.get_mut(usize::from(sub.seat)) {
            joined.user_id = sub.to;
            joined.username.clone_from(&sub.username);
        }
        Ok(())
    }

    /// The user holding `seat` now (the one who joined it, or its last
    /// substitute).
    #[must_use]
    pub fn holder(&self, seat: u8) -> Option<uuid::Uuid> {
        self.seats
            .get(usize::from(seat))
            .and_then(Option::as_ref)
            .map(|j| j.user_id)
    }

    /// The seat `user` holds now.
    #[must_use]
    pub fn seat_of(&self, user: uuid::Uuid) -> Option<u8> {
        self.seats
            .iter()
            .position(|s| s.as_ref().is_some_and(|j| j.user_id == user))
            .and_then(|s| u8::try_from(s).ok())
    }

    /// Whether the game takes salts (`record::salts`): its rules salt the
    /// shuffle and its seed is not public.
    ///
    /// # Errors
    /// Before `game_created`, or rules this build does not know.
    pub fn takes_salts(&self) -> Result<bool, String> {
        let created = self.created.as_ref().ok_or("no game_created")?;
        let rules = hatstand_engine::Rules::parse(&created.rules).map_err(|e| e.to_string())?;
        Ok(super::salts::takes_salts(rules, created.seed.is_some()))
    }

    /// A seat's salt is there, well formed, exactly when the game takes salts.
    fn check_salt(&self, joined: &PlayerJoined, at: i64) -> Result<(), String> {
        let takes = self.takes_salts().map_err(|e| format!("event {at}: {e}"))?;
        match (&joined.salt, takes) {
            (None, true) => Err(format!(
                "event {at}: seat {} joined without a salt, but the game takes salts",
                joined.seat
            )),
            (Some(_), false) => Err(format!(
                "event {at}: seat {} joined with a salt, but the game takes none",
                joined.seat
            )),
            (Some(salt), true) if hatstand_engine::random::parse_salt(salt).is_none() => {
                Err(format!(
                    "event {at}: seat {}'s salt is not 64 lowercase hex digits",
                    joined.seat
                ))
            }
            (None, false) if joined.salt_by_server => {
                Err(format!("event {at}: a server-made salt that is not there"))
            }
            _ => Ok(()),
        }
    }

    /// The game's randomness once every seat is taken: from the revealed
    /// `seed`, and the seats' salts when the game takes them
    /// (`record::salts::randomness`).
    ///
    /// # Errors
    /// Before every seat is taken, or as `record::salts::randomness`.
    pub fn randomness(&self, seed: &str) -> Result<hatstand_engine::Randomness, String> {
        let salts = self
            .seats
            .iter()
            .map(|s| {
                s.as_ref()
                    .map(|joined| joined.salt.as_deref())
                    .ok_or("a seat nobody took")
            })
            .collect::<Result<Vec<_>, _>>()?;
        super::salts::randomness(seed, self.takes_salts()?, &salts)
    }

    /// Checks that the started game waits on `seat`.
    fn check_waits_on(&self, seat: u8, at: i64) -> Result<(), String> {
        let state = self
            .state
            .as_ref()
            .ok_or_else(|| format!("event {at}: before the start"))?;
        if !R::to_act(state).contains(&Seat(seat)) {
            return Err(format!(
                "event {at}: the game was not waiting for seat {seat}"
            ));
        }
        Ok(())
    }

    /// Checks that the started game waits on `seat`, which has exactly one
    /// legal command (a `turn_forced`).
    fn check_forced(&self, seat: u8, at: i64) -> Result<(), String> {
        self.check_waits_on(seat, at)?;
        let state = self
            .state
            .as_ref()
            .ok_or_else(|| format!("event {at}: before the start"))?;
        let legal = R::legal_commands(state, Seat(seat)).len();
        if legal != 1 {
            return Err(format!(
                "event {at}: a forced turn of seat {seat}, which had {legal} legal commands"
            ));
        }
        Ok(())
    }

    /// The result: the forfeit's, or the engine's.
    ///
    /// # Errors
    /// When the result does not serialize.
    pub fn result(&self) -> Result<Option<Value>, String> {
        if let Some(forfeit) = &self.forfeit {
            return serde_json::to_value(forfeit)
                .map(Some)
                .map_err(|e| e.to_string());
        }
        self.state
            .as_ref()
            .and_then(R::result)
            .map(serde_json::to_value)
            .transpose()
            .map_err(|e| e.to_string())
    }
}
