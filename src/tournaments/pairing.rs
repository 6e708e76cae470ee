//! What a round's pairing is: its tables (seat order kept) and its byes.

use serde::{Deserialize, Serialize};

use super::Entrant;

/// The tables of one round, each with its entrants in seat order (seat 0
/// first), and the entrants who sit the round out with a bye.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    pub tables: Vec<Vec<Entrant>>,
    pub byes: Vec<Entrant>,
}

impl Pairing {
    /// Every entrant of the round, seated or with a bye, each once, sorted.
    #[must_use]
    pub fn entrants(&self) -> Vec<Entrant> {
        let mut all: Vec<Entrant> = self
            .tables
            .iter()
            .flatten()
            .chain(&self.byes)
            .copied()
            .collect();
        all.sort_unstable();
        all
    }
}
