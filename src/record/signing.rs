//! Ed25519 signatures over audit documents and tree heads, and the public
//! keys that check them. No database here: `keys.rs` keeps the key.
//!
//! The rules, which any verifier can follow:
//! - a key's id is the first 16 hex characters of SHA-256 of its 32-byte
//!   public key;
//! - an audit document's signature is over
//!   `"hatstand/audit-signature/v1" ‖ 0x00 ‖ canonical JSON of the document
//!   without its "signature" member` (keys of every object sorted, no
//!   whitespace: `record::canonical`), and sits in the document as
//!   `"signature": {"alg": "Ed25519", "key_id", "value"}`, `value` the 64
//!   signature bytes in hex;
//! - a tree head's signature is over `"hatstand/tree-head/v1" ‖ 0x00 ‖
//!   tree size (u64, big-endian) ‖ timestamp in milliseconds since the Unix
//!   epoch (u64, big-endian) ‖ root hash (32 bytes)`.
//!
//! Distinct prefixes keep a signature of one kind from passing for another.

use ed25519_dalek::{Signer as _, SigningKey, Verifier as _, VerifyingKey};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::canonical::canonical_json;

/// The only algorithm.
pub const ALG: &str = "Ed25519";
/// What an audit's signature is over, before the document's bytes.
pub const AUDIT_CONTEXT: &[u8] = b"hatstand/audit-signature/v1\0";
/// What a tree head's signature is over, before the head's fields.
pub const TREE_HEAD_CONTEXT: &[u8] = b"hatstand/tree-head/v1\0";

/// A detached signature, as documents carry it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Signature {
    /// Always `Ed25519`.
    #[schema(example = "Ed25519")]
    pub alg: String,
    /// The id of the key that signed (see `/.well-known/hatstand-keys.json`).
    #[schema(example = "3f2a9c0d1e7b4a56")]
    pub key_id: String,
    /// The 64 signature bytes, hex.
    #[schema(example = "9a1c…")]
    pub value: String,
}

/// A published public key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PublicKey {
    /// The first 16 hex characters of SHA-256 of the public key.
    #[schema(example = "3f2a9c0d1e7b4a56")]
    pub key_id: String,
    /// Always `Ed25519`.
    #[schema(example = "Ed25519")]
    pub alg: String,
    /// The 32 public key bytes, hex.
    pub public_key: String,
    /// When it was made (RFC 3339).
    pub created_at: String,
    /// When a newer key replaced it for signing (RFC 3339); null while it
    /// signs. A retired key still checks what it signed.
    pub retired_at: Option<String>,
}

/// Every key the server has signed with, newest first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct KeySet {
    pub keys: Vec<PublicKey>,
}

/// The key id of a public key.
#[must_use]
pub fn key_id(public: &VerifyingKey) -> String {
    hex::encode(&Sha256::digest(public.as_bytes())[..8])
}

/// The server's current signing key.
pub struct Signer {
    key: SigningKey,
    id: String,
}

impl std::fmt::Debug for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Signer").field("key_id", &self.id).finish()
    }
}

impl Signer {
    /// The signer of a 32-byte secret key.
    #[must_use]
    pub fn from_secret(secret: &[u8; 32]) -> Signer {
        let key = SigningKey::from_bytes(secret);
        let id = key_id(&key.verifying_key());
        Signer { key, id }
    }

    /// A fresh secret key from the operating system's randomness.
    #[must_use]
    pub fn fresh_secret() -> [u8; 32] {
        rand::random()
    }

    #[must_use]
    pub fn key_id(&self) -> &str {
        &self.id
    }

    /// The public key, hex.
    #[must_use]
    pub fn public_hex(&self) -> String {
        hex::encode(self.key.verifying_key().as_bytes())
    }

    fn sign_bytes(&self, context: &[u8], message: &[u8]) -> Signature {
        let mut bytes = Vec::with_capacity(context.len() + message.len());
        bytes.extend_from_slice(context);
        bytes.extend_from_slice(message);
        Signature {
            alg: ALG.to_owned(),
            key_id: self.id.clone(),
            value: hex::encode(self.key.sign(&bytes).to_bytes()),
        }
    }

    /// The signature of a document (a JSON object; its `signature` member,
    /// if any, is not signed).
    #[must_use]
    pub fn sign_document(&self, document: &Value) -> Signature {
        self.sign_bytes(AUDIT_CONTEXT, document_bytes(document).as_bytes())
    }

    /// The signature of a tree head.
    #[must_use]
    pub fn sign_tree_head(&self, size: u64, timestamp_ms: u64, root: &[u8; 32]) -> Signature {
        self.sign_bytes(
            TREE_HEAD_CONTEXT,
            &tree_head_bytes(size, timestamp_ms, root),
        )
    }
}

/// The canonical bytes of a document without its `signature`.
fn document_bytes(document: &Value) -> String {
    match document {
        Value::Object(map) if map.contains_key("signature") => {
            let mut map = map.clone();
            map.remove("signature");
            canonical_json(&Value::Object(map))
        }
        other => canonical_json(other),
    }
}

fn tree_head_bytes(size: u64, timestamp_ms: u64, root: &[u8; 32]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(48);
    bytes.extend_from_slice(&size.to_be_bytes());
    bytes.extend_from_slice(&timestamp_ms.to_be_bytes());
    bytes.extend_from_slice(root);
    bytes
}

/// Why a signature does not check.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadSignature {
    #[error("the document is not signed")]
    Unsigned,
    #[error("signed by key {0}, which is not among the keys given")]
    UnknownKey(String),
    #[error("the signature is malformed: {0}")]
    Malformed(String),
    #[error("the signature does not match: the document was altered after it was signed")]
    Mismatch,
}

impl KeySet {
    /// Reads keys as given to `hatstand verify --key`: a key set (as served
    /// at `/.well-known/hatstand-keys.json`), or one public key in hex.
    ///
    /// # Errors
    /// When the text is neither.
    pub fn parse(text: &str) -> Result<KeySet, String> {
        let trimmed = text.trim();
        if let Ok(set) = serde_json::from_str::<KeySet>(trimmed) {
            return Ok(set);
        }
        let key = verifying_key(trimmed)
            .map_err(|e| format!("neither a key set (JSON) nor a hex public key: {e}"))?;
        Ok(KeySet {
            keys: vec![PublicKey {
                key_id: key_id(&key),
                alg: ALG.to_owned(),
                public_key: trimmed.to_owned(),
                created_at: String::new(),
                retired_at: None,
            }],
        })
    }

    fn key(&self, id: &str) -> Result<VerifyingKey, BadSignature> {
        let found = self
            .keys
            .iter()
            .find(|k| k.key_id == id && k.alg == ALG)
            .ok_or_else(|| BadSignature::UnknownKey(id.to_owned()))?;
        let key = verifying_key(&found.public_key).map_err(BadSignature::Malformed)?;
        if key_id(&key) != id {
            return Err(BadSignature::Malformed(format!(
                "key {id}'s public key does not hash to its id"
            )));
        }
        Ok(key)
    }

    fn check(
        &self,
        signature: &Signature,
        context: &[u8],
        message: &[u8],
    ) -> Result<(), BadSignature> {
        if signature.alg != ALG {
            return Err(BadSignature::Malformed(format!(
                "unknown algorithm {}",
                signature.alg
            )));
        }
        let key = self.key(&signature.key_id)?;
        let bytes: [u8; 64] = hex::decode(&signature.value)
            .ok()
            .and_then(|b| b.try_into().ok())
            .ok_or_else(|| BadSignature::Malformed("not 64 bytes of hex".to_owned()))?;
        let mut signed = Vec::with_capacity(context.len() + message.len());
        signed.extend_from_slice(context);
        signed.extend_from_slice(message);
        key.verify(&signed, &ed25519_dalek::Signature::from_bytes(&bytes))
            .map_err(|_| BadSignature::Mismatch)
    }

    /// Checks a document's own `signature` over its other members, exactly
    /// as they were read.
    ///
    /// # Errors
    /// Unsigned, an unknown key, a malformed signature, or a mismatch.
    pub fn check_document(&self, document: &Value) -> Result<String, BadSignature> {
        let signature: Signature = document
            .get("signature")
            .ok_or(BadSignature::Unsigned)
            .and_then(|s| {
                serde_json::from_value(s.clone())
                    .map_err(|e| BadSignature::Malformed(e.to_string()))
            })?;
        self.check(
            &signature,
            AUDIT_CONTEXT,
            document_bytes(document).as_bytes(),
        )?;
        Ok(signature.key_id)
    }

    /// Checks a tree head's signature.
    ///
    /// # Errors
    /// An unknown key, a malformed signature, or a mismatch.
    pub fn check_tree_head(
        &self,
        signature: &Signature,
        size: u64,
        timestamp_ms: u64,
        root: &[u8; 32],
    ) -> Result<(), BadSignature> {
        self.check(
            signature,
            TREE_HEAD_CONTEXT,
            &tree_head_bytes(size, timestamp_ms, root),
        )
    }
}

fn verifying_key(hex_key: &str) -> Result<VerifyingKey, String> {
    let bytes: [u8; 32] = hex::decode(hex_key)
        .map_err(|e| e.to_string())?
        .try_into()
        .map_err(|_| "a public key is 32 bytes".to_owned())?;
    VerifyingKey::from_bytes(&bytes).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn signer() -> Signer {
        Signer::from_secret(&[7; 32])
    }

    fn keys(signer: &Signer) -> KeySet {
        KeySet::parse(&signer.public_hex()).expect("a hex key")
    }

    #[test]
    fn given_a_signed_document_when_checked_then_it_verifies_whatever_the_key_order() {
        let signer = signer();
        let mut doc = json!({"b": [1, {"y": 2, "x": "é"}], "a": null});
        let signature = signer.sign_document(&doc);
        doc["signature"] = serde_json::to_value(&signature).expect("json");
        // The same members in another order: the same canonical bytes.
        let text = r#"{"signature":SIG,"a":null,"b":[1,{"x":"é","y":2}]}"#
            .replace("SIG", &serde_json::to_string(&signature).expect("json"));
        let reread: Value = serde_json::from_str(&text).expect("json");
        assert_eq!(
            keys(&signer).check_document(&doc),
            Ok(signer.key_id().to_owned())
        );
        assert_eq!(
            keys(&signer).check_document(&reread),
            Ok(signer.key_id().to_owned())
        );
    }

    #[test]
    fn given_a_signed_document_when_any_byte_changes_then_the_signature_fails() {
        let signer = signer();
        let mut doc = json!({"seed": "abc", "events": [{"seq": 1}]});
        doc["signature"] = serde_json::to_value(signer.sign_document(&doc)).expect("json");
        let mut altered = doc.clone();
        altered["seed"] = json!("abd");
        assert_eq!(
            keys(&signer).check_document(&altered),
            Err(BadSignature::Mismatch)
        );
        let mut altered = doc.clone();
        altered["events"][0]["seq"] = json!(2);
        assert_eq!(
            keys(&signer).check_document(&altered),
            Err(BadSignature::Mismatch)
        );
        let mut added = doc.clone();
        added["note"] = json!("x");
        assert_eq!(
            keys(&signer).check_document(&added),
            Err(BadSignature::Mismatch)
        );
        let mut unsigned = doc;
        unsigned
            .as_object_mut()
            .expect("object")
            .remove("signature");
        assert_eq!(
            keys(&signer).check_document(&unsigned),
            Err(BadSignature::Unsigned)
        );
    }

    #[test]
    fn given_another_key_when_checked_then_the_key_is_unknown() {
        let doc = {
            let mut doc = json!({"a": 1});
            doc["signature"] = serde_json::to_value(signer().sign_document(&doc)).expect("json");
            doc
        };
        let other = Signer::from_secret(&[8; 32]);
        assert!(matches!(
            keys(&other).check_document(&doc),
            Err(BadSignature::UnknownKey(_))
        ));
    }

    #[test]
    fn given_a_tree_head_when_any_field_changes_then_its_signature_fails() {
        let signer = signer();
        let root = [3; 32];
        let sig = signer.sign_tree_head(10, 1_000, &root);
        let keys = keys(&signer);
        assert_eq!(keys.check_tree_head(&sig, 10, 1_000, &root), Ok(()));
        assert_eq!(
            keys.check_tree_head(&sig, 11, 1_000, &root),
            Err(BadSignature::Mismatch)
        );
        assert_eq!(
            keys.check_tree_head(&sig, 10, 1_001, &root),
            Err(BadSignature::Mismatch)
        );
        assert_eq!(
            keys.check_tree_head(&sig, 10, 1_000, &[4; 32]),
            Err(BadSignature::Mismatch)
        );
        // An audit signature is not a tree head's, whatever its bytes.
        let forged = signer.sign_bytes(AUDIT_CONTEXT, &tree_head_bytes(10, 1_000, &root));
        assert_eq!(
            keys.check_tree_head(&forged, 10, 1_000, &root),
            Err(BadSignature::Mismatch)
        );
    }

    #[test]
    fn rfc_8032_test_1_public_key_and_signature() {
        // RFC 8032, 7.1, TEST 1 (the empty message), through the same crate.
        let secret: [u8; 32] =
            hex::decode("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
                .expect("hex")
                .try_into()
                .expect("32 bytes");
        let signer = Signer::from_secret(&secret);
        assert_eq!(
            signer.public_hex(),
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
        );
        assert_eq!(
            hex::encode(signer.key.sign(b"").to_bytes()),
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        );
    }
}
