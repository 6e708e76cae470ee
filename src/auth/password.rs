//! Password hashing with argon2id (the `argon2` crate's defaults: 19 MiB, 2
//! passes, 1 lane), in PHC string form so parameters can change later.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

type Job = Box<dyn FnOnce() + Send>;

/// The password threads: one per two cores (at least one), started on
/// first use. Each argon2 computation takes 19 MiB and tens of milliseconds,
/// so they run here, off the async workers, on at most half the cores: a
/// flood of logins queues instead of taking the cores commands need, and the
/// memory (reused by the same few threads) stays at a few tens of MiB
/// instead of growing with concurrency.
static HASHERS: std::sync::LazyLock<std::sync::Mutex<std::sync::mpsc::Sender<Job>>> =
    std::sync::LazyLock::new(|| {
        let (jobs, queue) = std::sync::mpsc::channel::<Job>();
        let queue = std::sync::Arc::new(std::sync::Mutex::new(queue));
        let threads = std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1));
        for n in 0..threads {
            let queue = std::sync::Arc::clone(&queue);
            let spawned = std::thread::Builder::new()
                .name(format!("password-{n}"))
                .spawn(move || {
                    loop {
                        let job = match queue.lock() {
                            Ok(queue) => queue.recv(),
                            Err(_) => return,
                        };
                        match job {
                            Ok(job) => job(),
                            Err(_) => return,
                        }
                    }
                });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a password thread");
            }
        }
        std::sync::Mutex::new(jobs)
    });

/// Runs `work` (a hash or a verification) on the password threads.
///
/// # Errors
/// When no password thread could take it.
pub async fn off_the_runtime<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, tokio::sync::oneshot::error::RecvError> {
    let (done, answer) = tokio::sync::oneshot::channel();
    let job: Job = Box::new(move || {
        let _ = done.send(work());
    });
    if let Ok(jobs) = HASHERS.lock() {
        // On failure the job, and with it `done`, is dropped: `answer` errs.
        let _ = jobs.send(job);
    }
    answer.await
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
