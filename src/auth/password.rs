//! Password hashing with argon2id (the `argon2` crate's defaults: 19 MiB, 2
//! passes, 1 lane), in PHC string form so parameters can change later.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

/// At most one argon2 computation per core at a time: each takes 19 MiB and
/// tens of milliseconds, so a flood of logins queues here instead of taking
/// every blocking thread and a gigabyte of memory.
static HASHING: std::sync::LazyLock<tokio::sync::Semaphore> = std::sync::LazyLock::new(|| {
    tokio::sync::Semaphore::new(std::thread::available_parallelism().map_or(2, usize::from))
});

/// Runs `work` (a hash or a verification) on the blocking pool, at most one
/// per core at a time.
///
/// # Errors
/// When the blocking task panics or is cancelled.
pub async fn off_the_runtime<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, actix_web::error::BlockingError> {
    let _permit = HASHING.acquire().await;
    actix_web::web::block(work).await
}

fn hasher() -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::default())
}

/// The PHC string of `password` under a fresh random salt.
///
/// # Errors
/// Only if the hasher rejects its own parameters.
pub fn hash(password: &str) -> Result<String, argon2::password_hash::Error> {
    let mut salt_bytes = [0u8; 16];
    rand::fill(&mut salt_bytes);
    let salt = SaltString::encode_b64(&salt_bytes)?;
    Ok(hasher()
        .hash_password(password.as_bytes(), &salt)?
        .to_string())
}

/// Whether `password` matches the PHC string `phc`.
#[must_use]
pub fn verify(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc).is_ok_and(|parsed| {
        hasher()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
    })
}

/// A hash of no real password, checked when a username is unknown so that a
/// failed login takes as long whether or not the user exists.
pub const DECOY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$Wq0WUaCYT5ngG1XZTmL0h4jsQ9+g1wq5+8CO/f5Yzv8";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_against_its_own_hash_only() {
        let h = hash("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify("correct horse", &h));
        assert!(!verify("wrong horse", &h));
        assert!(!verify("correct horse", "not a hash"));
    }

    #[test]
    fn the_decoy_hash_parses_and_matches_nothing_users_send() {
        assert!(PasswordHash::new(DECOY_HASH).is_ok());
        assert!(!verify("password", DECOY_HASH));
    }
}
