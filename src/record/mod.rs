//! The game record, with no database and no HTTP: the hash chain and its
//! canonical JSON, the server's own events (typed, versioned, upcast when
//! read), the rules for seats that are out and for takebacks, replaying a log into a state,
//! and verifying an audit. `hatstand verify` needs nothing else.

pub mod canonical;
pub mod chain;
pub mod clock;
pub mod codec;
pub mod names;
pub mod out;
pub mod pause;
pub mod proofs;
pub mod replay;
pub mod salts;
pub mod server_event;
pub mod signing;
pub mod takeback;
pub mod talk;
pub mod verify;
