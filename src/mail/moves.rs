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
//! - A reply's move is its **first line that is not empty, not quoted** (`>`)
//!   and not an attribution (`On ... wrote:`). It names a move by its code
//!   or its written form, in any case, with `_` and `-` read as spaces.
//!   Anything else is refused with the legal moves listed.

use serde_json::Value;

/// `command` written out.
#[must_use]
pub fn written(command: &Value) -> String {
    let Some(object) = command.as_object() else {
        return command.to_string();
    };
    let mut words = vec![
        object
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_owned(),
    ];
    let mut names: Vec<&String> = object.keys().filter(|k| *k != "type").collect();
    names.sort();
    for name in names {
        push_words(&mut words, name, &object[name]);
    }
    words.join(" ")
}

fn push_words(words: &mut Vec<String>, name: &str, value: &Value) {
    match value {
        Value::Bool(true) => words.push(name.to_owned()),
        Value::Bool(false) | Value::Null => {}
        Value::String(s) => words.push(s.clone()),
        Value::Array(items) => {
            for item in items {
                push_words(words, name, item);
            }
        }
        other => words.push(other.to_string()),
    }
}

/// A written move made comparable: lowercase, `_`/`-` as spaces, single spaces.
fn normal(text: &str) -> String {
    text.to_lowercase()
        .replace(['_', '-'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The move line of a reply's plain text (see the module's rules).
#[must_use]
pub fn move_line(text: &str) -> Option<&str> {
    text.lines().map(str::trim).find(|line| {
        let attribution = line.starts_with("On ") && line.ends_with("wrote:");
        !(line.is_empty() || line.starts_with('>') || attribution)
    })
}

/// The legal command a move line names, by reply code or written form.
///
/// # Errors
/// What the line is not, for the reply mail.
pub fn read_move<'a>(line: &str, legal: &'a [Value]) -> Result<&'a Value, String> {
    let wanted = normal(line);
    if let Ok(code) = wanted.parse::<usize>() {
        return code
            .checked_sub(1)
            .and_then(|i| legal.get(i))
            .ok_or_else(|| {
                format!(
                    "there is no move {code}: the codes go from 1 to {}",
                    legal.len()
                )
            });
    }
    legal
        .iter()
        .find(|command| normal(&written(command)) == wanted)
        .ok_or_else(|| {
            format!(
                "\"{}\" is not one of your legal moves",
                line.chars().take(80).collect::<String>()
            )
        })
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
    fn a_move_is_read_by_code_or_written_form() {
        let legal = vec![
            json!({"type": "play", "card": "H5"}),
            json!({"type": "kitty_swap", "hand_card": "AS", "kitty_card": "QS"}),
        ];
        assert_eq!(read_move("2", &legal), Ok(&legal[1]));
        assert_eq!(read_move("PLAY h5", &legal), Ok(&legal[0]));
        assert_eq!(read_move("kitty-swap as qs", &legal), Ok(&legal[1]));
        assert!(read_move("3", &legal).unwrap_err().contains("from 1 to 2"));
        assert!(read_move("0", &legal).is_err());
        assert!(
            read_move("play H6", &legal)
                .unwrap_err()
                .contains("not one of")
        );
    }
}
