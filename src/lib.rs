//! hatstand: a turn-based, asynchronous game server with auditable,
//! event-sourced game records.

pub mod accounts;
pub mod auth;
pub mod bots;
pub mod config;
pub mod context;
pub mod db;
pub mod deadlines;
pub mod error;
pub mod games;
pub mod health;
pub mod i18n;
pub mod mail;
pub mod metrics;
pub mod notifications;
pub mod openapi;
pub mod proc_stat;
pub mod pruner;
pub mod push;
pub mod rate;
pub mod ratings;
pub mod ratings_read;
pub mod record;
pub mod retention;
pub mod routes;
pub mod startup;
pub mod talk;
pub mod tournaments;
pub mod transparency;
pub mod turns;
pub mod wake;
pub mod web;

pub use hatstand_engine as engine;
