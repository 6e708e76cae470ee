//! The cap on games at once (docs/seats.md): a user holds a seat in at most
//! `--seats-at-once` games open or in play, however they took the seats
//! (the lobby, an invitation, a rematch, and tournaments when they come).
//! Bot accounts are not capped. The count is taken under a lock on the
//! user's row, so two seats taken at once at the cap are counted one after
//! the other: exactly one is refused.

use uuid::Uuid;

use crate::db::{Conn, seat_holds};
use crate::error::{ErrorCode, Failure};

/// In the transaction that seats `user`, after their new seat is written:
/// refuses it (the transaction is to roll back) when they now hold more
/// than `most` (`most` 0: no cap). Holds the user's row locked until the
/// transaction ends.
///
/// # Errors
/// `too_many_games`; `unauthenticated` when the user is gone.
pub async fn check(conn: &mut Conn, user: Uuid, most: i64) -> Result<(), Failure> {
    if most <= 0 {
        return Ok(());
    }
    let holds = seat_holds::lock_and_count(conn, user)
        .await?
        .ok_or_else(|| Failure::unauthenticated("the account no longer exists"))?;
    if !holds.bot && holds.seats > most {
        return Err(too_many(holds.seats - 1, most));
    }
    Ok(())
}

/// `too_many_games`, for a user holding `seats` of `most`.
fn too_many(seats: i64, most: i64) -> Failure {
    Failure::new(
        ErrorCode::TooManyGames,
        format!(
            "you hold a seat in {seats} games open or in play, and this server allows {most} at once: finish or leave one first"
        ),
    )
}

/// As [`check`] for several users seated at once (a rematch seats them all),
/// locked in id order so that two such checks never wait on each other in
/// a circle; the refusal names whose cap it is.
///
/// # Errors
/// `too_many_games`; `unauthenticated` when one is gone.
pub async fn check_all(
    conn: &mut Conn,
    users: &[(Uuid, String)],
    most: i64,
) -> Result<(), Failure> {
    if most <= 0 {
        return Ok(());
    }
    let mut sorted: Vec<&(Uuid, String)> = users.iter().collect();
    sorted.sort_by_key(|(id, _)| *id);
    sorted.dedup_by_key(|(id, _)| *id);
    for (id, name) in sorted {
        let holds = seat_holds::lock_and_count(conn, *id)
            .await?
            .ok_or_else(|| Failure::unauthenticated("an account no longer exists"))?;
        if !holds.bot && holds.seats > most {
            return Err(Failure::new(
                ErrorCode::TooManyGames,
                format!(
                    "{name} holds a seat in {} games open or in play, and this server allows {most} at once",
                    holds.seats - 1
                ),
            ));
        }
    }
    Ok(())
}
