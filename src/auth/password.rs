//! Password hashing with argon2id (the `argon2` crate's defaults: 19 MiB, 2
//! passes, 1 lane), in PHC string form so parameters can change later.

use std::cell::RefCell;

use argon2::password_hash::{
    Decimal, Ident, Output, ParamsString, PasswordHash, PasswordHasher, PasswordVerifier, Salt,
    SaltString,
};
use argon2::{Algorithm, Argon2, Block, Params, Version};

type Job = Box<dyn FnOnce() + Send>;

/// The password threads: one per two cores (at least one), started on
/// first use. Each argon2 computation takes 19 MiB and tens of milliseconds,
/// so they run here, off the async workers, on at most half the cores: a
/// flood of logins queues instead of taking the cores commands need, and the
/// memory (each thread keeps its own 19 MiB, see [`MEMORY`]) stays at 19 MiB
/// per password thread instead of growing with concurrency.
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

/// How many password jobs a server process lets wait or run at once.
/// Past it, a login or registration answers `503 busy` at once instead of
/// queueing behind the others (a flood of them would otherwise make every
/// login wait seconds). Only logins, registrations and password changes
/// hash: no other request waits here.
#[derive(Debug)]
pub struct PasswordQueue {
    capacity: usize,
    in_flight: std::sync::atomic::AtomicUsize,
}

/// A place in a [`PasswordQueue`], given back when dropped.
pub struct Place<'a>(&'a PasswordQueue);

impl Drop for Place<'_> {
    fn drop(&mut self) {
        self.0
            .in_flight
            .fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
    }
}

impl PasswordQueue {
    /// A queue taking at most `capacity` jobs at once (at least one).
    #[must_use]
    pub fn new(capacity: usize) -> Self {
        PasswordQueue {
            capacity: capacity.max(1),
            in_flight: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    fn place(&self) -> Option<Place<'_>> {
        self.in_flight
            .fetch_update(
                std::sync::atomic::Ordering::AcqRel,
                std::sync::atomic::Ordering::Acquire,
                |n| (n < self.capacity).then_some(n + 1),
            )
            .ok()
            .map(|_| Place(self))
    }

    /// A place in the queue, for one hash or verification.
    ///
    /// # Errors
    /// `busy` when the queue is full.
    pub fn enter(&self) -> Result<Place<'_>, crate::error::Failure> {
        self.place().ok_or_else(crate::error::Failure::busy)
    }
}

impl Place<'_> {
    /// Runs `work` (a hash or a verification) on the password threads; the
    /// place is given back once it is done.
    ///
    /// # Errors
    /// `internal` when no password thread could take it.
    pub async fn run<T: Send + 'static>(
        self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, crate::error::Failure> {
        let answer = off_the_runtime(work)
            .await
            .map_err(crate::error::Failure::internal);
        drop(self);
        answer
    }
}

/// Runs `work` (a hash or a verification) on the password threads.
///
/// # Errors
/// When no password thread could take it.
async fn off_the_runtime<T: Send + 'static>(
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

thread_local! {
    /// This thread's argon2 memory, allocated by its first hash and kept for
    /// the next ones: 19 MiB, resident for the life of a password thread.
    ///
    /// The argon2 crate allocates and frees it on every hash, and under
    /// glibc's malloc that made the server hold 186–243 MiB after a 20 s
    /// bench (64 hashes), for good, nearly all of it free: the block is
    /// aligned to 64 bytes; freeing the first one (mmapped) raises glibc's
    /// mmap threshold to 19 MiB and its trim threshold to 38 MiB, so later
    /// blocks are carved from the thread's arena, where the padding of an
    /// aligned request keeps a freed block from fitting the next one: the
    /// arena grows, 64 MiB heap after heap, to about 11 free blocks (19 MiB
    /// blocks aligned to 16 bytes stay at one). Never freed, the block
    /// never raises the threshold: 54.5 MiB after load, and no change on
    /// the command path (README, *Performance*). Swapping the global
    /// allocator instead: jemalloc held 38 MiB but its purging cost 21–45
    /// page faults per command (1–5 under glibc) and up to 20 % more server
    /// CPU per command; mimalloc held 49–60 MiB, and 57–74 MiB at start.
    static MEMORY: RefCell<Vec<Block>> = const { RefCell::new(Vec::new()) };
}

/// argon2 over [`MEMORY`]: the crate's own `hash_password_customized`
/// (same algorithm, version and parameter defaults, same PHC string), with
/// the memory kept instead of allocated; `verify_password` comes with it.
struct KeptMemory;

impl PasswordHasher for KeptMemory {
    type Params = Params;

    fn hash_password_customized<'a>(
        &self,
        password: &[u8],
        algorithm: Option<Ident<'a>>,
        version: Option<Decimal>,
        params: Params,
        salt: impl Into<Salt<'a>>,
    ) -> argon2::password_hash::Result<PasswordHash<'a>> {
        let algorithm = algorithm
            .map(Algorithm::try_from)
            .transpose()?
            .unwrap_or_default();
        let version = version
            .map(Version::try_from)
            .transpose()?
            .unwrap_or_default();
        let salt = salt.into();
        let mut salt_buffer = [0u8; 64];
        let salt_bytes = salt.decode_b64(&mut salt_buffer)?;
        let output_len = params.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN);
        let blocks = params.block_count();
        let argon2 = Argon2::new(algorithm, version, params.clone());
        let output = Output::init_with(output_len, |out| {
            MEMORY.with_borrow_mut(|memory| {
                if memory.len() < blocks {
                    *memory = vec![Block::default(); blocks];
                }
                Ok(argon2.hash_password_into_with_memory(
                    password,
                    salt_bytes,
                    out,
                    memory.as_mut_slice(),
                )?)
            })
        })?;
        Ok(PasswordHash {
            algorithm: algorithm.ident(),
            version: Some(version.into()),
            params: ParamsString::try_from(&params)?,
            salt: Some(salt),
            hash: Some(output),
        })
    }
}

/// The PHC string of `password` under a fresh random salt.
///
/// # Errors
/// Only if the hasher rejects its own parameters.
pub fn hash(password: &str) -> Result<String, argon2::password_hash::Error> {
    let mut salt_bytes = [0u8; 16];
    rand::fill(&mut salt_bytes);
    let salt = SaltString::encode_b64(&salt_bytes)?;
    Ok(KeptMemory
        .hash_password(password.as_bytes(), &salt)?
        .to_string())
}

/// Whether `password` matches the PHC string `phc`.
#[must_use]
pub fn verify(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc).is_ok_and(|parsed| {
        KeptMemory
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
    fn kept_memory_hashes_as_the_crate_does() {
        // The crate's own hasher (fresh memory each time) and ours (memory
        // kept, dirty from the hash before) agree both ways.
        let crate_hasher = Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::default());
        let salt = SaltString::encode_b64(&[7u8; 16]).unwrap();
        let theirs = crate_hasher
            .hash_password(b"correct horse", &salt)
            .unwrap()
            .to_string();
        for _ in 0..2 {
            let ours = KeptMemory
                .hash_password(b"correct horse", &salt)
                .unwrap()
                .to_string();
            assert_eq!(ours, theirs);
        }
        let ours = hash("battery staple").unwrap();
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(
            crate_hasher
                .verify_password(b"battery staple", &parsed)
                .is_ok()
        );
        assert!(verify("correct horse", &theirs));
    }

    #[test]
    fn a_full_queue_refuses_at_once_and_takes_jobs_again_once_they_end() {
        let queue = PasswordQueue::new(2);
        let (a, b) = (queue.place().unwrap(), queue.place().unwrap());
        assert!(queue.place().is_none());
        drop(a);
        let c = queue.place();
        assert!(c.is_some());
        assert!(queue.place().is_none());
        drop((b, c));
        assert_eq!(
            queue.in_flight.load(std::sync::atomic::Ordering::Acquire),
            0
        );
    }

    #[test]
    fn the_decoy_hash_parses_and_matches_nothing_users_send() {
        assert!(PasswordHash::new(DECOY_HASH).is_ok());
        assert!(!verify("password", DECOY_HASH));
    }
}
