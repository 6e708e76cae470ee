//! Random games: the contract's laws hold and every game ends.

use super::*;
use crate::testing::{checked_playout, playout};

/// Plays the games `seeds` with `players` seats under every check of
/// `checked_playout`: (actions, wins, draws).
fn run(players: usize, seeds: std::ops::Range<u64>) -> (u64, u64, u64) {
    let (mut actions, mut wins, mut draws) = (0, 0, 0);
    for seed in seeds {
        let (state, report) =
            checked_playout::<TopHats>(players, Options::default(), seed, 100_000)
                .unwrap_or_else(|e| panic!("{players}p: {e}"));
        actions += report.actions;
        let result = TopHats::result(&state).unwrap();
        assert_eq!(result.scores.len(), players);
        if result.winners.is_empty() {
            assert_eq!(result.outcome.as_deref(), Some("draw"));
            draws += 1;
        } else {
            assert_eq!(result.winners.len(), 1);
            assert_eq!(result.outcome, None);
            wins += 1;
        }
    }
    eprintln!("{players}p: {actions} actions, {wins} wins, {draws} draws");
    (actions, wins, draws)
}

// 10,000 full games in all (building and placing included), split in four
// so the test runner spreads them over the cores.

#[test]
fn random_two_player_games_keep_the_laws_and_end_a() {
    let (_, wins, draws) = run(2, 0..2_500);
    assert!(wins > 0 && draws > 0);
}

#[test]
fn random_two_player_games_keep_the_laws_and_end_b() {
    run(2, 2_500..5_000);
}

#[test]
fn random_three_player_games_keep_the_laws_and_end_a() {
    let (_, wins, draws) = run(3, 0..2_500);
    assert!(wins > 0 && draws > 0);
}

#[test]
fn random_three_player_games_keep_the_laws_and_end_b() {
    run(3, 2_500..5_000);
}

#[test]
fn random_games_from_a_preset_position_end() {
    let spec = "d4=n b2=bbr c3=rrb d3=brr e5=rbb f6=b c6=r";
    for players in 2..=3 {
        for seed in 0..200 {
            checked_playout::<TopHats>(players, options(spec, 1), seed, 10_000).unwrap();
        }
    }
    playout::<TopHats>(2, Options::default(), 7, 100_000).unwrap();
}
