//! Registering and logging in.

use diesel_async::AsyncConnection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::sessions::{self, AccessToken};
use super::{Caller, password};
use crate::context::Context;
use crate::db::{throttle, users};
use crate::error::{ErrorCode, Failure};

/// A username and password, for registering or logging in.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// 3–32 characters: ASCII letters, digits, `_` and `-`. Unique regardless of case.
    #[schema(example = "ann", pattern = "^[A-Za-z0-9_-]{3,32}$")]
    pub username: String,
    /// 8–128 characters.
    #[schema(example = "correct horse battery", min_length = 8, max_length = 128)]
    pub password: String,
}

/// A registered user.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RegisteredUser {
    pub user_id: Uuid,
    pub username: String,
}

/// A password change.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    /// The password now.
    #[schema(example = "correct horse battery")]
    pub current_password: String,
    /// The new password: 8–128 characters.
    #[schema(
        example = "a longer horse battery staple",
        min_length = 8,
        max_length = 128
    )]
    pub new_password: String,
}

fn check_username(username: &str) -> Result<(), Failure> {
    let ok_chars = username
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !(3..=32).contains(&username.len()) || !ok_chars {
        return Err(Failure::bad_request(
            "usernames are 3–32 characters of A–Z, a–z, 0–9, _ and -",
        ));
    }
    Ok(())
}

fn check_password(password: &str) -> Result<(), Failure> {
    if !(8..=128).contains(&password.chars().count()) {
        return Err(Failure::bad_request("passwords are 8–128 characters"));
    }
    Ok(())
}

/// Creates an account.
///
/// # Errors
/// `bad_request` for a username or password out of bounds, `username_taken`.
pub async fn register(state: &Context, creds: Credentials) -> Result<RegisteredUser, Failure> {
    check_username(&creds.username)?;
    check_password(&creds.password)?;
    let password = creds.password;
    let hash = password::off_the_runtime(move || password::hash(&password))
        .await
        .map_err(Failure::internal)?
        .map_err(Failure::internal)?;
    let id = Uuid::new_v4();
    let mut conn = state.pool.get().await?;
    if !users::insert(&mut conn, id, &creds.username, &hash).await? {
        return Err(Failure::new(
            ErrorCode::UsernameTaken,
            format!("the username {} is taken", creds.username),
        ));
    }
    Ok(RegisteredUser {
        user_id: id,
        username: creds.username,
    })
}

/// Checks credentials and starts a session. Failures are counted per
/// account and per client address in PostgreSQL, so the limits hold across
/// every server process; a success clears the account's count.
///
/// # Errors
/// `unauthenticated` for an unknown user or a wrong password (the same answer).
pub async fn login(
    state: &Context,
    creds: Credentials,
    address: Option<std::net::IpAddr>,
) -> Result<AccessToken, Failure> {
    let wrong = || Failure::unauthenticated("wrong username or password");
    if check_username(&creds.username).is_err() || check_password(&creds.password).is_err() {
        return Err(wrong());
    }
    let account = format!("account:{}", creds.username.to_lowercase());
    let limits = state.login_limits;
    let mut keys = vec![(account.clone(), limits.per_account)];
    if let Some(address) = address {
        keys.push((format!("address:{address}"), limits.per_address));
    }
    let now = crate::record::chain::now();
    let mut conn = state.pool.get().await?;
    // Refused before the password is hashed: a storm of guesses costs a
    // lookup each, not an argon2 computation.
    if let Some(until) = throttle::blocked_until(&mut conn, &keys, now).await? {
        let secs = u64::try_from((until - now).num_seconds()).unwrap_or(0) + 1;
        return Err(Failure::rate_limited(
            "too many failed logins for this account or from this address; try again later",
            secs,
        ));
    }
    let found = users::find_by_name(&mut conn, &creds.username).await?;
    drop(conn);
    let (id, username, hash) =
        found.unwrap_or_else(|| (Uuid::nil(), String::new(), password::DECOY_HASH.to_owned()));
    let password = creds.password;
    let ok = password::off_the_runtime(move || password::verify(&password, &hash))
        .await
        .map_err(Failure::internal)?;
    let mut conn = state.pool.get().await?;
    if !ok || id.is_nil() {
        throttle::record_failure(&mut conn, &keys, now).await?;
        return Err(wrong());
    }
    throttle::clear(&mut conn, &account).await?;
    drop(conn);
    sessions::start(state, id, &username).await
}

/// Changes the caller's password and signs out every other session (this
/// one stays signed in).
///
/// # Errors
/// `bad_request` for a new password out of bounds, `wrong_password`.
pub async fn change_password(
    state: &Context,
    caller: &Caller,
    change: PasswordChange,
) -> Result<(), Failure> {
    check_password(&change.new_password)?;
    let mut conn = state.pool.get().await?;
    let current = users::password_hash(&mut conn, caller.user_id).await?;
    drop(conn);
    let (old, new) = (change.current_password, change.new_password);
    let hashed = password::off_the_runtime(move || {
        password::verify(&old, &current).then(|| password::hash(&new))
    })
    .await
    .map_err(Failure::internal)?
    .ok_or_else(Failure::wrong_password)?
    .map_err(Failure::internal)?;
    let mut conn = state.pool.get().await?;
    conn.transaction::<_, Failure, _>(async |conn| {
        users::set_password_hash(conn, caller.user_id, &hashed).await?;
        sessions::end_others(conn, caller).await?;
        Ok(())
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_are_checked() {
        assert!(check_username("ann").is_ok());
        assert!(check_username("A_b-9").is_ok());
        assert!(check_username("an").is_err());
        assert!(check_username(&"a".repeat(33)).is_err());
        assert!(check_username("anné").is_err());
        assert!(check_username("a b c").is_err());
    }

    #[test]
    fn passwords_are_checked() {
        assert!(check_password("12345678").is_ok());
        assert!(check_password("1234567").is_err());
        assert!(check_password(&"x".repeat(129)).is_err());
        assert!(check_password(&"é".repeat(128)).is_ok());
    }
}
