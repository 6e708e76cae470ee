//! Accounts and credentials: argon2id password hashes, HS256 JWT access
//! tokens, and the extractors handlers use to learn who is calling.

pub mod extractor;
pub mod jwt;
pub mod password;
pub mod secret;
pub mod users;

pub use extractor::{Caller, MaybeCaller};
pub use jwt::JwtKeys;
