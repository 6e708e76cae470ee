//! Seeding the field at the start: by rating, highest first; players of
//! the same rating in the order they registered. The round worker seeds by
//! it and `verify` checks the recorded field against it.

/// The field in seed order, as indexes into the players registered
/// (earliest first), from each one's rating (same order).
#[must_use]
pub fn order(ratings: &[f64]) -> Vec<usize> {
    let mut field: Vec<usize> = (0..ratings.len()).collect();
    field.sort_by(|&a, &b| ratings[b].total_cmp(&ratings[a]).then(a.cmp(&b)));
    field
}

#[cfg(test)]
mod tests {
    use super::order;

    #[test]
    fn given_ratings_then_the_highest_is_seeded_first_and_ties_keep_registration_order() {
        assert_eq!(order(&[1500.0, 1700.0, 1500.0, 1600.0]), vec![1, 3, 0, 2]);
    }

    #[test]
    fn given_no_one_rated_then_the_field_is_the_registration_order() {
        assert_eq!(order(&[1500.0; 3]), vec![0, 1, 2]);
    }
}
