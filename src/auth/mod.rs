//! Accounts and credentials: argon2id password hashes, sign-in sessions
//! (HS256 JWT access tokens and rotating refresh tokens), request rates per
//! token, and the extractors handlers use to learn who is calling.

pub mod extractor;
pub mod jwt;
pub mod limits;
pub mod password;
pub mod profile;
pub mod secret;
pub mod sessions;
pub mod users;

pub use extractor::{Caller, Claimed, MaybeCaller, MaybeClaimed};
pub use jwt::JwtKeys;
