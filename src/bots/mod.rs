//! Bots on the server: thinking off the HTTP threads, and the worker that
//! plays their turns (the built-in accounts and seating them in games are a
//! change of an open game: `games/bot_seats.rs`).
//!
//! - Every level of [`hatstand_engine::bots`] has one built-in account
//!   (`bot.random`, `bot.greedy`, `bot.ismcts`; users of kind `bot`, written
//!   by a migration). Nobody can sign in as them.
//! - A game gets bot seats when it is created (`bots`) or later, while it is
//!   open (`POST /v1/games/{id}/bots`, `games::bot_seats::AddBot`).
//! - The [`worker`] of every server process plays the turns of built-in
//!   bots through the same command path as a player: the move is an
//!   ordinary event with the bot as its actor.
//! - A bot is shown its seat's view and legal commands, nothing else
//!   ([`think`]).
//! - Accounts of players' own bots are users of kind `bot` too (`POST
//!   /v1/me/bot`): they play through the API like anyone, labelled as bots,
//!   and games created with `humans_only` refuse them.

pub mod think;
pub mod worker;
