//! What `/metrics` reads when scraped, besides the recorded instruments: the
//! pool's use, the webhook and mail outboxes' backlogs and the process's CPU and
//! memory. Each is read fresh; one that cannot be read (the database does
//! not answer within a second) is left out of that scrape rather than
//! shown stale.

use std::time::Duration;

use prometheus::{Counter, Encoder, Gauge, IntGauge, Registry, TextEncoder};

use super::Metrics;
use crate::db::Pool;
use crate::db::backlog::Backlog;
use crate::db::pools::Pools;
use crate::proc_stat;

/// The content type of the text exposition format.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// How long a scrape waits for the database's part.
const BACKLOG_WITHIN: Duration = Duration::from_secs(1);

/// The page a scrape answers: every recorded instrument, then the figures
/// read now.
///
/// # Errors
/// When the page cannot be encoded (a metric without a valid name).
pub async fn page(
    metrics: &Metrics,
    pools: &Pools,
    pool: &Pool,
) -> Result<Vec<u8>, prometheus::Error> {
    let now = Registry::new();
    let status = pools.status();
    for (name, help, value) in [
        (
            "hatstand_db_pool_max_size",
            "Connections the database pools may open (every HTTP worker thread's and the background workers', together)",
            status.max_size,
        ),
        (
            "hatstand_db_pool_size",
            "Connections the database pools hold open",
            status.size,
        ),
        (
            "hatstand_db_pool_available",
            "Open connections idle in the pools",
            status.available,
        ),
        (
            "hatstand_db_pool_waiting",
            "Requests and workers waiting for a connection",
            status.waiting,
        ),
    ] {
        register_int(&now, name, help, value)?;
    }
    if let Ok(Some(backlog)) = tokio::time::timeout(BACKLOG_WITHIN, backlog(pool)).await {
        register_backlog(
            &now,
            &backlog,
            (
                "hatstand_webhook_deliveries_pending",
                "Webhook deliveries waiting in the outbox, due or set for a retry (the \
                 database's, the same from every process)",
            ),
            (
                "hatstand_webhook_oldest_due_seconds",
                "How long the longest-due pending webhook delivery has been due (0: none due)",
            ),
        )?;
    }
    if let Ok(Some(mails)) = tokio::time::timeout(BACKLOG_WITHIN, mail_backlog(pool)).await {
        register_backlog(
            &now,
            &mails,
            (
                "hatstand_mail_due",
                "Mails due and not sent yet (the database's, the same from every process)",
            ),
            (
                "hatstand_mail_oldest_due_seconds",
                "How long the longest-due unsent mail has been due (0: none due)",
            ),
        )?;
    }
    if let Some(process) = proc_stat::this_process() {
        let cpu = Counter::new(
            "process_cpu_seconds_total",
            "User and system CPU time of this process, in seconds",
        )?;
        cpu.inc_by(proc_stat::millis(process) / 1000.0);
        now.register(Box::new(cpu))?;
    }
    if let Some(bytes) = proc_stat::resident_bytes() {
        register_int(
            &now,
            "process_resident_memory_bytes",
            "Resident memory of this process, in bytes",
            bytes,
        )?;
    }
    let mut families = metrics.registry.gather();
    families.extend(now.gather());
    let mut page = Vec::new();
    TextEncoder::new().encode(&families, &mut page)?;
    Ok(page)
}

fn register_int(
    registry: &Registry,
    name: &str,
    help: &str,
    value: impl TryInto<i64>,
) -> Result<(), prometheus::Error> {
    let gauge = IntGauge::new(name, help)?;
    gauge.set(value.try_into().unwrap_or(i64::MAX));
    registry.register(Box::new(gauge))
}

/// Registers an outbox's backlog: how many wait (`pending`, a name and its
/// help) and how long the longest due has been due (`overdue`).
fn register_backlog(
    registry: &Registry,
    backlog: &Backlog,
    pending: (&str, &str),
    overdue: (&str, &str),
) -> Result<(), prometheus::Error> {
    register_int(registry, pending.0, pending.1, backlog.pending)?;
    let gauge = Gauge::new(overdue.0, overdue.1)?;
    gauge.set(backlog.oldest_due_seconds);
    registry.register(Box::new(gauge))
}

async fn mail_backlog(pool: &Pool) -> Option<Backlog> {
    let mut conn = pool.get().await.ok()?;
    crate::db::mail::backlog(&mut conn).await.ok()
}

async fn backlog(pool: &Pool) -> Option<Backlog> {
    let mut conn = pool.get().await.ok()?;
    crate::db::webhooks::backlog(&mut conn).await.ok()
}
