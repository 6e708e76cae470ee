//! hatstand: a turn-based, asynchronous game server with auditable,
//! event-sourced game records.

pub mod auth;
pub mod bench;
pub mod config;
pub mod db;
pub mod deadlines;
pub mod error;
pub mod games;
pub mod notify;
pub mod openapi;
pub mod record;
pub mod retention;
pub mod routes;
pub mod startup;
pub mod state;
pub mod storage;
pub mod webhooks;

pub use hatstand_engine as engine;
