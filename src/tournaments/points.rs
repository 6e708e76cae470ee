//! Points: what one round gives a player, in thousandths of a point.
//!
//! Rules:
//! - a round is worth at most one point ([`Points::ROUND`], 1000 thousandths);
//! - at a table of `k` players ranked by places (1 = first), a player scores
//!   one share for every other player of the table placed behind them and half
//!   a share for every other player on the same place, over `k − 1` shares:
//!   a two-player win is 1, a draw ½, a loss 0; four players placed 1, 2, 2, 4
//!   score 1, ½, ½, 0;
//! - in duplicate mode a player scores their matchpoint share instead (see
//!   [`super::matchpoints`]);
//! - a bye scores a whole round (1 point), as in chess Swiss events;
//! - a fraction is rounded to the nearest thousandth, halves up, in integers,
//!   so every process and `verify` get the same figure.

use serde::{Deserialize, Serialize};

/// A score in thousandths of a point.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Points(pub u32);

impl Points {
    /// A whole round: a win, or a bye.
    pub const ROUND: Points = Points(1000);
    /// Half a round: a draw.
    pub const HALF: Points = Points(500);

    /// `num / den` of a round, to the nearest thousandth (halves up); half a
    /// round when `den` is 0 (nothing to compare with).
    #[must_use]
    pub fn ratio(num: u64, den: u64) -> Points {
        if den == 0 {
            return Points::HALF;
        }
        let millis = (2000 * num + den) / (2 * den);
        Points(u32::try_from(millis).unwrap_or(u32::MAX))
    }
}

impl std::ops::Add for Points {
    type Output = Points;
    fn add(self, other: Points) -> Points {
        Points(self.0.saturating_add(other.0))
    }
}

impl std::iter::Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::default(), |a, b| a + b)
    }
}

/// Each seat's points at a table, from each seat's place (1 = first).
#[must_use]
pub fn by_places(places: &[u16]) -> Vec<Points> {
    let others = places.len().saturating_sub(1) as u64;
    places
        .iter()
        .map(|mine| {
            let halves: u64 = places
                .iter()
                .map(|theirs| match theirs.cmp(mine) {
                    std::cmp::Ordering::Greater => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Less => 0,
                })
                .sum::<u64>()
                - 1; // oneself, counted as a tie
            Points::ratio(halves, 2 * others)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_a_two_player_table_then_a_win_is_one_a_draw_half_a_loss_nothing() {
        assert_eq!(by_places(&[1, 2]), vec![Points(1000), Points(0)]);
        assert_eq!(by_places(&[2, 1]), vec![Points(0), Points(1000)]);
        assert_eq!(by_places(&[1, 1]), vec![Points(500), Points(500)]);
    }

    #[test]
    fn given_four_players_placed_1_2_2_4_then_they_score_one_half_half_nothing() {
        assert_eq!(
            by_places(&[1, 2, 2, 4]),
            vec![Points(1000), Points(500), Points(500), Points(0)]
        );
    }

    #[test]
    fn given_three_players_placed_in_order_then_thirds_are_rounded_to_thousandths() {
        assert_eq!(
            by_places(&[1, 2, 3]),
            vec![Points(1000), Points(500), Points(0)]
        );
        assert_eq!(Points::ratio(1, 3), Points(333));
        assert_eq!(Points::ratio(2, 3), Points(667));
        assert_eq!(Points::ratio(1, 2000), Points(1)); // half a thousandth: up
        assert_eq!(Points::ratio(0, 0), Points::HALF);
    }
}
