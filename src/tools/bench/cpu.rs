//! What a run costs in CPU: the server's, PostgreSQL's and the load
//! generator's, read from `/proc` before and after the measured window.
//!
//! Rules:
//! - With the bench's own server, the server runs on threads of its own and
//!   the load generator on the main thread alone: the server's time is the
//!   process's less the main thread's.
//! - With `--base`, the server's time is read from the processes named by
//!   `--server-pid` (summed: several behind a balancer); without one it is
//!   not known, and not printed.
//! - PostgreSQL's is the time of its processes on this machine, its client
//!   backends only those of the bench's database when the bench made it
//!   (with `--base`, every database's). A backend that ends inside the
//!   window takes its time with it (see `proc_stat`): the server's pool
//!   keeps its connections, so the figure holds for the server's load, not
//!   for clients that connect and leave (pgbench's backends).

use hatstand::proc_stat;

/// Where the server runs.
#[derive(Debug, Clone)]
pub enum Server {
    /// In this process, off the main thread.
    InProcess,
    /// These processes.
    Processes(Vec<u32>),
    /// Elsewhere: not measured.
    Unknown,
}

/// What to read at each end of a window.
#[derive(Debug, Clone)]
pub struct Meter {
    pub server: Server,
    /// The database whose backends count (`None`: every database's).
    pub database: Option<String>,
}

/// CPU ticks read at one instant, each `None` when not known.
#[derive(Debug, Clone, Copy)]
pub struct Reading {
    server: Option<u64>,
    postgres: Option<u64>,
    generator: Option<u64>,
}

/// CPU milliseconds spent between two readings.
#[derive(Debug, Clone, Copy, Default)]
pub struct Spent {
    pub server: Option<f64>,
    pub postgres: Option<f64>,
    pub generator: Option<f64>,
}

impl Meter {
    /// Reads every figure now.
    pub fn read(&self) -> Reading {
        let whole = proc_stat::this_process();
        let (server, generator) = match &self.server {
            Server::InProcess => {
                let main = proc_stat::main_thread();
                (whole.zip(main).map(|(w, m)| w.saturating_sub(m)), main)
            }
            Server::Processes(pids) => {
                (pids.iter().map(|pid| proc_stat::process(*pid)).sum(), whole)
            }
            Server::Unknown => (None, whole),
        };
        Reading {
            server,
            postgres: proc_stat::postgres(self.database.as_deref()),
            generator,
        }
    }
}

impl Reading {
    /// What was spent from `self` until `later`.
    pub fn until(&self, later: &Reading) -> Spent {
        let millis = |a: Option<u64>, b: Option<u64>| {
            a.zip(b)
                .map(|(a, b)| proc_stat::millis(b.saturating_sub(a)))
        };
        Spent {
            server: millis(self.server, later.server),
            postgres: millis(self.postgres, later.postgres),
            generator: millis(self.generator, later.generator),
        }
    }
}
