//! Conditional lines (docs/turn-conveniences.md), pure: "if the next
//! commands are these, play this". A line is a list of steps, each a seat
//! and a command; the steps of other seats are the condition, the owner's
//! are what the server plays for the owner when the game comes to them.
//!
//! Rules:
//! - Every command applied to the game advances every stored line: a line
//!   whose next step is that command of that seat loses the step, any other
//!   line is dropped (the game has left it). A line with no step left is done.
//! - When the game waits for the owner and a line's next step is the
//!   owner's, that command is played for the owner (if it is legal then;
//!   otherwise the lines that wanted it are dropped).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

/// One step of a line: a command of a seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LineStep {
    /// The seat whose command it is (0-based; a seat the table does not
    /// have never matches: `conditional_never_matches`).
    #[schema(minimum = 0, maximum = 255)]
    pub seat: u8,
    /// The command, as the ruleset's commands are sent.
    #[schema(value_type = super::wire_types::AnyCommand)]
    pub command: Value,
}

/// A line: steps in the order they are to be played.
pub type Line = Vec<LineStep>;

/// Advances `lines` past `command` of `seat` (see the module's rules);
/// returns the lines the game left, as they were.
pub fn advance(lines: &mut Vec<Line>, seat: u8, command: &Value) -> Vec<Line> {
    let (kept, left): (Vec<Line>, Vec<Line>) =
        std::mem::take(lines).into_iter().partition(|line| {
            line.first()
                .is_some_and(|next| next.seat == seat && next.command == *command)
        });
    *lines = kept
        .into_iter()
        .filter_map(|mut line| {
            line.remove(0);
            (!line.is_empty()).then_some(line)
        })
        .collect();
    left
}

/// The owner's command that is due now: the next step of the first line
/// whose next step is `owner`'s.
#[must_use]
pub fn due(lines: &[Line], owner: u8) -> Option<&Value> {
    lines
        .iter()
        .filter_map(|line| line.first())
        .find(|next| next.seat == owner)
        .map(|next| &next.command)
}

/// Drops the lines whose next step is `command` of `owner` (it could not
/// be played); returns them.
pub fn drop_due(lines: &mut Vec<Line>, owner: u8, command: &Value) -> Vec<Line> {
    let (kept, dropped) = std::mem::take(lines).into_iter().partition(|line| {
        line.first()
            .is_none_or(|next| next.seat != owner || next.command != *command)
    });
    *lines = kept;
    dropped
}

/// Why lines are refused as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// A line that plays nothing for its owner, or ends with another
    /// seat's step (which would play nothing after it).
    PlaysNothing(usize),
    /// Two lines that answer the same commands differently.
    Ambiguous(usize, usize),
}

/// Checks the shape of `owner`'s lines: each has a step of the owner's and
/// ends with one; no two answer the same commands differently.
///
/// # Errors
/// The first [`Shape`] problem found (lines numbered from 0).
pub fn check_shape(lines: &[Line], owner: u8) -> Result<(), Shape> {
    for (i, line) in lines.iter().enumerate() {
        if line.last().is_none_or(|last| last.seat != owner) {
            return Err(Shape::PlaysNothing(i));
        }
    }
    for (i, a) in lines.iter().enumerate() {
        for (j, b) in lines.iter().enumerate().skip(i + 1) {
            let differ = a.iter().zip(b).find(|(x, y)| x != y);
            if let Some((x, y)) = differ
                && x.seat == owner
                && y.seat == owner
            {
                return Err(Shape::Ambiguous(i, j));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn step(seat: u8, n: u64) -> LineStep {
        LineStep {
            seat,
            command: json!({"type": "move", "n": n}),
        }
    }

    #[test]
    fn given_lines_when_a_command_comes_then_matching_lines_advance_and_others_drop() {
        let mut lines = vec![
            vec![step(1, 1), step(0, 2), step(1, 3), step(0, 4)],
            vec![step(1, 5), step(0, 6)],
        ];
        let left = advance(&mut lines, 1, &json!({"type": "move", "n": 1}));
        assert_eq!(lines, vec![vec![step(0, 2), step(1, 3), step(0, 4)]]);
        assert_eq!(left, vec![vec![step(1, 5), step(0, 6)]]);
        assert_eq!(due(&lines, 0), Some(&json!({"type": "move", "n": 2})));
        assert_eq!(due(&lines, 1), None);
        advance(&mut lines, 0, &json!({"type": "move", "n": 2}));
        advance(&mut lines, 1, &json!({"type": "move", "n": 9}));
        assert!(lines.is_empty(), "the game left the line");
    }

    #[test]
    fn given_a_last_step_played_when_advanced_then_the_line_is_done() {
        let mut lines = vec![vec![step(1, 1), step(0, 2)]];
        advance(&mut lines, 1, &json!({"type": "move", "n": 1}));
        advance(&mut lines, 0, &json!({"type": "move", "n": 2}));
        assert!(lines.is_empty());
    }

    #[test]
    fn given_a_due_command_that_cannot_be_played_when_dropped_then_other_lines_stay() {
        let mut lines = vec![vec![step(0, 2)], vec![step(1, 3), step(0, 4)]];
        let dropped = drop_due(&mut lines, 0, &json!({"type": "move", "n": 2}));
        assert_eq!(lines, vec![vec![step(1, 3), step(0, 4)]]);
        assert_eq!(dropped, vec![vec![step(0, 2)]]);
    }

    #[test]
    fn given_lines_that_play_nothing_or_disagree_when_checked_then_they_are_refused() {
        assert_eq!(
            check_shape(&[vec![step(1, 1)]], 0),
            Err(Shape::PlaysNothing(0))
        );
        assert_eq!(
            check_shape(&[vec![step(1, 1), step(0, 2), step(1, 3)]], 0),
            Err(Shape::PlaysNothing(0))
        );
        assert_eq!(check_shape(&[vec![]], 0), Err(Shape::PlaysNothing(0)));
        assert_eq!(
            check_shape(
                &[vec![step(1, 1), step(0, 2)], vec![step(1, 1), step(0, 3)]],
                0
            ),
            Err(Shape::Ambiguous(0, 1))
        );
        // The same answer, then different continuations: fine.
        assert_eq!(
            check_shape(
                &[
                    vec![step(1, 1), step(0, 2), step(1, 3), step(0, 4)],
                    vec![step(1, 1), step(0, 2), step(1, 5), step(0, 6)]
                ],
                0
            ),
            Ok(())
        );
    }
}
