//! Raw SQL that PostgreSQL parses and plans once per connection.
//!
//! Diesel never caches the prepared statement of a `sql_query`, so each call
//! is parsed and planned again; for the two statements of the command path
//! that was most of PostgreSQL's CPU time. [`Prepared`] wraps a fixed SQL text
//! (with its binds) and tells the connection's statement cache it is safe to
//! keep, keyed by that text. Use it only with SQL written as a constant: a
//! text built from input would fill the cache.

use diesel::pg::Pg;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::result::QueryResult;

/// A `sql_query` (with its binds) whose prepared statement is cached.
#[derive(Debug, Clone)]
pub struct Prepared<Q>(pub Q);

impl<Q> QueryId for Prepared<Q> {
    type QueryId = ();
    // No static id: the cache keys the statement by its SQL text.
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<Q: QueryFragment<Pg>> QueryFragment<Pg> for Prepared<Q> {
    fn walk_ast<'b>(&'b self, pass: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        self.0.walk_ast(pass)
    }

    fn is_safe_to_cache_prepared(&self, _backend: &Pg) -> QueryResult<bool> {
        Ok(true)
    }
}

impl<Q: Query> Query for Prepared<Q> {
    type SqlType = Q::SqlType;
}
