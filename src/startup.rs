//! Building the application: the database (found, created, migrated), the
//! pool, the token keys, the notification listener, and the HTTP server.

use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::{Server, ServiceRequest, ServiceResponse};
use actix_web::http::header;
use actix_web::middleware::{ErrorHandlerResponse, ErrorHandlers};
use actix_web::{App, HttpMessage, HttpServer, web};
use tracing_actix_web::{RequestId, RootSpanBuilder, TracingLogger};
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::SwaggerUi;

use crate::auth::limits::TokenLimits;
use crate::auth::{JwtKeys, secret};
use crate::config::Settings;
use crate::context::Context;
use crate::db::{self, locate};
use crate::error::Failure;
use crate::metrics::{Metrics, requests};
use crate::notifications::{channel, webhooks};
use crate::retention::Retention;
use crate::routes::app_state::AppState;
use crate::routes::problem::ApiError;
use crate::routes::{self, request};
use crate::wake::{self, Announcer, Listeners};

/// Finds (or starts) PostgreSQL, creates the database, migrates it, and
/// builds the shared state. Also starts the notification listener.
///
/// # Errors
/// A message saying what is missing and the ways out.
pub async fn prepare(settings: &Settings) -> Result<AppState, String> {
    // Settings are checked before anything is touched.
    Retention::from_settings(&settings.retention)?;
    let (url, origin) = locate::locate(
        settings.database_url.as_deref(),
        &settings.data_dir,
        "hatstand",
    )
    .await?;
    tracing::info!(database = %locate::redact(&url), ?origin, "using PostgreSQL");
    locate::ensure_database(&url).await?;
    db::migrate(&url).await?;
    state_for(&url, settings).await
}

/// The shared state for an already migrated database at `url`.
///
/// # Errors
/// Invalid settings; when the database cannot be reached.
pub async fn state_for(url: &str, settings: &Settings) -> Result<AppState, String> {
    let limits = db::Limits {
        acquire: Duration::from_millis(settings.pool_timeout_ms),
        statement: Duration::from_millis(settings.statement_timeout_ms),
    };
    let retention = Retention::from_settings(&settings.retention)?;
    let (pools, pool) = db::pools::Pools::open(
        url,
        limits,
        background_pool_size(settings.pool_size),
        settings.pool_size,
    )?;
    let secret = secret::signing_secret(&pool, settings.jwt_secret.as_deref()).await?;
    let metrics = Arc::new(Metrics::new().map_err(|e| format!("metrics: {e}"))?);
    let listeners = Listeners::default();
    tokio::spawn(wake::listen(url.to_owned(), listeners.clone()));
    let announcer = Announcer::start(pool.clone(), &listeners);
    let background = &settings.background;
    if background.deadline_tick_ms > 0 {
        tokio::spawn(crate::deadlines::run(
            pool.clone(),
            announcer.clone(),
            Arc::clone(&metrics),
            Duration::from_millis(background.deadline_tick_ms),
        ));
    }
    if background.webhook_tick_ms > 0 {
        let tls = webhooks::target::tls_config(background.webhook_ca_file.as_deref())?;
        actix_web::rt::spawn(channel::deliver_forever(
            webhooks::Webhooks::new(background.clone(), tls),
            pool.clone(),
            Arc::clone(&listeners.outbox),
        ));
    }
    let vapid = Arc::new(crate::push::vapid::Vapid::load(&pool).await?);
    if background.push_tick_ms > 0 {
        let tls = webhooks::target::tls_config(background.webhook_ca_file.as_deref())?;
        actix_web::rt::spawn(channel::deliver_forever(
            crate::push::outbox::Push::new(background.clone(), tls, Arc::clone(&vapid))?,
            pool.clone(),
            Arc::clone(&listeners.outbox),
        ));
    }
    // Ratings: caught up before serving (the first start of the release
    // rates every game finished before it), then swept now and then.
    let mut conn = pool.get().await.map_err(|e| format!("ratings: {e}"))?;
    crate::ratings::projection::catch_up(&mut conn)
        .await
        .map_err(|e| format!("ratings: {}", e.detail))?;
    drop(conn);
    tokio::spawn(crate::ratings::projection::sweep_forever(pool.clone()));
    if let Some(tick) = retention.tick {
        tokio::spawn(crate::pruner::prune_forever(pool.clone(), retention, tick));
    }
    let mail_secret = Arc::new(crate::mail::secret(&pool).await?);
    // Records: the signing key, and the log's sequencer (#48).
    let signer = crate::transparency::keys::load(&pool).await?;
    if background.log_tick_ms > 0 {
        tokio::spawn(crate::transparency::log::sequence_forever(
            pool.clone(),
            Arc::clone(&signer),
            Duration::from_millis(background.log_tick_ms),
        ));
    }
    let token_limits = Arc::new(TokenLimits::new(settings.token_rate, settings.token_burst));
    tokio::spawn(TokenLimits::forget_idle_forever(
        Arc::clone(&token_limits),
        Duration::from_secs(60),
    ));
    let context = Context {
        announcer,
        pool,
        jwt: JwtKeys::new(&secret, settings.token_ttl),
        refresh_ttl: chrono::TimeDelta::seconds(settings.refresh_ttl),
        retention,
        login_limits: crate::auth::limits::LoginLimits::from_settings(settings),
        login_refusals: Arc::default(),
        registration_refusals: Arc::default(),
        cost_limits: crate::auth::limits::CostLimits::from_settings(&settings.limits),
        passwords: Arc::new(crate::auth::password::PasswordQueue::new(
            settings.limits.password_queue,
        )),
        watch: listeners.games,
        users: listeners.users,
        webhook_allow_private: background.webhook_allow_private,
        push_key: vapid.public_key().into(),
        push_allow_http: background.push_allow_http,
        push_native: background.native_channels(),
        mail_secret: Arc::clone(&mail_secret),
        metrics,
        signer,
    };
    start_mail(&settings.mail, &context, Arc::clone(&listeners.mail)).await?;
    if background.tournament_tick_ms > 0 {
        tokio::spawn(crate::tournaments::rounds::run(
            context.pool.clone(),
            context.announcer.clone(),
            Duration::from_millis(background.tournament_tick_ms),
        ));
    }
    if background.bot_tick_ms > 0 {
        tokio::spawn(crate::bots::worker::run(
            context.clone(),
            Arc::clone(&listeners.turns),
            crate::bots::worker::BotSettings {
                every: Duration::from_millis(background.bot_tick_ms),
                budget: Duration::from_millis(background.bot_budget_ms),
            },
        ));
    }
    let view_tags = Arc::new(routes::tags::ViewTags::load(&context).await?);
    Ok(AppState {
        context,
        pools: Arc::new(pools),
        token_limits,
        body_timeout: Duration::from_millis(settings.body_timeout_ms),
        trusted_proxies: settings.trusted_proxies.clone().into(),
        view_tags,
        streams: Arc::new(crate::auth::limits::OpenStreams::new(
            settings.limits.streams_per_address,
            settings.limits.streams_per_user,
        )),
    })
}

/// The background workers' pool, beside the requests' `pool_size`
/// connections: a quarter as many, at least four (a NOTIFY, a deadline
/// tick, a delivery and a bot's move at once).
fn background_pool_size(pool_size: usize) -> usize {
    (pool_size / 4).max(4)
}

/// The state a one-shot command (`hatstand mail-in`) needs to play a move
/// through the command path, with no workers and no listener; the handle
/// ends once every clone of the context is dropped and the NOTIFYs that
/// wake the servers' waiters have been sent.
///
/// # Errors
/// When the database cannot be reached.
pub async fn tool_context(
    url: &str,
    settings: &Settings,
) -> Result<(Context, tokio::task::JoinHandle<()>), String> {
    let pool = db::pool_with(url, 2, &db::Limits::default())?;
    let push_key = crate::push::vapid::Vapid::load(&pool)
        .await?
        .public_key()
        .into();
    let secret = secret::signing_secret(&pool, settings.jwt_secret.as_deref()).await?;
    let mail_secret = Arc::new(crate::mail::secret(&pool).await?);
    let signer = crate::transparency::keys::load(&pool).await?;
    let listeners = Listeners::default();
    let (announcer, sent) = Announcer::start_joinable(pool.clone(), &listeners);
    let context = Context {
        announcer,
        pool,
        jwt: JwtKeys::new(&secret, settings.token_ttl),
        refresh_ttl: chrono::TimeDelta::seconds(settings.refresh_ttl),
        retention: Retention::from_settings(&settings.retention)?,
        login_limits: crate::auth::limits::LoginLimits::from_settings(settings),
        login_refusals: Arc::default(),
        registration_refusals: Arc::default(),
        cost_limits: crate::auth::limits::CostLimits::from_settings(&settings.limits),
        passwords: Arc::new(crate::auth::password::PasswordQueue::new(
            settings.limits.password_queue,
        )),
        watch: listeners.games,
        users: listeners.users,
        webhook_allow_private: settings.background.webhook_allow_private,
        push_key,
        push_allow_http: settings.background.push_allow_http,
        push_native: settings.background.native_channels(),
        mail_secret,
        metrics: Arc::new(Metrics::new().map_err(|e| format!("metrics: {e}"))?),
        signer,
    };
    Ok((context, sent))
}

/// Starts the mail worker (with `--smtp-url`) and the SMTP listener (with
/// `--smtp-listen`).
///
/// # Errors
/// A bad `--smtp-url`, `--mail-from`, or an address that cannot be listened on.
async fn start_mail(
    mail: &crate::config::MailSettings,
    context: &Context,
    wake: Arc<tokio::sync::Notify>,
) -> Result<(), String> {
    if let Some(url) = mail.smtp_url.as_deref().filter(|_| mail.mail_tick_ms > 0) {
        let head = crate::mail::compose::Letterhead {
            from: mail
                .mail_from
                .parse()
                .map_err(|e| format!("--mail-from {:?}: {e}", mail.mail_from))?,
            domain: mail.mail_domain.clone(),
            public_url: mail.public_url.trim_end_matches('/').to_owned(),
            secret: context.mail_secret.to_vec(),
        };
        let channel = crate::mail::outbox::Mail::new(
            url,
            head,
            Duration::from_millis(mail.mail_tick_ms),
            mail.mail_attempts,
        )?;
        tokio::spawn(channel::deliver_forever(
            channel,
            context.pool.clone(),
            wake,
        ));
    }
    if let Some(address) = mail.smtp_listen {
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|e| format!("--smtp-listen {address}: {e}"))?;
        tracing::info!(%address, "receiving mail by SMTP");
        tokio::spawn(crate::mail::listener::serve(
            listener,
            context.clone(),
            Arc::clone(&context.mail_secret),
            mail.mail_domain.clone(),
        ));
    }
    Ok(())
}

/// Turns any error response that is not problem+json yet (unknown routes,
/// wrong methods, body limits met before a handler) into one.
fn problem_json<B: MessageBody + 'static>(
    res: ServiceResponse<B>,
) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let is_problem = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/problem+json"));
    if is_problem {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let status = res.status();
    let error = match status.as_u16() {
        404 => Failure::not_found("there is no such resource"),
        405 => Failure::method_not_allowed(),
        413 => Failure::payload_too_large(routes::strict_json::BODY_LIMIT),
        400..=499 => Failure::bad_request(status.canonical_reason().unwrap_or("bad request")),
        _ => Failure::internal(format!("unhandled {status}")),
    };
    let (req, _) = res.into_parts();
    let response = actix_web::ResponseError::error_response(&ApiError(error));
    let response: actix_web::HttpResponse<EitherBody<B, BoxBody>> = response.map_into_right_body();
    Ok(ErrorHandlerResponse::Response(ServiceResponse::new(
        req, response,
    )))
}

/// Answers the request in the language its `Accept-Language` prefers
/// (problem titles: docs/i18n.md); English without one.
async fn in_the_callers_language(
    req: ServiceRequest,
    next: actix_web::middleware::Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody + 'static>, actix_web::Error> {
    let language = req
        .headers()
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .map_or(crate::i18n::Language::En, crate::i18n::Language::negotiate);
    crate::i18n::answering_in(language, next.call(req)).await
}

/// The span of one request: its method, path and request id, enough to tie
/// a logged error to the request that met it. (The default span of
/// `tracing-actix-web` formats a dozen fields and matches the route a second
/// time on every request: several per cent of the server's CPU under load.)
struct RequestSpan;

impl RootSpanBuilder for RequestSpan {
    fn on_request_start(request: &ServiceRequest) -> tracing::Span {
        let id = request.extensions().get::<RequestId>().copied();
        tracing::info_span!(
            "request",
            method = %request.method(),
            path = request.path(),
            request_id = id.map(tracing::field::display),
        )
    }

    fn on_request_end<B: MessageBody>(
        _span: tracing::Span,
        _outcome: &Result<ServiceResponse<B>, actix_web::Error>,
    ) {
        // Errors are logged where they arise, inside this span.
    }
}

/// A URL whose path or query holds an encoded NUL (`%00`) is refused with
/// `400 bad_request` before any handler runs: PostgreSQL cannot store or
/// compare such text, and no id, filter or cursor contains one.
async fn refuse_nul_in_url(
    req: ServiceRequest,
    next: actix_web::middleware::Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody + 'static>, actix_web::Error> {
    let uri = req.uri();
    let encoded_nul = |part: &str| part.contains("%00");
    if encoded_nul(uri.path()) || uri.query().is_some_and(encoded_nul) {
        return Err(Failure::bad_request("the URL holds a NUL character (%00)").into());
    }
    next.call(req).await
}

/// How long a stopping server (SIGTERM, SIGINT) lets requests in flight
/// finish before it closes their connections. Commands finish in
/// milliseconds; event streams and long polls never finish by themselves,
/// and their clients resume where they were (`Last-Event-ID`, `after`), so
/// a stop need not wait out actix's default of 30 s for them.
pub const SHUTDOWN_GRACE_SECONDS: u64 = 5;

/// `/docs` without its slash: a permanent redirect to `/docs/`, where the UI lives.
async fn docs_redirect() -> actix_web::HttpResponse {
    actix_web::HttpResponse::PermanentRedirect()
        .insert_header((actix_web::http::header::LOCATION, "/docs/"))
        .finish()
}

/// The HTTP server on `listener`, serving the API, `/openapi.json`, `/docs`
/// and the web client at `/`.
///
/// # Errors
/// When the listener cannot be used.
pub fn serve(
    state: AppState,
    listener: TcpListener,
    workers: Option<usize>,
) -> std::io::Result<Server> {
    let metrics = Arc::clone(&state.metrics);
    let threads = workers
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let paths = web::Data::new(routes::fallback::ApiPaths::of(&crate::openapi::document()));
    let mut server = HttpServer::new(move || {
        let metrics = Arc::clone(&metrics);
        // Each worker thread's own pool (see `db::pools`).
        let mut state = state.clone();
        match state.pools.for_worker(threads) {
            Ok(pool) => state.context.pool = pool,
            Err(e) => tracing::error!(error = %e, "no pool of its own for a worker; sharing"),
        }
        let (app, _) = App::new()
            .into_utoipa_app()
            .openapi(crate::openapi::ApiDoc::openapi())
            .app_data(web::Data::new(state))
            .app_data(request::json_config())
            .app_data(request::path_config())
            .app_data(request::query_config())
            .app_data(request::payload_config())
            .configure(routes::configure)
            .split_for_parts();
        app.service(SwaggerUi::new("/docs/{_:.*}").url("/openapi.json", crate::openapi::document()))
            // `/docs` as the README writes it: the UI's own pages live below `/docs/`.
            .route("/docs", web::get().to(docs_redirect))
            .configure(crate::web::configure)
            .app_data(paths.clone())
            .default_service(web::to(routes::fallback::unrouted))
            .wrap(actix_web::middleware::from_fn(refuse_nul_in_url))
            .wrap(ErrorHandlers::new().default_handler(problem_json))
            .wrap(actix_web::middleware::from_fn(in_the_callers_language))
            .wrap(actix_web::middleware::from_fn(move |req, next| {
                requests::record(Arc::clone(&metrics), req, next)
            }))
            .wrap(TracingLogger::<RequestSpan>::new())
    })
    .shutdown_timeout(SHUTDOWN_GRACE_SECONDS)
    .listen(listener)?;
    server = server.workers(threads);
    Ok(server.run())
}
