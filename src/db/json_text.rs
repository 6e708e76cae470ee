//! JSON kept as its text, in a `text` column: the state snapshots.
//!
//! The snapshot is read and written whole on every command and never
//! queried by SQL. Kept as text, it is parsed straight into the ruleset's
//! typed state and written straight from it: no `serde_json::Value` tree
//! built and freed on either side, and no `jsonb` conversion in PostgreSQL
//! (which parses, sorts and re-prints the document). With a long match's
//! score sheet in the snapshot, those conversions had grown to most of the
//! CPU time of a command.

use std::io::Write;

use diesel::deserialize::{self, FromSql, FromSqlRow};
use diesel::expression::AsExpression;
use diesel::pg::{Pg, PgValue};
use diesel::serialize::{self, IsNull, Output, ToSql};
use diesel::sql_types::Text;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// JSON text stored in a `text` column.
#[derive(Debug, Clone, PartialEq, Eq, AsExpression, FromSqlRow)]
#[diesel(sql_type = Text)]
pub struct JsonText(String);

impl JsonText {
    /// The JSON text of `value`.
    ///
    /// # Errors
    /// When `value` does not serialize (maps with non-string keys).
    pub fn of<T: Serialize>(value: &T) -> serde_json::Result<Self> {
        serde_json::to_string(value).map(JsonText)
    }

    /// The text parsed as a `T`.
    ///
    /// # Errors
    /// When the text is not a `T`.
    pub fn parse<T: DeserializeOwned>(&self) -> serde_json::Result<T> {
        serde_json::from_str(&self.0)
    }

    /// The text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromSql<Text, Pg> for JsonText {
    fn from_sql(value: PgValue<'_>) -> deserialize::Result<Self> {
        Ok(JsonText(std::str::from_utf8(value.as_bytes())?.to_owned()))
    }
}

impl ToSql<Text, Pg> for JsonText {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Pg>) -> serialize::Result {
        out.write_all(self.0.as_bytes())?;
        Ok(IsNull::No)
    }
}
