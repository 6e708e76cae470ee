//! Seeding the field at the start: by rating, highest first; players of
//! the same rating in the order they registered. The round worker seeds by
//! it and `verify` checks the recorded field against it.

use uuid::Uuid;

/// The field in seed order, from the players `registered` (earliest first)
/// with their `ratings` (same order).
#[must_use]
pub fn seed(registered: &[Uuid], ratings: &[f64]) -> Vec<Uuid> {
    let mut field: Vec<usize> = (0..registered.len()).collect();
    field.sort_by(|&a, &b| {
        let rating = |i: usize| ratings.get(i).copied().unwrap_or(0.0);
        rating(b).total_cmp(&rating(a)).then(a.cmp(&b))
    });
    field.into_iter().map(|i| registered[i]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_ratings_then_the_highest_is_seeded_first_and_ties_keep_registration_order() {
        let players: Vec<Uuid> = (1..=4).map(Uuid::from_u128).collect();
        let field = seed(&players, &[1500.0, 1700.0, 1500.0, 1600.0]);
        assert_eq!(field, vec![players[1], players[3], players[0], players[2]]);
    }

    #[test]
    fn given_no_one_rated_then_the_field_is_the_registration_order() {
        let players: Vec<Uuid> = (1..=3).map(Uuid::from_u128).collect();
        assert_eq!(seed(&players, &[1500.0; 3]), players);
    }
}
