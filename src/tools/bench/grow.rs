//! `hatstand bench --grow N`: what a server's history costs its requests.
//!
//! On a fresh database of its own (no `--base`), the bench
//!
//! 1. starts two servers, each on a fresh database, and on each seats its
//!    probe players over HTTP: `heavy`, who plays a few live games with a
//!    partner, and `newcomer`, who has no game at all; then warms each up
//!    with one command run (the tables of a plain `hatstand bench`,
//!    `--games` of them for `--seconds`);
//! 2. grows the second database by `N` games that are over: copies of the games its
//!    warm-up finished (played by the engines through the server), each under a new
//!    id and new players, spread over the two years before now. Written in
//!    bulk (`INSERT … SELECT`, a batch of games a statement), not over HTTP.
//!    Like a real server's history, the games over for more than the
//!    retention's 30 days are archived (one compressed audit each, no
//!    events, no snapshot); the last 30 days keep their events, and their
//!    players' notifications. `heavy` sits in one game of every
//!    [`HEAVY_EVERY`], so their history grows with the server's; the other
//!    seats go to `N / 10` filler players;
//! 3. writes the same into the first database, but only heavy's games: the
//!    *small* side, where heavy has the same history (and the server the
//!    same accounts) but the other players' games are missing. What heavy
//!    asks for is then the same on both sides (full pages of their own
//!    games), and only the server's size differs;
//! 4. lets PostgreSQL catch up as autovacuum would (`VACUUM ANALYZE`);
//! 5. measures [`MEASURED`] rounds, each on the small side and then on the
//!    grown side: the command path (a command run), then every read
//!    endpoint, [`ROUNDS`] requests each, one at a time; and prints the
//!    median of each figure, the grown side's beside the small side's.
//!    Taking turns, the two sides share whatever else loads the machine.
//!
//! Both servers run in this process: the server CPU per command counts the
//! idle one's background workers too (a few wake-ups a second).
//!
//! The copies keep their template's events byte for byte: their records
//! name the template's players and times, not the copy's seats (reads do
//! not check; `hatstand verify` of a copy's audit checks the template's
//! record). The figures are of the requests, not of the copies' contents.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{BenchArgs, Figures, Net, Scratch, call, play_for, report, start_server};
use hatstand::config::Settings;
use hatstand::db::{bench_fixtures as fixtures, locate};

/// Requests per read endpoint and phase.
pub const ROUNDS: usize = 200;

/// `heavy` sits in one filler game of this many.
pub const HEAVY_EVERY: u64 = 50;

/// Filler games written by one statement.
const BATCH: u64 = 20_000;

/// The time the filler games are spread over, before now.
const SPAN_DAYS: i64 = 730;

/// Games over for longer than this are archived (the default retention).
const ARCHIVED_AFTER_DAYS: i64 = 30;

/// Live games `heavy` plays.
const HEAVY_LIVE: usize = 6;

/// The players the reads are measured for.
struct Cast {
    heavy: String,
    heavy_name: String,
    heavy_id: uuid::Uuid,
    newcomer: String,
    /// One of heavy's live games.
    live_game: String,
    /// A game that is over (an audit may be read).
    finished_game: Option<String>,
    /// When the cast was seated: the export's `since`.
    seated_at: String,
}

/// One read: what it is called, and how to ask it.
struct Probe {
    label: &'static str,
    path: String,
    token: Option<String>,
}

/// A read's latencies, in milliseconds.
#[derive(Debug, Clone, Copy)]
struct Latency {
    p50: f64,
    p95: f64,
}

/// Measured rounds: each plays the command path and asks every read, on
/// the small side and then on the grown one; the figures printed are
/// each one's median over the rounds.
pub const MEASURED: usize = 3;

/// One database with its server: the bench's own.
struct Side {
    base: String,
    scratch: Scratch,
    meter: super::cpu::Meter,
    cast: Option<Cast>,
}

impl Side {
    async fn start(settings: &Settings) -> Result<Side, String> {
        let (base, scratch) = start_server(settings).await?;
        let meter = super::cpu::Meter {
            server: super::cpu::Server::InProcess,
            database: Some(scratch.name.clone()),
        };
        Ok(Side {
            base,
            scratch,
            meter,
            cast: None,
        })
    }

    fn cast(&self) -> Result<&Cast, String> {
        self.cast
            .as_ref()
            .ok_or_else(|| "no cast seated".to_owned())
    }
}

/// Runs `--grow n`: two servers, each on a database of its own, both
/// seated alike and warmed up by one command run; the second grown by `n`
/// games, the first by heavy's share of them; then [`MEASURED`] rounds,
/// each measuring the small side and the grown side in turn, so that whatever else loads the machine weighs on
/// both alike.
///
/// # Errors
/// When a server cannot be started, a request fails, or the fill does.
pub async fn run(args: &BenchArgs, settings: &Settings, n: u64) -> Result<(), String> {
    if args.base.is_some() {
        return Err("--grow needs the bench's own servers and databases (no --base)".to_owned());
    }
    let options: Value =
        serde_json::from_str(&args.options).map_err(|e| format!("--options: {e}"))?;
    let kind = hatstand_engine::GameKind::from_id(&args.ruleset)
        .ok_or_else(|| format!("no ruleset {:?}", args.ruleset))?;
    let players = args.players.unwrap_or_else(|| {
        hatstand_engine::with_ruleset!(kind, |R| <R as hatstand_engine::Ruleset>::MIN_PLAYERS)
    });
    let mut small = Side::start(settings).await?;
    let mut grown = Side::start(settings).await?;
    let client = Net {
        client: awc::Client::builder()
            .timeout(Duration::from_secs(60))
            .finish(),
        retry: None,
        acks: None,
    };
    let outcome = async {
        for side in [&mut small, &mut grown] {
            side.cast = Some(seat_cast(&client, &side.base, &args.ruleset, &options, players).await?);
            println!("grow: warming up {} (the games played are the copies' templates)", side.base);
            play_for(&client, &side.base, args, &options, players, &side.meter).await?;
            let done = finished_game(&side.scratch).await?;
            if let Some(cast) = side.cast.as_mut() {
                cast.finished_game = done;
            }
        }
        let started = Instant::now();
        // The same history for heavy on both sides: the grown side has the
        // rest of the server's besides.
        fill(&small.scratch, n, small.cast()?, true).await?;
        fill(&grown.scratch, n, grown.cast()?, false).await?;
        println!(
            "grow: {n} games written, vacuumed and analyzed in {:.0} s",
            started.elapsed().as_secs_f64()
        );
        print_size(&small.scratch).await?;
        print_size(&grown.scratch).await?;
        let mut commands = (Vec::new(), Vec::new());
        let mut reads = (Vec::new(), Vec::new());
        for round in 1..=MEASURED {
            println!(
                "grow: round {round} of {MEASURED}: {} tables of {} for {} s, then {ROUNDS} requests per read, on each side",
                args.games, args.ruleset, args.seconds
            );
            println!("grow: small");
            commands.0.push(report(&play_for(&client, &small.base, args, &options, players, &small.meter).await?));
            println!("grow: grown");
            commands.1.push(report(&play_for(&client, &grown.base, args, &options, players, &grown.meter).await?));
            reads.0.push(measure_reads(&client, &small.base, small.cast()?).await?);
            reads.1.push(measure_reads(&client, &grown.base, grown.cast()?).await?);
        }
        print_table(n, &reads, &commands);
        Ok::<_, String>(())
    }
    .await;
    small.scratch.drop_database().await;
    grown.scratch.drop_database().await;
    outcome
}

/// Registers a user and signs in: the token.
async fn sign_up(client: &Net, base: &str, name: &str) -> Result<String, String> {
    super::token(client, base, name).await
}

/// Seats `heavy` in [`HEAVY_LIVE`] live games with partners, and `newcomer`
/// nowhere.
async fn seat_cast(
    client: &Net,
    base: &str,
    ruleset: &str,
    options: &Value,
    players: usize,
) -> Result<Cast, String> {
    let run = &uuid::Uuid::new_v4().simple().to_string()[..8];
    let heavy_name = format!("heavy{run}");
    let heavy = sign_up(client, base, &heavy_name).await?;
    let newcomer = sign_up(client, base, &format!("newcomer{run}")).await?;
    let mut partners = Vec::new();
    for p in 1..players {
        partners.push(sign_up(client, base, &format!("partner{run}x{p}")).await?);
    }
    let (_, profile) = call(
        client,
        "GET",
        &format!("{base}/v1/users/{heavy_name}"),
        None,
        None,
    )
    .await?;
    let heavy_id: uuid::Uuid = profile["id"]
        .as_str()
        .and_then(|id| id.parse().ok())
        .ok_or_else(|| format!("no id in heavy's profile: {profile}"))?;
    let seated_at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true);
    let mut live_game = None;
    for _ in 0..HEAVY_LIVE {
        let create = json!({"ruleset": ruleset, "players": players, "options": options});
        let (status, game) = call(
            client,
            "POST",
            &format!("{base}/v1/games"),
            Some(&heavy),
            Some(&create),
        )
        .await?;
        if status != 201 {
            return Err(format!("heavy cannot create a game: {game}"));
        }
        let id = game["id"].as_str().unwrap_or_default().to_owned();
        for partner in &partners {
            let (status, joined) = call(
                client,
                "POST",
                &format!("{base}/v1/games/{id}/join"),
                Some(partner),
                Some(&json!({})),
            )
            .await?;
            if status != 200 {
                return Err(format!("a partner cannot join: {joined}"));
            }
        }
        live_game = Some(id);
    }
    Ok(Cast {
        heavy,
        heavy_name,
        heavy_id,
        newcomer,
        live_game: live_game.ok_or("no live game")?,
        finished_game: None,
        seated_at,
    })
}

/// The oldest game of the command run that finished (its audit is read).
async fn finished_game(scratch: &Scratch) -> Result<Option<String>, String> {
    let mut conn = locate::connect(&scratch.url).await?;
    let found = fixtures::oldest_finished(&mut conn).await?;
    Ok(found.map(|id| id.to_string()))
}

/// Every read endpoint, as the cast asks it.
async fn probes(client: &Net, base: &str, cast: &Cast) -> Result<Vec<Probe>, String> {
    let heavy = Some(cast.heavy.clone());
    let newcomer = Some(cast.newcomer.clone());
    let cursor = |page: &Value| page["next_cursor"].as_str().map(str::to_owned);
    let (_, mine) = call(
        client,
        "GET",
        &format!("{base}/v1/me/games?limit=3"),
        heavy.as_deref(),
        None,
    )
    .await?;
    let (_, public) = call(client, "GET", &format!("{base}/v1/games"), None, None).await?;
    let since = urlencode(&cast.seated_at);
    let game = &cast.live_game;
    let mut probes = vec![
        Probe {
            label: "GET /v1/me/games (heavy)",
            path: "/v1/me/games".into(),
            token: heavy.clone(),
        },
        Probe {
            label: "  ?status=active (heavy)",
            path: "/v1/me/games?status=active".into(),
            token: heavy.clone(),
        },
        Probe {
            label: "  ?status=finished (heavy)",
            path: "/v1/me/games?status=finished".into(),
            token: heavy.clone(),
        },
        Probe {
            label: "  ?turn=mine (heavy)",
            path: "/v1/me/games?turn=mine".into(),
            token: heavy.clone(),
        },
        Probe {
            label: "  ?limit=3, page 2 (heavy)",
            path: format!(
                "/v1/me/games?limit=3&cursor={}",
                cursor(&mine).ok_or("heavy has no second page")?
            ),
            token: heavy.clone(),
        },
        Probe {
            label: "GET /v1/me/games (newcomer)",
            path: "/v1/me/games".into(),
            token: newcomer.clone(),
        },
        Probe {
            label: "  ?turn=mine (newcomer)",
            path: "/v1/me/games?turn=mine".into(),
            token: newcomer.clone(),
        },
        Probe {
            label: "GET /v1/me/games/export?since (heavy)",
            path: format!("/v1/me/games/export?since={since}"),
            token: heavy.clone(),
        },
        Probe {
            label: "GET /v1/me/notifications (heavy)",
            path: "/v1/me/notifications".into(),
            token: heavy.clone(),
        },
        Probe {
            label: "GET /v1/me/notifications (newcomer)",
            path: "/v1/me/notifications".into(),
            token: newcomer.clone(),
        },
        Probe {
            label: "GET /v1/games",
            path: "/v1/games".into(),
            token: None,
        },
        Probe {
            label: "  ?status=open",
            path: "/v1/games?status=open".into(),
            token: None,
        },
    ];
    if let Some(next) = cursor(&public) {
        probes.push(Probe {
            label: "  page 2",
            path: format!("/v1/games?cursor={next}"),
            token: None,
        });
    }
    probes.extend([
        Probe {
            label: "GET /v1/games/{id} (heavy's)",
            path: format!("/v1/games/{game}"),
            token: heavy.clone(),
        },
        Probe {
            label: "GET /v1/games/{id}/events",
            path: format!("/v1/games/{game}/events"),
            token: heavy.clone(),
        },
        Probe {
            label: "GET /v1/users/{name}",
            path: format!("/v1/users/{}", cast.heavy_name),
            token: None,
        },
    ]);
    if let Some(done) = &cast.finished_game {
        probes.push(Probe {
            label: "GET /v1/games/{id}/audit (over)",
            path: format!("/v1/games/{done}/audit"),
            token: None,
        });
    }
    Ok(probes)
}

/// `text` for a query string.
fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Sends one GET and reads the whole answer: its status.
async fn fetch(client: &Net, url: &str, token: Option<&str>) -> Result<u16, String> {
    let req = super::request(&client.client, "GET", url, token)?;
    let mut res = req.send().await.map_err(|e| format!("{url}: {e}"))?;
    res.body()
        .limit(64 * 1024 * 1024)
        .await
        .map_err(|e| format!("{url}: {e}"))?;
    Ok(res.status().as_u16())
}

/// Every probe's latencies: [`ROUNDS`] requests each, one at a time (after
/// a few not counted, which warm the connection and the statement caches).
async fn measure_reads(
    client: &Net,
    base: &str,
    cast: &Cast,
) -> Result<Vec<(&'static str, Latency)>, String> {
    let mut measured = Vec::new();
    for probe in probes(client, base, cast).await? {
        let url = format!("{base}{}", probe.path);
        let token = probe.token.as_deref();
        for _ in 0..5 {
            fetch(client, &url, token).await?;
        }
        let mut micros = Vec::with_capacity(ROUNDS);
        for _ in 0..ROUNDS {
            let sent = Instant::now();
            let status = fetch(client, &url, token).await?;
            if status != 200 {
                return Err(format!("{}: answered {status}", probe.label));
            }
            micros.push(sent.elapsed().as_micros());
        }
        micros.sort_unstable();
        let at = |p: f64| {
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                clippy::cast_precision_loss,
                reason = "an index into a short list; figures for people"
            )]
            let i = ((micros.len() - 1) as f64 * p).round() as usize;
            #[expect(clippy::cast_precision_loss, reason = "figures for people")]
            let ms = micros[i] as f64 / 1000.0;
            ms
        };
        measured.push((
            probe.label,
            Latency {
                p50: at(0.50),
                p95: at(0.95),
            },
        ));
    }
    Ok(measured)
}

/// Grows the bench's database by `n` games that are over (see the module
/// documentation).
async fn fill(scratch: &Scratch, n: u64, cast: &Cast, heavys_only: bool) -> Result<(), String> {
    let mut conn = locate::connect(&scratch.url).await?;
    let templates = fixtures::templates(&mut conn, 64).await?;
    if templates.is_empty() {
        return Err("no game finished in the warm-up to copy: play longer (--seconds)".to_owned());
    }
    println!(
        "grow: writing {n} games over {SPAN_DAYS} days, copies of {} games played",
        templates.len()
    );
    fixtures::create_templates_table(&mut conn).await?;
    for (k, template) in templates.iter().enumerate() {
        let audit = hatstand::games::audit::audit_on(&mut conn, *template)
            .await
            .map_err(|e| e.detail)?;
        let json = serde_json::to_vec(&audit).map_err(|e| e.to_string())?;
        let compressed = zstd::encode_all(json.as_slice(), hatstand::games::archive_old::LEVEL)
            .map_err(|e| e.to_string())?;
        fixtures::add_template(
            &mut conn,
            i32::try_from(k).map_err(|e| e.to_string())?,
            *template,
            &compressed,
            i32::try_from(json.len()).map_err(|e| e.to_string())?,
        )
        .await?;
    }
    let users = (n / 10).max(50);
    fixtures::add_players(&mut conn, users, SPAN_DAYS).await?;
    let mut written = 0;
    while written < n {
        let upto = (written + BATCH).min(n);
        fixtures::copy_games(
            &mut conn,
            &fixtures::Copies {
                from: written,
                upto,
                n,
                templates: templates.len(),
                users,
                heavy: cast.heavy_id,
                heavy_every: HEAVY_EVERY,
                heavys_only,
                span_days: SPAN_DAYS,
                archived_after_days: ARCHIVED_AFTER_DAYS,
            },
        )
        .await?;
        written = upto;
        if written % (BATCH * 10) == 0 || written == n {
            println!("grow: {written} of {n} games written");
        }
    }
    fixtures::vacuum_analyze(&mut conn).await
}

/// What the database holds after the fill.
async fn print_size(scratch: &Scratch) -> Result<(), String> {
    let mut conn = locate::connect(&scratch.url).await?;
    let size = fixtures::size(&mut conn).await?;
    println!(
        "grow: the database holds {} games, {} events, {}",
        size.games, size.events, size.size
    );
    Ok(())
}

/// The median of `values`.
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

type Reads = Vec<(&'static str, Latency)>;

/// The figures, side by side: each the median of the rounds.
fn print_table(n: u64, reads: &(Vec<Reads>, Vec<Reads>), commands: &(Vec<Figures>, Vec<Figures>)) {
    let alone = n.div_ceil(HEAVY_EVERY);
    println!();
    println!(
        "| read (ms, median of {MEASURED} rounds) | {alone} games p50 | p95 | {n} games p50 | p95 |"
    );
    println!("|---|---:|---:|---:|---:|");
    let Some(labels) = reads.0.as_slice().first() else {
        return;
    };
    for (i, (label, _)) in labels.iter().enumerate() {
        let of = |rounds: &Vec<Reads>, p: fn(&Latency) -> f64| {
            median(
                rounds
                    .iter()
                    .filter_map(|r| r.get(i))
                    .map(|(_, l)| p(l))
                    .collect(),
            )
        };
        println!(
            "| {label} | {:.2} | {:.2} | {:.2} | {:.2} |",
            of(&reads.0, |l| l.p50),
            of(&reads.0, |l| l.p95),
            of(&reads.1, |l| l.p50),
            of(&reads.1, |l| l.p95)
        );
    }
    println!();
    println!("| commands (median of {MEASURED} rounds) | {alone} games | {n} games | ratio |");
    println!("|---|---:|---:|---:|");
    let row = |label: &str, figure: fn(&Figures) -> Option<f64>, digits: usize| {
        let e = median(commands.0.iter().filter_map(figure).collect());
        let g = median(commands.1.iter().filter_map(figure).collect());
        if e.is_finite() && g.is_finite() {
            println!("| {label} | {e:.digits$} | {g:.digits$} | {:.2} |", g / e);
        }
    };
    row("commands/s", |f| Some(f.rate), 0);
    row("p50 ms", |f| Some(f.p50), 2);
    row("p99 ms", |f| Some(f.p99), 2);
    row("server CPU ms/command", |f| f.server_cpu, 3);
    row("PostgreSQL CPU ms/command", |f| f.postgres_cpu, 3);
}
