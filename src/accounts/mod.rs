//! Accounts, the use cases: signing up and in (`users`), sign-in sessions
//! and their refresh (`sessions`), and what anyone may see of a player
//! (`profile`). The rules and types they use (password hashes, tokens,
//! rates, who is calling) are `auth`'s.

pub mod blocks;
pub mod profile;
pub mod sessions;
pub mod users;
