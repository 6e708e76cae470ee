//! The server's words in English and French (docs/i18n.md): one Fluent
//! message file per language (`en.ftl`, `fr.ftl` beside this file, built
//! into the binary), read with `fluent-bundle`, Mozilla's reference
//! implementation of Fluent.
//!
//! Rules:
//! - Every message is in both files (a test fails on one missing from
//!   either), and every error code has a title in both.
//! - Only words change with the language: codes, ids and the API's field
//!   names stay the same.
//! - A user's language is their `language` setting (`/v1/me/settings`), else
//!   what the request's `Accept-Language` prefers among English and French,
//!   else English. An answer to a request (a problem's `title`) follows the
//!   request's `Accept-Language`; what goes out with no request (a push) is
//!   in the user's setting, else English.
//! - English problem titles are the ones the API always gave
//!   (`routes::problem::title`; a test holds the two together).

use std::collections::HashMap;
use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::ErrorCode;

/// A language the server speaks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// English (the default).
    #[default]
    En,
    /// French.
    Fr,
}

impl Language {
    /// Every language, English (the default) first.
    pub const ALL: [Language; 2] = [Language::En, Language::Fr];

    /// The language's code: `en`, `fr`.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Fr => "fr",
        }
    }

    /// The language of `code` (`en`, `fr`), or None for any other.
    #[must_use]
    pub fn from_code(code: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|l| l.code() == code)
    }

    /// The language an `Accept-Language` header prefers among those spoken
    /// (by its q-values, a region ignored: `fr-CA` is French), else English.
    #[must_use]
    pub fn negotiate(accept_language: &str) -> Language {
        let mut wanted: Vec<(f32, usize, &str)> = accept_language
            .split(',')
            .enumerate()
            .filter_map(|(order, part)| {
                let mut pieces = part.split(';');
                let tag = pieces.next()?.trim();
                let q = pieces
                    .find_map(|p| p.trim().strip_prefix("q="))
                    .map_or(Some(1.0), |q| q.trim().parse::<f32>().ok())?;
                (q > 0.0).then_some((q, order, tag))
            })
            .collect();
        wanted.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        wanted
            .into_iter()
            .find_map(|(_, _, tag)| {
                let base = tag.split(['-', '_']).next()?.to_ascii_lowercase();
                Language::from_code(&base)
            })
            .unwrap_or(Language::En)
    }

    /// A user's language: their setting, else the request's preference.
    #[must_use]
    pub fn of_user(setting: Option<Language>, accept_language: Option<&str>) -> Language {
        setting.unwrap_or_else(|| accept_language.map_or(Language::En, Language::negotiate))
    }

    /// The language's message files: the API's and pushes' words, the
    /// mails' frame, table and moves, and the narration of events.
    fn sources(self) -> [&'static str; 3] {
        match self {
            Language::En => [
                include_str!("en.ftl"),
                include_str!("mail-en.ftl"),
                include_str!("narration-en.ftl"),
            ],
            Language::Fr => [
                include_str!("fr.ftl"),
                include_str!("mail-fr.ftl"),
                include_str!("narration-fr.ftl"),
            ],
        }
    }
}

type Bundle = FluentBundle<FluentResource>;

static BUNDLES: LazyLock<HashMap<Language, Bundle>> = LazyLock::new(|| {
    Language::ALL
        .into_iter()
        .map(|language| (language, bundle(language)))
        .collect()
});

fn bundle(language: Language) -> Bundle {
    let mut bundle =
        FluentBundle::new_concurrent(vec![language.code().parse().expect("a language code")]);
    // Plain text (mails, pushes, JSON): no bidi isolation marks around
    // the values put in.
    bundle.set_use_isolating(false);
    for source in language.sources() {
        let resource = FluentResource::try_new(source.to_owned()).unwrap_or_else(|(_, errors)| {
            panic!("a {} file does not parse: {errors:?}", language.code())
        });
        bundle
            .add_resource(resource)
            .expect("every message is defined once");
    }
    bundle
}

/// The message `id` in `language`, its `{ $name }`s filled from `args`;
/// the English one where the language lacks it (the tests keep that from
/// happening), else the id itself.
#[must_use]
pub fn text(language: Language, id: &str, args: &[(&str, &str)]) -> String {
    let fluent_args = (!args.is_empty()).then(|| {
        let mut fluent_args = FluentArgs::new();
        for (name, value) in args {
            fluent_args.set(*name, *value);
        }
        fluent_args
    });
    for candidate in [language, Language::En] {
        let bundle = &BUNDLES[&candidate];
        if let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) {
            let mut errors = vec![];
            return bundle
                .format_pattern(pattern, fluent_args.as_ref(), &mut errors)
                .into_owned();
        }
    }
    id.to_owned()
}

/// The message `id` in `language`, filled from `args`, which may be
/// numbers (a plural chooses its form by them: French counts 0 and 1 as
/// singular) or words; as [`text`], the English one where the language
/// lacks it, else the id itself.
#[must_use]
pub fn words(language: Language, id: &str, args: &[(&str, Arg<'_>)]) -> String {
    let mut fluent_args = FluentArgs::new();
    for (name, value) in args {
        match value {
            Arg::Text(text) => fluent_args.set(*name, *text),
            Arg::Number(n) => fluent_args.set(*name, *n),
        }
    }
    for candidate in [language, Language::En] {
        let bundle = &BUNDLES[&candidate];
        if let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) {
            let mut errors = vec![];
            return bundle
                .format_pattern(pattern, Some(&fluent_args), &mut errors)
                .into_owned();
        }
    }
    id.to_owned()
}

/// A value put into a message by [`words`].
#[derive(Debug, Clone, Copy)]
pub enum Arg<'a> {
    /// Words, put in as they are.
    Text(&'a str),
    /// A number: written as digits, and chooses a plural's form.
    Number(i64),
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(text: &'a str) -> Self {
        Arg::Text(text)
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(text: &'a String) -> Self {
        Arg::Text(text)
    }
}

impl From<i64> for Arg<'_> {
    fn from(n: i64) -> Self {
        Arg::Number(n)
    }
}

/// The title of a problem of `code` in `language`.
#[must_use]
pub fn problem_title(language: Language, code: ErrorCode) -> &'static str {
    static TITLES: LazyLock<HashMap<(Language, ErrorCode), &'static str>> = LazyLock::new(|| {
        let mut titles = HashMap::new();
        for language in Language::ALL {
            for code in ErrorCode::ALL {
                let title = text(language, &format!("problem-{}", code.as_str()), &[]);
                titles.insert((language, *code), &*Box::leak(title.into_boxed_str()));
            }
        }
        titles
    });
    TITLES[&(language, code)]
}

/// The kinds of push notification, by their stable names (the push's
/// `kind`).
pub const PUSH_KINDS: [&str; 10] = [
    "your_turn",
    "takeback_offered",
    "invited",
    "game_finished",
    "timed_out",
    "deadline_soon",
    "talk",
    "seat_substituted",
    "tournament_round",
    "tournament_finished",
];

/// The short text of a push of `kind` (one of [`PUSH_KINDS`]) about a game
/// of `game` (the ruleset's display name, e.g. "Top Hats"), in `language`:
/// it names nothing a seat may not see.
#[must_use]
pub fn push_text(language: Language, kind: &str, game: &str) -> String {
    text(language, &format!("push-{kind}"), &[("game", game)])
}

tokio::task_local! {
    static REQUEST_LANGUAGE: Language;
}

/// The language of the request being answered (its `Accept-Language`), or
/// English outside one.
#[must_use]
pub fn request_language() -> Language {
    REQUEST_LANGUAGE
        .try_with(|language| *language)
        .unwrap_or(Language::En)
}

/// Runs `answer` (a request's handling) with `language` as its
/// [`request_language`].
pub async fn answering_in<F: std::future::Future>(language: Language, answer: F) -> F::Output {
    REQUEST_LANGUAGE.scope(language, answer).await
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// The ids of the messages of a Fluent file (a line `id = …` at the
    /// start), after checking that it parses.
    fn ids(sources: [&str; 3]) -> BTreeSet<String> {
        let mut found = BTreeSet::new();
        for source in sources {
            FluentResource::try_new(source.to_owned()).expect("parses");
            for id in source
                .lines()
                .filter(|line| line.starts_with(|c: char| c.is_ascii_alphabetic()))
                .filter_map(|line| Some(line.split_once('=')?.0.trim().to_owned()))
            {
                assert!(found.insert(id.clone()), "{id} is defined twice");
            }
        }
        found
    }

    #[test]
    fn every_server_message_is_in_english_and_in_french() {
        let english = ids(Language::En.sources());
        let french = ids(Language::Fr.sources());
        let only_english: Vec<_> = english.difference(&french).collect();
        let only_french: Vec<_> = french.difference(&english).collect();
        assert!(
            only_english.is_empty(),
            "missing in fr.ftl: {only_english:?}"
        );
        assert!(only_french.is_empty(), "missing in en.ftl: {only_french:?}");
        for code in ErrorCode::ALL {
            assert!(
                english.contains(&format!("problem-{}", code.as_str())),
                "no title for {code:?}"
            );
        }
        for kind in PUSH_KINDS {
            assert!(
                english.contains(&format!("push-{kind}")),
                "no push text for {kind}"
            );
        }
    }

    #[test]
    fn the_same_arguments_are_filled_in_both_languages() {
        for kind in PUSH_KINDS {
            for language in Language::ALL {
                let said = push_text(language, kind, "Top Hats");
                assert!(said.contains("Top Hats"), "{language:?} {kind}: {said}");
                assert!(!said.contains('{') && !said.contains('\u{2068}'), "{said}");
            }
        }
        assert_eq!(
            push_text(Language::En, "your_turn", "Hats"),
            "Your turn in Hats."
        );
        assert_eq!(
            push_text(Language::Fr, "your_turn", "Hats"),
            "À vous de jouer dans Hats."
        );
        assert_eq!(
            problem_title(Language::Fr, ErrorCode::NotFound),
            "Introuvable"
        );
    }

    #[test]
    fn accept_language_picks_the_first_language_spoken_by_its_q_values() {
        for (header, expected) in [
            ("fr-FR,fr;q=0.9,en;q=0.8", Language::Fr),
            ("de-DE, fr;q=0.5, en;q=0.7", Language::En),
            ("de, fr-CA;q=0.3", Language::Fr),
            ("en-GB", Language::En),
            ("*", Language::En),
            ("", Language::En),
            ("fr;q=0", Language::En),
            ("fr;q=nonsense", Language::En),
        ] {
            assert_eq!(Language::negotiate(header), expected, "{header}");
        }
        assert_eq!(
            Language::of_user(Some(Language::En), Some("fr")),
            Language::En
        );
        assert_eq!(Language::of_user(None, Some("fr")), Language::Fr);
        assert_eq!(Language::of_user(None, None), Language::En);
    }

    /// `{name}` placeholders of a web client message (a string, or plural
    /// forms).
    fn placeholders(value: &serde_json::Value) -> BTreeSet<String> {
        let mut found = BTreeSet::new();
        let texts: Vec<&str> = match value {
            serde_json::Value::String(s) => vec![s],
            serde_json::Value::Object(forms) => forms.values().filter_map(|v| v.as_str()).collect(),
            other => panic!("a message is a string or plural forms: {other}"),
        };
        for text in texts {
            let mut rest = text;
            while let Some(open) = rest.find('{') {
                let Some(close) = rest[open..].find('}') else {
                    break;
                };
                found.insert(rest[open + 1..open + close].to_owned());
                rest = &rest[open + close..];
            }
        }
        found
    }

    #[test]
    fn every_web_client_message_is_in_english_and_in_french_with_the_same_placeholders() {
        let read = |code: &str| -> serde_json::Map<String, serde_json::Value> {
            let path = format!("{}/web/i18n/{code}.json", env!("CARGO_MANIFEST_DIR"));
            serde_json::from_str(&std::fs::read_to_string(&path).expect(&path)).expect(&path)
        };
        let english = read("en");
        let french = read("fr");
        for (key, value) in &english {
            let other = french
                .get(key)
                .unwrap_or_else(|| panic!("{key} is missing in web/i18n/fr.json"));
            assert_eq!(placeholders(value), placeholders(other), "{key}");
        }
        for key in french.keys() {
            assert!(
                english.contains_key(key),
                "{key} is missing in web/i18n/en.json"
            );
        }
    }

    #[test]
    fn every_key_the_web_client_asks_for_is_in_its_messages() {
        let dir = format!("{}/web/js", env!("CARGO_MANIFEST_DIR"));
        let english: serde_json::Map<String, serde_json::Value> = serde_json::from_str(
            &std::fs::read_to_string(format!("{}/web/i18n/en.json", env!("CARGO_MANIFEST_DIR")))
                .unwrap(),
        )
        .unwrap();
        let mut files = vec![std::path::PathBuf::from(&dir)];
        let mut asked = 0;
        while let Some(path) = files.pop() {
            if path.is_dir() {
                files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
                continue;
            }
            if path.extension().is_none_or(|e| e != "js") {
                continue;
            }
            let source = std::fs::read_to_string(&path).unwrap();
            for (at, _) in source.match_indices("t('") {
                let before = source[..at].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
                    continue; // another function ending in t, e.g. `alert('`
                }
                let key = &source[at + 3..];
                let key = &key[..key.find('\'').unwrap()];
                assert!(
                    english.contains_key(key),
                    "{}: t('{key}') is not in web/i18n/en.json",
                    path.display()
                );
                asked += 1;
            }
        }
        assert!(asked > 50, "only {asked} messages asked for");
    }
}
