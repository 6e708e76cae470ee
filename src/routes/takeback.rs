//! `/v1/games/{id}/takeback`: a player offers to take back their last
//! command; the others accept or decline (docs/turn-conveniences.md).

use actix_web::{get, post, web};

use super::problem::problems;
use super::{GamePath, Id, Reply, State};
use crate::auth::Caller;
use crate::games::takeback::{self, AnswerTakeback, OfferTakeback, TakebackStatus};

/// Where takebacks stand in the game: whether the caller may offer one now,
/// and the standing offer with the seats that accepted and those awaited.
#[utoipa::path(
    operation_id = "get_takeback", tag = "turns", params(GamePath), security(("bearer" = [])),
    responses((status = 200, description = "The game's takeback status", body = TakebackStatus), TakebackStatusProblems)
)]
#[get("/games/{id}/takeback")]
pub async fn status(state: State, caller: Caller, id: Id) -> Reply<TakebackStatus> {
    Ok(web::Json(
        takeback::status(&state, &caller, id.into_inner()).await?,
    ))
}

/// Offers to take back the caller's last command, in a game created with
/// `takebacks: true`: allowed while that command is the last thing in the
/// log and revealed nothing hidden (in Top Hats, until the next seat
/// moves). Every other seat that is not out must accept; bots accept at
/// once. When the last acceptance comes the game is in the state before
/// the command again. Writes `turn_takeback_offered`.
#[utoipa::path(
    operation_id = "offer_takeback", tag = "turns", params(GamePath),
    request_body = OfferTakeback, security(("bearer" = [])),
    responses((status = 200, description = "The offer as it stands (taken back at once when every other seat is a bot's)", body = TakebackStatus), TakebackProblems)
)]
#[post("/games/{id}/takeback")]
pub async fn offer(
    state: State,
    caller: Caller,
    id: Id,
    body: super::strict_json::Json<OfferTakeback>,
) -> Reply<TakebackStatus> {
    Ok(web::Json(
        takeback::offer(&state, &caller, id.into_inner(), body.into_inner()).await?,
    ))
}

/// Accepts or declines the standing offer. A decline ends it for good; the
/// last acceptance takes the command back (`turn_taken_back`), in the same
/// append. Two answers at once: one is written, the other is a
/// `version_conflict`.
#[utoipa::path(
    operation_id = "answer_takeback", tag = "turns", params(GamePath),
    request_body = AnswerTakeback, security(("bearer" = [])),
    responses((status = 200, description = "The offer as it stands, or `taken_back_to`", body = TakebackStatus), AnswerProblems)
)]
#[post("/games/{id}/takeback/answer")]
pub async fn answer(
    state: State,
    caller: Caller,
    id: Id,
    body: super::strict_json::Json<AnswerTakeback>,
) -> Reply<TakebackStatus> {
    Ok(web::Json(
        takeback::answer(&state, &caller, id.into_inner(), body.into_inner()).await?,
    ))
}

problems! {
    /// What `get_takeback` answers besides the common problems.
    TakebackStatusProblems {
        NotFound: "no such game",
        NotAPlayer: "the caller has no seat at the game",
    }
    /// What `offer_takeback` answers besides the common problems.
    TakebackProblems {
        NotFound: "no such game",
        NotAPlayer: "the caller has no seat at the game",
        TakebackDisabled: "the game was not created with `takebacks: true`",
        GameNotOpen: "the game has not started",
        GameFinished: "the game is over",
        VersionConflict: "the game moved since `expected_version`",
        AlreadyResigned: "the caller's seat is out",
        TakebackNotAllowed: "the last command is not the caller's own, revealed something hidden, was forced, or something followed it (an offer already made included)",
    }
    /// What `answer_takeback` answers besides the common problems.
    AnswerProblems {
        NotFound: "no such game",
        NotAPlayer: "the caller has no seat at the game",
        TakebackDisabled: "the game was not created with `takebacks: true`",
        GameNotOpen: "the game has not started",
        GameFinished: "the game is over",
        VersionConflict: "the game moved since `expected_version`",
        AlreadyResigned: "the caller's seat is out",
        TakebackNoOffer: "no offer awaits the caller's answer (none stands, it is the caller's own, or the caller answered)",
    }
}
