//! Moves in mail: how a legal command is written out, its short reply code,
//! and reading a reply back into a command.
//!
//! Rules:
//! - A command is **written out** as its `type`, then the values of its
//!   other fields in the order of their names, words separated by spaces:
//!   `play H5`, `exchange S2 1`, `jump e6 g4`, `build_stack red red`. A
//!   `true` field is written as its name (`play QH predict`), a `false` one
//!   not at all.
//! - Its **reply code** is its place in the list of legal commands the mail
//!   showed, from 1.
//! - A reply's move is on its **first line that is not empty, not quoted**
//!   (`>`) and not an attribution (`On ... wrote:`); one short greeting
//!   line before it (`Hi,`, `Hello bruno,`, `Dear all`) is passed over.
//! - The move line names a move by its code (`2`, `2.`, `#2`, `(2)`, `2)`),
//!   by its written form (any case, `_` and `-` read as spaces, a final
//!   `.` or `!` ignored), or by both as the mail lists them (`2 play H5`).
//! - **Nothing is played on a doubtful read**: a code and a written form
//!   that name different moves, or words that fit several moves (or name
//!   one only in part), are refused with the moves they could mean, with
//!   their codes. Anything else is refused with the legal moves listed.

use serde_json::Value;

/// The fields of `command` in written order: `("type", kind)` first, then
/// each further field's name and word (a list gives one word per item).
#[must_use]
pub fn fields_in_order(command: &Value) -> Vec<(String, String)> {
    let Some(object) = command.as_object() else {
        return vec![("type".to_owned(), command.to_string())];
    };
    let mut fields = vec![(
        "type".to_owned(),
        object
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_owned(),
    )];
    let mut names: Vec<&String> = object.keys().filter(|k| *k != "type").collect();
    names.sort();
    for name in names {
        push_words(&mut fields, name, &object[name]);
    }
    fields
}

/// `command` written out.
#[must_use]
pub fn written(command: &Value) -> String {
    fields_in_order(command)
        .into_iter()
        .map(|(_, word)| word)
        .collect::<Vec<_>>()
        .join(" ")
}

fn push_words(fields: &mut Vec<(String, String)>, name: &str, value: &Value) {
    match value {
        Value::Bool(true) => fields.push((name.to_owned(), name.to_owned())),
        Value::Bool(false) | Value::Null => {}
        Value::String(s) => fields.push((name.to_owned(), s.clone())),
        Value::Array(items) => {
            for item in items {
                push_words(fields, name, item);
            }
        }
        other => fields.push((name.to_owned(), other.to_string())),
    }
}

/// A written move made comparable: lowercase, `_`/`-` as spaces, single
/// spaces, no final `.` or `!`.
fn normal(text: &str) -> String {
    text.to_lowercase()
        .replace(['_', '-'], " ")
        .trim_end_matches(['.', '!'])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The words that open a greeting line.
const GREETINGS: [&str; 14] = [
    "hi",
    "hello",
    "hey",
    "dear",
    "hallo",
    "greetings",
    "good",
    "morning",
    "evening",
    "bonjour",
    "salut",
    "moin",
    "hej",
    "yo",
];

/// Whether `line` is a short greeting (`Hi,`, `Hello bruno,`, `Dear all`).
fn greeting(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let first = words
        .first()
        .map(|w| w.trim_end_matches([',', '!', '.']).to_lowercase())
        .unwrap_or_default();
    line.chars().count() <= 40 && words.len() <= 4 && GREETINGS.contains(&first.as_str())
}

/// The move line of a reply's plain text (see the module's rules).
#[must_use]
pub fn move_line(text: &str) -> Option<&str> {
    let mut lines = text.lines().map(str::trim).filter(|line| {
        let attribution = line.starts_with("On ") && line.ends_with("wrote:");
        !(line.is_empty() || line.starts_with('>') || attribution)
    });
    let first = lines.next()?;
    if greeting(first) {
        return lines.next();
    }
    Some(first)
}

/// A reply code (`2`, `2.`, `#2`, `(2)`, `2)`) at the start of `line`, and
/// the rest of the line.
fn code_of(line: &str) -> Option<(usize, &str)> {
    let trimmed = line.trim_start_matches(['#', '(']);
    let digits = trimmed.len()
        - trimmed
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .len();
    if digits == 0 {
        return None;
    }
    let code = trimmed[..digits].parse().ok()?;
    let rest = trimmed[digits..].trim_start_matches([')', '.', ':']);
    if !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    Some((code, rest.trim()))
}

/// The legal moves `indexes` as `3 exchange H5 1; 4 exchange H5 3`.
fn listed(legal: &[Value], indexes: &[usize]) -> String {
    indexes
        .iter()
        .map(|&i| format!("{} {}", i + 1, written(&legal[i])))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The legal command a move line names (see the module's rules).
///
/// # Errors
/// Why the line names no single move, for the answer mail.
pub fn read_move<'a>(line: &str, legal: &'a [Value]) -> Result<&'a Value, String> {
    let quoted = line.chars().take(80).collect::<String>();
    let by_code = code_of(line);
    let text = by_code.map_or(line, |(_, rest)| rest);
    let wanted = normal(text);
    let coded = match by_code {
        Some((code, _)) => Some(
            code.checked_sub(1)
                .filter(|&i| i < legal.len())
                .ok_or_else(|| {
                    format!(
                        "there is no move {code}: the codes go from 1 to {}",
                        legal.len()
                    )
                })?,
        ),
        None => None,
    };
    let exact: Vec<usize> = (0..legal.len())
        .filter(|&i| !wanted.is_empty() && normal(&written(&legal[i])) == wanted)
        .collect();
    match (coded, exact.as_slice()) {
        (Some(i), []) if wanted.is_empty() => return Ok(&legal[i]),
        (Some(i), [j]) if i == *j => return Ok(&legal[i]),
        (None, [j]) => return Ok(&legal[*j]),
        (Some(i), [j]) => {
            return Err(format!(
                "\"{quoted}\" is doubtful: the code and the words name different moves ({}); nothing was played",
                listed(legal, &[i, *j])
            ));
        }
        _ => {}
    }
    // Words that fit some moves only in part: say which, play none.
    let words: Vec<&str> = wanted.split(' ').filter(|w| !w.is_empty()).collect();
    let partial: Vec<usize> = (0..legal.len())
        .filter(|&i| {
            let moves = normal(&written(&legal[i]));
            let theirs: Vec<&str> = moves.split(' ').collect();
            !words.is_empty() && words.iter().all(|w| theirs.contains(w))
        })
        .collect();
    let mut could = partial;
    if let Some(i) = coded
        && !could.contains(&i)
    {
        could.insert(0, i);
    }
    match could.len() {
        0 => Err(format!("\"{quoted}\" is not one of your legal moves")),
        1..=8 => Err(format!(
            "\"{quoted}\" could mean {}: reply with one code",
            listed(legal, &could)
        )),
        n => Err(format!(
            "\"{quoted}\" fits {n} moves, among them {}: reply with one code",
            listed(legal, &could[..4])
        )),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn commands_are_written_as_type_then_values_by_field_name() {
        assert_eq!(written(&json!({"type": "play", "card": "H5"})), "play H5");
        assert_eq!(
            written(&json!({"type": "exchange", "position": 1, "card": "S2"})),
            "exchange S2 1"
        );
        assert_eq!(
            written(&json!({"type": "build_stack", "under": ["red", "blue"]})),
            "build_stack red blue"
        );
        assert_eq!(
            written(&json!({"type": "play", "card": "QH", "predict": true})),
            "play QH predict"
        );
        assert_eq!(
            written(&json!({"type": "play", "card": "QH", "predict": false})),
            "play QH"
        );
        assert_eq!(written(&json!({"type": "pass"})), "pass");
    }

    #[test]
    fn the_move_is_the_first_unquoted_line() {
        let reply = "\n\n  play h5  \n\nOn Tue, someone wrote:\n> 1. play H5\n";
        assert_eq!(move_line(reply), Some("play h5"));
        let top_quoted = "On Tue, 24 Nov 2026, hatstand wrote:\n> your turn\n2\n";
        assert_eq!(move_line(top_quoted), Some("2"));
        assert_eq!(move_line("> only quotes\n\n"), None);
    }

    #[test]
    fn a_short_greeting_before_the_move_is_passed_over() {
        assert_eq!(move_line("Hi,\n\n3\n\nThanks, ada\n"), Some("3"));
        assert_eq!(move_line("Hello bruno!\nplay QS\n"), Some("play QS"));
        assert_eq!(move_line("Dear all,\n#2\n"), Some("#2"));
        // Only one greeting line, and only a short one.
        assert_eq!(move_line("Hi,\nHello,\n2\n"), Some("Hello,"));
        assert_eq!(
            move_line("Hi there, I have been thinking about this for a while\n2\n"),
            Some("Hi there, I have been thinking about this for a while")
        );
    }

    #[test]
    fn a_move_is_read_by_code_or_written_form() {
        let legal = vec![
            json!({"type": "play", "card": "H5"}),
            json!({"type": "kitty_swap", "hand_card": "AS", "kitty_card": "QS"}),
        ];
        assert_eq!(read_move("2", &legal), Ok(&legal[1]));
        assert_eq!(read_move("PLAY h5", &legal), Ok(&legal[0]));
        assert_eq!(read_move("play H5.", &legal), Ok(&legal[0]));
        assert_eq!(read_move("kitty-swap as qs", &legal), Ok(&legal[1]));
        assert!(read_move("3", &legal).unwrap_err().contains("from 1 to 2"));
        assert!(read_move("0", &legal).is_err());
        assert!(
            read_move("play H6", &legal)
                .unwrap_err()
                .contains("not one of")
        );
    }

    #[test]
    fn codes_may_be_written_with_a_mark_or_with_their_move() {
        let legal = vec![
            json!({"type": "play", "card": "H5"}),
            json!({"type": "play", "card": "S2"}),
        ];
        for line in [
            "2.",
            "#2",
            "(2)",
            "2)",
            "2:",
            "2 play S2",
            "2. play s2",
            "#2 play_S2",
        ] {
            assert_eq!(read_move(line, &legal), Ok(&legal[1]), "{line}");
        }
        assert!(read_move("2x", &legal).is_err());
    }

    #[test]
    fn doubtful_replies_are_refused_with_their_candidates() {
        let legal = vec![
            json!({"type": "exchange", "card": "H5", "position": 1}),
            json!({"type": "exchange", "card": "H5", "position": 3}),
            json!({"type": "black_hat", "card": "H5"}),
        ];
        // Words that fit two moves.
        let why = read_move("exchange H5", &legal).unwrap_err();
        assert!(
            why.contains("could mean 1 exchange H5 1; 2 exchange H5 3"),
            "{why}"
        );
        // A code and words that disagree.
        let why = read_move("1 black_hat H5", &legal).unwrap_err();
        assert!(
            why.contains("different moves (1 exchange H5 1; 3 black_hat H5)"),
            "{why}"
        );
        // Words that fit one move only in part are not played either.
        let why = read_move("black hat", &legal).unwrap_err();
        assert!(why.contains("could mean 3 black_hat H5"), "{why}");
    }
}
