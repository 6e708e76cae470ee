//! The options of a game of Hat Trick, their schema and their validation.

use serde::{Deserialize, Serialize};

use super::cards::{Card, Hand, deck};
use crate::random::{Randomness, below, shuffle};
use crate::ruleset::OptionsError;

/// How trump is chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HatTrickTrumpMode))]
#[serde(rename_all = "snake_case")]
pub enum TrumpMode {
    /// By the trump indicator (the turned or cut card); K, Q or joker → no-trump.
    #[default]
    Cut,
    /// By the fixed cycle ♥ ♦ ♣ ♠ NT over the deal number; no indicator.
    Cycle,
}

/// The objective of the deals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HatTrickMode))]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Every deal is played for points; highest total wins.
    #[default]
    Standard,
    /// Every deal is negative (penalty points, no predictions, joker wins); lowest total wins.
    Negative,
    /// The six-deal cycle ♥ ♦ ♣ ♠ NT NEG; the NEG deal is negative, at no-trump.
    CycleWithNegative,
    /// A Jack as trump indicator makes the deal negative (its suit stays trump).
    JackNegative,
}

/// What a seat that cannot follow suit must play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HatTrickPlayRule))]
#[serde(rename_all = "snake_case")]
pub enum PlayRule {
    /// Highest trump (at no-trump: highest of the same colour), else anything.
    #[default]
    Standard,
    /// Highest of the same colour, else highest trump, else anything.
    ColourFirst,
    /// Either the highest of the same colour or the highest trump, else anything.
    ColourOrTrump,
}

/// An explicit deal: each seat's hand, the left-over cards (top first) and the
/// trump indicator (absent when trump goes by the cycle).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HatTrickDeal))]
#[serde(deny_unknown_fields)]
pub struct Deal {
    /// One hand per seat, in seat order.
    pub hands: Vec<Vec<Card>>,
    /// The cards left over, top first (may be omitted when there are none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left: Vec<Card>,
    /// The trump indicator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indicator: Option<Card>,
}

impl Deal {
    /// Deal `round` (0-based) drawn from `rng` for `players` seats with
    /// `options`, exactly as a game without an explicit deal for that round
    /// deals it (the game's own dealing calls this).
    ///
    /// What it depends on: the deck (`players`, `no_joker`), the dealer
    /// (seat `round mod players`: hands are dealt from forehand round to the
    /// dealer, the 5-player dealer getting one card fewer) and where the
    /// indicator comes from (`trump_mode`/`mode`: none by the cycle, the top
    /// left-over card, or the cut card). Trump itself is not part of the deal:
    /// each table derives it from the indicator and the deal number.
    ///
    /// The shuffle: the deck in its fixed order (♥ ♦ ♣ ♠, low to high,
    /// jokers last) is shuffled (Fisher–Yates) with `rng.stream("deal", round)`;
    /// when the indicator is the cut card, a uniformly random card
    /// (`below(len)` on the same stream) is taken out as the cut card and given
    /// to the dealer. Then, from the top, each seat from forehand round to the
    /// dealer takes its hand (the dealer's includes the cut card); the rest is
    /// left over, top first, and with the indicator `TopLeft` its first card is
    /// the indicator. A duplicate tournament gives every table of a round the
    /// deals drawn from the round's seed. Hands are listed in card order.
    #[must_use]
    pub fn drawn(options: &HatTrickOptions, players: usize, round: u8, rng: &Randomness) -> Deal {
        let n = players.max(1);
        let dealer = usize::from(round) % n;
        let table = options.table(players);
        let mut stream = rng.stream("deal", u64::from(round));
        let mut cards: Vec<Card> = table.deck.cards().collect();
        shuffle(&mut cards, &mut stream);
        let cut = (table.indicator == IndicatorKind::Cut)
            .then(|| cards.remove(below(&mut stream, cards.len())));
        let mut hands = vec![Hand::default(); players];
        let mut rest = cards.into_iter();
        for k in 1..=players {
            let s = (dealer + k) % n;
            let mut size = table.hand_size;
            if s == dealer && players == 5 {
                size -= 1;
            }
            if s == dealer
                && let Some(c) = cut
            {
                hands[s].0 |= c.bit();
                size -= 1;
            }
            for c in rest.by_ref().take(size) {
                hands[s].0 |= c.bit();
            }
        }
        let left: Vec<Card> = rest.collect();
        let indicator = match table.indicator {
            IndicatorKind::None => None,
            IndicatorKind::TopLeft => left.first().copied(),
            IndicatorKind::Cut => cut,
        };
        Deal {
            hands: hands.into_iter().map(|h| h.cards().collect()).collect(),
            left,
            indicator,
        }
    }
}

/// The options of a game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct HatTrickOptions {
    /// Number of deals (1–60); default one per player.
    #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 60))]
    pub rounds: Option<u8>,
    /// How trump is chosen.
    pub trump_mode: TrumpMode,
    /// Standard, negative or mixed game.
    pub mode: Mode,
    /// The rule of play when unable to follow suit.
    pub play_rule: PlayRule,
    /// The joker must be played by this trick (3 or 5), if set.
    #[cfg_attr(feature = "schema", schema(schema_with = joker_by_trick))]
    pub joker_by_trick: Option<u8>,
    /// Remove the joker (4 and 6 players only).
    pub no_joker: bool,
    /// Explicit deals: `deals[r]` is used for deal `r` (0-based).
    pub deals: Vec<Deal>,
}

/// The schema of `joker_by_trick`: 3, 5 or null.
#[cfg(feature = "schema")]
fn joker_by_trick() -> utoipa::openapi::schema::Object {
    use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::Integer, Type::Null]))
        .enum_values(Some([
            serde_json::Value::from(3),
            serde_json::Value::from(5),
            serde_json::Value::Null,
        ]))
        .description(Some(
            "The joker must be played by this trick (3 or 5), if set.",
        ))
        .default(Some(serde_json::Value::Null))
        .build()
}

/// Where a deal's trump indicator comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndicatorKind {
    /// No indicator: trump goes by the cycle.
    None,
    /// The top left-over card, turned face up (2, 4 and 6 players).
    TopLeft,
    /// The cut card, dealt to the dealer (3 and 5 players, or 4 and 6 without joker).
    Cut,
}

/// The fixed shape of a table: derived from the player count and options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Table {
    /// Seats.
    pub players: usize,
    /// Tricks per deal (11, or 10 with 6 players).
    pub tricks: u8,
    /// Cards per hand (the 5-player dealer gets one fewer).
    pub hand_size: usize,
    /// Cards left over after the deal.
    pub left: usize,
    /// Where the trump indicator comes from.
    pub indicator: IndicatorKind,
    /// The deck.
    pub deck: Hand,
}

impl HatTrickOptions {
    /// Whether trump goes by a cycle rather than an indicator.
    #[must_use]
    pub fn uses_cycle(&self) -> bool {
        self.trump_mode == TrumpMode::Cycle || self.mode == Mode::CycleWithNegative
    }

    /// The number of deals for `players` seats.
    #[must_use]
    pub fn round_count(&self, players: usize) -> u8 {
        self.rounds
            .unwrap_or_else(|| u8::try_from(players).unwrap_or(1))
    }

    /// The table shape for `players` seats.
    #[must_use]
    pub fn table(&self, players: usize) -> Table {
        let deck = deck(players, self.no_joker);
        let hand_size = if players == 6 { 10 } else { 11 };
        let dealt = if players == 5 {
            54
        } else {
            hand_size * players
        };
        let left = deck.len().saturating_sub(dealt);
        let indicator = if self.uses_cycle() {
            IndicatorKind::None
        } else if left > 0 {
            IndicatorKind::TopLeft
        } else {
            IndicatorKind::Cut
        };
        Table {
            players,
            tricks: if players == 6 { 10 } else { 11 },
            hand_size,
            left,
            indicator,
            deck,
        }
    }

    /// Checks the options for `players` seats, explicit deals included.
    ///
    /// # Errors
    /// Why the options cannot be played.
    pub fn validate(&self, players: usize) -> Result<(), OptionsError> {
        if !(2..=6).contains(&players) {
            return Err(OptionsError::new("Hat Trick is for 2 to 6 players"));
        }
        let rounds = self.round_count(players);
        if !(1..=60).contains(&rounds) {
            return Err(OptionsError::new("rounds must be between 1 and 60"));
        }
        if let Some(t) = self.joker_by_trick
            && t != 3
            && t != 5
        {
            return Err(OptionsError::new("joker_by_trick must be 3, 5 or null"));
        }
        if self.no_joker && players != 4 && players != 6 {
            return Err(OptionsError::new("no_joker is only for 4 or 6 players"));
        }
        if self.mode == Mode::JackNegative && self.trump_mode != TrumpMode::Cut {
            return Err(OptionsError::new("jack_negative needs trump_mode cut"));
        }
        if self.deals.len() > usize::from(rounds) {
            return Err(OptionsError::new("more explicit deals than rounds"));
        }
        let table = self.table(players);
        for (r, deal) in self.deals.iter().enumerate() {
            validate_deal(&table, r % players, deal)
                .map_err(|e| OptionsError::new(format!("deals[{r}]: {e}")))?;
        }
        Ok(())
    }
}

fn validate_deal(table: &Table, dealer: usize, deal: &Deal) -> Result<(), String> {
    if deal.hands.len() != table.players {
        return Err(format!("{} hands expected", table.players));
    }
    let mut seen = Hand::default();
    let all = deal.hands.iter().flatten().chain(&deal.left);
    for &card in all {
        if !table.deck.contains(card) {
            return Err(format!("{card} is not in the deck"));
        }
        if seen.contains(card) {
            return Err(format!("{card} is dealt twice"));
        }
        seen.0 |= card.bit();
    }
    for (seat, hand) in deal.hands.iter().enumerate() {
        let size = if table.players == 5 && seat == dealer {
            table.hand_size - 1
        } else {
            table.hand_size
        };
        if hand.len() != size {
            return Err(format!("seat {seat} must get {size} cards"));
        }
    }
    if deal.left.len() != table.left {
        return Err(format!("{} cards must be left over", table.left));
    }
    if seen != table.deck {
        return Err("the deal does not hold the whole deck".into());
    }
    match (table.indicator, deal.indicator) {
        (IndicatorKind::None, None) => Ok(()),
        (IndicatorKind::None, Some(_)) => Err("trump goes by the cycle: no indicator".into()),
        (_, None) => Err("the trump indicator is missing".into()),
        (IndicatorKind::TopLeft, Some(c)) if deal.left.first() == Some(&c) => Ok(()),
        (IndicatorKind::TopLeft, Some(_)) => {
            Err("the indicator must be the top left-over card".into())
        }
        (IndicatorKind::Cut, Some(c)) if deal.hands[dealer].contains(&c) => Ok(()),
        (IndicatorKind::Cut, Some(_)) => {
            Err("the indicator (cut card) must be in the dealer's hand".into())
        }
    }
}

/// The JSON schema of the options.
#[must_use]
pub fn schema() -> serde_json::Value {
    let codes =
        serde_json::json!({"type": "string", "pattern": "^(JK[12]?|(10|11|12|[2-9JQKA])[HDCS])$"});
    serde_json::json!({
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "rounds": {"type": ["integer", "null"], "minimum": 1, "maximum": 60,
                "description": "Number of deals; default one per player."},
            "trump_mode": {"type": "string", "enum": ["cut", "cycle"], "default": "cut",
                "description": "Trump by the indicator card, or by the cycle ♥ ♦ ♣ ♠ NT."},
            "mode": {"type": "string",
                "enum": ["standard", "negative", "cycle_with_negative", "jack_negative"],
                "default": "standard"},
            "play_rule": {"type": "string",
                "enum": ["standard", "colour_first", "colour_or_trump"], "default": "standard"},
            "joker_by_trick": {"type": ["integer", "null"], "enum": [3, 5, null], "default": null,
                "description": "The joker must be played by this trick."},
            "no_joker": {"type": "boolean", "default": false,
                "description": "Remove the joker (4 and 6 players)."},
            "deals": {"type": "array", "default": [],
                "description": "Explicit deals; deals[r] is used for deal r.",
                "items": {"type": "object", "additionalProperties": false, "required": ["hands"],
                    "properties": {
                        "hands": {"type": "array", "items": {"type": "array", "items": codes}},
                        "left": {"type": "array", "items": codes},
                        "indicator": codes
                    }}}
        }
    })
}
