//! Black-box tests of the HTTP API against real PostgreSQL: one binary, one
//! module per area, one fresh database per test.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

mod audit;
mod auth;
mod bad_input;
mod bots;
mod caching;
mod clocks;
mod commands;
mod conditional;
mod conditional_cards;
mod database;
mod deadlines;
mod events;
mod export;
mod games;
mod i18n;
mod inbox;
mod invitations;
mod limits;
mod log;
mod mail;
mod mail_play;
mod metrics;
mod native_push;
mod notification_preferences;
mod pause;
mod plans;
mod play;
mod processes;
mod push;
mod ratings;
mod refusals;
mod rematch;
mod retention;
mod rules_versions;
mod salts;
mod seats;
mod secrecy;
mod service;
mod sessions;
mod sharding;
mod snapshots;
mod streams;
mod substitutes;
mod takeback;
mod talk;
mod tournament_audit;
mod tournament_notes;
mod tournament_rounds;
mod tournaments;
mod transparency;
mod turns;
mod unfired;
mod upgrade;
mod watchers;
mod web_client;
mod webhooks;
mod wire_types;
