//! Two real server processes (the `hatstand` binary, twice) on one
//! database, as behind a load balancer: a command accepted by one wakes a
//! long poll and an event stream held by the other, and with both
//! processes' workers running every deadline fires once, every bot turn is
//! played once and every webhook delivery is sent once.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use awc::Client;
use serde_json::{Value, json};

use crate::invitations::verify_audit;
use crate::support::{TestApp, TestDb, read_sse};

/// How long a long poll asks to wait: a wake-up must come well before.
const WAIT: u64 = 20;

/// The longest a wake-up may take across processes on a loaded machine;
/// the fallbacks (the long poll's `wait`, the stream's 15 s keep-alive
/// re-read) come later.
const WOKEN_WITHIN: Duration = Duration::from_secs(8);

/// One server process, killed when the test ends, however it ends (its log
/// is printed when the test fails).
struct Process {
    name: &'static str,
    child: Child,
    base: String,
    log: PathBuf,
}

impl Process {
    /// Starts the server binary on database `url` with fast background
    /// workers, on a free port, and waits until it answers `/readyz`.
    async fn start(name: &'static str, url: &str) -> Process {
        let log = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "processes-{}-{name}.log",
            uuid::Uuid::new_v4().simple()
        ));
        // A port found free may be taken before the server binds it: then
        // the process exits, and another port is tried.
        for _ in 0..5 {
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port();
            let child = Command::new(env!("CARGO_BIN_EXE_hatstand"))
                .env("DATABASE_URL", url)
                .env("HATSTAND_BIND", format!("127.0.0.1:{port}"))
                .env("HATSTAND_WORKERS", "2")
                .env("HATSTAND_POOL_SIZE", "4")
                .env("HATSTAND_TOKEN_RATE", "0")
                .env("HATSTAND_DEADLINE_TICK_MS", "100")
                .env("HATSTAND_WEBHOOK_TICK_MS", "100")
                .env("HATSTAND_WEBHOOK_RETRY_MS", "100")
                .env("HATSTAND_WEBHOOK_TIMEOUT_MS", "5000")
                .env("HATSTAND_WEBHOOK_ALLOW_PRIVATE", "true")
                .env("HATSTAND_BOT_TICK_MS", "100")
                .env("HATSTAND_BOT_BUDGET_MS", "50")
                .env("HATSTAND_PRUNE_TICK_MS", "0")
                .env(
                    "RUST_LOG",
                    "warn,hatstand::deadlines=info,hatstand::bots::worker=debug",
                )
                .env("NO_COLOR", "1")
                .stdout(Stdio::null())
                .stderr(std::fs::File::create(&log).unwrap())
                .spawn()
                .expect("the hatstand binary starts");
            let mut process = Process {
                name,
                child,
                base: format!("http://127.0.0.1:{port}"),
                log: log.clone(),
            };
            if process.ready().await {
                return process;
            }
        }
        panic!("process {name} could not start; see {}", log.display());
    }

    /// Waits until the process answers `/readyz`; false if it exited.
    async fn ready(&mut self) -> bool {
        let client = Client::builder().timeout(Duration::from_secs(2)).finish();
        let until = Instant::now() + Duration::from_secs(120);
        while Instant::now() < until {
            if self.child.try_wait().unwrap().is_some() {
                return false;
            }
            let url = format!("{}/readyz", self.base);
            if let Ok(res) = client.get(url).send().await
                && res.status() == 200
            {
                return true;
            }
            actix_web::rt::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("process {} is not ready after 120 s", self.name);
    }

    /// What the process has logged so far.
    fn logged(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The sum of `field=N` over the log lines saying `message`.
    fn sum_of(&self, message: &str, field: &str) -> i64 {
        self.logged()
            .lines()
            .filter(|l| l.contains(message))
            .filter_map(|l| {
                let value = l.split_once(&format!("{field}="))?.1;
                value
                    .split(|c: char| !c.is_ascii_digit())
                    .next()?
                    .parse::<i64>()
                    .ok()
            })
            .sum()
    }

    /// Lines logged at ERROR, and panics.
    fn errors(&self) -> Vec<String> {
        self.logged()
            .lines()
            .filter(|l| l.contains(" ERROR ") || l.contains("panicked"))
            .map(str::to_owned)
            .collect()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if std::thread::panicking() {
            let text = self.logged();
            let tail: Vec<&str> = text.lines().rev().take(60).collect();
            eprintln!(
                "--- the last lines of process {}'s log ({}) ---",
                self.name,
                self.log.display()
            );
            for line in tail.iter().rev() {
                eprintln!("{line}");
            }
        } else {
            let _ = std::fs::remove_file(&self.log);
        }
    }
}

/// Two processes on one fresh database; `app` talks to the first. The
/// processes are stopped before the database is dropped (field order).
struct Two {
    a: Process,
    b: Process,
    app: TestApp,
}

impl Two {
    async fn start() -> Two {
        let db = TestDb::new().await;
        let (a, b) = tokio::join!(Process::start("a", &db.url), Process::start("b", &db.url));
        let app = TestApp {
            base: a.base.clone(),
            client: Client::builder().timeout(Duration::from_secs(120)).finish(),
            db,
        };
        Two { a, b, app }
    }

    /// Asserts that neither process logged an error or panicked.
    fn assert_no_errors(&self) {
        for process in [&self.a, &self.b] {
            let errors = process.errors();
            assert!(
                errors.is_empty(),
                "process {} logged errors:\n{}",
                process.name,
                errors.join("\n")
            );
        }
    }
}

/// A request to `url` (on either process): the status and the JSON answer.
async fn call(
    client: &Client,
    method: &str,
    url: String,
    token: Option<&str>,
    body: Option<&Value>,
) -> (u16, Value) {
    let method = actix_web::http::Method::from_bytes(method.as_bytes()).unwrap();
    let mut req = client.request(method, url);
    if let Some(t) = token {
        req = req.insert_header(("Authorization", format!("Bearer {t}")));
    }
    let mut res = match body {
        Some(b) => req.send_json(b).await,
        None => req.send().await,
    }
    .unwrap();
    let bytes = res.body().limit(16 * 1024 * 1024).await.unwrap();
    let value = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes).unwrap()
    };
    (res.status().as_u16(), value)
}

/// Plays one command in game `id` through the process at `base`, as the
/// seat the game waits for (its first legal command); returns the
/// version the command was sent at and the instant it was sent.
async fn play_one(client: &Client, base: &str, id: &str, tokens: &[String]) -> (i64, Instant) {
    let url = |path: &str| format!("{base}/v1/games/{id}{path}");
    let (status, game) = call(client, "GET", url(""), None, None).await;
    assert_eq!(status, 200, "{game}");
    let seat = game["to_act"][0].as_u64().unwrap() as usize;
    let (status, mine) = call(client, "GET", url(""), Some(&tokens[seat]), None).await;
    assert_eq!(status, 200, "{mine}");
    let version = mine["version"].as_i64().unwrap();
    let body = json!({"expected_version": version, "command": mine["legal_commands"][0]});
    let sent = Instant::now();
    let (status, answer) = call(
        client,
        "POST",
        url("/commands"),
        Some(&tokens[seat]),
        Some(&body),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    (version, sent)
}

#[actix_web::test]
async fn a_command_accepted_by_one_process_wakes_a_long_poll_and_a_stream_held_by_another() {
    let two = Two::start().await;
    let app = &two.app;
    let client = &app.client;
    let users = app.users(2).await;
    let tokens: Vec<String> = users.iter().map(|u| u.token.clone()).collect();
    let id = app.started_game(&users, "hats", json!({})).await;

    // Long polls: held by one process, the command accepted by the other,
    // both ways round.
    for (held, commanded) in [(&two.a, &two.b), (&two.b, &two.a), (&two.a, &two.b)] {
        let version = app.game(&id, None).await["version"].as_i64().unwrap();
        let url = format!(
            "{}/v1/games/{id}/events?after={version}&wait={WAIT}",
            held.base
        );
        let poll = async {
            let asked = Instant::now();
            let page = call(client, "GET", url, None, None).await;
            (page, asked, Instant::now())
        };
        let command = async {
            // Time for the poll to reach its process and wait there.
            actix_web::rt::time::sleep(Duration::from_millis(1500)).await;
            play_one(client, &commanded.base, &id, &tokens).await
        };
        let (((status, page), asked, answered), (sent_at, sent)) = tokio::join!(poll, command);
        assert_eq!(status, 200, "{page}");
        assert_eq!(sent_at, version);
        let events = page["events"].as_array().unwrap();
        // Only the command could end the wait with events, and it did
        // long before the wait ran out.
        assert!(!events.is_empty(), "the poll timed out: {page}");
        assert_eq!(events[0]["seq"], version + 1, "{page}");
        assert!(answered > sent, "the poll answered before the command");
        let woken = answered - sent;
        assert!(
            woken < WOKEN_WITHIN,
            "process {} woke its long poll {woken:?} after process {} accepted the command",
            held.name,
            commanded.name
        );
        assert!(answered - asked < Duration::from_secs(WAIT));
        eprintln!(
            "a long poll on {} woken {woken:?} after {} accepted the command",
            held.name, commanded.name
        );
    }

    // Streams: open on one process (subscribed before it answers), the
    // command accepted by the other.
    for (held, commanded) in [(&two.a, &two.b), (&two.b, &two.a)] {
        let version = app.game(&id, None).await["version"].as_i64().unwrap();
        let mut stream = client
            .get(format!(
                "{}/v1/games/{id}/stream?after={version}",
                held.base
            ))
            .insert_header(("Authorization", format!("Bearer {}", tokens[0])))
            .send()
            .await
            .unwrap();
        assert_eq!(stream.status(), 200);
        let (sent_at, sent) = play_one(client, &commanded.base, &id, &tokens).await;
        assert_eq!(sent_at, version);
        let messages = read_sse(&mut stream, 30, |m| !m.is_empty()).await;
        let woken = sent.elapsed();
        assert_eq!(messages[0].0, (version + 1).to_string(), "{messages:?}");
        assert_eq!(messages[0].2["seq"], version + 1);
        assert!(
            woken < WOKEN_WITHIN,
            "process {}'s stream got the event {woken:?} after process {} accepted the command",
            held.name,
            commanded.name
        );
        eprintln!(
            "a stream on {} got the event {woken:?} after {} was sent the command",
            held.name, commanded.name
        );
    }
    two.assert_no_errors();
}

/// One event of a game as stored: (seq, type, seat in data, actor user,
/// a command?, microseconds since the epoch).
type Row = (i64, String, Option<i64>, Option<uuid::Uuid>, bool, i64);

async fn stored_events(app: &TestApp, id: &str) -> Vec<Row> {
    use diesel::prelude::*;
    use diesel::sql_types::{BigInt, Bool, Nullable, Text, Uuid as SqlUuid};
    use diesel_async::RunQueryDsl;
    #[derive(QueryableByName)]
    struct Stored {
        #[diesel(sql_type = BigInt)]
        seq: i64,
        #[diesel(sql_type = Text)]
        kind: String,
        #[diesel(sql_type = Nullable<BigInt>)]
        seat: Option<i64>,
        #[diesel(sql_type = Nullable<SqlUuid>)]
        actor_user: Option<uuid::Uuid>,
        #[diesel(sql_type = Bool)]
        is_command: bool,
        #[diesel(sql_type = BigInt)]
        at: i64,
    }
    let mut conn = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    diesel::sql_query(
        "SELECT seq, type AS kind, (data->>'seat')::bigint AS seat, actor_user,
                command IS NOT NULL AS is_command,
                (extract(epoch FROM created_at) * 1000000)::bigint AS at
           FROM events WHERE game_id = $1::uuid ORDER BY seq",
    )
    .bind::<Text, _>(id)
    .load::<Stored>(&mut conn)
    .await
    .unwrap()
    .into_iter()
    .map(|s| (s.seq, s.kind, s.seat, s.actor_user, s.is_command, s.at))
    .collect()
}

/// What the checks of one game found.
#[derive(Default, Debug)]
struct Tally {
    /// Appends holding `turn_timed_out` events: deadlines fired.
    fired: i64,
    /// Commands sent by built-in bots.
    bot_moves: i64,
}

/// Checks game `id`'s log: one event per version, a verifying audit, no
/// command by `host` (who never plays), and every deadline fired once — at
/// least `turn_timeout` after the append that set it, each seat timed out
/// once per firing.
async fn check_game(app: &TestApp, id: &str, host: uuid::Uuid, timeout_us: i64) -> Tally {
    let verified = verify_audit(app, id).await;
    let rows = stored_events(app, id).await;
    let seqs: Vec<i64> = rows.iter().map(|r| r.0).collect();
    assert_eq!(seqs, (1..=rows.len() as i64).collect::<Vec<_>>(), "{id}");
    let commands = rows.iter().filter(|r| r.4).count();
    assert_eq!(commands, verified.commands, "{id}");
    assert!(
        rows.iter().all(|r| !(r.4 && r.3 == Some(host))),
        "{id}: the host never sends a command"
    );
    let mut tally = Tally {
        bot_moves: rows.iter().filter(|r| r.4 && r.3.is_some()).count() as i64,
        ..Tally::default()
    };
    // The events of one append share their time.
    let mut appends: Vec<Vec<&Row>> = Vec::new();
    for row in &rows {
        match appends.last_mut() {
            Some(last) if last[0].5 == row.5 => last.push(row),
            _ => appends.push(vec![row]),
        }
    }
    for pair in appends.windows(2) {
        let (before, append) = (&pair[0], &pair[1]);
        let timed_out: Vec<Option<i64>> = append
            .iter()
            .filter(|r| r.1 == "turn_timed_out")
            .map(|r| r.2)
            .collect();
        if timed_out.is_empty() {
            continue;
        }
        tally.fired += 1;
        let mut seats = timed_out.clone();
        seats.sort_unstable();
        seats.dedup();
        assert_eq!(
            seats.len(),
            timed_out.len(),
            "{id}: a seat timed out twice in one firing at seq {}",
            append[0].0
        );
        let gap = append[0].5 - before[0].5;
        assert!(
            gap >= timeout_us,
            "{id}: a timeout at seq {} came {gap} µs after the append before it",
            append[0].0
        );
    }
    tally
}

#[actix_web::test]
async fn with_two_processes_each_deadline_bot_turn_and_webhook_delivery_happens_once() {
    let two = Two::start().await;
    let app = &two.app;
    let client = &app.client;
    let host = app.register("host").await;
    let (hook, received) = crate::webhooks::receiver(0);
    let (status, created) = call(
        client,
        "POST",
        format!("{}/v1/me/webhooks", two.b.base),
        Some(&host.token),
        Some(&json!({"url": hook})),
    )
    .await;
    assert_eq!(status, 201, "{created}");

    // The host never plays its seat: a deadline of a second each turn
    // plays it; a bot plays the other. Two more games are bots against
    // bots. Games are created through both processes.
    let mut ids = Vec::new();
    for n in 0..8 {
        let body = if n < 6 {
            json!({"ruleset": "hats", "players": 2, "bots": ["random"],
                   "options": {"turn_timeout": "PT1S", "abandon_after": 0}})
        } else {
            json!({"ruleset": "hats", "players": 2, "join": false, "bots": ["random", "greedy"]})
        };
        let base = if n % 2 == 0 { &two.a.base } else { &two.b.base };
        let (status, game) = call(
            client,
            "POST",
            format!("{base}/v1/games"),
            Some(&host.token),
            Some(&body),
        )
        .await;
        assert_eq!(status, 201, "{game}");
        assert_eq!(game["status"], "active");
        ids.push(game["id"].as_str().unwrap().to_owned());
    }

    let until = Instant::now() + Duration::from_secs(240);
    for id in &ids {
        loop {
            if app.game(id, None).await["status"] == "finished" {
                break;
            }
            assert!(Instant::now() < until, "game {id} does not end");
            actix_web::rt::time::sleep(Duration::from_millis(250)).await;
        }
    }

    let mut total = Tally::default();
    for (n, id) in ids.iter().enumerate() {
        let tally = check_game(app, id, host.id, 1_000_000).await;
        assert!(tally.bot_moves > 0, "{id}: the bots played");
        if n < 6 {
            assert!(tally.fired > 0, "{id}: the host's turns timed out");
        }
        total.fired += tally.fired;
        total.bot_moves += tally.bot_moves;
    }

    // Every firing and every bot move was made by exactly one of the two
    // processes, and both did some.
    let fired = [&two.a, &two.b].map(|p| p.sum_of("deadlines fired", "fired"));
    let moves = [&two.a, &two.b].map(|p| {
        p.logged()
            .lines()
            .filter(|l| l.contains("a bot moved"))
            .count() as i64
    });
    eprintln!(
        "deadlines fired by a and b: {fired:?} (in the games' logs: {}); bot moves by a and b: {moves:?} (in the games' logs: {})",
        total.fired, total.bot_moves
    );
    assert_eq!(fired[0] + fired[1], total.fired, "deadlines fired");
    assert_eq!(moves[0] + moves[1], total.bot_moves, "bot moves");
    assert!(fired.iter().all(|&n| n > 0), "both deadline workers fired");
    assert!(moves.iter().all(|&n| n > 0), "both bot workers played");

    // Every webhook delivery reached the receiver once, at the first attempt.
    let deliveries = app
        .eventually(60, || async {
            let all = app.count("webhook_deliveries").await;
            let done = app
                .count("webhook_deliveries WHERE state = 'delivered'")
                .await;
            (all > 0 && done == all && received.lock().unwrap().len() as i64 == all).then_some(all)
        })
        .await;
    let mut ids: Vec<String> = received
        .lock()
        .unwrap()
        .iter()
        .map(|r| r.0.clone())
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len() as i64, deliveries, "a delivery was sent twice");
    assert_eq!(app.count("webhook_deliveries WHERE attempts <> 1").await, 0);
    two.assert_no_errors();
}

#[actix_web::test]
async fn with_two_processes_a_forced_move_both_would_play_is_played_once() {
    let two = Two::start().await;
    let app = &two.app;
    let client = &app.client;
    let users = app.users(2).await;
    for user in &users {
        app.send(
            "PATCH",
            "/v1/me/settings",
            Some(&user.token),
            &[],
            &json!({"auto_play_forced": true}),
        )
        .await
        .ok(200);
    }
    let id = app
        .started_game(&users, "hat-trick", json!({"rounds": 1}))
        .await;
    // Each command goes to both processes at once: both decide the same
    // step, forced moves included; one commits it, the other writes nothing.
    let mut game = app.game(&id, None).await;
    let mut sent = 0;
    while game["status"] == "active" {
        let seat = game["to_act"][0].as_u64().unwrap() as usize;
        let mine = app.game(&id, Some(&users[seat])).await;
        let legal = mine["legal_commands"].as_array().unwrap();
        assert!(legal.len() > 1, "the game waits on a forced move: {mine}");
        let body =
            json!({"expected_version": mine["version"], "command": legal[sent % legal.len()]});
        let path = format!("/v1/games/{id}/commands");
        let token = users[seat].token.as_str();
        let (a, b) = tokio::join!(
            call(
                client,
                "POST",
                format!("{}{path}", two.a.base),
                Some(token),
                Some(&body)
            ),
            call(
                client,
                "POST",
                format!("{}{path}", two.b.base),
                Some(token),
                Some(&body)
            ),
        );
        let mut statuses = [a.0, b.0];
        statuses.sort_unstable();
        assert_eq!(statuses, [200, 409], "{a:?} {b:?}");
        game = if a.0 == 200 { a.1 } else { b.1 }["game"].clone();
        sent += 1;
        assert!(sent < 100, "no end in sight");
    }
    let audit = crate::play::verified_audit(app, &id).await;
    let events = audit["events"].as_array().unwrap();
    let forced = events.iter().filter(|e| e["type"] == "turn_forced").count();
    assert!(forced >= 2, "the last trick plays itself");
    assert_eq!(
        app.count(&format!(
            "events WHERE game_id = '{id}' AND type = 'turn_forced'"
        ))
        .await as usize,
        forced
    );
    two.assert_no_errors();
}
