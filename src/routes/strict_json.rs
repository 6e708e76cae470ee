//! Request bodies, strictly: JSON that PostgreSQL can store and that means
//! one thing, and no body where an endpoint takes none.
//!
//! Rules every JSON body obeys (else `400 bad_request`, nothing written):
//! - it is one JSON object (a struct is never read from an array);
//! - at most 64 KiB (`413 payload_too_large`);
//! - whole within the body timeout (`--body-timeout-ms`, 10 s; else `408
//!   request_timeout` and the connection is closed), so a client that
//!   dribbles its body cannot hold a connection;
//! - no object repeats a key (`{"a": 1, "a": 2}` is refused, not read as
//!   either value);
//! - no string holds the NUL character (`\u0000`), which PostgreSQL cannot
//!   store in `text` or `jsonb`; keys included.
//!
//! A number with no fractional part counts as the integer it is (`6.0` is
//! `6`), as JSON Schema says.
//!
//! Endpoints that take no body (`resign`, `cancel`, `decline`) accept an
//! empty body, `{}` or `null`, and refuse anything else.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use futures_util::future::LocalBoxFuture;
use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::error::Failure;

/// The largest request body accepted.
pub const BODY_LIMIT: usize = 64 * 1024;

/// A JSON body of type `T`, checked as the module says.
#[derive(Debug)]
pub struct Json<T>(pub T);

impl<T> Json<T> {
    /// The parsed body.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for Json<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// An endpoint's promise to take no body: empty, `{}` or `null`.
#[derive(Debug)]
pub struct NoBody;

/// The raw body, at most [`BODY_LIMIT`] bytes, within the body timeout.
async fn read(req: HttpRequest, mut payload: Payload) -> Result<web::Bytes, Failure> {
    let limit = req
        .app_data::<web::Data<crate::routes::app_state::AppState>>()
        .map_or(std::time::Duration::from_secs(10), |state| {
            state.body_timeout
        });
    tokio::time::timeout(limit, web::Bytes::from_request(&req, &mut payload))
        .await
        .map_err(|_| Failure::request_timeout(limit))?
        .map_err(|e| {
            if e.as_response_error().status_code() == actix_web::http::StatusCode::PAYLOAD_TOO_LARGE
            {
                Failure::payload_too_large(BODY_LIMIT)
            } else {
                Failure::bad_request(format!("the body could not be read: {e}"))
            }
        })
}

/// Reads the body (see [`read`]) and makes the extractor's value of it.
fn extract<T: 'static>(
    req: &HttpRequest,
    payload: &mut Payload,
    make: fn(&[u8]) -> Result<T, Failure>,
) -> LocalBoxFuture<'static, Result<T, actix_web::Error>> {
    let (req, payload) = (req.clone(), payload.take());
    Box::pin(async move { Ok(make(&read(req, payload).await?)?) })
}

impl<T: DeserializeOwned + 'static> FromRequest for Json<T> {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        extract(req, payload, |bytes| parse(bytes).map(Json))
    }
}

impl FromRequest for NoBody {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        extract(req, payload, |bytes| {
            let text = std::str::from_utf8(bytes).unwrap_or("?").trim();
            if text.is_empty() || text == "null" || text.replace(char::is_whitespace, "") == "{}" {
                Ok(NoBody)
            } else {
                Err(Failure::bad_request(
                    "this endpoint takes no body (send none, or {})",
                ))
            }
        })
    }
}

/// Parses a JSON body strictly (see the module documentation).
///
/// # Errors
/// `bad_request`, saying what is wrong.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Failure> {
    check(bytes)?;
    if bytes.trim_ascii_start().first() != Some(&b'{') {
        return Err(Failure::bad_request("the body must be a JSON object"));
    }
    // The body as sent, and only when that does not fit, with its whole
    // decimals as integers (the command path pays for the second read only
    // when a client writes `6.0`).
    serde_json::from_slice(bytes).or_else(|refused| {
        let mut value: Value = serde_json::from_slice(bytes)
            .map_err(|e| Failure::bad_request(format!("the body is not valid JSON: {e}")))?;
        whole_numbers_as_integers(&mut value);
        serde_json::from_value(value)
            .map_err(|_| Failure::bad_request(format!("the JSON body does not fit: {refused}")))
    })
}

/// Writes every number with no fractional part (`6.0`) as the integer it
/// is (`6`), as JSON Schema counts it an integer; only up to 2^53, where
/// every such number is exact.
fn whole_numbers_as_integers(value: &mut Value) {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    match value {
        Value::Number(n) if n.is_f64() => {
            if let Some(f) = n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() <= EXACT) {
                // In range and whole, so the conversion is exact.
                #[allow(clippy::cast_possible_truncation)]
                let whole = f as i64;
                *n = whole.into();
            }
        }
        Value::Array(items) => items.iter_mut().for_each(whole_numbers_as_integers),
        Value::Object(fields) => fields.values_mut().for_each(whole_numbers_as_integers),
        _ => {}
    }
}

/// Checks a JSON document for repeated keys and NUL characters.
///
/// # Errors
/// `bad_request` for invalid JSON, a repeated key or a NUL.
pub fn check(bytes: &[u8]) -> Result<(), Failure> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    Strict
        .deserialize(&mut deserializer)
        .and_then(|()| deserializer.end())
        .map_err(|e| {
            if e.is_data() {
                Failure::bad_request(format!("the JSON body is refused: {e}"))
            } else {
                Failure::bad_request(format!("the body is not valid JSON: {e}"))
            }
        })
}

/// Walks any JSON value, refusing repeated keys and NUL characters.
struct Strict;

impl<'de> DeserializeSeed<'de> for Strict {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

fn no_nul<E: de::Error>(s: &str) -> Result<(), E> {
    if s.contains('\0') {
        Err(E::custom("a string holds the NUL character (\\u0000)"))
    } else {
        Ok(())
    }
}

impl<'de> Visitor<'de> for Strict {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<(), E> {
        no_nul(s)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Strict)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        // Keys are borrowed from the body when they hold no escape: a
        // command's object of three keys costs no allocation but this list.
        let mut seen: Vec<Cow<'de, str>> = Vec::new();
        let mut many: Option<HashSet<Cow<'de, str>>> = None;
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            no_nul(&key)?;
            let repeated = match &mut many {
                Some(set) => set.contains(&key),
                None => seen.contains(&key),
            };
            if repeated {
                return Err(de::Error::custom(format!(
                    "the key {key:?} appears twice in one object"
                )));
            }
            match &mut many {
                Some(set) => {
                    set.insert(key);
                }
                None if seen.len() < FEW_KEYS => seen.push(key),
                None => many = Some(seen.drain(..).chain([key]).collect()),
            }
            map.next_value_seed(Strict)?;
        }
        Ok(())
    }
}

/// Up to this many keys an object's are compared one by one; beyond, they
/// go into a hash set (a body of thousands of keys stays linear).
const FEW_KEYS: usize = 16;

/// An object's key, borrowed from the body unless it holds an escape.
struct Key<'de>(Cow<'de, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Borrowed(s)))
    }
    fn visit_str<E>(self, s: &str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Owned(s.to_owned())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Seat {
        seat: u8,
        at: f64,
    }

    #[test]
    fn given_whole_numbers_written_as_decimals_then_they_are_read_as_integers() {
        let seat: Seat = parse(br#"{"seat": 2.0, "at": 1.5}"#).unwrap();
        assert_eq!(seat, Seat { seat: 2, at: 1.5 });
        assert!(parse::<Seat>(br#"{"seat": 2.5, "at": 1}"#).is_err());
    }

    #[test]
    fn given_an_array_where_an_object_belongs_then_it_is_refused() {
        let refused = parse::<Seat>(b"[2, 1.5]").unwrap_err();
        assert_eq!(refused.detail, "the body must be a JSON object");
    }

    #[test]
    fn given_a_key_repeated_escaped_or_among_many_then_it_is_refused() {
        assert!(check(br#"{"a": 1, "\u0061": 2}"#).is_err());
        let many = |last: &str| {
            let keys: Vec<String> = (0..40).map(|i| format!("\"k{i}\": {i}")).collect();
            format!("{{{}, \"{last}\": 0}}", keys.join(", "))
        };
        assert!(check(many("k3").as_bytes()).is_err());
        assert!(check(many("k39").as_bytes()).is_err());
        assert!(check(many("other").as_bytes()).is_ok());
    }

    #[test]
    fn repeated_keys_and_nul_are_refused_at_any_depth() {
        for bad in [
            r#"{"a": 1, "a": 2}"#,
            r#"{"o": {"x": [1, {"k": 0, "k": 0}]}}"#,
            r#"{"s": "a\u0000b"}"#,
            r#"{"a\u0000": 1}"#,
            r#"["\u0000"]"#,
            r#"{"a": 1} trailing"#,
            "{",
        ] {
            assert_eq!(
                check(bad.as_bytes()).unwrap_err().code(),
                crate::error::ErrorCode::BadRequest,
                "{bad}"
            );
        }
        for good in [
            r#"{"a": 1, "b": {"a": 1}}"#,
            r#"[{"a": 1}, {"a": 2}]"#,
            r#""x\u0001""#,
            "null",
        ] {
            assert!(check(good.as_bytes()).is_ok(), "{good}");
        }
    }
}
