//! Seeking by strength: an open table may set `options.rating_min` and
//! `options.rating_max`; a player whose rating in the game's pool (a
//! newcomer's: the method's start) lies outside may not join
//! (`rating_out_of_range`, 403).

use uuid::Uuid;

use super::maths::Method;
use crate::db::games::GameRow;
use crate::db::{self, Conn};
use crate::error::{ErrorCode, Failure};

/// Whether `rating` lies in `[min, max]` (either end open when unset).
#[must_use]
pub fn fits(rating: f64, min: Option<f64>, max: Option<f64>) -> bool {
    min.is_none_or(|lo| rating >= lo) && max.is_none_or(|hi| rating <= hi)
}

/// Refuses `user` a seat at `game` when the table's range (its options'
/// `rating_min`, `rating_max`) leaves them out.
///
/// # Errors
/// `rating_out_of_range`; database errors.
pub async fn check(
    conn: &mut Conn,
    game: &GameRow,
    range: (Option<f64>, Option<f64>),
    user: Uuid,
) -> Result<(), Failure> {
    let (rating_min, rating_max) = range;
    if rating_min.is_none() && rating_max.is_none() {
        return Ok(());
    }
    let method = Method::of(usize::try_from(game.players).unwrap_or(0));
    let rating = db::ratings::of_users(conn, &[user])
        .await?
        .into_iter()
        .find(|r| r.ruleset == game.ruleset && r.players == game.players)
        .map_or(method.start().rating, |r| r.rating);
    if fits(rating, rating_min, rating_max) {
        return Ok(());
    }
    Err(Failure::new(
        ErrorCode::RatingOutOfRange,
        format!(
            "this table seeks ratings {} to {}; yours here is {rating:.1}",
            rating_min.map_or("any".to_owned(), |r| r.to_string()),
            rating_max.map_or("any".to_owned(), |r| r.to_string()),
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::fits;

    #[test]
    fn given_a_range_when_a_rating_is_checked_then_both_ends_are_inside() {
        assert!(fits(1500.0, Some(1500.0), Some(1600.0)));
        assert!(fits(1600.0, Some(1500.0), Some(1600.0)));
        assert!(!fits(1499.9, Some(1500.0), None));
        assert!(!fits(1600.1, None, Some(1600.0)));
        assert!(fits(3.0, None, None));
    }
}
