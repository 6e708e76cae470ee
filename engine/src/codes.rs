//! Values written as short codes (`H5`, `10C`, `JS`, a contract's name):
//! what every ruleset's cards share on the wire.

/// Implements `Deserialize` for `$t` from its code, parsed by `$t::parse`
/// (`fn parse(&str) -> Option<$t>`); a string that is no code is refused
/// with `"<$unknown> <the string>"`. `$expecting` names what a code is.
macro_rules! deserialize_from_code {
    ($t:ty, $expecting:literal, $unknown:literal) => {
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct CodeVisitor;
                impl serde::de::Visitor<'_> for CodeVisitor {
                    type Value = $t;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str($expecting)
                    }
                    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<$t, E> {
                        <$t>::parse(v).ok_or_else(|| E::custom(format!("{} {v:?}", $unknown)))
                    }
                }
                deserializer.deserialize_str(CodeVisitor)
            }
        }
    };
}

pub(crate) use deserialize_from_code;

/// With the `schema` feature, implements `utoipa::ToSchema` for `$t`: a
/// string that is one of the codes `$codes` lists (computed from the
/// engine, so the OpenAPI document lists exactly the codes the engine
/// reads), named `$name`.
macro_rules! schema_from_codes {
    ($t:ty, $name:literal, $description:literal, $codes:expr) => {
        #[cfg(feature = "schema")]
        impl utoipa::PartialSchema for $t {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                let codes: Vec<String> = $codes;
                utoipa::openapi::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .enum_values(Some(codes))
                    .description(Some($description))
                    .into()
            }
        }

        #[cfg(feature = "schema")]
        impl utoipa::ToSchema for $t {
            fn name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed($name)
            }
        }
    };
}

pub(crate) use schema_from_codes;

/// With the `schema` feature, implements `utoipa::ToSchema` for `$t`, a set
/// written as the array of its `$item`s, named `$name`.
macro_rules! schema_as_array_of {
    ($t:ty, $name:literal, $item:ty) => {
        #[cfg(feature = "schema")]
        impl utoipa::PartialSchema for $t {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::schema::ArrayBuilder::new()
                    .items(utoipa::openapi::Ref::from_schema_name(
                        <$item as utoipa::ToSchema>::name(),
                    ))
                    .into()
            }
        }

        #[cfg(feature = "schema")]
        impl utoipa::ToSchema for $t {
            fn name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed($name)
            }

            fn schemas(
                schemas: &mut Vec<(
                    String,
                    utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
                )>,
            ) {
                schemas.push((
                    <$item as utoipa::ToSchema>::name().into_owned(),
                    <$item as utoipa::PartialSchema>::schema(),
                ));
            }
        }
    };
}

pub(crate) use schema_as_array_of;
