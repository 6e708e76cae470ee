//! A game the server seats itself, every seat taken and the game started at
//! once: a rematch (every player one seat further round) and a tournament's
//! table (the pairing's seat order). The caller checks its own limits; this
//! writes the game, its seats, clocks, first events and notifications in
//! the caller's transaction.

use chrono::{DateTime, Utc};
use hatstand_engine::random::seed_commitment;
use hatstand_engine::{GameKind, Rules};
use serde_json::Value;
use uuid::Uuid;

use super::clock::ServerOptions;
use super::join::take_seat;
use super::status;
use crate::auth::Caller;
use crate::db::games::{self, GameRow, LoadedGame};
use crate::db::notifications::Noted;
use crate::db::{Conn, event_store};
use crate::error::Failure;
use crate::record::chain::{Actor, Chain, GENESIS_HASH};
use crate::record::server_event::{GameCreated, ServerEvent};

/// A player for a seat.
#[derive(Debug, Clone)]
pub struct Player {
    pub user_id: Uuid,
    pub username: String,
    pub bot: bool,
}

/// What a seated game is made of.
#[derive(Debug, Clone)]
pub struct Seated {
    pub kind: GameKind,
    pub rules: Rules,
    /// The engine's options, checked by the ruleset.
    pub options: Value,
    /// The server's options (clock, spectators, …) as stored.
    pub server_options: Value,
    pub private: bool,
    pub created_by: Uuid,
    /// The players in seat order (seat 0 first).
    pub players: Vec<Player>,
}

/// Writes the game `seated` describes, every seat taken in order and the
/// game started, with a fresh secret seed, in the caller's transaction;
/// returns it with the notifications to announce after the commit.
///
/// # Errors
/// A player the engine refuses (a bot at a table for humans only, …);
/// database errors.
pub async fn create(
    conn: &mut Conn,
    seated: Seated,
    now: DateTime<Utc>,
) -> Result<(LoadedGame, Vec<Noted>), Failure> {
    let mut bytes = [0u8; 32];
    rand::fill(&mut bytes);
    let seed = hex::encode(bytes);
    let commitment = seed_commitment(&seed);
    let id = Uuid::new_v4();
    let players = u8::try_from(seated.players.len()).map_err(Failure::internal)?;
    let mut chain = Chain::after(0, GENESIS_HASH, now);
    let created = GameCreated {
        ruleset: seated.kind.id().to_owned(),
        players,
        options: seated.options.clone(),
        seed_commitment: commitment.clone(),
        seed: None,
        created_by: seated.created_by,
        server_options: Some(seated.server_options.clone()),
        private: seated.private,
        rules: seated.rules.to_string(),
    };
    chain
        .push_server(
            &ServerEvent::GameCreated(created),
            Actor {
                user: Some(seated.created_by),
                seat: None,
            },
        )
        .map_err(Failure::internal)?;
    let mut invite = [0u8; 16];
    rand::fill(&mut invite);
    let mut loaded = LoadedGame {
        game: GameRow {
            id,
            ruleset: seated.kind.id().to_owned(),
            players: i16::from(players),
            options: seated.options,
            seed,
            seed_public: false,
            seed_commitment: commitment,
            status: status::OPEN.to_owned(),
            version: 0,
            last_hash: String::new(),
            state: None,
            to_act: Vec::new(),
            result: None,
            created_by: seated.created_by,
            created_at: now,
            updated_at: now,
            server_options: seated.server_options,
            deadline: None,
            private: seated.private,
            invite_code: seated.private.then(|| hex::encode(invite)),
            rules_version: i16::try_from(seated.rules.version).unwrap_or(i16::MAX),
            archived_at: None,
            pause: None,
        },
        seats: Vec::new(),
        conditionals: Vec::new(),
        idempotent: None,
        session_live: true,
    };
    let before = loaded.game.clone();
    let mut rows = Vec::with_capacity(seated.players.len());
    for (seat, p) in seated.players.iter().enumerate() {
        let player = Caller {
            user_id: p.user_id,
            username: p.username.clone(),
            session: Uuid::nil(),
        };
        rows.push(take_seat(
            seated.kind,
            &mut loaded,
            &mut chain,
            &player,
            Some(u8::try_from(seat).map_err(Failure::internal)?),
            p.bot,
            // The game starts at once, so the server makes every seat's
            // salt (recorded as server-made; docs/audits.md).
            None,
        )?);
    }
    let mut clocks = None;
    if loaded.game.status == status::ACTIVE && !loaded.game.to_act.is_empty() {
        loaded.game.deadline = ServerOptions::of(&loaded.game.server_options).deadline_from(now);
        clocks = super::clocks::start(conn, &mut loaded, &mut chain, now).await?;
    }
    loaded.game.version = chain.version();
    loaded.game.last_hash = chain.last_hash().to_owned();
    games::insert(conn, &loaded.game).await?;
    games::insert_seats(conn, id, &rows, now).await?;
    if let Some(clocks) = &clocks {
        games::set_seat_clocks(conn, id, clocks).await?;
    }
    event_store::insert(conn, id, &chain.events).await?;
    let notes = super::step::notifications(&before, &loaded.game, &loaded.seats);
    let told =
        crate::db::notifications::insert(conn, Some(id), &crate::notifications::rows(&notes)?, now)
            .await?;
    Ok((loaded, told))
}
