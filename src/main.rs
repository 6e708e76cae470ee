//! The `hatstand` command: serve (the default), migrate, verify, export,
//! openapi, bench, arena, storage, probe. The load generator (`bench`) lives in
//! this binary, outside the library the server runs.

mod tools;

use std::process::ExitCode;

use clap::Parser;
use hatstand::config::Settings;
use hatstand::{db, openapi, startup};
use tracing_subscriber::EnvFilter;

use crate::tools::cli::{Cli, Command};
use crate::tools::{arena, bench, cli, records};

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    let outcome = match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => run_async(serve(cli.settings)),
        Command::Migrate => run_async(migrate(cli.settings)),
        Command::Verify { file, key } => verify_file(&file, key.as_deref()),
        Command::Keys {
            command: cli::KeysCommand::Rotate,
        } => run_async(rotate_keys(cli.settings)),
        Command::Log {
            command: cli::LogCommand::Monitor { server, state, key },
        } => run_async(records::monitor(server, state, key)),
        Command::Openapi { out } => write_openapi(out.as_deref()),
        Command::Export { since, out } => run_async(export(cli.settings, since, out)),
        Command::Probe => probe(cli.settings.bind),
        Command::Storage => run_async(storage(cli.settings)),
        Command::Ratings(cli::RatingsCommand::Rebuild) => run_async(ratings_rebuild(cli.settings)),
        Command::Reliability(cli::ReliabilityCommand::Rebuild) => {
            run_async(reliability_rebuild(cli.settings))
        }
        Command::Talk(command) => run_async(talk(cli.settings, command)),
        Command::Bench(args) => run_async(bench::run(args, cli.settings)),
        Command::Arena(args) => arena::run(&args),
        Command::MailIn { recipient } => {
            return match run_async(mail_in(cli.settings, recipient)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(message) => {
                    eprintln!("hatstand mail-in: {message}; deliver again later");
                    // EX_TEMPFAIL: the MTA keeps the mail and retries.
                    ExitCode::from(75)
                }
            };
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            tracing::error!("{message}");
            eprintln!("hatstand: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run_async(future: impl Future<Output = Result<(), String>>) -> Result<(), String> {
    actix_web::rt::System::new().block_on(future)
}

async fn serve(settings: Settings) -> Result<(), String> {
    let state = startup::prepare(&settings).await?;
    let listener = std::net::TcpListener::bind(settings.bind)
        .map_err(|e| format!("cannot listen on {}: {e}", settings.bind))?;
    tracing::info!(address = %settings.bind, "serving; API docs at /docs");
    startup::serve(state, listener, settings.workers)
        .map_err(|e| e.to_string())?
        .await
        .map_err(|e| e.to_string())
}

/// The server's database URL, found as `serve` finds it.
async fn database_url(settings: &Settings) -> Result<String, String> {
    let (url, _) = db::locate::locate(
        settings.database_url.as_deref(),
        &settings.data_dir,
        "hatstand",
    )
    .await?;
    Ok(url)
}

async fn storage(settings: Settings) -> Result<(), String> {
    let url = database_url(&settings).await?;
    let mut conn = db::locate::connect(&url).await?;
    let costs = hatstand::db::storage::measure(&mut conn)
        .await
        .map_err(|e| e.to_string())?;
    print!("{}", crate::tools::storage::render(&costs));
    Ok(())
}

async fn ratings_rebuild(settings: Settings) -> Result<(), String> {
    let url = database_url(&settings).await?;
    db::migrate(&url).await?;
    let mut conn = db::locate::connect(&url).await?;
    let started = std::time::Instant::now();
    let games = hatstand::ratings::projection::rebuild(&mut conn)
        .await
        .map_err(|e| e.detail)?;
    let secs = started.elapsed().as_secs_f64();
    #[allow(clippy::cast_precision_loss)]
    let rate = games as f64 / secs.max(1e-9);
    println!("rebuilt the ratings from {games} finished games in {secs:.3} s ({rate:.0} games/s)");
    Ok(())
}

async fn reliability_rebuild(settings: Settings) -> Result<(), String> {
    let url = database_url(&settings).await?;
    db::migrate(&url).await?;
    let mut conn = db::locate::connect(&url).await?;
    let players = hatstand::ratings::reliability::rebuild(&mut conn)
        .await
        .map_err(|e| e.detail)?;
    println!("counted the reliability of {players} players again from their seats");
    Ok(())
}

/// `hatstand talk reported` and `hatstand talk hide`, through talk's
/// moderation use cases.
async fn talk(settings: Settings, command: cli::TalkCommand) -> Result<(), String> {
    use hatstand::talk::moderation;
    let url = database_url(&settings).await?;
    let (context, sent) = startup::tool_context(&url, &settings).await?;
    let outcome = match command {
        cli::TalkCommand::Reported { hidden, limit } => {
            moderation::reported(&context, hidden, limit)
                .await
                .map(|found| {
                    for r in found {
                        let hidden = if r.hidden_at.is_some() {
                            " (hidden)"
                        } else {
                            ""
                        };
                        println!(
                            "{} {} {} in {}, {} report(s), last {}{hidden}: {}\n    {}",
                            r.game_id,
                            r.message_id,
                            r.author_name,
                            r.room,
                            r.reports,
                            r.last_reported.format("%Y-%m-%d %H:%M UTC"),
                            r.reasons,
                            r.body.replace('\n', "\n    ")
                        );
                    }
                })
        }
        cli::TalkCommand::Hide {
            game,
            message,
            operator,
            reason,
        } => moderation::hide_as(&context, &operator, game, message, &reason)
            .await
            .map(|hidden| println!("hidden: message {} of game {game}", hidden.id)),
    };
    drop(context);
    let _ = sent.await;
    outcome.map_err(|e| format!("{}: {}", e.code.as_str(), e.detail))
}

async fn migrate(settings: Settings) -> Result<(), String> {
    let url = database_url(&settings).await?;
    db::locate::ensure_database(&url).await?;
    db::migrate(&url).await
}

async fn export(
    settings: Settings,
    since: Option<String>,
    out: Option<std::path::PathBuf>,
) -> Result<(), String> {
    use futures_util::TryStreamExt;
    use std::io::Write;
    let since = hatstand::games::export::parse_since(since.as_deref()).map_err(|e| e.detail)?;
    let url = database_url(&settings).await?;
    let pool = db::pool(&url, 2)?;
    let signer = hatstand::transparency::keys::load(&pool).await?;
    let mut writer: Box<dyn Write> = match &out {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let mut lines = std::pin::pin!(hatstand::games::export::lines(pool, signer, None, since));
    let mut count = 0u64;
    while let Some(line) = lines.try_next().await.map_err(|e| e.to_string())? {
        writer.write_all(&line).map_err(|e| e.to_string())?;
        count += 1;
    }
    writer.flush().map_err(|e| e.to_string())?;
    eprintln!("export: {count} games");
    Ok(())
}

/// Verifies an audit file: one audit document, or JSON Lines of them (an
/// export), each line checked on its own.
fn verify_file(file: &std::path::Path, key: Option<&str>) -> Result<(), String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let keys = key.map(records::read_keys).transpose()?;
    let texts = hatstand::transparency::check::documents(&text);
    if texts.len() < 2 {
        return records::verify_text(&text, keys.as_ref());
    }
    let mut failed = 0;
    for (n, line) in texts.iter().enumerate() {
        if let Err(why) = records::verify_text(line, keys.as_ref()) {
            println!("line {}: {why}", n + 1);
            failed += 1;
        }
    }
    if failed > 0 {
        return Err(format!("{failed} of {} lines did not verify", texts.len()));
    }
    println!("verified: all {} lines", texts.len());
    Ok(())
}

/// `hatstand keys rotate`.
async fn rotate_keys(settings: Settings) -> Result<(), String> {
    let url = database_url(&settings).await?;
    let mut conn = db::locate::connect(&url).await?;
    let id = hatstand::transparency::keys::rotate(&mut conn)
        .await
        .map_err(|e| e.detail)?;
    println!(
        "signing with the new key {id}; running servers sign with it from their next signature"
    );
    Ok(())
}

fn write_openapi(out: Option<&std::path::Path>) -> Result<(), String> {
    let text = openapi::document_json().map_err(|e| e.to_string())?;
    match out {
        Some(path) => {
            std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
        }
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

/// `hatstand mail-in`: one mail from standard input through the same path
/// as `--smtp-listen`.
async fn mail_in(settings: Settings, recipients: Vec<String>) -> Result<(), String> {
    use std::io::Read;
    let limit = hatstand::mail::inbound::MAX_MAIL_BYTES;
    let mut raw = Vec::new();
    std::io::stdin()
        .lock()
        .take(limit as u64 + 1)
        .read_to_end(&mut raw)
        .map_err(|e| format!("reading the mail: {e}"))?;
    let url = database_url(&settings).await?;
    let (context, sent) = startup::tool_context(&url, &settings).await?;
    let secret = std::sync::Arc::clone(&context.mail_secret);
    let received = hatstand::mail::inbound::receive(&context, &secret, &raw, &recipients)
        .await
        .map_err(|e| e.to_string())?;
    drop(context);
    // The NOTIFYs that wake the servers' waiters and mail workers.
    let _ = sent.await;
    use hatstand::mail::inbound::Received;
    match received {
        Received::Moved { game, version } => {
            eprintln!("played in game {game}: now at version {version}")
        }
        Received::Refused(why) => eprintln!("not played (answered by mail): {why}"),
        Received::Ignored(why) => eprintln!("ignored: {why}"),
        Received::Said { game, message } => {
            eprintln!("said in game {game}'s talk: message {message}")
        }
    }
    Ok(())
}

/// A minimal HTTP GET of `/healthz`, so container images need no curl.
fn probe(bind: std::net::SocketAddr) -> Result<(), String> {
    use std::io::{Read, Write};
    let address = if bind.ip().is_unspecified() {
        std::net::SocketAddr::from(([127, 0, 0, 1], bind.port()))
    } else {
        bind
    };
    let timeout = std::time::Duration::from_secs(3);
    let mut stream =
        std::net::TcpStream::connect_timeout(&address, timeout).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    write!(
        stream,
        "GET /healthz HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .map_err(|e| e.to_string())?;
    let mut answer = String::new();
    stream
        .read_to_string(&mut answer)
        .map_err(|e| e.to_string())?;
    if answer.starts_with("HTTP/1.1 200") {
        Ok(())
    } else {
        Err(format!(
            "unhealthy: {}",
            answer.lines().next().unwrap_or("no answer")
        ))
    }
}
