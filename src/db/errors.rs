//! How database failures reach clients: a lost connection, a write refused
//! by a node that is no longer the primary, or a statement that ran out of
//! time is `unavailable` (the client retries; nothing was written),
//! anything else is `internal`.

use crate::error::Failure;

impl From<diesel::result::Error> for Failure {
    fn from(e: diesel::result::Error) -> Self {
        // The connection died under the request (the pool drops it). The
        // client retries; a command sent with an Idempotency-Key that did
        // commit answers its stored response, otherwise `version_conflict`.
        if connection_lost(&e) {
            tracing::warn!(error = %e, "database connection lost");
            super::forget_connections();
            return Failure::unavailable("the database connection was lost; try again");
        }
        // The connection reaches a standby: the primary it was opened to
        // was demoted (a switchover, or a failover it rejoined from). No
        // connection opened before now is trusted; the retry gets a fresh
        // one, to the primary of now.
        if read_only(&e) {
            tracing::warn!(error = %e, "the database refused a write: not the primary");
            super::forget_connections();
            return Failure::unavailable("the database is changing its primary; try again");
        }
        if timed_out(&e) {
            tracing::warn!(error = %e, "database statement timed out");
            return Failure::unavailable("the database did not answer in time; try again");
        }
        Failure::internal(format!("database: {e}"))
    }
}

/// Whether a database error means the session is gone rather than that the
/// statement failed: the socket closed, or PostgreSQL ended the session —
/// an administrator's `pg_terminate_backend`, a shutdown, a crash of another
/// backend, an idle timeout (SQLSTATE class 57P). The driver hands the
/// latter on with the kind `Unknown` and without its SQLSTATE, so it is
/// known by PostgreSQL's wording for all of them, "terminating connection".
fn connection_lost(e: &diesel::result::Error) -> bool {
    use diesel::result::{DatabaseErrorKind, Error};
    match e {
        Error::DatabaseError(
            DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand,
            _,
        ) => true,
        Error::DatabaseError(DatabaseErrorKind::Unknown, info) => {
            info.message().starts_with("terminating connection")
        }
        _ => false,
    }
}

/// Whether PostgreSQL refused a write as read-only (SQLSTATE 25006: "cannot
/// execute … in a read-only transaction"), which on a server that writes
/// means the node is a hot standby now.
fn read_only(e: &diesel::result::Error) -> bool {
    use diesel::result::{DatabaseErrorKind, Error};
    matches!(
        e,
        Error::DatabaseError(DatabaseErrorKind::ReadOnlyTransaction, _)
    )
}

/// Whether PostgreSQL cancelled the statement because it ran longer than
/// `statement_timeout` (a hung or overloaded database; SQLSTATE 57014,
/// handed on with the kind `Unknown` and known by its wording).
fn timed_out(e: &diesel::result::Error) -> bool {
    use diesel::result::{DatabaseErrorKind, Error};
    matches!(e, Error::DatabaseError(DatabaseErrorKind::Unknown, info)
        if info.message().starts_with("canceling statement due to statement timeout"))
}

/// Whether `e` is a unique key violation (a concurrent twin inserted first).
#[must_use]
pub fn is_unique_violation(e: &diesel::result::Error) -> bool {
    use diesel::result::{DatabaseErrorKind, Error};
    matches!(
        e,
        Error::DatabaseError(DatabaseErrorKind::UniqueViolation, _)
    )
}

/// A token of a user the database does not know (deleted, or a database
/// reset under a configured secret) cannot create or join games: the
/// foreign key to `users` refuses it.
#[must_use]
pub fn unknown_user_is_unauthenticated(e: diesel::result::Error) -> Failure {
    use diesel::result::{DatabaseErrorKind, Error};
    match e {
        Error::DatabaseError(DatabaseErrorKind::ForeignKeyViolation, _) => unknown_user(),
        other => other.into(),
    }
}

/// What a token of a user the database does not know gets: `unauthenticated`.
#[must_use]
pub fn unknown_user() -> Failure {
    Failure::unauthenticated("the token's user does not exist")
}

impl From<diesel_async::pooled_connection::deadpool::PoolError> for Failure {
    fn from(e: diesel_async::pooled_connection::deadpool::PoolError) -> Self {
        tracing::warn!(error = %e, "no database connection");
        Failure::unavailable("the database is not reachable; try again")
    }
}

#[cfg(test)]
mod tests {
    use diesel::result::{DatabaseErrorKind, Error};

    use super::*;
    use crate::error::ErrorCode;

    fn database_error(kind: DatabaseErrorKind, message: &str) -> Failure {
        Failure::from(Error::DatabaseError(kind, Box::new(message.to_string())))
    }

    #[test]
    fn a_lost_connection_is_unavailable_not_a_failure() {
        for (kind, message) in [
            (DatabaseErrorKind::ClosedConnection, "connection closed"),
            (
                DatabaseErrorKind::UnableToSendCommand,
                "error communicating with the server",
            ),
            (
                DatabaseErrorKind::Unknown,
                "terminating connection due to administrator command",
            ),
            (
                DatabaseErrorKind::Unknown,
                "terminating connection because of crash of another server process",
            ),
            (
                DatabaseErrorKind::Unknown,
                "canceling statement due to statement timeout",
            ),
            (
                DatabaseErrorKind::ReadOnlyTransaction,
                "cannot execute INSERT in a read-only transaction",
            ),
        ] {
            assert_eq!(
                database_error(kind, message).code,
                ErrorCode::Unavailable,
                "{message}"
            );
        }
    }

    #[test]
    fn any_other_database_error_is_internal() {
        for (kind, message) in [
            (DatabaseErrorKind::Unknown, "division by zero"),
            (DatabaseErrorKind::UniqueViolation, "duplicate key value"),
        ] {
            assert_eq!(
                database_error(kind, message).code,
                ErrorCode::Internal,
                "{message}"
            );
        }
        assert_eq!(Failure::from(Error::NotFound).code, ErrorCode::Internal);
    }
}
