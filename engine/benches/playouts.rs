//! Random playouts of every ruleset at every player count, timed.
//!
//! `cargo bench -p hatstand-engine` prints, per ruleset and player count, the
//! games and actions per second of one core, where an action is one
//! `legal_commands` + `decide` + `evolve` step. `HATSTAND_BENCH_SECONDS` sets the
//! time per line (default 2).

use std::time::{Duration, Instant};

use hatstand_engine::testing::playout;
use hatstand_engine::{GameKind, Ruleset, with_ruleset};

fn main() {
    let per_line = std::env::var("HATSTAND_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(2.0);
    for &kind in GameKind::ALL {
        with_ruleset!(kind, |R| {
            for players in R::MIN_PLAYERS..=R::MAX_PLAYERS {
                bench::<R>(players, Duration::from_secs_f64(per_line));
            }
        });
    }
}

fn bench<R: Ruleset>(players: usize, budget: Duration) {
    let started = Instant::now();
    let (mut games, mut actions, mut seed) = (0u64, 0u64, 0u64);
    while started.elapsed() < budget {
        match playout::<R>(players, R::Options::default(), seed, 1_000_000) {
            Ok((_, report)) => {
                games += 1;
                actions += report.actions;
            }
            Err(e) => {
                eprintln!("{} {players}p seed {seed}: {e}", R::ID);
                return;
            }
        }
        seed += 1;
    }
    let secs = started.elapsed().as_secs_f64();
    #[expect(clippy::cast_precision_loss, reason = "counts far below 2^52")]
    let (games_per_s, actions_per_s) = (games as f64 / secs, actions as f64 / secs);
    println!(
        "engine {:<10} {players}p: {games_per_s:>10.0} playouts/s {actions_per_s:>12.0} actions/s ({games} games)",
        R::ID
    );
}
