//! Registering and logging in.

use std::net::IpAddr;

use diesel_async::AsyncConnection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::sessions::{self, AccessToken};
use crate::auth::limits::{LoginLimits, Rule, retry_after};
use crate::auth::{Caller, password};
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

/// Creates an account. One client address may register
/// `--registrations-per-address` accounts an hour (reserved before the
/// password is hashed). Once the shared count has refused an address, this
/// process refuses it alone until the time the count named
/// (`Context::registration_refusals`).
///
/// # Errors
/// `bad_request` for a username or password out of bounds, `username_taken`,
/// `limit_reached` (too many from this address), `busy` (the password
/// threads are full).
pub async fn register(
    state: &Context,
    creds: Credentials,
    address: Option<IpAddr>,
) -> Result<RegisteredUser, Failure> {
    check_username(&creds.username)?;
    check_password(&creds.password)?;
    let now = crate::record::chain::now();
    let refused = |until| {
        Failure::limit_reached(
            "too many accounts were registered from this address; try again later",
            retry_after(until, now),
        )
    };
    let refusals = &state.registration_refusals;
    if let Some(until) = address.and_then(|a| refusals.refused_until(a, now)) {
        return Err(refused(until));
    }
    let keys: Vec<(String, Rule)> = address
        .map(|a| (format!("register:{a}"), state.cost_limits.registrations))
        .into_iter()
        .collect();
    let mut conn = state.pool.get().await?;
    if let Some(until) = throttle::reserve(&mut conn, &keys, now).await? {
        // The address's key is the only one: the refusal is the address's own.
        if let Some(address) = address {
            refusals.refuse(address, until, now);
        }
        return Err(refused(until));
    }
    drop(conn);
    let place = match state.passwords.enter() {
        Ok(place) => place,
        Err(busy) => {
            give_back(state, &keys).await;
            if let Some(address) = address {
                refusals.forget(address);
            }
            return Err(busy);
        }
    };
    let password = creds.password;
    let hash = place
        .run(move || password::hash(&password))
        .await?
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

/// Gives back the uses of `keys` reserved for work that did not happen.
async fn give_back(state: &Context, keys: &[(String, Rule)]) {
    if keys.is_empty() {
        return;
    }
    let names: Vec<&str> = keys.iter().map(|(k, _)| k.as_str()).collect();
    if let Ok(mut conn) = state.pool.get().await
        && let Err(e) = throttle::release(&mut conn, &names).await
    {
        tracing::warn!(error = %e, "a reserved use could not be given back");
    }
}

/// The key of every failed login from `address`, whatever the account.
fn address_key(address: IpAddr) -> String {
    format!("login-address:{address}")
}

/// The keys a login for `account` from `address` is counted under (see
/// [`LoginLimits`]): the pair and the address always; the account unless
/// it signs in from an address it used lately (`usual`).
fn login_keys(
    limits: &LoginLimits,
    account: &str,
    address: Option<IpAddr>,
    usual: bool,
) -> Vec<(String, Rule)> {
    let mut keys = Vec::with_capacity(3);
    if let Some(address) = address {
        keys.push((format!("login:{account}@{address}"), limits.pair));
        keys.push((address_key(address), limits.address));
    }
    if !usual {
        keys.push((format!("login-account:{account}"), limits.account));
    }
    keys
}

/// Checks credentials and starts a session.
///
/// Every attempt is counted before its password is hashed, in PostgreSQL
/// with the counters' rows locked, so the limits hold across every server
/// process and under any concurrency: for the account at this client
/// address (a few, then that address waits out the window for that
/// account), for the address (many, for every account), and for the
/// account from addresses it has not signed in from lately (a few, then
/// rising delays). A success gives its count back and notes the address as
/// one the account signs in from. Someone else's failures therefore never
/// lock a player out: from their usual address they are not slowed, and a
/// refresh token never is. Once the shared count has refused an address as
/// a whole (its own limit), this process refuses it alone, without a
/// database round trip, until the time the count named
/// (`Context::login_refusals`).
///
/// # Errors
/// `unauthenticated` for an unknown user or a wrong password (the same
/// answer), `rate_limited` with `Retry-After`, `busy` (the password
/// threads are full).
pub async fn login(
    state: &Context,
    creds: Credentials,
    address: Option<IpAddr>,
) -> Result<AccessToken, Failure> {
    let wrong = || Failure::unauthenticated("wrong username or password");
    if check_username(&creds.username).is_err() || check_password(&creds.password).is_err() {
        return Err(wrong());
    }
    let account = creds.username.to_lowercase();
    let now = crate::record::chain::now();
    let refused = |until| {
        Failure::rate_limited(
            "too many failed logins for this account or from this address; try again later",
            retry_after(until, now),
        )
    };
    if let Some(until) = address.and_then(|a| state.login_refusals.refused_until(a, now)) {
        return Err(refused(until));
    }
    let mut conn = state.pool.get().await?;
    let found = users::find_by_name(&mut conn, &creds.username).await?;
    let usual = match (&found, address) {
        (Some((id, _, _)), Some(address)) => {
            throttle::is_usual_address(&mut conn, *id, &address.to_string(), now).await?
        }
        _ => false,
    };
    let keys = login_keys(&state.login_limits, &account, address, usual);
    let over = throttle::reserve_naming(&mut conn, &keys, now).await?;
    if let Some(until) = over.iter().map(|(_, until)| *until).max() {
        if let Some(address) = address {
            let own = address_key(address);
            if let Some((_, own_until)) = over.iter().find(|(key, _)| *key == own) {
                state.login_refusals.refuse(address, *own_until, now);
            }
        }
        return Err(refused(until));
    }
    drop(conn);
    let (id, username, hash) =
        found.unwrap_or_else(|| (Uuid::nil(), String::new(), password::DECOY_HASH.to_owned()));
    // A place on the password threads is taken once the attempt is
    // counted: attempts refused by a limit never hold one.
    let place = match state.passwords.enter() {
        Ok(place) => place,
        Err(busy) => {
            give_back(state, &keys).await;
            if let Some(address) = address {
                state.login_refusals.forget(address);
            }
            return Err(busy);
        }
    };
    let password = creds.password;
    let ok = place
        .run(move || password::verify(&password, &hash))
        .await?;
    if !ok || id.is_nil() {
        return Err(wrong());
    }
    let mut conn = state.pool.get().await?;
    let names: Vec<&str> = keys.iter().map(|(k, _)| k.as_str()).collect();
    throttle::release(&mut conn, &names).await?;
    if let Some(address) = address {
        // A use given back: the shared count may admit this address again.
        state.login_refusals.forget(address);
        throttle::clear(&mut conn, &format!("login:{account}@{address}")).await?;
        throttle::signed_in_from(&mut conn, id, &address.to_string(), now).await?;
    }
    drop(conn);
    sessions::start(state, id, &username).await
}

/// Changes the caller's password and signs out every other session (this
/// one stays signed in).
///
/// # Errors
/// `bad_request` for a new password out of bounds, `wrong_password`,
/// `busy` (the password threads are full).
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
    let hashed = state
        .passwords
        .enter()?
        .run(move || password::verify(&old, &current).then(|| password::hash(&new)))
        .await?
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
    fn a_login_from_a_usual_address_is_not_counted_for_the_account() {
        let limits = LoginLimits {
            pair: Rule::per_hour(5),
            address: Rule::per_hour(100),
            account: Rule::per_day(10),
        };
        let address: IpAddr = "203.0.113.7".parse().unwrap();
        let keys = |address, usual| -> Vec<String> {
            login_keys(&limits, "ann", address, usual)
                .into_iter()
                .map(|(k, _)| k)
                .collect()
        };
        assert_eq!(
            keys(Some(address), false),
            [
                "login:ann@203.0.113.7",
                "login-address:203.0.113.7",
                "login-account:ann"
            ]
        );
        assert_eq!(
            keys(Some(address), true),
            ["login:ann@203.0.113.7", "login-address:203.0.113.7"]
        );
        assert_eq!(keys(None, false), ["login-account:ann"]);
    }

    #[test]
    fn passwords_are_checked() {
        assert!(check_password("12345678").is_ok());
        assert!(check_password("1234567").is_err());
        assert!(check_password(&"x".repeat(129)).is_err());
        assert!(check_password(&"é".repeat(128)).is_ok());
    }
}
