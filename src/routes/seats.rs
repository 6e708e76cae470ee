//! Substitutes (docs/seats.md): the lobby's vacant seats, and taking one.

use actix_web::web::Query;
use actix_web::{HttpRequest, get, post, web};
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

use super::problem::problems;
use super::request::optional_json;
use super::tags::{self, IfNoneMatch, Privacy};
use super::{Answer, Reply, State};
use crate::auth::{Caller, MaybeCaller};
use crate::games::open_game;
use crate::games::projection::Game;
use crate::games::seat_offer::{Offer, OfferSeat};
use crate::games::substitute::{self, Take, TakeSeat, VacantPage};

/// A page of vacant seats.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct VacantQuery {
    /// 1–100, default 20.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    #[param(
        pattern = "^-?[0-9]{1,18}_[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}_[0-9]{1,2}$"
    )]
    pub cursor: Option<String>,
}

/// The seats to take: seats whose player left a public game that goes on
/// and takes substitutes, oldest vacancy first (cursor pagination; a page
/// costs its own rows, whatever the server's history).
#[utoipa::path(
    operation_id = "list_vacant_seats", tag = "games", params(VacantQuery, IfNoneMatch), security((), ("bearer" = [])),
    responses((status = 200, description = "A page of vacant seats, oldest vacancy first", body = VacantPage, headers(("ETag" = String, description = "This page's tag"), ("Cache-Control" = String, description = "`private, no-cache`"), ("Vary" = String, description = "`Authorization`"))), (status = 304, description = "Unchanged; no body"), ListVacantSeatsProblems)
)]
#[get("/seats/vacant")]
pub async fn vacant(
    state: State,
    caller: MaybeCaller,
    query: Query<VacantQuery>,
    req: HttpRequest,
) -> Answer {
    let q = query.into_inner();
    let page = substitute::vacant_seats(&state, q.limit, q.cursor.as_deref()).await?;
    let viewer = caller.0.map(|c| c.user_id);
    tags::json(
        &req,
        &state.view_tags,
        "list_vacant_seats",
        viewer,
        Privacy::PerViewer,
        &page,
    )
}

/// Takes over a vacant seat (its player left a game that goes on): event
/// `seat_substituted`; the seat's moves are the caller's from now on, and
/// the other players are told. The body may be empty; a private game needs
/// its `code`, unless the caller is invited.
#[utoipa::path(
    operation_id = "take_seat", tag = "games",
    params(("id" = Uuid, Path, description = "The game id"), ("seat" = u8, Path, description = "The seat to take", maximum = 5)),
    request_body(content = Option<TakeSeat>, description = "Optional: a private game's code"), security(("bearer" = [])),
    responses((status = 200, description = "The game with the caller in the seat", body = Game), TakeSeatProblems)
)]
#[post("/games/{id}/seats/{seat}/take")]
pub async fn take(
    state: State,
    caller: Caller,
    path: web::Path<(Uuid, u8)>,
    body: web::Bytes,
) -> Reply<Game> {
    let (id, seat) = path.into_inner();
    let request: TakeSeat = optional_json(&body)?;
    let taken = open_game::change(&state, &caller, id, Take(seat, request)).await?;
    Ok(web::Json(taken))
}

/// A player still in the game offers a vacant seat to a named player, who
/// is invited to the game (`invited` notification; a private game then
/// lets them see it and take the seat without its code). The record holds
/// no offer, only the takeover. A user who blocks the caller is neither
/// invited nor told, and the caller is not told either.
#[utoipa::path(
    operation_id = "offer_seat", tag = "games",
    params(("id" = Uuid, Path, description = "The game id"), ("seat" = u8, Path, description = "The vacant seat", maximum = 5)),
    request_body = OfferSeat, security(("bearer" = [])),
    responses((status = 200, description = "The game, the seat offered", body = Game), OfferSeatProblems)
)]
#[post("/games/{id}/seats/{seat}/offer")]
pub async fn offer(
    state: State,
    caller: Caller,
    path: web::Path<(Uuid, u8)>,
    body: super::strict_json::Json<OfferSeat>,
) -> Reply<Game> {
    let (id, seat) = path.into_inner();
    let offer = Offer::new(seat, body.into_inner());
    Ok(web::Json(
        open_game::change(&state, &caller, id, offer).await?,
    ))
}

problems! {
    /// What `offer_seat` answers besides the common problems.
    OfferSeatProblems {
        BadRequest: "a malformed body or seat",
        NotAPlayer: "the caller holds no seat in the game, or left it",
        NotFound: "no user of that name",
        NoSuchSeat,
        SeatNotVacant: "the seat's player has not left it, it was taken already, or the game is not on",
        SubstitutesForbidden: "the game's `substitutes` option is off",
        AlreadyJoined: "the named player holds a seat in the game already",
        SeatRefused: "the caller blocks the named player",
    }
    /// What `list_vacant_seats` answers besides the common problems.
    ListVacantSeatsProblems { BadRequest: "a bad limit or cursor" }
    /// What `take_seat` answers besides the common problems.
    TakeSeatProblems {
        BadRequest: "a malformed body or seat",
        NoSuchSeat,
        SeatNotVacant: "the seat's player has not left it, it was taken already, or the game is not on",
        SubstitutesForbidden: "the game's `substitutes` option is off (the default in a rated two-player game)",
        AlreadyJoined: "the caller holds a seat in the game already",
        NotInvited: "a private game, without its code or an invitation",
        HumansOnly: "a bot account at a `humans_only` game",
        RatingOutOfRange: "the table's rating range leaves the caller's rating out",
        ReliabilityTooLow: "the caller's reliability is below the game's `min_reliability`",
        SeatRefused: "the caller and another player of the game block one another",
        TooManyGames: "the caller holds a seat in as many games as the server allows at once",
    }
}
