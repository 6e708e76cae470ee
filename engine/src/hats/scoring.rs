//! Final scoring: the line's face-down duplicates, hat collection, favourite
//! hat, the last cookie, and the winner.

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use super::cards::{Card, TYPES};
use super::state::HatsState;
use crate::ruleset::{GameResult, Seat, TeamResult, seat};

/// Points of the last cookie.
pub const COOKIE_POINTS: i32 = 5;

/// One seat's final score, by category.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HatsSeatScore))]
pub struct SeatScore {
    /// Hat collection: each face-up collection card scores the position of the
    /// face-up line card of its type (0 if none), each black hat 1 (included here).
    pub collection: i32,
    /// The number of black hats (each already scored 1 in `collection`).
    pub black_hats: i32,
    /// The favourite hat card: the last card in hand.
    pub favourite_card: Option<Card>,
    /// Favourite hat: the numbers of the face-up collection cards of the
    /// favourite's type, minus the favourite's number (may be negative).
    pub favourite: i32,
    /// The last cookie: 5 for its holder, else 0.
    pub cookie: i32,
    /// `collection + favourite + cookie`.
    pub total: i32,
}

/// The breakdown of the game's one round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct HatsRound {
    /// The final tea table line, position 1 first.
    pub line: Vec<Card>,
    /// The line positions turned face down at scoring (a type's cards other
    /// than the one at its lowest position).
    pub face_down: Vec<u8>,
    /// Per seat, the score by category.
    pub seats: Vec<SeatScore>,
    /// Who holds the last cookie (nobody if the tie cannot be broken).
    pub cookie: Option<Seat>,
}

/// For each type, the position (1-based) of its face-up line card: the lowest
/// position holding that type, 0 if the type is not on the line.
#[must_use]
pub fn type_positions(line: &[Card]) -> [u8; TYPES] {
    let mut positions = [0u8; TYPES];
    for (i, card) in line.iter().enumerate().rev() {
        positions[card.kind()] = u8::try_from(i + 1).unwrap_or(u8::MAX);
    }
    positions
}

/// The line positions turned face down at scoring.
#[must_use]
pub fn face_down_positions(line: &[Card]) -> Vec<u8> {
    let up = type_positions(line);
    line.iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let p = u8::try_from(i + 1).unwrap_or(u8::MAX);
            (up[c.kind()] != p).then_some(p)
        })
        .collect()
}

/// The hat collection score of face-up `collection` and `black_hats` black
/// hats against `line`.
#[must_use]
pub fn collection_score(line: &[Card], collection: &[Card], black_hats: usize) -> i32 {
    let positions = type_positions(line);
    let face_up: i32 = collection
        .iter()
        .map(|c| i32::from(positions[c.kind()]))
        .sum();
    face_up + i32::try_from(black_hats).unwrap_or(i32::MAX)
}

/// The favourite hat score: the numbers of the face-up collection cards of the
/// favourite's type, minus the favourite's number.
#[must_use]
pub fn favourite_score(collection: &[Card], favourite: Card) -> i32 {
    let same: i32 = collection
        .iter()
        .filter(|c| c.kind() == favourite.kind())
        .map(|c| i32::from(c.number()))
        .sum();
    same - i32::from(favourite.number())
}

/// The number of distinct types in a collection; black hats count as one type.
#[must_use]
pub fn distinct_types(collection: &[Card], black_hats: usize) -> usize {
    let mut seen = [false; TYPES];
    for c in collection {
        seen[c.kind()] = true;
    }
    seen.iter().filter(|&&s| s).count() + usize::from(black_hats > 0)
}

/// Compares two tied collections for the cookie: face-up numbers sorted
/// ascending, lowest first; the lower number wins, and a collection that runs
/// out of cards loses to one that still has a card. `Less` means `a` wins.
fn cookie_order(a: &[Card], b: &[Card]) -> Ordering {
    let key = |c: &[Card]| {
        let mut numbers: Vec<u8> = c.iter().map(|c| c.number()).collect();
        numbers.sort_unstable();
        numbers
    };
    let (ka, kb) = (key(a), key(b));
    for i in 0..ka.len().max(kb.len()) {
        match (ka.get(i), kb.get(i)) {
            (Some(x), Some(y)) if x != y => return x.cmp(y),
            (Some(_), None) => return Ordering::Less,
            (None, Some(_)) => return Ordering::Greater,
            _ => {}
        }
    }
    Ordering::Equal
}

/// Who holds the last cookie: the seat with the most distinct types (black
/// hats one type); a tie is broken by the ascending face-up numbers (lower
/// wins, running out loses; black hats take no part); if still tied, nobody.
#[must_use]
pub fn cookie_holder(collections: &[Vec<Card>], black_hats: &[usize]) -> Option<Seat> {
    let types: Vec<usize> = collections
        .iter()
        .zip(black_hats)
        .map(|(c, &b)| distinct_types(c, b))
        .collect();
    let most = types.iter().copied().max()?;
    let tied: Vec<usize> = (0..types.len()).filter(|&i| types[i] == most).collect();
    let mut best = tied[0];
    let mut unique = true;
    for &i in &tied[1..] {
        match cookie_order(&collections[i], &collections[best]) {
            Ordering::Less => {
                best = i;
                unique = true;
            }
            Ordering::Equal => unique = false,
            Ordering::Greater => {}
        }
    }
    unique.then(|| seat(best))
}

/// The cookie holder of the state (computed as at the end of the game).
#[must_use]
pub fn current_cookie(state: &HatsState) -> Option<Seat> {
    let black: Vec<usize> = state.black_hats.iter().map(Vec::len).collect();
    cookie_holder(&state.collections, &black)
}

/// The per-seat scores and round breakdown of a finished game.
#[must_use]
pub fn score_round(state: &HatsState) -> HatsRound {
    let cookie = current_cookie(state);
    let seats = (0..state.player_count())
        .map(|i| {
            let collection = &state.collections[i];
            let black = state.black_hats[i].len();
            let favourite_card = state.hands[i].last().copied();
            let collection_points = collection_score(&state.line, collection, black);
            let favourite = favourite_card.map_or(0, |f| favourite_score(collection, f));
            let cookie_points = if cookie == Some(seat(i)) {
                COOKIE_POINTS
            } else {
                0
            };
            SeatScore {
                collection: collection_points,
                black_hats: i32::try_from(black).unwrap_or(i32::MAX),
                favourite_card,
                favourite,
                cookie: cookie_points,
                total: collection_points + favourite + cookie_points,
            }
        })
        .collect();
    HatsRound {
        line: state.line.clone(),
        face_down: face_down_positions(&state.line),
        seats,
        cookie,
    }
}

/// A contender for the win: a seat, or a team of 4-player game.
struct Contender {
    seats: Vec<Seat>,
    points: i32,
    black_hats: i32,
    cookie: bool,
}

/// The winners among `contenders`: most points; tie → most black hats; tie →
/// the cookie holder; still tied → a shared win. Returns the winning seats and
/// the tie-break code used, if any.
fn winners(contenders: &[Contender]) -> (Vec<Seat>, Option<String>) {
    let most = contenders.iter().map(|c| c.points).max().unwrap_or(0);
    let top: Vec<&Contender> = contenders.iter().filter(|c| c.points == most).collect();
    let seats_of = |cs: &[&Contender]| {
        let mut seats: Vec<Seat> = cs.iter().flat_map(|c| c.seats.iter().copied()).collect();
        seats.sort_unstable();
        seats
    };
    if top.len() == 1 {
        return (seats_of(&top), None);
    }
    let most_black = top.iter().map(|c| c.black_hats).max().unwrap_or(0);
    let top: Vec<&Contender> = top
        .into_iter()
        .filter(|c| c.black_hats == most_black)
        .collect();
    if top.len() == 1 {
        return (seats_of(&top), Some("black_hats".into()));
    }
    if let Some(holder) = top.iter().find(|c| c.cookie) {
        return (seats_of(&[holder]), Some("cookie".into()));
    }
    (seats_of(&top), Some("shared".into()))
}

/// The result of a finished game.
#[must_use]
pub fn result(state: &HatsState) -> GameResult<HatsRound> {
    let round = score_round(state);
    let scores: Vec<i32> = round.seats.iter().map(|s| s.total).collect();
    let seat_contender = |i: usize| Contender {
        seats: vec![seat(i)],
        points: scores[i],
        black_hats: round.seats[i].black_hats,
        cookie: round.cookie == Some(seat(i)),
    };
    let (winning, tie_break, teams) = if state.player_count() == 4 {
        let teams: Vec<Contender> = [[0, 2], [1, 3]]
            .iter()
            .map(|members| {
                let parts: Vec<Contender> = members.iter().map(|&i| seat_contender(i)).collect();
                Contender {
                    seats: members.iter().map(|&i| seat(i)).collect(),
                    points: parts.iter().map(|p| p.points).sum(),
                    black_hats: parts.iter().map(|p| p.black_hats).sum(),
                    cookie: parts.iter().any(|p| p.cookie),
                }
            })
            .collect();
        let (w, t) = winners(&teams);
        let team_results = teams
            .iter()
            .map(|t| TeamResult {
                seats: t.seats.clone(),
                score: t.points,
            })
            .collect();
        (w, t, Some(team_results))
    } else {
        let all: Vec<Contender> = (0..state.player_count()).map(seat_contender).collect();
        let (w, t) = winners(&all);
        (w, t, None)
    };
    GameResult {
        scores,
        winners: winning,
        teams,
        tie_break,
        outcome: None,
        rounds: vec![round],
    }
}
