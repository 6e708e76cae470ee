//! The rulesets the server offers, and static dispatch over them.
//!
//! To add a ruleset: give it a variant here, an arm in [`GameKind::ALL`],
//! [`GameKind::id`], [`GameKind::from_id`] and [`with_ruleset!`], and it is
//! served, listed, verified and benchmarked like the others.

use serde::{Deserialize, Serialize};

/// One of the rulesets the server plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameKind {
    Hats,
    Goathead,
    TopHats,
    HatTrick,
}

impl GameKind {
    /// Every complete ruleset, in the order `/v1/rulesets` lists them.
    pub const ALL: &'static [GameKind] = &[
        GameKind::Hats,
        GameKind::Goathead,
        GameKind::TopHats,
        GameKind::HatTrick,
    ];

    /// The API id (`hats`, `goathead`, `top-hats`, `hat-trick`).
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            GameKind::Hats => "hats",
            GameKind::Goathead => "goathead",
            GameKind::TopHats => "top-hats",
            GameKind::HatTrick => "hat-trick",
        }
    }

    /// Every version of this ruleset's rules, oldest first.
    #[must_use]
    pub fn rules_versions(self) -> &'static [crate::RulesVersion] {
        crate::with_ruleset!(self, |R| <R as crate::Ruleset>::RULES_VERSIONS)
    }

    /// The versions this build knows, as `hats@1, hats@2`.
    #[must_use]
    pub fn known_rules(self) -> String {
        self.rules_versions()
            .iter()
            .map(|v| format!("{}@{}", self.id(), v.number))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The ruleset with API id `id`.
    #[must_use]
    pub fn from_id(id: &str) -> Option<GameKind> {
        GameKind::ALL.iter().copied().find(|k| k.id() == id)
    }
}

/// Runs `$body` with `$R` bound to the [`Ruleset`](crate::Ruleset) type of `$kind`:
/// `with_ruleset!(kind, |R| R::NAME)`.
#[macro_export]
macro_rules! with_ruleset {
    ($kind:expr, |$R:ident| $body:expr) => {
        match $kind {
            $crate::GameKind::Hats => {
                type $R = $crate::hats::Hats;
                $body
            }
            $crate::GameKind::Goathead => {
                type $R = $crate::goathead::Goathead;
                $body
            }
            $crate::GameKind::TopHats => {
                type $R = $crate::top_hats::TopHats;
                $body
            }
            $crate::GameKind::HatTrick => {
                type $R = $crate::hat_trick::HatTrick;
                $body
            }
        }
    };
}
