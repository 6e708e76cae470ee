//! Records nobody can dispute: the server's signing key (`keys`), signed
//! audits (`signing`), and the transparency log of games that are over
//! (`log`), whose proofs anyone can check offline (`check`).

pub mod check;
pub mod keys;
pub mod log;
pub mod monitor;
/// The signatures are the record's (pure): re-exported where the log's
/// users look for them.
pub use crate::record::signing;

use crate::db::Conn;
use crate::error::Failure;
use crate::record::verify::AuditDocument;

/// Seals an audit document as issued: its proof of inclusion in the log
/// under the newest signed head (once the game is logged), then the
/// server's signature over the whole, with the key active now.
///
/// # Errors
/// Database errors.
pub async fn seal(
    conn: &mut Conn,
    signer: &keys::CurrentSigner,
    doc: &mut AuditDocument,
) -> Result<(), Failure> {
    let signer = signer.current(conn).await?;
    doc.log = log::inclusion(conn, doc.game_id, None).await?;
    doc.signature = None;
    let value = serde_json::to_value(&*doc).map_err(Failure::internal)?;
    doc.signature = Some(signer.sign_document(&value));
    Ok(())
}
