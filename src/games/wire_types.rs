//! The engines' wire types as the OpenAPI document names them. The schemas
//! come from the engine's own types (its `schema` feature), so the document
//! cannot drift from what the engines read and write; the types here only
//! join the four rulesets' schemas into one.
//!
//! Each join is `anyOf`, not `oneOf`: the game's `ruleset` says which
//! ruleset's schema applies, and a value can fit two rulesets alike
//! (`{"type": "play", "card": "10C"}` is a Goathead and a Hat Trick command).
//! Their examples are in `wire_examples`.

use std::borrow::Cow;

use hatstand_engine::GameResult;
use hatstand_engine::goathead::{
    GoatheadCommand, GoatheadEventView, GoatheadOptions, GoatheadRound, GoatheadView,
};
use hatstand_engine::hat_trick::{
    HatTrickCommand, HatTrickEventView, HatTrickOptions, HatTrickView, RoundResult,
};
use hatstand_engine::hats::{HatsCommand, HatsEventView, HatsOptions, HatsRound, HatsView};
use hatstand_engine::top_hats::{
    Command as TopHatsCommand, EventView as TopHatsEventView, Options as TopHatsOptions,
    Round as TopHatsRound, View as TopHatsView,
};
use utoipa::openapi::schema::{AnyOfBuilder, Object, ObjectBuilder, Schema, Type};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

use super::clock::ServerOptions;
use crate::record::server_event::{ForfeitResult, ServerEvent};

/// The schemas a document-only type brings along.
type Schemas = Vec<(String, RefOr<Schema>)>;

/// Declares unit types that exist for the document only: each one's
/// schema, named `$name`, is what `$schema` builds, and `$schemas`
/// registers the schemas it refers to.
macro_rules! doc_schema {
    ($($(#[$doc:meta])* $t:ident = $name:literal, $schema:expr, $schemas:expr;)+) => {
        $(
            $(#[$doc])*
            pub struct $t;

            impl PartialSchema for $t {
                fn schema() -> RefOr<Schema> {
                    $schema
                }
            }

            impl ToSchema for $t {
                fn name() -> Cow<'static, str> {
                    Cow::Borrowed($name)
                }

                fn schemas(schemas: &mut Schemas) {
                    let register: fn(&mut Schemas) = $schemas;
                    register(schemas);
                }
            }
        )+
    };
}

/// Registers `T`'s schema and those it refers to.
fn register<T: ToSchema>(schemas: &mut Schemas) {
    schemas.push((T::name().into_owned(), T::schema()));
    T::schemas(schemas);
}

/// `anyOf` the schemas `names` (and `null` when `nullable`).
fn any_of(names: &[Cow<'static, str>], nullable: bool, description: &str) -> RefOr<Schema> {
    let mut any = AnyOfBuilder::new().description(Some(description));
    for name in names {
        any = any.item(Ref::from_schema_name(name.clone()));
    }
    if nullable {
        any = any.item(ObjectBuilder::new().schema_type(Type::Null));
    }
    any.into()
}

/// Declares a unit type whose schema, named `$name`, is `anyOf` the
/// schemas `$each` (the four rulesets', and `null` when `$nullable`).
macro_rules! any_ruleset {
    ($(#[$doc:meta])* $t:ident = $name:literal, $nullable:literal, [$($each:ty),+], $description:literal) => {
        doc_schema! {
            $(#[$doc])* $t = $name,
            any_of(&[$(<$each as ToSchema>::name()),+], $nullable, $description),
            |schemas| { $(register::<$each>(schemas);)+ };
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

/// One ruleset's `GameResult`, its rounds of `R`.
fn result_schema<R: ToSchema>() -> RefOr<Schema> {
    <GameResult<R> as PartialSchema>::schema()
}

fn result_schemas<R: ToSchema>(schemas: &mut Schemas) {
    register::<R>(schemas);
    <GameResult<R> as ToSchema>::schemas(schemas);
}

doc_schema! {
    /// A finished Hats game's result.
    HatsResult = "HatsResult", result_schema::<HatsRound>(), result_schemas::<HatsRound>;
    /// A finished Goathead game's result.
    GoatheadResult = "GoatheadResult", result_schema::<GoatheadRound>(), result_schemas::<GoatheadRound>;
    /// A finished Hat Trick game's result.
    HatTrickResult = "HatTrickResult", result_schema::<RoundResult>(), result_schemas::<RoundResult>;
    /// A finished Top Hats game's result.
    TopHatsResult = "TopHatsResult", result_schema::<TopHatsRound>(), result_schemas::<TopHatsRound>;
}

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

/// Any of `schemas`, or `null` (`anyOf`: a schema may allow `null` already).
pub(crate) fn any_or_null(schemas: impl IntoIterator<Item = RefOr<Schema>>) -> RefOr<Schema> {
    let mut any = AnyOfBuilder::new();
    for schema in schemas {
        any = any.item(schema);
    }
    any.item(ObjectBuilder::new().schema_type(Type::Null))
        .into()
}

/// One ruleset's game options as one object: the engine's options
/// (`options`), the server's (`ServerOptions`: the clock), and `seed`; a
/// game shows `explicit_deals` where it was created with `deals`.
fn merged_options(options: RefOr<Schema>, ruleset: &str) -> RefOr<Schema> {
    let mut merged = properties(options);
    merged.required.clear();
    // The server's options may also be sent as `null`: absent.
    for (name, property) in properties(ServerOptions::schema()).properties {
        merged.properties.insert(name, any_or_null([property]));
    }
    let seed = ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(1))
        .max_length(Some(256))
        .description(Some(
            "A public seed: every shuffle of the game can then be reproduced. Shown only \
             when it was given.",
        ));
    let explicit_deals = ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(0))
        .read_only(true)
        .description(Some(
            "How many explicit `deals` the game was created with (the deals themselves are \
             never shown).",
        ));
    merged
        .properties
        .insert("seed".to_owned(), any_or_null([seed.into()]));
    merged
        .properties
        .insert("explicit_deals".to_owned(), explicit_deals.into());
    merged.description = Some(format!(
        "The options of a {ruleset} game: the ruleset's, the clock's and `seed`. Every one \
         has a default."
    ));
    RefOr::T(Schema::Object(merged))
}

/// What one ruleset's game options refer to: the engine's options' and
/// the server's schemas.
fn options_schemas<O: ToSchema>(schemas: &mut Schemas) {
    O::schemas(schemas);
    ServerOptions::schemas(schemas);
}

doc_schema! {
    /// A Hats game's options.
    HatsGameOptions = "HatsGameOptions", merged_options(HatsOptions::schema(), "Hats"), options_schemas::<HatsOptions>;
    /// A Goathead game's options.
    GoatheadGameOptions = "GoatheadGameOptions", merged_options(GoatheadOptions::schema(), "Goathead"), options_schemas::<GoatheadOptions>;
    /// A Hat Trick game's options.
    HatTrickGameOptions = "HatTrickGameOptions", merged_options(HatTrickOptions::schema(), "Hat Trick"), options_schemas::<HatTrickOptions>;
    /// A Top Hats game's options.
    TopHatsGameOptions = "TopHatsGameOptions", merged_options(TopHatsOptions::schema(), "Top Hats"), options_schemas::<TopHatsOptions>;
}

any_ruleset! {
    /// The document's `GameOptions`.
    AnyOptions = "GameOptions", false,
    [HatsGameOptions, GoatheadGameOptions, HatTrickGameOptions, TopHatsGameOptions],
    "The options of a game of the game's ruleset (`ruleset`): `HatsGameOptions`, \
     `GoatheadGameOptions`, `HatTrickGameOptions` or `TopHatsGameOptions`."
}
