//! A tournament's audit: its record, its seed and every table's game audit
//! in one document, published once the tournament is over (it reveals the
//! seed, and so every deal); `hatstand verify` checks it offline
//! ([`super::verify`]).

use uuid::Uuid;

use super::read;
use super::replay::replay;
use super::verify::{FORMAT, TableAudit, TournamentAudit};
use crate::context::Context;
use crate::db::tournaments;
use crate::error::{ErrorCode, Failure};
use crate::record::verify::AuditEvent;

/// The audit of tournament `id`.
///
/// The tables' game audits are those of `GET /v1/games/{id}/audit`,
/// unsigned (each can be fetched signed on its own).
///
/// # Errors
/// `not_found`, `tournament_not_over` while it is registering or running;
/// database errors.
pub async fn audit(ctx: &Context, id: Uuid) -> Result<TournamentAudit, Failure> {
    let mut conn = ctx.pool.get().await?;
    let row = tournaments::find(&mut conn, id)
        .await?
        .ok_or_else(|| Failure::not_found("no such tournament"))?;
    if !matches!(row.status.as_str(), "finished" | "cancelled") {
        return Err(Failure::new(
            ErrorCode::TournamentNotOver,
            "a tournament's audit reveals its seed and every deal: it is published once the tournament is over",
        ));
    }
    let record = tournaments::record(&mut conn, id).await?;
    let events = read::parsed(&record)?;
    let t = replay(&events).map_err(|broken| Failure::internal(broken.0))?;
    let mut games = Vec::new();
    for (r, round) in t.rounds.iter().enumerate() {
        for (i, table) in round.tables.iter().enumerate() {
            if let Some(game) = table.game_id {
                games.push(TableAudit {
                    round: u32::try_from(r).map_err(Failure::internal)?,
                    table: u32::try_from(i).map_err(Failure::internal)?,
                    audit: crate::games::audit::audit_on(&mut conn, game).await?,
                });
            }
        }
    }
    Ok(TournamentAudit {
        format: FORMAT.to_owned(),
        tournament_id: id,
        status: row.status,
        seed_commitment: row.seed_commitment,
        seed: row.seed,
        events: record.iter().map(AuditEvent::from).collect(),
        games,
    })
}
