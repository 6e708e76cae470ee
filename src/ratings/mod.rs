//! Ratings: a projection of finished games (docs/ratings.md).
//!
//! Every rating lives in a *pool*: a ruleset at a table size (a Hats table
//! of four is a team game, of three a free-for-all: they are different
//! games). Two seats are rated with Glicko-2, three to six seats and teams
//! with Weng-Lin (OpenSkill) on the full order of places, both from the
//! `skillratings` crate. The rules of which game counts are
//! [`eligibility`]'s, the places [`places`]', the maths [`maths`]', and the
//! order and the exactly-once [`projection`]'s.

pub mod eligibility;
pub mod maths;
pub mod places;
pub mod projection;
pub mod reliability;
pub mod seek;

pub use maths::{Method, Rating};
