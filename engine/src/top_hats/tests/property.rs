//! Random games: the contract's laws hold and every game ends.

use super::*;
use crate::testing::{checked_playout, playout};

fn run(players: usize, games: u64) -> (u64, u64, u64) {
    let (mut actions, mut wins, mut draws) = (0, 0, 0);
    for seed in 0..games {
        let (state, report) =
            checked_playout::<TopHats>(players, Options::default(), seed, 100_000)
                .unwrap_or_else(|e| panic!("{players}p: {e}"));
        actions += report.actions;
        let result = TopHats::result(&state).unwrap();
        if result.winners.is_empty() {
            assert_eq!(result.outcome.as_deref(), Some("draw"));
            draws += 1;
        } else {
            wins += 1;
        }
    }
    (actions, wins, draws)
}

#[test]
fn random_two_player_games_keep_the_laws_and_end() {
    let (actions, wins, draws) = run(2, 5_000);
    eprintln!("2p: 5000 games, {actions} actions, {wins} wins, {draws} draws");
    assert!(wins > 0 && draws > 0);
}

#[test]
fn random_three_player_games_keep_the_laws_and_end() {
    let (actions, wins, draws) = run(3, 5_000);
    eprintln!("3p: 5000 games, {actions} actions, {wins} wins, {draws} draws");
    assert!(wins > 0);
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
