//! The engines' wire types as the OpenAPI document names them. The schemas
//! come from the engine's own types (its `schema` feature), so the document
//! cannot drift from what the engines read and write; the types here only
//! join the four rulesets' schemas into one.
//!
//! Each join is `anyOf`, not `oneOf`: the game's `ruleset` says which
//! ruleset's schema applies, and a value can fit two rulesets alike
//! (`{"type": "play", "card": "10C"}` is a Goathead and a Hat Trick command).

use std::borrow::Cow;

use hatstand_engine::GameResult;
use hatstand_engine::goathead::{GoatheadCommand, GoatheadEventView, GoatheadRound, GoatheadView};
use hatstand_engine::hat_trick::{HatTrickCommand, HatTrickEventView, HatTrickView, RoundResult};
use hatstand_engine::hats::{HatsCommand, HatsEventView, HatsRound, HatsView};
use hatstand_engine::top_hats::{
    Command as TopHatsCommand, EventView as TopHatsEventView, Round as TopHatsRound,
    View as TopHatsView,
};

use crate::record::server_event::{ForfeitResult, ServerEvent};
use utoipa::openapi::schema::{AnyOfBuilder, ObjectBuilder, Schema, Type};
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
