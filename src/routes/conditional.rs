//! `/v1/games/{id}/conditional`: the caller's conditional lines in a game
//! (docs/turn-conveniences.md), the caller's alone.

use actix_web::{HttpResponse, delete, get, put, web};

use super::problem::problems;
use super::{Answer, GamePath, Id, Reply, State};
use crate::auth::Caller;
use crate::games::conditional::{self, StoreLines, StoredLines};

/// Stores the caller's conditional lines in a game, replacing any: "if the
/// next commands are these, play this". Conditions name only commands of
/// other seats that every seat sees whole (in the card games, a card played
/// face up, a bid, a pass). When the game comes to a
/// line's step of the caller's seat, the server plays it for the caller (an
/// ordinary command, the caller its actor) in the step that made it due,
/// if it is legal then. A line whose next step is not what was played is
/// dropped. Nobody else ever sees the lines; storing them writes no event.
#[utoipa::path(
    operation_id = "store_conditional_lines", tag = "turns", params(GamePath),
    request_body = StoreLines, security(("bearer" = [])),
    responses((status = 200, description = "The lines as stored, in the ruleset's own spelling", body = StoredLines), StoreLinesProblems)
)]
#[put("/games/{id}/conditional")]
pub async fn store(
    state: State,
    caller: Caller,
    id: Id,
    body: super::strict_json::Json<StoreLines>,
) -> Reply<StoredLines> {
    Ok(web::Json(
        conditional::store(&state, &caller, id.into_inner(), body.into_inner()).await?,
    ))
}

/// What is left of the caller's stored lines (steps already matched are
/// gone); an empty list when none is stored.
#[utoipa::path(
    operation_id = "get_conditional_lines", tag = "turns", params(GamePath), security(("bearer" = [])),
    responses((status = 200, description = "The caller's lines", body = StoredLines), ReadLinesProblems)
)]
#[get("/games/{id}/conditional")]
pub async fn read(state: State, caller: Caller, id: Id) -> Reply<StoredLines> {
    Ok(web::Json(
        conditional::read(&state, &caller, id.into_inner()).await?,
    ))
}

/// Removes the caller's stored lines (none stored is no error).
#[utoipa::path(
    operation_id = "remove_conditional_lines", tag = "turns", params(GamePath), security(("bearer" = [])),
    responses((status = 204, description = "Removed"), ReadLinesProblems)
)]
#[delete("/games/{id}/conditional")]
pub async fn remove(state: State, caller: Caller, id: Id) -> Answer {
    conditional::remove(&state, &caller, id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}

problems! {
    /// What `store_conditional_lines` answers besides the common problems.
    StoreLinesProblems {
        NotFound: "no such game",
        NotAPlayer: "the caller has no seat at the game",
        GameNotOpen: "the game has not started",
        GameFinished: "the game is over",
        VersionConflict: "the game moved since `expected_version`",
        ConditionalOnYourTurn: "the game waits for the caller's seat",
        AlreadyResigned: "the caller's seat is out",
        ConditionalUnparsable: "not lines of the ruleset's commands, a line that does not end with the caller's step, or two lines that answer alike commands differently",
        ConditionalHiddenStep: "a condition names a command of another seat whose content the caller cannot see (a card drawn, discarded, offered, buried or swapped face down; a Top Hats stack built)",
        ConditionalNeverMatches: "a line that does not start with a command of a seat the game waits for (in Top Hats, a legal one)",
        ConditionalNotSupported: "a ruleset that takes no lines",
    }
    /// What `get_conditional_lines` and `remove_conditional_lines` answer besides the common problems.
    ReadLinesProblems {
        NotFound: "no such game",
        NotAPlayer: "the caller has no seat at the game",
        GameNotOpen: "the game has not started",
        GameFinished: "the game is over",
        ConditionalNotSupported: "a ruleset that takes no lines",
    }
}
