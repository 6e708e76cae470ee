//! What a seat can send.

use serde::{Deserialize, Serialize};

use super::cards::Card;

/// A command: `{"type": "play", "card": "AS", "predict": false}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum HatTrickCommand {
    /// Play `card` to the current trick; `predict: true` (tricks 2–5 and 7 to
    /// the one before last, first claim of the window only) claims the 6th or
    /// the last trick.
    Play {
        /// The card to play.
        card: Card,
        /// Whether to predict winning the 6th (tricks 2–5) or last trick.
        #[serde(default)]
        predict: bool,
    },
}
