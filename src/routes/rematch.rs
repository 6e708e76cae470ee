//! Rematch (docs/ratings.md): a player of a finished game offers the same
//! table again; the others accept or decline, each with a POST without a
//! body; the new game starts when all have accepted.

use actix_web::{post, web};

use super::problem::problems;
use super::strict_json::NoBody;
use super::{GamePath, Id, Reply, State};
use crate::auth::Caller;
use crate::games::rematch::{self, Rematch, Reply as Answer};

/// Offers a rematch of a finished game to its other players: the same
/// ruleset, table size, rules version and options, a new deal, every player
/// one seat further round (seat `s` takes `s + 1`, the last seat 0). The
/// offer counts as the caller's acceptance; bot seats accept at once, so a
/// table of one person and bots starts its rematch here (`state:
/// accepted`, `new_game_id`). One offer per game. The offer shows on the
/// finished game (`rematch` in `get_game`).
#[utoipa::path(
    operation_id = "offer_rematch", tag = "games", params(GamePath), security(("bearer" = [])),
    responses((status = 200, description = "The offer, with each seat's answer", body = Rematch,
        example = json!({"game_id": "0b6f5c1e-3f0a-4b59-9a57-2f1d8f7c1a10", "state": "offered",
            "offered_by": "ada", "offered_at": "2026-12-08T10:00:00Z",
            "seats": [{"seat": 0, "new_seat": 1, "user_id": "6c1f0a4e-8d2b-4f7a-9c3e-1b2a3c4d5e6f", "username": "ada", "bot": false, "answer": "accepted"},
                      {"seat": 1, "new_seat": 0, "user_id": "9d2e1b3c-4a5f-4e6d-8c7b-2a1b3c4d5e6f", "username": "bruno", "bot": false, "answer": "waiting"}],
            "new_game_id": null})),
        OfferRematchProblems)
)]
#[post("/games/{id}/rematch")]
pub async fn offer(state: State, caller: Caller, id: Id, _body: NoBody) -> Reply<Rematch> {
    Ok(web::Json(
        rematch::offer(&state, &caller, id.into_inner()).await?,
    ))
}

/// Accepts the rematch offered on a finished game. When the caller is the
/// last to accept, the new game starts (`state: accepted`, `new_game_id`;
/// its first turn is notified like any game's). Accepting again answers
/// the offer as it stands.
#[utoipa::path(
    operation_id = "accept_rematch", tag = "games", params(GamePath), security(("bearer" = [])),
    responses((status = 200, description = "The offer after the answer; `new_game_id` once everyone accepted", body = Rematch,
        example = json!({"game_id": "0b6f5c1e-3f0a-4b59-9a57-2f1d8f7c1a10", "state": "accepted",
            "offered_by": "ada", "offered_at": "2026-12-08T10:00:00Z",
            "seats": [{"seat": 0, "new_seat": 1, "user_id": "6c1f0a4e-8d2b-4f7a-9c3e-1b2a3c4d5e6f", "username": "ada", "bot": false, "answer": "accepted"},
                      {"seat": 1, "new_seat": 0, "user_id": "9d2e1b3c-4a5f-4e6d-8c7b-2a1b3c4d5e6f", "username": "bruno", "bot": false, "answer": "accepted"}],
            "new_game_id": "5a4f3e2d-1c0b-4a98-8765-43210fedcba9"})),
        AcceptRematchProblems)
)]
#[post("/games/{id}/rematch/accept")]
pub async fn accept(state: State, caller: Caller, id: Id, _body: NoBody) -> Reply<Rematch> {
    Ok(web::Json(
        rematch::answer(&state, &caller, id.into_inner(), Answer::Accept).await?,
    ))
}

/// Declines the rematch offered on a finished game (the one who offered
/// withdraws it the same way): the offer is closed, no game starts.
/// Declining again answers the offer as it stands.
#[utoipa::path(
    operation_id = "decline_rematch", tag = "games", params(GamePath), security(("bearer" = [])),
    responses((status = 200, description = "The offer, declined", body = Rematch,
        example = json!({"game_id": "0b6f5c1e-3f0a-4b59-9a57-2f1d8f7c1a10", "state": "declined",
            "offered_by": "ada", "offered_at": "2026-12-08T10:00:00Z",
            "seats": [{"seat": 0, "new_seat": 1, "user_id": "6c1f0a4e-8d2b-4f7a-9c3e-1b2a3c4d5e6f", "username": "ada", "bot": false, "answer": "accepted"},
                      {"seat": 1, "new_seat": 0, "user_id": "9d2e1b3c-4a5f-4e6d-8c7b-2a1b3c4d5e6f", "username": "bruno", "bot": false, "answer": "declined"}],
            "new_game_id": null})),
        DeclineRematchProblems)
)]
#[post("/games/{id}/rematch/decline")]
pub async fn decline(state: State, caller: Caller, id: Id, _body: NoBody) -> Reply<Rematch> {
    Ok(web::Json(
        rematch::answer(&state, &caller, id.into_inner(), Answer::Decline).await?,
    ))
}

problems! {
    /// What `offer_rematch` answers besides the common problems.
    OfferRematchProblems {
        BadRequest: "malformed id, a body",
        NotAPlayer: "the caller has no seat at the game",
        GameNotFinished: "the game is open, active or abandoned",
        RematchAlreadyOffered: "one offer per game",
        LimitReached: "a table of bots only, which starts at once: the offerer's limits on games",
    }
    /// What `accept_rematch` answers besides the common problems.
    AcceptRematchProblems {
        BadRequest: "malformed id, a body",
        NotAPlayer: "the caller has no seat at the game",
        GameNotFinished,
        RematchNotOffered,
        RematchClosed: "the offer was declined",
        LimitReached: "the last acceptance would exceed the offerer's limits on games",
    }
    /// What `decline_rematch` answers besides the common problems.
    DeclineRematchProblems {
        BadRequest: "malformed id, a body",
        NotAPlayer: "the caller has no seat at the game",
        GameNotFinished,
        RematchNotOffered,
        RematchClosed: "the offer was declined by another player, or the rematch started",
    }
}
