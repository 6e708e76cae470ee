//! A game's result (the ruleset's `GameResult`, or a forfeit's) in words.

use serde_json::Value;

use super::{Story, Table, and_list_in, capitalised};
use crate::i18n::{Arg, Language, words};

/// The result in one or two sentences: who won, the scores, the tie-break.
#[must_use]
pub fn result_text(result: &Value, table: &Table) -> String {
    result_text_in(Language::En, result, table)
}

/// Who won, for a message: the winners named and joined, how many, and
/// whether the reader is among them (`"yes"`, `"no"`).
pub(crate) fn winners(
    language: Language,
    table: &Table,
    seats: &Value,
) -> (String, i64, &'static str) {
    let list: Vec<&Value> = seats.as_array().into_iter().flatten().collect();
    let named: Vec<String> = list.iter().map(|s| table.who_in(language, s)).collect();
    let me = if list.iter().any(|s| table.is_me(s)) {
        "yes"
    } else {
        "no"
    };
    (
        and_list_in(language, &named),
        i64::try_from(list.len()).unwrap_or(0),
        me,
    )
}

/// A match's end (Goathead, Hat Trick): who won and the scores.
pub(super) fn ended(story: &Story, table: &Table, d: &Value) -> String {
    let (named, count, me) = winners(story.language, table, &d["winners"]);
    story.words(
        "narration-match-ended",
        &[
            ("winners", Arg::Text(&named)),
            ("count", Arg::Number(count)),
            ("me", Arg::Text(me)),
            (
                "scores",
                Arg::Text(&table.per_seat_in(story.language, &d["scores"], false)),
            ),
        ],
    )
}

/// The result in `language`.
#[must_use]
pub fn result_text_in(language: Language, result: &Value, table: &Table) -> String {
    let (named, count, me) = winners(language, table, &result["winners"]);
    let mut text = if result["outcome"] == "draw" || count == 0 {
        words(language, "result-drawn", &[])
    } else if usize::try_from(count).unwrap_or(0) == table.names.len() && count > 1 {
        words(language, "result-everyone", &[])
    } else {
        let said = words(
            language,
            "result-won",
            &[
                ("winners", Arg::Text(&named)),
                ("count", Arg::Number(count)),
                ("me", Arg::Text(me)),
            ],
        );
        if named.starts_with(&words(language, "narration-you", &[])) {
            capitalised(&said)
        } else {
            said
        }
    };
    let mut more = |id: &str, what: &str| {
        text.push(' ');
        text.push_str(&words(language, id, &[("what", Arg::Text(what))]));
    };
    if let Some(teams) = result["teams"].as_array() {
        let shown: Vec<String> = teams
            .iter()
            .map(|t| format!("{} {}", table.list_in(language, &t["seats"]), t["score"]))
            .collect();
        more("result-teams", &shown.join("; "));
    }
    if result["scores"].as_array().is_some_and(|s| !s.is_empty()) {
        more(
            "result-scores",
            &table.per_seat_in(language, &result["scores"], false),
        );
    }
    if let Some(forfeited) = result["forfeited"].as_array().filter(|f| !f.is_empty()) {
        let names: Vec<String> = forfeited
            .iter()
            .map(|s| table.who_in(language, s))
            .collect();
        more("result-forfeited", &and_list_in(language, &names));
    }
    match result["tie_break"].as_str() {
        Some("shared") => more("result-shared", ""),
        Some(tie) => {
            let said = match tie {
                "black_hats" | "cookie" => words(language, &format!("result-tie-{tie}"), &[]),
                other => other.replace('_', " "),
            };
            more("result-tie-break", &said);
        }
        None => {}
    }
    text
}
