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
