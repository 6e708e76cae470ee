//! The engines' wire types as the OpenAPI document names them. The schemas
//! come from the engine's own types (its `schema` feature), so the document
//! cannot drift from what the engines read and write; the types here only
//! join them.

use std::borrow::Cow;

use hatstand_engine::goathead::GoatheadCommand;
use hatstand_engine::hat_trick::HatTrickCommand;
use hatstand_engine::hats::HatsCommand;
use hatstand_engine::top_hats::Command as TopHatsCommand;
use utoipa::openapi::schema::{AnyOfBuilder, Schema};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

/// The document's `Command`: a command of one ruleset, the game's `ruleset`
/// says which. It is `anyOf`, not `oneOf`: the same command can be written
/// alike in two rulesets (`{"type": "play", "card": "10C"}` is a Goathead
/// and a Hat Trick command), and each ruleset's own schema (`HatsCommand`,
/// …) tells its commands apart by `type`.
pub struct AnyCommand;

/// Registers `T` and the schemas it refers to.
fn register<T: ToSchema>(schemas: &mut Vec<(String, RefOr<Schema>)>) {
    schemas.push((T::name().into_owned(), T::schema()));
    T::schemas(schemas);
}

impl PartialSchema for AnyCommand {
    fn schema() -> RefOr<Schema> {
        let of = |name: Cow<'static, str>| Ref::from_schema_name(name);
        AnyOfBuilder::new()
            .item(of(HatsCommand::name()))
            .item(of(GoatheadCommand::name()))
            .item(of(HatTrickCommand::name()))
            .item(of(TopHatsCommand::name()))
            .description(Some(
                "A command of the game's ruleset (`ruleset`): a `HatsCommand`, \
                 `GoatheadCommand`, `HatTrickCommand` or `TopHatsCommand`.",
            ))
            .into()
    }
}

impl ToSchema for AnyCommand {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Command")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        register::<HatsCommand>(schemas);
        register::<GoatheadCommand>(schemas);
        register::<HatTrickCommand>(schemas);
        register::<TopHatsCommand>(schemas);
    }
}
