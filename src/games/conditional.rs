//! Conditional moves (docs/turn-conveniences.md): a player whose turn it is
//! not stores lines, "if the next commands are these, play this", which the
//! step that makes a line's answer due plays for them (`games::step`).
//!
//! Rules:
//! - Every ruleset takes lines, their conditions limited to what every
//!   seat sees (`games::conditions`): a condition naming another seat's
//!   command whose content is hidden (a card drawn, discarded, offered,
//!   buried or swapped face down; a Top Hats stack built) is refused
//!   (`conditional_hidden_step`). A ruleset that takes none answers
//!   `conditional_not_supported`.
//! - The lines are their owner's alone: stored, read and removed by the
//!   owner; never in a view, an event, a stream, a webhook or a mail to
//!   anyone else. Storing them writes no event and does not move the game.
//! - Stored against the version the owner read (`version_conflict`
//!   otherwise), while the game waits for another seat
//!   (`conditional_on_your_turn` otherwise), by a seat that is not out.
//! - Checked when stored, nothing written when refused: every command is
//!   one of the ruleset's and each line ends with a step of the owner's,
//!   no two lines answer the same commands differently
//!   (`conditional_unparsable`); steps of other seats name only public
//!   commands (`conditional_hidden_step`); every line starts with a command
//!   of a seat the game waits for, a legal one where that follows from
//!   what the owner sees (`conditional_never_matches`; in the card games
//!   the legality of another seat's card would tell its hand). Later
//!   steps depend on what the board will show and are checked when they
//!   come: a line whose next step is not what was played is dropped, and an
//!   answer is played only if it is legal then.
//! - At most [`MAX_LINES`] lines of at most [`MAX_STEPS`] steps each.

use hatstand_engine::{Ruleset, seat, with_ruleset};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::conditions::{self, Conditions};
use super::lines::{self, Line, LineStep, Shape};
use super::snapshot::state_from_json;
use super::{kind_of, status, stored};
use crate::auth::Caller;
use crate::context::Context;
use crate::db::conditional;
use crate::db::games::LoadedGame;
use crate::error::{ErrorCode, Failure};
use crate::record::codec::to_json;

/// The most lines a seat may store.
pub const MAX_LINES: usize = 32;
/// The most steps in a line.
pub const MAX_STEPS: usize = 24;

/// Lines to store.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "expected_version": 40,
    "lines": [[
        {"seat": 1, "command": {"type": "move", "from": "c3", "to": "c4"}},
        {"seat": 0, "command": {"type": "jump", "from": "d5", "to": "b3"}}
    ]]
}))]
pub struct StoreLines {
    /// The game's version the lines were written against.
    pub expected_version: i64,
    /// Each line: the steps in the order they are to be played; the steps
    /// of other seats are the condition, the caller's seat's are played.
    #[schema(value_type = Vec<Vec<LineStep>>)]
    pub lines: Vec<Line>,
}

/// A seat's stored lines.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "version": 40,
    "lines": [[
        {"seat": 1, "command": {"type": "move", "from": "c3", "to": "c4"}},
        {"seat": 0, "command": {"type": "jump", "from": "d5", "to": "b3"}}
    ]]
}))]
pub struct StoredLines {
    /// The game's version.
    pub version: i64,
    /// What is left of each line (steps already matched are gone); empty
    /// when none is stored.
    #[schema(value_type = Vec<Vec<LineStep>>)]
    pub lines: Vec<Line>,
}

fn unparsable(detail: impl Into<String>) -> Failure {
    Failure::new(ErrorCode::ConditionalUnparsable, detail)
}

fn never_matches(detail: impl Into<String>) -> Failure {
    Failure::new(ErrorCode::ConditionalNeverMatches, detail)
}

/// The caller's seat in `loaded`, which takes lines now.
fn owner_seat(loaded: &LoadedGame, caller: &Caller) -> Result<u8, Failure> {
    let seat_no = loaded
        .seat_of(caller.user_id)
        .ok_or_else(Failure::not_a_player)?;
    match loaded.game.status.as_str() {
        status::ACTIVE => {}
        status::OPEN => {
            return Err(Failure::new(
                ErrorCode::GameNotOpen,
                "the game has not started yet",
            ));
        }
        other => {
            return Err(Failure::new(
                ErrorCode::GameFinished,
                format!("the game is {other}"),
            ));
        }
    }
    if conditions::of(&loaded.game.ruleset).is_none() {
        return Err(Failure::new(
            ErrorCode::ConditionalNotSupported,
            format!("{} takes no conditional lines", loaded.game.ruleset),
        ));
    }
    Ok(seat_no)
}

/// Stores the caller's lines in game `id`, replacing any.
///
/// # Errors
/// `not_found`, `not_a_player`, `game_not_open`, `game_finished`,
/// `conditional_not_supported`, `version_conflict`,
/// `conditional_on_your_turn`, `already_resigned`,
/// `conditional_unparsable`, `conditional_hidden_step`,
/// `conditional_never_matches`.
pub async fn store(
    ctx: &Context,
    caller: &Caller,
    id: Uuid,
    request: StoreLines,
) -> Result<StoredLines, Failure> {
    let mut conn = ctx.pool.get().await?;
    let loaded = stored(&mut conn, id).await?;
    let owner = owner_seat(&loaded, caller)?;
    let version = loaded.game.version;
    if request.expected_version != version {
        return Err(Failure::version_conflict(
            version,
            request.expected_version,
            false,
        ));
    }
    if loaded
        .seats
        .iter()
        .any(|s| s.seat == i16::from(owner) && s.resigned)
    {
        return Err(Failure::new(
            ErrorCode::AlreadyResigned,
            "the seat is out of the game",
        ));
    }
    let kind = kind_of(&loaded.game)?;
    let lines = with_ruleset!(kind, |R| checked::<R>(&loaded, owner, request.lines))?;
    let value = to_json(&lines)?;
    let written = conditional::put(
        &mut conn,
        id,
        i16::from(owner),
        caller.user_id,
        &value,
        version,
        crate::record::chain::now(),
    )
    .await?;
    if !written {
        let now = stored(&mut conn, id).await?;
        return Err(Failure::version_conflict(
            now.game.version,
            request.expected_version,
            false,
        ));
    }
    Ok(StoredLines { version, lines })
}

/// `owner`'s lines checked against the game as loaded, their commands in
/// the ruleset's own spelling.
fn checked<R: Ruleset>(
    loaded: &LoadedGame,
    owner: u8,
    lines: Vec<Line>,
) -> Result<Vec<Line>, Failure> {
    let snapshot = loaded
        .game
        .state
        .as_ref()
        .ok_or_else(|| Failure::internal("an active game without a state"))?;
    let state = state_from_json::<R>(snapshot)?;
    let to_act: Vec<u8> = R::to_act(&state).into_iter().map(|s| s.0).collect();
    if to_act.contains(&owner) {
        return Err(Failure::new(
            ErrorCode::ConditionalOnYourTurn,
            "the game waits for your seat: play instead",
        ));
    }
    if lines.is_empty() || lines.len() > MAX_LINES {
        return Err(unparsable(format!("store 1 to {MAX_LINES} lines")));
    }
    let players = loaded.seats.len();
    let rule: Conditions = conditions::of(R::ID).ok_or_else(|| {
        Failure::new(
            ErrorCode::ConditionalNotSupported,
            format!("{} takes no conditional lines", R::ID),
        )
    })?;
    let mut out = Vec::with_capacity(lines.len());
    for (i, line) in lines.into_iter().enumerate() {
        if line.len() > MAX_STEPS {
            return Err(unparsable(format!(
                "line {i} has more than {MAX_STEPS} steps"
            )));
        }
        let mut steps = Vec::with_capacity(line.len());
        for (j, step) in line.into_iter().enumerate() {
            if usize::from(step.seat) >= players {
                return Err(unparsable(format!(
                    "line {i}, step {j}: the game has no seat {}",
                    step.seat
                )));
            }
            let command: R::Command =
                serde_json::from_value(step.command.clone()).map_err(|e| {
                    unparsable(format!("line {i}, step {j}: not a {} command: {e}", R::ID))
                })?;
            let command = to_json(&command)?;
            if step.seat != owner && !rule.names_public(&command) {
                let kind = command.get("type").and_then(|t| t.as_str()).unwrap_or("");
                return Err(Failure::new(
                    ErrorCode::ConditionalHiddenStep,
                    format!(
                        "line {i}, step {j}: a {kind} of another seat is not seen whole by you"
                    ),
                ));
            }
            steps.push(LineStep {
                seat: step.seat,
                command,
            });
        }
        out.push(steps);
    }
    lines::check_shape(&out, owner).map_err(|shape| match shape {
        Shape::PlaysNothing(i) => unparsable(format!(
            "line {i} must end with a step of your seat ({owner})"
        )),
        Shape::Ambiguous(i, j) => unparsable(format!(
            "lines {i} and {j} answer the same commands differently"
        )),
    })?;
    for (i, line) in out.iter().enumerate() {
        let first = &line[0];
        if first.seat == owner || !to_act.contains(&first.seat) {
            return Err(never_matches(format!(
                "line {i} starts with seat {}, and the game waits for seat(s) {to_act:?}",
                first.seat
            )));
        }
        if !rule.open {
            continue;
        }
        let command: R::Command = serde_json::from_value(first.command.clone())
            .map_err(|e| unparsable(format!("line {i}: {e}")))?;
        if !R::legal_commands(&state, seat(usize::from(first.seat))).contains(&command) {
            return Err(never_matches(format!(
                "line {i} starts with a command seat {} cannot play now",
                first.seat
            )));
        }
    }
    Ok(out)
}

/// The caller's stored lines in game `id` (none: an empty list).
///
/// # Errors
/// `not_found`, `not_a_player`, `game_not_open`, `game_finished`,
/// `conditional_not_supported`.
pub async fn read(ctx: &Context, caller: &Caller, id: Uuid) -> Result<StoredLines, Failure> {
    let mut conn = ctx.pool.get().await?;
    let loaded = stored(&mut conn, id).await?;
    let owner = owner_seat(&loaded, caller)?;
    let lines = conditional::get(&mut conn, id, i16::from(owner))
        .await?
        .map(serde_json::from_value)
        .transpose()
        .map_err(Failure::internal)?
        .unwrap_or_default();
    Ok(StoredLines {
        version: loaded.game.version,
        lines,
    })
}

/// Removes the caller's lines in game `id` (none stored is no error).
///
/// # Errors
/// As [`read`].
pub async fn remove(ctx: &Context, caller: &Caller, id: Uuid) -> Result<(), Failure> {
    let mut conn = ctx.pool.get().await?;
    let loaded = stored(&mut conn, id).await?;
    let owner = owner_seat(&loaded, caller)?;
    conditional::delete(&mut conn, id, i16::from(owner)).await?;
    Ok(())
}
