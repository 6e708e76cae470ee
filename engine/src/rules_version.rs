//! Rules versions: which rules a game was played under.
//!
//! Every ruleset lists its versions ([`Ruleset::RULES_VERSIONS`], oldest
//! first); a new game gets the newest and records it in its first event as
//! `"<ruleset>@<number>"` (`hats@1`), and keeps it to the end, whatever later
//! releases change. A ruleset's version is bumped whenever a change could
//! alter any legal command, view, random draw, score or result of a recorded
//! game.
//!
//! How versions stay replayable: an engine is a function of its options, and
//! a game records its options with every default filled in. A new version
//! therefore changes what its games record, never what an old record means:
//! a changed default is filled in by [`Ruleset::version_defaults`] at
//! creation, and a changed rule that is not an option becomes one (with the
//! old behaviour as the value older versions fill in). So a game created
//! under version 1 finishes under version 1 and its audit replays unchanged.
//!
//! [`Ruleset::RULES_VERSIONS`]: crate::Ruleset::RULES_VERSIONS
//! [`Ruleset::version_defaults`]: crate::Ruleset::version_defaults

use std::fmt;

use crate::GameKind;

/// One version of a ruleset's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RulesVersion {
    /// 1, 2, …: the number after the `@`.
    pub number: u16,
    /// What this version decides that the one before did not, in words.
    pub summary: &'static str,
    /// Whether the seats contribute salts to the shuffle: the game's deal
    /// seed is then [`crate::random::deal_seed`] of the server's seed and
    /// every seat's salt, not the server's seed alone (a game with a public
    /// seed takes no salts, whatever its version).
    pub salted: bool,
}

/// A ruleset and one of its versions: `top-hats@2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub kind: GameKind,
    pub version: u16,
}

/// Why a `<ruleset>@<number>` name was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error("{0:?} is not a rules version (expected <ruleset>@<number>, e.g. hats@1)")]
    Malformed(String),
    #[error("there is no ruleset {0:?}")]
    UnknownRuleset(String),
    #[error("{name} is a rules version this build does not know (it knows {known})")]
    UnknownVersion { name: String, known: String },
}

impl Rules {
    /// The newest version of `kind`: what new games get.
    #[must_use]
    pub fn newest(kind: GameKind) -> Rules {
        let version = kind.rules_versions().last().map_or(1, |v| v.number);
        Rules { kind, version }
    }

    /// Version `number` of `kind`, if this build knows it.
    ///
    /// # Errors
    /// `UnknownVersion` when the build does not know it.
    pub fn of(kind: GameKind, number: u16) -> Result<Rules, RulesError> {
        if kind.rules_versions().iter().any(|v| v.number == number) {
            Ok(Rules {
                kind,
                version: number,
            })
        } else {
            Err(RulesError::UnknownVersion {
                name: format!("{}@{number}", kind.id()),
                known: kind.known_rules(),
            })
        }
    }

    /// Parses `hats@1`.
    ///
    /// # Errors
    /// A malformed name, an unknown ruleset or an unknown version.
    pub fn parse(name: &str) -> Result<Rules, RulesError> {
        let malformed = || RulesError::Malformed(name.to_owned());
        let (id, number) = name.split_once('@').ok_or_else(malformed)?;
        if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
            return Err(malformed());
        }
        let number: u16 = number.parse().map_err(|_| malformed())?;
        let kind =
            GameKind::from_id(id).ok_or_else(|| RulesError::UnknownRuleset(id.to_owned()))?;
        Rules::of(kind, number)
    }

    /// What this version decides, in words.
    #[must_use]
    pub fn summary(self) -> &'static str {
        self.kind
            .rules_versions()
            .iter()
            .find(|v| v.number == self.version)
            .map_or("", |v| v.summary)
    }

    /// Whether the seats of a game under these rules contribute salts to
    /// its shuffles (see [`RulesVersion::salted`]).
    #[must_use]
    pub fn salted(self) -> bool {
        self.kind
            .rules_versions()
            .iter()
            .find(|v| v.number == self.version)
            .is_some_and(|v| v.salted)
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}", self.kind.id(), self.version)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_versions_are_refused() {
        let rules = Rules::parse("top-hats@1").unwrap();
        assert_eq!(rules.to_string(), "top-hats@1");
        assert_eq!(Rules::newest(GameKind::TopHats).version, 2);
        assert_eq!(Rules::newest(GameKind::Hats).to_string(), "hats@2");
        assert!(Rules::newest(GameKind::Hats).salted());
        assert!(!Rules::parse("hats@1").unwrap().salted());
        assert!(matches!(
            Rules::parse("hats@9"),
            Err(RulesError::UnknownVersion { .. })
        ));
        assert!(matches!(
            Rules::parse("chess@1"),
            Err(RulesError::UnknownRuleset(_))
        ));
        for bad in ["hats", "hats@", "hats@x", "hats@-1", "@1", "hats@99999999"] {
            assert!(Rules::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn given_a_card_ruleset_when_a_new_game_is_made_then_its_seats_salt_the_shuffle() {
        for kind in [GameKind::Hats, GameKind::Goathead, GameKind::HatTrick] {
            assert!(Rules::newest(kind).salted(), "{}", kind.id());
            assert!(!Rules::of(kind, 1).unwrap().salted(), "{}", kind.id());
        }
        // Top Hats deals nothing at random: nothing to salt.
        assert!(kind_never_salted(GameKind::TopHats));
    }

    fn kind_never_salted(kind: GameKind) -> bool {
        kind.rules_versions().iter().all(|v| !v.salted)
    }

    #[test]
    fn every_ruleset_numbers_its_versions_from_one_in_order() {
        for &kind in GameKind::ALL {
            let numbers: Vec<u16> = kind.rules_versions().iter().map(|v| v.number).collect();
            let expected: Vec<u16> = (1..=u16::try_from(numbers.len()).unwrap()).collect();
            assert_eq!(numbers, expected, "{}", kind.id());
            assert!(kind.rules_versions().iter().all(|v| !v.summary.is_empty()));
        }
    }
}
