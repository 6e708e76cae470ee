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

use serde_json::Value;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::advance::{Keep, Lost, Move, advance, committed};
pub use super::command_wire::{CommandRequest, CommandResponse, Precondition};
use crate::auth::{Caller, Claimed};
use crate::context::Context;
use crate::db::Conn;
use crate::db::games::{self, LoadedGame};
use crate::error::Failure;
use crate::record::canonical::canonical_json;

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
    let attempt = Attempt::new(id, request, precondition, idempotency_key)?;
    let mut conn = state.pool.get().await?;
    let token = claimed.unchecked();
    let loaded =
        games::load_checking(&mut conn, id, token.user_id, token.session, idempotency_key).await?;
    let caller = &claimed
        .vouched_by(&mut conn, loaded.as_ref().map(|l| l.session_live))
        .await?;
    let loaded = loaded.ok_or_else(super::no_such_game)?;
    attempt.run(state, &mut conn, caller, loaded).await
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
    let attempt = Attempt::new(id, request, precondition, idempotency_key)?;
    let mut conn = state.pool.get().await?;
    let loaded = games::load(&mut conn, id, Some(caller.user_id), idempotency_key)
        .await?
        .ok_or_else(super::no_such_game)?;
    attempt.run(state, &mut conn, caller, loaded).await
}

/// A command as its request asked: what it plays, against which version,
/// under which idempotency key (and the request's hash, when keyed).
struct Attempt<'a> {
    request: CommandRequest,
    precondition: Precondition,
    key: Option<&'a str>,
    hash: Option<String>,
}

impl<'a> Attempt<'a> {
    /// The attempt of `request` to game `id`, its key checked first.
    fn new(
        id: Uuid,
        request: CommandRequest,
        precondition: Precondition,
        key: Option<&'a str>,
    ) -> Result<Self, Failure> {
        let hash = keyed_hash(id, &request, precondition, key)?;
        Ok(Attempt {
            request,
            precondition,
            key,
            hash,
        })
    }

    /// The command path from the loaded game on: replay a stored answer,
    /// or advance the game (`advance`) and answer.
    async fn run(
        &self,
        state: &Context,
        conn: &mut Conn,
        caller: &Caller,
        mut loaded: LoadedGame,
    ) -> Result<Outcome, Failure> {
        let id = loaded.game.id;
        let hash = self.hash.as_deref();
        let now = crate::record::chain::now();
        if let (Some(stored), Some(key)) = (&loaded.idempotent, self.key)
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
        if let Some(stored) = replay_stored(&loaded, caller.user_id, hash)? {
            return Ok(stored);
        }
        let step = Move::Command {
            by: caller,
            request: &self.request,
            precondition: self.precondition,
        };
        let keep = self.key.zip(hash).map(|(key, request_hash)| Keep {
            user: caller.user_id,
            key,
            request_hash,
        });
        match advance(conn, &loaded, step, keep).await? {
            Ok(advanced) => {
                committed(&state.announcer, &advanced);
                state.metrics.command_accepted(&loaded.game.ruleset);
                Ok(Outcome {
                    version: advanced.version,
                    body: advanced.answer.unwrap_or_default().into_bytes(),
                    seat: loaded.seat_of(caller.user_id),
                    replayed: false,
                })
            }
            Err(Lost) => {
                // Lost a race: perhaps to a twin of this very request.
                let now = games::load(conn, id, Some(caller.user_id), self.key)
                    .await?
                    .ok_or_else(super::no_such_game)?;
                if let Some(stored) = replay_stored(&now, caller.user_id, hash)? {
                    return Ok(stored);
                }
                Err(Failure::version_conflict(
                    now.game.version,
                    self.precondition.expected,
                    self.precondition.via_if_match,
                ))
            }
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
