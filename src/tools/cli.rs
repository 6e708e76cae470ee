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

/// What to do with the signing keys.
#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Retire the key that signs and make a new one (the old one stays
    /// published; running servers sign with the new one once restarted).
    Rotate,
}

/// What to do with the log.
#[derive(Debug, Subcommand)]
pub enum LogCommand {
    /// Check that the server's newest signed tree head extends the one seen
    /// last (kept in `--state`), and report a fork. Run it from cron.
    Monitor {
        /// The server, e.g. `https://hatstand.example`.
        #[arg(long)]
        server: String,
        /// Where the last head seen is kept between runs.
        #[arg(long)]
        state: PathBuf,
        /// The server's public keys (as for `verify --key`); fetched from
        /// the server when absent.
        #[arg(long)]
        key: Option<String>,
    },
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
        /// The server's public keys: the document at
        /// `/.well-known/hatstand-keys.json`, or one public key in hex (a file
        /// or the hex itself). With it, the signature is checked first (an
        /// unsigned or altered document is refused) and so is the document's
        /// proof that the game is in the log under a signed head.
        #[arg(long)]
        key: Option<String>,
    },
    /// The server's signing keys.
    Keys {
        #[command(subcommand)]
        command: KeysCommand,
    },
    /// The transparency log of games that are over.
    Log {
        #[command(subcommand)]
        command: LogCommand,
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
    Bench(crate::tools::bench::BenchArgs),
    /// Play bots against each other on the engines and print win rates.
    Arena(crate::tools::arena::ArenaArgs),
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
    /// Reliability (docs/seats.md).
    #[command(subcommand)]
    Reliability(ReliabilityCommand),
    /// Table talk's moderation (docs/talk.md).
    #[command(subcommand)]
    Talk(TalkCommand),
}

/// `hatstand talk …`.
#[derive(Debug, clap::Subcommand)]
pub enum TalkCommand {
    /// List the reported messages, the most recently reported first: game,
    /// message, author, room, reports and their reasons, text.
    Reported {
        /// Also the messages already hidden.
        #[arg(long)]
        hidden: bool,
        /// At most this many (1–1000).
        #[arg(long, default_value_t = 50)]
        limit: i64,
    },
    /// Hide a reported message from everyone, as an operator (an account
    /// in the `operators` table); the record keeps when, by whom and why.
    Hide {
        /// The game's id.
        game: uuid::Uuid,
        /// The message's id.
        message: uuid::Uuid,
        /// The operator's username.
        #[arg(long)]
        operator: String,
        /// Why (at most 500 characters).
        #[arg(long)]
        reason: String,
    },
}

/// `hatstand reliability …`.
#[derive(Debug, clap::Subcommand)]
pub enum ReliabilityCommand {
    /// Count every player's reliability again from their seats in games
    /// over, a batch of players per transaction; prints how many.
    Rebuild,
}

/// `hatstand ratings …`.
#[derive(Debug, clap::Subcommand)]
pub enum RatingsCommand {
    /// Forget every rating and rate every finished game again, in finish
    /// order, from the games' records alone; prints games/s.
    Rebuild,
}
