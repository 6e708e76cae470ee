//! Taking a seat. The game starts by itself when the last seat fills: the
//! start and the engine's opening events (the first deal) are written with
//! the seat, in the same transaction.

use hatstand_engine::{GameKind, Ruleset, apply_all, with_ruleset};
use serde::Deserialize;
use utoipa::ToSchema;

use super::clock::ServerOptions;
use super::invite::check_may_join;
use super::open_game::{OpenChange, OpenTx};
use super::step::notifications;
use super::{kind_of, status};
use crate::auth::Caller;
use crate::db::errors::unknown_user_is_unauthenticated;
use crate::db::games::{self, GameRow, LoadedGame, SeatRow};
use crate::db::users;
use crate::error::{ErrorCode, Failure};
use crate::games::snapshot::state_to_json;
use crate::notifications::Note;
use crate::record::chain::{Actor, Chain};
use crate::record::codec::{split_tagged, to_json};
use crate::record::server_event::{PlayerJoined, ServerEvent, Started};

/// A request to join a game.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinGame {
    /// The seat wanted (0 to players − 1); the lowest free seat when absent.
    #[serde(default)]
    #[schema(maximum = 5)]
    pub seat: Option<u8>,
    /// The invite code of a private game (invitees need none).
    #[serde(default)]
    pub code: Option<String>,
    /// The seat's contribution to the shuffle, in a game that takes salts
    /// (its `salted` is true): 32 random bytes as 64 lowercase hex digits.
    /// When absent, the server makes one, and the seat's `player_joined`
    /// event says so (`salt_by_server`). Refused (`bad_salt`) by a game that takes none.
    #[serde(default)]
    #[schema(
        example = "3b9f1e0c5d7a2f48e6c1b0a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9",
        pattern = "^[0-9a-f]{64}$"
    )]
    pub salt: Option<String>,
}

/// Seats `caller` (at `wanted`, else the lowest free seat) in the game held by
/// `loaded`, with the `salt` sent (the server makes one when none is, in a
/// game that takes salts), writing the event to `chain`; starts the game
/// when it is full.
///
/// # Errors
/// `bad_salt`, `already_joined`, `game_not_open`, `no_such_seat`,
/// `seat_taken`, `game_full`, `humans_only` (a bot at a game for humans).
pub fn take_seat(
    kind: GameKind,
    loaded: &mut LoadedGame,
    chain: &mut Chain,
    caller: &Caller,
    wanted: Option<u8>,
    bot: bool,
    salt: Option<&str>,
) -> Result<SeatRow, Failure> {
    let salt = super::salts::seat_salt(&loaded.game, salt)?;
    if bot && ServerOptions::of(&loaded.game.server_options).humans_only {
        return Err(Failure::new(
            ErrorCode::HumansOnly,
            "this game is for humans only: no bots may sit",
        ));
    }
    if loaded.seat_of(caller.user_id).is_some() {
        return Err(Failure::new(
            ErrorCode::AlreadyJoined,
            "you already have a seat in this game",
        ));
    }
    let full = loaded.seats.len() >= usize::try_from(loaded.game.players).unwrap_or(0);
    if full && loaded.game.status == status::ACTIVE {
        return Err(Failure::new(ErrorCode::GameFull, "every seat is taken"));
    }
    if loaded.game.status != status::OPEN {
        return Err(Failure::new(
            ErrorCode::GameNotOpen,
            format!("the game is {}, not open for players", loaded.game.status),
        ));
    }
    let players = loaded.game.players;
    let taken = |s: i16| loaded.seats.iter().any(|row| row.seat == s);
    let seat = match wanted {
        Some(s) if i16::from(s) >= players => {
            return Err(Failure::new(
                ErrorCode::NoSuchSeat,
                format!("seat {s} does not exist: seats are 0 to {}", players - 1),
            ));
        }
        Some(s) if taken(i16::from(s)) => {
            return Err(Failure::new(
                ErrorCode::SeatTaken,
                format!("seat {s} is taken"),
            ));
        }
        Some(s) => i16::from(s),
        None => (0..players)
            .find(|&s| !taken(s))
            .ok_or_else(|| Failure::new(ErrorCode::GameFull, "every seat is taken"))?,
    };
    let seat_u8 = u8::try_from(seat).map_err(Failure::internal)?;
    let joined = PlayerJoined {
        seat: seat_u8,
        user_id: caller.user_id,
        username: caller.username.clone(),
        salt: salt.as_ref().map(|(text, _)| text.clone()),
        salt_by_server: salt.as_ref().is_some_and(|(_, by_server)| *by_server),
    };
    chain
        .push_server(
            &ServerEvent::PlayerJoined(joined),
            Actor {
                user: Some(caller.user_id),
                seat: Some(seat_u8),
            },
        )
        .map_err(Failure::internal)?;
    let mut row = SeatRow::new(seat, caller.user_id, caller.username.clone());
    row.bot = bot;
    row.salt = salt.map(|(text, _)| text);
    loaded.seats.push(row.clone());
    loaded.seats.sort_by_key(|s| s.seat);
    if loaded.seats.len() == usize::try_from(players).unwrap_or(0) {
        with_ruleset!(kind, |R| start::<R>(loaded, chain))?;
    }
    Ok(row)
}

/// Writes `game_started` and the engine's opening events, and sets the snapshot.
fn start<R: Ruleset>(loaded: &mut LoadedGame, chain: &mut Chain) -> Result<(), Failure> {
    chain
        .push_server(&ServerEvent::GameStarted(Started {}), Actor::SYSTEM)
        .map_err(Failure::internal)?;
    let options: R::Options = serde_json::from_value(loaded.game.options.clone())
        .map_err(|e| Failure::internal(format!("stored options do not parse: {e}")))?;
    let players = loaded.seats.len();
    let mut state = R::new_game(players, options).map_err(|e| Failure::internal(e.0))?;
    let randomness = super::salts::randomness(&loaded.game, &loaded.seats)?;
    let opening = R::start(&state, &randomness);
    for event in &opening {
        let (kind, data) = split_tagged(to_json(event)?)?;
        chain.push(&kind, data, Actor::SYSTEM, None);
    }
    apply_all::<R>(&mut state, &opening);
    let game = &mut loaded.game;
    game.to_act = R::to_act(&state)
        .into_iter()
        .map(|s| i16::from(s.0))
        .collect();
    game.status = if R::result(&state).is_some() {
        status::FINISHED
    } else {
        status::ACTIVE
    }
    .to_owned();
    game.result = R::result(&state).map(|r| to_json(&r)).transpose()?;
    game.state = Some(state_to_json::<R>(&state)?);
    Ok(())
}

/// Takes a seat: the one asked for, else the lowest free one; the game
/// starts when the last seat fills (its first deadline runs from now). A
/// private game needs its code unless the caller is invited.
///
/// Fails with `not_invited`, `reliability_too_low` (below the table's
/// `min_reliability`), `seat_refused` (a player there and the caller
/// block one another, see `blocked`), `too_many_games` (past the cap on games at
/// once, see `seat_cap`) and the errors of [`take_seat`].
pub struct Join(pub JoinGame);

/// Seats `who` (the caller, unless given) at `wanted` (or the lowest free
/// seat) with `salt` (see [`take_seat`]) in the change's transaction: the seat taken and written, and the
/// game's first deadline set when that started it. The one way a join and
/// a bot's seating take a seat.
///
/// # Errors
/// As [`take_seat`]; `unauthenticated` when the user is gone.
pub async fn seat(
    kind: GameKind,
    tx: OpenTx<'_>,
    who: Option<&Caller>,
    wanted: Option<u8>,
    bot: bool,
    salt: Option<&str>,
) -> Result<(), Failure> {
    let who = who.unwrap_or(tx.who);
    let row = take_seat(kind, tx.loaded, tx.chain, who, wanted, bot, salt)?;
    games::insert_seats(
        tx.conn,
        tx.loaded.game.id,
        std::slice::from_ref(&row),
        tx.now,
    )
    .await
    .map_err(unknown_user_is_unauthenticated)?;
    let game = &mut tx.loaded.game;
    if game.status == status::ACTIVE && !game.to_act.is_empty() {
        game.deadline = ServerOptions::of(&game.server_options).deadline_from(tx.now);
        if let Some(clocks) = super::clocks::start(tx.conn, tx.loaded, tx.chain, tx.now).await? {
            games::set_seat_clocks(tx.conn, tx.loaded.game.id, &clocks).await?;
        }
    }
    Ok(())
}

impl OpenChange for Join {
    const NAME: &'static str = "join";

    async fn apply(&self, tx: OpenTx<'_>) -> Result<(), Failure> {
        let game = &tx.loaded.game;
        let kind = kind_of(game)?;
        check_may_join(tx.conn, tx.loaded, tx.who, self.0.code.as_deref()).await?;
        let bot = users::is_bot(tx.conn, tx.who.user_id).await?;
        // Ratings' hook: seeking by strength.
        let options = super::clock::ServerOptions::of(&game.server_options);
        let range = (options.rating_min, options.rating_max);
        crate::ratings::seek::check(tx.conn, game, range, tx.who.user_id).await?;
        crate::ratings::reliability::check(tx.conn, options.min_reliability, tx.who.user_id)
            .await?;
        super::blocked::check_table(tx.conn, tx.loaded, tx.who.user_id).await?;
        let OpenTx {
            conn,
            loaded,
            chain,
            who,
            now,
            seats_at_once,
        } = tx;
        let again = OpenTx {
            conn: &mut *conn,
            loaded,
            chain,
            who,
            now,
            seats_at_once,
        };
        seat(kind, again, None, self.0.seat, bot, self.0.salt.as_deref()).await?;
        if !bot {
            // After the seat is written, under the user's lock (`seat_cap`).
            super::seat_cap::check(conn, who.user_id, seats_at_once).await?;
        }
        Ok(())
    }

    fn tell(&self, before: &GameRow, after: &LoadedGame, _: &Caller) -> Vec<Note> {
        notifications(before, &after.game, &after.seats)
    }
}
