//! What a tournament tells its players (docs/tournaments.md): pure, the
//! notes only; the round worker writes them in its step's transaction.
//!
//! Rules:
//! - **A round started** (`tournament_round`): each player of a new table
//!   is told of their own table's game, and of nothing about any other
//!   table (a duplicate round's tables stay hidden from each other).
//! - **The tournament ended** (`tournament_finished`): each entrant is told
//!   their rank in the final standings of the whole field, about their
//!   last table's game in the tournament (every entrant has one once the
//!   first round is paired; a bye in the last round points to an earlier
//!   table). An entrant with no table at all (byes only) is told with no
//!   game.
//! - **Cancelled at its start** (too few players): each registered player
//!   gets a `tournament_finished` marked `cancelled`, with no place and no
//!   game; its `field` is how many had registered.

use uuid::Uuid;

use super::replay::Round;
use super::standings::Standing;
use crate::notifications::{Note, Notification};

/// What every note of a tournament names.
#[derive(Debug, Clone, Copy)]
pub struct About<'a> {
    pub tournament: Uuid,
    pub name: &'a str,
    pub ruleset: &'a str,
}

/// The notes of round `round`'s table `game` to its `players`.
#[must_use]
pub fn table_ready(about: About<'_>, round: u32, game: Uuid, players: &[Uuid]) -> Vec<Note> {
    players
        .iter()
        .map(|&user_id| Note {
            user_id,
            notification: Notification::TournamentRound {
                game_id: game,
                ruleset: about.ruleset.to_owned(),
                tournament_id: about.tournament,
                name: about.name.to_owned(),
                round,
            },
        })
        .collect()
}

/// Each entrant's last table's game in `rounds` (None: they never sat at one).
#[must_use]
pub fn last_tables(rounds: &[Round], entrants: usize) -> Vec<Option<Uuid>> {
    let mut last = vec![None; entrants];
    for round in rounds {
        for (seats, table) in round.pairing.tables.iter().zip(&round.tables) {
            for &e in seats {
                if let (Some(slot), Some(game)) = (last.get_mut(e), table.game_id) {
                    *slot = Some(game);
                }
            }
        }
    }
    last
}

/// The notes of the tournament's end to `entrants` (user ids in seed
/// order), ranked by `standings`, each about their last table's game;
/// grouped by that game (a note is written with its game).
#[must_use]
pub fn ended(
    about: About<'_>,
    entrants: &[Uuid],
    standings: &[Standing],
    rounds: &[Round],
) -> Vec<(Option<Uuid>, Vec<Note>)> {
    let last = last_tables(rounds, entrants.len());
    let field = u32::try_from(entrants.len()).unwrap_or(u32::MAX);
    let mut grouped: Vec<(Option<Uuid>, Vec<Note>)> = Vec::new();
    for (e, &user_id) in entrants.iter().enumerate() {
        let place = standings
            .iter()
            .find(|s| s.entrant == e)
            .and_then(|s| u32::try_from(s.rank).ok());
        let game = last[e];
        let note = Note {
            user_id,
            notification: Notification::TournamentFinished {
                game_id: game,
                ruleset: about.ruleset.to_owned(),
                tournament_id: about.tournament,
                name: about.name.to_owned(),
                place,
                field,
                cancelled: false,
            },
        };
        match grouped.iter_mut().find(|(g, _)| *g == game) {
            Some((_, notes)) => notes.push(note),
            None => grouped.push((game, vec![note])),
        }
    }
    grouped
}

/// The notes of a tournament cancelled at its start to its `registered` players.
#[must_use]
pub fn cancelled(about: About<'_>, registered: &[Uuid]) -> Vec<Note> {
    let field = u32::try_from(registered.len()).unwrap_or(u32::MAX);
    registered
        .iter()
        .map(|&user_id| Note {
            user_id,
            notification: Notification::TournamentFinished {
                game_id: None,
                ruleset: about.ruleset.to_owned(),
                tournament_id: about.tournament,
                name: about.name.to_owned(),
                place: None,
                field,
                cancelled: true,
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::tournaments::Entrant;
    use crate::tournaments::pairing::Pairing;
    use crate::tournaments::points::Points;
    use crate::tournaments::replay::Table;

    fn about() -> About<'static> {
        About {
            tournament: Uuid::from_u128(9),
            name: "Winter cup",
            ruleset: "hats",
        }
    }

    fn round(tables: Vec<Vec<Entrant>>, byes: Vec<Entrant>, games: &[u128]) -> Round {
        Round {
            pairing: Pairing { tables, byes },
            tables: games
                .iter()
                .map(|&g| Table {
                    game_id: Some(Uuid::from_u128(g)),
                    finished: None,
                })
                .collect(),
            standings: None,
        }
    }

    fn standing(entrant: Entrant, rank: usize) -> Standing {
        Standing {
            entrant,
            rank,
            points: Points::default(),
            buchholz: Points::default(),
            byes: 0,
        }
    }

    #[test]
    fn given_a_table_when_its_round_starts_then_each_of_its_players_is_told_of_that_game_only() {
        let game = Uuid::from_u128(1);
        let players = [Uuid::from_u128(10), Uuid::from_u128(11)];
        let notes = table_ready(about(), 2, game, &players);
        assert_eq!(notes.len(), 2);
        assert_eq!(
            serde_json::to_value(&notes[1]).unwrap(),
            json!({
                "user_id": players[1],
                "kind": "tournament_round",
                "payload": {"game_id": game, "ruleset": "hats", "tournament_id": Uuid::from_u128(9),
                            "name": "Winter cup", "round": 2},
            })
        );
    }

    #[test]
    fn given_a_bye_in_the_last_round_when_the_tournament_ends_then_the_last_table_is_an_earlier_one()
     {
        // Given three entrants: round 0 seats 0 and 1 (game 100), 2 sits
        // out; round 1 seats 2 and 0 (game 200), 1 sits out.
        let rounds = [
            round(vec![vec![0, 1]], vec![2], &[100]),
            round(vec![vec![2, 0]], vec![1], &[200]),
        ];
        // Then each one's last table
        assert_eq!(
            last_tables(&rounds, 3),
            vec![
                Some(Uuid::from_u128(200)),
                Some(Uuid::from_u128(100)),
                Some(Uuid::from_u128(200))
            ]
        );
        // And byes only: no table
        assert_eq!(last_tables(&rounds[..0], 2), vec![None, None]);
    }

    #[test]
    fn given_final_standings_when_the_tournament_ends_then_each_entrant_is_told_their_place_of_the_field_by_game()
     {
        let users = [
            Uuid::from_u128(10),
            Uuid::from_u128(11),
            Uuid::from_u128(12),
        ];
        let rounds = [
            round(vec![vec![0, 1]], vec![2], &[100]),
            round(vec![vec![2, 0]], vec![1], &[200]),
        ];
        let standings = [standing(2, 1), standing(0, 2), standing(1, 2)];
        let grouped = ended(about(), &users, &standings, &rounds);
        let games: Vec<Option<Uuid>> = grouped.iter().map(|(g, _)| *g).collect();
        assert_eq!(
            games,
            vec![Some(Uuid::from_u128(200)), Some(Uuid::from_u128(100))]
        );
        let told: Vec<(Uuid, serde_json::Value)> = grouped
            .iter()
            .flat_map(|(_, notes)| notes)
            .map(|n| {
                let v = serde_json::to_value(n).unwrap();
                (
                    n.user_id,
                    json!([v["payload"]["place"], v["payload"]["field"]]),
                )
            })
            .collect();
        assert_eq!(
            told,
            vec![
                (users[0], json!([2, 3])),
                (users[2], json!([1, 3])),
                (users[1], json!([2, 3]))
            ]
        );
        assert!(grouped.iter().flat_map(|(_, n)| n).all(|n| {
            serde_json::to_value(n).unwrap()["payload"]
                .get("cancelled")
                .is_none()
        }));
    }

    #[test]
    fn given_too_few_players_when_cancelled_then_each_registered_player_is_told_with_no_place_nor_game()
     {
        let users = [Uuid::from_u128(10)];
        let notes = cancelled(about(), &users);
        let v = serde_json::to_value(&notes[0]).unwrap();
        assert_eq!(v["kind"], "tournament_finished");
        assert_eq!(
            v["payload"],
            json!({"game_id": null, "ruleset": "hats", "tournament_id": Uuid::from_u128(9),
                   "name": "Winter cup", "place": null, "field": 1, "cancelled": true})
        );
    }
}
