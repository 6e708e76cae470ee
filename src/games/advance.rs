//! One step of an active game, applied: the one path every change of an
//! active game takes once it is loaded, whoever makes it: a player's
//! command (by API or by mail), a bot's move, a timeout (and, later, a
//! forced or conditional move).
//!
//! 1. load: the caller loads the game as its path needs (with a session
//!    check, an idempotency key, locked by a worker's claim);
//! 2. decide: [`advance`] runs the engine in memory ([`Move`]); a timeout,
//!    whose autoplay may think, off the async threads;
//! 3. append: one version-guarded statement writes the events, the new
//!    snapshot, the notifications and any idempotent answer; a game another
//!    writer moved first is [`Lost`] (nothing written);
//! 4. after the commit: [`committed`] wakes waiters in every process and
//!    tells whom the step notified.
//!
//! A new kind of server-made step is a variant of [`Move`] decided here;
//! its caller keeps only what is its own (which games are due, which seat
//! it plays, what it answers).

use hatstand_engine::Ruleset;
use hatstand_engine::bots::BotRules;
use hatstand_engine::with_ruleset;
use serde::Deserialize;
use uuid::Uuid;

use super::command_wire::{CommandRequest, CommandResponse, Precondition};
use super::events::redact_one;
use super::kind_of;
use super::projection::project;
use super::step::{Finished, Step};
use crate::auth::Caller;
use crate::db::Conn;
use crate::db::errors::is_unique_violation;
use crate::db::games::{self, LoadedGame, Remember, Update};
use crate::db::notifications::Noted;
use crate::error::Failure;
use crate::wake::Announcer;

/// What the step is.
#[derive(Debug, Clone, Copy)]
pub enum Move<'a> {
    /// Every seat the game waits for times out: `turn_timed_out`, then
    /// autoplay or forfeit as the game's options say.
    TimeOut,
    /// `by`, seated at the game, plays `request`'s command, decided against
    /// `precondition`.
    Command {
        by: &'a Caller,
        request: &'a CommandRequest,
        precondition: Precondition,
    },
}

/// Where an idempotent answer is kept: `key` of `user`, for a request of
/// hash `request_hash`.
#[derive(Debug, Clone, Copy)]
pub struct Keep<'a> {
    pub user: Uuid,
    pub key: &'a str,
    pub request_hash: &'a str,
}

/// A step on the game's row, not yet committed.
#[derive(Debug)]
pub struct Advanced {
    pub game: Uuid,
    /// The game's version after the step.
    pub version: i64,
    /// The notifications written.
    pub told: Vec<Noted>,
    /// Whether a bot sits at the game (other processes' bot workers wake).
    pub bots: bool,
    /// A command's answer to its player, as JSON text.
    pub answer: Option<String>,
}

/// Why a step was not applied.
#[derive(Debug)]
pub enum Refused {
    /// The engine or the server's rules refused it (nothing written).
    Decided(Failure),
    /// The store failed.
    Stored(Failure),
}

impl From<Refused> for Failure {
    fn from(refused: Refused) -> Self {
        match refused {
            Refused::Decided(e) | Refused::Stored(e) => e,
        }
    }
}

/// Another writer moved the game first (or stored this very request's
/// answer): nothing was written.
#[derive(Debug)]
pub struct Lost;

/// Decides `step` on `loaded` and appends it, guarded by the version it
/// was loaded at; a command's answer is kept under `keep` when given.
///
/// # Errors
/// [`Refused::Decided`]: the step's own refusals (`version_conflict`,
/// `not_your_turn`, `not_a_player`, `bad_request`, `illegal_command`; an
/// engine that cannot time out); [`Refused::Stored`]: database errors.
pub async fn advance(
    conn: &mut Conn,
    loaded: &LoadedGame,
    step: Move<'_>,
    keep: Option<Keep<'_>>,
) -> Result<Result<Advanced, Lost>, Refused> {
    let kind = kind_of(&loaded.game).map_err(Refused::Decided)?;
    let (finished, answer) = match step {
        Move::TimeOut => {
            // An `ismcts` autoplay thinks for a while: off the async threads.
            let owned = loaded.clone();
            let finished =
                tokio::task::spawn_blocking(move || with_ruleset!(kind, |R| time_out::<R>(&owned)))
                    .await
                    .map_err(|e| Refused::Decided(Failure::internal(e)))?
                    .map_err(Refused::Decided)?;
            (finished, None)
        }
        Move::Command {
            by,
            request,
            precondition,
        } => {
            let Decided { response, finished } =
                with_ruleset!(kind, |R| decide::<R>(loaded, by, request, precondition))
                    .map_err(Refused::Decided)?;
            let answer = serde_json::to_string(&response)
                .map_err(|e| Refused::Decided(Failure::internal(e)))?;
            (finished, Some(answer))
        }
    };
    let remember = keep.zip(answer.as_deref()).map(|(keep, body)| Remember {
        user: keep.user,
        key: keep.key,
        request_hash: keep.request_hash,
        status: 200,
        body,
    });
    match append_finished(conn, loaded.game.version, &finished, remember.as_ref()).await {
        Ok(Some(told)) => Ok(Ok(Advanced {
            game: loaded.game.id,
            version: finished.row.version,
            told,
            bots: loaded.has_bots(),
            answer,
        })),
        Ok(None) => Ok(Err(Lost)),
        Err(e) if is_unique_violation(&e) => Ok(Err(Lost)),
        Err(e) => Err(Refused::Stored(e.into())),
    }
}

/// After the commit of `advanced`: records the version on the span, wakes
/// this process's waiters and tells the other processes (their bot workers
/// only when a bot sits at the game).
pub fn committed(announcer: &Announcer, advanced: &Advanced) {
    super::record_version(advanced.version);
    announcer.announce(advanced.game, advanced.version, advanced.bots);
    announcer.tell(&advanced.told);
}

fn time_out<R: BotRules>(loaded: &LoadedGame) -> Result<Finished, Failure> {
    let mut step = Step::<R>::begin(loaded, crate::record::chain::now())?;
    step.time_out()?;
    step.finish()
}

/// A step finished and projected for its caller.
pub struct Decided {
    pub response: CommandResponse,
    pub finished: Finished,
}

/// The pure middle of the command path: checks, engine decision, the
/// server's autoplay for seats that are out, new events, new snapshot and
/// the caller's response.
pub fn decide<R: Ruleset>(
    loaded: &LoadedGame,
    caller: &Caller,
    request: &CommandRequest,
    precondition: Precondition,
) -> Result<Decided, Failure> {
    let game = &loaded.game;
    let mut step = Step::<R>::begin(loaded, crate::record::chain::now())?;
    let my_seat = loaded
        .seat_of(caller.user_id)
        .ok_or_else(Failure::not_a_player)?;
    if precondition.expected != game.version {
        return Err(Failure::version_conflict(
            game.version,
            precondition.expected,
            precondition.via_if_match,
        ));
    }
    if !step.to_act().contains(&my_seat) {
        return Err(Failure::not_your_turn(
            "the game is not waiting for your seat",
        ));
    }
    // Read from the request's value in place (no copy of its tree).
    let command = R::Command::deserialize(&request.command)
        .map_err(|e| Failure::bad_request(format!("not a {} command: {e}", R::ID)))?;
    step.command(my_seat, &command, Some(caller.user_id))?;
    step.settle()?;
    respond::<R>(step, Some(my_seat))
}

/// Finishes a step and projects it for `my_seat`.
///
/// # Errors
/// `internal`.
pub fn respond<R: Ruleset>(step: Step<'_, R>, my_seat: Option<u8>) -> Result<Decided, Failure> {
    let engine_state = step.state.clone();
    let finished = step.finish()?;
    let viewer = super::public::viewer_for(my_seat);
    let events_out = finished
        .events
        .iter()
        .map(|logged| redact_one::<R>(logged, viewer))
        .collect::<Result<Vec<_>, Failure>>()?;
    let game_out = project::<R>(&finished.row, &finished.seats, Some(&engine_state), my_seat)?;
    Ok(Decided {
        response: CommandResponse {
            version: finished.row.version,
            events: events_out,
            game: game_out,
        },
        finished,
    })
}

/// Appends a finished step (guarded by the version it started from).
///
/// # Errors
/// Database errors.
pub async fn append_finished(
    conn: &mut Conn,
    expected_version: i64,
    finished: &Finished,
    remember: Option<&Remember<'_>>,
) -> crate::db::QueryResult<games::Appended> {
    let row = &finished.row;
    let update = Update {
        id: row.id,
        expected_version,
        version: row.version,
        last_hash: &row.last_hash,
        state: Some(&finished.state),
        to_act: &row.to_act,
        status: &row.status,
        result: row.result.as_ref(),
        updated_at: row.updated_at,
        events: &finished.events,
        deadline: row.deadline,
        seats: &finished.seat_updates,
        notifications: &finished.notifications,
        conditionals: &finished.conditionals,
        pause: row.pause.as_ref(),
    };
    let appended = games::append(conn, &update, remember).await?;
    // Ratings: a game that just finished is rated at once, or by the
    // sweeper when another batch is running (docs/ratings.md).
    if appended.is_some() && row.status == super::status::FINISHED {
        crate::ratings::projection::after_finish(conn).await;
    }
    Ok(appended)
}
