//! A tournament's audit, checked offline (`hatstand verify`): every step of
//! the record recomputed from the record itself, the revealed seed and the
//! tables' own game audits. Nothing here trusts the server.
//!
//! Checked in order; the first problem found is the answer:
//! 1. the document's format and the record's hash chain (as a game's);
//! 2. the record folds ([`super::replay`]) and the tournament is over;
//! 3. the seed opens the commitment published at creation;
//! 4. a cancelled tournament had too few players to start; otherwise the
//!    field is exactly the players registered, in the seed order
//!    [`super::seeding`] gives from the ratings recorded at the start;
//! 5. every round's pairing is [`super::schedule::next`] of the rounds
//!    scored before it, and after the last round the rules have no next;
//! 6. every table's game audit verifies on its own ([`record::verify`]:
//!    chain, seed, every command replayed, result), is that table's game,
//!    seats the table's players in seat order and plays the tournament's
//!    options, in duplicate mode with the round's deals drawn from the
//!    revealed seed ([`super::duplicate`]);
//! 7. each table's recorded result is its game's, and the points of a
//!    round are [`super::results::round_points`] of its results;
//! 8. the standings after each round and at the end are
//!    [`super::standings::standings`] of the rounds scored.

use hatstand_engine::GameKind;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::record::TournamentEvent;
use super::replay::{Replayed, replay};
use super::results::{Outcome, round_points};
use super::standings::{PlayedRound, standings};
use super::{duplicate, schedule, seeding};
use crate::record::chain::LoggedEvent;
use crate::record::server_event::{GameCreated, PlayerJoined};
use crate::record::verify::{self as record, AuditDocument, AuditEvent, check_chain};

/// The `format` of a tournament's audit document.
pub const FORMAT: &str = "hatstand-tournament-audit/1";

/// A tournament's whole record, its seed and every table's game audit:
/// what `GET /v1/tournaments/{id}/audit` answers once the tournament is
/// over, and what `hatstand verify` checks.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentAudit {
    /// `hatstand-tournament-audit/1`.
    pub format: String,
    pub tournament_id: Uuid,
    /// `finished` or `cancelled`.
    pub status: String,
    /// `hex(SHA-256(seed))`, published at creation.
    pub seed_commitment: String,
    /// The seed, revealed at the end.
    pub seed: String,
    /// The tournament's record, hash-chained as a game's.
    pub events: Vec<AuditEvent>,
    /// Every table's game audit, in round and table order.
    pub games: Vec<TableAudit>,
}

/// One table's game audit.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TableAudit {
    /// The round (0-based).
    pub round: u32,
    /// The table in its round (0-based).
    pub table: u32,
    pub audit: AuditDocument,
}

/// What a verified tournament audit established.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    pub events: usize,
    pub entrants: usize,
    pub rounds: usize,
    pub tables: usize,
    /// The commands replayed across the tables' games.
    pub commands: usize,
    /// The deals drawn again from the seed and found at the tables.
    pub deals: usize,
    pub cancelled: bool,
}

/// Verifies a tournament's audit document (see the module documentation).
///
/// # Errors
/// The first problem found, saying where.
pub fn verify(doc: &TournamentAudit) -> Result<Verified, String> {
    if doc.format != FORMAT {
        return Err(format!("not a {FORMAT} document"));
    }
    let logged: Vec<LoggedEvent> = doc.events.iter().map(LoggedEvent::from).collect();
    check_chain(&logged)?;
    let events: Vec<TournamentEvent> = logged
        .iter()
        .enumerate()
        .map(|(i, e)| {
            TournamentEvent::from_parts(&e.kind, &e.data)
                .map_err(|why| format!("event {}: {why}", i + 1))
        })
        .collect::<Result<_, _>>()?;
    let t = replay(&events).map_err(|broken| broken.0)?;
    check_seed(doc, &t)?;
    let c = &t.created;
    let kind = GameKind::from_id(&c.ruleset)
        .ok_or_else(|| format!("event 1: an unknown ruleset {:?}", c.ruleset))?;
    let mut verified = Verified {
        events: events.len(),
        entrants: 0,
        rounds: 0,
        tables: 0,
        commands: 0,
        deals: 0,
        cancelled: t.cancelled,
    };
    if t.cancelled {
        if t.registered.len() >= c.table_size.max(2) {
            return Err("cancelled although enough players had registered to start".to_owned());
        }
        if !doc.games.is_empty() {
            return Err("a cancelled tournament with games".to_owned());
        }
        return Ok(verified);
    }
    let entrants = t.entrants.as_deref().ok_or("finished without a start")?;
    check_field(&t.registered, entrants, &events)?;
    verified.entrants = entrants.len();
    let played = t.played();
    if played.len() != t.rounds.len() {
        return Err("a round was paired and never scored".to_owned());
    }
    for r in 0..t.rounds.len() {
        check_round(doc, &t, kind, &played, r, &mut verified)?;
    }
    let n = entrants.len();
    if schedule::next(c.format, c.table_size, n, c.rounds, &played).is_some() {
        return Err(format!(
            "finished after {} rounds, where the rules pair another",
            played.len()
        ));
    }
    if t.standings != Some(standings(n, &played)) {
        return Err("the final standings are not those of the rounds scored".to_owned());
    }
    if doc.games.len() != verified.tables {
        return Err("the document holds games that are no table of the tournament".to_owned());
    }
    verified.rounds = t.rounds.len();
    Ok(verified)
}

/// The seed opens the commitment published at creation and is the one the
/// record revealed.
fn check_seed(doc: &TournamentAudit, t: &Replayed) -> Result<(), String> {
    if t.created.seed_commitment != doc.seed_commitment {
        return Err(
            "event 1: the commitment published at creation is not the document's".to_owned(),
        );
    }
    if !duplicate::opens(&doc.seed_commitment, &doc.seed) {
        return Err("the seed does not match the seed commitment".to_owned());
    }
    match &t.seed {
        None => Err(
            "the tournament is not over: its record ends before the seed is revealed".to_owned(),
        ),
        Some(seed) if *seed != doc.seed => {
            Err("the seed the record revealed is not the document's".to_owned())
        }
        Some(_) => Ok(()),
    }
}

/// The field is the players registered, seeded by their recorded ratings.
fn check_field(
    registered: &[Uuid],
    entrants: &[Uuid],
    events: &[TournamentEvent],
) -> Result<(), String> {
    let ratings = events
        .iter()
        .find_map(|e| match e {
            TournamentEvent::Started { ratings, .. } => Some(ratings.as_slice()),
            _ => None,
        })
        .unwrap_or_default();
    let mut sorted_field = entrants.to_vec();
    let mut sorted_registered = registered.to_vec();
    sorted_field.sort_unstable();
    sorted_registered.sort_unstable();
    if sorted_field != sorted_registered {
        return Err("started: the field is not the players registered".to_owned());
    }
    if ratings.len() != entrants.len() {
        return Err("started: not one rating per entrant".to_owned());
    }
    // Each registered player's rating, in registration order.
    let rated: std::collections::HashMap<Uuid, f64> = entrants
        .iter()
        .copied()
        .zip(ratings.iter().copied())
        .collect();
    let by_registration: Vec<f64> = registered.iter().map(|u| rated[u]).collect();
    let seeded: Vec<Uuid> = seeding::order(&by_registration)
        .into_iter()
        .map(|i| registered[i])
        .collect();
    if seeded != entrants {
        return Err("started: the field is not seeded by rating, then registration".to_owned());
    }
    Ok(())
}

/// Round `r`: its pairing, its tables' games, points and standings.
fn check_round(
    doc: &TournamentAudit,
    t: &Replayed,
    kind: GameKind,
    played: &[PlayedRound],
    r: usize,
    verified: &mut Verified,
) -> Result<(), String> {
    let c = &t.created;
    let entrants = t.entrants.as_deref().unwrap_or_default();
    let n = entrants.len();
    let round = &t.rounds[r];
    let shown = r + 1;
    if schedule::next(c.format, c.table_size, n, c.rounds, &played[..r]).as_ref()
        != Some(&round.pairing)
    {
        return Err(format!(
            "round {shown}: the pairing is not the one the rules give after the rounds before it"
        ));
    }
    let round_seed = duplicate::round_seed(&doc.seed, u32::try_from(r).unwrap_or(u32::MAX));
    let mut outcomes = Vec::with_capacity(round.tables.len());
    for (i, (seats, table)) in round.pairing.tables.iter().zip(&round.tables).enumerate() {
        let at = format!("round {shown} table {}", i + 1);
        let game_id = table
            .game_id
            .ok_or_else(|| format!("{at}: no game was created"))?;
        let audit = &doc
            .games
            .iter()
            .find(|g| g.round as usize == r && g.table as usize == i)
            .ok_or_else(|| format!("{at}: its game's audit is missing"))?
            .audit;
        if audit.game_id != game_id {
            return Err(format!(
                "{at}: the audit is of another game than the table's"
            ));
        }
        let game = record::verify(audit).map_err(|why| format!("{at}: game {game_id}: {why}"))?;
        verified.commands += game.commands;
        verified.tables += 1;
        let (options, players) = opening(audit).map_err(|why| format!("{at}: {why}"))?;
        let seated: Vec<Uuid> = seats.iter().map(|&e| entrants[e]).collect();
        if players != seated {
            return Err(format!(
                "{at}: the game seats other players than the pairing"
            ));
        }
        let expected = if c.duplicate {
            let deals = duplicate::deals(kind, &c.options, seats.len(), &round_seed)
                .map_err(|e| format!("{at}: the deals cannot be drawn: {e:?}"))?;
            verified.deals += deals.as_array().map_or(0, Vec::len);
            duplicate::with_deals(&c.options, deals)
        } else {
            c.options.clone()
        };
        if options != expected {
            return Err(format!(
                "{at}: the game's options are not the tournament's{}",
                if c.duplicate {
                    " with the round's deals"
                } else {
                    ""
                }
            ));
        }
        let result = match audit.status.as_str() {
            "finished" => Some(
                audit
                    .result
                    .clone()
                    .ok_or_else(|| format!("{at}: a finished game without a result"))?,
            ),
            "abandoned" => None,
            other => return Err(format!("{at}: the game is {other}, not over")),
        };
        let (recorded, _) = table
            .finished
            .as_ref()
            .ok_or_else(|| format!("{at}: never finished"))?;
        if *recorded != result.clone().unwrap_or(Value::Null) {
            return Err(format!("{at}: the result recorded is not the game's"));
        }
        outcomes.push(Outcome {
            seats: seats.len(),
            result,
        });
    }
    let points = round_points(kind, &c.options, c.duplicate, &outcomes)
        .map_err(|e| format!("round {shown}: the results cannot be scored: {}", e.0))?;
    for (i, (table, points)) in round.tables.iter().zip(points).enumerate() {
        if table.finished.as_ref().map(|(_, p)| p) != Some(&points) {
            return Err(format!(
                "round {shown} table {}: the points recorded are not the results'",
                i + 1
            ));
        }
    }
    if round.standings != Some(standings(n, &played[..=r])) {
        return Err(format!(
            "round {shown}: the standings are not those of the points"
        ));
    }
    Ok(())
}

/// A game's options and its players in seat order, from its audit's
/// `game_created` and `player_joined` events.
fn opening(audit: &AuditDocument) -> Result<(Value, Vec<Uuid>), String> {
    let first = audit.events.first().ok_or("an empty game")?;
    let created: GameCreated = serde_json::from_value(first.data.clone())
        .map_err(|e| format!("event 1 of the game: {e}"))?;
    let mut seats: Vec<Option<Uuid>> = vec![None; usize::from(created.players)];
    for event in audit.events.iter().filter(|e| e.kind == "player_joined") {
        let joined: PlayerJoined = serde_json::from_value(event.data.clone())
            .map_err(|e| format!("event {} of the game: {e}", event.seq))?;
        let seat = seats
            .get_mut(usize::from(joined.seat))
            .ok_or("a player joined a seat the game does not have")?;
        if seat.replace(joined.user_id).is_some() {
            return Err("a seat joined twice".to_owned());
        }
    }
    let players = seats
        .into_iter()
        .collect::<Option<Vec<_>>>()
        .ok_or("a seat nobody joined")?;
    Ok((created.options, players))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::chain::{Actor, Chain, GENESIS_HASH, now};

    /// A tournament of `players` registered, cancelled at its start.
    fn cancelled(players: u128) -> TournamentAudit {
        let seed = "ab".repeat(32);
        let mut chain = Chain::after(0, GENESIS_HASH, now());
        let mut events = vec![TournamentEvent::TournamentCreated {
            organiser: Uuid::nil(),
            name: "t".to_owned(),
            ruleset: "hats".to_owned(),
            options: serde_json::json!({}),
            table_size: 2,
            format: "swiss".to_owned(),
            rounds: 1,
            duplicate: true,
            seed_commitment: duplicate::commitment(&seed),
        }];
        events.extend((1..=players).map(|u| TournamentEvent::Registered {
            user_id: Uuid::from_u128(u),
        }));
        events.push(TournamentEvent::Cancelled {
            registered: u32::try_from(players).unwrap(),
            seed: seed.clone(),
        });
        for event in &events {
            event.push_to(&mut chain, Actor::SYSTEM).unwrap();
        }
        TournamentAudit {
            format: FORMAT.to_owned(),
            tournament_id: Uuid::nil(),
            status: "cancelled".to_owned(),
            seed_commitment: duplicate::commitment(&seed),
            seed,
            events: chain.events.iter().map(AuditEvent::from).collect(),
            games: Vec::new(),
        }
    }

    #[test]
    fn given_a_tournament_cancelled_with_one_player_then_it_verifies() {
        let verified = verify(&cancelled(1)).unwrap();
        assert!(verified.cancelled);
        assert_eq!(verified.events, 3);
    }

    #[test]
    fn given_a_cancellation_with_enough_players_to_start_then_it_is_refused() {
        let said = verify(&cancelled(2)).unwrap_err();
        assert!(said.contains("enough players"), "{said}");
    }

    #[test]
    fn given_another_format_or_seed_then_it_is_refused() {
        let mut doc = cancelled(1);
        doc.format = "hatstand-audit/1".to_owned();
        assert!(
            verify(&doc)
                .unwrap_err()
                .contains("not a hatstand-tournament-audit/1")
        );
        let mut doc = cancelled(1);
        doc.seed = "cd".repeat(32);
        assert!(verify(&doc).unwrap_err().contains("seed does not match"));
    }
}
