//! What a seat can send.

use serde::{Deserialize, Serialize};

use super::board::{Cell, Colour};

/// One action of one seat.
///
/// Parsed through [`RawCommand`] (one flat struct, then checked per type):
/// the same JSON as an internally tagged enum with unknown fields denied,
/// without buffering the object first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsCommand))]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    deny_unknown_fields,
    try_from = "RawCommand"
)]
pub enum Command {
    /// Build the next stack: two hats from the pool (bottom, middle) under a
    /// hat of the builder's own colour.
    BuildStack { under: [Colour; 2] },
    /// Put stack number `stack` (in build order, 0–4) on an empty X cell.
    Place { stack: u8, cell: Cell },
    /// Move a stack to an adjacent empty cell outside the edge zone; ends the turn.
    Move { from: Cell, to: Cell },
    /// Jump a stack over the adjacent stack to the empty cell just beyond.
    Jump { from: Cell, to: Cell },
    /// Stop a chain of jumps while another jump is still possible.
    EndTurn {},
}

/// The command types.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommandType {
    BuildStack,
    Place,
    Move,
    Jump,
    EndTurn,
}

/// A command as sent: the type and whichever fields came with it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCommand {
    #[serde(rename = "type")]
    kind: CommandType,
    under: Option<[Colour; 2]>,
    stack: Option<u8>,
    cell: Option<Cell>,
    from: Option<Cell>,
    to: Option<Cell>,
}

impl TryFrom<RawCommand> for Command {
    type Error = String;

    fn try_from(raw: RawCommand) -> Result<Command, String> {
        let RawCommand {
            kind,
            under,
            stack,
            cell,
            from,
            to,
        } = raw;
        let given = [
            ("under", under.is_some()),
            ("stack", stack.is_some()),
            ("cell", cell.is_some()),
            ("from", from.is_some()),
            ("to", to.is_some()),
        ];
        let (command, fields): (Option<Command>, &[&str]) = match kind {
            CommandType::BuildStack => {
                (under.map(|under| Command::BuildStack { under }), &["under"])
            }
            CommandType::Place => (
                stack
                    .zip(cell)
                    .map(|(stack, cell)| Command::Place { stack, cell }),
                &["stack", "cell"],
            ),
            CommandType::Move => (
                from.zip(to).map(|(from, to)| Command::Move { from, to }),
                &["from", "to"],
            ),
            CommandType::Jump => (
                from.zip(to).map(|(from, to)| Command::Jump { from, to }),
                &["from", "to"],
            ),
            CommandType::EndTurn => (Some(Command::EndTurn {}), &[]),
        };
        if let Some((extra, _)) = given
            .iter()
            .find(|(name, present)| *present && !fields.contains(name))
        {
            return Err(format!("unknown field `{extra}` for this command type"));
        }
        command.ok_or_else(|| format!("this command type needs the fields {}", fields.join(", ")))
    }
}
