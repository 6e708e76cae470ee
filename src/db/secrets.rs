//! Server-wide secrets kept in the database (`server_secrets`).

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use super::schema::server_secrets;

/// The secret called `name`, stored as `fresh` when there was none yet;
/// every process of one database reads the same one.
///
/// # Errors
/// Database errors.
pub async fn get_or_insert(
    conn: &mut AsyncPgConnection,
    name: &str,
    fresh: &str,
) -> QueryResult<String> {
    diesel::insert_into(server_secrets::table)
        .values((
            server_secrets::name.eq(name),
            server_secrets::value.eq(fresh),
        ))
        .on_conflict_do_nothing()
        .execute(conn)
        .await?;
    server_secrets::table
        .find(name)
        .select(server_secrets::value)
        .first(conn)
        .await
}
