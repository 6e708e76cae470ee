//! Creating a tournament: the settings checked ([`super::settings`]), the
//! tables' options checked by the ruleset at the table size, a secret seed
//! drawn and committed, and the tournament, its rounds and the first event
//! of its record (`tournament_created`) written in one transaction.

use diesel_async::AsyncConnection;
use hatstand_engine::{GameKind, with_ruleset};
use serde_json::Value;
use uuid::Uuid;

use super::duplicate;
use super::read::{self, TournamentWithField};
use super::record::TournamentEvent;
use super::settings::NewTournament;
use crate::auth::Caller;
use crate::context::Context;
use crate::db::tournaments::{self, RoundRow, TournamentRow};
use crate::error::Failure;
use crate::record::chain::{Actor, Chain, GENESIS_HASH, now};
use crate::record::codec::parse_options;

/// A fresh secret seed: 32 random bytes as hex.
fn secret_seed() -> String {
    let mut bytes = [0u8; 32];
    rand::fill(&mut bytes);
    hex::encode(bytes)
}

/// Creates a tournament organised by `caller`.
///
/// # Errors
/// `not_found` (ruleset), `bad_request` (options not an object),
/// `invalid_options`, `invalid_tournament`; database errors. Nothing is
/// written on any of them.
pub async fn create(
    ctx: &Context,
    caller: &Caller,
    request: NewTournament,
) -> Result<TournamentWithField, Failure> {
    let kind = GameKind::from_id(&request.ruleset)
        .ok_or_else(|| Failure::not_found(format!("there is no ruleset {:?}", request.ruleset)))?;
    let options = match &request.options {
        Value::Null => Value::Object(serde_json::Map::new()),
        Value::Object(_) => request.options.clone(),
        _ => return Err(Failure::bad_request("options must be a JSON object")),
    };
    let at = now();
    request.check(at, duplicate::supports(kind))?;
    let players = usize::from(request.table_size);
    let mut options = with_ruleset!(kind, |R| {
        let parsed = parse_options::<R>(options, players)?;
        serde_json::to_value(parsed).map_err(Failure::internal)
    })?;
    // The tables' deals are drawn per round (duplicate) or by each game.
    if let Value::Object(map) = &mut options {
        map.remove("deals");
    }
    let seed = secret_seed();
    let id = Uuid::new_v4();
    let mut chain = Chain::after(0, GENESIS_HASH, at);
    TournamentEvent::TournamentCreated {
        organiser: caller.user_id,
        name: request.name.trim().to_owned(),
        ruleset: kind.id().to_owned(),
        options: crate::games::public::public_options(&options, None),
        table_size: request.table_size,
        format: request.format.as_str().to_owned(),
        rounds: u32::try_from(request.schedule.len()).unwrap_or(u32::MAX),
        duplicate: request.duplicate,
        seed_commitment: duplicate::commitment(&seed),
    }
    .push_to(
        &mut chain,
        Actor {
            user: Some(caller.user_id),
            seat: None,
        },
    )
    .map_err(Failure::internal)?;
    let row = TournamentRow {
        id,
        organiser: caller.user_id,
        name: request.name.trim().to_owned(),
        ruleset: kind.id().to_owned(),
        options,
        table_size: i16::from(request.table_size),
        format: request.format.as_str().to_owned(),
        rounds: i32::try_from(request.schedule.len()).unwrap_or(i32::MAX),
        duplicate: request.duplicate,
        bots_substitute: request.bots_substitute,
        registration_opens: request.registration_opens,
        registration_closes: request.registration_closes,
        player_cap: i32::try_from(request.player_cap).unwrap_or(i32::MAX),
        min_rating: request.min_rating,
        min_reliability: request.min_reliability.map(i16::from),
        seed_commitment: duplicate::commitment(&seed),
        seed,
        status: "registering".to_owned(),
        version: chain.version(),
        last_hash: hex::decode(chain.last_hash()).map_err(Failure::internal)?,
        created_at: at,
    };
    let rounds: Vec<RoundRow> = request
        .schedule
        .iter()
        .enumerate()
        .map(|(r, times)| RoundRow {
            tournament_id: id,
            round: i32::try_from(r).unwrap_or(i32::MAX),
            starts_at: times.starts_at,
            deadline: times.deadline,
            paired_at: None,
            scored_at: None,
        })
        .collect();
    let mut conn = ctx.pool.get().await?;
    conn.transaction::<_, Failure, _>(async |conn| {
        tournaments::insert(conn, &row, &rounds, &chain.events).await?;
        Ok(())
    })
    .await?;
    tracing::info!(tournament = %id, "tournament created");
    Ok(TournamentWithField {
        tournament: read::shown(&row, &rounds, 0),
        entries: Vec::new(),
    })
}
