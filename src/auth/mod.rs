//! Credentials and their rules: argon2id password hashes, HS256 JWT access
//! tokens, request rates per token and per login, the server's stored
//! secrets, and who is calling (`caller`; its HTTP extractors are in
//! `routes/caller.rs`). The account use cases that apply them (sign up,
//! sign in, sessions, profiles) are `accounts/`.

pub mod caller;
pub mod jwt;
pub mod limits;
pub mod password;
pub mod refused;
pub mod secret;

pub use caller::{Caller, Claimed, MaybeCaller, MaybeClaimed};
pub use jwt::JwtKeys;
