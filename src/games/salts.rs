//! Seats' salts at the table (`record::salts` has the rule): the salt a
//! seat brings when it sits, checked or made, and the game's randomness
//! once the table is full.

use hatstand_engine::random::parse_salt;
use hatstand_engine::{Randomness, Rules};

use super::kind_of;
use crate::db::games::{GameRow, SeatRow};
use crate::error::{ErrorCode, Failure};
use crate::record::salts;

/// The rules a stored game is played under.
fn rules_of(game: &GameRow) -> Result<Rules, Failure> {
    let version = u16::try_from(game.rules_version).map_err(Failure::internal)?;
    Rules::of(kind_of(game)?, version).map_err(Failure::internal)
}

/// Whether `game` takes salts: its rules salt the shuffle and its seed is
/// not public.
///
/// # Errors
/// `internal` for a stored game with rules this build does not know.
pub fn takes_salts(game: &GameRow) -> Result<bool, Failure> {
    Ok(salts::takes_salts(rules_of(game)?, game.seed_public))
}

/// A seat's salt as it will be recorded: the one `sent` (checked), or one
/// the server makes (`true`: made by the server) when none was sent; `None`
/// in a game that takes no salts.
///
/// # Errors
/// `bad_salt`: not 64 lowercase hex digits, or sent to a game that takes none.
pub fn seat_salt(game: &GameRow, sent: Option<&str>) -> Result<Option<(String, bool)>, Failure> {
    let takes = takes_salts(game)?;
    match sent {
        None if takes => Ok(Some((salts::server_salt(), true))),
        None => Ok(None),
        Some(_) if !takes => Err(Failure::new(
            ErrorCode::BadSalt,
            if game.seed_public {
                "this game's seed is public: it takes no salts"
            } else {
                "this game's rules are from before salts: it takes none"
            },
        )),
        Some(text) => {
            check_format(text)?;
            Ok(Some((text.to_owned(), false)))
        }
    }
}

/// Refuses a salt that is not 64 lowercase hex digits.
///
/// # Errors
/// `bad_salt`.
pub fn check_format(text: &str) -> Result<(), Failure> {
    match parse_salt(text) {
        Some(_) => Ok(()),
        None => Err(Failure::new(
            ErrorCode::BadSalt,
            "a salt is 32 bytes written as 64 lowercase hex digits",
        )),
    }
}

/// The randomness every draw of `game` comes from, once its table is full
/// (`seats`, in seat order): the deal seed of its seed and salts when it
/// takes them, else its seed.
///
/// # Errors
/// `internal` when the stored salts do not fit the game.
pub fn randomness(game: &GameRow, seats: &[SeatRow]) -> Result<Randomness, Failure> {
    let mut seats: Vec<&SeatRow> = seats.iter().collect();
    seats.sort_by_key(|s| s.seat);
    let salts: Vec<Option<&str>> = seats.iter().map(|s| s.salt.as_deref()).collect();
    salts::randomness(&game.seed, takes_salts(game)?, &salts).map_err(Failure::internal)
}
