//! A tournament's rounds and standings as clients see them, read from its
//! record ([`super::replay`]).
//!
//! Rules:
//! - a round is `upcoming` until paired, `playing` until scored, then
//!   `scored`;
//! - while a round is `playing`, a table's game is shown only to the
//!   players seated at it (in duplicate mode every table holds the same
//!   cards; the games themselves stay hidden from everyone else until the
//!   round is scored, see `games::watchers`), and no table's points exist
//!   yet: they are all written when the round's last game ends;
//! - the standings are those after the last round scored (the final ones
//!   once the tournament is over), points in whole rounds (a win or a bye
//!   is 1).

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::points::Points;
use super::replay::{Replayed, replay};
use super::standings::Standing;
use crate::context::Context;
use crate::db::tournaments::{self, RoundRow};
use crate::error::Failure;

/// A player of the field.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Entrant {
    pub user_id: Uuid,
    pub username: String,
}

/// Where a round stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RoundStatus {
    Upcoming,
    Playing,
    Scored,
}

/// One table of a round.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TableView {
    pub table: u32,
    /// In seat order.
    pub players: Vec<Entrant>,
    /// The table's game: shown to its players, and to everyone once the
    /// round is scored.
    pub game_id: Option<Uuid>,
    /// Each seat's points (1 a whole round), once the round is scored.
    pub points: Option<Vec<f64>>,
}

/// One round.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RoundView {
    /// 0 for the first round.
    pub round: u32,
    pub starts_at: DateTime<Utc>,
    pub deadline: DateTime<Utc>,
    pub status: RoundStatus,
    pub tables: Vec<TableView>,
    /// The players sitting the round out (a bye scores a whole round).
    pub byes: Vec<Entrant>,
}

/// The rounds of a tournament.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Rounds {
    pub rounds: Vec<RoundView>,
}

/// One line of the standings.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StandingView {
    /// 1 for the leader; no two players share a rank (points, then
    /// Buchholz, then seed).
    pub rank: u32,
    pub user_id: Uuid,
    pub username: String,
    /// Whole rounds: a win or a bye is 1, a draw ½; a duplicate round gives
    /// the matchpoint share.
    pub points: f64,
    /// The sum of the points of everyone the player met.
    pub buchholz: f64,
    pub byes: u32,
}

/// The standings.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Standings {
    /// The round they follow (0 for the first); none before any is scored.
    pub after_round: Option<u32>,
    /// Whether they are final.
    pub final_standings: bool,
    pub standings: Vec<StandingView>,
}

fn whole(p: Points) -> f64 {
    f64::from(p.0) / 1000.0
}

/// The record of tournament `id` folded, its rounds' times and the
/// players' names.
async fn load(
    ctx: &Context,
    id: Uuid,
) -> Result<(Replayed, Vec<RoundRow>, Vec<(Uuid, String)>), Failure> {
    let mut conn = ctx.pool.get().await?;
    tournaments::find(&mut conn, id)
        .await?
        .ok_or_else(|| Failure::not_found("no such tournament"))?;
    let events = super::read::events(&mut conn, id).await?;
    let t = replay(&events).map_err(|e| Failure::internal(e.0))?;
    let rounds = tournaments::rounds(&mut conn, id).await?;
    let names = tournaments::entries_named(&mut conn, id)
        .await?
        .into_iter()
        .map(|(e, name)| (e.user_id, name))
        .collect();
    Ok((t, rounds, names))
}

fn entrant(t: &Replayed, names: &[(Uuid, String)], e: usize) -> Entrant {
    let user_id = t
        .entrants
        .as_ref()
        .and_then(|all| all.get(e).copied())
        .unwrap_or_default();
    Entrant {
        user_id,
        username: names
            .iter()
            .find(|(u, _)| *u == user_id)
            .map(|(_, n)| n.clone())
            .unwrap_or_default(),
    }
}

/// The rounds of tournament `id` as `viewer` (none: signed out) may see them.
///
/// # Errors
/// `not_found`; database errors.
pub async fn rounds(ctx: &Context, id: Uuid, viewer: Option<Uuid>) -> Result<Rounds, Failure> {
    let (t, times, names) = load(ctx, id).await?;
    let rounds = times
        .iter()
        .enumerate()
        .map(|(r, when)| {
            let played = t.rounds.get(r);
            let status = match played {
                None => RoundStatus::Upcoming,
                Some(p) if p.standings.is_none() => RoundStatus::Playing,
                Some(_) => RoundStatus::Scored,
            };
            let (tables, byes) = played.map_or_else(
                || (Vec::new(), Vec::new()),
                |p| {
                    let tables =
                        p.pairing
                            .tables
                            .iter()
                            .zip(&p.tables)
                            .enumerate()
                            .map(|(n, (seats, table))| {
                                let players: Vec<Entrant> =
                                    seats.iter().map(|&e| entrant(&t, &names, e)).collect();
                                let seated =
                                    viewer.is_some_and(|v| players.iter().any(|p| p.user_id == v));
                                TableView {
                                    table: u32::try_from(n).unwrap_or(u32::MAX),
                                    game_id: table
                                        .game_id
                                        .filter(|_| status == RoundStatus::Scored || seated),
                                    points: table.finished.as_ref().map(|(_, points)| {
                                        points.iter().copied().map(whole).collect()
                                    }),
                                    players,
                                }
                            })
                            .collect();
                    let byes = p
                        .pairing
                        .byes
                        .iter()
                        .map(|&e| entrant(&t, &names, e))
                        .collect();
                    (tables, byes)
                },
            );
            RoundView {
                round: u32::try_from(r).unwrap_or(u32::MAX),
                starts_at: when.starts_at,
                deadline: when.deadline,
                status,
                tables,
                byes,
            }
        })
        .collect();
    Ok(Rounds { rounds })
}

/// The standings of tournament `id`.
///
/// # Errors
/// `not_found`; database errors.
pub async fn standings(ctx: &Context, id: Uuid) -> Result<Standings, Failure> {
    let (t, _, names) = load(ctx, id).await?;
    let scored = t.rounds.iter().rposition(|r| r.standings.is_some());
    let lines: Vec<Standing> = t
        .standings
        .clone()
        .or_else(|| scored.and_then(|r| t.rounds[r].standings.clone()))
        .unwrap_or_default();
    Ok(Standings {
        after_round: scored.and_then(|r| u32::try_from(r).ok()),
        final_standings: t.standings.is_some(),
        standings: lines
            .iter()
            .map(|s| {
                let who = entrant(&t, &names, s.entrant);
                StandingView {
                    rank: u32::try_from(s.rank).unwrap_or(u32::MAX),
                    user_id: who.user_id,
                    username: who.username,
                    points: whole(s.points),
                    buchholz: whole(s.buchholz),
                    byes: u32::try_from(s.byes).unwrap_or(u32::MAX),
                }
            })
            .collect(),
    })
}
