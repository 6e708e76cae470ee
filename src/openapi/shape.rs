//! Small tools the document's modifiers share: references, one-value
//! enums, discriminated unions, the members of a union.

use std::collections::BTreeMap;

use utoipa::openapi::schema::{Discriminator, Object, ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::openapi::{Components, Ref, RefOr};

/// (ruleset id, schema prefix) of every ruleset, as `/v1/rulesets` lists them.
pub(super) const RULESETS: [(&str, &str); 4] = [
    ("hats", "Hats"),
    ("goathead", "Goathead"),
    ("top-hats", "TopHats"),
    ("hat-trick", "HatTrick"),
];

/// A reference to the component `name`.
pub(super) fn of(name: &str) -> RefOr<Schema> {
    RefOr::Ref(Ref::from_schema_name(name))
}

/// A string that can only be `value`: a discriminator's value in a variant.
pub(super) fn only(value: &str, description: Option<String>) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some([value]))
        .description(description)
        .into()
}

/// A copy of the object component `name`, if it is one.
pub(super) fn object(components: &Components, name: &str) -> Option<Object> {
    match components.schemas.get(name) {
        Some(RefOr::T(Schema::Object(object))) => Some(object.clone()),
        _ => None,
    }
}

/// The description of `object`'s property `name`, wherever it is kept.
pub(super) fn described(object: &Object, name: &str) -> Option<String> {
    match object.properties.get(name)? {
        RefOr::T(Schema::Object(o)) => o.description.clone(),
        RefOr::T(Schema::AnyOf(a)) => a.description.clone(),
        RefOr::T(Schema::OneOf(o)) => o.description.clone(),
        RefOr::T(Schema::Array(a)) => a.description.clone(),
        RefOr::Ref(r) => Some(r.description.clone()).filter(|d| !d.is_empty()),
        _ => None,
    }
}

/// `schema` with `description` (kept as it is where it has no place for one).
pub(super) fn with_description(
    mut schema: RefOr<Schema>,
    description: Option<String>,
) -> RefOr<Schema> {
    let Some(description) = description else {
        return schema;
    };
    match &mut schema {
        RefOr::Ref(r) => r.description = description,
        RefOr::T(Schema::Object(o)) => o.description = Some(description),
        RefOr::T(Schema::AnyOf(a)) => a.description = Some(description),
        RefOr::T(Schema::OneOf(o)) => o.description = Some(description),
        RefOr::T(Schema::Array(a)) => a.description = Some(description),
        _ => {}
    }
    schema
}

/// The one value of `object`'s property `field`, if it has exactly one.
pub(super) fn tag(object: &Object, field: &str) -> Option<String> {
    let RefOr::T(Schema::Object(property)) = object.properties.get(field)? else {
        return None;
    };
    match property.enum_values.as_deref()? {
        [serde_json::Value::String(tag)] => Some(tag.clone()),
        _ => None,
    }
}

/// The names of the components `schema` joins (`anyOf`/`oneOf` of refs).
pub(super) fn members(schema: &RefOr<Schema>) -> Vec<String> {
    let items = match schema {
        RefOr::T(Schema::AnyOf(any)) => &any.items,
        RefOr::T(Schema::OneOf(one)) => &one.items,
        _ => return Vec::new(),
    };
    items
        .iter()
        .filter_map(|item| match item {
            RefOr::Ref(r) => r.ref_location.rsplit('/').next().map(str::to_owned),
            RefOr::T(_) => None,
        })
        .collect()
}

/// The object variants a union component joins, through unions of unions,
/// in order.
pub(super) fn variants(components: &Components, union: &str) -> Vec<String> {
    let mut found = Vec::new();
    let Some(schema) = components.schemas.get(union) else {
        return found;
    };
    for member in members(schema) {
        match components.schemas.get(&member) {
            Some(RefOr::T(Schema::Object(_))) => found.push(member),
            Some(_) => found.extend(variants(components, &member)),
            None => {}
        }
    }
    found
}

/// `oneOf` the components `names`, told apart by `field`: each variant's
/// `field` has the one value it is mapped by.
pub(super) fn one_of_by(
    field: &str,
    names: &[(String, String)],
    description: Option<String>,
) -> RefOr<Schema> {
    let mut one_of = OneOfBuilder::new().description(description);
    let mut mapping = BTreeMap::new();
    for (value, name) in names {
        one_of = one_of.item(of(name));
        mapping.insert(value.clone(), format!("#/components/schemas/{name}"));
    }
    let mut discriminator = Discriminator::new(field);
    discriminator.mapping = mapping;
    one_of.discriminator(Some(discriminator)).into()
}
