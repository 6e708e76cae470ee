//! The contract's laws over many random games of every size and variant.

use super::*;
use crate::hat_trick::options::{Mode, PlayRule, TrumpMode};
use crate::testing::checked_playout;

/// The variant of game `i`: every combination of trump mode, mode, rule of
/// play, `joker_by_trick` and (4 and 6 players) `no_joker` comes round.
pub fn variant(players: usize, i: u64) -> HatTrickOptions {
    let mode = [
        Mode::Standard,
        Mode::Negative,
        Mode::CycleWithNegative,
        Mode::JackNegative,
    ][(i / 2 % 4) as usize];
    let trump_mode = if mode == Mode::JackNegative || i.is_multiple_of(2) {
        TrumpMode::Cut
    } else {
        TrumpMode::Cycle
    };
    HatTrickOptions {
        // Six deals now and then, so the cycle's NEG deal comes up.
        rounds: Some(if i % 7 == 3 { 6 } else { 1 }),
        trump_mode,
        mode,
        play_rule: [
            PlayRule::Standard,
            PlayRule::ColourFirst,
            PlayRule::ColourOrTrump,
        ][(i / 8 % 3) as usize],
        joker_by_trick: [None, Some(3), Some(5)][(i / 24 % 3) as usize],
        no_joker: (players == 4 || players == 6) && i / 72 % 2 == 1,
        deals: Vec::new(),
    }
}

#[derive(Default, Debug)]
struct Tally {
    games: u64,
    actions: u64,
    deals: u64,
    negative_deals: u64,
    hat_tricks: u64,
    predictions: u64,
}

fn run(players: usize, games: u64) -> Tally {
    let mut tally = Tally::default();
    for i in 0..games {
        let seed = players as u64 * 1_000_000 + i;
        let (state, report) =
            checked_playout::<HatTrick>(players, variant(players, i), seed, 100_000)
                .unwrap_or_else(|e| panic!("{players}p game {i}: {e}"));
        let result = HatTrick::result(&state).expect("a result");
        assert_eq!(result.rounds.len(), usize::from(state.rounds));
        assert!(!result.winners.is_empty());
        for r in &result.rounds {
            tally.deals += 1;
            tally.negative_deals += u64::from(r.negative);
            tally.hat_tricks += u64::from(r.hat_trick.is_some());
            tally.predictions += r.predictions.len() as u64;
            if r.negative {
                assert!(r.predictions.is_empty());
            }
        }
        tally.games += 1;
        tally.actions += report.actions;
    }
    assert!(tally.negative_deals > 0 && tally.hat_tricks > 0 && tally.predictions > 0);
    println!("{players}p: {tally:?}");
    tally
}

#[test]
fn property_2_players_2000_random_games_keep_the_laws() {
    assert_eq!(run(2, 2000).games, 2000);
}

#[test]
fn property_3_players_2000_random_games_keep_the_laws() {
    assert_eq!(run(3, 2000).games, 2000);
}

#[test]
fn property_4_players_2000_random_games_keep_the_laws() {
    assert_eq!(run(4, 2000).games, 2000);
}

#[test]
fn property_5_players_2000_random_games_keep_the_laws() {
    assert_eq!(run(5, 2000).games, 2000);
}

#[test]
fn property_6_players_2000_random_games_keep_the_laws() {
    assert_eq!(run(6, 2000).games, 2000);
}
