//! The engines' wire types as the OpenAPI document names them. The schemas
//! come from the engine's own types (its `schema` feature), so the document
//! cannot drift from what the engines read and write; the types here only
//! join the four rulesets' schemas into one.
//!
//! Each join is `anyOf`, not `oneOf`: the game's `ruleset` says which
//! ruleset's schema applies, and a value can fit two rulesets alike
//! (`{"type": "play", "card": "10C"}` is a Goathead and a Hat Trick command).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::LazyLock;

use hatstand_engine::goathead::Goathead;
use hatstand_engine::goathead::{
    GoatheadCommand, GoatheadEventView, GoatheadOptions, GoatheadRound, GoatheadView,
};
use hatstand_engine::hat_trick::HatTrick;
use hatstand_engine::hat_trick::{
    HatTrickCommand, HatTrickEventView, HatTrickOptions, HatTrickView, RoundResult,
};
use hatstand_engine::hats::Hats;
use hatstand_engine::hats::{HatsCommand, HatsEventView, HatsOptions, HatsRound, HatsView};
use hatstand_engine::top_hats::TopHats;
use hatstand_engine::top_hats::{
    Command as TopHatsCommand, EventView as TopHatsEventView, Options as TopHatsOptions,
    Round as TopHatsRound, View as TopHatsView,
};
use hatstand_engine::{GameResult, Randomness, Ruleset, Viewer, apply_all, seat};
use serde::Serialize;
use serde_json::Value;

use super::clock::ServerOptions;

use crate::record::server_event::{ForfeitResult, ServerEvent};
use utoipa::openapi::schema::{AnyOfBuilder, Object, ObjectBuilder, Schema, Type};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

/// Declares a unit type whose schema, named `$name`, is `anyOf` the
/// schemas `$each` (the four rulesets', and `null` when `$nullable`).
macro_rules! any_ruleset {
    ($(#[$doc:meta])* $t:ident = $name:literal, $nullable:literal, [$($each:ty),+], $description:literal) => {
        $(#[$doc])*
        pub struct $t;

        impl PartialSchema for $t {
            fn schema() -> RefOr<Schema> {
                let mut any = AnyOfBuilder::new().description(Some($description));
                $(any = any.item(Ref::from_schema_name(<$each as ToSchema>::name()));)+
                if $nullable {
                    any = any.item(ObjectBuilder::new().schema_type(Type::Null));
                }
                any.into()
            }
        }

        impl ToSchema for $t {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed($name)
            }

            fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
                $(
                    schemas.push((<$each as ToSchema>::name().into_owned(), <$each as PartialSchema>::schema()));
                    <$each as ToSchema>::schemas(schemas);
                )+
            }
        }
    };
}

any_ruleset! {
    /// The document's `Command`, for `legal_commands` and the command sent.
    AnyCommand = "Command", false,
    [HatsCommand, GoatheadCommand, HatTrickCommand, TopHatsCommand],
    "A command of the game's ruleset (`ruleset`): a `HatsCommand`, `GoatheadCommand`, \
     `HatTrickCommand` or `TopHatsCommand`."
}

any_ruleset! {
    /// The document's `View`: the table as one viewer may see it.
    AnyView = "View", true,
    [HatsView, GoatheadView, HatTrickView, TopHatsView],
    "The table as this viewer may see it, in the game's ruleset (`ruleset`): a `HatsView`, \
     `GoatheadView`, `HatTrickView` or `TopHatsView`; `null` until the game starts."
}

any_ruleset! {
    /// The document's `EventOut`: an event as a viewer sees it.
    AnyEvent = "EventOut", false,
    [ServerEvent, HatsEventView, GoatheadEventView, HatTrickEventView, TopHatsEventView],
    "An event as this viewer may see it: its `seq` and `at`, and the `type` and `data` of one \
     of the server's own events (`ServerEvent`: created, joined, started, timed out, ...) or \
     of the game's ruleset (`HatsEventView`, `GoatheadEventView`, `HatTrickEventView`, \
     `TopHatsEventView`)."
}

/// Declares a unit type whose schema, named `$name`, is one ruleset's
/// `GameResult` (its rounds of `$round`).
macro_rules! result_of {
    ($(#[$doc:meta])* $t:ident = $name:literal, $round:ty) => {
        $(#[$doc])*
        pub struct $t;

        impl PartialSchema for $t {
            fn schema() -> RefOr<Schema> {
                <GameResult<$round> as PartialSchema>::schema()
            }
        }

        impl ToSchema for $t {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed($name)
            }

            fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
                schemas.push((<$round as ToSchema>::name().into_owned(), <$round as PartialSchema>::schema()));
                <$round as ToSchema>::schemas(schemas);
                <GameResult<$round> as ToSchema>::schemas(schemas);
            }
        }
    };
}

result_of!(
    /// A finished Hats game's result.
    HatsResult = "HatsResult", HatsRound
);
result_of!(
    /// A finished Goathead game's result.
    GoatheadResult = "GoatheadResult", GoatheadRound
);
result_of!(
    /// A finished Hat Trick game's result.
    HatTrickResult = "HatTrickResult", RoundResult
);
result_of!(
    /// A finished Top Hats game's result.
    TopHatsResult = "TopHatsResult", TopHatsRound
);

any_ruleset! {
    /// The document's `GameResult`: how a finished game ended.
    AnyResult = "GameResult", true,
    [HatsResult, GoatheadResult, HatTrickResult, TopHatsResult, ForfeitResult],
    "How the game ended: the result of its ruleset (`HatsResult`, `GoatheadResult`, \
     `HatTrickResult`, `TopHatsResult`), or a `ForfeitResult` when every seat but one went \
     out; `null` until it is over."
}

/// The properties of an object schema (none for anything else).
fn properties(schema: RefOr<Schema>) -> Object {
    match schema {
        RefOr::T(Schema::Object(object)) => object,
        _ => Object::new(),
    }
}

/// `schema`, or `null` (`anyOf`: `schema` may allow `null` already).
fn or_null(schema: RefOr<Schema>) -> RefOr<Schema> {
    AnyOfBuilder::new()
        .item(schema)
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .into()
}

/// One ruleset's game options as one object: the engine's options
/// (`$options`), the server's (`ServerOptions`: the clock), and `seed`;
/// a game shows `explicit_deals` where it was created with `deals`.
macro_rules! options_of {
    ($(#[$doc:meta])* $t:ident = $name:literal, $options:ty) => {
        $(#[$doc])*
        pub struct $t;

        impl PartialSchema for $t {
            fn schema() -> RefOr<Schema> {
                let mut merged = properties(<$options as PartialSchema>::schema());
                merged.required.clear();
                // The server's options may also be sent as `null`: absent.
                for (name, property) in properties(ServerOptions::schema()).properties {
                    merged.properties.insert(name, or_null(property));
                }
                let seed = ObjectBuilder::new()
                    .schema_type(Type::String)
                    .min_length(Some(1))
                    .max_length(Some(256))
                    .description(Some(
                        "A public seed: every shuffle of the game can then be reproduced. \
                         Shown only when it was given.",
                    ));
                let explicit_deals = ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(0))
                    .read_only(true)
                    .description(Some(
                        "How many explicit `deals` the game was created with (the deals \
                         themselves are never shown).",
                    ));
                merged.properties.insert("seed".to_owned(), or_null(seed.into()));
                merged.properties.insert("explicit_deals".to_owned(), explicit_deals.into());
                merged.description = Some(format!(
                    "The options of a {} game: the ruleset's, the clock's and `seed`. Every one \
                     has a default.",
                    $name.trim_end_matches("GameOptions")
                ));
                RefOr::T(Schema::Object(merged))
            }
        }

        impl ToSchema for $t {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed($name)
            }

            fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
                <$options as ToSchema>::schemas(schemas);
                <ServerOptions as ToSchema>::schemas(schemas);
            }
        }
    };
}

options_of!(
    /// A Hats game's options.
    HatsGameOptions = "HatsGameOptions", HatsOptions
);
options_of!(
    /// A Goathead game's options.
    GoatheadGameOptions = "GoatheadGameOptions", GoatheadOptions
);
options_of!(
    /// A Hat Trick game's options.
    HatTrickGameOptions = "HatTrickGameOptions", HatTrickOptions
);
options_of!(
    /// A Top Hats game's options.
    TopHatsGameOptions = "TopHatsGameOptions", TopHatsOptions
);

any_ruleset! {
    /// The document's `GameOptions`.
    AnyOptions = "GameOptions", false,
    [HatsGameOptions, GoatheadGameOptions, HatTrickGameOptions, TopHatsGameOptions],
    "The options of a game of the game's ruleset (`ruleset`): `HatsGameOptions`, \
     `GoatheadGameOptions`, `HatTrickGameOptions` or `TopHatsGameOptions`."
}

/// Real values of the engines' wire types, keyed by the schema that names
/// them, for the document's examples: from seeded random games of each
/// ruleset at every table size, the first legal command of each type, the
/// first event of each type as seat 0 sees it (with a `seq` and an `at`),
/// seat 0's view a few turns in, a result and the default options. Being
/// the engines' own output, they cannot drift from the schemas. Computed
/// once.
#[must_use]
pub fn examples() -> &'static BTreeMap<String, Value> {
    static EXAMPLES: LazyLock<BTreeMap<String, Value>> = LazyLock::new(|| {
        let mut examples = BTreeMap::new();
        examples_of::<Hats>("Hats", &mut examples);
        examples_of::<Goathead>("Goathead", &mut examples);
        examples_of::<HatTrick>("HatTrick", &mut examples);
        examples_of::<TopHats>("TopHats", &mut examples);
        examples
    });
    &EXAMPLES
}

/// `snake_case` as `CamelCase`.
fn camel(snake: &str) -> String {
    snake
        .split('_')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_uppercase().chain(chars).collect()
            })
        })
        .collect()
}

fn examples_of<R: Ruleset>(prefix: &str, examples: &mut BTreeMap<String, Value>) {
    let seat0 = Viewer::Seat(seat(0));
    for players in R::MIN_PLAYERS..=R::MAX_PLAYERS {
        for game in 0..3_u64 {
            let randomness = Randomness::from_seed(&format!("openapi-examples-{game}"));
            let Ok(mut state) = R::new_game(players, R::Options::default()) else {
                continue;
            };
            let mut events = R::start(&state, &randomness);
            let mut seq = 0_usize;
            for turn in 0..5_000_usize {
                for event in &events {
                    seq += 1;
                    let mut shown = json(&R::redact(event, seat0));
                    let kind = shown["type"].as_str().unwrap_or_default().to_owned();
                    shown["seq"] = seq.into();
                    shown["at"] = "2026-11-25T10:00:00.000000Z".into();
                    let name = match prefix {
                        // Top Hats shows these two only redacted (`HiddenEvent`).
                        "TopHats" if matches!(kind.as_str(), "stack_built" | "position_set") => {
                            format!("TopHatsHiddenEvent{}", camel(&kind))
                        }
                        "TopHats" => format!("TopHatsEvent{}", camel(&kind)),
                        _ => format!("{prefix}EventView{}", camel(&kind)),
                    };
                    examples.entry(name).or_insert(shown);
                }
                apply_all::<R>(&mut state, &events);
                if turn == 6 {
                    examples
                        .entry(format!("{prefix}View"))
                        .or_insert_with(|| json(&R::view(&state, seat0)));
                }
                let to_act = R::to_act(&state);
                let Some(&actor) = to_act.get(turn % to_act.len().max(1)) else {
                    break;
                };
                let legal = R::legal_commands(&state, actor);
                for command in &legal {
                    let command = json(command);
                    let kind = command["type"].as_str().unwrap_or_default().to_owned();
                    examples
                        .entry(format!("{prefix}Command{}", camel(&kind)))
                        .or_insert(command);
                }
                // A different choice each turn and game, the same every run.
                let pick = (turn * 7 + usize::try_from(game).unwrap_or(0) * 3) % legal.len().max(1);
                let Some(command) = legal.get(pick) else {
                    break;
                };
                let Ok(next) = R::decide(&state, actor, command, &randomness) else {
                    break;
                };
                events = next;
            }
            if let Some(result) = R::result(&state) {
                examples
                    .entry(format!("{prefix}Result"))
                    .or_insert_with(|| json(&result));
            }
        }
    }
    examples.insert(format!("{prefix}GameOptions"), json(&R::Options::default()));
}

/// An engine value as JSON (engine values always serialize).
fn json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or_default()
}
