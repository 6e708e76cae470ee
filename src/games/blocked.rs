//! Blocks at the table (docs/seats.md, `accounts::blocks`): two users of
//! whom one blocks the other never sit at one table that has not started,
//! and a blocked user's invitation never reaches the blocker.

use uuid::Uuid;

use crate::db::games::LoadedGame;
use crate::db::{Conn, blocks};
use crate::error::{ErrorCode, Failure};
use crate::record::server_event::Invitee;

/// `seat_refused`: the same words whoever blocked whom, so the blocked
/// user is not told.
fn refused() -> Failure {
    Failure::new(
        ErrorCode::SeatRefused,
        "you cannot take a seat at this table with one of its players",
    )
}

/// Whether `user` may sit at `loaded` (not started) with its players:
/// neither blocks any of the others.
///
/// # Errors
/// `seat_refused`.
pub async fn check_table(conn: &mut Conn, loaded: &LoadedGame, user: Uuid) -> Result<(), Failure> {
    let others: Vec<Uuid> = loaded
        .seats
        .iter()
        .filter(|s| s.user_id != user)
        .map(|s| s.user_id)
        .collect();
    let (blocks, blocked) = blocks::between(conn, user, &others).await?;
    if blocks || blocked {
        return Err(refused());
    }
    Ok(())
}

/// Of the `invitees` of a game `creator` makes: those to tell. An invitee
/// who blocks the creator is left out (not invited, told or shown the
/// game) without the creator being told: their invitation reads as one
/// not answered.
///
/// # Errors
/// `seat_refused` when the creator blocks an invitee (they are told:
/// they know whom they block).
pub async fn invitees_to_tell(
    conn: &mut Conn,
    creator: Uuid,
    invitees: &[Invitee],
) -> Result<Vec<Invitee>, Failure> {
    let mut told = Vec::with_capacity(invitees.len());
    for invitee in invitees {
        let (blocks, blocked) =
            blocks::between(conn, creator, std::slice::from_ref(&invitee.user_id)).await?;
        if blocks {
            return Err(Failure::new(
                ErrorCode::SeatRefused,
                format!(
                    "you block {}: unblock them to invite them",
                    invitee.username
                ),
            ));
        }
        if !blocked {
            told.push(invitee.clone());
        }
    }
    Ok(told)
}
