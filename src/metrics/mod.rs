//! The process's metrics, served at `/metrics` in Prometheus's text format.
//!
//! Rules:
//! - Every process has its own: counters and histograms count what this
//!   process did since it started; a scraper sums them over processes.
//! - Labels come from small fixed sets, never from a request's raw path or
//!   an id: routes are labelled by their pattern (`/v1/games/{id}`), paths
//!   no route matches by `unmatched`, methods outside the usual ones by
//!   `other`, statuses by class (`2xx`).
//! - Recording is a few atomic operations on the request's path; what needs
//!   a look at the pool, the database or `/proc` is read only when scraped
//!   ([`scrape`]).

pub mod requests;
pub mod scrape;

use prometheus::{Histogram, HistogramOpts, HistogramVec, IntCounterVec, IntGauge, Opts, Registry};

/// Upper bounds of the request latency buckets, in seconds: fine where
/// commands answer (milliseconds), up to a long poll's 60 s.
const LATENCY_BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
];

/// Upper bounds of the deadline lag buckets, in seconds: a worker ticks
/// every second by default, so a healthy lag is under two.
const LAG_BUCKETS: &[f64] = &[0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0];

/// The instruments the server records into as it works.
pub struct Metrics {
    registry: Registry,
    requests: HistogramVec,
    commands: IntCounterVec,
    deadline_lag: Histogram,
    long_polls: IntGauge,
    streams: IntGauge,
}

impl Metrics {
    /// A fresh set of instruments, all at zero.
    ///
    /// # Errors
    /// Never with the names used here (a name or label that is not valid).
    pub fn new() -> Result<Self, prometheus::Error> {
        let registry = Registry::new();
        let requests = HistogramVec::new(
            HistogramOpts::new(
                "hatstand_http_request_duration_seconds",
                "HTTP requests by route pattern, method and status class: time until the \
                 answer's head (a stream's opening, a long poll's answer)",
            )
            .buckets(LATENCY_BUCKETS.to_vec()),
            &["route", "method", "status"],
        )?;
        let commands = IntCounterVec::new(
            Opts::new(
                "hatstand_commands_accepted_total",
                "Commands accepted and committed, by ruleset (the players', not the \
                 deadline worker's or the bots')",
            ),
            &["ruleset"],
        )?;
        let deadline_lag = Histogram::with_opts(
            HistogramOpts::new(
                "hatstand_deadline_lag_seconds",
                "How late the deadline worker timed a game out, after its deadline",
            )
            .buckets(LAG_BUCKETS.to_vec()),
        )?;
        let long_polls = IntGauge::new(
            "hatstand_long_polls_held",
            "Long polls (GET /v1/games/{id}/events?wait=) waiting for an event now",
        )?;
        let streams = IntGauge::new(
            "hatstand_event_streams_open",
            "Server-Sent Events streams (a game's, a user's) open now",
        )?;
        registry.register(Box::new(requests.clone()))?;
        registry.register(Box::new(commands.clone()))?;
        registry.register(Box::new(deadline_lag.clone()))?;
        registry.register(Box::new(long_polls.clone()))?;
        registry.register(Box::new(streams.clone()))?;
        Ok(Metrics {
            registry,
            requests,
            commands,
            deadline_lag,
            long_polls,
            streams,
        })
    }

    /// One request answered: its route pattern (see [`requests`]), method,
    /// status and how long it took.
    pub fn request(&self, route: &str, method: &str, status: u16, seconds: f64) {
        self.requests
            .with_label_values(&[route, method, status_class(status)])
            .observe(seconds);
    }

    /// A player's command of `ruleset` was committed.
    pub fn command_accepted(&self, ruleset: &str) {
        self.commands.with_label_values(&[ruleset]).inc();
    }

    /// The deadline worker timed a game out `seconds` after its deadline.
    pub fn deadline_fired(&self, seconds: f64) {
        self.deadline_lag.observe(seconds.max(0.0));
    }

    /// A long poll starts waiting; it stops counting when the guard drops.
    #[must_use]
    pub fn long_poll(&self) -> Held {
        Held::new(&self.long_polls)
    }

    /// A stream opens; it stops counting when the guard drops.
    #[must_use]
    pub fn stream(&self) -> Held {
        Held::new(&self.streams)
    }
}

/// A request's status as its class: `2xx`, `4xx`, ...
fn status_class(status: u16) -> &'static str {
    match status / 100 {
        1 => "1xx",
        2 => "2xx",
        3 => "3xx",
        4 => "4xx",
        _ => "5xx",
    }
}

/// Counts one held thing (a long poll, a stream) on a gauge while it lives.
pub struct Held(IntGauge);

impl Held {
    fn new(gauge: &IntGauge) -> Held {
        gauge.inc();
        Held(gauge.clone())
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.0.dec();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_things_count_while_they_live() {
        let metrics = Metrics::new().unwrap();
        let first = metrics.stream();
        let second = metrics.stream();
        let poll = metrics.long_poll();
        assert_eq!((metrics.streams.get(), metrics.long_polls.get()), (2, 1));
        drop(first);
        drop(poll);
        assert_eq!((metrics.streams.get(), metrics.long_polls.get()), (1, 0));
        drop(second);
        assert_eq!(metrics.streams.get(), 0);
    }

    #[test]
    fn statuses_are_labelled_by_class() {
        assert_eq!(
            [101, 200, 204, 304, 404, 429, 500, 503, 999].map(status_class),
            [
                "1xx", "2xx", "2xx", "3xx", "4xx", "4xx", "5xx", "5xx", "5xx"
            ]
        );
    }
}
