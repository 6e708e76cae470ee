//! Strings a client sends hold no NUL: the server refuses one anywhere in a
//! body, a path or a query (`bad_request`), so every string of a request
//! that has no `format`, `enum` or `pattern` of its own says so with the
//! pattern `NO_NUL`.

use std::collections::BTreeSet;

use utoipa::Modify;
use utoipa::openapi::path::Operation;
use utoipa::openapi::schema::{AdditionalProperties, ArrayItems, Schema, SchemaType, Type};
use utoipa::openapi::{Components, RefOr};

/// A string without the NUL character.
pub(super) const NO_NUL: &str = "^[^\\u0000]*$";

pub(super) struct NoNul;

/// Whether `schema_type` is (or may be) a string.
fn is_string(schema_type: &SchemaType) -> bool {
    match schema_type {
        SchemaType::Type(one) => *one == Type::String,
        SchemaType::Array(many) => many.contains(&Type::String),
        SchemaType::AnyValue => false,
    }
}

/// Marks the strings of `schema`, and collects the components it names.
fn mark(schema: &mut RefOr<Schema>, named: &mut Vec<String>) {
    let schema = match schema {
        RefOr::Ref(reference) => {
            if let Some(name) = reference.ref_location.strip_prefix("#/components/schemas/") {
                named.push(name.to_owned());
            }
            return;
        }
        RefOr::T(schema) => schema,
    };
    match schema {
        Schema::Object(object) => {
            if is_string(&object.schema_type)
                && object.format.is_none()
                && object.enum_values.is_none()
                && object.pattern.is_none()
            {
                object.pattern = Some(NO_NUL.to_owned());
            }
            for property in object.properties.values_mut() {
                mark(property, named);
            }
            if let Some(additional) = object.additional_properties.as_deref_mut()
                && let AdditionalProperties::RefOr(more) = additional
            {
                mark(more, named);
            }
        }
        Schema::Array(array) => {
            if let ArrayItems::RefOrSchema(items) = &mut array.items {
                mark(items, named);
            }
        }
        Schema::OneOf(one_of) => one_of.items.iter_mut().for_each(|s| mark(s, named)),
        Schema::AnyOf(any_of) => any_of.items.iter_mut().for_each(|s| mark(s, named)),
        Schema::AllOf(all_of) => all_of.items.iter_mut().for_each(|s| mark(s, named)),
        _ => {}
    }
}

/// Marks the strings an operation's parameters and body hold.
fn mark_operation(operation: &mut Operation, named: &mut Vec<String>) {
    for parameter in operation.parameters.iter_mut().flatten() {
        if let RefOr::T(parameter) = parameter
            && let Some(schema) = &mut parameter.schema
        {
            mark(schema, named);
        }
    }
    if let Some(RefOr::T(body)) = &mut operation.request_body {
        for content in body.content.values_mut() {
            if let RefOr::T(content) = content
                && let Some(schema) = &mut content.schema
            {
                mark(schema, named);
            }
        }
    }
}

/// Marks every component a request reaches, following its references.
fn mark_components(components: &mut Components, mut named: Vec<String>) {
    let mut seen = BTreeSet::new();
    while let Some(name) = named.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        if let Some(schema) = components.schemas.get_mut(&name) {
            mark(schema, &mut named);
        }
    }
}

impl Modify for NoNul {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let mut named = Vec::new();
        for item in openapi.paths.paths.values_mut() {
            for operation in [
                &mut item.get,
                &mut item.put,
                &mut item.post,
                &mut item.delete,
                &mut item.patch,
            ]
            .into_iter()
            .flatten()
            {
                mark_operation(operation, &mut named);
            }
        }
        if let Some(components) = openapi.components.as_mut() {
            mark_components(components, named);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    /// Every string a request holds says what it may be: a format, an
    /// enum or a pattern (`NO_NUL` at least); an answer's strings are left
    /// as they are.
    #[test]
    fn every_string_of_a_request_is_constrained() {
        let document = serde_json::to_value(super::super::document()).unwrap();
        let schemas = &document["components"]["schemas"];
        let password = &schemas["Credentials"]["properties"]["password"];
        assert_eq!(password["pattern"], super::NO_NUL, "{password}");
        let invitees = &schemas["HatsCreateGame"]["properties"]["invitees"]["items"];
        assert_eq!(invitees["pattern"], super::NO_NUL, "{invitees}");
        let detail = &schemas["Problem"]["properties"]["detail"];
        assert!(detail.get("pattern").is_none(), "{detail}");
        let mut parameters = 0;
        for item in document["paths"].as_object().unwrap().values() {
            for operation in item.as_object().unwrap().values() {
                for parameter in operation["parameters"].as_array().into_iter().flatten() {
                    let schema = &parameter["schema"];
                    if schema["type"] == "string" {
                        parameters += 1;
                        let said = ["format", "enum", "pattern"]
                            .iter()
                            .any(|key| schema.get(*key).is_some());
                        assert!(said, "{parameter}");
                    }
                }
            }
        }
        assert!(parameters > 10, "{parameters}");
        assert!(
            matches!(schemas["TimeZone"]["enum"], Value::Array(ref zones) if zones.len() > 400)
        );
    }
}
