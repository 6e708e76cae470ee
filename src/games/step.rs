//! One change of an active game, in memory: commands (a player's, or the
//! server's on behalf of a seat), timeouts, resignations and vacations are
//! pushed onto the hash chain and folded into the state; then [`Step::settle`]
//! plays the seats that are out whenever the game waits on them, and ends
//! the game by forfeit when one seat (or none) is left that is not out;
//! [`Step::finish`] computes the new row, deadline, seat counters and
//! notifications for one version-guarded append.
//!
//! The rules for seats that are out (who goes out, autoplay's pick, when a
//! forfeit ends the game) are `record::out`'s, the same ones replay and
//! `verify` check a record against.

use chrono::{DateTime, Utc};
use hatstand_engine::bots::{BotRules, Level};
use hatstand_engine::{Randomness, Ruleset, apply_all, seat};
use serde_json::{Value, json};
use uuid::Uuid;

use super::clock::{OnTimeout, ServerOptions};
use super::lines::{self, Line};
use super::snapshot::{state_from_json, state_to_json};
use super::status;
use crate::db::games::{GameRow, LoadedGame, SeatRow};
use crate::db::json_text::JsonText;
use crate::error::{ErrorCode, Failure};
use crate::notifications::{Note, Notification};
use crate::record::chain::{Actor, Chain, LoggedEvent, format_time};
use crate::record::clock::{Clocks, Rules};
use crate::record::codec::{split_tagged, to_json};
use crate::record::out::{NotOut, OutSeats, autoplay_command, autoplay_pick};
use crate::record::pause::TablePause;
use crate::record::server_event::BankChanged;
use crate::record::server_event::{
    ForfeitResult, OutReason, PlayerResigned, SeatOnly, ServerEvent,
};

/// The most commands the server plays for out seats in one step.
const MAX_AUTOPLAY: usize = 100_000;

/// A change of an active game in progress.
pub struct Step<'a, R: Ruleset> {
    pub loaded: &'a LoadedGame,
    pub chain: Chain,
    pub state: R::State,
    pub options: ServerOptions,
    pub now: DateTime<Utc>,
    /// The seats, with their counters as they will be stored.
    pub seats: Vec<SeatRow>,
    /// A deadline set explicitly (vacation) instead of restarting the clock.
    pub deadline: Option<DateTime<Utc>>,
    forfeit: Option<ForfeitResult>,
    rng: Randomness,
    /// The seats' conditional lines, advanced by every command applied.
    conditionals: Vec<SeatLines>,
    /// The clocks of a game played with the clock module (docs/clocks.md),
    /// moved by every command applied.
    pub clock: Option<(Rules, Clocks)>,
    /// The table's pause (`record::pause`), moved by the pause's events.
    pub pause: TablePause,
}

/// A seat's conditional lines during a step.
struct SeatLines {
    seat: u8,
    /// The lines as loaded (the append brings them along only if unchanged
    /// since).
    was: Value,
    /// What is left of them: none when they were stale (stored while
    /// another step raced past their version) or do not parse.
    lines: Vec<Line>,
    /// What was left of the lines this step dropped without firing them
    /// (told to the owner with their turn).
    unfired: Vec<Line>,
}

/// The outcome of a step: everything one append writes.
#[derive(Debug)]
pub struct Finished {
    pub row: GameRow,
    pub seats: Vec<SeatRow>,
    pub events: Vec<LoggedEvent>,
    pub state: JsonText,
    pub seat_updates: Value,
    pub notifications: Value,
    /// The seats' conditional lines at the new version: `[{seat, lines, was}]`.
    pub conditionals: Value,
}

impl<'a, R: Ruleset> Step<'a, R> {
    /// Starts a step on an active game.
    ///
    /// # Errors
    /// `game_not_open` / `game_finished` when the game is not active.
    pub fn begin(loaded: &'a LoadedGame, now: DateTime<Utc>) -> Result<Self, Failure> {
        let game = &loaded.game;
        match game.status.as_str() {
            status::OPEN => {
                return Err(Failure::new(
                    ErrorCode::GameNotOpen,
                    "the game has not started yet",
                ));
            }
            status::ACTIVE => {}
            other => {
                return Err(Failure::new(
                    ErrorCode::GameFinished,
                    format!("the game is {other}"),
                ));
            }
        }
        let snapshot = game
            .state
            .as_ref()
            .ok_or_else(|| Failure::internal("an active game without a state"))?;
        let options = ServerOptions::of(&game.server_options);
        let pause = TablePause::of(game.pause.as_ref());
        let clock = options.clock_rules().map(|rules| {
            let mut clocks = super::clocks::of(&rules, &loaded.seats);
            clocks.paused = pause.since;
            (rules, clocks)
        });
        Ok(Step {
            clock,
            pause,
            loaded,
            chain: Chain::after(game.version, &game.last_hash, now),
            state: state_from_json::<R>(snapshot)?,
            options,
            now,
            seats: loaded.seats.clone(),
            deadline: None,
            forfeit: None,
            rng: super::salts::randomness(game, &loaded.seats)?,
            conditionals: loaded
                .conditionals
                .iter()
                .filter_map(|row| {
                    let seat = u8::try_from(row.seat).ok()?;
                    let lines = if row.at_version == game.version {
                        serde_json::from_value(row.lines.clone()).unwrap_or_default()
                    } else {
                        Vec::new()
                    };
                    Some(SeatLines {
                        seat,
                        was: row.lines.clone(),
                        lines,
                        unfired: Vec::new(),
                    })
                })
                .collect(),
        })
    }

    /// A takeback (`games::takeback`): the state is again `state`, the
    /// state at an earlier version; every seat's conditional lines are
    /// dropped (they were advanced past what is taken back) and told to
    /// their owners, with their turn, as lines that did not fire.
    pub fn take_back(&mut self, state: R::State) {
        self.state = state;
        for owner in &mut self.conditionals {
            let lines = std::mem::take(&mut owner.lines);
            owner.unfired.extend(lines);
        }
    }

    /// The seats the game waits for.
    #[must_use]
    pub fn to_act(&self) -> Vec<u8> {
        R::to_act(&self.state).into_iter().map(|s| s.0).collect()
    }

    /// The stored row of `seat`.
    ///
    /// # Errors
    /// `internal` for a seat nobody holds.
    pub fn seat_mut(&mut self, seat_no: u8) -> Result<&mut SeatRow, Failure> {
        self.seats
            .iter_mut()
            .find(|s| s.seat == i16::from(seat_no))
            .ok_or_else(|| Failure::internal(format!("no seat {seat_no}")))
    }

    /// Pushes one of the server's events onto the chain.
    ///
    /// # Errors
    /// `internal` if it fails to serialize.
    pub fn push(&mut self, event: &ServerEvent, actor: Actor) -> Result<(), Failure> {
        self.chain
            .push_server(event, actor)
            .map_err(Failure::internal)
    }

    /// The seats that are out (the rows are every seat, in order).
    fn out_seats(&self) -> OutSeats {
        OutSeats::of(self.seats.iter().map(|s| s.resigned).collect())
    }

    fn is_out(&self, seat_no: u8) -> bool {
        self.seats
            .iter()
            .any(|s| s.seat == i16::from(seat_no) && s.resigned)
    }

    /// Decides `command` for `seat_no` and applies its events; `user` is the
    /// player who sent it, or `None` when the server plays it.
    ///
    /// # Errors
    /// `illegal_command`.
    pub fn command(
        &mut self,
        seat_no: u8,
        command: &R::Command,
        user: Option<Uuid>,
    ) -> Result<(), Failure> {
        self.apply_command(seat_no, command, user)?;
        if user.is_some() {
            self.seat_mut(seat_no)?.timeouts = 0;
        }
        Ok(())
    }

    /// The events of `command` for `seat_no`, by `user`, on the chain and
    /// folded into the state.
    fn apply_command(
        &mut self,
        seat_no: u8,
        command: &R::Command,
        user: Option<Uuid>,
    ) -> Result<(), Failure> {
        let events = R::decide(&self.state, seat(usize::from(seat_no)), command, &self.rng)
            .map_err(|violation| Failure::illegal_command(violation.0))?;
        if events.is_empty() {
            return Err(Failure::internal(
                "the engine accepted a command without events",
            ));
        }
        let actor = Actor {
            user,
            seat: Some(seat_no),
        };
        let command_json = to_json(command)?;
        for owner in &mut self.conditionals {
            let left = lines::advance(&mut owner.lines, seat_no, &command_json);
            owner.unfired.extend(left);
        }
        for (i, event) in events.iter().enumerate() {
            let (kind, data) = split_tagged(to_json(event)?)?;
            self.chain
                .push(&kind, data, actor, (i == 0).then(|| command_json.clone()));
        }
        apply_all::<R>(&mut self.state, &events);
        self.clock_moved(seat_no)
    }

    /// The clocks after `seat_no` moved: its turn ends (a bank is charged
    /// and gains its increment: `seat_bank_changed`, by the seat), and the
    /// turns of the seats the game waits for now begin.
    fn clock_moved(&mut self, seat_no: u8) -> Result<(), Failure> {
        let to_act = self.to_act();
        let now = self.now;
        let Some((rules, clocks)) = &mut self.clock else {
            return Ok(());
        };
        let change = clocks.moved(rules, seat_no, now);
        clocks.to_act(rules, &to_act, now);
        if let Some(change) = change {
            let actor = Actor {
                user: None,
                seat: Some(seat_no),
            };
            self.push(
                &ServerEvent::SeatBankChanged(BankChanged {
                    seat: change.seat,
                    bank_ms: change.bank_ms,
                }),
                actor,
            )?;
        }
        Ok(())
    }

    /// The server plays for `seat_no`: one of its legal commands, chosen from
    /// the game's randomness.
    ///
    /// # Errors
    /// `internal` when the seat has nothing to play.
    pub fn autoplay(&mut self, seat_no: u8) -> Result<(), Failure> {
        let legal = R::legal_commands(&self.state, seat(usize::from(seat_no)));
        if legal.is_empty() {
            return Err(Failure::internal(format!(
                "seat {seat_no} is to act with no legal command"
            )));
        }
        let version = u64::try_from(self.chain.version()).map_err(Failure::internal)?;
        let pick = autoplay_pick(&self.rng, version, legal.len());
        self.command(seat_no, &legal[pick], None)
    }

    /// `seat_no` is out from now on.
    ///
    /// # Errors
    /// `already_resigned`.
    pub fn resign(&mut self, seat_no: u8, reason: OutReason, actor: Actor) -> Result<(), Failure> {
        self.out_seats().mark(seat_no).map_err(|e| match e {
            NotOut::AlreadyOut(_) => Failure::new(
                ErrorCode::AlreadyResigned,
                "the seat is already out of the game",
            ),
            NotOut::NoSeat(_) | NotOut::NotVacant(_) => Failure::internal(e),
        })?;
        self.seat_mut(seat_no)?.resigned = true;
        let resigned = ServerEvent::PlayerResigned(PlayerResigned {
            seat: seat_no,
            reason,
        });
        self.push(&resigned, actor)
    }

    /// The seat the game waits for whose move is forced and played for its
    /// player: not out, its user has `auto_play_forced`, and it has exactly
    /// one legal command (which comes with it, and the user).
    fn forced(&self) -> Option<(u8, Uuid, R::Command)> {
        self.to_act().into_iter().find_map(|s| {
            let row = self
                .seats
                .iter()
                .find(|r| r.seat == i16::from(s) && r.auto_play_forced && !r.resigned)?;
            let mut legal = R::legal_commands(&self.state, seat(usize::from(s)));
            (legal.len() == 1).then(|| (s, row.user_id, legal.remove(0)))
        })
    }

    /// The seat the game waits for whose stored conditional line answers
    /// now (docs/turn-conveniences.md), with its player and the command,
    /// checked against the seat's legal commands; lines whose answer is not
    /// legal now are dropped on the way.
    fn conditional(&mut self) -> Option<(u8, Uuid, R::Command)> {
        let to_act = self.to_act();
        for i in 0..self.conditionals.len() {
            let owner = self.conditionals[i].seat;
            let Some(user) = self
                .seats
                .iter()
                .find(|r| r.seat == i16::from(owner) && !r.resigned)
                .map(|r| r.user_id)
            else {
                continue;
            };
            if !to_act.contains(&owner) {
                continue;
            }
            while let Some(due) = lines::due(&self.conditionals[i].lines, owner).cloned() {
                let legal = R::legal_commands(&self.state, seat(usize::from(owner)));
                match serde_json::from_value::<R::Command>(due.clone()) {
                    Ok(command) if legal.contains(&command) => return Some((owner, user, command)),
                    _ => {
                        let owner_lines = &mut self.conditionals[i];
                        let left = lines::drop_due(&mut owner_lines.lines, owner, &due);
                        owner_lines.unfired.extend(left);
                    }
                }
            }
        }
        None
    }

    /// Plays a forced move (docs/turn-conveniences.md): `turn_forced`, then
    /// the seat's one legal command, both by its player and seat. The
    /// seat's count of timeouts in a row stays as it was: the player did
    /// nothing.
    fn play_forced(
        &mut self,
        seat_no: u8,
        user: Uuid,
        command: &R::Command,
    ) -> Result<(), Failure> {
        let actor = Actor {
            user: Some(user),
            seat: Some(seat_no),
        };
        self.push(&ServerEvent::TurnForced(SeatOnly { seat: seat_no }), actor)?;
        self.apply_command(seat_no, command, Some(user))
    }

    /// Plays the out seats the game waits for, the forced moves of the
    /// players who have the server play them (`auto_play_forced`) and the
    /// stored conditional lines that answer now, until it waits on a seat
    /// with a decision to make or is over; ends it by forfeit when
    /// at most one seat is left that is not out. A chain of forced moves is
    /// played in one go, so the game is never left waiting on a forced
    /// move, and `your_turn` goes only to seats with a decision to make.
    ///
    /// # Errors
    /// As [`Step::autoplay`].
    pub fn settle(&mut self) -> Result<(), Failure> {
        for _ in 0..MAX_AUTOPLAY {
            if R::result(&self.state).is_some() || self.forfeit.is_some() {
                return Ok(());
            }
            if let Some(result) = self.out_seats().forfeit() {
                self.push(&ServerEvent::GameForfeited(result.clone()), Actor::SYSTEM)?;
                self.forfeit = Some(result);
                return Ok(());
            }
            if let Some(next) = self.to_act().into_iter().find(|&s| self.is_out(s)) {
                self.autoplay(next)?;
                continue;
            }
            if let Some((next, user, command)) = self.forced() {
                self.play_forced(next, user, &command)?;
                continue;
            }
            let Some((next, user, command)) = self.conditional() else {
                return Ok(());
            };
            // A fired conditional move is an ordinary command of its owner.
            self.command(next, &command, Some(user))?;
        }
        Err(Failure::internal("autoplay does not end"))
    }

    /// The new row, snapshot, deadline, seat counters and notifications.
    ///
    /// # Errors
    /// `internal` if the engine's values fail to serialize.
    pub fn finish(self) -> Result<Finished, Failure> {
        let old = &self.loaded.game;
        let result = match &self.forfeit {
            Some(forfeit) => Some(to_json(forfeit)?),
            None => R::result(&self.state).map(|r| to_json(&r)).transpose()?,
        };
        let mut row = old.clone();
        row.version = self.chain.version();
        row.last_hash = self.chain.last_hash().to_owned();
        row.updated_at = self.now;
        row.status = if result.is_some() {
            status::FINISHED
        } else {
            status::ACTIVE
        }
        .to_owned();
        row.result = result;
        row.to_act = if row.status == status::ACTIVE {
            self.to_act().into_iter().map(i16::from).collect()
        } else {
            Vec::new()
        };
        row.deadline = if row.status != status::ACTIVE {
            None
        } else if self.pause.is_paused() {
            // No clock runs: the worker wakes only to end a pause with an end.
            self.pause.until
        } else if row.to_act.is_empty() {
            None
        } else if let Some((rules, clocks)) = &self.clock {
            clocks.next_deadline(rules)
        } else {
            self.deadline
                .or_else(|| self.options.deadline_from(self.now))
        };
        row.pause = if row.status == status::ACTIVE {
            self.pause.stored()
        } else {
            None
        };
        let mut seats = self.seats;
        if let Some((_, clocks)) = &self.clock {
            for (row, clock) in seats.iter_mut().zip(&clocks.seats) {
                row.clock = Some(clock.clone());
            }
        }
        // A seat out of a game still on, which takes substitutes and is
        // public, is listed in the lobby from now (`substitute`).
        let listed =
            row.status == status::ACTIVE && super::substitute::listed(old, self.loaded.has_bots());
        let seat_updates = seats
            .iter()
            .filter(|s| !self.loaded.seats.contains(s))
            .map(|s| {
                json!({
                    "seat": s.seat,
                    "timeouts": s.timeouts,
                    "vacation_used_secs": s.vacation_used_secs,
                    "resigned_at": s.resigned.then(|| format_time(self.now)),
                    "clock": s.clock,
                    "vacant_since": (s.resigned && listed).then(|| format_time(self.now)),
                })
            })
            .collect::<Vec<_>>();
        let mut notes = notifications(old, &row, &seats);
        for note in &mut notes {
            if let Notification::YourTurn { seat, unfired, .. } = &mut note.notification
                && let Some(owner) = self
                    .conditionals
                    .iter()
                    .find(|c| i16::from(c.seat) == *seat)
            {
                for line in &owner.unfired {
                    unfired.push(to_json(line)?);
                }
            }
        }
        let notifications = crate::notifications::rows(&notes)?;
        let mut conditionals = Vec::with_capacity(self.conditionals.len());
        for owner in &self.conditionals {
            let lines = if owner.lines.is_empty() || row.status != status::ACTIVE {
                Value::Null
            } else {
                to_json(&owner.lines)?
            };
            conditionals.push(json!({"seat": owner.seat, "lines": lines, "was": owner.was}));
        }
        Ok(Finished {
            state: state_to_json::<R>(&self.state)?,
            row,
            seats,
            events: self.chain.events,
            seat_updates: Value::Array(seat_updates),
            notifications,
            conditionals: Value::Array(conditionals),
        })
    }
}

/// The notifications a change from `old` to `new` causes: `your_turn` to
/// each user whose seat the game newly waits for (not for seats that are
/// out), `game_finished` to every seated user when the game ends.
#[must_use]
pub fn notifications(old: &GameRow, new: &GameRow, seats: &[SeatRow]) -> Vec<Note> {
    let mut out = Vec::new();
    let was_waiting = |s: i16| old.status == status::ACTIVE && old.to_act.contains(&s);
    if new.status == status::ACTIVE {
        for s in &new.to_act {
            if was_waiting(*s) {
                continue;
            }
            if let Some(row) = seats.iter().find(|r| r.seat == *s && !r.resigned) {
                out.push(Note {
                    user_id: row.user_id,
                    notification: Notification::your_turn(
                        new.id,
                        &new.ruleset,
                        row.seat,
                        new.version,
                        new.deadline,
                    ),
                });
            }
        }
    }
    if new.status != old.status && new.status != status::ACTIVE && new.status != status::OPEN {
        for row in seats {
            out.push(Note {
                user_id: row.user_id,
                notification: Notification::GameFinished {
                    game_id: new.id,
                    ruleset: new.ruleset.clone(),
                    status: new.status.clone(),
                    version: Some(new.version),
                    result: new.result.clone(),
                },
            });
        }
    }
    out
}

impl<R: BotRules> Step<'_, R> {
    /// A pause whose end has come ends first (`game_resumed`); on a table
    /// still paused nothing times out. Then
    /// every seat the game waits for whose time has run out (every one, on
    /// the fixed per-turn clock): `turn_timed_out`,
    /// then autoplay (at the game's `autoplay_level`) or forfeit as the
    /// game's options say (and out after `abandon_after` timeouts in a row).
    ///
    /// # Errors
    /// As [`Step::autoplay`].
    pub fn time_out(&mut self) -> Result<(), Failure> {
        self.pause_expired()?;
        if self.pause.is_paused() {
            // A paused table: nothing times out.
            return self.settle();
        }
        let due = match &self.clock {
            // With clocks, only the seats whose own deadline has passed.
            Some((rules, clocks)) => clocks.due(rules, self.now),
            None => self.to_act(),
        };
        for seat_no in due {
            if !self.to_act().contains(&seat_no) || self.is_out(seat_no) {
                continue;
            }
            let actor = Actor {
                user: None,
                seat: Some(seat_no),
            };
            self.push(
                &ServerEvent::TurnTimedOut(SeatOnly { seat: seat_no }),
                actor,
            )?;
            let row = self.seat_mut(seat_no)?;
            row.timeouts += 1;
            let timeouts = row.timeouts;
            let abandon = self.options.abandon_after;
            match self.options.on_timeout {
                OnTimeout::Forfeit => self.resign(seat_no, OutReason::Timeout, actor)?,
                OnTimeout::Autoplay
                    if abandon > 0 && u32::try_from(timeouts).unwrap_or(0) >= abandon =>
                {
                    self.resign(seat_no, OutReason::Inactive, actor)?;
                }
                OnTimeout::Autoplay => self.autoplay_at(seat_no, self.options.autoplay_level)?,
            }
        }
        self.settle()
    }

    /// The server plays one timed-out turn of `seat_no` at `level` (see
    /// [`autoplay_command`]).
    ///
    /// # Errors
    /// `internal` when the seat has nothing to play.
    fn autoplay_at(&mut self, seat_no: u8, level: Level) -> Result<(), Failure> {
        let options: R::Options = serde_json::from_value(self.loaded.game.options.clone())
            .map_err(|e| Failure::internal(format!("stored options do not parse: {e}")))?;
        let version = u64::try_from(self.chain.version()).map_err(Failure::internal)?;
        let players = self.seats.len();
        let command = autoplay_command::<R>(
            &self.state,
            &options,
            players,
            seat_no,
            level,
            &self.rng,
            version,
        )
        .ok_or_else(|| {
            Failure::internal(format!("seat {seat_no} is to act with no legal command"))
        })?;
        self.command(seat_no, &command, None)
    }
}
