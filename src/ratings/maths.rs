//! The rating maths, all of it the `skillratings` crate's: Glicko-2 for a
//! game of two seats, Weng-Lin (OpenSkill's Bradley-Terry full-pairing
//! model) for three to six seats and for teams, on the full order of places.
//!
//! Each rated game is its own rating period (as on correspondence sites:
//! games end one at a time, days apart). A rating is *provisional* (shown
//! with `?`) while its deviation is at least [`Method::provisional_at`]:
//! 110 for Glicko-2 (350 at the start; the bound Lichess uses), 2.5 for
//! Weng-Lin (25/3 ≈ 8.33 at the start: the same share of the start, about
//! 0.3).

use serde::{Deserialize, Serialize};
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use skillratings::{MultiTeamOutcome, Outcomes};
use utoipa::ToSchema;

/// How a pool is rated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Two seats: rating 1500, deviation 350, volatility 0.06 at the start.
    Glicko2,
    /// Three seats or more, and teams: mu 25, sigma 25/3 at the start.
    WengLin,
}

impl Method {
    /// The method of a pool of `players` seats.
    #[must_use]
    pub fn of(players: usize) -> Self {
        if players == 2 {
            Method::Glicko2
        } else {
            Method::WengLin
        }
    }

    /// A rating is provisional while its deviation is at least this.
    #[must_use]
    pub fn provisional_at(self) -> f64 {
        match self {
            Method::Glicko2 => 110.0,
            Method::WengLin => 2.5,
        }
    }

    /// A newcomer's rating.
    #[must_use]
    pub fn start(self) -> Rating {
        match self {
            Method::Glicko2 => {
                let r = Glicko2Rating::new();
                Rating {
                    rating: r.rating,
                    deviation: r.deviation,
                    volatility: Some(r.volatility),
                }
            }
            Method::WengLin => {
                let r = WengLinRating::new();
                Rating {
                    rating: r.rating,
                    deviation: r.uncertainty,
                    volatility: None,
                }
            }
        }
    }
}

/// A player's rating in a pool.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// Glicko-2's rating, or Weng-Lin's mu.
    pub rating: f64,
    /// Glicko-2's rating deviation, or Weng-Lin's sigma.
    pub deviation: f64,
    /// Glicko-2's volatility (none for Weng-Lin).
    pub volatility: Option<f64>,
}

impl Rating {
    /// Whether the rating is still provisional under `method`.
    #[must_use]
    pub fn provisional(&self, method: Method) -> bool {
        self.deviation >= method.provisional_at()
    }

    fn glicko2(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility.unwrap_or(0.06),
        }
    }

    fn weng_lin(&self) -> WengLinRating {
        WengLinRating {
            rating: self.rating,
            uncertainty: self.deviation,
        }
    }
}

/// The new ratings of a game's sides: `sides` holds each side's players'
/// ratings and the side's place (1 = first, equal places tie). Returns the
/// ratings in the same shape.
///
/// Glicko-2 takes two sides of one player each; anything else is Weng-Lin.
#[must_use]
pub fn rate(method: Method, sides: &[(Vec<Rating>, u16)]) -> Vec<Vec<Rating>> {
    match (method, sides) {
        (Method::Glicko2, [(one, p1), (two, p2)]) if one.len() == 1 && two.len() == 1 => {
            let outcome = match p1.cmp(p2) {
                std::cmp::Ordering::Less => Outcomes::WIN,
                std::cmp::Ordering::Equal => Outcomes::DRAW,
                std::cmp::Ordering::Greater => Outcomes::LOSS,
            };
            let (a, b) = glicko2(
                &one[0].glicko2(),
                &two[0].glicko2(),
                &outcome,
                &Glicko2Config::new(),
            );
            let back = |r: Glicko2Rating| Rating {
                rating: r.rating,
                deviation: r.deviation,
                volatility: Some(r.volatility),
            };
            vec![vec![back(a)], vec![back(b)]]
        }
        _ => {
            let teams: Vec<Vec<WengLinRating>> = sides
                .iter()
                .map(|(players, _)| players.iter().map(Rating::weng_lin).collect())
                .collect();
            let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
                .iter()
                .zip(sides)
                .map(|(team, (_, place))| (&team[..], MultiTeamOutcome::new(usize::from(*place))))
                .collect();
            weng_lin_multi_team(&ranked, &WengLinConfig::new())
                .into_iter()
                .map(|team| {
                    team.into_iter()
                        .map(|r| Rating {
                            rating: r.rating,
                            deviation: r.uncertainty,
                            volatility: None,
                        })
                        .collect()
                })
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    //! The crate's own published examples, through this module.
    use super::*;

    fn wl(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: None,
        }
    }

    #[test]
    fn given_two_newcomers_when_one_wins_then_glicko2_gives_the_published_figures() {
        let start = Method::Glicko2.start();
        let new = rate(Method::Glicko2, &[(vec![start], 1), (vec![start], 2)]);
        let (one, two) = (new[0][0], new[1][0]);
        assert_eq!(one.rating.round(), 1662.0);
        assert_eq!(one.deviation.round(), 290.0);
        assert!((one.volatility.unwrap() - 0.059_999_675_372_338_14).abs() < f64::EPSILON);
        assert_eq!(two.rating.round(), 1338.0);
        assert_eq!(two.deviation.round(), 290.0);
        assert!(one.provisional(Method::Glicko2));
    }

    #[test]
    fn given_a_draw_between_equals_when_rated_then_glicko2_moves_nobody() {
        let start = Method::Glicko2.start();
        let new = rate(Method::Glicko2, &[(vec![start], 1), (vec![start], 1)]);
        assert_eq!(new[0][0].rating, 1500.0);
        assert!(new[0][0].deviation < 350.0);
    }

    #[test]
    fn given_three_teams_when_placed_then_weng_lin_gives_the_published_figures() {
        let start = Method::WengLin.start();
        let one = vec![start, wl(30.0, 1.2), wl(21.0, 6.5)];
        let two = vec![start, wl(41.0, 1.4), wl(19.2, 4.3)];
        let three = vec![start, wl(29.4, 1.6), wl(17.2, 2.1)];
        let new = rate(Method::WengLin, &[(one, 2), (two, 1), (three, 3)]);
        let hundredths = |r: Rating| (r.rating * 100.0).round();
        assert_eq!(
            new.iter()
                .map(|team| team.iter().copied().map(hundredths).collect::<Vec<_>>())
                .collect::<Vec<_>>(),
            vec![
                vec![2538.0, 3001.0, 2123.0],
                vec![2796.0, 4108.0, 1999.0],
                vec![2166.0, 2928.0, 1699.0],
            ]
        );
    }

    #[test]
    fn given_a_free_for_all_when_rated_then_places_order_the_new_ratings() {
        let start = Method::WengLin.start();
        let new = rate(
            Method::WengLin,
            &[
                (vec![start], 3),
                (vec![start], 1),
                (vec![start], 2),
                (vec![start], 3),
            ],
        );
        let r: Vec<f64> = new.iter().map(|t| t[0].rating).collect();
        assert!(r[1] > r[2] && r[2] > r[0]);
        assert_eq!(r[0], r[3]);
        assert!(new.iter().all(|t| t[0].deviation < start.deviation));
        assert!(start.provisional(Method::WengLin));
    }
}
