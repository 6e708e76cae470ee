//! A game's result (the ruleset's `GameResult`, or a forfeit's) in words.

use serde_json::Value;

use super::{Table, and_list, capitalised};

/// The result in one or two sentences: who won, the scores, the tie-break.
#[must_use]
pub fn result_text(result: &Value, table: &Table) -> String {
    let winners: Vec<String> = result["winners"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| table.who(s))
        .collect();
    let mut text = if result["outcome"] == "draw" || winners.is_empty() {
        "The game was drawn.".to_owned()
    } else if winners.len() == table.names.len() && winners.len() > 1 {
        "Everyone shares the win.".to_owned()
    } else {
        {
            let named = and_list(&winners);
            let named = if named.starts_with("you") {
                capitalised(&named)
            } else {
                named
            };
            format!("{named} won.")
        }
    };
    if let Some(teams) = result["teams"].as_array() {
        let shown: Vec<String> = teams
            .iter()
            .map(|t| format!("{} {}", table.list(&t["seats"]), t["score"]))
            .collect();
        text.push_str(&format!(" Teams: {}.", shown.join("; ")));
    }
    if result["scores"].as_array().is_some_and(|s| !s.is_empty()) {
        text.push_str(&format!(
            " Scores: {}.",
            table.per_seat(&result["scores"], false)
        ));
    }
    if let Some(forfeited) = result["forfeited"].as_array().filter(|f| !f.is_empty()) {
        let names: Vec<String> = forfeited.iter().map(|s| table.who(s)).collect();
        text.push_str(&format!(" Out by forfeit: {}.", and_list(&names)));
    }
    match result["tie_break"].as_str() {
        Some("shared") => text.push_str(" The win is shared."),
        Some(tie) => {
            let words = match tie {
                "black_hats" => "most black hats".to_owned(),
                "cookie" => "the cookie".to_owned(),
                other => other.replace('_', " "),
            };
            text.push_str(&format!(" Tie-break: {words}."));
        }
        None => {}
    }
    text
}
