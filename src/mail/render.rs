//! A game drawn for mail, from the view its reader's seat is given by the
//! API (`GET /v1/games/{id}` as that seat): a mail can show nothing the
//! seat may not see, because it only ever reads that view.
//!
//! Rules:
//! - The table is **facts in prose**, one labelled fact a line ("Your pool:
//!   9 red, 6 blue"), players by name; what a move code refers to is
//!   numbered (the Hats line's positions, Top Hats stacks and their hats
//!   bottom to top).
//! - The facts are what a move is decided by. Other seats' progress in a
//!   phase everyone plays at once (Top Hats building) is not among them: it
//!   is news, told by the narration, so another seat's build never makes a
//!   turn mail's facts change ([`fingerprint`]).
//! - The legal moves are listed with their reply codes, grouped (by card,
//!   by stack, by kind) when a kind of move has many; a legend explains the
//!   move words that occur.
//! - Text lines are at most [`WIDTH`] characters (a link may stand alone on
//!   a longer line); the HTML part draws the same facts, the Top Hats board
//!   as a table and cards as coloured labels (no remote images).

use std::fmt::Write as _;

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::moves::fields_in_order;
use crate::games::narration::cards::{card, grouped, grouped_codes};
use crate::games::narration::{Table, and_list};
use crate::games::projection::Game;

/// The longest line of a mail's text part.
pub const WIDTH: usize = 78;

/// One fact of the table.
#[derive(Debug, Clone, PartialEq)]
pub enum Fact {
    /// A labelled line of prose.
    Line(String, String),
    /// A labelled list of cards (drawn in HTML).
    Cards(String, Vec<String>),
    /// The Top Hats board's cells, as the view lists them.
    Board(Value),
}

/// The names at the table, the reader as "you".
#[must_use]
pub fn table_of(game: &Game) -> Table {
    let mut names = vec![String::from("a player"); usize::from(game.players)];
    for seat in &game.seats {
        if let Some(name) = names.get_mut(usize::from(seat.seat)) {
            name.clone_from(&seat.username);
        }
    }
    Table {
        names,
        me: game.my_seat,
    }
}

fn view_of(game: &Game) -> Value {
    serde_json::from_str(game.view.get()).unwrap_or(Value::Null)
}

fn count(n: &Value, one: &str, many: &str) -> String {
    match n.as_u64() {
        Some(0) | None => format!("no {many}"),
        Some(1) => format!("1 {one}"),
        Some(k) => format!("{k} {many}"),
    }
}

fn codes(value: &Value) -> Vec<String> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

/// The facts of `game` as its viewer sees them.
#[must_use]
pub fn facts(game: &Game) -> Vec<Fact> {
    let view = view_of(game);
    if view.is_null() {
        return vec![Fact::Line("Game".into(), "not started yet".into())];
    }
    let table = table_of(game);
    let line = |label: &str, text: String| Fact::Line(label.to_owned(), text);
    let mut out = Vec::new();
    let r = game.ruleset.as_str();
    match r {
        "hats" => {
            out.push(line(
                "The line",
                format!(
                    "{} (position 1 is next to the Ø card)",
                    crate::games::narration::hats_line(&view["line"])
                ),
            ));
            if view["hand"].is_array() {
                out.push(Fact::Cards("Your hand".into(), codes(&view["hand"])));
            }
            if view["black_hat_cards"]
                .as_array()
                .is_some_and(|b| !b.is_empty())
            {
                out.push(line(
                    "Your black hats",
                    grouped(r, &view["black_hat_cards"]),
                ));
            }
            if let Some(offered) = view["offered"].as_str() {
                out.push(line("Offered", format!("you offered {}", card(r, offered))));
            }
            for (i, seat) in view["seats"].as_array().into_iter().flatten().enumerate() {
                let name = table.name(u8::try_from(i).unwrap_or(u8::MAX));
                let collection = codes(&seat["collection"]);
                let shown = if collection.is_empty() {
                    "nothing collected".to_owned()
                } else {
                    format!("collected {}", collection.join(" "))
                };
                out.push(line(
                    &if name == "you" {
                        "You".to_owned()
                    } else {
                        name
                    },
                    format!(
                        "{shown}; {} in hand; {}",
                        count(&seat["hand_size"], "card", "cards"),
                        count(&seat["black_hats"], "black hat", "black hats")
                    ),
                ));
            }
            out.push(line(
                "Deck",
                format!(
                    "{}; {} on the discard pile",
                    count(&view["deck"], "card", "cards"),
                    count(&view["discard"], "card", "cards")
                ),
            ));
            if !view["cookie"].is_null() {
                out.push(line(
                    "Cookie",
                    format!("{} would get it now", table.who(&view["cookie"])),
                ));
            }
        }
        "goathead" => {
            out.push(line(
                "Round",
                format!(
                    "{} of {}; {} dealt",
                    view["round"].as_u64().unwrap_or(0) + 1,
                    view["rounds"],
                    table.who(&view["dealer"])
                ),
            ));
            let phase = match view["phase"].as_str() {
                Some("bidding") => "bidding",
                Some("kitty_choice") => "the declarer takes or leaves the kitty",
                Some("bury") => "the declarer buries cards",
                Some("contract_choice") => "the declarer keeps or raises the contract",
                Some("swap") => "swapping with the kitty",
                Some("play") => "playing tricks",
                Some("round_over") => "the round is over",
                _ => "the match is over",
            };
            out.push(line("Phase", phase.to_owned()));
            if !view["contract"].is_null() {
                let by = if view["declarer"].is_null() {
                    String::new()
                } else {
                    format!(", declared by {}", table.who(&view["declarer"]))
                };
                out.push(line(
                    "Contract",
                    format!(
                        "{}{by}",
                        crate::games::narration::goathead_contract(&view["contract"])
                    ),
                ));
            } else if !view["highest_bid"].is_null() {
                out.push(line(
                    "Highest bid",
                    format!(
                        "{} by {}",
                        crate::games::narration::goathead_contract(&view["highest_bid"]),
                        table.who(&view["bid_leader"])
                    ),
                ));
            }
            if view["hand"].is_array() {
                out.push(Fact::Cards("Your hand".into(), codes(&view["hand"])));
            }
            if view["kitty"].is_array() {
                out.push(Fact::Cards("The kitty".into(), codes(&view["kitty"])));
            } else if view["kitty_size"].as_u64().is_some_and(|n| n > 0) {
                out.push(line(
                    "The kitty",
                    format!("{} face down", count(&view["kitty_size"], "card", "cards")),
                ));
            }
            if view["phase"] == "play" {
                out.push(line("Trick", trick(r, &table, &view["trick"])));
                out.push(line(
                    "Tricks won",
                    table.per_seat(&view["tricks_won"], false),
                ));
                out.push(line(
                    "Card points",
                    table.per_seat(&view["trick_points"], false),
                ));
            }
            out.push(line(
                "Game points",
                table.per_seat(&view["game_points"], false),
            ));
        }
        "hat-trick" => {
            out.push(line(
                "Deal",
                format!(
                    "{} of {}; {} dealt; trick {}",
                    view["round"].as_u64().unwrap_or(0) + 1,
                    view["rounds"],
                    table.who(&view["dealer"]),
                    view["trick_number"]
                ),
            ));
            let shown_by = view["indicator"]
                .as_str()
                .map_or_else(String::new, |c| format!(" (shown by {})", card(r, c)));
            let negative = if view["negative"] == Value::Bool(true) {
                "; a negative deal: fewest points is best"
            } else {
                ""
            };
            out.push(line(
                "Trump",
                format!(
                    "{}{shown_by}{negative}",
                    crate::games::narration::hat_trick_trump(&view["trump"])
                ),
            ));
            if let Some(mine) = game
                .my_seat
                .and_then(|s| view["hands"].get(usize::from(s)))
                .filter(|h| h.is_array())
            {
                out.push(Fact::Cards("Your hand".into(), codes(mine)));
            }
            out.push(line("Trick", trick(r, &table, &view["trick"])));
            out.push(line(
                "Tricks won",
                table.per_seat(&view["tricks_won"], false),
            ));
            let scoring: Vec<String> = ["trick 1", "trick 6", "the last"]
                .iter()
                .zip(view["scoring_tricks"].as_array().into_iter().flatten())
                .map(|(label, seat)| {
                    if seat.is_null() {
                        format!("{label} not yet played")
                    } else {
                        format!("{label} to {}", table.who(seat))
                    }
                })
                .collect();
            if !scoring.is_empty() {
                out.push(line("Scoring tricks", scoring.join("; ")));
            }
            let predictions: Vec<String> = view["predictions"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|p| !p.is_null())
                .map(|p| {
                    format!(
                        "{} claimed trick {} (on trick {})",
                        table.who(&p["seat"]),
                        p["claims"],
                        p["made_on"]
                    )
                })
                .collect();
            if !predictions.is_empty() {
                out.push(line("Predictions", predictions.join("; ")));
            }
            out.push(line("Scores", table.per_seat(&view["scores"], false)));
        }
        "top-hats" => top_hats(&mut out, &table, &view),
        _ => out.push(line("View", view.to_string())),
    }
    out
}

/// The cards of a trick so far.
fn trick(ruleset: &str, table: &Table, plays: &Value) -> String {
    let plays: Vec<String> = plays
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            format!(
                "{} played {}",
                table.who(&p["seat"]),
                p["card"]
                    .as_str()
                    .map_or_else(|| "a card".to_owned(), |c| card(ruleset, c))
            )
        })
        .collect();
    if plays.is_empty() {
        "no card played yet".to_owned()
    } else {
        plays.join(", ")
    }
}

fn top_hats(out: &mut Vec<Fact>, table: &Table, view: &Value) {
    let line = |label: &str, text: String| Fact::Line(label.to_owned(), text);
    let phase = match view["phase"].as_str() {
        Some("building") => "building: everyone builds five stacks of three at once",
        Some("placing") => "placing: one stack a turn on an empty cell of rings 1-2",
        Some("playing") => "playing: move or jump your stacks",
        _ => "the game is over",
    };
    out.push(line("Phase", phase.to_owned()));
    let colours: Vec<String> = view["colours"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, c)| {
            format!(
                "{} {}",
                table.name(u8::try_from(i).unwrap_or(u8::MAX)),
                c.as_str().unwrap_or("?")
            )
        })
        .collect();
    out.push(line("Colours", colours.join(", ")));
    if view["phase"] != "building" && view["board"].as_array().is_some_and(|b| !b.is_empty()) {
        out.push(Fact::Board(view["board"].clone()));
    }
    for mine in view["private"].as_array().into_iter().flatten() {
        let pool: Vec<String> = mine["pool"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| format!("{} {}", c["count"], c["colour"].as_str().unwrap_or("?")))
            .collect();
        let left: u64 = mine["pool"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c["count"].as_u64())
            .sum();
        out.push(line(
            "Your pool",
            if left == 0 {
                "empty: all your hats are in stacks".to_owned()
            } else {
                pool.join(", ")
            },
        ));
        for stack in mine["stacks"].as_array().into_iter().flatten() {
            let hats = codes(&stack["hats"]);
            let placed = if stack["placed"] == Value::Bool(true) {
                ", placed"
            } else {
                ""
            };
            out.push(line(
                &format!("Stack {}", stack["stack"]),
                format!("{} (bottom to top{placed})", hats.join(", ")),
            ));
        }
    }
    if let Some(chain) = view["chain"].as_object() {
        out.push(line(
            "Jumping",
            format!(
                "the stack on {} (cells jumped this turn: {})",
                chain["cell"].as_str().unwrap_or("?"),
                codes(&chain["jumped"]).join(" ")
            ),
        ));
    }
    if view["phase"] != "building" {
        let removed: Vec<String> = view["removed"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| format!("{} {}", c["count"], c["colour"].as_str().unwrap_or("?")))
            .collect();
        out.push(line("Hats taken off", removed.join(", ")));
    }
    if view["phase"] == "playing" {
        out.push(line(
            "Quiet turns",
            format!(
                "{} of {} (a turn with no hat taken off; at the limit, a draw)",
                view["quiet_turns"], view["quiet_turn_limit"]
            ),
        ));
    }
}

/// The Top Hats board, row 7 at the top, `a`–`g` left to right; a cell is
/// `.` when empty, else its top hat's colour letter (upper case when a
/// player owns the stack) and the stack's height.
#[must_use]
pub fn board(cells: &Value) -> String {
    let grid = board_grid(cells);
    let mut out = String::from("    a  b  c  d  e  f  g\n");
    for rank in (0..7).rev() {
        let row: String = grid[rank]
            .iter()
            .map(|c| {
                c.as_ref()
                    .map_or_else(|| " . ".to_owned(), |(l, h, _)| format!(" {l}{h}"))
            })
            .collect();
        let _ = writeln!(out, "{}  {}", rank + 1, row.trim_end());
    }
    out.push_str("R red, B blue, Y yellow, n the neutral hat; the number is the\n");
    out.push_str("stack's height. Cells are named like d4 (column, row).\n");
    out
}

/// The cells of the board: `(letter, height, colour)`, `[row][column]`.
type Grid = Vec<Vec<Option<(char, String, String)>>>;

fn board_grid(cells: &Value) -> Grid {
    let mut grid: Grid = vec![vec![None; 7]; 7];
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
        grid[row][col] = Some((letter, cell["height"].to_string(), top.to_owned()));
    }
    grid
}

/// `text` wrapped to [`WIDTH`]: the first line after `first`, the others
/// after `rest` (a hanging indent). A word longer than a line stands alone.
#[must_use]
pub fn wrap(text: &str, first: &str, rest: &str) -> String {
    let mut out = String::new();
    let mut current = first.to_owned();
    let mut empty = true;
    for word in text.split_whitespace() {
        let room = current.chars().count() + usize::from(!empty) + word.chars().count();
        if !empty && room > WIDTH {
            out.push_str(current.trim_end());
            out.push('\n');
            current = rest.to_owned();
            empty = true;
        }
        if !empty {
            current.push(' ');
        }
        current.push_str(word);
        empty = false;
    }
    out.push_str(current.trim_end());
    out.push('\n');
    out
}

/// The facts as text lines: `Label:` then the fact, wrapped under itself.
#[must_use]
pub fn facts_text(ruleset: &str, facts: &[Fact]) -> String {
    let width = facts
        .iter()
        .filter_map(|f| match f {
            Fact::Line(label, _) | Fact::Cards(label, _) => Some(label.chars().count() + 2),
            Fact::Board(_) => None,
        })
        .max()
        .unwrap_or(0)
        .min(18);
    let mut out = String::new();
    for fact in facts {
        match fact {
            Fact::Line(label, text) => {
                let first = format!("{:<width$}", format!("{label}:"));
                out.push_str(&wrap(text, &first, &" ".repeat(width)));
            }
            Fact::Cards(label, cards) => {
                let refs: Vec<&str> = cards.iter().map(String::as_str).collect();
                let first = format!("{:<width$}", format!("{label}:"));
                out.push_str(&wrap(
                    &grouped_codes(ruleset, &refs),
                    &first,
                    &" ".repeat(width),
                ));
            }
            Fact::Board(cells) => {
                out.push('\n');
                out.push_str(&board(cells));
                out.push('\n');
            }
        }
    }
    out
}

/// The facts as HTML: a definition table, cards as coloured labels, the
/// board as a 7 × 7 table.
#[must_use]
pub fn facts_html(ruleset: &str, facts: &[Fact]) -> String {
    let mut out = String::from("<table style=\"border-collapse:collapse\">");
    for fact in facts {
        match fact {
            Fact::Line(label, text) => {
                let _ = write!(
                    out,
                    "<tr><th style=\"text-align:left;vertical-align:top;padding-right:1em\">{}</th><td>{}</td></tr>",
                    escape(label),
                    escape(text)
                );
            }
            Fact::Cards(label, cards) => {
                let drawn: String = cards.iter().map(|c| card_html(ruleset, c)).collect();
                let _ = write!(
                    out,
                    "<tr><th style=\"text-align:left;vertical-align:top;padding-right:1em\">{}</th><td>{}</td></tr>",
                    escape(label),
                    if drawn.is_empty() {
                        "no cards".to_owned()
                    } else {
                        drawn
                    }
                );
            }
            Fact::Board(cells) => {
                let _ = write!(out, "<tr><td colspan=\"2\">{}</td></tr>", board_html(cells));
            }
        }
    }
    out.push_str("</table>");
    out
}

/// One card as a small framed label in its suit's colour.
#[must_use]
pub fn card_html(ruleset: &str, code: &str) -> String {
    let colour = match crate::games::narration::cards::suit_of(ruleset, code) {
        Some('H' | 'D') => "#c0392b",
        Some('S' | 'C') => "#222",
        Some('T') => "#b7950b",
        Some('F') => "#1e8449",
        Some('W') => "#2e4053",
        _ => "#7d3c98",
    };
    format!(
        "<span title=\"{}\" style=\"display:inline-block;min-width:2.2em;margin:1px;padding:2px 3px;border:1px solid #999;border-radius:4px;background:#fff;color:{colour};font-weight:bold;text-align:center\">{}</span>",
        escape(&card(ruleset, code)),
        escape(code)
    )
}

fn board_html(cells: &Value) -> String {
    let grid = board_grid(cells);
    let mut out = String::from(
        "<table style=\"border-collapse:collapse;font-family:monospace;text-align:center\"><tr><td></td>",
    );
    for file in 'a'..='g' {
        let _ = write!(out, "<td>{file}</td>");
    }
    out.push_str("</tr>");
    for rank in (0..7).rev() {
        let _ = write!(out, "<tr><td>{}</td>", rank + 1);
        for cell in &grid[rank] {
            let (text, background) = match cell {
                Some((letter, height, colour)) => (
                    format!("{letter}{height}"),
                    match colour.as_str() {
                        "red" => "#f5b7b1",
                        "blue" => "#aed6f1",
                        "yellow" => "#f9e79f",
                        _ => "#d5d8dc",
                    },
                ),
                None => (String::new(), "#fdfefe"),
            };
            let _ = write!(
                out,
                "<td style=\"width:2.2em;height:2.2em;border:1px solid #999;background:{background}\">{text}</td>"
            );
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>");
    out
}

/// A short hash of what a turn mail shows the seat to decide by: its facts
/// and its legal moves (so its reply codes). Equal fingerprints mean a
/// reply to the older mail means the same now.
#[must_use]
pub fn fingerprint(game: &Game) -> String {
    let mut hash = Sha256::new();
    hash.update(facts_text(&game.ruleset, &facts(game)).as_bytes());
    for command in &game.legal_commands {
        hash.update(b"\n");
        hash.update(command.to_string().as_bytes());
    }
    hex::encode(&hash.finalize()[..12])
}

/// A group of legal moves: a heading and the `(code, word)` items, or a
/// single move written out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveGroup {
    One(usize, String),
    Many(String, Vec<(usize, String)>),
}

/// A kind of move with at least this many moves is listed in groups; fewer
/// are listed one a line.
const GROUP_FROM: usize = 6;

/// The legal moves grouped: per kind of move, by every field but the one
/// with the most values (the card to play, the cell to go to, the
/// position), listed with codes from 1 in the order of `legal`.
#[must_use]
pub fn move_groups(legal: &[Value]) -> Vec<MoveGroup> {
    let mut kinds: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, command) in legal.iter().enumerate() {
        let kind = command["type"].as_str().unwrap_or("?").to_owned();
        match kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, list)) => list.push(i),
            None => kinds.push((kind, vec![i])),
        }
    }
    let mut out = Vec::new();
    for (_, members) in kinds {
        let split: Vec<Vec<(String, String)>> = members
            .iter()
            .map(|&i| fields_in_order(&legal[i]))
            .collect();
        let words = split.first().map_or(0, Vec::len);
        // The field with the most distinct values varies within a group.
        let varying = (1..words).max_by_key(|&p| {
            let mut seen: Vec<&str> = split
                .iter()
                .filter_map(|f| f.get(p).map(|(_, w)| w.as_str()))
                .collect();
            seen.sort_unstable();
            seen.dedup();
            (seen.len(), p)
        });
        let mut groups: Vec<(String, Vec<(usize, String)>)> = Vec::new();
        for (&i, fields) in members.iter().zip(&split) {
            let (heading, item) = match varying {
                Some(p) if fields.len() == words => {
                    let heading: Vec<String> = fields
                        .iter()
                        .enumerate()
                        .map(|(k, (name, word))| {
                            if k == p {
                                name.to_uppercase()
                            } else {
                                word.clone()
                            }
                        })
                        .collect();
                    (heading.join(" "), fields[p].1.clone())
                }
                _ => (String::new(), String::new()),
            };
            match groups
                .iter_mut()
                .find(|(h, _)| *h == heading && !h.is_empty())
            {
                Some((_, items)) => items.push((i + 1, item)),
                None => groups.push((heading, vec![(i + 1, item)])),
            }
        }
        for (heading, items) in groups {
            if heading.is_empty() || members.len() < GROUP_FROM {
                for (code, _) in items {
                    out.push(MoveGroup::One(
                        code,
                        super::moves::written(&legal[code - 1]),
                    ));
                }
            } else {
                out.push(MoveGroup::Many(heading, items));
            }
        }
    }
    out
}

/// The legal moves with their reply codes, as text.
#[must_use]
pub fn moves(legal: &[Value]) -> String {
    let mut out = String::new();
    for group in move_groups(legal) {
        match group {
            MoveGroup::One(code, written) => {
                out.push_str(&wrap(&written, &format!("{code:>5}  "), "       "));
            }
            MoveGroup::Many(heading, items) => {
                out.push_str(&wrap(&format!("{heading}:"), "       ", "         "));
                let cell = items
                    .iter()
                    .map(|(c, w)| c.to_string().len() + w.chars().count() + 4)
                    .max()
                    .unwrap_or(8);
                let per_line = ((WIDTH - 9) / cell).max(1);
                for chunk in items.chunks(per_line) {
                    let row: String = chunk
                        .iter()
                        .map(|(c, w)| format!("{:<cell$}", format!("{c:>3}) {w}")))
                        .collect();
                    let _ = writeln!(out, "       {}", row.trim_end());
                }
            }
        }
    }
    out
}

/// The legal moves as HTML (the same groups and codes).
#[must_use]
pub fn moves_html(legal: &[Value]) -> String {
    let mut out = String::from("<ul style=\"list-style:none;padding-left:0\">");
    for group in move_groups(legal) {
        match group {
            MoveGroup::One(code, written) => {
                let _ = write!(
                    out,
                    "<li><b>{code}</b> <code>{}</code></li>",
                    escape(&written)
                );
            }
            MoveGroup::Many(heading, items) => {
                let listed: Vec<String> = items
                    .iter()
                    .map(|(c, w)| format!("<b>{c}</b>&nbsp;<code>{}</code>", escape(w)))
                    .collect();
                let _ = write!(
                    out,
                    "<li><code>{}</code>: {}</li>",
                    escape(&heading),
                    listed.join(" &nbsp; ")
                );
            }
        }
    }
    out.push_str("</ul>");
    out
}

/// The legend of the move words among `legal`: one line each.
#[must_use]
pub fn legend(ruleset: &str, legal: &[Value]) -> Vec<(String, String)> {
    let mut kinds: Vec<&str> = legal.iter().filter_map(|c| c["type"].as_str()).collect();
    kinds.dedup();
    let mut seen = Vec::new();
    for kind in kinds {
        if seen
            .iter()
            .any(|(k, _): &(String, String)| k.starts_with(kind))
        {
            continue;
        }
        let (words, meaning) = match (ruleset, kind) {
            ("hats", "exchange") => (
                "exchange CARD POSITION",
                "give CARD from your hand for the line card at POSITION (same type or a lower number); the line card joins your collection face up",
            ),
            ("hats", "black_hat") => ("black_hat CARD", "turn CARD into a black hat (1 point)"),
            ("hats", "discard_draw") => (
                "discard_draw CARD",
                "before your main action: discard CARD and draw the deck's top card",
            ),
            ("hats", "offer_swap") => (
                "offer_swap CARD",
                "before your main action: offer CARD face down to your partner",
            ),
            ("hats", "answer_swap") => {
                ("answer_swap CARD", "answer your partner's offer with CARD")
            }
            ("goathead", "bid") => (
                "bid CONTRACT",
                "bid higher: suit:D < suit:H < nil < suit:S < suit:C < court",
            ),
            ("goathead", "steal") => (
                "steal",
                "take the leading bid (only with fewer game points than its bidder)",
            ),
            ("goathead", "pass") => ("pass", "leave the bidding (final)"),
            ("goathead", "take_kitty") => ("take_kitty", "take the kitty into your hand"),
            ("goathead", "leave_kitty") => ("leave_kitty", "leave the kitty (+1 if you win)"),
            ("goathead", "bury") => ("bury CARD", "put CARD face down to the kitty"),
            ("goathead", "keep_contract") => ("keep_contract", "play the contract you bid"),
            ("goathead", "upgrade") => ("upgrade CONTRACT", "raise the contract to CONTRACT"),
            ("goathead", "kitty_swap") => (
                "kitty_swap HAND KITTY",
                "swap your card HAND for the kitty's card KITTY",
            ),
            ("goathead", "kitty_skip") => ("kitty_skip", "swap nothing"),
            ("goathead" | "hat-trick", "play") => (
                "play CARD",
                if ruleset == "hat-trick" {
                    "play CARD; play CARD predict also claims trick 6 (on tricks 2-5) or the last trick (later)"
                } else {
                    "play CARD to the trick"
                },
            ),
            ("top-hats", "build_stack") => (
                "build_stack BOTTOM MIDDLE",
                "build your next stack: BOTTOM and MIDDLE from your pool, your colour on top",
            ),
            ("top-hats", "place") => ("place CELL STACK", "put your stack number STACK on CELL"),
            ("top-hats", "move") => (
                "move FROM TO",
                "move your stack on FROM to the next cell TO",
            ),
            ("top-hats", "jump") => (
                "jump FROM TO",
                "jump your stack on FROM over a neighbour to TO; an opposing top hat jumped is taken off",
            ),
            ("top-hats", "end_turn") => ("end_turn", "stop a chain of jumps"),
            _ => continue,
        };
        seen.push((words.to_owned(), meaning.to_owned()));
    }
    seen
}

/// The legend as text.
#[must_use]
pub fn legend_text(entries: &[(String, String)]) -> String {
    let mut out = String::new();
    for (words, meaning) in entries {
        out.push_str(&wrap(&format!("{words}: {meaning}"), "  ", "      "));
    }
    out
}

/// A list of what happened, as text bullets.
#[must_use]
pub fn bullets(lines: &[String]) -> String {
    lines.iter().map(|l| wrap(l, "- ", "  ")).collect()
}

/// The other players at `game`'s table (all of them for a spectator).
#[must_use]
pub fn opponents(game: &Game) -> String {
    let names: Vec<String> = game
        .seats
        .iter()
        .filter(|s| Some(s.seat) != game.my_seat)
        .map(|s| s.username.clone())
        .collect();
    and_list(&names)
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
        assert!(board_html(&cells).contains("#f5b7b1"));
    }

    #[test]
    fn few_moves_are_listed_one_a_line_with_codes_from_one() {
        let listed = moves(&[
            json!({"type": "pass"}),
            json!({"type": "play", "card": "H5"}),
        ]);
        assert_eq!(listed, "    1  pass\n    2  play H5\n");
    }

    #[test]
    fn many_moves_of_a_kind_are_grouped_by_all_but_their_most_varied_field() {
        // Given 5 stacks × 24 cells to place on, and a stack to build …
        let mut legal = Vec::new();
        for stack in 0..5 {
            for cell in [
                "b2", "c2", "d2", "e2", "f2", "b3", "c3", "d3", "e3", "f3", "b4", "c4",
            ]
            .iter()
            .chain(&[
                "e4", "f4", "b5", "c5", "d5", "e5", "f5", "b6", "c6", "d6", "e6", "f6",
            ]) {
                legal.push(json!({"type": "place", "stack": stack, "cell": cell}));
            }
        }
        // … when listed …
        let listed = moves(&legal);
        // … they are grouped per stack, every code kept, every line short.
        assert!(listed.contains("place CELL 0:"), "{listed}");
        assert!(listed.contains("120) f6"), "{listed}");
        assert!(
            listed.lines().all(|l| l.chars().count() <= WIDTH),
            "{listed}"
        );
        assert!(listed.lines().count() < 40, "{listed}");
    }

    #[test]
    fn long_text_wraps_under_its_label() {
        let text = "word ".repeat(40);
        let wrapped = wrap(&text, "Label:  ", "        ");
        assert!(wrapped.lines().all(|l| l.chars().count() <= WIDTH));
        assert!(
            wrapped
                .lines()
                .skip(1)
                .all(|l| l.starts_with("        word"))
        );
    }

    #[test]
    fn html_is_escaped() {
        assert_eq!(
            escape("<a href=\"x\">&"),
            "&lt;a href=&quot;x&quot;&gt;&amp;"
        );
    }
}
