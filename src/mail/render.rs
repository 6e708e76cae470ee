//! A game drawn in plain text for mail, from the view its reader's seat is
//! given by the API (`GET /v1/games/{id}` as that seat): a mail can show
//! nothing the seat may not see, because it only ever reads that view.
//!
//! Each ruleset shows what a player decides by: their hand, the table, the
//! scores (by player name); Top Hats draws its 7×7 board, one cell as the
//! top hat's colour letter (upper case: a stack someone owns) and the
//! stack's height.

use std::fmt::Write as _;

use serde_json::Value;

use crate::games::projection::Game;

use super::moves::written;

/// The names of the seats, in seat order.
fn names(game: &Game) -> Vec<String> {
    let mut names = vec![String::from("?"); usize::from(game.players)];
    for seat in &game.seats {
        if let Some(name) = names.get_mut(usize::from(seat.seat)) {
            name.clone_from(&seat.username);
        }
    }
    names
}

/// A value in few characters: strings as they are, lists joined, objects as
/// `key value` pairs, null as `-`.
fn compact(value: &Value) -> String {
    match value {
        Value::Null => "-".into(),
        Value::String(s) => s.clone(),
        Value::Array(items) if items.is_empty() => "(none)".into(),
        Value::Array(items) => items.iter().map(compact).collect::<Vec<_>>().join(" "),
        Value::Object(map) => map
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| format!("{k} {}", compact(v)))
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    }
}

/// A per-seat list (`[3, 0]`) as `alice 3, bob 0`.
fn per_seat(value: &Value, names: &[String]) -> String {
    match value.as_array() {
        Some(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                format!(
                    "{} {}",
                    names.get(i).map_or("?", String::as_str),
                    compact(v)
                )
            })
            .collect::<Vec<_>>()
            .join(", "),
        None => compact(value),
    }
}

fn row(out: &mut String, label: &str, text: &str) {
    let _ = writeln!(out, "{label:<14}{text}");
}

/// The table of `game` as its viewer sees it, in plain text.
#[must_use]
pub fn table(game: &Game) -> String {
    let view: Value = serde_json::from_str(game.view.get()).unwrap_or(Value::Null);
    let names = names(game);
    let mut out = String::new();
    if view.is_null() {
        out.push_str("The game has not started.\n");
        return out;
    }
    let field = |name: &str| view.get(name).unwrap_or(&Value::Null);
    match game.ruleset.as_str() {
        "hats" => {
            row(&mut out, "Step:", &compact(field("step")));
            row(&mut out, "Your hand:", &compact(field("hand")));
            row(&mut out, "The line:", &compact(field("line")));
            if let Some(seats) = field("seats").as_array() {
                for (i, seat) in seats.iter().enumerate() {
                    let name = names.get(i).map_or("?", String::as_str);
                    let _ = writeln!(
                        out,
                        "{name:<14}collection {}; hand {} cards; black hats {}",
                        compact(&seat["collection"]),
                        compact(&seat["hand_size"]),
                        compact(&seat["black_hats"])
                    );
                }
            }
            row(
                &mut out,
                "Deck:",
                &format!("{} cards", compact(field("deck"))),
            );
            if !field("offered").is_null() {
                row(&mut out, "Offered:", &compact(field("offered")));
            }
        }
        "goathead" => {
            row(
                &mut out,
                "Round:",
                &format!(
                    "{} of {}",
                    field("round").as_i64().unwrap_or(0) + 1,
                    compact(field("rounds"))
                ),
            );
            row(&mut out, "Phase:", &compact(field("phase")));
            row(&mut out, "Contract:", &compact(field("contract")));
            if let Some(declarer) = field("declarer").as_u64() {
                row(
                    &mut out,
                    "Declarer:",
                    names.get(declarer as usize).map_or("?", String::as_str),
                );
            }
            row(&mut out, "Your hand:", &compact(field("hand")));
            row(&mut out, "Trick:", &compact(field("trick")));
            row(
                &mut out,
                "Tricks won:",
                &per_seat(field("tricks_won"), &names),
            );
            row(
                &mut out,
                "Game points:",
                &per_seat(field("game_points"), &names),
            );
        }
        "hat-trick" => {
            row(
                &mut out,
                "Deal:",
                &format!(
                    "{} of {}",
                    field("round").as_i64().unwrap_or(0) + 1,
                    compact(field("rounds"))
                ),
            );
            row(&mut out, "Trump:", &compact(field("trump")));
            row(&mut out, "Indicator:", &compact(field("indicator")));
            if let (Some(hands), Some(seat)) = (field("hands").as_array(), game.my_seat) {
                row(
                    &mut out,
                    "Your hand:",
                    &compact(hands.get(usize::from(seat)).unwrap_or(&Value::Null)),
                );
            }
            row(&mut out, "Trick:", &compact(field("trick")));
            row(
                &mut out,
                "Predictions:",
                &per_seat(field("predictions"), &names),
            );
            row(
                &mut out,
                "Tricks won:",
                &per_seat(field("tricks_won"), &names),
            );
            row(&mut out, "Scores:", &per_seat(field("scores"), &names));
        }
        "top-hats" => {
            row(&mut out, "Phase:", &compact(field("phase")));
            row(&mut out, "Colours:", &per_seat(field("colours"), &names));
            out.push('\n');
            out.push_str(&board(field("board")));
            out.push('\n');
            if let Some(private) = field("private").as_array() {
                for mine in private {
                    row(&mut out, "Your pool:", &compact(&mine["pool"]));
                    if let Some(stacks) = mine["stacks"].as_array() {
                        for stack in stacks {
                            let _ = writeln!(
                                out,
                                "  stack {}: {}{}",
                                compact(&stack["stack"]),
                                compact(&stack["hats"]),
                                if stack["placed"] == Value::Bool(true) {
                                    " (placed)"
                                } else {
                                    ""
                                }
                            );
                        }
                    }
                }
            }
            row(&mut out, "Removed:", &compact(field("removed")));
            if !field("last_move").is_null() {
                row(&mut out, "Last move:", &compact(field("last_move")));
            }
        }
        _ => row(&mut out, "View:", &view.to_string()),
    }
    out
}

/// The Top Hats board, row 7 at the top, `a`–`g` left to right; a cell is
/// `.` when empty, else its top hat's colour letter (upper case when a
/// player owns the stack) and the stack's height.
fn board(cells: &Value) -> String {
    let mut grid = vec![vec![String::from(" . "); 7]; 7];
    for cell in cells.as_array().into_iter().flatten() {
        let name = cell["cell"].as_str().unwrap_or_default().as_bytes();
        let (Some(&file), Some(&rank)) = (name.first(), name.get(1)) else {
            continue;
        };
        let (col, row) = (
            usize::from(file.wrapping_sub(b'a')),
            usize::from(rank.wrapping_sub(b'1')),
        );
        if col >= 7 || row >= 7 {
            continue;
        }
        let top = cell["top"].as_str().unwrap_or("?");
        let mut letter = top.chars().next().unwrap_or('?');
        letter = if cell["owner"].is_null() {
            letter.to_ascii_lowercase()
        } else {
            letter.to_ascii_uppercase()
        };
        grid[row][col] = format!("{:<3}", format!(" {letter}{}", compact(&cell["height"])));
    }
    let mut out = String::from("    a  b  c  d  e  f  g\n");
    for rank in (0..7).rev() {
        let _ = writeln!(out, "{}  {}", rank + 1, grid[rank].concat().trim_end());
    }
    out
}

/// The legal moves with their reply codes, one a line.
#[must_use]
pub fn moves(legal: &[Value]) -> String {
    let mut out = String::new();
    for (i, command) in legal.iter().enumerate() {
        let _ = writeln!(out, "{:>4}  {}", i + 1, written(command));
    }
    out
}

/// `text` safe inside HTML.
#[must_use]
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_top_hats_board_shows_tops_owners_and_heights() {
        let cells = json!([
            {"cell": "d4", "top": "neutral", "height": 1, "owner": null},
            {"cell": "a1", "top": "red", "height": 3, "owner": 0},
            {"cell": "g7", "top": "blue", "height": 2, "owner": null},
        ]);
        let drawn = board(&cells);
        let lines: Vec<&str> = drawn.lines().collect();
        assert_eq!(lines[0], "    a  b  c  d  e  f  g");
        assert_eq!(lines[1], "7   .  .  .  .  .  .  b2");
        assert_eq!(lines[4], "4   .  .  .  n1 .  .  .");
        assert_eq!(lines[7], "1   R3 .  .  .  .  .  .");
    }

    #[test]
    fn moves_are_listed_with_codes_from_one() {
        let listed = moves(&[
            json!({"type": "pass"}),
            json!({"type": "play", "card": "H5"}),
        ]);
        assert_eq!(listed, "   1  pass\n   2  play H5\n");
    }

    #[test]
    fn html_is_escaped() {
        assert_eq!(
            escape("<a href=\"x\">&"),
            "&lt;a href=&quot;x&quot;&gt;&amp;"
        );
    }
}
