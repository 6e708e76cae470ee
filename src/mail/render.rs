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
use crate::games::narration::cards::{card, card_in, grouped_codes_in, grouped_in};
use crate::games::narration::{Table, and_list_in};
use crate::games::projection::Game;
use crate::i18n::{Arg, Language, words};

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

/// A count in words: `no cards`, `1 card`, `9 cards` (`id` is a plural
/// message of the mail's files, given `$n`).
fn count(lang: Language, n: &Value, id: &str) -> String {
    let n = n.as_u64().and_then(|n| i64::try_from(n).ok()).unwrap_or(0);
    words(lang, id, &[("n", Arg::Number(n))])
}

/// A message of the mail's files with no arguments.
fn w(lang: Language, id: &str) -> String {
    words(lang, id, &[])
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

/// The facts of `game` as its viewer sees them, in English (what a
/// [`fingerprint`] is taken of, whatever the reader's language).
#[must_use]
pub fn facts(game: &Game) -> Vec<Fact> {
    facts_in(Language::En, game)
}

/// The facts of `game` as its viewer sees them, in `lang`.
#[must_use]
pub fn facts_in(lang: Language, game: &Game) -> Vec<Fact> {
    let view = view_of(game);
    if view.is_null() {
        return vec![Fact::Line(
            w(lang, "fact-game"),
            w(lang, "fact-not-started"),
        )];
    }
    let table = table_of(game);
    let line = |label: &str, text: String| Fact::Line(w(lang, label), text);
    let who = |seat: &Value| table.who_in(lang, seat);
    let per_seat = |values: &Value| table.per_seat_in(lang, values, false);
    let mut out = Vec::new();
    let r = game.ruleset.as_str();
    match r {
        "hats" => {
            out.push(line(
                "fact-the-line",
                words(
                    lang,
                    "fact-the-line-text",
                    &[(
                        "line",
                        Arg::Text(&crate::games::narration::hats_line(&view["line"])),
                    )],
                ),
            ));
            if view["hand"].is_array() {
                out.push(Fact::Cards(w(lang, "fact-your-hand"), codes(&view["hand"])));
            }
            if view["black_hat_cards"]
                .as_array()
                .is_some_and(|b| !b.is_empty())
            {
                out.push(line(
                    "fact-your-black-hats",
                    grouped_in(lang, r, &view["black_hat_cards"]),
                ));
            }
            if let Some(offered) = view["offered"].as_str() {
                out.push(line(
                    "fact-offered",
                    words(
                        lang,
                        "fact-offered-text",
                        &[("card", Arg::Text(&card_in(lang, r, offered)))],
                    ),
                ));
            }
            for (i, seat) in view["seats"].as_array().into_iter().flatten().enumerate() {
                let seat_no = u8::try_from(i).unwrap_or(u8::MAX);
                let collection = codes(&seat["collection"]);
                let shown = if collection.is_empty() {
                    w(lang, "fact-nothing-collected")
                } else {
                    words(
                        lang,
                        "fact-collected",
                        &[("cards", Arg::Text(&collection.join(" ")))],
                    )
                };
                let label = if table.is_me(&Value::from(seat_no)) {
                    w(lang, "fact-you")
                } else {
                    table.name(seat_no)
                };
                out.push(Fact::Line(
                    label,
                    format!(
                        "{shown}; {}; {}",
                        count(lang, &seat["hand_size"], "fact-cards-in-hand"),
                        count(lang, &seat["black_hats"], "fact-black-hats")
                    ),
                ));
            }
            out.push(line(
                "fact-deck",
                format!(
                    "{}; {}",
                    count(lang, &view["deck"], "fact-cards"),
                    count(lang, &view["discard"], "fact-on-discard")
                ),
            ));
            if !view["cookie"].is_null() {
                out.push(line(
                    "fact-cookie",
                    words(
                        lang,
                        "fact-cookie-text",
                        &[
                            ("who", Arg::Text(&who(&view["cookie"]))),
                            ("me", Arg::Text(yes(table.is_me(&view["cookie"])))),
                        ],
                    ),
                ));
            }
        }
        "goathead" => {
            out.push(line(
                "fact-round",
                words(
                    lang,
                    "fact-round-text",
                    &[
                        (
                            "n",
                            Arg::Text(&(view["round"].as_u64().unwrap_or(0) + 1).to_string()),
                        ),
                        ("of", Arg::Text(&view["rounds"].to_string())),
                        ("dealer", Arg::Text(&who(&view["dealer"]))),
                        ("me", Arg::Text(yes(table.is_me(&view["dealer"])))),
                    ],
                ),
            ));
            // A phase the messages do not name reads as "over".
            let phase = view["phase"]
                .as_str()
                .filter(|p| {
                    [
                        "bidding",
                        "kitty_choice",
                        "bury",
                        "contract_choice",
                        "swap",
                        "play",
                        "round_over",
                    ]
                    .contains(p)
                })
                .unwrap_or("over");
            out.push(line(
                "fact-phase",
                w(lang, &format!("fact-goathead-phase-{phase}")),
            ));
            if !view["contract"].is_null() {
                let contract =
                    crate::games::narration::goathead_contract_in(lang, &view["contract"]);
                let text = if view["declarer"].is_null() {
                    contract
                } else {
                    words(
                        lang,
                        "fact-contract-declared",
                        &[
                            ("contract", Arg::Text(&contract)),
                            ("who", Arg::Text(&who(&view["declarer"]))),
                        ],
                    )
                };
                out.push(line("fact-contract", text));
            } else if !view["highest_bid"].is_null() {
                out.push(line(
                    "fact-highest-bid",
                    words(
                        lang,
                        "fact-highest-bid-text",
                        &[
                            (
                                "contract",
                                Arg::Text(&crate::games::narration::goathead_contract_in(
                                    lang,
                                    &view["highest_bid"],
                                )),
                            ),
                            ("who", Arg::Text(&who(&view["bid_leader"]))),
                        ],
                    ),
                ));
            }
            if view["hand"].is_array() {
                out.push(Fact::Cards(w(lang, "fact-your-hand"), codes(&view["hand"])));
            }
            if view["kitty"].is_array() {
                out.push(Fact::Cards(
                    w(lang, "fact-the-kitty"),
                    codes(&view["kitty"]),
                ));
            } else if view["kitty_size"].as_u64().is_some_and(|n| n > 0) {
                out.push(line(
                    "fact-the-kitty",
                    count(lang, &view["kitty_size"], "fact-cards-face-down"),
                ));
            }
            if view["phase"] == "play" {
                out.push(line("fact-trick", trick(lang, r, &table, &view["trick"])));
                out.push(line("fact-tricks-won", per_seat(&view["tricks_won"])));
                out.push(line("fact-card-points", per_seat(&view["trick_points"])));
            }
            out.push(line("fact-game-points", per_seat(&view["game_points"])));
        }
        "hat-trick" => {
            out.push(line(
                "fact-deal",
                words(
                    lang,
                    "fact-deal-text",
                    &[
                        (
                            "n",
                            Arg::Text(&(view["round"].as_u64().unwrap_or(0) + 1).to_string()),
                        ),
                        ("of", Arg::Text(&view["rounds"].to_string())),
                        ("dealer", Arg::Text(&who(&view["dealer"]))),
                        ("me", Arg::Text(yes(table.is_me(&view["dealer"])))),
                        ("trick", Arg::Text(&view["trick_number"].to_string())),
                    ],
                ),
            ));
            let shown_by = view["indicator"].as_str().map(|c| card_in(lang, r, c));
            out.push(line(
                "fact-trump",
                words(
                    lang,
                    "fact-trump-text",
                    &[
                        (
                            "trump",
                            Arg::Text(&crate::games::narration::hat_trick_trump_in(
                                lang,
                                &view["trump"],
                            )),
                        ),
                        ("shown", Arg::Text(yes(shown_by.is_some()))),
                        ("indicator", Arg::Text(shown_by.as_deref().unwrap_or(""))),
                        (
                            "negative",
                            Arg::Text(yes(view["negative"] == Value::Bool(true))),
                        ),
                    ],
                ),
            ));
            if let Some(mine) = game
                .my_seat
                .and_then(|s| view["hands"].get(usize::from(s)))
                .filter(|h| h.is_array())
            {
                out.push(Fact::Cards(w(lang, "fact-your-hand"), codes(mine)));
            }
            out.push(line("fact-trick", trick(lang, r, &table, &view["trick"])));
            out.push(line("fact-tricks-won", per_seat(&view["tricks_won"])));
            let scoring: Vec<String> = ["first", "sixth", "last"]
                .iter()
                .zip(view["scoring_tricks"].as_array().into_iter().flatten())
                .map(|(which, seat)| {
                    words(
                        lang,
                        "fact-scoring-trick",
                        &[
                            ("which", Arg::Text(which)),
                            ("played", Arg::Text(yes(!seat.is_null()))),
                            ("who", Arg::Text(&who(seat))),
                        ],
                    )
                })
                .collect();
            if !scoring.is_empty() {
                out.push(line("fact-scoring-tricks", scoring.join("; ")));
            }
            let predictions: Vec<String> = view["predictions"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|p| !p.is_null())
                .map(|p| {
                    words(
                        lang,
                        "fact-prediction",
                        &[
                            ("who", Arg::Text(&who(&p["seat"]))),
                            ("me", Arg::Text(yes(table.is_me(&p["seat"])))),
                            ("claims", Arg::Text(&p["claims"].to_string())),
                            ("made_on", Arg::Text(&p["made_on"].to_string())),
                        ],
                    )
                })
                .collect();
            if !predictions.is_empty() {
                out.push(line("fact-predictions", predictions.join("; ")));
            }
            out.push(line("fact-scores", per_seat(&view["scores"])));
        }
        "top-hats" => top_hats(lang, &mut out, &table, &view),
        _ => out.push(line("fact-view", view.to_string())),
    }
    out
}

/// `"yes"` or `"no"`, for a message's selector.
fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// The cards of a trick so far.
fn trick(lang: Language, ruleset: &str, table: &Table, plays: &Value) -> String {
    let plays: Vec<String> =
        plays
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| {
                words(
                    lang,
                    "fact-played",
                    &[
                        ("who", Arg::Text(&table.who_in(lang, &p["seat"]))),
                        ("me", Arg::Text(yes(table.is_me(&p["seat"])))),
                        (
                            "card",
                            Arg::Text(&p["card"].as_str().map_or_else(
                                || w(lang, "card-hidden"),
                                |c| card_in(lang, ruleset, c),
                            )),
                        ),
                    ],
                )
            })
            .collect();
    if plays.is_empty() {
        w(lang, "fact-no-card-played")
    } else {
        plays.join(", ")
    }
}

fn top_hats(lang: Language, out: &mut Vec<Fact>, table: &Table, view: &Value) {
    let line = |label: &str, text: String| Fact::Line(w(lang, label), text);
    let colour = |c: &Value| match c.as_str() {
        Some(known @ ("red" | "blue" | "yellow" | "neutral")) => {
            w(lang, &format!("narration-colour-{known}"))
        }
        other => other.unwrap_or("?").to_owned(),
    };
    let phase = view["phase"]
        .as_str()
        .filter(|p| ["building", "placing", "playing"].contains(p))
        .unwrap_or("over");
    out.push(line(
        "fact-phase",
        w(lang, &format!("fact-top-hats-phase-{phase}")),
    ));
    let colours: Vec<String> = view["colours"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, c)| {
            format!(
                "{} {}",
                table.name_in(lang, u8::try_from(i).unwrap_or(u8::MAX)),
                colour(c)
            )
        })
        .collect();
    out.push(line("fact-colours", colours.join(", ")));
    if view["phase"] != "building" && view["board"].as_array().is_some_and(|b| !b.is_empty()) {
        out.push(Fact::Board(view["board"].clone()));
    }
    let counted = |list: &Value| -> Vec<String> {
        list.as_array()
            .into_iter()
            .flatten()
            .map(|c| format!("{} {}", c["count"], colour(&c["colour"])))
            .collect()
    };
    for mine in view["private"].as_array().into_iter().flatten() {
        let pool = counted(&mine["pool"]);
        let left: u64 = mine["pool"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c["count"].as_u64())
            .sum();
        out.push(line(
            "fact-your-pool",
            if left == 0 {
                w(lang, "fact-pool-empty")
            } else {
                pool.join(", ")
            },
        ));
        for stack in mine["stacks"].as_array().into_iter().flatten() {
            let hats: Vec<String> = stack["hats"]
                .as_array()
                .into_iter()
                .flatten()
                .map(colour)
                .collect();
            out.push(Fact::Line(
                words(
                    lang,
                    "fact-stack",
                    &[("n", Arg::Text(&stack["stack"].to_string()))],
                ),
                words(
                    lang,
                    "fact-stack-text",
                    &[
                        ("hats", Arg::Text(&hats.join(", "))),
                        (
                            "placed",
                            Arg::Text(yes(stack["placed"] == Value::Bool(true))),
                        ),
                    ],
                ),
            ));
        }
    }
    if let Some(chain) = view["chain"].as_object() {
        out.push(line(
            "fact-jumping",
            words(
                lang,
                "fact-jumping-text",
                &[
                    ("cell", Arg::Text(chain["cell"].as_str().unwrap_or("?"))),
                    ("jumped", Arg::Text(&codes(&chain["jumped"]).join(" "))),
                ],
            ),
        ));
    }
    if view["phase"] != "building" {
        out.push(line(
            "fact-hats-taken-off",
            counted(&view["removed"]).join(", "),
        ));
    }
    if view["phase"] == "playing" {
        out.push(line(
            "fact-quiet-turns",
            words(
                lang,
                "fact-quiet-turns-text",
                &[
                    ("n", Arg::Text(&view["quiet_turns"].to_string())),
                    ("of", Arg::Text(&view["quiet_turn_limit"].to_string())),
                ],
            ),
        ));
    }
}

/// The Top Hats board, row 7 at the top, `a`–`g` left to right; a cell is
/// `.` when empty, else its top hat's colour letter (upper case when a
/// player owns the stack) and the stack's height.
#[must_use]
pub fn board(cells: &Value) -> String {
    board_in(Language::En, cells)
}

/// The board as text, its key in `lang`.
#[must_use]
pub fn board_in(lang: Language, cells: &Value) -> String {
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
    out.push_str(&w(lang, "fact-board-key"));
    out.push('\n');
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
    facts_text_in(Language::En, ruleset, facts)
}

/// As [`facts_text`], the words that are not facts (suits, the board's
/// key) in `lang`.
#[must_use]
pub fn facts_text_in(lang: Language, ruleset: &str, facts: &[Fact]) -> String {
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
                    &grouped_codes_in(lang, ruleset, &refs),
                    &first,
                    &" ".repeat(width),
                ));
            }
            Fact::Board(cells) => {
                out.push('\n');
                out.push_str(&board_in(lang, cells));
                out.push('\n');
            }
        }
    }
    out
}

/// The facts as HTML: a definition table, cards as coloured labels, the
/// board as a 7 × 7 table.
#[must_use]
pub fn facts_html(lang: Language, ruleset: &str, facts: &[Fact]) -> String {
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
                        w(lang, "card-none")
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
pub fn legend(lang: Language, ruleset: &str, legal: &[Value]) -> Vec<(String, String)> {
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
        let Some(words_of) = legend_words(ruleset, kind) else {
            continue;
        };
        let meaning = words(lang, &format!("legend-{ruleset}-{kind}"), &[]);
        seen.push((words_of.to_owned(), meaning));
    }
    seen
}

/// The move words of a kind of move of `ruleset`, as the legend shows
/// them (the same in every language: they are what a reply says).
fn legend_words(ruleset: &str, kind: &str) -> Option<&'static str> {
    Some(match (ruleset, kind) {
        ("hats", "exchange") => "exchange CARD POSITION",
        ("hats", "black_hat") => "black_hat CARD",
        ("hats", "discard_draw") => "discard_draw CARD",
        ("hats", "offer_swap") => "offer_swap CARD",
        ("hats", "answer_swap") => "answer_swap CARD",
        ("goathead", "bid") => "bid CONTRACT",
        ("goathead", "steal") => "steal",
        ("goathead", "pass") => "pass",
        ("goathead", "take_kitty") => "take_kitty",
        ("goathead", "leave_kitty") => "leave_kitty",
        ("goathead", "bury") => "bury CARD",
        ("goathead", "keep_contract") => "keep_contract",
        ("goathead", "upgrade") => "upgrade CONTRACT",
        ("goathead", "kitty_swap") => "kitty_swap HAND KITTY",
        ("goathead", "kitty_skip") => "kitty_skip",
        ("goathead" | "hat-trick", "play") => "play CARD",
        ("top-hats", "build_stack") => "build_stack BOTTOM MIDDLE",
        ("top-hats", "place") => "place CELL STACK",
        ("top-hats", "move") => "move FROM TO",
        ("top-hats", "jump") => "jump FROM TO",
        ("top-hats", "end_turn") => "end_turn",
        _ => return None,
    })
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

/// The other players at `game`'s table (all of them for a spectator),
/// joined in `lang`.
#[must_use]
pub fn opponents(lang: Language, game: &Game) -> String {
    let names: Vec<String> = game
        .seats
        .iter()
        .filter(|s| Some(s.seat) != game.my_seat)
        .map(|s| s.username.clone())
        .collect();
    and_list_in(lang, &names)
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
