//! The state of a game of Hats.

use serde::{Deserialize, Serialize};

use super::cards::{Card, HAND_SIZE, MAIN_ACTIONS, line_length};
use super::options::Deal;
use crate::ruleset::{Seat, seat};

/// Where the current turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HatsStep))]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// The player on turn may use the optional action (if not yet used) and
    /// must make the main action.
    Main,
    /// The player on turn offered a swap; the partner must answer.
    AnsweringSwap,
}

/// Everything the rules need to know about a game of Hats.
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HatsState {
    /// Number of seats (2–4).
    pub(crate) players: u8,
    /// The seat that starts.
    pub(crate) first_seat: u8,
    /// The explicit deal, if the options gave one.
    pub(crate) deal: Option<Deal>,
    /// Whether the cards were dealt.
    pub(crate) started: bool,
    /// The tea table line, position 1 first.
    pub(crate) line: Vec<Card>,
    /// Each seat's hand.
    pub(crate) hands: Vec<Vec<Card>>,
    /// The draw deck, top first.
    pub(crate) deck: Vec<Card>,
    /// The discard pile, oldest first.
    pub(crate) discard: Vec<Card>,
    /// Each seat's face-up collection, in the order taken.
    pub(crate) collections: Vec<Vec<Card>>,
    /// Each seat's black hats (face down), in the order made.
    pub(crate) black_hats: Vec<Vec<Card>>,
    /// The seat on turn.
    pub(crate) current: u8,
    /// Where the turn stands.
    pub(crate) step: Step,
    /// Whether the optional action (discard and draw, or the partner swap)
    /// was used this turn.
    pub(crate) optional_used: bool,
    /// The card offered for a partner swap, while the partner answers.
    pub(crate) offered: Option<Card>,
    /// Main actions made so far, by all players together.
    pub(crate) main_actions: u8,
    /// How many times the discard pile was shuffled into a new deck.
    pub(crate) reshuffles: u32,
}

impl HatsState {
    /// A table of `players` before the deal.
    pub(crate) fn new(players: usize, first_seat: u8, deal: Option<Deal>) -> HatsState {
        HatsState {
            players: u8::try_from(players).unwrap_or(u8::MAX),
            first_seat,
            deal,
            started: false,
            line: Vec::with_capacity(line_length(players)),
            hands: vec![Vec::with_capacity(HAND_SIZE); players],
            deck: Vec::new(),
            discard: Vec::new(),
            collections: vec![Vec::with_capacity(MAIN_ACTIONS); players],
            black_hats: vec![Vec::new(); players],
            current: first_seat,
            step: Step::Main,
            optional_used: false,
            offered: None,
            main_actions: 0,
            reshuffles: 0,
        }
    }

    /// Number of seats.
    pub(crate) fn player_count(&self) -> usize {
        usize::from(self.players)
    }

    /// Whether every player made all eight main actions.
    pub(crate) fn finished(&self) -> bool {
        self.started && usize::from(self.main_actions) >= MAIN_ACTIONS * self.player_count()
    }

    /// The seat on turn.
    pub(crate) fn current_seat(&self) -> Seat {
        Seat(self.current)
    }

    /// The partner of `s` (4 players: the seat across, `s + 2`).
    pub(crate) fn partner(&self, s: Seat) -> Seat {
        seat((s.index() + 2) % self.player_count().max(1))
    }

    /// The seats the game waits for.
    pub(crate) fn waiting_for(&self) -> Option<Seat> {
        if !self.started || self.finished() {
            None
        } else {
            match self.step {
                Step::Main => Some(self.current_seat()),
                Step::AnsweringSwap => Some(self.partner(self.current_seat())),
            }
        }
    }
}
