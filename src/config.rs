//! Settings, from flags or environment variables, with defaults that run locally.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;

/// Server settings.
#[derive(Debug, Clone, Args)]
pub struct Settings {
    /// The address to listen on.
    #[arg(
        long,
        env = "HATSTAND_BIND",
        default_value = "127.0.0.1:8080",
        global = true
    )]
    pub bind: SocketAddr,
    /// The PostgreSQL URL. Without it: 127.0.0.1:5432, else a private server.
    #[arg(long, env = "DATABASE_URL", global = true)]
    pub database_url: Option<String>,
    /// The folder for the private PostgreSQL server's data.
    #[arg(
        long,
        env = "HATSTAND_DATA_DIR",
        default_value = ".hatstand",
        global = true
    )]
    pub data_dir: PathBuf,
    /// The JWT signing secret. Without it, one is generated and kept in the database.
    #[arg(
        long,
        env = "HATSTAND_JWT_SECRET",
        hide_env_values = true,
        global = true
    )]
    pub jwt_secret: Option<String>,
    /// How long access tokens live, in seconds (short: a client refreshes
    /// them with its refresh token).
    #[arg(long, env = "HATSTAND_TOKEN_TTL", default_value_t = 900, global = true)]
    pub token_ttl: i64,
    /// How long a refresh token lives without use, in seconds (each refresh
    /// starts it anew).
    #[arg(
        long,
        env = "HATSTAND_REFRESH_TTL",
        default_value_t = 2_592_000,
        global = true
    )]
    pub refresh_ttl: i64,
    /// Requests a second one access token's session may make on average
    /// (0: no limit); over it answers 429 `rate_limited`.
    #[arg(
        long,
        env = "HATSTAND_TOKEN_RATE",
        default_value_t = 100,
        global = true
    )]
    pub token_rate: u32,
    /// How many requests a session may make at once above its rate.
    #[arg(
        long,
        env = "HATSTAND_TOKEN_BURST",
        default_value_t = 200,
        global = true
    )]
    pub token_burst: u32,
    /// Failed logins an account may have (from addresses it has not signed
    /// in from lately) before each further login must wait longer after the
    /// one before (1 s, 2 s, 4 s..., at most `--login-account-delay-max-secs`),
    /// answering 429 `rate_limited` with `Retry-After` until then.
    #[arg(
        long,
        env = "HATSTAND_LOGIN_ACCOUNT_FAILURES",
        default_value_t = 10,
        global = true
    )]
    pub login_account_failures: i32,
    /// Failed logins one client address may have in 15 minutes, for every
    /// account together (generous: many players share an address behind a
    /// carrier's NAT).
    #[arg(
        long,
        env = "HATSTAND_LOGIN_ADDRESS_FAILURES",
        default_value_t = 100,
        global = true
    )]
    pub login_address_failures: i32,
    /// Addresses of the reverse proxies (load balancers) in front of the
    /// server, comma-separated. For a request from one of them, the
    /// client's address (the per-address login limit's) is the last one in
    /// `X-Forwarded-For`, the one that proxy added; without this, every
    /// client behind a proxy shares the proxy's address and its limit.
    #[arg(
        long,
        env = "HATSTAND_TRUSTED_PROXIES",
        value_delimiter = ',',
        global = true
    )]
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// How long a request body may take to arrive before the request
    /// answers 408 `request_timeout`, in milliseconds.
    #[arg(
        long,
        env = "HATSTAND_BODY_TIMEOUT_MS",
        default_value_t = 10_000,
        global = true
    )]
    pub body_timeout_ms: u64,
    /// Database connections per process for requests, shared out among the
    /// HTTP worker threads (the background workers have a pool of a quarter
    /// as many, at least 4).
    #[arg(long, env = "HATSTAND_POOL_SIZE", default_value_t = 16, global = true)]
    pub pool_size: usize,
    /// How long a request waits for a database connection before it
    /// answers 503 `unavailable`, in milliseconds.
    #[arg(
        long,
        env = "HATSTAND_POOL_TIMEOUT_MS",
        default_value_t = 2_000,
        global = true
    )]
    pub pool_timeout_ms: u64,
    /// The longest a statement may run (PostgreSQL's `statement_timeout`)
    /// before the request answers 503 `unavailable`, in milliseconds (0: no limit).
    #[arg(
        long,
        env = "HATSTAND_STATEMENT_TIMEOUT_MS",
        default_value_t = 5_000,
        global = true
    )]
    pub statement_timeout_ms: u64,
    /// HTTP worker threads (default: one per core).
    #[arg(long, env = "HATSTAND_WORKERS", global = true)]
    pub workers: Option<usize>,
    #[command(flatten)]
    pub background: Background,
    #[command(flatten)]
    pub retention: RetentionSettings,
    #[command(flatten)]
    pub mail: MailSettings,
    #[command(flatten)]
    pub limits: LimitSettings,
}

/// What one client may cost the server (`docs/limits.md` lists them all).
/// A limit of 0 is no limit.
#[derive(Debug, Clone, Args)]
pub struct LimitSettings {
    /// Failed logins for one account from one client address in 15
    /// minutes; then that address answers 429 for that account until the
    /// window ends (other addresses are not affected).
    #[arg(
        long,
        env = "HATSTAND_LOGIN_PAIR_FAILURES",
        default_value_t = 5,
        global = true
    )]
    pub login_pair_failures: u32,
    /// The first wait between failed logins of one account once it has used
    /// its `--login-account-failures`, in seconds; it doubles with each.
    #[arg(
        long,
        env = "HATSTAND_LOGIN_ACCOUNT_DELAY_SECS",
        default_value_t = 1,
        global = true
    )]
    pub login_account_delay_secs: u32,
    /// The longest wait between failed logins of one account once it has
    /// used its `--login-account-failures`, in seconds.
    #[arg(
        long,
        env = "HATSTAND_LOGIN_ACCOUNT_DELAY_MAX_SECS",
        default_value_t = 300,
        global = true
    )]
    pub login_account_delay_max_secs: u32,
    /// Password hashes (logins, registrations, password changes) a process
    /// lets wait or run at once; beyond, 503 `busy` with `Retry-After`.
    #[arg(
        long,
        env = "HATSTAND_PASSWORD_QUEUE",
        default_value_t = 32,
        global = true
    )]
    pub password_queue: usize,
    /// Accounts registered from one client address an hour.
    #[arg(
        long,
        env = "HATSTAND_REGISTRATIONS_PER_ADDRESS",
        default_value_t = 20,
        global = true
    )]
    pub registrations_per_address: u32,
    /// Email confirmation codes asked for from one client address an hour.
    #[arg(
        long,
        env = "HATSTAND_CODES_PER_ADDRESS",
        default_value_t = 10,
        global = true
    )]
    pub codes_per_address: u32,
    /// Email confirmation codes mailed to one email address a day (by every
    /// account together).
    #[arg(
        long,
        env = "HATSTAND_CODES_PER_MAILBOX",
        default_value_t = 5,
        global = true
    )]
    pub codes_per_mailbox: u32,
    /// Games one user may create an hour.
    #[arg(
        long,
        env = "HATSTAND_GAMES_PER_HOUR",
        default_value_t = 30,
        global = true
    )]
    pub games_per_hour: u32,
    /// Games one user created that may be open or active at once.
    #[arg(
        long,
        env = "HATSTAND_GAMES_AT_ONCE",
        default_value_t = 50,
        global = true
    )]
    pub games_at_once: u32,
    /// Games one user may hold a seat in at once, open or in play, however
    /// the seat was taken (the lobby, an invitation, a rematch); beyond,
    /// taking one more is `409 too_many_games` (docs/seats.md). Built-in
    /// bots hold any number. 0: no cap.
    #[arg(
        long,
        env = "HATSTAND_SEATS_AT_ONCE",
        default_value_t = 30,
        global = true
    )]
    pub seats_at_once: u32,
    /// Vacation one player may take over the last 365 days, all games
    /// together, in days (docs/clocks.md); beyond, taking more is
    /// `422 vacation_allowance_exceeded`. 0: no cap.
    #[arg(
        long,
        env = "HATSTAND_VACATION_DAYS_PER_YEAR",
        default_value_t = 30,
        global = true
    )]
    pub vacation_days_per_year: u32,
    /// Of those, games with no human seat (bots playing bots).
    #[arg(
        long,
        env = "HATSTAND_BOT_GAMES_AT_ONCE",
        default_value_t = 2,
        global = true
    )]
    pub bot_games_at_once: u32,
    /// Seats of the strongest bot level (`ismcts`) in those games.
    #[arg(
        long,
        env = "HATSTAND_STRONG_BOTS_AT_ONCE",
        default_value_t = 6,
        global = true
    )]
    pub strong_bots_at_once: u32,
    /// Invitations one user sends an hour that are mailed and delivered to
    /// webhooks; beyond, invitations are made and listed but not sent.
    #[arg(
        long,
        env = "HATSTAND_INVITATIONS_PER_HOUR",
        default_value_t = 30,
        global = true
    )]
    pub invitations_per_hour: u32,
    /// Invitations one user receives a day that are mailed and delivered
    /// to webhooks; beyond, they are listed but not sent.
    #[arg(
        long,
        env = "HATSTAND_INVITATIONS_RECEIVED_PER_DAY",
        default_value_t = 20,
        global = true
    )]
    pub invitations_received_per_day: u32,
    /// Event streams and long polls one client address may hold open at
    /// once without a token (in each process).
    #[arg(
        long,
        env = "HATSTAND_STREAMS_PER_ADDRESS",
        default_value_t = 20,
        global = true
    )]
    pub streams_per_address: usize,
    /// Event streams and long polls one user may hold open at once, over
    /// all their sessions (in each process).
    #[arg(
        long,
        env = "HATSTAND_STREAMS_PER_USER",
        default_value_t = 20,
        global = true
    )]
    pub streams_per_user: usize,
    /// "Not accepted" mails to one seat of one game a day (a move by reply
    /// that could not be played); beyond, such replies are dropped.
    #[arg(
        long,
        env = "HATSTAND_REFUSAL_MAILS_PER_SEAT",
        default_value_t = 10,
        global = true
    )]
    pub refusal_mails_per_seat: u32,
    /// Talk messages one user may post in one game a minute (docs/talk.md).
    #[arg(
        long,
        env = "HATSTAND_TALK_PER_MINUTE",
        default_value_t = 5,
        global = true
    )]
    pub talk_per_minute: u32,
}

impl Default for LimitSettings {
    /// The defaults above (and the environment's), as the command line gives them.
    fn default() -> Self {
        #[derive(clap::Parser)]
        struct Only {
            #[command(flatten)]
            limits: LimitSettings,
        }
        <Only as clap::Parser>::try_parse_from(["hatstand"])
            .map(|only| only.limits)
            .unwrap_or_else(|e| unreachable!("the limits' defaults parse: {e}"))
    }
}

/// Play by email: where mail goes out, where replies come in, and what the
/// links in mails point to.
#[derive(Debug, Clone, Args)]
pub struct MailSettings {
    /// The SMTP server mail is sent through: `smtp://host:port` (plain, or
    /// STARTTLS when the server offers it; add `?tls=required` to insist),
    /// `smtps://host:465` (TLS from the start), with `user:password@` for
    /// authentication. Without it no mail is sent (mails wait in the outbox).
    #[arg(long, env = "HATSTAND_SMTP_URL", hide_env_values = true, global = true)]
    pub smtp_url: Option<String>,
    /// The `From` of every mail.
    #[arg(
        long,
        env = "HATSTAND_MAIL_FROM",
        default_value = "hatstand <hatstand@localhost>",
        global = true
    )]
    pub mail_from: String,
    /// The domain of reply addresses (`play+<token>@<domain>`): mail to it
    /// must reach `hatstand mail-in` or `--smtp-listen`.
    #[arg(
        long,
        env = "HATSTAND_MAIL_DOMAIN",
        default_value = "localhost",
        global = true
    )]
    pub mail_domain: String,
    /// Receive replies by SMTP on this address (e.g. `127.0.0.1:2525`), for
    /// an MTA that relays the reply domain here.
    #[arg(long, env = "HATSTAND_SMTP_LISTEN", global = true)]
    pub smtp_listen: Option<SocketAddr>,
    /// The server's public address, for the links in mails (unsubscribe,
    /// the game, its audit).
    #[arg(
        long,
        env = "HATSTAND_PUBLIC_URL",
        default_value = "http://127.0.0.1:8080",
        global = true
    )]
    pub public_url: String,
    /// How often the mail worker looks for due mails when nothing wakes it,
    /// in milliseconds (0: never).
    #[arg(
        long,
        env = "HATSTAND_MAIL_TICK_MS",
        default_value_t = 1000,
        global = true
    )]
    pub mail_tick_ms: u64,
    /// Attempts after which a mail is given up (`failed`); retries wait
    /// 1 s, 2 s, 4 s... up to an hour.
    #[arg(
        long,
        env = "HATSTAND_MAIL_ATTEMPTS",
        default_value_t = 12,
        global = true
    )]
    pub mail_attempts: u32,
}

/// How long what clients no longer need is kept (see `retention.rs`).
#[derive(Debug, Clone, Args)]
pub struct RetentionSettings {
    /// How long an `Idempotency-Key` answers its stored response, in hours;
    /// after that the same key is a new request.
    #[arg(
        long,
        env = "HATSTAND_IDEMPOTENCY_TTL_HOURS",
        default_value_t = 24,
        global = true
    )]
    pub idempotency_ttl_hours: u32,
    /// How long notifications are kept, in days.
    #[arg(
        long,
        env = "HATSTAND_NOTIFICATION_RETENTION_DAYS",
        default_value_t = 30,
        global = true
    )]
    pub notification_retention_days: u32,
    /// How long finished (delivered or failed) webhook deliveries and mails are kept, in days.
    #[arg(
        long,
        env = "HATSTAND_DELIVERY_RETENTION_DAYS",
        default_value_t = 7,
        global = true
    )]
    pub delivery_retention_days: u32,
    /// After how many days over a game's record moves to the archive (one
    /// compressed row a game).
    #[arg(
        long,
        env = "HATSTAND_ARCHIVE_AFTER_DAYS",
        default_value_t = 30,
        global = true
    )]
    pub archive_after_days: u32,
    /// How often this process prunes what has expired and archives games
    /// over for long enough, in milliseconds (0: never).
    #[arg(
        long,
        env = "HATSTAND_PRUNE_TICK_MS",
        default_value_t = 60_000,
        global = true
    )]
    pub prune_tick_ms: u64,
}

/// The background workers: deadlines, webhook deliveries and bots.
#[derive(Debug, Clone, Args)]
pub struct Background {
    /// How often the deadline worker looks for due games, in milliseconds (0: never).
    #[arg(
        long,
        env = "HATSTAND_DEADLINE_TICK_MS",
        default_value_t = 1000,
        global = true
    )]
    pub deadline_tick_ms: u64,
    /// How often the tournament worker looks for rounds to start, pair or
    /// score, in milliseconds (0: never).
    #[arg(
        long,
        env = "HATSTAND_TOURNAMENT_TICK_MS",
        default_value_t = 2000,
        global = true
    )]
    pub tournament_tick_ms: u64,
    /// How often the webhook worker looks for due deliveries, in milliseconds (0: never).
    #[arg(
        long,
        env = "HATSTAND_WEBHOOK_TICK_MS",
        default_value_t = 1000,
        global = true
    )]
    pub webhook_tick_ms: u64,
    /// The delay before the first retry of a failed webhook delivery, in
    /// milliseconds; it doubles with each attempt, up to one hour.
    #[arg(
        long,
        env = "HATSTAND_WEBHOOK_RETRY_MS",
        default_value_t = 1000,
        global = true
    )]
    pub webhook_retry_ms: u64,
    /// Attempts after which a webhook delivery is given up (`failed`).
    #[arg(
        long,
        env = "HATSTAND_WEBHOOK_ATTEMPTS",
        default_value_t = 12,
        global = true
    )]
    pub webhook_attempts: u32,
    /// The timeout of one webhook request, in milliseconds.
    #[arg(
        long,
        env = "HATSTAND_WEBHOOK_TIMEOUT_MS",
        default_value_t = 10_000,
        global = true
    )]
    pub webhook_timeout_ms: u64,
    /// PEM certificates to trust for `https://` webhook receivers, besides
    /// the public roots built in (for receivers with a private CA).
    #[arg(long, env = "HATSTAND_WEBHOOK_CA_FILE", global = true)]
    pub webhook_ca_file: Option<PathBuf>,
    /// How often the bot worker looks for turns of built-in bots when no
    /// change wakes it, in milliseconds (0: never; the server plays no bot).
    #[arg(
        long,
        env = "HATSTAND_BOT_TICK_MS",
        default_value_t = 1000,
        global = true
    )]
    pub bot_tick_ms: u64,
    /// How long a built-in bot may think over one move, in milliseconds.
    #[arg(
        long,
        env = "HATSTAND_BOT_BUDGET_MS",
        default_value_t = 300,
        global = true
    )]
    pub bot_budget_ms: u64,
    /// How often the transparency log appends the games that ended and
    /// signs a new tree head, in milliseconds (0: never; another process
    /// may). Processes take turns: one appends at a time.
    #[arg(
        long,
        env = "HATSTAND_LOG_TICK_MS",
        default_value_t = 10_000,
        global = true
    )]
    pub log_tick_ms: u64,
    /// Let webhooks reach loopback, private and link-local addresses
    /// (refused by default, so that a user's URL cannot reach into the
    /// server's own network; allow it for receivers on a private network).
    #[arg(long, env = "HATSTAND_WEBHOOK_ALLOW_PRIVATE", global = true)]
    pub webhook_allow_private: bool,
    /// How often the push worker looks for due pushes, in milliseconds (0: never).
    #[arg(
        long,
        env = "HATSTAND_PUSH_TICK_MS",
        default_value_t = 1000,
        global = true
    )]
    pub push_tick_ms: u64,
    /// The delay before the first retry of a push the push service did not
    /// take (429, 5xx, no answer), in milliseconds; it doubles with each
    /// attempt, up to one hour, and is never shorter than its `Retry-After`.
    #[arg(
        long,
        env = "HATSTAND_PUSH_RETRY_MS",
        default_value_t = 1000,
        global = true
    )]
    pub push_retry_ms: u64,
    /// Attempts after which a push is given up (`failed`).
    #[arg(
        long,
        env = "HATSTAND_PUSH_ATTEMPTS",
        default_value_t = 12,
        global = true
    )]
    pub push_attempts: u32,
    /// The operator's contact in each push's VAPID JWT (`sub`): a `mailto:`
    /// or `https:` URL push services may use about the server's pushes.
    #[arg(
        long,
        env = "HATSTAND_PUSH_CONTACT",
        default_value = "mailto:hatstand@localhost",
        global = true
    )]
    pub push_contact: String,
    /// Accept `http://` push endpoints (push services are `https://`; a
    /// local push service in tests is not).
    #[arg(long, env = "HATSTAND_PUSH_ALLOW_HTTP", global = true)]
    pub push_allow_http: bool,
    /// Firebase Cloud Messaging (docs/push.md): the service account's JSON
    /// key file (`project_id`, `private_key_id`, `private_key`,
    /// `client_email`, `token_uri`). Unset: no FCM channel.
    #[arg(long, env = "HATSTAND_FCM_SERVICE_ACCOUNT_FILE", global = true)]
    pub fcm_service_account_file: Option<PathBuf>,
    /// The FCM HTTP v1 API's base URL.
    #[arg(
        long,
        env = "HATSTAND_FCM_BASE_URL",
        default_value = "https://fcm.googleapis.com",
        global = true
    )]
    pub fcm_base_url: String,
    /// Apple Push Notification service (docs/push.md): the token-auth key
    /// (`AuthKey_<id>.p8`, a P-256 key in PKCS#8 PEM). Unset: no APNs
    /// channel; set, `--apns-key-id`, `--apns-team-id` and `--apns-topic`
    /// are needed too.
    #[arg(long, env = "HATSTAND_APNS_KEY_FILE", global = true)]
    pub apns_key_file: Option<PathBuf>,
    /// The APNs key's id (the JWT's `kid`).
    #[arg(long, env = "HATSTAND_APNS_KEY_ID", global = true)]
    pub apns_key_id: Option<String>,
    /// The Apple developer team id (the JWT's `iss`).
    #[arg(long, env = "HATSTAND_APNS_TEAM_ID", global = true)]
    pub apns_team_id: Option<String>,
    /// The app's bundle id (`apns-topic`).
    #[arg(long, env = "HATSTAND_APNS_TOPIC", global = true)]
    pub apns_topic: Option<String>,
    /// The APNs base URL (`https://api.sandbox.push.apple.com` for
    /// development builds of the app).
    #[arg(
        long,
        env = "HATSTAND_APNS_BASE_URL",
        default_value = "https://api.push.apple.com",
        global = true
    )]
    pub apns_base_url: String,
}

/// The native push channels the settings turn on (docs/push.md).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NativeChannels {
    pub fcm: bool,
    pub apns: bool,
}

impl Background {
    /// Which native push channels are configured: FCM with its service
    /// account file, APNs with its key file.
    #[must_use]
    pub fn native_channels(&self) -> NativeChannels {
        NativeChannels {
            fcm: self.fcm_service_account_file.is_some(),
            apns: self.apns_key_file.is_some(),
        }
    }
}
