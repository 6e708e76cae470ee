//! Takebacks (docs/turn-conveniences.md): a player offers to take back
//! their last command, every other player answers; the rules are
//! `record::takeback`'s, folded over the tail of the game's log.
//!
//! Rules of the use case:
//! - Only in a game created with `takebacks: true` (never rated:
//!   `takebacks_in_rated_game` at creation), else `takeback_disabled`.
//! - The offer, each answer and the takeback are events, each written in
//!   one version-guarded append (`version_conflict` when the game moved;
//!   two acceptances at once: one wins, so one takeback).
//! - A bot's seat (a built-in bot or a bot account) accepts at once, in the
//!   offer's own append: a game against bots is casual, and a bot minds
//!   nothing. Seats that are out are not asked.
//! - When the last acceptance comes, `turn_taken_back` follows in the same
//!   append; the state becomes the state at the version before the command,
//!   computed by replaying the game's log (what `verify` does), the turn's
//!   clock starts again, and every seat's conditional lines are dropped
//!   (they had been advanced past the command).
//! - The other players are told of an offer (`takeback_offered`, by the
//!   feed, stream and webhooks); the offerer is told of their turn again.
//! - Refusals write nothing.

use hatstand_engine::{Ruleset, with_ruleset};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::advance::{Advanced, append_finished, committed};
use super::clock::ServerOptions;
use super::step::{Finished, Step};
use super::{kind_of, stored};
use crate::auth::Caller;
use crate::context::Context;
use crate::db::event_store;
use crate::db::games::LoadedGame;
use crate::error::{ErrorCode, Failure};
use crate::notifications::{Note, Notification};
use crate::record::chain::{Actor, LoggedEvent};
use crate::record::codec::event_from_parts;
use crate::record::out::OutSeats;
use crate::record::replay::Replay;
use crate::record::server_event::{SeatOnly, ServerEvent, Takeback};
use crate::record::takeback::{Offer, Tracker};

/// How much of the log's end a decision reads: a command that may be
/// taken back, its offer and one answer per seat always fit.
const TAIL: i64 = 64;

/// An offer to take back the caller's last command.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"expected_version": 41}))]
pub struct OfferTakeback {
    /// The game's version the caller saw.
    pub expected_version: i64,
}

/// An answer to the standing offer.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"expected_version": 42, "accept": true}))]
pub struct AnswerTakeback {
    /// The game's version the caller saw.
    pub expected_version: i64,
    /// Accept (`true`) or decline (`false`).
    pub accept: bool,
}

/// A standing offer, as everyone at the game sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct OfferView {
    /// The offering seat.
    pub seat: u8,
    /// The version before the command it takes back.
    pub to_version: i64,
    /// The seats that accepted.
    pub accepted: Vec<u8>,
    /// The seats whose answer is awaited.
    pub waiting: Vec<u8>,
}

/// Where takebacks stand in a game.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"version": 42, "enabled": true, "can_offer": false,
    "offer": {"seat": 0, "to_version": 40, "accepted": [], "waiting": [1]},
    "taken_back_to": null}))]
pub struct TakebackStatus {
    /// The game's version.
    pub version: i64,
    /// Whether the game's options allow takebacks.
    pub enabled: bool,
    /// Whether the caller may offer one now.
    pub can_offer: bool,
    /// The standing offer.
    pub offer: Option<OfferView>,
    /// Set when this very request took the command back: the version whose
    /// state the game is in again.
    pub taken_back_to: Option<i64>,
}

/// What the caller does.
#[derive(Debug, Clone, Copy)]
enum Act {
    Offer,
    Answer(bool),
}

/// Where takebacks stand in game `id`, for a player of it.
///
/// # Errors
/// `not_found`, `not_a_player`.
pub async fn status(ctx: &Context, caller: &Caller, id: Uuid) -> Result<TakebackStatus, Failure> {
    let mut conn = ctx.pool.get().await?;
    let loaded = stored(&mut conn, id).await?;
    let seat = loaded
        .seat_of(caller.user_id)
        .ok_or_else(Failure::not_a_player)?;
    let enabled = enabled(&loaded);
    let tail = tail(&mut conn, &loaded).await?;
    let kind = kind_of(&loaded.game)?;
    let out = out_seats(&loaded);
    let tracker = with_ruleset!(kind, |R| track::<R>(&tail, &out))?;
    let active = loaded.game.status == super::status::ACTIVE;
    Ok(TakebackStatus {
        version: loaded.game.version,
        enabled,
        can_offer: enabled
            && active
            && !out.is_out(seat)
            && tracker.offerable(seat, actor(caller, seat)).is_ok(),
        offer: tracker
            .offer()
            .filter(|_| active)
            .map(|offer| view(offer, &out)),
        taken_back_to: None,
    })
}

/// Offers to take back the caller's last command.
///
/// # Errors
/// `not_found`, `not_a_player`, `takeback_disabled`, `game_not_open`,
/// `game_finished`, `version_conflict`, `already_resigned`,
/// `takeback_not_allowed`.
pub async fn offer(
    ctx: &Context,
    caller: &Caller,
    id: Uuid,
    request: OfferTakeback,
) -> Result<TakebackStatus, Failure> {
    run(ctx, caller, id, request.expected_version, Act::Offer).await
}

/// Accepts or declines the standing offer.
///
/// # Errors
/// As [`offer`], and `takeback_no_offer` (none awaits the caller's answer).
pub async fn answer(
    ctx: &Context,
    caller: &Caller,
    id: Uuid,
    request: AnswerTakeback,
) -> Result<TakebackStatus, Failure> {
    run(
        ctx,
        caller,
        id,
        request.expected_version,
        Act::Answer(request.accept),
    )
    .await
}

async fn run(
    ctx: &Context,
    caller: &Caller,
    id: Uuid,
    expected: i64,
    act: Act,
) -> Result<TakebackStatus, Failure> {
    let mut conn = ctx.pool.get().await?;
    let loaded = stored(&mut conn, id).await?;
    let seat = loaded
        .seat_of(caller.user_id)
        .ok_or_else(Failure::not_a_player)?;
    if !enabled(&loaded) {
        return Err(Failure::new(
            ErrorCode::TakebackDisabled,
            "this game's options do not allow takebacks",
        ));
    }
    // Not started, over: Step::begin says so.
    let kind = kind_of(&loaded.game)?;
    with_ruleset!(kind, |R| Step::<R>::begin(
        &loaded,
        crate::record::chain::now()
    )
    .map(|_| ()))?;
    if expected != loaded.game.version {
        return Err(Failure::version_conflict(
            loaded.game.version,
            expected,
            false,
        ));
    }
    if out_seats(&loaded).is_out(seat) {
        return Err(Failure::new(
            ErrorCode::AlreadyResigned,
            "the seat is out of the game",
        ));
    }
    let tail = tail(&mut conn, &loaded).await?;
    let tracker = with_ruleset!(kind, |R| track::<R>(&tail, &out_seats(&loaded)))?;
    let plan = plan(&loaded, &tracker, caller, seat, act)?;
    // The whole log only when the command is taken back now.
    let log = if plan.completes {
        event_store::load(&mut conn, id, 0, loaded.game.version, i64::MAX).await?
    } else {
        Vec::new()
    };
    let (finished, notes) = with_ruleset!(kind, |R| decide::<R>(&loaded, &plan, &log))?;
    let status = TakebackStatus {
        version: finished.row.version,
        enabled: true,
        can_offer: false,
        offer: plan
            .offer_after
            .as_ref()
            .map(|o| view(o, &out_seats(&loaded))),
        taken_back_to: plan.completes.then_some(plan.to_version),
    };
    let mut finished = finished;
    add_notes(&mut finished, &notes)?;
    match append_finished(&mut conn, loaded.game.version, &finished, None).await {
        Ok(Some(told)) => {
            committed(
                &ctx.announcer,
                &Advanced {
                    game: id,
                    version: finished.row.version,
                    told,
                    bots: loaded.has_bots(),
                    answer: None,
                },
            );
            Ok(status)
        }
        Ok(None) => Err(lost(&mut conn, id, expected).await),
        Err(e) if crate::db::errors::is_unique_violation(&e) => {
            Err(lost(&mut conn, id, expected).await)
        }
        Err(e) => Err(e.into()),
    }
}

/// Another writer moved the game first: nothing was written.
async fn lost(conn: &mut crate::db::Conn, id: Uuid, expected: i64) -> Failure {
    match stored(conn, id).await {
        Ok(now) => Failure::version_conflict(now.game.version, expected, false),
        Err(e) => e,
    }
}

/// What the step writes, decided from the tail.
#[derive(Debug)]
struct Plan {
    /// The events, each with its actor, in order.
    events: Vec<(ServerEvent, Actor)>,
    /// The version the command is taken back to.
    to_version: i64,
    /// The offer as it stands after the step (none once taken back or declined).
    offer_after: Option<Offer>,
    /// Whether `turn_taken_back` is among the events.
    completes: bool,
    /// The users told of a new offer.
    tell: Vec<Uuid>,
}

/// The events the caller's act writes, checked against the rules.
fn plan(
    loaded: &LoadedGame,
    tracker: &Tracker<()>,
    caller: &Caller,
    seat: u8,
    act: Act,
) -> Result<Plan, Failure> {
    let out = out_seats(loaded);
    let me = actor(caller, seat);
    let mut events = Vec::new();
    let (mut offer, tell) = match act {
        Act::Offer => {
            let to_version = tracker.offerable(seat, me).map_err(|why| {
                Failure::new(
                    ErrorCode::TakebackNotAllowed,
                    format!("the last command cannot be taken back: it {why}"),
                )
            })?;
            events.push((
                ServerEvent::TurnTakebackOffered(Takeback { seat, to_version }),
                me,
            ));
            let mut offer = Offer {
                seat,
                to_version,
                accepted: Vec::new(),
            };
            let mut tell = Vec::new();
            for row in &loaded.seats {
                let Ok(other) = u8::try_from(row.seat) else {
                    continue;
                };
                if !offer.waiting(&out).contains(&other) {
                    continue;
                }
                if row.bot {
                    events.push((
                        ServerEvent::TurnTakebackAccepted(SeatOnly { seat: other }),
                        Actor {
                            user: Some(row.user_id),
                            seat: Some(other),
                        },
                    ));
                    offer.accepted.push(other);
                } else {
                    tell.push(row.user_id);
                }
            }
            (offer, tell)
        }
        Act::Answer(accept) => {
            let offer = tracker
                .offer()
                .filter(|o| o.waiting(&out).contains(&seat))
                .cloned()
                .ok_or_else(|| {
                    Failure::new(
                        ErrorCode::TakebackNoOffer,
                        "no takeback offer awaits this seat's answer",
                    )
                })?;
            let mut offer = offer;
            if accept {
                events.push((ServerEvent::TurnTakebackAccepted(SeatOnly { seat }), me));
                offer.accepted.push(seat);
            } else {
                events.push((ServerEvent::TurnTakebackDeclined(SeatOnly { seat }), me));
            }
            if !accept {
                return Ok(Plan {
                    events,
                    to_version: offer.to_version,
                    offer_after: None,
                    completes: false,
                    tell: Vec::new(),
                });
            }
            (offer, Vec::new())
        }
    };
    let completes = offer.waiting(&out).is_empty();
    if completes {
        events.push((
            ServerEvent::TurnTakenBack(Takeback {
                seat: offer.seat,
                to_version: offer.to_version,
            }),
            Actor::SYSTEM,
        ));
    }
    let to_version = offer.to_version;
    if completes {
        offer.accepted.clear();
    }
    Ok(Plan {
        events,
        to_version,
        offer_after: (!completes).then_some(offer),
        completes,
        tell,
    })
}

/// The step of `plan` on `loaded`: its events, and when it completes, the
/// state the whole `log` and the new events replay to.
fn decide<R: Ruleset>(
    loaded: &LoadedGame,
    plan: &Plan,
    log: &[LoggedEvent],
) -> Result<(Finished, Vec<Note>), Failure> {
    let mut step = Step::<R>::begin(loaded, crate::record::chain::now())?;
    // An offer or an answer leaves the clock as it was.
    step.deadline = loaded.game.deadline;
    for (event, actor) in &plan.events {
        step.push(event, *actor)?;
    }
    if plan.completes {
        let mut replay = Replay::<R>::of(log).map_err(Failure::internal)?;
        for event in &step.chain.events {
            replay.apply(event).map_err(Failure::internal)?;
        }
        let state = replay
            .state
            .ok_or_else(|| Failure::internal("a takeback before the start"))?;
        step.take_back(state);
        // The turn starts again: so does its clock.
        step.deadline = None;
    }
    let finished = step.finish()?;
    let notes = plan
        .tell
        .iter()
        .map(|&user_id| Note {
            user_id,
            notification: Notification::TakebackOffered {
                game_id: loaded.game.id,
                ruleset: loaded.game.ruleset.clone(),
                seat: plan.offer_after.as_ref().map_or(0, |o| o.seat),
                to_version: plan.to_version,
                version: finished.row.version,
            },
        })
        .collect();
    Ok((finished, notes))
}

/// Adds `notes` to the notifications the append writes.
fn add_notes(finished: &mut Finished, notes: &[Note]) -> Result<(), Failure> {
    if notes.is_empty() {
        return Ok(());
    }
    let rows = crate::notifications::rows(notes)?;
    match (&mut finished.notifications, rows) {
        (serde_json::Value::Array(all), serde_json::Value::Array(more)) => {
            all.extend(more);
            Ok(())
        }
        _ => Err(Failure::internal("notifications are a list")),
    }
}

/// The tracker of `events` (the tail of a log), `out` the seats out now
/// (a seat that went out within the tail ended any offer before it). An
/// event the rules do not allow (never in a log the server wrote) leaves
/// nothing to take back.
fn track<R: Ruleset>(events: &[LoggedEvent], out: &OutSeats) -> Result<Tracker<()>, Failure> {
    let mut tracker = Tracker::default();
    for event in events {
        let server = ServerEvent::read(&event.kind, event.schema_version, &event.data)
            .map_err(Failure::internal)?;
        match server {
            Some(server) => {
                if tracker
                    .server(event.seq, &server, event.actor(), out)
                    .is_err()
                {
                    tracker = Tracker::default();
                }
            }
            None => {
                let engine =
                    event_from_parts::<R>(&event.kind, &event.data).map_err(Failure::internal)?;
                tracker.engine(
                    event.seq,
                    event.actor(),
                    event.command.is_some(),
                    R::reveals(&engine),
                    || (),
                );
            }
        }
    }
    Ok(tracker)
}

/// The tail of the game's log, [`TAIL`] events at most.
async fn tail(
    conn: &mut crate::db::Conn,
    loaded: &LoadedGame,
) -> Result<Vec<LoggedEvent>, Failure> {
    let version = loaded.game.version;
    let after = (version - TAIL).max(0);
    Ok(event_store::load(conn, loaded.game.id, after, version, TAIL).await?)
}

/// Whether the game takes takebacks: its options say so and it is not rated.
fn enabled(loaded: &LoadedGame) -> bool {
    let game = &loaded.game;
    ServerOptions::of(&game.server_options).takebacks
        && !super::projection::rated_by_options(
            &game.server_options,
            game.private,
            loaded.has_bots(),
        )
}

fn out_seats(loaded: &LoadedGame) -> OutSeats {
    OutSeats::of(loaded.seats.iter().map(|s| s.resigned).collect())
}

fn actor(caller: &Caller, seat: u8) -> Actor {
    Actor {
        user: Some(caller.user_id),
        seat: Some(seat),
    }
}

fn view(offer: &Offer, out: &OutSeats) -> OfferView {
    OfferView {
        seat: offer.seat,
        to_version: offer.to_version,
        accepted: offer.accepted.clone(),
        waiting: offer.waiting(out),
    }
}
