//! `/v1/games`: creating, listing, reading and joining games.

use actix_web::http::header;
use actix_web::web::Query;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::problem::problems;
use super::request::optional_json;
use super::sse as streams;
use super::strict_json::NoBody;
use super::tags::{self, IfNoneMatch, Privacy};
use super::{Answer, GamePath, Id, Reply, State};
use crate::auth::{Caller, MaybeCaller, MaybeClaimed};
use crate::error::Failure;
use crate::games::bot_seats::{self as seating, AddBot, AddBotRequest};
use crate::games::cancel::Cancel;
use crate::games::create::{self as creating, CreateGame};
use crate::games::invite::Decline;
use crate::games::join::{Join, JoinGame};
use crate::games::leave;
use crate::games::log::{self as logging, GameLog};
use crate::games::open_game;
use crate::games::projection::Game;
use crate::games::read::{self, Filter, GamePage};
use crate::games::vacation as vacationing;
use crate::games::vacation::VacationRequest;
use crate::games::{GameStatus, RulesetId};

/// Creates a game; the creator takes seat 0 unless `join` is false.
#[utoipa::path(
    operation_id = "create_game", tag = "games", request_body = CreateGame,
    security(("bearer" = [])),
    responses((status = 201, description = "The game, with the creator seated", body = Game, headers(("Location" = String, description = "/v1/games/{id}"), ("ETag" = String, description = "The creator's tag of the game (as `get_game` gives it)"))), CreateGameProblems)
)]
#[post("/games")]
pub async fn create(
    state: State,
    caller: Caller,
    body: super::strict_json::Json<CreateGame>,
) -> Answer {
    let game = creating::create(&state, &caller, body.into_inner()).await?;
    let mut response = HttpResponse::Created();
    tags::per_viewer(&mut response, privacy_of(game.my_seat));
    Ok(response
        .insert_header((header::LOCATION, format!("/v1/games/{}", game.id)))
        .insert_header((
            header::ETAG,
            state.view_tags.game(game.version, game.my_seat),
        ))
        .json(game))
}

/// Filters of a game list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// `open`, `active`, `finished` or `abandoned`.
    #[param(value_type = Option<GameStatus>)]
    pub status: Option<String>,
    /// A ruleset id.
    #[param(value_type = Option<RulesetId>)]
    pub ruleset: Option<String>,
    /// 1–100, default 20.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    #[param(
        pattern = "^-?[0-9]{1,18}_[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
    )]
    pub cursor: Option<String>,
}

/// Lists games, newest first (cursor pagination). A game is listed to
/// everyone when it is public and anyone may watch it (`spectators:
/// public`); any other only to its players and invitees.
#[utoipa::path(
    operation_id = "list_games", tag = "games", params(ListQuery, IfNoneMatch), security((), ("bearer" = [])),
    responses((status = 200, description = "A page of games, newest first", body = GamePage, headers(("ETag" = String, description = "This viewer's tag of this page"), ("Cache-Control" = String, description = "`private, no-cache`"), ("Vary" = String, description = "`Authorization`"))), (status = 304, description = "Unchanged for this viewer; no body"), ListGamesProblems)
)]
#[get("/games")]
pub async fn list(
    state: State,
    caller: MaybeCaller,
    query: Query<ListQuery>,
    req: HttpRequest,
) -> Answer {
    let q = query.into_inner();
    let viewer = caller.0.map(|c| c.user_id);
    let page = read::list(
        &state,
        Filter {
            status: q.status,
            ruleset: q.ruleset,
            limit: q.limit,
            cursor: q.cursor,
            viewer,
            ..Filter::default()
        },
    )
    .await?;
    tags::json(
        &req,
        &state.view_tags,
        "list_games",
        viewer,
        Privacy::PerViewer,
        &page,
    )
}

/// A game as the caller sees it (spectators without a token see the public
/// view). Its `ETag` names this viewer's representation (see
/// [`tags`](super::tags)); `If-None-Match` with it answers 304.
#[utoipa::path(
    operation_id = "get_game", tag = "games",
    params(GamePath, CodeQuery, IfNoneMatch),
    security((), ("bearer" = [])),
    responses((status = 200, description = "The game as the caller sees it", body = Game, headers(("ETag" = String, description = "This viewer's tag: `\"<version>.<mac>\"`, the version readable (it may be sent as a command's If-Match)"), ("Cache-Control" = String, description = "`private, no-store` for a seat (its hand), `private, no-cache` for a spectator"), ("Vary" = String, description = "`Authorization`"))), (status = 304, description = "This viewer's view is still the one its If-None-Match names; no body", headers(("ETag" = String, description = "This viewer's tag"))), GetGameProblems)
)]
#[get("/games/{id}")]
pub async fn get(
    state: State,
    caller: MaybeClaimed,
    id: Id,
    query: Query<CodeQuery>,
    req: HttpRequest,
) -> Answer {
    let code = query.code.as_deref();
    if code.is_some_and(|c| c.chars().count() > MAX_CODE) {
        return Err(Failure::bad_request(format!("code is at most {MAX_CODE} characters")).into());
    }
    let game = read::get(&state, caller.0, id.into_inner(), code).await?;
    let links = if game.rematch_of.is_some() || game.rematch.is_some() {
        serde_json::to_vec(&(&game.rematch_of, &game.rematch)).map_err(Failure::internal)?
    } else {
        Vec::new()
    };
    let tag = state
        .view_tags
        .game_linked(game.version, game.my_seat, &links);
    let body = serde_json::to_vec(&game).map_err(Failure::internal)?;
    tags::answer(&req, &tag, privacy_of(game.my_seat), body)
}

/// The longest invite code a request may carry.
const MAX_CODE: usize = 128;

/// The invite code, for a private game seen before joining it.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct CodeQuery {
    /// The game's invite code: lets its holder see an open game that only
    /// its players may watch (`spectators: players`) before joining it.
    #[param(max_length = 128)]
    pub code: Option<String>,
}

/// A seat's view holds its hand: nobody else's cache may keep it.
pub(super) const fn privacy_of(seat: Option<u8>) -> Privacy {
    match seat {
        Some(_) => Privacy::Hidden,
        None => Privacy::PerViewer,
    }
}

/// The game's story in words, as the caller may know it (the same
/// sentences as the turn mails, in the request's `Accept-Language`):
/// every move so far, the turn, trick, round or deal now, and the
/// caller's last move.
#[utoipa::path(
    operation_id = "get_game_log", tag = "games", params(GamePath, IfNoneMatch),
    security((), ("bearer" = [])),
    responses((status = 200, description = "The game's story as the caller may know it", body = GameLog, headers(("ETag" = String, description = "This viewer's tag of this answer"), ("Cache-Control" = String, description = "`private, no-store` (a seat's story names its cards)"), ("Vary" = String, description = "`Authorization`"))), (status = 304, description = "Unchanged for this viewer; no body"), GetGameLogProblems)
)]
#[get("/games/{id}/log")]
pub async fn log(state: State, caller: MaybeCaller, id: Id, req: HttpRequest) -> Answer {
    let viewer = caller.0.map(|c| c.user_id);
    let told = logging::log(&state, viewer, id.into_inner()).await?;
    tags::json(
        &req,
        &state.view_tags,
        "get_game_log",
        viewer,
        Privacy::Hidden,
        &told,
    )
}

/// Takes a seat (the lowest free one unless `seat` is given). The game starts
/// by itself when the last seat fills. The body may be empty. A private game
/// needs its `code`, unless the caller is invited.
#[utoipa::path(
    operation_id = "join_game", tag = "games", params(GamePath),
    request_body(content = Option<JoinGame>, description = "Optional: an empty body takes the lowest free seat"), security(("bearer" = [])),
    responses((status = 200, description = "The game with the caller seated", body = Game), JoinGameProblems)
)]
#[post("/games/{id}/join")]
pub async fn join(state: State, caller: Caller, id: Id, body: web::Bytes) -> Reply<Game> {
    let request: JoinGame = optional_json(&body)?;
    let joined = open_game::change(&state, &caller, id.into_inner(), Join(request)).await?;
    Ok(web::Json(joined))
}

/// Seats one of the server's built-in bots (`bot.random`, `bot.greedy`,
/// `bot.ismcts`, ...) in an open game; the game starts when the table is
/// full. The game's creator or any of its players may ask. The server plays
/// the bot's turns, shown its seat's view only.
#[utoipa::path(
    operation_id = "add_bot", tag = "games", params(GamePath),
    request_body = AddBotRequest, security(("bearer" = [])),
    responses((status = 200, description = "The game with the bot seated", body = Game), AddBotProblems)
)]
#[post("/games/{id}/bots")]
pub async fn add_bot(
    state: State,
    caller: Caller,
    id: Id,
    body: super::strict_json::Json<AddBotRequest>,
) -> Reply<Game> {
    let request = body.into_inner();
    let change = AddBot {
        level: seating::level(&request.level)?,
        seat: request.seat,
    };
    Ok(web::Json(
        open_game::change(&state, &caller, id.into_inner(), change).await?,
    ))
}

/// An invitee declines the invitation to a game that has not started
/// (event `player_declined`); without the code they can no longer join.
#[utoipa::path(
    operation_id = "decline_invitation", tag = "games", params(GamePath),
    security(("bearer" = [])),
    responses((status = 200, description = "The game, the invitation declined", body = Game), DeclineInvitationProblems)
)]
#[post("/games/{id}/decline")]
pub async fn decline(state: State, caller: Caller, id: Id, _body: NoBody) -> Reply<Game> {
    let declined = open_game::change(&state, &caller, id.into_inner(), Decline).await?;
    Ok(web::Json(declined))
}

/// The creator cancels a game that has not started: event `game_cancelled`,
/// status `abandoned`; its players are told (`game_finished`).
#[utoipa::path(
    operation_id = "cancel_game", tag = "games", params(GamePath), security(("bearer" = [])),
    responses((status = 200, description = "The game, cancelled", body = Game), CancelGameProblems)
)]
#[post("/games/{id}/cancel")]
pub async fn cancel(state: State, caller: Caller, id: Id, _body: NoBody) -> Reply<Game> {
    let cancelled = open_game::change(&state, &caller, id.into_inner(), Cancel).await?;
    Ok(web::Json(cancelled))
}

/// The caller resigns (event `player_resigned`, reason `resigned`). The
/// seat is out: the server plays it whenever the game waits on it, and when
/// one seat is left that is not out the game ends by forfeit
/// (`result.outcome` = `forfeit`).
#[utoipa::path(
    operation_id = "resign_game", tag = "games", params(GamePath), security(("bearer" = [])),
    responses((status = 200, description = "The game after the resignation", body = Game), ResignGameProblems)
)]
#[post("/games/{id}/resign")]
pub async fn resign(state: State, caller: Caller, id: Id, _body: NoBody) -> Reply<Game> {
    Ok(web::Json(
        leave::resign(&state, &caller, id.into_inner()).await?,
    ))
}

/// The caller's seat, which the game waits on, pauses its clock: the
/// deadline moves back by `duration` (event `seat_vacation`). Each seat may
/// take at most `options.max_vacation` over the game.
#[utoipa::path(
    operation_id = "take_vacation", tag = "games", params(GamePath),
    request_body = VacationRequest, security(("bearer" = [])),
    responses((status = 200, description = "The game with the deadline pushed back", body = Game), TakeVacationProblems)
)]
#[post("/games/{id}/vacation")]
pub async fn vacation(
    state: State,
    caller: Caller,
    id: Id,
    body: super::strict_json::Json<VacationRequest>,
) -> Reply<Game> {
    Ok(web::Json(
        vacationing::vacation(&state, &caller, id.into_inner(), &body).await?,
    ))
}

/// The game's events as Server-Sent Events, redacted for the caller (a
/// seated player sees their seat's view, anyone else the public one): every
/// event after `Last-Event-ID` (or `after`), then each new one as it is
/// written. Each message is `id: <seq>`, `event: <type>`, `data: <event JSON>`;
/// `: keep-alive` every 15 s of silence. With `talk_after`, also the
/// messages the caller reads (`event: talk`), and every id is
/// `<seq>/<talk position>`.
#[utoipa::path(
    operation_id = "stream_game_events", tag = "games",
    params(GamePath, ("Last-Event-ID" = Option<String>, Header, nullable = false, pattern = "^[0-9]{1,18}(/(0|[0-9]{1,18}_[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}))?$", description = "The id of the last message received: `<seq>`, or `<seq>/<talk position>` on a stream with talk"), super::request::GameStreamQuery),
    security((), ("bearer" = [])),
    responses((status = 200, description = "A stream of Server-Sent Events that does not end. Each message is `id: <seq>\nevent: <type>\ndata: <an EventOut, as JSON>\n\n`; with `talk_after`, also `event: talk` with a TalkMessage as data, and every id is `<seq>/<talk position>`; a `: keep-alive` comment comes after 15 s without a message. Resume with `Last-Event-ID` or `after` (and `talk_after`).", content_type = "text/event-stream", body = String), StreamGameEventsProblems)
)]
#[get("/games/{id}/stream")]
pub async fn stream(
    state: State,
    caller: MaybeCaller,
    address: super::client::ClientAddress,
    id: Id,
    req: HttpRequest,
    query: Query<super::request::GameStreamQuery>,
) -> Answer {
    let (after, talk) = super::request::resume_game(&req, &query)?;
    let held = super::client::hold_stream(&state, caller.0.as_ref(), address.0)?;
    let events = streams::game(&state, caller.0.as_ref(), id.into_inner(), after, talk).await?;
    Ok(super::request::event_stream(super::client::holding(
        events, held,
    )))
}

problems! {
    /// What `create_game` answers besides the common problems.
    CreateGameProblems {
        BadRequest: "malformed body, more than 5 bots",
        NotFound: "no such ruleset, or no such invitee",
        InvalidOptions,
        InvalidDuration: "a `clock` duration that is malformed or out of range (docs/clocks.md)",
        UnknownTimeZone: "a `clock.time_zone` or `time_zone` not in the IANA database",
        BadSalt: "a `salt` that is not 64 lowercase hex digits, or one where none is taken (a public seed, rules from before salts, `join: false`)",
        UnknownBotLevel: "a level in `bots` or `autoplay_level` that does not exist",
        HumansOnly: "bots asked for in a `humans_only` game",
        GameFull: "more bots than free seats",
        LimitReached: "too many games created in the hour, or open at once (all, bots only, strongest bots' seats)",
    }
    /// What `get_game_log` answers besides the common problems.
    GetGameLogProblems { BadRequest: "malformed id" }
    /// What `stream_game_events` answers besides the common problems.
    StreamGameEventsProblems {
        BadRequest: "a `Last-Event-ID`, `after` or `talk_after` this stream did not send",
        LimitReached: "as many streams and long polls open as a client address (without a token) or a user may have",
    }
    /// What `add_bot` answers besides the common problems.
    AddBotProblems {
        BadRequest: "malformed body",
        NoSuchSeat,
        NotAPlayer: "only the game's creator or its players may seat a bot",
        UnknownBotLevel, HumansOnly, GameFull, SeatTaken, GameNotOpen,
    }
    /// What `list_games` answers besides the common problems.
    ListGamesProblems { BadRequest: "unknown status or ruleset, bad limit or cursor" }
    /// What `get_game` answers besides the common problems.
    GetGameProblems { BadRequest: "malformed id, a code over 128 characters" }
    /// What `join_game` answers besides the common problems.
    JoinGameProblems {
        BadRequest: "malformed body",
        NoSuchSeat,
        BadSalt: "a `salt` that is not 64 lowercase hex digits, or one sent to a game that takes none (a public seed, rules from before salts)",
        RatingOutOfRange: "the table's rating range leaves the caller's rating out",
        ReliabilityTooLow: "the caller's reliability is below the game's `min_reliability`",
        NotInvited: "a private game, without its code or an invitation",
        SeatRefused: "the caller and a player seated (or the creator) block one another",
        TooManyGames: "the caller holds a seat in as many games at once as the server allows",
        HumansOnly: "a bot account at a game for humans only",
        GameFull, SeatTaken, AlreadyJoined, GameNotOpen,
    }
    /// What `decline_invitation` answers besides the common problems.
    DeclineInvitationProblems {
        NotInvited: "the caller has no pending invitation",
        GameNotOpen, AlreadyJoined,
    }
    /// What `cancel_game` answers besides the common problems.
    CancelGameProblems {
        Forbidden: "only the creator may cancel",
        GameNotOpen: "the game has started or is over",
    }
    /// What `resign_game` answers besides the common problems.
    ResignGameProblems { NotAPlayer, GameNotOpen, GameFinished, AlreadyResigned }
    /// What `take_vacation` answers besides the common problems.
    TakeVacationProblems {
        BadRequest: "not an ISO 8601 duration",
        VacationExceeded: "more than `max_vacation` in all",
        VacationAllowanceExceeded: "more than the player's yearly allowance over the last 365 days, all games together",
        NotAPlayer, NoDeadline, NotYourTurn, AlreadyResigned, GameNotOpen, GameFinished,
    }
}
