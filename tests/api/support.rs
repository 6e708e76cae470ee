//! The test harness: a fresh database per test (cloned from a migrated
//! template), the real application on a random port, and an HTTP client.
//!
//! PostgreSQL is found the way the server finds it: `TEST_DATABASE_URL`, else
//! 127.0.0.1:5432, else a private server started from the installed binaries.

use std::path::PathBuf;
use std::sync::OnceLock;

use actix_web::http::StatusCode;
use awc::Client;
use hatstand::config::Settings;
use hatstand::db::{self, locate};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use uuid::Uuid;

/// The server URL (any database) and the migrated template database.
struct Template {
    server_url: String,
    name: String,
}

fn block_on<F: Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(future)
}

/// The migrations' fingerprint: a new migration makes a new template.
fn migrations_hash() -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("migrations");
    let mut files: Vec<PathBuf> = walk(&dir);
    files.sort();
    let mut hasher = Sha256::new();
    for file in files {
        hasher.update(
            file.strip_prefix(&dir)
                .unwrap()
                .to_string_lossy()
                .as_bytes(),
        );
        hasher.update(std::fs::read(&file).unwrap());
    }
    hex::encode(&hasher.finalize()[..6])
}

fn walk(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

fn template() -> &'static Template {
    static TEMPLATE: OnceLock<Template> = OnceLock::new();
    TEMPLATE.get_or_init(|| {
        std::thread::spawn(|| block_on(make_template()))
            .join()
            .expect("template thread")
    })
}

async fn make_template() -> Template {
    use diesel_async::SimpleAsyncConnection;
    let configured = std::env::var("TEST_DATABASE_URL").ok();
    let data_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".hatstand");
    let (server_url, _) = locate::locate(configured.as_deref(), &data_dir, "postgres")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let admin_url = locate::with_database(&server_url, "postgres");
    let name = format!("hatstand_template_{}", migrations_hash());
    let mut admin = locate::connect(&admin_url)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    // Test processes start together: one builds the template, the others wait.
    admin
        .batch_execute("SELECT pg_advisory_lock(727366)")
        .await
        .unwrap();
    let ready = database_flags(&mut admin, &name).await;
    if ready != Some(true) {
        if ready.is_some() {
            admin
                .batch_execute(&format!(
                    "DROP DATABASE {} WITH (FORCE)",
                    locate::quote_ident(&name)
                ))
                .await
                .unwrap();
        }
        admin
            .batch_execute(&format!("CREATE DATABASE {}", locate::quote_ident(&name)))
            .await
            .unwrap();
        db::migrate(&locate::with_database(&server_url, &name))
            .await
            .unwrap();
        admin
            .batch_execute(&format!(
                "ALTER DATABASE {} IS_TEMPLATE true",
                locate::quote_ident(&name)
            ))
            .await
            .unwrap();
    }
    admin
        .batch_execute("SELECT pg_advisory_unlock(727366)")
        .await
        .unwrap();
    Template { server_url, name }
}

/// Whether database `name` exists (`Some`) and is a finished template (`true`).
async fn database_flags(conn: &mut diesel_async::AsyncPgConnection, name: &str) -> Option<bool> {
    use diesel::prelude::*;
    use diesel_async::RunQueryDsl;
    #[derive(QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::Bool)]
        datistemplate: bool,
    }
    diesel::sql_query("SELECT datistemplate FROM pg_database WHERE datname = $1")
        .bind::<diesel::sql_types::Text, _>(name)
        .get_result::<Row>(conn)
        .await
        .optional()
        .unwrap()
        .map(|r| r.datistemplate)
}

/// A fresh, migrated database, dropped when this value is.
pub struct TestDb {
    pub url: String,
    name: String,
    admin_url: String,
}

impl TestDb {
    pub async fn new() -> TestDb {
        use diesel_async::SimpleAsyncConnection;
        let template = template();
        let name = format!("hatstand_test_{}", Uuid::new_v4().simple());
        let admin_url = locate::with_database(&template.server_url, "postgres");
        let mut admin = locate::connect(&admin_url).await.unwrap();
        let sql = format!(
            "CREATE DATABASE {} TEMPLATE {}",
            locate::quote_ident(&name),
            locate::quote_ident(&template.name)
        );
        // Creating from a template fails while another session copies it: retry.
        let mut tries = 0;
        while let Err(e) = admin.batch_execute(&sql).await {
            tries += 1;
            assert!(tries < 50, "cannot create a test database: {e}");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        TestDb {
            url: locate::with_database(&template.server_url, &name),
            name,
            admin_url,
        }
    }
}

impl TestDb {
    /// A fresh database as the release before `migration` left it: every
    /// migration from `migration` on reverted (their `down.sql`), so a test
    /// can write data as earlier code did and then upgrade it in place.
    pub async fn before(migration: &str) -> TestDb {
        use diesel::Connection;
        use diesel_async::AsyncPgConnection;
        use diesel_async::async_connection_wrapper::AsyncConnectionWrapper;
        use diesel_migrations::MigrationHarness;
        let db = TestDb::new().await;
        let version = migration.split('_').next().unwrap_or(migration);
        let (url, stop) = (db.url.clone(), version.replace('-', ""));
        std::thread::spawn(move || {
            let mut conn = AsyncConnectionWrapper::<AsyncPgConnection>::establish(&url).unwrap();
            loop {
                let applied = conn.applied_migrations().unwrap();
                let newest = applied.iter().map(ToString::to_string).max().unwrap();
                if newest.as_str() < stop.as_str() {
                    break;
                }
                conn.revert_last_migration(db::MIGRATIONS).unwrap();
            }
        })
        .join()
        .unwrap();
        db
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let (admin_url, name) = (self.admin_url.clone(), self.name.clone());
        let _ = std::thread::spawn(move || {
            block_on(async move {
                use diesel_async::SimpleAsyncConnection;
                if let Ok(mut admin) = locate::connect(&admin_url).await {
                    let _ = admin
                        .batch_execute(&format!(
                            "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                            locate::quote_ident(&name)
                        ))
                        .await;
                }
            });
        })
        .join();
    }
}

/// Settings for a test server.
pub fn settings(url: &str) -> Settings {
    Settings {
        bind: "127.0.0.1:0".parse().unwrap(),
        database_url: Some(url.to_owned()),
        data_dir: PathBuf::from(".hatstand"),
        jwt_secret: None,
        token_ttl: 3600,
        refresh_ttl: 86_400,
        // Off: tests play whole games as fast as the server answers; the
        // limit has its own test.
        token_rate: 0,
        token_burst: 0,
        body_timeout_ms: 10_000,
        login_account_failures: 10,
        login_address_failures: 100,
        trusted_proxies: Vec::new(),
        pool_size: 4,
        pool_timeout_ms: 2000,
        statement_timeout_ms: 5000,
        workers: Some(2),
        background: hatstand::config::Background {
            deadline_tick_ms: 100,
            // Tests step tournaments themselves (`tournaments::rounds::tick`).
            tournament_tick_ms: 0,
            webhook_tick_ms: 100,
            webhook_retry_ms: 100,
            webhook_attempts: 3,
            webhook_timeout_ms: 2000,
            webhook_ca_file: None,
            webhook_allow_private: true,
            push_tick_ms: 100,
            push_retry_ms: 100,
            push_attempts: 3,
            push_contact: "mailto:ops@hatstand.test".into(),
            push_allow_http: true,
            fcm_service_account_file: None,
            fcm_base_url: "https://fcm.googleapis.com".into(),
            apns_key_file: None,
            apns_key_id: None,
            apns_team_id: None,
            apns_topic: None,
            apns_base_url: "https://api.push.apple.com".into(),
            bot_tick_ms: 100,
            bot_budget_ms: 50,
            log_tick_ms: 100,
        },
        retention: hatstand::config::RetentionSettings {
            idempotency_ttl_hours: 24,
            notification_retention_days: 30,
            delivery_retention_days: 7,
            archive_after_days: 30,
            // Tests that prune call it themselves.
            prune_tick_ms: 0,
        },
        mail: hatstand::config::MailSettings {
            smtp_url: None,
            mail_from: "hatstand <hatstand@localhost>".into(),
            mail_domain: "localhost".into(),
            smtp_listen: None,
            public_url: "http://127.0.0.1:8080".into(),
            mail_tick_ms: 100,
            mail_attempts: 3,
        },
        // The defaults, but for the limits every test would trip over (all
        // its accounts register, and its games are made, from one address
        // in moments; bots play bots in several games at once); those have
        // their own tests (`limits.rs`).
        limits: hatstand::config::LimitSettings {
            registrations_per_address: 0,
            codes_per_address: 0,
            games_per_hour: 0,
            bot_games_at_once: 0,
            ..hatstand::config::LimitSettings::default()
        },
    }
}

/// The application on a random port with its own database.
pub struct TestApp {
    pub base: String,
    pub client: Client,
    pub db: TestDb,
}

/// A registered user with a token.
#[derive(Debug, Clone)]
pub struct User {
    pub id: Uuid,
    pub token: String,
}

/// A response: status, headers, and the body as JSON (`Null` when empty).
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: actix_web::http::header::HeaderMap,
    pub body: Value,
}

impl Reply {
    /// The problem code of an error response.
    pub fn code(&self) -> &str {
        self.body["code"].as_str().unwrap_or("")
    }

    /// Asserts a problem+json error with this status and code.
    #[track_caller]
    pub fn assert_problem(&self, status: u16, code: &str) {
        assert_eq!(self.status.as_u16(), status, "{}", self.body);
        assert_eq!(self.code(), code, "{}", self.body);
        assert_eq!(
            self.headers
                .get("content-type")
                .map(|v| v.to_str().unwrap()),
            Some("application/problem+json"),
        );
        assert_eq!(self.body["status"], status);
        assert!(self.body["title"].is_string() && self.body["detail"].is_string());
    }

    /// The value of header `name` (it must be there).
    #[track_caller]
    pub fn header(&self, name: &str) -> String {
        self.headers
            .get(name)
            .unwrap_or_else(|| panic!("no {name} header"))
            .to_str()
            .unwrap()
            .to_owned()
    }

    /// Asserts a success status and returns the body.
    #[track_caller]
    pub fn ok(self, status: u16) -> Value {
        assert_eq!(self.status.as_u16(), status, "{}", self.body);
        self.body
    }
}

/// Starts one more server process (as far as the database can tell) on
/// `url` with `settings`; returns its base URL.
/// Turns the server's logs on for a test run when `HATSTAND_TEST_LOG` is
/// set, as a filter: `HATSTAND_TEST_LOG=debug cargo test` shows every use
/// case's span (game id, version) and what it logged.
pub fn logs() {
    static ON: OnceLock<()> = OnceLock::new();
    ON.get_or_init(|| {
        if let Ok(filter) = tracing_subscriber::EnvFilter::try_from_env("HATSTAND_TEST_LOG") {
            let _ = tracing_subscriber::fmt()
                .with_env_filter(filter)
                .with_test_writer()
                .try_init();
        }
    });
}

pub async fn start_server(url: &str, settings: &Settings) -> String {
    logs();
    let state = hatstand::startup::state_for(url, settings).await.unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = hatstand::startup::serve(state, listener, Some(2)).unwrap();
    actix_web::rt::spawn(server);
    format!("http://127.0.0.1:{port}")
}

impl TestApp {
    pub async fn spawn() -> TestApp {
        Self::spawn_with(|_| {}).await
    }

    /// The application with adjusted settings (for instance no background workers).
    pub async fn spawn_with(adjust: impl FnOnce(&mut Settings)) -> TestApp {
        Self::spawn_on(TestDb::new().await, adjust).await
    }

    /// The application on `db`, migrated first as a new release would at start.
    pub async fn spawn_on(db: TestDb, adjust: impl FnOnce(&mut Settings)) -> TestApp {
        db::migrate(&db.url).await.unwrap();
        let mut settings = settings(&db.url);
        adjust(&mut settings);
        let base = start_server(&db.url, &settings).await;
        TestApp {
            base,
            client: Client::builder()
                .timeout(std::time::Duration::from_secs(120))
                .finish(),
            db,
        }
    }

    pub async fn reply(
        mut response: awc::ClientResponse<
            impl futures_util::Stream<Item = Result<actix_web::web::Bytes, awc::error::PayloadError>>
            + Unpin,
        >,
    ) -> Reply {
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.body().limit(256 * 1024 * 1024).await.unwrap();
        let body = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()))
        };
        Reply {
            status,
            headers,
            body,
        }
    }

    /// A request with optional bearer token and extra headers.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        headers: &[(&str, &str)],
    ) -> awc::ClientRequest {
        let method = actix_web::http::Method::from_bytes(method.as_bytes()).unwrap();
        let mut req = self.client.request(method, format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.insert_header(("Authorization", format!("Bearer {t}")));
        }
        for (k, v) in headers {
            req = req.insert_header((*k, *v));
        }
        req
    }

    /// Sends JSON.
    pub async fn send(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        headers: &[(&str, &str)],
        body: &Value,
    ) -> Reply {
        Self::reply(
            self.request(method, path, token, headers)
                .send_json(body)
                .await
                .unwrap(),
        )
        .await
    }

    /// Sends raw bytes.
    pub async fn send_raw(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        headers: &[(&str, &str)],
        body: Vec<u8>,
    ) -> Reply {
        Self::reply(
            self.request(method, path, token, headers)
                .send_body(body)
                .await
                .unwrap(),
        )
        .await
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Reply {
        Self::reply(self.request("GET", path, token, &[]).send().await.unwrap()).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: &Value) -> Reply {
        self.send("POST", path, token, &[], body).await
    }

    pub async fn register(&self, name: &str) -> User {
        let created = self
            .post(
                "/v1/auth/register",
                None,
                &json!({"username": name, "password": "password123"}),
            )
            .await
            .ok(201);
        let login = self
            .post(
                "/v1/auth/login",
                None,
                &json!({"username": name, "password": "password123"}),
            )
            .await
            .ok(200);
        User {
            id: created["user_id"].as_str().unwrap().parse().unwrap(),
            token: login["access_token"].as_str().unwrap().to_owned(),
        }
    }

    /// Every notification of `user`, oldest first, read a page at a time.
    pub async fn all_notifications(&self, user: &User) -> Vec<Value> {
        let mut out = Vec::new();
        let mut after = 0;
        loop {
            let page = self
                .get(
                    &format!("/v1/me/notifications?after={after}"),
                    Some(&user.token),
                )
                .await
                .ok(200);
            let notes = page["notifications"].as_array().unwrap().clone();
            let Some(last) = notes.last() else {
                return out;
            };
            after = last["id"].as_i64().unwrap();
            out.extend(notes);
        }
    }

    /// Registers `n` users.
    pub async fn users(&self, n: usize) -> Vec<User> {
        let mut out = Vec::new();
        for i in 0..n {
            out.push(self.register(&format!("player{i}")).await);
        }
        out
    }

    /// Creates a game (`POST /v1/games` with `body`) as `user`; returns it.
    pub async fn created_game(&self, user: &User, body: &Value) -> Value {
        self.post("/v1/games", Some(&user.token), body)
            .await
            .ok(201)
    }

    /// Ruleset `id` as `GET /v1/rulesets` lists it.
    pub async fn ruleset(&self, id: &str) -> Value {
        let rulesets = self.get("/v1/rulesets", None).await.ok(200);
        rulesets
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("no ruleset {id}"))
            .clone()
    }

    /// Seats `user` in game `id` (the lowest free seat); returns the game.
    pub async fn joined(&self, id: &str, user: &User) -> Value {
        self.post(
            &format!("/v1/games/{id}/join"),
            Some(&user.token),
            &json!({}),
        )
        .await
        .ok(200)
    }

    /// Creates a game by `users[0]` and seats everyone in order; returns the game id.
    pub async fn started_game(&self, users: &[User], ruleset: &str, options: Value) -> String {
        let game = self
            .created_game(
                &users[0],
                &json!({"ruleset": ruleset, "players": users.len(), "options": options}),
            )
            .await;
        let id = game["id"].as_str().unwrap().to_owned();
        for user in &users[1..] {
            self.joined(&id, user).await;
        }
        id
    }

    /// A game of Hats started by `users` (as [`Self::started_game`]) and
    /// `users[0]`'s first move: the id, the version and the first of its
    /// legal commands.
    pub async fn opening(&self, users: &[User]) -> (String, i64, Value) {
        let id = self.started_game(users, "hats", json!({})).await;
        let game = self.game(&id, Some(&users[0])).await;
        let version = game["version"].as_i64().unwrap();
        let command = game["legal_commands"][0].clone();
        (id, version, command)
    }

    /// The game as `user` sees it.
    pub async fn game(&self, id: &str, user: Option<&User>) -> Value {
        self.get(&format!("/v1/games/{id}"), user.map(|u| u.token.as_str()))
            .await
            .ok(200)
    }

    /// Sends a command at the given version.
    pub async fn command(&self, id: &str, user: &User, version: i64, command: &Value) -> Reply {
        self.post(
            &format!("/v1/games/{id}/commands"),
            Some(&user.token),
            &json!({"expected_version": version, "command": command}),
        )
        .await
    }

    /// Counts the rows of a table in the test database.
    pub async fn count(&self, table: &str) -> i64 {
        use diesel::prelude::*;
        use diesel_async::RunQueryDsl;
        #[derive(QueryableByName)]
        struct Count {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            n: i64,
        }
        let mut conn = locate::connect(&self.db.url).await.unwrap();
        diesel::sql_query(format!("SELECT count(*) AS n FROM {table}"))
            .get_result::<Count>(&mut conn)
            .await
            .unwrap()
            .n
    }

    /// The row counts of every table: for "changes nothing" assertions.
    pub async fn footprint(&self) -> Vec<i64> {
        let mut out = Vec::new();
        for table in ["users", "games", "seats", "events", "idempotency_keys"] {
            out.push(self.count(table).await);
        }
        out
    }
}

impl TestApp {
    /// Lets nobody connect to the test database and ends every session on
    /// it (`false`: the server's pooled connections die with them), or lets
    /// them connect again (`true`).
    pub async fn database_reachable(&self, reachable: bool) {
        use diesel_async::SimpleAsyncConnection;
        let mut admin = locate::connect(&self.db.admin_url).await.unwrap();
        let name = locate::quote_ident(&self.db.name);
        let mut sql = format!("ALTER DATABASE {name} ALLOW_CONNECTIONS {reachable};");
        if !reachable {
            sql.push_str(&format!(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{}';",
                self.db.name
            ));
        }
        admin.batch_execute(&sql).await.unwrap();
    }

    /// Runs SQL on the test database (test set-up only: forcing deadlines).
    pub async fn sql(&self, sql: &str) {
        use diesel_async::SimpleAsyncConnection;
        let mut conn = locate::connect(&self.db.url).await.unwrap();
        conn.batch_execute(sql).await.unwrap();
    }

    /// Moves the deadline of game `id` into the past.
    pub async fn expire(&self, id: &str) {
        self.sql(&format!(
            "UPDATE games SET deadline = now() - interval '1 second' WHERE id = '{id}' AND deadline IS NOT NULL"
        ))
        .await;
    }

    /// Polls `check` every 50 ms until it returns `Some`, for at most `secs` seconds.
    pub async fn eventually<T, F: Future<Output = Option<T>>>(
        &self,
        secs: u64,
        mut check: impl FnMut() -> F,
    ) -> T {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(secs);
        loop {
            if let Some(v) = check().await {
                return v;
            }
            assert!(std::time::Instant::now() < until, "timed out waiting");
            actix_web::rt::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }

    /// Opens a Server-Sent Events stream and reads messages until `enough`
    /// says so (or `secs` pass); returns them as (id, event, data).
    pub async fn sse(
        &self,
        path: &str,
        token: Option<&str>,
        headers: &[(&str, &str)],
        secs: u64,
        enough: impl Fn(&[(String, String, Value)]) -> bool,
    ) -> Vec<(String, String, Value)> {
        let mut response = self
            .request("GET", path, token, headers)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200);
        assert_eq!(
            response
                .headers()
                .get("content-type")
                .unwrap()
                .to_str()
                .unwrap(),
            "text/event-stream"
        );
        read_sse(&mut response, secs, enough).await
    }
}

/// Reads SSE messages from a streaming response (see [`TestApp::sse`]).
pub async fn read_sse<S>(
    response: &mut awc::ClientResponse<S>,
    secs: u64,
    enough: impl Fn(&[(String, String, Value)]) -> bool,
) -> Vec<(String, String, Value)>
where
    S: futures_util::Stream<Item = Result<actix_web::web::Bytes, awc::error::PayloadError>> + Unpin,
{
    use futures_util::StreamExt;
    let until = tokio::time::Instant::now() + std::time::Duration::from_secs(secs);
    let mut text = String::new();
    let mut out = Vec::new();
    while !enough(&out) {
        let chunk = tokio::time::timeout_at(until, response.next())
            .await
            .expect("the stream said enough in time")
            .expect("the stream stays open")
            .unwrap();
        text.push_str(std::str::from_utf8(&chunk).unwrap());
        while let Some(end) = text.find("\n\n") {
            let message: String = text.drain(..end + 2).collect();
            let (mut id, mut event, mut data) = (String::new(), String::new(), Value::Null);
            for line in message.lines() {
                if let Some(v) = line.strip_prefix("id: ") {
                    id = v.to_owned();
                } else if let Some(v) = line.strip_prefix("event: ") {
                    event = v.to_owned();
                } else if let Some(v) = line.strip_prefix("data: ") {
                    data = serde_json::from_str(v).unwrap();
                }
            }
            if !event.is_empty() {
                out.push((id, event, data));
            }
        }
    }
    out
}
