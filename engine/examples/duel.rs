//! A quick arena on the engines alone (no server build): `cargo run -p
//! hatstand-engine --release --example duel -- <ruleset> <players> <a> <b>
//! <games> [iterations]`. Level `a` takes one seat (rotated), `b` the others;
//! prints `a`'s share of the wins with its 95 % interval and the fair-share
//! ratio, and `a`'s decision times (p50, p99). `hatstand arena` is the full
//! tool; this one builds in seconds.

use std::time::Duration;

use hatstand_engine::bots::arena::{self, Table};
use hatstand_engine::bots::{BotRules, Level};
use hatstand_engine::{GameKind, with_ruleset};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |i: usize| {
        args.get(i)
            .cloned()
            .ok_or("usage: duel <ruleset> <players> <a> <b> <games> [iterations]")
    };
    let kind = GameKind::from_id(&get(0)?).ok_or("no such ruleset")?;
    let players: usize = get(1)?.parse().map_err(|e| format!("{e}"))?;
    let a: Level = get(2)?.parse().map_err(|e| format!("{e}"))?;
    let b: Level = get(3)?.parse().map_err(|e| format!("{e}"))?;
    let games: u64 = get(4)?.parse().map_err(|e| format!("{e}"))?;
    let iterations: u32 = args
        .get(5)
        .map_or(Ok(200), |s| s.parse())
        .map_err(|e| format!("{e}"))?;
    with_ruleset!(kind, |R| duel::<R>(players, a, b, games, iterations))
}

fn duel<R: BotRules>(
    players: usize,
    a: Level,
    b: Level,
    games: u64,
    iterations: u32,
) -> Result<(), String> {
    let mut points = Vec::new();
    let mut times: Vec<Duration> = Vec::new();
    for g in 0..games {
        let seat = usize::try_from(g).unwrap_or(0) % players;
        let seats: Vec<Level> = (0..players)
            .map(|s| if s == seat { a } else { b })
            .collect();
        let table = Table {
            seats: &seats,
            iterations,
            think_limit: None,
        };
        let played = arena::play::<R>(&R::Options::default(), table, 1 + g)?;
        let won = played.result.winners.iter().any(|w| w.index() == seat);
        let n = played.result.winners.len();
        points.push(if n == 0 {
            0.5
        } else if won && n == 1 {
            1.0
        } else if won {
            0.5
        } else {
            0.0
        });
        times.extend(played.times[seat].iter().copied());
    }
    let n = points.len() as f64;
    let mean = points.iter().sum::<f64>() / n;
    let var = points.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let ci = 1.96 * (var / n).sqrt();
    times.sort_unstable();
    let q = |f: f64| {
        times
            .get(((times.len().max(1) - 1) as f64 * f).round() as usize)
            .map_or(0.0, |t| t.as_secs_f64() * 1000.0)
    };
    let fair = 1.0 / players as f64;
    println!(
        "{} {players}p {a} vs {b}, {games} games, {iterations} it: {:.1}% (95% CI {:.1}–{:.1}), {:.2}× fair share; {a} ms p50 {:.2} p99 {:.2}",
        R::ID,
        100.0 * mean,
        100.0 * (mean - ci),
        100.0 * (mean + ci),
        mean / fair,
        q(0.5),
        q(0.99)
    );
    Ok(())
}
