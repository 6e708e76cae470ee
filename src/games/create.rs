//! Creating a game: options checked by the ruleset, the seed drawn (or taken
//! from the options when public) and committed to, the creator seated.

use diesel_async::AsyncConnection;
use hatstand_engine::bots::Level;
use hatstand_engine::random::seed_commitment;
use hatstand_engine::{GameKind, Rules, Ruleset, with_ruleset};
use serde::Deserialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;
use uuid::Uuid;

use super::RulesetId;
use super::clock::ServerOptions;
use super::join::take_seat;
use super::projection::Game;
use super::status;
use super::watchers::Spectators;
use crate::auth::Caller;
use crate::auth::limits::{CostLimits, retry_after};
use crate::context::Context;
use crate::db::errors::unknown_user_is_unauthenticated;
use crate::db::games::{self, GameRow, LoadedGame};
use crate::db::{event_store, throttle, users};
use crate::error::{ErrorCode, Failure};
use crate::record::chain::{Actor, Chain, GENESIS_HASH};
use crate::record::codec::{parse_options, to_json};
use crate::record::server_event::{GameCreated, ServerEvent};

/// A request to create a game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// `hats`, `goathead`, `top-hats` or `hat-trick`.
    #[schema(example = "hats", value_type = RulesetId)]
    pub ruleset: String,
    /// The number of seats (each ruleset has its own bounds: see `/v1/rulesets`).
    #[schema(example = 3, minimum = 2, maximum = 6)]
    pub players: u8,
    /// The ruleset's options (see `/v1/rulesets`), plus the common `seed`
    /// (a public seed makes every shuffle reproducible) and `deals` (explicit deals).
    #[schema(value_type = Option<super::wire_types::AnyOptions>)]
    #[serde(default)]
    pub options: Option<Value>,
    /// The version of the ruleset's rules to play under (see
    /// `rules_versions` in `/v1/rulesets`); the newest when absent.
    #[schema(example = 1, minimum = 1)]
    #[serde(default)]
    #[schema(minimum = 1, maximum = 65535)]
    pub rules_version: Option<u16>,
    /// Whether the creator takes seat 0 (default true).
    #[serde(default = "yes")]
    pub join: bool,
    /// Closed to the public: not listed (except to its players and
    /// invitees), joined only with its `invite_code` or by an invitee.
    #[serde(default)]
    pub private: bool,
    /// Usernames invited to play (at most 16); they are told (`invited`
    /// notification) and may join without the code. Implies `private`.
    #[serde(default)]
    #[schema(max_items = 16)]
    pub invitees: Vec<String>,
    /// Built-in bots to seat, by level (`random`, `greedy`, `ismcts`), in
    /// the lowest free seats after the creator's; the game starts at once
    /// when they fill the table.
    #[serde(default)]
    #[schema(max_items = 5, example = json!(["ismcts"]), value_type = Vec<hatstand_engine::bots::Level>)]
    pub bots: Vec<String>,
    /// The creator's contribution to the shuffle, as `salt` in
    /// `POST /v1/games/{id}/join` (64 lowercase hex digits; the server
    /// makes one when absent). Only with `join`, in a game that takes salts
    /// (a secret seed, rules with salts); `bad_salt` otherwise. Bots' seats
    /// get salts the server makes.
    #[serde(default)]
    #[schema(
        example = "3b9f1e0c5d7a2f48e6c1b0a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9",
        pattern = "^[0-9a-f]{64}$"
    )]
    pub salt: Option<String>,
}

/// The most invitees one game may have.
pub const MAX_INVITEES: usize = 16;

/// A fresh invite code: 16 random bytes, as hex.
fn invite_code() -> String {
    let mut bytes = [0u8; 16];
    rand::fill(&mut bytes);
    hex::encode(bytes)
}

fn yes() -> bool {
    true
}

/// A fresh secret seed: 32 random bytes from the operating system, as hex.
fn secret_seed() -> String {
    let mut bytes = [0u8; 32];
    rand::fill(&mut bytes);
    hex::encode(bytes)
}

/// The bot level whose seats count against `--strong-bots-at-once`.
const STRONGEST_BOT: Level = Level::Ismcts;

/// Whether `creator` may create one more game (`humans`: not one of bots
/// alone, i.e. a human seat or no bot; `strong_bots` seats of the
/// strongest level): the games they created
/// this hour, and their open or active games at once (all of them, those
/// without a human seat, the strongest bots' seats in them). The hour's
/// count is reserved with its row locked until the creation commits, so
/// concurrent creations by one user are counted one after the other.
///
/// # Errors
/// `limit_reached` with `Retry-After` (the hour's window, or a minute for
/// the limits at once).
pub(super) async fn within_limits(
    conn: &mut crate::db::Conn,
    limits: &CostLimits,
    creator: Uuid,
    humans: bool,
    strong_bots: i64,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<(), Failure> {
    let keys = [(format!("games:{creator}"), limits.games)];
    if let Some(until) = throttle::reserve(conn, &keys, now).await? {
        return Err(Failure::limit_reached(
            "you have created as many games as you may in an hour",
            retry_after(until, now),
        ));
    }
    let (games, bots_only, strong) =
        throttle::games_at_once(conn, creator, STRONGEST_BOT.id()).await?;
    let over = |most: i64, count: i64| most > 0 && count > most;
    let refused = if over(limits.games_at_once, games + 1) {
        Some(format!(
            "you have {games} games open or in play, as many as you may"
        ))
    } else if !humans && over(limits.bot_games_at_once, bots_only + 1) {
        Some(format!(
            "you have {bots_only} games of bots alone open or in play, as many as you may"
        ))
    } else if strong_bots > 0 && over(limits.strong_bots_at_once, strong + strong_bots) {
        Some(format!(
            "your games open or in play seat {strong} {} bots; at most {} may play at once",
            STRONGEST_BOT.id(),
            limits.strong_bots_at_once
        ))
    } else {
        None
    };
    match refused {
        Some(why) => Err(Failure::limit_reached(why, AT_ONCE_RETRY_SECS)),
        None => Ok(()),
    }
}

/// `Retry-After` for a limit on games at once: a game ends when it ends.
const AT_ONCE_RETRY_SECS: u64 = 60;

/// Creates a game.
///
/// # Errors
/// `not_found` (ruleset), `bad_request`, `invalid_options`,
/// `unknown_bot_level`, `humans_only`, `game_full` (more bots than seats),
/// `limit_reached` (see [`within_limits`]), `seat_refused` (an invitee
/// the creator blocks; one who blocks the creator is silently left out,
/// see `blocked`), `too_many_games` (the creator's
/// seat past the cap on games at once, see `seat_cap`).
#[tracing::instrument(skip_all, fields(game, version))]
pub async fn create(
    state: &Context,
    caller: &Caller,
    request: CreateGame,
) -> Result<Game, Failure> {
    let kind = GameKind::from_id(&request.ruleset)
        .ok_or_else(|| Failure::not_found(format!("there is no ruleset {:?}", request.ruleset)))?;
    let mut options = match request.options {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(map)) => map,
        Some(_) => return Err(Failure::bad_request("options must be a JSON object")),
    };
    let public_seed = match options.remove("seed") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if (1..=256).contains(&s.chars().count()) => Some(s),
        Some(_) => {
            return Err(Failure::invalid_options(
                "seed must be a string of 1–256 characters",
            ));
        }
    };
    let mut server_options = ServerOptions::take(&mut options)?;
    if request.invitees.len() > MAX_INVITEES {
        return Err(Failure::bad_request(format!(
            "at most {MAX_INVITEES} invitees"
        )));
    }
    let bots = super::bot_seats::levels(&request.bots)?;
    let private = request.private || !request.invitees.is_empty();
    server_options
        .spectators
        .get_or_insert(Spectators::default_for(private));
    server_options.talk.get_or_insert_default();
    let takebacks = server_options.takebacks;
    let server_options = to_json(&server_options)?;
    if takebacks && super::projection::rated_by_options(&server_options, private, !bots.is_empty())
    {
        return Err(Failure::new(
            ErrorCode::TakebacksInRatedGame,
            "takebacks are only for casual games: set rated to false",
        ));
    }
    let players = usize::from(request.players);
    let rules = match request.rules_version {
        None => Rules::newest(kind),
        Some(number) => Rules::of(kind, number)
            .map_err(|e| Failure::new(ErrorCode::UnknownRulesVersion, e.to_string()))?,
    };
    let engine_options = with_ruleset!(kind, |R| {
        R::version_defaults(rules.version, players, &mut options);
        parse_options::<R>(Value::Object(options), players).and_then(|o| to_json(&o))
    })?;
    if let Some(salt) = &request.salt {
        super::salts::check_format(salt)?;
        if !request.join {
            return Err(Failure::new(
                ErrorCode::BadSalt,
                "a salt is the creator's seat's: none is taken with join false",
            ));
        }
    }
    let seed_public = public_seed.is_some();
    let seed = public_seed.unwrap_or_else(secret_seed);
    let commitment = seed_commitment(&seed);
    let now = crate::record::chain::now();
    let id = Uuid::new_v4();
    let mut chain = Chain::after(0, GENESIS_HASH, now);
    let created = GameCreated {
        ruleset: kind.id().to_owned(),
        players: request.players,
        options: engine_options.clone(),
        seed_commitment: commitment.clone(),
        seed: seed_public.then(|| seed.clone()),
        created_by: caller.user_id,
        server_options: Some(server_options.clone()),
        private,
        rules: rules.to_string(),
    };
    chain
        .push_server(
            &ServerEvent::GameCreated(created),
            Actor {
                user: Some(caller.user_id),
                seat: None,
            },
        )
        .map_err(Failure::internal)?;
    let mut loaded = LoadedGame {
        game: GameRow {
            id,
            ruleset: kind.id().to_owned(),
            players: i16::from(request.players),
            options: engine_options,
            seed,
            seed_public,
            seed_commitment: commitment,
            status: status::OPEN.to_owned(),
            version: 0,
            last_hash: String::new(),
            state: None,
            to_act: Vec::new(),
            result: None,
            created_by: caller.user_id,
            created_at: now,
            updated_at: now,
            server_options,
            deadline: None,
            private,
            invite_code: private.then(invite_code),
            rules_version: i16::try_from(rules.version).unwrap_or(i16::MAX),
            archived_at: None,
            pause: None,
        },
        seats: Vec::new(),
        idempotent: None,
        session_live: true,
        conditionals: Vec::new(),
    };
    let mut conn = state.pool.get().await?;
    let mut new_seats = Vec::new();
    let strong_bots = i64::try_from(bots.iter().filter(|level| **level == STRONGEST_BOT).count())
        .unwrap_or(i64::MAX);
    let mut humans = bots.is_empty();
    if request.join {
        let bot = users::is_bot(&mut conn, caller.user_id).await?;
        humans = !bot;
        new_seats.push(take_seat(
            kind,
            &mut loaded,
            &mut chain,
            caller,
            Some(0),
            bot,
            request.salt.as_deref(),
        )?);
    }
    for level in bots {
        let bot = super::bot_seats::free_bot(level, &loaded)?;
        new_seats.push(take_seat(
            kind,
            &mut loaded,
            &mut chain,
            &bot,
            None,
            true,
            None,
        )?);
    }
    let mut clocks = None;
    if loaded.game.status == status::ACTIVE && !loaded.game.to_act.is_empty() {
        loaded.game.deadline = ServerOptions::of(&loaded.game.server_options).deadline_from(now);
        clocks = super::clocks::start(&mut conn, &mut loaded, &mut chain, now).await?;
    }
    loaded.game.version = chain.version();
    loaded.game.last_hash = chain.last_hash().to_owned();
    let invitees = super::invite::resolve(&mut conn, &request.invitees, caller.user_id).await?;
    let to_invite = super::blocked::invitees_to_tell(&mut conn, caller.user_id, &invitees).await?;
    for invitee in &invitees {
        chain
            .push_server(
                &ServerEvent::PlayerInvited(invitee.clone()),
                Actor {
                    user: Some(caller.user_id),
                    seat: None,
                },
            )
            .map_err(Failure::internal)?;
    }
    loaded.game.version = chain.version();
    loaded.game.last_hash = chain.last_hash().to_owned();
    let row = loaded.game.clone();
    let events = chain.events;
    let seats_to_insert = new_seats.clone();
    let limits = state.cost_limits;
    let creator = caller.user_id;
    let seated = request.join;
    let told = conn
        .transaction::<_, Failure, _>(async move |conn| {
            within_limits(conn, &limits, creator, humans, strong_bots, now).await?;
            games::insert(conn, &row)
                .await
                .map_err(unknown_user_is_unauthenticated)?;
            games::insert_seats(conn, row.id, &seats_to_insert, now)
                .await
                .map_err(unknown_user_is_unauthenticated)?;
            if let Some(clocks) = &clocks {
                games::set_seat_clocks(conn, row.id, clocks).await?;
            }
            if seated && humans {
                super::seat_cap::check(conn, creator, limits.seats_at_once).await?;
            }
            event_store::insert(conn, row.id, &events).await?;
            super::invite::insert_invitations(conn, &row, &to_invite, now, &limits).await
        })
        .await?;
    state.announcer.tell(&told);
    tracing::Span::current().record("game", tracing::field::display(loaded.game.id));
    super::record_version(loaded.game.version);
    super::read::project_stored(&loaded, Some(caller.user_id))
}
