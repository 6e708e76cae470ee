//! Which finished game is rated.
//!
//! - `options.rated` says, when the game's creator set it;
//! - unset, a game is rated when it is public and no seat is a bot (a
//!   built-in bot or a player's bot account): private games and games with
//!   a bot are casual by default;
//! - an abandoned game is never rated (only `finished` games reach here);
//! - a game decided by a forfeit before any player made a move is not rated;
//! - nor is a game where one account holds two seats, or whose result does
//!   not place every seat.
//!
//! A seat that changed hands (a substitute took it over, docs/seats.md)
//! is rated for the player who left it, in last place (tied with any other
//! such seat), as if they had lost; the substitute's part is not rated.
//!
//! Bots rated by a game that chose to be are rated like anyone, in the same
//! pool, so their strength reads on the players' scale.

use serde::Serialize;
use serde_json::Value;
use uuid::Uuid;

use super::places::{Side, sides};

/// A finished game as the projection reads it.
#[derive(Debug, Clone)]
pub struct Finished {
    pub id: Uuid,
    pub ruleset: String,
    pub players: i16,
    pub private: bool,
    pub server_options: Value,
    pub result: Value,
    /// The seats' users, in seat order, and whether each is a bot.
    pub seats: Vec<(Uuid, bool)>,
    /// Whether any player made a move (asked only for forfeits).
    pub moved: Option<bool>,
    /// The seats that changed hands; their user in `seats` is the player
    /// who first left them.
    pub left: Vec<u8>,
}

/// Why a finished game is not rated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Unrated {
    /// `options.rated` is false, or unset on a private game or one with a bot.
    Casual,
    /// A forfeit ended it before any player's move.
    ForfeitBeforeMove,
    /// One account holds two seats.
    SeatedTwice,
    /// The result does not place every seat.
    NoPlaces,
}

/// Whether a game's options (as stored) ask for a rated game, with `private`
/// and `has_bot` deciding when `rated` is unset.
#[must_use]
pub fn rated_option(server_options: &Value, private: bool, has_bot: bool) -> bool {
    server_options
        .get("rated")
        .and_then(Value::as_bool)
        .unwrap_or(!private && !has_bot)
}

/// The sides to rate, or why the game is not rated.
///
/// # Errors
/// The reason, as [`Unrated`].
pub fn sides_to_rate(game: &Finished) -> Result<Vec<Side>, Unrated> {
    let has_bot = game.seats.iter().any(|(_, bot)| *bot);
    if !rated_option(&game.server_options, game.private, has_bot) {
        return Err(Unrated::Casual);
    }
    let mut users: Vec<Uuid> = game.seats.iter().map(|(u, _)| *u).collect();
    users.sort_unstable();
    users.dedup();
    if users.len() != game.seats.len() {
        return Err(Unrated::SeatedTwice);
    }
    if game.result.get("outcome").and_then(Value::as_str) == Some("forfeit")
        && game.moved != Some(true)
    {
        return Err(Unrated::ForfeitBeforeMove);
    }
    let players = usize::try_from(game.players).unwrap_or(0);
    if game.seats.len() != players {
        return Err(Unrated::NoPlaces);
    }
    let mut sides = sides(&game.result, players).ok_or(Unrated::NoPlaces)?;
    // After every place the result gives: the leavers' sides, tied last.
    let last = u16::try_from(sides.len() + 1).unwrap_or(u16::MAX);
    for side in &mut sides {
        if side.seats.iter().any(|s| game.left.contains(s)) {
            side.place = last;
        }
    }
    Ok(sides)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn game(private: bool, bots: &[bool], options: Value, result: Value) -> Finished {
        Finished {
            id: Uuid::nil(),
            ruleset: "hats".into(),
            players: i16::try_from(bots.len()).unwrap(),
            private,
            server_options: options,
            result,
            seats: bots.iter().map(|b| (Uuid::new_v4(), *b)).collect(),
            moved: None,
            left: Vec::new(),
        }
    }

    fn won() -> Value {
        json!({"scores": [3, 1], "winners": [0], "rounds": []})
    }

    #[test]
    fn given_a_public_game_between_people_when_rated_is_unset_then_it_is_rated() {
        assert!(sides_to_rate(&game(false, &[false, false], json!({}), won())).is_ok());
    }

    #[test]
    fn given_a_private_game_or_a_bot_when_rated_is_unset_then_it_is_casual() {
        let private = game(true, &[false, false], json!({}), won());
        let bot = game(false, &[false, true], json!({}), won());
        assert_eq!(sides_to_rate(&private), Err(Unrated::Casual));
        assert_eq!(sides_to_rate(&bot), Err(Unrated::Casual));
    }

    #[test]
    fn given_the_option_when_set_then_it_decides() {
        let bot = game(false, &[false, true], json!({"rated": true}), won());
        let public = game(false, &[false, false], json!({"rated": false}), won());
        assert!(sides_to_rate(&bot).is_ok());
        assert_eq!(sides_to_rate(&public), Err(Unrated::Casual));
    }

    #[test]
    fn given_a_seat_that_changed_hands_then_its_leaver_is_rated_last() {
        // Given seat 0 won, but its first player left it to a substitute
        let mut g = game(
            false,
            &[false, false, false],
            json!({}),
            json!({
                "scores": [5, 3, 1], "winners": [0], "rounds": []
            }),
        );
        g.left = vec![0];
        // Then the leaver is placed after everyone, the others as they finished
        let sides = sides_to_rate(&g).unwrap();
        let place = |seat: u8| {
            sides
                .iter()
                .find(|s| s.seats.contains(&seat))
                .unwrap()
                .place
        };
        assert!(place(0) > place(1) && place(0) > place(2));
        assert!(place(1) < place(2));
    }

    #[test]
    fn given_a_forfeit_when_nobody_moved_then_it_is_not_rated() {
        let forfeit =
            json!({"outcome": "forfeit", "winners": [1], "scores": [0, 0], "forfeited": [0]});
        let mut g = game(false, &[false, false], json!({}), forfeit);
        g.moved = Some(false);
        assert_eq!(sides_to_rate(&g), Err(Unrated::ForfeitBeforeMove));
        g.moved = Some(true);
        assert!(sides_to_rate(&g).is_ok());
    }

    #[test]
    fn given_one_account_in_two_seats_when_rated_then_it_is_not() {
        let mut g = game(false, &[false, false], json!({}), won());
        g.seats[1].0 = g.seats[0].0;
        assert_eq!(sides_to_rate(&g), Err(Unrated::SeatedTwice));
    }
}
