//! Turn conveniences (docs/turn-conveniences.md): what spares a player a
//! round trip that decides nothing. Each user's settings live here; the
//! forced moves themselves are played by the step that makes them due
//! (`games::step`), so they are written in the same version-guarded append
//! as the move that made it the player's turn.

pub mod settings;
