//! Tournaments (docs/tournaments.md): created by an organiser, listed,
//! read, registered for and withdrawn from until registration closes; its
//! rounds and standings as they are played.

use actix_web::web::{self, Query};
use actix_web::{HttpResponse, delete, get, post};
use serde::Deserialize;
use utoipa::IntoParams;

use super::problem::problems;
use super::strict_json::{Json, NoBody};
use super::{Answer, Id, Reply, State};
use crate::auth::{Caller, MaybeCaller};
use crate::tournaments::progress::{self, Rounds, Standings};
use crate::tournaments::read::{self, Listing, TournamentPage, TournamentWithField};
use crate::tournaments::settings::NewTournament;
use crate::tournaments::verify::TournamentAudit;
use crate::tournaments::{audit, create, registration};

/// The tournament a path names.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
pub struct TournamentPath {
    /// The tournament id
    pub id: uuid::Uuid,
}

/// Which list, and which page.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// `upcoming` (open for registration, the default), `running` or
    /// `finished` (finished or cancelled).
    #[param(inline)]
    pub status: Option<Listing>,
    /// The `next` of the page before.
    #[param(
        pattern = "^[0-9]{1,18}_[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
    )]
    pub after: Option<String>,
}

/// Creates a tournament, organised by the caller: the ruleset and its
/// options for every table, the table size, the format, one schedule entry
/// (start, deadline) per round, the registration window, the player cap,
/// optional minimum rating and reliability, duplicate mode (Hats, Goathead
/// and Hat Trick: every table of a round plays the same deals, scored by
/// matchpoints) and whether bots may substitute. A secret seed is drawn and
/// its SHA-256 published as `seed_commitment`; the seed is shown once the
/// tournament is over.
#[utoipa::path(
    operation_id = "create_tournament", tag = "tournaments", security(("bearer" = [])),
    request_body(content = NewTournament, example = json!({"name": "Winter duplicate", "ruleset": "hats",
        "options": {}, "table_size": 2, "format": "swiss",
        "schedule": [{"starts_at": "2026-12-20T18:00:00Z", "deadline": "2026-12-27T18:00:00Z"},
                     {"starts_at": "2026-12-28T18:00:00Z", "deadline": "2027-01-04T18:00:00Z"}],
        "registration_opens": "2026-12-10T00:00:00Z", "registration_closes": "2026-12-20T12:00:00Z",
        "player_cap": 16, "min_rating": 1400.0, "duplicate": true})),
    responses((status = 201, description = "The tournament, open for registration from `registration_opens`", body = TournamentWithField,
        example = json!({"id": "3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b", "name": "Winter duplicate",
            "organiser": "6c1f0a4e-8d2b-4f7a-9c3e-1b2a3c4d5e6f", "ruleset": "hats", "options": {"first_seat": 0},
            "table_size": 2, "format": "swiss",
            "schedule": [{"starts_at": "2026-12-20T18:00:00Z", "deadline": "2026-12-27T18:00:00Z"},
                         {"starts_at": "2026-12-28T18:00:00Z", "deadline": "2027-01-04T18:00:00Z"}],
            "registration_opens": "2026-12-10T00:00:00Z", "registration_closes": "2026-12-20T12:00:00Z",
            "player_cap": 16, "min_rating": 1400.0, "min_reliability": null, "duplicate": true,
            "bots_substitute": false, "status": "registering",
            "seed_commitment": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "seed": null, "registered": 0, "version": 1, "created_at": "2026-12-09T10:00:00Z", "entries": []})),
        CreateTournamentProblems)
)]
#[post("/tournaments")]
pub async fn create_tournament(state: State, caller: Caller, body: Json<NewTournament>) -> Answer {
    let created = create::create(&state, &caller, body.into_inner()).await?;
    Ok(HttpResponse::Created().json(created))
}

/// Lists tournaments, newest first, 50 a page: `upcoming` (open for
/// registration), `running` or `finished`.
#[utoipa::path(
    operation_id = "list_tournaments", tag = "tournaments", params(ListQuery), security((), ("bearer" = [])),
    responses((status = 200, description = "A page of tournaments", body = TournamentPage,
        example = json!({"tournaments": [{"id": "3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b", "name": "Winter duplicate",
            "organiser": "6c1f0a4e-8d2b-4f7a-9c3e-1b2a3c4d5e6f", "ruleset": "hats", "options": {"first_seat": 0},
            "table_size": 2, "format": "swiss",
            "schedule": [{"starts_at": "2026-12-20T18:00:00Z", "deadline": "2026-12-27T18:00:00Z"}],
            "registration_opens": "2026-12-10T00:00:00Z", "registration_closes": "2026-12-20T12:00:00Z",
            "player_cap": 16, "min_rating": null, "min_reliability": null, "duplicate": true,
            "bots_substitute": false, "status": "registering",
            "seed_commitment": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "seed": null, "registered": 5, "version": 6, "created_at": "2026-12-09T10:00:00Z"}],
            "next": null})),
        ListTournamentsProblems)
)]
#[get("/tournaments")]
pub async fn list_tournaments(state: State, query: Query<ListQuery>) -> Reply<TournamentPage> {
    let q = query.into_inner();
    Ok(web::Json(
        read::list(
            &state,
            q.status.unwrap_or(Listing::Upcoming),
            q.after.as_deref(),
        )
        .await?,
    ))
}

/// A tournament, its schedule and its registered players.
#[utoipa::path(
    operation_id = "get_tournament", tag = "tournaments", params(TournamentPath), security((), ("bearer" = [])),
    responses((status = 200, description = "The tournament and its field", body = TournamentWithField,
        example = json!({"id": "3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b", "name": "Winter duplicate",
            "organiser": "6c1f0a4e-8d2b-4f7a-9c3e-1b2a3c4d5e6f", "ruleset": "hats", "options": {"first_seat": 0},
            "table_size": 2, "format": "swiss",
            "schedule": [{"starts_at": "2026-12-20T18:00:00Z", "deadline": "2026-12-27T18:00:00Z"}],
            "registration_opens": "2026-12-10T00:00:00Z", "registration_closes": "2026-12-20T12:00:00Z",
            "player_cap": 16, "min_rating": null, "min_reliability": null, "duplicate": true,
            "bots_substitute": false, "status": "registering",
            "seed_commitment": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "seed": null, "registered": 1, "version": 2, "created_at": "2026-12-09T10:00:00Z",
            "entries": [{"user_id": "9d2e1b3c-4a5f-4e6d-8c7b-2a1b3c4d5e6f", "username": "bruno",
                "registered_at": "2026-12-11T09:30:00Z"}]})),
        GetTournamentProblems)
)]
#[get("/tournaments/{id}")]
pub async fn get_tournament(state: State, id: Id) -> Reply<TournamentWithField> {
    Ok(web::Json(read::get(&state, id.into_inner()).await?))
}

/// Registers the caller for a tournament, while its registration is open
/// and below its cap.
#[utoipa::path(
    operation_id = "register_for_tournament", tag = "tournaments", params(TournamentPath), security(("bearer" = [])),
    responses((status = 200, description = "The tournament with the caller registered", body = TournamentWithField,
        example = json!({"id": "3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b", "name": "Winter duplicate",
            "organiser": "6c1f0a4e-8d2b-4f7a-9c3e-1b2a3c4d5e6f", "ruleset": "hats", "options": {"first_seat": 0},
            "table_size": 2, "format": "swiss",
            "schedule": [{"starts_at": "2026-12-20T18:00:00Z", "deadline": "2026-12-27T18:00:00Z"}],
            "registration_opens": "2026-12-10T00:00:00Z", "registration_closes": "2026-12-20T12:00:00Z",
            "player_cap": 16, "min_rating": null, "min_reliability": null, "duplicate": true,
            "bots_substitute": false, "status": "registering",
            "seed_commitment": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "seed": null, "registered": 1, "version": 2, "created_at": "2026-12-09T10:00:00Z",
            "entries": [{"user_id": "9d2e1b3c-4a5f-4e6d-8c7b-2a1b3c4d5e6f", "username": "bruno",
                "registered_at": "2026-12-11T09:30:00Z"}]})),
        RegisterProblems)
)]
#[post("/tournaments/{id}/registration")]
pub async fn register(
    state: State,
    caller: Caller,
    id: Id,
    _body: NoBody,
) -> Reply<TournamentWithField> {
    Ok(web::Json(
        registration::register(&state, &caller, id.into_inner()).await?,
    ))
}

/// Withdraws the caller from a tournament, while its registration is open.
#[utoipa::path(
    operation_id = "withdraw_from_tournament", tag = "tournaments", params(TournamentPath), security(("bearer" = [])),
    responses((status = 200, description = "The tournament without the caller", body = TournamentWithField,
        example = json!({"id": "3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b", "name": "Winter duplicate",
            "organiser": "6c1f0a4e-8d2b-4f7a-9c3e-1b2a3c4d5e6f", "ruleset": "hats", "options": {"first_seat": 0},
            "table_size": 2, "format": "swiss",
            "schedule": [{"starts_at": "2026-12-20T18:00:00Z", "deadline": "2026-12-27T18:00:00Z"}],
            "registration_opens": "2026-12-10T00:00:00Z", "registration_closes": "2026-12-20T12:00:00Z",
            "player_cap": 16, "min_rating": null, "min_reliability": null, "duplicate": true,
            "bots_substitute": false, "status": "registering",
            "seed_commitment": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "seed": null, "registered": 0, "version": 3, "created_at": "2026-12-09T10:00:00Z",
            "entries": []})),
        WithdrawProblems)
)]
#[delete("/tournaments/{id}/registration")]
pub async fn withdraw(state: State, caller: Caller, id: Id) -> Reply<TournamentWithField> {
    Ok(web::Json(
        registration::withdraw(&state, &caller, id.into_inner()).await?,
    ))
}

/// A tournament's rounds: each one's times and status, its tables (seat
/// order, points once scored) and byes. While a round is played, a table's
/// game is shown only to its players.
#[utoipa::path(
    operation_id = "get_tournament_rounds", tag = "tournaments", params(TournamentPath), security((), ("bearer" = [])),
    responses((status = 200, description = "Every round, scheduled, playing or scored", body = Rounds,
        example = json!({"rounds": [
            {"round": 0, "starts_at": "2026-12-20T18:00:00Z", "deadline": "2026-12-27T18:00:00Z", "status": "scored",
             "tables": [{"table": 0, "players": [
                 {"user_id": "6c1f0a4e-8d2b-4f7a-9c3e-1b2a3c4d5e6f", "username": "ada"},
                 {"user_id": "9d2e1b3c-4a5f-4e6d-8c7b-2a1b3c4d5e6f", "username": "bruno"}],
                 "game_id": "0b6f5c1e-3f0a-4b59-9a57-2f1d8f7c1a10", "points": [0.75, 0.25]}],
             "byes": []},
            {"round": 1, "starts_at": "2026-12-28T18:00:00Z", "deadline": "2027-01-04T18:00:00Z", "status": "upcoming",
             "tables": [], "byes": []}]})),
        GetTournamentProblems)
)]
#[get("/tournaments/{id}/rounds")]
pub async fn get_rounds(state: State, caller: MaybeCaller, id: Id) -> Reply<Rounds> {
    let viewer = caller.0.map(|c| c.user_id);
    Ok(web::Json(
        progress::rounds(&state, id.into_inner(), viewer).await?,
    ))
}

/// A tournament's standings after its last round scored (final once it is
/// over): points, then Buchholz, then seed.
#[utoipa::path(
    operation_id = "get_tournament_standings", tag = "tournaments", params(TournamentPath), security((), ("bearer" = [])),
    responses((status = 200, description = "The standings", body = Standings,
        example = json!({"after_round": 0, "final_standings": false, "standings": [
            {"rank": 1, "user_id": "6c1f0a4e-8d2b-4f7a-9c3e-1b2a3c4d5e6f", "username": "ada", "points": 0.75, "buchholz": 0.25, "byes": 0},
            {"rank": 2, "user_id": "9d2e1b3c-4a5f-4e6d-8c7b-2a1b3c4d5e6f", "username": "bruno", "points": 0.25, "buchholz": 0.75, "byes": 0}]})),
        GetTournamentProblems)
)]
#[get("/tournaments/{id}/standings")]
pub async fn get_standings(state: State, id: Id) -> Reply<Standings> {
    Ok(web::Json(
        progress::standings(&state, id.into_inner()).await?,
    ))
}

/// A finished (or cancelled) tournament's whole record, its revealed seed
/// and every table's game audit: `hatstand verify` recomputes every
/// pairing, deal, score and standing from it offline.
#[utoipa::path(
    operation_id = "get_tournament_audit", tag = "tournaments", params(TournamentPath), security((), ("bearer" = [])),
    responses((status = 200, description = "The record, the seed and every table's game audit", body = TournamentAudit),
        GetTournamentAuditProblems)
)]
#[get("/tournaments/{id}/audit")]
pub async fn get_audit(state: State, id: Id) -> Reply<TournamentAudit> {
    Ok(web::Json(audit::audit(&state, id.into_inner()).await?))
}

problems! {
    /// What `create_tournament` answers besides the common problems.
    CreateTournamentProblems {
        BadRequest: "a malformed body, options that are not an object",
        NotFound: "no such ruleset",
        InvalidOptions: "options the ruleset cannot play at the table size, or explicit deals",
        InvalidTournament: "the window, the schedule, the cap, the format's rounds, duplicate mode",
    }
    /// What `list_tournaments` answers besides the common problems.
    ListTournamentsProblems {
        BadRequest: "an unknown status, a cursor this server did not give",
    }
    /// What `get_tournament_audit` answers besides the common problems.
    GetTournamentAuditProblems {
        BadRequest: "a malformed id",
        NotFound: "no such tournament",
        TournamentNotOver: "the tournament is registering or running",
    }
    /// What `get_tournament` answers besides the common problems.
    GetTournamentProblems {
        BadRequest: "a malformed id",
        NotFound: "no such tournament",
    }
    /// What `register_for_tournament` answers besides the common problems.
    RegisterProblems {
        BadRequest: "a malformed id, a body",
        NotFound: "no such tournament",
        RegistrationClosed: "before registration opens, after it closes",
        BotAccountRefused: "a bot account",
        AlreadyRegistered,
        TournamentFull: "at the player cap",
        BelowMinRating: "a rating below `min_rating`",
        ReliabilityTooLow: "a reliability below `min_reliability`",
    }
    /// What `withdraw_from_tournament` answers besides the common problems.
    WithdrawProblems {
        BadRequest: "a malformed id",
        NotFound: "no such tournament",
        RegistrationClosed: "after registration closes",
        NotRegistered,
    }
}
