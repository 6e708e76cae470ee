//! `hatstand bench --ratings N`: what rating a game costs its finishing
//! command, and how fast a rebuild goes (docs/ratings.md, *Cost*).
//!
//! On its own in-process server and fresh database, it plays `3 × N` games
//! of Hats for two over HTTP, one request at a time, taking turns: a rated
//! game, a casual one (`rated: false`), and a rated one with the rating
//! step of finishing commands turned off in this process (a finish without
//! it; the bench rates that game itself afterwards, untimed, as the sweep
//! would). It prints p50/p99 of the commands that did not finish a game
//! and of each kind of finish, then rebuilds every rating from the
//! records and prints games/s.

use std::time::Instant;

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use super::{Net, call, start_server, token};
use hatstand::config::Settings;
use hatstand::db::locate;

/// The kinds of command measured.
#[derive(Clone, Copy)]
enum Kind {
    Move,
    Rated,
    Casual,
    Unrated,
}

const LABELS: [&str; 4] = [
    "a move that does not finish the game",
    "a rated finish",
    "a casual finish (the rating step finds nothing to rate)",
    "a finish without the rating step",
];

/// p50 and p99 of `samples` (seconds), in ms.
fn percentiles(samples: &mut [f64]) -> (f64, f64) {
    samples.sort_by(f64::total_cmp);
    let at = |p: f64| {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss,
            reason = "an index into a short list"
        )]
        let i = ((samples.len() as f64 * p) as usize).min(samples.len().saturating_sub(1));
        samples.get(i).copied().unwrap_or(0.0) * 1000.0
    };
    (at(0.50), at(0.99))
}

/// Runs the bench (see the module documentation).
///
/// # Errors
/// When the server or the database fails.
pub async fn run(settings: &Settings, games: u64) -> Result<(), String> {
    let (base, scratch) = start_server(settings).await?;
    let net = Net {
        client: awc::Client::builder()
            .timeout(std::time::Duration::from_secs(30))
            .finish(),
        retry: None,
        acks: None,
    };
    let tokens = [
        token(&net, &base, "rating_bench_a").await?,
        token(&net, &base, "rating_bench_b").await?,
    ];
    let mut conn = locate::connect(&scratch.url).await?;
    let mut samples: [Vec<f64>; 4] = Default::default();
    println!("bench: ratings: {games} games of each kind of Hats for two, one request at a time");
    for n in 0..games * 3 {
        let finish = match n % 3 {
            0 => Kind::Rated,
            1 => Kind::Casual,
            _ => Kind::Unrated,
        };
        let rated = !matches!(finish, Kind::Casual);
        hatstand::ratings::projection::rate_on_finish(!matches!(finish, Kind::Unrated));
        let played = play(&net, &base, &tokens, rated, n, finish, &mut samples).await;
        hatstand::ratings::projection::rate_on_finish(true);
        played?;
        if matches!(finish, Kind::Unrated) {
            hatstand::ratings::projection::catch_up(&mut conn)
                .await
                .map_err(|e| e.detail)?;
        }
    }
    for (kind, label) in LABELS.iter().enumerate() {
        let (p50, p99) = percentiles(&mut samples[kind]);
        println!(
            "bench: ratings: {label}: p50 {p50:.2} ms, p99 {p99:.2} ms over {}",
            samples[kind].len()
        );
    }
    let started = Instant::now();
    let rebuilt = hatstand::ratings::projection::rebuild(&mut conn)
        .await
        .map_err(|e| e.detail)?;
    let secs = started.elapsed().as_secs_f64();
    #[expect(clippy::cast_precision_loss, reason = "figures for people")]
    let rate = rebuilt as f64 / secs.max(1e-9);
    println!(
        "bench: ratings: rebuilt from {rebuilt} finished games in {secs:.3} s ({rate:.0} games/s)"
    );
    drop(conn);
    scratch.drop_database().await;
    Ok(())
}

/// Plays one game to its end with a legal command of the seat to act
/// (chosen at random, seeded by `n`), timing every command into `samples` (its finish as `finish`).
async fn play(
    net: &Net,
    base: &str,
    tokens: &[String; 2],
    rated: bool,
    n: u64,
    finish: Kind,
    samples: &mut [Vec<f64>; 4],
) -> Result<(), String> {
    let body = json!({"ruleset": "hats", "players": 2, "options": {"rated": rated, "seed": format!("bench-{n}")}});
    let (status, game) = call(
        net,
        "POST",
        &format!("{base}/v1/games"),
        Some(&tokens[0]),
        Some(&body),
    )
    .await?;
    if status != 201 {
        return Err(format!("create: {status} {game}"));
    }
    let id = game["id"].as_str().unwrap_or_default().to_owned();
    let url = format!("{base}/v1/games/{id}");
    let (status, mut game) = call(
        net,
        "POST",
        &format!("{url}/join"),
        Some(&tokens[1]),
        Some(&json!({})),
    )
    .await?;
    if status != 200 {
        return Err(format!("join: {status} {game}"));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(n);
    let mut commands = 0;
    while game["status"] == "active" {
        commands += 1;
        if commands > 5000 {
            return Err("no end in sight".to_owned());
        }
        let seat = game["to_act"][0].as_u64().unwrap_or(0);
        let token = &tokens[usize::from(seat == 1)];
        let (_, mine) = call(net, "GET", &url, Some(token), None).await?;
        let legal = mine["legal_commands"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let command = legal.choose(&mut rng).cloned().unwrap_or(Value::Null);
        let request = json!({"expected_version": mine["version"], "command": command});
        let started = Instant::now();
        let (status, answer) = call(
            net,
            "POST",
            &format!("{url}/commands"),
            Some(token),
            Some(&request),
        )
        .await?;
        let took = started.elapsed().as_secs_f64();
        if status != 200 {
            return Err(format!("command: {status} {answer}"));
        }
        game = answer["game"].clone();
        let kind = if game["status"] == "active" {
            Kind::Move
        } else {
            finish
        };
        samples[kind as usize].push(took);
    }
    if game["status"] == "finished" {
        Ok(())
    } else {
        Err(format!("the game ended {}", game["status"]))
    }
}
