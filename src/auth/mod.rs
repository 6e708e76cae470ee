//! Accounts and credentials: argon2id password hashes, sign-in sessions
//! (HS256 JWT access tokens and rotating refresh tokens), request rates per
//! token, and who is calling (`caller`; its HTTP extractors are in
//! `routes/caller.rs`).

pub mod caller;
pub mod jwt;
pub mod limits;
pub mod password;
pub mod profile;
pub mod secret;
pub mod sessions;
pub mod users;

pub use caller::{Caller, Claimed, MaybeCaller, MaybeClaimed};
pub use jwt::JwtKeys;
