//! One pool per thread that uses it.
//!
//! A pooled connection is driven by a task on the thread that opened it:
//! every statement sent on it from another thread is handed across (a
//! wake-up of the driving thread, then one back with the answer). So each
//! HTTP worker thread opens a pool of its own ([`Pools::for_worker`]), whose
//! connections it opens, drives and uses itself, and the background workers
//! (deadlines, deliveries, bots, NOTIFYs) share the process's first pool.
//! Under load, with the NOTIFYs batched too, the server switched threads
//! 3.5 times per command instead of 5.9 (README, *Performance*).

use std::sync::{Mutex, PoisonError};

use super::{Limits, Pool, pool_with};

/// How the process opens its pools, and every pool it opened.
pub struct Pools {
    url: String,
    limits: Limits,
    /// The connections of the HTTP workers' pools together.
    requests: usize,
    opened: Mutex<Vec<Pool>>,
}

/// The figures of all pools of the process, summed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Status {
    pub max_size: usize,
    pub size: usize,
    pub available: usize,
    pub waiting: usize,
}

impl std::fmt::Debug for Pools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pools")
            .field("requests", &self.requests)
            .field("status", &self.status())
            .finish_non_exhaustive()
    }
}

impl Pools {
    /// The background pool (`background` connections at most) and the recipe
    /// for the workers' pools: `requests` connections shared out among them.
    ///
    /// # Errors
    /// Only for an invalid pool configuration.
    pub fn open(
        url: &str,
        limits: Limits,
        background: usize,
        requests: usize,
    ) -> Result<(Self, Pool), String> {
        let first = pool_with(url, background, &limits)?;
        let pools = Pools {
            url: url.to_owned(),
            limits,
            requests,
            opened: Mutex::new(vec![first.clone()]),
        };
        Ok((pools, first))
    }

    /// A new pool for the HTTP worker thread calling it, one of `workers`:
    /// its share of the requests' connections (at least one).
    ///
    /// # Errors
    /// Only for an invalid pool configuration.
    pub fn for_worker(&self, workers: usize) -> Result<Pool, String> {
        let size = self.requests.div_ceil(workers.max(1)).max(1);
        let pool = pool_with(&self.url, size, &self.limits)?;
        self.opened
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(pool.clone());
        Ok(pool)
    }

    /// Every pool's figures, summed.
    #[must_use]
    pub fn status(&self) -> Status {
        let opened = self.opened.lock().unwrap_or_else(PoisonError::into_inner);
        opened.iter().map(Pool::status).fold(
            Status {
                max_size: 0,
                size: 0,
                available: 0,
                waiting: 0,
            },
            |sum, s| Status {
                max_size: sum.max_size + s.max_size,
                size: sum.size + s.size,
                available: sum.available + s.available,
                waiting: sum.waiting + s.waiting,
            },
        )
    }
}
