//! The server's secrets: the JWT signing secret, from configuration when
//! given; otherwise generated once and kept in the database, so tokens
//! survive restarts and every server process of one database signs with the
//! same key; and the other shared keys (the entity tags'), kept the same way.

use crate::db::{Pool, secrets};

const NAME: &str = "jwt_hs256";

/// The configured secret, or the one stored in the database (created on first use).
///
/// # Errors
/// When the database cannot be reached.
pub async fn signing_secret(pool: &Pool, configured: Option<&str>) -> Result<Vec<u8>, String> {
    if let Some(s) = configured.filter(|s| !s.is_empty()) {
        return Ok(s.as_bytes().to_vec());
    }
    stored(pool, NAME).await
}

/// The 32-byte key stored as `name` (made on first use), shared by every
/// process of one database so what one makes with it another accepts.
///
/// # Errors
/// When the database cannot be reached, or the stored key is not 32 bytes.
pub async fn shared_key(pool: &Pool, name: &str) -> Result<[u8; 32], String> {
    let bytes = stored(pool, name).await?;
    <[u8; 32]>::try_from(bytes.as_slice())
        .map_err(|_| format!("the stored key {name} is not 32 bytes"))
}

/// The secret stored as `name`, made of 32 random bytes on first use (the
/// first process to store it wins; every other reads it).
///
/// # Errors
/// When the database cannot be reached, or the stored secret is not hex.
pub async fn stored(pool: &Pool, name: &str) -> Result<Vec<u8>, String> {
    let mut conn = pool.get().await.map_err(|e| e.to_string())?;
    let mut fresh = [0u8; 32];
    rand::fill(&mut fresh);
    let stored = secrets::get_or_insert(&mut conn, name, &hex::encode(fresh))
        .await
        .map_err(|e| e.to_string())?;
    hex::decode(stored).map_err(|e| format!("the stored secret {name} is not hex: {e}"))
}
