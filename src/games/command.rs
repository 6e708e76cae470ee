//! The command path, the hot path of the server. Two round trips:
//!
//! 1. one read: the game row with its state snapshot, version and last hash,
//!    its seats, and any response stored under the request's idempotency key;
//! 2. one write: a single statement that bumps the version (guarded by the
//!    expected version), appends the events and stores the idempotent
//!    response, all or nothing; waiters are told after the commit.
//!
//! Between the two, the engine decides in memory. A lost race writes nothing
//! and answers `version_conflict`.

use hatstand_engine::{Ruleset, with_ruleset};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use uuid::Uuid;

use super::events::{EventOut, redact_one};
use super::kind_of;
use super::projection::{Game, project};
use super::step::{Finished, Step};
use crate::auth::{Caller, Claimed};
use crate::context::Context;
use crate::db::Conn;
use crate::db::errors::is_unique_violation;
use crate::db::games::{self, LoadedGame, Remember, Update};
use crate::error::Failure;
use crate::record::canonical::canonical_json;

/// A command to a game.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CommandRequest {
    /// The version the command was decided against (or send `If-Match`).
    #[schema(example = 17)]
    #[serde(default)]
    pub expected_version: Option<i64>,
    /// One command of the ruleset, e.g. `{"type": "exchange", "card": "H5", "position": 3}`:
    /// exactly as listed in the game's `legal_commands`.
    #[schema(value_type = super::wire_types::AnyCommand)]
    pub command: Value,
}

/// The answer to an accepted command.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CommandResponse {
    /// The game's version after the command.
    pub version: i64,
    /// The events the command caused, as the caller may see them.
    pub events: Vec<EventOut>,
    /// The game after the command, as the caller sees it.
    pub game: Game,
}

/// How the client stated the version it expects.
#[derive(Debug, Clone, Copy)]
pub struct Precondition {
    pub expected: i64,
    pub via_if_match: bool,
}

impl Precondition {
    /// The precondition from the body and the `If-Match` header.
    ///
    /// # Errors
    /// `precondition_required` when neither is given, `bad_request` when they disagree.
    pub fn from(body: Option<i64>, if_match: Option<i64>) -> Result<Self, Failure> {
        match (body, if_match) {
            (Some(b), Some(h)) if b != h => Err(Failure::bad_request(format!(
                "expected_version {b} and If-Match {h} disagree"
            ))),
            (Some(b), _) => Ok(Precondition {
                expected: b,
                via_if_match: false,
            }),
            (None, Some(h)) => Ok(Precondition {
                expected: h,
                via_if_match: true,
            }),
            (None, None) => Err(Failure::precondition_required()),
        }
    }
}

/// The outcome of a command: the new version and the answer's JSON, fresh
/// or stored for an earlier request with the same idempotency key.
#[derive(Debug)]
pub struct Outcome {
    pub version: i64,
    pub body: Vec<u8>,
    /// The caller's seat, whose view the body shows.
    pub seat: Option<u8>,
    /// Whether this is the answer stored for an earlier request with the
    /// same idempotency key (nothing was applied now).
    pub replayed: bool,
}

impl Outcome {
    fn replayed(stored: &Value, seat: Option<u8>) -> Result<Self, Failure> {
        Ok(Outcome {
            seat,
            version: stored
                .get("version")
                .and_then(Value::as_i64)
                .unwrap_or_default(),
            body: serde_json::to_vec(stored).map_err(Failure::internal)?,
            replayed: true,
        })
    }
}

/// Checks an `Idempotency-Key`: 1–128 visible ASCII characters.
///
/// # Errors
/// `bad_request`.
pub fn check_idempotency_key(key: &str) -> Result<(), Failure> {
    if key.is_empty() || key.len() > 128 || !key.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(Failure::bad_request(
            "Idempotency-Key must be 1–128 visible ASCII characters",
        ));
    }
    Ok(())
}

/// The request's hash when it carries an idempotency key (checked first):
/// only a request with a key can be a retry, so only then is it hashed.
fn keyed_hash(
    game: Uuid,
    request: &CommandRequest,
    precondition: Precondition,
    idempotency_key: Option<&str>,
) -> Result<Option<String>, Failure> {
    if let Some(key) = idempotency_key {
        check_idempotency_key(key)?;
    }
    Ok(idempotency_key.map(|_| request_hash(game, request, precondition)))
}

fn request_hash(game: Uuid, request: &CommandRequest, precondition: Precondition) -> String {
    let canonical = canonical_json(&serde_json::json!({
        "game": game,
        "expected_version": precondition.expected,
        "command": request.command,
    }));
    hex::encode(Sha256::digest(canonical.as_bytes()))
}

/// Applies a command of `claimed`'s user to game `id`. The token's session
/// is checked in the statement that loads the game.
///
/// # Errors
/// `unauthenticated` (the session has ended), `not_found`, `idempotency_key_reused`, `game_not_open`, `game_finished`,
/// `not_a_player`, `version_conflict`, `not_your_turn`, `bad_request` (not a
/// command of this ruleset), `illegal_command`.
#[tracing::instrument(skip_all, fields(game = %id, version = precondition.expected))]
pub async fn submit(
    state: &Context,
    claimed: Claimed,
    id: Uuid,
    request: CommandRequest,
    precondition: Precondition,
    idempotency_key: Option<&str>,
) -> Result<Outcome, Failure> {
    let hash = keyed_hash(id, &request, precondition, idempotency_key)?;
    let mut conn = state.pool.get().await?;
    let token = claimed.unchecked();
    let loaded =
        games::load_checking(&mut conn, id, token.user_id, token.session, idempotency_key).await?;
    let caller = &claimed
        .vouched_by(&mut conn, loaded.as_ref().map(|l| l.session_live))
        .await?;
    let loaded = loaded.ok_or_else(super::no_such_game)?;
    apply(
        state,
        &mut conn,
        caller,
        loaded,
        request,
        precondition,
        idempotency_key,
        hash,
    )
    .await
}

/// Applies a command of `caller`, a user the server vouches for some other
/// way than a session (a mail's reply token), to game `id`: the same path
/// as [`submit`] from the load on.
///
/// # Errors
/// As [`submit`].
#[tracing::instrument(skip_all, fields(game = %id, version = precondition.expected))]
pub async fn submit_as(
    state: &Context,
    caller: &Caller,
    id: Uuid,
    request: CommandRequest,
    precondition: Precondition,
    idempotency_key: Option<&str>,
) -> Result<Outcome, Failure> {
    let hash = keyed_hash(id, &request, precondition, idempotency_key)?;
    let mut conn = state.pool.get().await?;
    let loaded = games::load(&mut conn, id, Some(caller.user_id), idempotency_key)
        .await?
        .ok_or_else(super::no_such_game)?;
    apply(
        state,
        &mut conn,
        caller,
        loaded,
        request,
        precondition,
        idempotency_key,
        hash,
    )
    .await
}

/// The command path from the loaded game on: replay a stored answer, or
/// decide and append.
#[allow(clippy::too_many_arguments)]
async fn apply(
    state: &Context,
    conn: &mut Conn,
    caller: &Caller,
    mut loaded: LoadedGame,
    request: CommandRequest,
    precondition: Precondition,
    idempotency_key: Option<&str>,
    hash: Option<String>,
) -> Result<Outcome, Failure> {
    let id = loaded.game.id;
    let now = crate::record::chain::now();
    if let (Some(stored), Some(key)) = (&loaded.idempotent, idempotency_key)
        && state.retention.key_expired(stored.created_at, now)
    {
        // An expired key is a new request: its old answer goes first.
        games::forget_expired_key(
            conn,
            id,
            caller.user_id,
            key,
            now - state.retention.idempotency,
        )
        .await?;
        loaded.idempotent = None;
    }
    if let Some(stored) = replay_stored(&loaded, caller.user_id, hash.as_deref())? {
        return Ok(stored);
    }
    let kind = kind_of(&loaded.game)?;
    let decided = with_ruleset!(kind, |R| decide::<R>(
        &loaded,
        caller,
        &request,
        precondition
    ))?;
    let body = serde_json::to_string(&decided.response).map_err(Failure::internal)?;
    let remember = idempotency_key
        .zip(hash.as_deref())
        .map(|(key, hash)| Remember {
            user: caller.user_id,
            key,
            request_hash: hash,
            status: 200,
            body: &body,
        });
    let applied = append_finished(
        conn,
        loaded.game.version,
        &decided.finished,
        remember.as_ref(),
    )
    .await;
    match applied {
        Ok(Some(told)) => {
            super::committed(state, &loaded, decided.response.version, &told);
            state.metrics.command_accepted(&loaded.game.ruleset);
            Ok(Outcome {
                version: decided.response.version,
                body: body.into_bytes(),
                seat: loaded.seat_of(caller.user_id),
                replayed: false,
            })
        }
        Err(e) if !is_unique_violation(&e) => Err(e.into()),
        Ok(None) | Err(_) => {
            // Lost a race: perhaps to a twin of this very request.
            let now = games::load(conn, id, Some(caller.user_id), idempotency_key)
                .await?
                .ok_or_else(super::no_such_game)?;
            if let Some(stored) = replay_stored(&now, caller.user_id, hash.as_deref())? {
                return Ok(stored);
            }
            Err(Failure::version_conflict(
                now.game.version,
                precondition.expected,
                precondition.via_if_match,
            ))
        }
    }
}

/// The stored answer (to `caller`) when this request (of hash `hash`) repeats the one its
/// idempotency key was first used for; `idempotency_key_reused` when the key
/// came with another request. Without a key nothing is stored.
fn replay_stored(
    loaded: &LoadedGame,
    caller: Uuid,
    hash: Option<&str>,
) -> Result<Option<Outcome>, Failure> {
    let seat = loaded.seat_of(caller);
    match (&loaded.idempotent, hash) {
        (None, _) | (_, None) => Ok(None),
        (Some(stored), Some(hash)) if stored.request_hash == hash => {
            Ok(Some(Outcome::replayed(&stored.body, seat)?))
        }
        (Some(_), Some(_)) => Err(Failure::idempotency_key_reused()),
    }
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
    let command: R::Command = serde_json::from_value(request.command.clone())
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
    let viewer = super::projection::viewer_for(my_seat);
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
) -> diesel::QueryResult<games::Appended> {
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
    };
    let appended = games::append(conn, &update, remember).await?;
    // Ratings: a game that just finished is rated at once (docs/ratings.md).
    if appended.is_some() && row.status == super::status::FINISHED {
        crate::ratings::projection::after_finish(conn).await;
    }
    Ok(appended)
}
