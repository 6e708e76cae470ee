//! The round worker: every server process runs one. Each tick it finds the
//! tournaments with a step due (a round whose start has passed and that is
//! not scored yet) and takes each one's row lock, skipping any another
//! process holds (`FOR UPDATE SKIP LOCKED`), so a step is taken exactly
//! once across processes. In that one transaction it takes every step due,
//! reading only the tournament's record ([`super::replay`]):
//!
//! 1. **start** (registering, round 0's start passed): the field seeded by
//!    rating in the ruleset at the table size (a newcomer at the method's
//!    start), then by registration; `started`. With fewer players than a
//!    table holds, `cancelled` instead, and the seed revealed;
//! 2. **pair** (between rounds, the next round's start passed): the pairing
//!    [`super::schedule::next`] gives, `round_paired`, and each table
//!    created as an ordinary game (`table_created`): the pairing's seat
//!    order, the tournament's options (in duplicate mode with the round's
//!    deals, [`super::duplicate`]), and the server options of
//!    [`table_options`];
//! 3. **score** (every table's game over): `table_finished` for each table
//!    with its points ([`super::results::round_points`]), then
//!    `round_scored` with the standings;
//! 4. **finish** (no next round): `tournament_finished` with the final
//!    standings and the seed.
//!
//! The players are told ([`super::told`]) in the same transaction: each
//! player of a new table `tournament_round` about that table's game; at the
//! end each entrant `tournament_finished` with their place, about their
//! last table's game; when cancelled each registered player
//! `tournament_finished` marked `cancelled`. Every notification is
//! announced after the commit.
//!
//! A crash anywhere rolls the whole step back; the next tick (of any
//! process) takes it again from the record.

use std::time::Duration;

use chrono::{DateTime, Utc};
use diesel_async::AsyncConnection;
use hatstand_engine::{GameKind, Rules};
use serde_json::Value;
use uuid::Uuid;

use super::record::TournamentEvent;
use super::replay::{Broken, Replayed, replay};
use super::results::{Outcome, round_points};
use super::standings::{PlayedRound, PlayedTable, standings};
use super::{duplicate, schedule, told};
use crate::db::games::LoadedGame;
use crate::db::notifications::{self, Noted};
use crate::db::tournaments::{self, RoundRow, TableRow, TournamentRow};
use crate::db::{Conn, Pool};
use crate::error::Failure;
use crate::games::clock::{OnTimeout, ServerOptions};
use crate::games::seated::{Player, Seated};
use crate::games::status;
use crate::games::watchers::Spectators;
use crate::record::chain::{Actor, Chain, now};
use crate::wake::Announcer;

/// The most tournaments one tick steps.
pub const BATCH: i64 = 16;

/// The time each turn of a tournament table may take.
pub const TURN_TIMEOUT: &str = "P1D";

/// Runs the worker forever: a tick now, then one every `every`; the games
/// a step created are announced after its commit.
pub async fn run(pool: Pool, announcer: Announcer, every: Duration) {
    loop {
        match step_due(&pool).await {
            Ok(moved) => {
                if !moved.is_empty() {
                    tracing::info!(stepped = moved.len(), "tournaments stepped");
                }
                for each in moved {
                    for (game, told) in each.games {
                        crate::games::record_version(game.game.version);
                        announcer.announce(game.game.id, game.game.version, game.has_bots());
                        announcer.tell(&told);
                    }
                    announcer.tell(&each.told);
                }
            }
            Err(e) => tracing::warn!(error = %e.detail, "tournament worker failed; retrying"),
        }
        tokio::time::sleep(every).await;
    }
}

/// One tick: takes every step due of the tournaments this worker could
/// lock; returns how many tournaments moved on.
///
/// # Errors
/// Database errors; a record that cannot be folded.
pub async fn tick(pool: &Pool) -> Result<usize, Failure> {
    Ok(step_due(pool).await?.len())
}

/// Each tournament that moved on, with what its step created.
async fn step_due(pool: &Pool) -> Result<Vec<Moved>, Failure> {
    let at = now();
    let mut conn = pool.get().await?;
    let due = tournaments::due(&mut conn, at, BATCH).await?;
    let mut moved = Vec::new();
    for id in due {
        let created = conn
            .transaction::<_, Failure, _>(async |conn| step(conn, id, at).await)
            .await?;
        moved.extend(created);
    }
    Ok(moved)
}

/// What a step wrote, to announce after its commit: the games it created
/// (each with its notifications) and the notifications about no new game
/// (the end, a cancellation).
#[derive(Default)]
struct Moved {
    games: Vec<(LoadedGame, Vec<Noted>)>,
    told: Vec<Noted>,
}

/// What a step wrote; `None` when nothing was due (or another process
/// holds the tournament).
type Created = Option<Moved>;

fn broken(e: Broken) -> Failure {
    Failure::internal(format!("tournament record: {}", e.0))
}

/// Every step due of tournament `id` at `at`, in the caller's transaction.
async fn step(conn: &mut Conn, id: Uuid, at: DateTime<Utc>) -> Result<Created, Failure> {
    let Some(mut row) = tournaments::locked_unless_busy(conn, id).await? else {
        return Ok(None);
    };
    let rounds = tournaments::rounds(conn, id).await?;
    let mut events = super::read::events(conn, id).await?;
    let mut chain = Chain::after(row.version, &hex::encode(&row.last_hash), at);
    let mut created = Moved::default();
    loop {
        let t = replay(&events).map_err(broken)?;
        let next = next_step(conn, &mut row, &rounds, &t, at, &mut created).await?;
        let Some(new) = next else { break };
        for event in new {
            event
                .push_to(&mut chain, Actor::SYSTEM)
                .map_err(Failure::internal)?;
            events.push(event);
        }
    }
    if chain.events.is_empty() {
        return Ok(None);
    }
    tournaments::append(conn, id, &chain.events).await?;
    tracing::info!(tournament = %id, events = chain.events.len(), "tournament stepped");
    Ok(Some(created))
}

/// The events of the next step due, its other writes made; `None` when
/// nothing is due.
async fn next_step(
    conn: &mut Conn,
    row: &mut TournamentRow,
    rounds: &[RoundRow],
    t: &Replayed,
    at: DateTime<Utc>,
    created: &mut Moved,
) -> Result<Option<Vec<TournamentEvent>>, Failure> {
    if t.seed.is_some() {
        return Ok(None);
    }
    let Some(entrants) = &t.entrants else {
        if rounds.first().is_none_or(|r| r.starts_at > at) {
            return Ok(None);
        }
        return start(conn, row, t, at, &mut created.told).await.map(Some);
    };
    let n = entrants.len();
    let c = &t.created;
    if !t.between_rounds() {
        return score(conn, row, t, n).await;
    }
    let played = t.played();
    let Some(pairing) = schedule::next(c.format, c.table_size, n, c.rounds, &played) else {
        let last = t
            .rounds
            .last()
            .and_then(|r| r.standings.clone())
            .unwrap_or_else(|| standings(n, &played));
        tournaments::set_status(conn, row.id, "finished").await?;
        row.status = "finished".to_owned();
        for (game, notes) in told::ended(about(row), entrants, &last, &t.rounds) {
            let noted =
                notifications::insert(conn, game, &crate::notifications::rows(&notes)?, at).await?;
            created.told.extend(noted);
        }
        return Ok(Some(vec![TournamentEvent::TournamentFinished {
            standings: last,
            seed: row.seed.clone(),
        }]));
    };
    let r = t.rounds.len();
    if rounds.get(r).is_none_or(|times| times.starts_at > at) {
        return Ok(None);
    }
    pair(conn, row, entrants, r, &pairing, at, &mut created.games)
        .await
        .map(Some)
}

/// What every notification of tournament `row` names.
fn about(row: &TournamentRow) -> told::About<'_> {
    told::About {
        tournament: row.id,
        name: &row.name,
        ruleset: &row.ruleset,
    }
}

/// Starts (or cancels) a tournament whose first round is due.
async fn start(
    conn: &mut Conn,
    row: &mut TournamentRow,
    t: &Replayed,
    at: DateTime<Utc>,
    told: &mut Vec<Noted>,
) -> Result<Vec<TournamentEvent>, Failure> {
    if t.registered.len() < t.created.table_size.max(2) {
        tournaments::set_status(conn, row.id, "cancelled").await?;
        row.status = "cancelled".to_owned();
        let notes = told::cancelled(about(row), &t.registered);
        told.extend(
            notifications::insert(conn, None, &crate::notifications::rows(&notes)?, at).await?,
        );
        return Ok(vec![TournamentEvent::Cancelled {
            registered: u32::try_from(t.registered.len()).unwrap_or(u32::MAX),
            seed: row.seed.clone(),
        }]);
    }
    let ratings = crate::db::ratings::of_users(conn, &t.registered).await?;
    let method = crate::ratings::Method::of(t.created.table_size);
    let rating = |user: &Uuid| {
        ratings
            .iter()
            .find(|r| {
                r.user_id == *user
                    && r.ruleset == row.ruleset
                    && i32::from(r.players) == i32::from(row.table_size)
            })
            .map_or(method.start().rating, |r| r.rating)
    };
    let ratings: Vec<f64> = t.registered.iter().map(rating).collect();
    let order = super::seeding::order(&ratings);
    let entrants: Vec<Uuid> = order.iter().map(|&i| t.registered[i]).collect();
    let ratings: Vec<f64> = order.iter().map(|&i| ratings[i]).collect();
    tournaments::set_entrants(conn, row.id, &entrants).await?;
    tournaments::set_status(conn, row.id, "running").await?;
    row.status = "running".to_owned();
    Ok(vec![TournamentEvent::Started { entrants, ratings }])
}

/// The server options of every tournament table: a turn clock of
/// [`TURN_TIMEOUT`], a timed-out turn played by the server when the
/// organiser lets bots substitute (else the seat forfeits), no pauses, no
/// substitutes, no bot seats, rated, and watched only by its players until
/// its round is scored (then by anyone with its address, see
/// `games::watchers`).
#[must_use]
pub fn table_options(bots_substitute: bool) -> Value {
    let options = ServerOptions {
        turn_timeout: Some(TURN_TIMEOUT.to_owned()),
        on_timeout: if bots_substitute {
            OnTimeout::Autoplay
        } else {
            OnTimeout::Forfeit
        },
        humans_only: true,
        spectators: Some(Spectators::Players),
        rated: Some(true),
        substitutes: Some(false),
        pauses: false,
        ..ServerOptions::default()
    };
    serde_json::to_value(options).unwrap_or(Value::Null)
}

/// Pairs round `r` and creates its tables' games.
async fn pair(
    conn: &mut Conn,
    row: &TournamentRow,
    entrants: &[Uuid],
    r: usize,
    pairing: &super::pairing::Pairing,
    at: DateTime<Utc>,
    created: &mut Vec<(LoadedGame, Vec<Noted>)>,
) -> Result<Vec<TournamentEvent>, Failure> {
    let kind = GameKind::from_id(&row.ruleset)
        .ok_or_else(|| Failure::internal(format!("unknown ruleset {}", row.ruleset)))?;
    let round = u32::try_from(r).map_err(Failure::internal)?;
    let names = tournaments::entries_named(conn, row.id).await?;
    let name = |user: Uuid| {
        names
            .iter()
            .find(|(e, _)| e.user_id == user)
            .map(|(_, n)| n.clone())
            .unwrap_or_default()
    };
    let mut events = vec![TournamentEvent::RoundPaired {
        round,
        tables: pairing.tables.clone(),
        byes: pairing.byes.clone(),
    }];
    let mut rows = Vec::with_capacity(pairing.tables.len());
    for (table, seats) in pairing.tables.iter().enumerate() {
        let options = if row.duplicate {
            let seed = duplicate::round_seed(&row.seed, round);
            let deals = duplicate::deals(kind, &row.options, seats.len(), &seed)
                .map_err(|e| Failure::internal(format!("{e:?}")))?;
            duplicate::with_deals(&row.options, deals)
        } else {
            row.options.clone()
        };
        let users: Vec<Uuid> = seats.iter().map(|&e| entrants[e]).collect();
        let players: Vec<Player> = seats
            .iter()
            .map(|&e| Player {
                user_id: entrants[e],
                username: name(entrants[e]),
                bot: false,
            })
            .collect();
        let seated = Seated {
            kind,
            rules: Rules::newest(kind),
            options,
            server_options: table_options(row.bots_substitute),
            private: true,
            created_by: players[0].user_id,
            players,
        };
        let (game, mut told) = crate::games::seated::create(conn, seated, at).await?;
        let notes = told::table_ready(about(row), round, game.game.id, &users);
        told.extend(
            notifications::insert(
                conn,
                Some(game.game.id),
                &crate::notifications::rows(&notes)?,
                at,
            )
            .await?,
        );
        let table = u32::try_from(table).map_err(Failure::internal)?;
        events.push(TournamentEvent::TableCreated {
            round,
            table,
            game_id: game.game.id,
        });
        rows.push(TableRow {
            tournament_id: row.id,
            round: i32::try_from(round).map_err(Failure::internal)?,
            table_no: i32::try_from(table).map_err(Failure::internal)?,
            entrants: seats
                .iter()
                .map(|&e| i32::try_from(e).unwrap_or(i32::MAX))
                .collect(),
            game_id: Some(game.game.id),
            points: None,
        });
        created.push((game, told));
    }
    tournaments::insert_tables(conn, &rows).await?;
    tournaments::mark_round(
        conn,
        row.id,
        i32::try_from(round).map_err(Failure::internal)?,
        false,
        at,
    )
    .await?;
    Ok(events)
}

/// Scores the round in play once every table's game is over.
async fn score(
    conn: &mut Conn,
    row: &TournamentRow,
    t: &Replayed,
    n: usize,
) -> Result<Option<Vec<TournamentEvent>>, Failure> {
    let Some(current) = t.rounds.last() else {
        return Ok(None);
    };
    let r = t.rounds.len() - 1;
    let ids: Vec<Uuid> = current.tables.iter().filter_map(|t| t.game_id).collect();
    let outcomes = tournaments::game_outcomes(conn, &ids).await?;
    let mut ended = Vec::with_capacity(ids.len());
    for (seats, table) in current.pairing.tables.iter().zip(&current.tables) {
        let Some((_, state, result)) = outcomes
            .iter()
            .find(|(id, _, _)| Some(*id) == table.game_id)
        else {
            return Err(Failure::internal("a tournament table's game is missing"));
        };
        if state != status::FINISHED && state != status::ABANDONED {
            return Ok(None);
        }
        ended.push(Outcome {
            seats: seats.len(),
            result: result.clone().filter(|_| state == status::FINISHED),
        });
    }
    let kind = GameKind::from_id(&row.ruleset)
        .ok_or_else(|| Failure::internal(format!("unknown ruleset {}", row.ruleset)))?;
    let points = round_points(kind, &row.options, row.duplicate, &ended)
        .map_err(|e| Failure::internal(format!("scoring: {}", e.0)))?;
    let round = u32::try_from(r).map_err(Failure::internal)?;
    let mut events = Vec::new();
    let mut played = t.played();
    let mut this = PlayedRound {
        tables: Vec::new(),
        byes: current.pairing.byes.clone(),
    };
    for (table, ((seats, outcome), points)) in current
        .pairing
        .tables
        .iter()
        .zip(&ended)
        .zip(points)
        .enumerate()
    {
        let table = u32::try_from(table).map_err(Failure::internal)?;
        let stored: Vec<i32> = points
            .iter()
            .map(|p| i32::try_from(p.0).unwrap_or(i32::MAX))
            .collect();
        tournaments::set_points(
            conn,
            row.id,
            i32::try_from(round).map_err(Failure::internal)?,
            i32::try_from(table).map_err(Failure::internal)?,
            &stored,
        )
        .await?;
        events.push(TournamentEvent::TableFinished {
            round,
            table,
            game_id: current.tables[table as usize].game_id.unwrap_or_default(),
            result: outcome.result.clone().unwrap_or(Value::Null),
            points: points.clone(),
        });
        this.tables.push(PlayedTable {
            seats: seats.clone(),
            points,
        });
    }
    played.push(this);
    events.push(TournamentEvent::RoundScored {
        round,
        standings: standings(n, &played),
    });
    tournaments::mark_round(
        conn,
        row.id,
        i32::try_from(round).map_err(Failure::internal)?,
        true,
        now(),
    )
    .await?;
    Ok(Some(events))
}
