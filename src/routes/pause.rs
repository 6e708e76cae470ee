//! `/v1/games/{id}/pause`: the players pause the table by unanimous vote;
//! any player resumes it (docs/clocks.md).

use actix_web::{post, web};

use super::problem::problems;
use super::strict_json::NoBody;
use super::{GamePath, Id, Reply, State};
use crate::auth::Caller;
use crate::games::pause::{self, ProposePause, VotePause};
use crate::games::projection::Game;

/// Proposes to pause the table, optionally until `until` (in the future).
/// Every seat held by a human and not out must vote yes; the proposer's
/// own vote is yes, and bots are not asked, so a player alone against bots
/// pauses at once. Writes `game_pause_proposed` (and `game_paused` when
/// no other vote is needed). Not in a game created with `pauses: false`.
#[utoipa::path(
    operation_id = "propose_pause", tag = "games", params(GamePath),
    request_body = ProposePause, security(("bearer" = [])),
    responses((status = 200, description = "The game with the proposal (`pause.proposal`), or paused", body = Game), ProposePauseProblems)
)]
#[post("/games/{id}/pause")]
pub async fn propose(
    state: State,
    caller: Caller,
    id: Id,
    body: super::strict_json::Json<ProposePause>,
) -> Reply<Game> {
    Ok(web::Json(
        pause::propose(&state, &caller, id.into_inner(), &body).await?,
    ))
}

/// Votes on the open proposal: a no ends it; the last yes pauses the table
/// (`game_pause_voted`, then `game_paused` in the same append): no clock
/// runs until a resume or the pause's end. Two last votes at once: one is
/// written, the other answered from the game as it then stands.
#[utoipa::path(
    operation_id = "vote_pause", tag = "games", params(GamePath),
    request_body = VotePause, security(("bearer" = [])),
    responses((status = 200, description = "The game after the vote", body = Game), VotePauseProblems)
)]
#[post("/games/{id}/pause/vote")]
pub async fn vote(
    state: State,
    caller: Caller,
    id: Id,
    body: super::strict_json::Json<VotePause>,
) -> Reply<Game> {
    Ok(web::Json(
        pause::vote(&state, &caller, id.into_inner(), &body).await?,
    ))
}

/// Resumes the paused table at once: any one player may (`game_resumed`).
/// Each running turn gets back the time the pause lasted.
#[utoipa::path(
    operation_id = "resume_game", tag = "games", params(GamePath), security(("bearer" = [])),
    responses((status = 200, description = "The game running again", body = Game), ResumeProblems)
)]
#[post("/games/{id}/resume")]
pub async fn resume(state: State, caller: Caller, id: Id, _body: NoBody) -> Reply<Game> {
    Ok(web::Json(
        pause::resume(&state, &caller, id.into_inner()).await?,
    ))
}

problems! {
    /// What `propose_pause` answers besides the common problems.
    ProposePauseProblems {
        NotFound: "no such game",
        NotAPlayer: "the caller has no seat at the game (a spectator)",
        PausesForbidden: "the game was created with `pauses: false`",
        PauseUntilPast: "`until` is not in the future",
        PauseOpen: "a proposal is open, or the table is paused already",
        GameNotOpen: "the game has not started",
        GameFinished: "the game is over",
        AlreadyResigned: "the caller's seat is out",
    }
    /// What `vote_pause` answers besides the common problems.
    VotePauseProblems {
        NotFound: "no such game",
        NotAPlayer: "the caller has no seat at the game (a spectator)",
        PausesForbidden: "the game was created with `pauses: false`",
        NoPauseProposal: "no proposal awaits the caller's vote (none is open, or the caller voted)",
        GameNotOpen: "the game has not started",
        GameFinished: "the game is over",
        AlreadyResigned: "the caller's seat is out",
    }
    /// What `resume_game` answers besides the common problems.
    ResumeProblems {
        NotFound: "no such game",
        NotAPlayer: "the caller has no seat at the game (a spectator)",
        PausesForbidden: "the game was created with `pauses: false`",
        NotPaused: "the table is not paused",
        GameNotOpen: "the game has not started",
        GameFinished: "the game is over",
        AlreadyResigned: "the caller's seat is out",
    }
}
