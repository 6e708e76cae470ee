//! The command line: what to do, and the settings every command shares.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use hatstand::config::Settings;

/// The hatstand game server.
#[derive(Debug, Parser)]
#[command(name = "hatstand", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub settings: Settings,
}

/// What to do (serve when none is given).
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the HTTP API (the default).
    Serve,
    /// Create the database if needed and run the migrations, then exit.
    Migrate,
    /// Verify an audit document exported from `GET /v1/games/{id}/audit`.
    Verify {
        /// The audit JSON file.
        file: PathBuf,
    },
    /// Write the audits of every game that is over as JSON Lines (one audit a
    /// line, each verifiable on its own), oldest end first.
    Export {
        /// Only games that ended strictly after this RFC 3339 time (the
        /// `finished_at` of the last line of a previous export).
        #[arg(long)]
        since: Option<String>,
        /// Write here instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Print what a finished game costs on disk, per ruleset and table.
    Storage,
    /// Print the OpenAPI document (or write it to a file).
    Openapi {
        /// Write here instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Play games over HTTP under load and print commands/s and latencies.
    Bench(crate::bench::BenchArgs),
    /// Play bots against each other on the engines and print win rates.
    Arena(crate::arena::ArenaArgs),
    /// Exit 0 when the server at `--bind` answers `/healthz` (for container healthchecks).
    Probe,
    /// Read one mail (RFC 5322) on standard input and play the move it
    /// replies with, as an MTA's pipe transport delivers it. Exits 0 when
    /// the mail was handled (played, answered, or ignored: the reason goes
    /// to standard error) and 75 (EX_TEMPFAIL) when it should be delivered
    /// again later (the database is unavailable).
    MailIn {
        /// The envelope recipient(s) (e.g. Postfix's `${recipient}`); without
        /// them the reply address is read from the headers.
        #[arg(long)]
        recipient: Vec<String>,
    },
    /// Ratings (docs/ratings.md).
    #[command(subcommand)]
    Ratings(RatingsCommand),
}

/// `hatstand ratings …`.
#[derive(Debug, clap::Subcommand)]
pub enum RatingsCommand {
    /// Forget every rating and rate every finished game again, in finish
    /// order, from the games' records alone; prints games/s.
    Rebuild,
}
