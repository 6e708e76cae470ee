//! The JWT signing secret: from configuration when given; otherwise generated
//! once and kept in the database, so tokens survive restarts and every server
//! process of one database signs with the same key.

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
    let mut conn = pool.get().await.map_err(|e| e.to_string())?;
    let mut fresh = [0u8; 32];
    rand::fill(&mut fresh);
    let stored = secrets::get_or_insert(&mut conn, NAME, &hex::encode(fresh))
        .await
        .map_err(|e| e.to_string())?;
    hex::decode(stored).map_err(|e| format!("stored secret is not hex: {e}"))
}
