//! The server's signing key: made on first start, kept in the database,
//! the same in every process; rotated by `hatstand keys rotate`, the retired
//! keys still published so that what they signed still checks. A running
//! process needs no restart: before each signature it reads which key is
//! active (one row, by the partial index on unretired keys) and loads the
//! new one when another process rotated it ([`CurrentSigner::current`]).

use std::sync::{Arc, RwLock};

use crate::db::{self, Conn, Pool};
use crate::error::Failure;
use crate::record::chain::format_time;

use super::signing::{ALG, KeySet, PublicKey, Signer};

fn fresh() -> (String, [u8; 32], String) {
    let secret = Signer::fresh_secret();
    let signer = Signer::from_secret(&secret);
    (signer.key_id().to_owned(), secret, signer.public_hex())
}

/// The key a process signs with, as last read, and the way to the one
/// active now.
#[derive(Debug)]
pub struct CurrentSigner {
    held: RwLock<Arc<Signer>>,
}

impl CurrentSigner {
    /// Holds `signer` (the active key when it was read).
    #[must_use]
    pub fn new(signer: Arc<Signer>) -> Self {
        CurrentSigner {
            held: RwLock::new(signer),
        }
    }

    /// The key as last read (no database): for what needs no fresh read.
    #[must_use]
    pub fn cached(&self) -> Arc<Signer> {
        match self.held.read() {
            Ok(held) => Arc::clone(&held),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        }
    }

    /// The key that signs now: the active key's id is read, and when it is
    /// not the one held (`hatstand keys rotate` ran since), the new key is
    /// loaded and held from then on.
    ///
    /// # Errors
    /// Database errors; a malformed key.
    pub async fn current(&self, conn: &mut Conn) -> Result<Arc<Signer>, Failure> {
        let held = self.cached();
        match db::transparency::active_key_id(conn).await? {
            Some(id) if id == held.key_id() => Ok(held),
            _ => {
                let fresh = load_signer(conn).await?;
                match self.held.write() {
                    Ok(mut slot) => *slot = Arc::clone(&fresh),
                    Err(poisoned) => *poisoned.into_inner() = Arc::clone(&fresh),
                }
                tracing::info!(key_id = fresh.key_id(), "signing with the rotated key");
                Ok(fresh)
            }
        }
    }
}

/// The key that signs now, made and stored when there is none.
///
/// # Errors
/// When the database cannot be reached, or holds a malformed key.
pub async fn load(pool: &Pool) -> Result<Arc<CurrentSigner>, String> {
    let mut conn = pool.get().await.map_err(|e| e.to_string())?;
    load_on(&mut conn).await.map_err(|e| e.detail)
}

/// [`load`] on a connection.
///
/// # Errors
/// Database errors; a malformed key.
pub async fn load_on(conn: &mut Conn) -> Result<Arc<CurrentSigner>, Failure> {
    Ok(Arc::new(CurrentSigner::new(load_signer(conn).await?)))
}

/// The active key, made and stored when there is none.
async fn load_signer(conn: &mut Conn) -> Result<Arc<Signer>, Failure> {
    let (id, secret, public) = fresh();
    let public = hex::decode(public).map_err(Failure::internal)?;
    let stored = db::transparency::current_key(conn, (&id, &secret, &public)).await?;
    let secret: [u8; 32] = stored
        .secret
        .try_into()
        .map_err(|_| Failure::internal("a stored signing key is not 32 bytes"))?;
    let signer = Signer::from_secret(&secret);
    if signer.key_id() != stored.key_id {
        return Err(Failure::internal(
            "a stored signing key does not match its id",
        ));
    }
    Ok(Arc::new(signer))
}

/// Retires the key that signs and makes a new one; its id.
///
/// # Errors
/// Database errors.
pub async fn rotate(conn: &mut Conn) -> Result<String, Failure> {
    let (id, secret, public) = fresh();
    let public = hex::decode(public).map_err(Failure::internal)?;
    db::transparency::rotate(conn, (&id, &secret, &public)).await?;
    Ok(id)
}

/// Every public key the server has signed with, newest first.
///
/// # Errors
/// Database errors.
pub async fn published(conn: &mut Conn) -> Result<KeySet, Failure> {
    let keys = db::transparency::keys(conn).await?;
    Ok(KeySet {
        keys: keys
            .into_iter()
            .map(|k| PublicKey {
                key_id: k.key_id,
                alg: ALG.to_owned(),
                public_key: hex::encode(k.public_key),
                created_at: format_time(k.created_at),
                retired_at: k.retired_at.map(format_time),
            })
            .collect(),
    })
}
