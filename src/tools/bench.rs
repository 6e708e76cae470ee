//! `hatstand bench`: a load generator that plays real games over HTTP.
//!
//! It registers users, creates `--games` games of a ruleset and plays them
//! concurrently for `--seconds`: each game's client reads `legal_commands`
//! from the previous response (or, when the turn passed to another seat, from
//! that seat's `GET /v1/games/{id}`) and posts one of them at the version it
//! read. Finished games are replaced by new ones. Each game has one request
//! in flight at a time, so at most `--games` commands are in flight. Without
//! `--base` it starts its own server in-process on a fresh database (with
//! no per-token rate limit: each table's few tokens play at machine speed),
//! and drops that database at the end.
//!
//! Each run prints the CPU time of every accepted command: the server's,
//! PostgreSQL's and the load generator's (see [`cpu`] for what is counted).
//! With `--pgbench` it also runs PostgreSQL alone, on the command's own three
//! statements and on a lean transaction, and prints how much of each rate
//! the server reaches (see [`pgbench`]).
//!
//! With `--login-storm N` it plays twice, quiet and then while N clients
//! send wrong passwords from one address as fast as they are answered, and
//! prints both latencies and their ratio, and the logins answered a second:
//! what a login storm costs a player (`--games 1`: one player's sequential
//! commands).
//!
//! With `--grow N` it measures every read endpoint and the command path on
//! an empty database, grows it by N games that are over, and measures again
//! (see [`grow`]).
//!
//! With `--ratings N` it measures what rating a game costs its finishing
//! command, and the rebuild's rate (see [`ratings`]).
//!
//! For failover drills: `--retry-unavailable` sends a request answered 503
//! (or not answered at all) again, the same body with the same
//! `Idempotency-Key`, every 100 ms, counts those retries and prints each
//! time without service (from the first 503 to the next accepted command);
//! `--acks FILE` writes every accepted command (game, seat, version sent,
//! command) as a JSON line, for checking afterwards that none was lost.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use awc::{Client, ClientRequest};
use clap::Args;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use hatstand::config::Settings;
use hatstand::db::{self, locate};

mod cpu;
mod follow;
mod grow;
mod pgbench;
mod ratings;

/// How the next seat learns of a move (`--follow`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Follow {
    Poll,
    Stream,
}

/// Options of `hatstand bench`.
#[derive(Debug, Clone, Args)]
pub struct BenchArgs {
    /// A running server to load (default: start one in-process on a fresh database).
    #[arg(long)]
    pub base: Option<String>,
    /// Games played at once (one request in flight each).
    #[arg(long, default_value_t = 16)]
    pub games: usize,
    /// The ruleset to play.
    #[arg(long, default_value = "hats")]
    pub ruleset: String,
    /// Seats per game (default: the ruleset's fewest).
    #[arg(long)]
    pub players: Option<usize>,
    /// How long to play, in seconds.
    #[arg(long, default_value_t = 20)]
    pub seconds: u64,
    /// Ruleset options for every game, as JSON.
    #[arg(long, default_value = "{}")]
    pub options: String,
    /// Send an `Idempotency-Key` with every command, as careful clients do.
    #[arg(long)]
    pub idempotency_keys: bool,
    /// How the next seat learns that the turn came to it: told at once by
    /// the load generator (`poll`), or from its own event stream, as a
    /// phone client does (`stream`, see [`follow`]).
    #[arg(long, value_enum, default_value = "poll")]
    pub follow: Follow,
    /// At the end, print what the finished games cost on disk (`hatstand
    /// storage` of the bench's database; not with `--base`), then again
    /// once they are archived.
    #[arg(long)]
    pub storage: bool,
    /// Expired idempotency keys and notifications to add, and prune while a
    /// second run plays (0: none; not with `--base`).
    #[arg(long, default_value_t = 0)]
    pub prune_backlog: u64,
    /// Clients sending wrong logins, all from one address, during a second
    /// run (0: no storm). With `--games 1`: one player's sequential
    /// commands alone, then during the storm.
    #[arg(long, default_value_t = 0)]
    pub login_storm: usize,
    /// With `--base`: the server's process id, for its CPU time per command
    /// (repeat it for several processes behind a balancer).
    #[arg(long = "server-pid")]
    pub server_pids: Vec<u32>,
    /// After the first run, run `pgbench` on the bench's database with as
    /// many clients as games, for as long, on the command's own three
    /// statements and on a transaction as lean as a command's, and print
    /// the share of each rate the server reached (not with `--base`).
    #[arg(long)]
    pub pgbench: bool,
    /// Send a request answered 503 (or not answered) again, every 100 ms,
    /// for up to a minute, and print the times without service.
    #[arg(long)]
    pub retry_unavailable: bool,
    /// Write every accepted command to this file, one JSON object a line:
    /// `{"game", "seat", "version" (the version it was sent at), "command",
    /// "sent" (when it was first sent), "at" (when it was accepted), in unix ms}`.
    #[arg(long)]
    pub acks: Option<std::path::PathBuf>,
    /// Measure the reads and the command path on an empty database, grow it
    /// by this many games that are over (written in bulk), and measure
    /// again (not with `--base`; see docs/performance.md).
    #[arg(long)]
    pub grow: Option<u64>,
    /// Measure what rating a game costs its finishing command (this many
    /// games of each kind: rated, casual, without the rating step) and the
    /// rebuild's rate (not with `--base`; see docs/ratings.md).
    #[arg(long)]
    pub ratings: Option<u64>,
}

/// How a client gets through a failover: what it retried, and when the
/// service was down as it saw it.
#[derive(Default)]
struct Outages {
    /// Requests sent again after a 503.
    retried_503: u64,
    /// Requests sent again after no answer (refused, reset, timed out).
    retried_unanswered: u64,
    /// Since when no command was accepted after a 503 (or no answer).
    down_since: Option<(Instant, std::time::SystemTime)>,
    /// Each time without service: from the first 503 to the first command
    /// accepted after it.
    windows: Vec<(std::time::SystemTime, Duration)>,
}

/// The HTTP client of every table, and what it records.
#[derive(Clone)]
struct Net {
    client: Client,
    /// With `--retry-unavailable`: 503s are retried and outages measured.
    retry: Option<std::sync::Arc<std::sync::Mutex<Outages>>>,
    /// With `--acks`: where accepted commands are written.
    acks: Option<std::sync::Arc<std::sync::Mutex<std::io::BufWriter<std::fs::File>>>>,
}

/// How long a request is retried before the bench gives up on it.
const RETRY_FOR: Duration = Duration::from_secs(60);
/// The pause between retries (finer than `Retry-After`, to time outages).
const RETRY_PAUSE: Duration = Duration::from_millis(100);

impl Net {
    fn outages(&self) -> Option<std::sync::MutexGuard<'_, Outages>> {
        self.retry
            .as_ref()
            .map(|r| r.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
    }

    /// A request was answered 503, or not at all.
    fn down(&self, unanswered: bool) {
        if let Some(mut o) = self.outages() {
            if unanswered {
                o.retried_unanswered += 1;
            } else {
                o.retried_503 += 1;
            }
            if o.down_since.is_none() {
                o.down_since = Some((Instant::now(), std::time::SystemTime::now()));
            }
        }
    }

    /// A command was accepted: `game` at `version`, by `seat`, first sent at `sent`.
    fn accepted(
        &self,
        game: &str,
        seat: usize,
        version: i64,
        command: &Value,
        sent: std::time::SystemTime,
    ) -> Result<(), String> {
        if let Some(mut o) = self.outages()
            && let Some((since, wall)) = o.down_since.take()
        {
            o.windows.push((wall, since.elapsed()));
        }
        if let Some(acks) = &self.acks {
            use std::io::Write;
            let ms = |t: std::time::SystemTime| {
                t.duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_millis())
            };
            let line = json!({
                "game": game, "seat": seat, "version": version, "command": command,
                "sent": ms(sent), "at": ms(std::time::SystemTime::now()),
            });
            let mut acks = acks
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            writeln!(acks, "{line}").map_err(|e| format!("--acks: {e}"))?;
        }
        Ok(())
    }

    /// Prints what was retried and each time without service.
    fn report_outages(&self) -> Result<(), String> {
        if let Some(acks) = &self.acks {
            use std::io::Write;
            acks.lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .flush()
                .map_err(|e| format!("--acks: {e}"))?;
        }
        let Some(o) = self.outages() else {
            return Ok(());
        };
        println!(
            "bench: retried {} requests answered 503 and {} unanswered",
            o.retried_503, o.retried_unanswered
        );
        for (wall, took) in &o.windows {
            let at = wall
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default()
                .as_millis();
            println!(
                "bench: without service from {at} (unix ms) for {:.3} s (first 503 to first accepted command)",
                took.as_secs_f64()
            );
        }
        if o.down_since.is_some() {
            println!("bench: still without service at the end");
        }
        Ok(())
    }
}

/// What one command cost.
struct Sample {
    micros: u64,
    /// The game's version the command was sent at (the length of its log).
    version: i64,
    error: Option<String>,
}

/// Runs the benchmark and prints its figures.
///
/// # Errors
/// When the server cannot be started or reached.
pub async fn run(args: BenchArgs, settings: Settings) -> Result<(), String> {
    if let Some(n) = args.grow {
        return grow::run(&args, &settings, n).await;
    }
    if let Some(n) = args.ratings {
        return ratings::run(&settings, n).await;
    }
    let options: Value =
        serde_json::from_str(&args.options).map_err(|e| format!("--options: {e}"))?;
    let kind = hatstand_engine::GameKind::from_id(&args.ruleset)
        .ok_or_else(|| format!("no ruleset {:?}", args.ruleset))?;
    let players = args.players.unwrap_or_else(|| {
        hatstand_engine::with_ruleset!(kind, |R| <R as hatstand_engine::Ruleset>::MIN_PLAYERS)
    });
    let (base, scratch) = match &args.base {
        Some(base) => (base.trim_end_matches('/').to_owned(), None),
        None => {
            let (base, scratch) = start_server(&settings).await?;
            (base, Some(scratch))
        }
    };
    if args.pgbench && scratch.is_none() {
        return Err("--pgbench needs the bench's own server (no --base)".to_owned());
    }
    let meter = cpu::Meter {
        server: match (&scratch, args.server_pids.is_empty()) {
            (Some(_), _) => cpu::Server::InProcess,
            (None, false) => cpu::Server::Processes(args.server_pids.clone()),
            (None, true) => cpu::Server::Unknown,
        },
        database: scratch.as_ref().map(|s| s.name.clone()),
    };
    println!(
        "bench: {} games of {} ({players} players) for {} s against {base}",
        args.games, args.ruleset, args.seconds
    );
    let acks = match &args.acks {
        Some(path) => Some(std::sync::Arc::new(std::sync::Mutex::new(
            std::io::BufWriter::new(
                std::fs::File::create(path)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
            ),
        ))),
        None => None,
    };
    let client = Net {
        client: Client::builder().timeout(Duration::from_secs(30)).finish(),
        retry: args.retry_unavailable.then(Default::default),
        acks,
    };
    let quiet = play_for(&client, &base, &args, &options, players, &meter).await?;
    let quiet = report(&quiet);
    client.report_outages()?;
    if let Some(scratch) = scratch.as_ref().filter(|_| args.pgbench) {
        // (PostgreSQL's CPU is not shown for pgbench: its backends start
        // and end inside the window, and an ended process's time is not
        // counted; see `proc_stat`.)
        let own = pgbench::run_command(
            &scratch.url,
            args.games,
            args.seconds,
            args.idempotency_keys,
        )
        .await?;
        println!(
            "pgbench, the command's three statements: {:.0} tps; hatstand reaches {:.0}% of it",
            own.tps,
            quiet.rate / own.tps * 100.0
        );
        let lean = pgbench::run(&scratch.url, args.games, args.seconds).await?;
        println!(
            "pgbench, a lean two-statement transaction: {:.0} tps; hatstand reaches {:.0}% of it",
            lean.tps,
            quiet.rate / lean.tps * 100.0
        );
    }
    if args.login_storm > 0 {
        println!(
            "bench: again, while {} clients send wrong passwords",
            args.login_storm
        );
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let storm: Vec<_> = (0..args.login_storm)
            .map(|n| {
                actix_web::rt::spawn(wrong_logins(
                    client.clone(),
                    base.clone(),
                    n,
                    std::sync::Arc::clone(&stop),
                ))
            })
            .collect();
        let stormy = play_for(&client, &base, &args, &options, players, &meter).await?;
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let mut answers: BTreeMap<u16, u64> = BTreeMap::new();
        for client in storm {
            for (status, n) in client.await.map_err(|e| e.to_string())? {
                *answers.entry(status).or_default() += n;
            }
        }
        let stormy = report(&stormy);
        let logins: u64 = answers.values().sum();
        #[expect(clippy::cast_precision_loss, reason = "figures for people")]
        let per_second = logins as f64 / stormy.elapsed;
        println!("bench: storm: {logins} wrong logins ({per_second:.0}/s), answered {answers:?}");
        compare("storm", &quiet, &stormy);
        let refused = answers.get(&429).copied().unwrap_or(0);
        println!(
            "bench: login storm of {} clients from one address: {:.0} -> {:.0} commands in {:.1} s windows, \
             p50 {:.2} -> {:.2} ms, p99 {:.2} -> {:.2} ms; {per_second:.0} wrong logins/s answered, {refused} of them 429",
            args.login_storm,
            quiet.rate * quiet.elapsed,
            stormy.rate * stormy.elapsed,
            stormy.elapsed,
            quiet.p50,
            stormy.p50,
            quiet.p99,
            stormy.p99,
        );
    }
    if args.prune_backlog > 0 {
        let scratch = scratch
            .as_ref()
            .ok_or("--prune-backlog needs the bench's own server (no --base)")?;
        let n = args.prune_backlog;
        add_backlog(&scratch.url, n).await?;
        println!(
            "bench: again, while pruning {n} expired idempotency keys and {n} expired notifications"
        );
        let pool = db::pool(&scratch.url, 1)?;
        let retention = hatstand::retention::Retention::from_settings(&settings.retention)?;
        let pruner = actix_web::rt::spawn(async move {
            let started = Instant::now();
            let pruned =
                hatstand::pruner::prune(&pool, &retention, hatstand::record::chain::now()).await;
            (pruned, started.elapsed())
        });
        let pruning = play_for(&client, &base, &args, &options, players, &meter).await?;
        let (pruned, took) = pruner.await.map_err(|e| e.to_string())?;
        let pruned = pruned?;
        let pruning = report(&pruning);
        #[expect(clippy::cast_precision_loss, reason = "figures for people")]
        let rows = (pruned.idempotency_keys + pruned.notifications) as f64;
        println!(
            "bench: pruned {} keys and {} notifications in {:.1} s ({:.0} rows/s, one connection)",
            pruned.idempotency_keys,
            pruned.notifications,
            took.as_secs_f64(),
            rows / took.as_secs_f64()
        );
        compare("pruning", &quiet, &pruning);
    }
    if let Some(scratch) = scratch {
        if args.storage {
            let mut conn = locate::connect(&scratch.url).await?;
            let costs = hatstand::db::storage::measure(&mut conn)
                .await
                .map_err(|e| e.to_string())?;
            print!("{}", crate::tools::storage::render(&costs));
            // And once archived, as they will be a month after they ended.
            let pool = db::pool(&scratch.url, 1)?;
            let now = hatstand::record::chain::now();
            let mut archived = 0;
            loop {
                let n = hatstand::games::archive_old::archive_due(
                    &pool,
                    now + chrono::TimeDelta::days(1),
                    now,
                )
                .await
                .map_err(|e| e.detail)?;
                archived += n;
                if n == 0 {
                    break;
                }
            }
            println!("storage: after archiving {archived} games:");
            let costs = hatstand::db::storage::measure(&mut conn)
                .await
                .map_err(|e| e.to_string())?;
            print!("{}", crate::tools::storage::render(&costs));
        }
        scratch.drop_database().await;
    }
    Ok(())
}

/// Prints a run's figures against the quiet run's.
fn compare(label: &str, quiet: &Figures, other: &Figures) {
    println!(
        "bench: {label} vs quiet: commands/s {:.2}x, p50 {:.2}x, p99 {:.2}x",
        other.rate / quiet.rate,
        other.p50 / quiet.p50,
        other.p99 / quiet.p99
    );
}

/// Adds `n` idempotency keys a day past their expiry (with answers of a
/// typical size) and `n` notifications past theirs, to the bench's database.
async fn add_backlog(url: &str, n: u64) -> Result<(), String> {
    let mut conn = locate::connect(url).await?;
    db::bench_fixtures::add_backlog(&mut conn, n).await
}

/// What one run of the tables produced: every table's report merged, how
/// long the run took, and the CPU time it cost.
struct Played {
    tables: TableReport,
    elapsed: f64,
    cpu: cpu::Spent,
}

/// Plays `--games` tables for `--seconds`, each with fresh users.
async fn play_for(
    client: &Net,
    base: &str,
    args: &BenchArgs,
    options: &Value,
    players: usize,
    meter: &cpu::Meter,
) -> Result<Played, String> {
    // The players sign up first: argon2 hashes (two per player, tens of
    // milliseconds each) are not what a command costs, so the measured
    // window starts once every table is seated.
    let run_id = uuid::Uuid::new_v4().simple().to_string();
    let seated = (0..args.games).map(|g| {
        let name = format!("b{}{g}", &run_id[..8]);
        async move {
            let mut tokens = Vec::new();
            for seat in 0..players {
                tokens.push(token(client, base, &format!("{name}s{seat}")).await?);
            }
            Ok::<_, String>(tokens)
        }
    });
    let seated = futures_util::future::join_all(seated).await;
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let tables = seated
        .into_iter()
        .enumerate()
        .map(|(g, tokens)| async move {
            play_table(
                client,
                base,
                &args.ruleset,
                options,
                &tokens?,
                g as u64,
                deadline,
                args.idempotency_keys,
                args.follow,
            )
            .await
        });
    let started = Instant::now();
    let before = meter.read();
    let results = futures_util::future::join_all(tables).await;
    let cpu = before.until(&meter.read());
    let elapsed = started.elapsed().as_secs_f64();
    let mut tables = TableReport {
        samples: Vec::new(),
        reads: 0,
        finished: 0,
        learned: Vec::new(),
    };
    for result in results {
        let table = result?;
        tables.samples.extend(table.samples);
        tables.reads += table.reads;
        tables.finished += table.finished;
        tables.learned.extend(table.learned);
    }
    Ok(Played {
        tables,
        elapsed,
        cpu,
    })
}

/// Sends wrong logins (for unknown users, a new name each time, so no
/// account limit stops them) until told to stop; counts the answers.
async fn wrong_logins(
    client: Net,
    base: String,
    n: usize,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> BTreeMap<u16, u64> {
    let mut answers = BTreeMap::new();
    let mut i = 0u64;
    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
        i += 1;
        let creds = json!({"username": format!("storm{n}x{i}"), "password": "not-the-password"});
        let status = call(
            &client,
            "POST",
            &format!("{base}/v1/auth/login"),
            None,
            Some(&creds),
        )
        .await
        .map_or(0, |(status, _)| status);
        *answers.entry(status).or_default() += 1;
    }
    answers
}

/// A database made for one benchmark run.
struct Scratch {
    admin_url: String,
    url: String,
    name: String,
}

impl Scratch {
    async fn drop_database(self) {
        if let Ok(mut admin) = locate::connect(&self.admin_url).await {
            db::bench_fixtures::drop_database(&mut admin, &self.name).await;
        }
    }
}

async fn start_server(settings: &Settings) -> Result<(String, Scratch), String> {
    let (url, _) = locate::locate(
        settings.database_url.as_deref(),
        &settings.data_dir,
        "hatstand",
    )
    .await?;
    let name = format!("hatstand_bench_{}", uuid::Uuid::new_v4().simple());
    let bench_url = locate::with_database(&url, &name);
    locate::ensure_database(&bench_url).await?;
    db::migrate(&bench_url).await?;
    // Each table's few tokens play as fast as the server answers: far over
    // the per-token rate meant for clients, so it is off here.
    let mut settings = settings.clone();
    settings.token_rate = 0;
    // Likewise the cost limits a load generator on one address trips over
    // at once (its accounts, its games, its streams): `docs/limits.md`.
    settings.limits.registrations_per_address = 0;
    settings.limits.games_per_hour = 0;
    settings.limits.games_at_once = 0;
    settings.limits.streams_per_address = 0;
    settings.limits.streams_per_user = 0;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    // The server runs on threads of its own (its own runtime, its workers),
    // the load generator on this one: their CPU times stay apart.
    let (ready, started) = tokio::sync::oneshot::channel::<Result<(), String>>();
    let server_url = bench_url.clone();
    std::thread::Builder::new()
        .name("server".to_owned())
        .spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                let server = match hatstand::startup::state_for(&server_url, &settings).await {
                    Ok(state) => hatstand::startup::serve(state, listener, settings.workers)
                        .map_err(|e| e.to_string()),
                    Err(e) => Err(e),
                };
                match server {
                    Ok(server) => {
                        let _ = ready.send(Ok(()));
                        let _ = server.await;
                    }
                    Err(e) => {
                        let _ = ready.send(Err(e));
                    }
                }
            });
        })
        .map_err(|e| e.to_string())?;
    started
        .await
        .map_err(|_| "the server stopped before it started".to_owned())??;
    Ok((
        format!("http://127.0.0.1:{port}"),
        Scratch {
            admin_url: locate::with_database(&url, "postgres"),
            url: bench_url.clone(),
            name,
        },
    ))
}

struct TableReport {
    samples: Vec<Sample>,
    reads: u64,
    finished: u64,
    /// With `--follow stream`: how long each next seat waited to see the
    /// move on its stream after the command was answered.
    learned: Vec<Duration>,
}

/// A request to `url` with the bearer `token`, if any.
fn request(
    client: &Client,
    method: &str,
    url: &str,
    token: Option<&str>,
) -> Result<ClientRequest, String> {
    let method =
        actix_web::http::Method::from_bytes(method.as_bytes()).map_err(|e| e.to_string())?;
    let req = client.request(method, url);
    Ok(match token {
        Some(t) => req.insert_header(("Authorization", format!("Bearer {t}"))),
        None => req,
    })
}

/// Sends a request (with `key` as its `Idempotency-Key`, if any): the status
/// and the JSON answer. With `--retry-unavailable`, a 503 or no answer is
/// sent again, unchanged, until answered otherwise (a minute at most).
async fn exchange(
    net: &Net,
    method: &str,
    url: &str,
    token: Option<&str>,
    key: Option<&str>,
    body: Option<&Value>,
) -> Result<(u16, Value), String> {
    let started = Instant::now();
    loop {
        let mut req = request(&net.client, method, url, token)?;
        if let Some(key) = key {
            req = req.insert_header(("Idempotency-Key", key));
        }
        let answer = send(req, body).await;
        if net.retry.is_none() {
            return answer;
        }
        match &answer {
            Ok((503, _)) => net.down(false),
            Err(_) => net.down(true),
            Ok(_) => return answer,
        }
        if started.elapsed() > RETRY_FOR {
            return answer;
        }
        actix_web::rt::time::sleep(RETRY_PAUSE).await;
    }
}

/// Sends `req` with `body` as JSON (if any): the status and the JSON answer.
async fn send(req: ClientRequest, body: Option<&Value>) -> Result<(u16, Value), String> {
    let url = req.get_uri().to_string();
    let mut res = match body {
        Some(b) => req.send_json(b).await,
        None => req.send().await,
    }
    .map_err(|e| format!("{url}: {e}"))?;
    let bytes = res
        .body()
        .limit(64 * 1024 * 1024)
        .await
        .map_err(|e| e.to_string())?;
    let value = if bytes.is_empty() {
        Value::Null
    } else if res.status().as_u16() == 503 {
        // Not necessarily the server's problem+json (a proxy's page).
        serde_json::from_slice(&bytes).unwrap_or(Value::Null)
    } else {
        serde_json::from_slice(&bytes).map_err(|e| e.to_string())?
    };
    Ok((res.status().as_u16(), value))
}

async fn call(
    client: &Net,
    method: &str,
    url: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Result<(u16, Value), String> {
    exchange(client, method, url, token, None, body).await
}

async fn token(client: &Net, base: &str, name: &str) -> Result<String, String> {
    let creds = json!({"username": name, "password": "bench-password"});
    call(
        client,
        "POST",
        &format!("{base}/v1/auth/register"),
        None,
        Some(&creds),
    )
    .await?;
    let (_, login) = call(
        client,
        "POST",
        &format!("{base}/v1/auth/login"),
        None,
        Some(&creds),
    )
    .await?;
    login["access_token"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("login failed: {login}"))
}

#[expect(clippy::too_many_arguments, reason = "one table's whole configuration")]
async fn play_table(
    client: &Net,
    base: &str,
    ruleset: &str,
    options: &Value,
    tokens: &[String],
    seed: u64,
    deadline: Instant,
    keyed: bool,
    follow: Follow,
) -> Result<TableReport, String> {
    let players = tokens.len();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut report = TableReport {
        samples: Vec::new(),
        reads: 0,
        finished: 0,
        learned: Vec::new(),
    };
    while Instant::now() < deadline {
        let create = json!({"ruleset": ruleset, "players": players, "options": options});
        let (status, game) = call(
            client,
            "POST",
            &format!("{base}/v1/games"),
            Some(&tokens[0]),
            Some(&create),
        )
        .await?;
        if status != 201 {
            return Err(format!("cannot create a game: {game}"));
        }
        let id = game["id"].as_str().unwrap_or_default().to_owned();
        let mut game = game;
        for t in &tokens[1..] {
            let (status, joined) = call(
                client,
                "POST",
                &format!("{base}/v1/games/{id}/join"),
                Some(t),
                Some(&json!({})),
            )
            .await?;
            game = joined;
            if status != 200 {
                // A join retried after it committed answers `already_joined`.
                game = call(client, "GET", &format!("{base}/v1/games/{id}"), None, None)
                    .await?
                    .1;
            }
        }
        let mut seat_view: Option<(usize, Value)> = None;
        let mut followers = Vec::new();
        if follow == Follow::Stream {
            for t in tokens {
                followers.push(follow::Follower::open(&client.client, base, &id, t).await?);
            }
        }
        while game["status"] == "active" && Instant::now() < deadline {
            let to_act: Vec<usize> = game["to_act"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_u64().and_then(|s| usize::try_from(s).ok()))
                        .collect()
                })
                .unwrap_or_default();
            let Some(&seat) = to_act.choose(&mut rng) else {
                break;
            };
            let view = match seat_view.take() {
                Some((s, v))
                    if s == seat
                        && v["legal_commands"]
                            .as_array()
                            .is_some_and(|l| !l.is_empty()) =>
                {
                    v
                }
                _ => {
                    if let Some(stream) = followers.get_mut(seat) {
                        let version = game["version"].as_i64().unwrap_or_default();
                        report.learned.push(stream.until(version).await?);
                    }
                    report.reads += 1;
                    call(
                        client,
                        "GET",
                        &format!("{base}/v1/games/{id}"),
                        Some(&tokens[seat]),
                        None,
                    )
                    .await?
                    .1
                }
            };
            let Some(command) = view["legal_commands"]
                .as_array()
                .and_then(|l| l.choose(&mut rng))
                .cloned()
            else {
                break;
            };
            let version = view["version"].as_i64().unwrap_or_default();
            let body = json!({"expected_version": version, "command": command});
            let key = keyed.then(|| uuid::Uuid::new_v4().to_string());
            let sent = Instant::now();
            let sent_at = std::time::SystemTime::now();
            let (status, answer) = exchange(
                client,
                "POST",
                &format!("{base}/v1/games/{id}/commands"),
                Some(&tokens[seat]),
                key.as_deref(),
                Some(&body),
            )
            .await?;
            let micros = u64::try_from(sent.elapsed().as_micros()).unwrap_or(u64::MAX);
            if status == 200 {
                client.accepted(&id, seat, version, &command, sent_at)?;
                report.samples.push(Sample {
                    micros,
                    version,
                    error: None,
                });
                game = answer["game"].clone();
                seat_view = Some((seat, game.clone()));
            } else {
                let code = answer["code"].as_str().unwrap_or("unknown").to_owned();
                report.samples.push(Sample {
                    micros,
                    version,
                    error: Some(code),
                });
                game = call(client, "GET", &format!("{base}/v1/games/{id}"), None, None)
                    .await?
                    .1;
            }
        }
        if game["status"] == "finished" {
            report.finished += 1;
        }
    }
    Ok(report)
}

/// The headline figures of a run.
struct Figures {
    elapsed: f64,
    rate: f64,
    p50: f64,
    p99: f64,
    /// The server's CPU per accepted command, in ms, when known.
    server_cpu: Option<f64>,
    /// PostgreSQL's CPU per accepted command, in ms, when known.
    postgres_cpu: Option<f64>,
}

#[expect(clippy::cast_precision_loss, reason = "figures for people")]
fn report(played: &Played) -> Figures {
    let TableReport {
        samples,
        reads,
        finished,
        learned,
    } = &played.tables;
    let elapsed = played.elapsed;
    let mut latencies: Vec<u64> = samples
        .iter()
        .filter(|s| s.error.is_none())
        .map(|s| s.micros)
        .collect();
    latencies.sort_unstable();
    let pct = |p: f64| -> f64 {
        if latencies.is_empty() {
            return 0.0;
        }
        let i = ((latencies.len() as f64 - 1.0) * p).round() as usize;
        latencies[i.min(latencies.len() - 1)] as f64 / 1000.0
    };
    let mut errors: BTreeMap<&str, u64> = BTreeMap::new();
    for s in samples {
        if let Some(code) = &s.error {
            *errors.entry(code.as_str()).or_default() += 1;
        }
    }
    let accepted = latencies.len() as f64;
    let rate = accepted / elapsed;
    println!(
        "bench: {accepted} commands accepted in {elapsed:.1} s, {finished} games finished, {reads} extra reads (turn changes)"
    );
    println!(
        "bench: latency p50 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        pct(0.50),
        pct(0.95),
        pct(0.99),
        pct(1.0)
    );
    if !learned.is_empty() {
        let mut waits: Vec<Duration> = learned.clone();
        waits.sort_unstable();
        let at = |p: f64| {
            let i = ((waits.len() as f64 - 1.0) * p).round() as usize;
            waits[i.min(waits.len() - 1)].as_secs_f64() * 1000.0
        };
        println!(
            "bench: following the event stream: the next seat saw the move p50 {:.2} ms, p99 {:.2} ms after its answer ({} turn changes)",
            at(0.50),
            at(0.99),
            waits.len()
        );
    }
    // The cost of a command must not grow with the game's log.
    for (low, high) in [(0, 100), (100, 1000), (1000, i64::MAX)] {
        let mut bucket: Vec<u64> = samples
            .iter()
            .filter(|s| s.error.is_none() && s.version >= low && s.version < high)
            .map(|s| s.micros)
            .collect();
        if bucket.is_empty() {
            continue;
        }
        bucket.sort_unstable();
        let p50 = bucket[bucket.len() / 2] as f64 / 1000.0;
        let label = if high == i64::MAX {
            format!("log of {low}+ events")
        } else {
            format!("log of {low}-{} events", high - 1)
        };
        println!(
            "bench: {label}: p50 {p50:.2} ms over {} commands",
            bucket.len()
        );
    }
    for (code, n) in &errors {
        println!("bench: error {code}: {n}");
    }
    let total_errors: u64 = errors.values().sum();
    let per_command = |ms: Option<f64>| ms.filter(|_| accepted > 0.0).map(|ms| ms / accepted);
    let server = per_command(played.cpu.server);
    let mut costs = Vec::new();
    for (who, ms) in [
        ("server", server),
        ("PostgreSQL", per_command(played.cpu.postgres)),
        ("load generator", per_command(played.cpu.generator)),
    ] {
        if let Some(ms) = ms {
            costs.push(format!("{who} {ms:.3} ms"));
        }
    }
    if !costs.is_empty() {
        println!("bench: CPU per accepted command: {}", costs.join(", "));
    }
    let server_ms = server;
    let server = server.map_or_else(String::new, |ms| format!(", {ms:.3} ms server CPU/command"));
    println!(
        "bench: {rate:.0} commands/s, p50 {:.2} ms, p99 {:.2} ms, {total_errors} errors{server}",
        pct(0.50),
        pct(0.99)
    );
    Figures {
        elapsed,
        rate,
        p50: pct(0.50),
        p99: pct(0.99),
        server_cpu: server_ms,
        postgres_cpu: per_command(played.cpu.postgres),
    }
}
