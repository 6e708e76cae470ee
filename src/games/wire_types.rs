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
    GoatheadCommand, GoatheadEvent, GoatheadEventView, GoatheadOptions, GoatheadRound,
    GoatheadState, GoatheadView,
};
use hatstand_engine::hat_trick::events::HatTrickEvent;
use hatstand_engine::hat_trick::{
    HatTrickCommand, HatTrickEventView, HatTrickOptions, HatTrickState, HatTrickView, RoundResult,
};
use hatstand_engine::hats::{
    HatsCommand, HatsEvent, HatsEventView, HatsOptions, HatsRound, HatsState, HatsView,
};
use hatstand_engine::top_hats::{
    Command as TopHatsCommand, Event as TopHatsEvent, EventView as TopHatsEventView,
    Options as TopHatsOptions, Round as TopHatsRound, State as TopHatsState, View as TopHatsView,
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

/// `explicit_deals`, as a game shows its options.
fn explicit_deals() -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(0))
        .read_only(true)
        .description(Some(
            "How many explicit `deals` the game was created with (the deals themselves are \
             never shown to players).",
        ))
        .into()
}

/// One ruleset's game options as one object: the engine's options
/// (`options`), the server's (`ServerOptions`: the clock), and `seed`.
fn merged_options(options: RefOr<Schema>) -> Object {
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
    merged
        .properties
        .insert("seed".to_owned(), any_or_null([seed.into()]));
    merged
}

/// One ruleset's game options as a client sends them (`merged_options`).
///
/// The engine's defaults are stated in each option's description rather
/// than as `default`: generators read a `default` as a value the server
/// always fills in (openapi-typescript makes such a field required), which
/// is true of a game's options as shown (`shown_options`) but not of those
/// a client sends.
fn sent_options(options: RefOr<Schema>, ruleset: &str) -> RefOr<Schema> {
    let mut sent = merged_options(options);
    for property in sent.properties.values_mut() {
        described_default(property);
    }
    sent.description = Some(format!(
        "The options of a {ruleset} game as they are sent: the ruleset's, the clock's and \
         `seed`. Every one has a default."
    ));
    RefOr::T(Schema::Object(sent))
}

/// Moves `schema`'s `default` into its description (`Default: 0.`).
fn described_default(schema: &mut RefOr<Schema>) {
    if let RefOr::Ref(reference) = schema {
        if let Some(value) = reference.default.take() {
            let said = reference.description.trim_end().to_owned();
            let sep = if said.is_empty() { "" } else { " " };
            reference.description = format!("{said}{sep}Default: `{value}`.");
        }
        return;
    }
    let (default, description) = match schema {
        RefOr::T(Schema::Object(o)) => (&mut o.default, &mut o.description),
        RefOr::T(Schema::Array(a)) => (&mut a.default, &mut a.description),
        RefOr::T(Schema::OneOf(o)) => (&mut o.default, &mut o.description),
        RefOr::T(Schema::AnyOf(a)) => (&mut a.default, &mut a.description),
        _ => return,
    };
    if let Some(value) = default.take() {
        let said = description.take().unwrap_or_default();
        let said = said.trim_end();
        let sep = if said.is_empty() { "" } else { " " };
        *description = Some(format!("{said}{sep}Default: `{value}`."));
    }
}

/// One ruleset's game options as a game shows them: as sent, with every
/// default filled in, and `explicit_deals` (a count) for `deals`.
fn shown_options(options: RefOr<Schema>, ruleset: &str) -> RefOr<Schema> {
    let mut shown = merged_options(options);
    shown.properties.remove("deals");
    shown
        .properties
        .insert("explicit_deals".to_owned(), explicit_deals());
    shown.description = Some(format!(
        "The options of a {ruleset} game as it shows them: the ruleset's, the clock's and \
         `seed` (when it is public), every default filled in; explicit `deals` only counted \
         (`explicit_deals`)."
    ));
    RefOr::T(Schema::Object(shown))
}

/// One ruleset's options as its `game_created` event records them: the
/// ruleset's own, every default filled in; the audit shows the explicit
/// `deals`, the feed only their number (`explicit_deals`).
fn created_options(options: RefOr<Schema>, ruleset: &str) -> RefOr<Schema> {
    let mut created = properties(options);
    // The feed leaves `deals` out.
    created.required.retain(|name| name != "deals");
    if let Some(deals) = created.properties.get_mut("deals") {
        described_default(deals);
    }
    created
        .properties
        .insert("explicit_deals".to_owned(), explicit_deals());
    created.description = Some(format!(
        "The ruleset's options of a {ruleset} game as its `game_created` event records them: \
         every default filled in; the audit shows the explicit `deals`, the feed and streams \
         their number (`explicit_deals`)."
    ));
    RefOr::T(Schema::Object(created))
}

/// What one ruleset's game options refer to: the engine's options' and
/// the server's schemas.
fn options_schemas<O: ToSchema>(schemas: &mut Schemas) {
    O::schemas(schemas);
    ServerOptions::schemas(schemas);
}

doc_schema! {
    /// A Hats game's options, as sent.
    HatsGameOptions = "HatsGameOptions", sent_options(HatsOptions::schema(), "Hats"), options_schemas::<HatsOptions>;
    /// A Goathead game's options, as sent.
    GoatheadGameOptions = "GoatheadGameOptions", sent_options(GoatheadOptions::schema(), "Goathead"), options_schemas::<GoatheadOptions>;
    /// A Hat Trick game's options, as sent.
    HatTrickGameOptions = "HatTrickGameOptions", sent_options(HatTrickOptions::schema(), "Hat Trick"), options_schemas::<HatTrickOptions>;
    /// A Top Hats game's options, as sent.
    TopHatsGameOptions = "TopHatsGameOptions", sent_options(TopHatsOptions::schema(), "Top Hats"), options_schemas::<TopHatsOptions>;
    /// A Hats game's options, as shown.
    HatsGameOptionsOut = "HatsGameOptionsOut", shown_options(HatsOptions::schema(), "Hats"), options_schemas::<HatsOptions>;
    /// A Goathead game's options, as shown.
    GoatheadGameOptionsOut = "GoatheadGameOptionsOut", shown_options(GoatheadOptions::schema(), "Goathead"), options_schemas::<GoatheadOptions>;
    /// A Hat Trick game's options, as shown.
    HatTrickGameOptionsOut = "HatTrickGameOptionsOut", shown_options(HatTrickOptions::schema(), "Hat Trick"), options_schemas::<HatTrickOptions>;
    /// A Top Hats game's options, as shown.
    TopHatsGameOptionsOut = "TopHatsGameOptionsOut", shown_options(TopHatsOptions::schema(), "Top Hats"), options_schemas::<TopHatsOptions>;
    /// A Hats game's options, as `game_created` records them.
    HatsCreatedOptions = "HatsCreatedOptions", created_options(HatsOptions::schema(), "Hats"), options_schemas::<HatsOptions>;
    /// A Goathead game's options, as `game_created` records them.
    GoatheadCreatedOptions = "GoatheadCreatedOptions", created_options(GoatheadOptions::schema(), "Goathead"), options_schemas::<GoatheadOptions>;
    /// A Hat Trick game's options, as `game_created` records them.
    HatTrickCreatedOptions = "HatTrickCreatedOptions", created_options(HatTrickOptions::schema(), "Hat Trick"), options_schemas::<HatTrickOptions>;
    /// A Top Hats game's options, as `game_created` records them.
    TopHatsCreatedOptions = "TopHatsCreatedOptions", created_options(TopHatsOptions::schema(), "Top Hats"), options_schemas::<TopHatsOptions>;
}

/// The schemas only the document's modifiers refer to (`openapi`): each
/// ruleset's options as shown and as `game_created` records them, its
/// unredacted events and its state (the audit's), and the server's options.
#[must_use]
pub fn document_only() -> Schemas {
    let mut schemas = Vec::new();
    register::<HatsGameOptionsOut>(&mut schemas);
    register::<GoatheadGameOptionsOut>(&mut schemas);
    register::<HatTrickGameOptionsOut>(&mut schemas);
    register::<TopHatsGameOptionsOut>(&mut schemas);
    register::<HatsCreatedOptions>(&mut schemas);
    register::<GoatheadCreatedOptions>(&mut schemas);
    register::<HatTrickCreatedOptions>(&mut schemas);
    register::<TopHatsCreatedOptions>(&mut schemas);
    register::<HatsEvent>(&mut schemas);
    register::<GoatheadEvent>(&mut schemas);
    register::<HatTrickEvent>(&mut schemas);
    register::<TopHatsEvent>(&mut schemas);
    register::<HatsState>(&mut schemas);
    register::<GoatheadState>(&mut schemas);
    register::<HatTrickState>(&mut schemas);
    register::<TopHatsState>(&mut schemas);
    register::<ServerOptions>(&mut schemas);
    schemas
}

any_ruleset! {
    /// The document's `GameOptions`.
    AnyOptions = "GameOptions", false,
    [HatsGameOptions, GoatheadGameOptions, HatTrickGameOptions, TopHatsGameOptions],
    "The options of a game of the game's ruleset (`ruleset`): `HatsGameOptions`, \
     `GoatheadGameOptions`, `HatTrickGameOptions` or `TopHatsGameOptions`."
}
