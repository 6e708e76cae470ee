//! What a seat may send.

use serde::{Deserialize, Serialize};

use super::cards::{Card, Contract};

/// One action of one seat, as `{"type": ..., ...}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum GoatheadCommand {
    /// Bid a contract strictly higher than the highest bid so far.
    Bid { contract: Contract },
    /// Take over the leader's contract (only with strictly fewer game points).
    Steal {},
    /// Leave the bidding for the rest of the round.
    Pass {},
    /// 3 players: the declarer adds the kitty to their hand.
    TakeKitty {},
    /// 3 players: the declarer leaves the kitty alone.
    LeaveKitty {},
    /// 3 players: the declarer puts a card back into the kitty (twice).
    Bury { card: Card },
    /// The declarer plays the contract as it stands.
    KeepContract {},
    /// The declarer raises the contract to a strictly higher one.
    Upgrade { contract: Contract },
    /// 4 players: swap a card of the hand with a card of the kitty.
    KittySwap { hand_card: Card, kitty_card: Card },
    /// 4 players: pass the kitty on without swapping.
    KittySkip {},
    /// Play a card to the trick.
    Play { card: Card },
}
