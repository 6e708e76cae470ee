//! Tests of Hats.
