//! `hatstand arena`: bots against bots, in-process on the engines (no HTTP,
//! no database), with per-level win rates and their 95 % confidence
//! intervals.
//!
//! Level `a` plays one seat and level `b` every other seat; `a`'s seat
//! rotates through the table from game to game, so no seat's advantage
//! counts for either. A game counts 1 for `a` when it wins alone, ½ when
//! it shares the win or nobody wins (a draw), 0 otherwise. The line before
//! the last compares that share with the fair share (one game in `players`):
//! `<a> wins <r>× its fair share of <f>% (95% CI <lo>–<hi>×)`. The last line
//! reads `arena: <a> vs <b>: <w>% (95% CI <lo>–<hi>) over <n> games, <d>
//! decisions/s`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use clap::Args;
use hatstand::engine::bots::arena::{self, Played, Table};
use hatstand::engine::bots::{BotRules, Level};
use hatstand::engine::{GameKind, Ruleset, with_ruleset};
use hatstand::record::out::AUTOPLAY_ITERATIONS;

/// Options of `hatstand arena`.
#[derive(Debug, Clone, Args)]
pub struct ArenaArgs {
    /// The ruleset to play.
    #[arg(long, default_value = "hats")]
    pub ruleset: String,
    /// Seats per game (default: the ruleset's fewest).
    #[arg(long)]
    pub players: Option<usize>,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// The two levels, `a,b`: `a` takes one seat, `b` the others.
    #[arg(long, default_value = "ismcts,random")]
    pub bots: String,
    /// Search iterations per `ismcts` decision (default: the server's
    /// autoplay budget, `record::out::AUTOPLAY_ITERATIONS`).
    #[arg(long, default_value_t = AUTOPLAY_ITERATIONS)]
    pub iterations: u32,
    /// A wall-clock limit per decision, in milliseconds (none by default:
    /// the iterations alone bound a search, so a run is reproducible).
    #[arg(long)]
    pub think_ms: Option<u64>,
    /// The ruleset's options, as JSON (the defaults when absent).
    #[arg(long)]
    pub options: Option<String>,
    /// Games played at once (default: one per core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// The first game's seed (game `g` uses `seed + g`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs the arena and prints its table.
///
/// # Errors
/// Unknown ruleset or level, options the ruleset refuses, a broken engine.
pub fn run(args: &ArenaArgs) -> Result<(), String> {
    let kind = GameKind::from_id(&args.ruleset)
        .ok_or_else(|| format!("there is no ruleset {:?}", args.ruleset))?;
    let (a, b) = args
        .bots
        .split_once(',')
        .ok_or("--bots takes two levels, e.g. ismcts,random")?;
    let a: Level = a.trim().parse().map_err(|e| format!("{e}"))?;
    let b: Level = b.trim().parse().map_err(|e| format!("{e}"))?;
    with_ruleset!(kind, |R| play_all::<R>(args, a, b))
}

/// What one game gave level `a`.
#[derive(Debug, Clone, Copy, Default)]
struct Outcome {
    /// 1, ½ or 0 (see the module documentation).
    points: f64,
    /// `a`'s score minus the mean score of the `b` seats.
    margin: f64,
}

/// One game's outcome for `a`, and each side's decision times.
type GameTimes = (Outcome, Vec<Duration>, Vec<Duration>);

fn play_all<R: BotRules>(args: &ArenaArgs, a: Level, b: Level) -> Result<(), String> {
    let players = args.players.unwrap_or(R::MIN_PLAYERS);
    if !(R::MIN_PLAYERS..=R::MAX_PLAYERS).contains(&players) {
        return Err(format!(
            "{} is played by {} to {} players",
            R::NAME,
            R::MIN_PLAYERS,
            R::MAX_PLAYERS
        ));
    }
    // Each worker parses its own copy (options need not be shareable).
    let parse = || -> Result<R::Options, String> {
        match &args.options {
            Some(json) => serde_json::from_str(json).map_err(|e| format!("--options: {e}")),
            None => Ok(R::Options::default()),
        }
    };
    parse()?;
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
        .max(1);
    let next = AtomicU64::new(0);
    let results: Vec<Result<Vec<GameTimes>, String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                scope.spawn(|| {
                    let options = parse()?;
                    let mut mine = Vec::new();
                    loop {
                        let g = next.fetch_add(1, Ordering::Relaxed);
                        if g >= args.games {
                            return Ok(mine);
                        }
                        mine.push(one_game::<R>(args, &options, players, a, b, g)?);
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|_| Err("a worker panicked".into())))
            .collect()
    });
    let mut outcomes = Vec::new();
    let mut a_times = Vec::new();
    let mut b_times = Vec::new();
    for worker in results {
        for (outcome, at, bt) in worker? {
            outcomes.push(outcome);
            a_times.extend(at);
            b_times.extend(bt);
        }
    }
    print_table::<R>(args, players, a, b, &outcomes, &mut a_times, &mut b_times);
    Ok(())
}

/// Plays game `g`: `a` in seat `g mod players`, `b` elsewhere.
fn one_game<R: BotRules>(
    args: &ArenaArgs,
    options: &R::Options,
    players: usize,
    a: Level,
    b: Level,
    g: u64,
) -> Result<GameTimes, String> {
    let a_seat = usize::try_from(g).unwrap_or(0) % players;
    let seats: Vec<Level> = (0..players)
        .map(|s| if s == a_seat { a } else { b })
        .collect();
    let table = Table {
        seats: &seats,
        iterations: args.iterations,
        think_limit: args.think_ms.map(Duration::from_millis),
    };
    let played: Played<R> = arena::play::<R>(options, table, args.seed.wrapping_add(g))?;
    let result = &played.result;
    let won = result.winners.iter().any(|w| w.index() == a_seat);
    let points = if result.winners.is_empty() {
        0.5
    } else if won && result.winners.len() == 1 {
        1.0
    } else if won {
        0.5
    } else {
        0.0
    };
    let score = |s: usize| f64::from(result.scores.get(s).copied().unwrap_or(0));
    let others: f64 = (0..players).filter(|&s| s != a_seat).map(score).sum();
    let margin = score(a_seat) - others / (players - 1).max(1) as f64;
    let mut times = played.times;
    let a_times = std::mem::take(&mut times[a_seat]);
    let b_times = times.into_iter().flatten().collect();
    Ok((Outcome { points, margin }, a_times, b_times))
}

/// Mean and the half-width of its 95 % confidence interval (normal
/// approximation).
fn mean_ci(values: impl Iterator<Item = f64> + Clone) -> (f64, f64) {
    let n = values.clone().count().max(1) as f64;
    let mean = values.clone().sum::<f64>() / n;
    let var = values.map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, 1.96 * (var / n).sqrt())
}

fn quantile_ms(times: &mut [Duration], q: f64) -> f64 {
    if times.is_empty() {
        return 0.0;
    }
    times.sort_unstable();
    let at = ((times.len() - 1) as f64 * q).round() as usize;
    times[at].as_secs_f64() * 1000.0
}

fn print_table<R: Ruleset>(
    args: &ArenaArgs,
    players: usize,
    a: Level,
    b: Level,
    outcomes: &[Outcome],
    a_times: &mut [Duration],
    b_times: &mut [Duration],
) {
    let n = outcomes.len();
    let (w, w_ci) = mean_ci(outcomes.iter().map(|o| o.points));
    let (m, m_ci) = mean_ci(outcomes.iter().map(|o| o.margin));
    let thinking: Duration = a_times.iter().chain(b_times.iter()).sum();
    let decisions = a_times.len() + b_times.len();
    let per_second = decisions as f64 / thinking.as_secs_f64().max(1e-9);
    println!(
        "arena: {} ({} players), {n} games, {a} in one seat (rotated) against {b}; ismcts {} iterations{}",
        R::ID,
        players,
        args.iterations,
        args.think_ms
            .map(|ms| format!(", at most {ms} ms"))
            .unwrap_or_default()
    );
    println!("  level    decisions  ms/decision p50    p99");
    for (level, times) in [(a, &mut *a_times), (b, &mut *b_times)] {
        println!(
            "  {:<8} {:>9}  {:>15.3} {:>6.3}",
            level.id(),
            times.len(),
            quantile_ms(times, 0.5),
            quantile_ms(times, 0.99)
        );
    }
    println!(
        "  {a} scores {m:+.2} ± {m_ci:.2} per game against the mean of the {b} seats (95% CI)"
    );
    let fair = 1.0 / players as f64;
    println!(
        "  {a} wins {:.2}× its fair share of {:.1}% (95% CI {:.2}–{:.2}×)",
        w / fair,
        100.0 * fair,
        (w - w_ci).max(0.0) / fair,
        (w + w_ci).min(1.0) / fair,
    );
    println!(
        "arena: {a} vs {b}: {:.1}% (95% CI {:.1}–{:.1}) over {n} games, {per_second:.0} decisions/s",
        100.0 * w,
        100.0 * (w - w_ci).max(0.0),
        100.0 * (w + w_ci).min(1.0),
    );
}
