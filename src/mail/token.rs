//! The signed tokens of mail: the reply address of a turn mail, the reply
//! address of a talk mail, and the one-click unsubscribe link.
//!
//! A **reply token** names a game, a seat, the version the mail showed and
//! an expiry, and carries an HMAC-SHA256 (truncated to 80 bits) over those
//! *and the seat's user*, keyed by the server's mail secret: only the
//! server can make one, it moves only that user's seat, and only at that
//! version. What it names is encrypted, so that a forwarded mail's reply
//! address names no game: the tag is a synthetic IV (SIV), and the payload
//! is XORed with HMAC-SHA256 of it under a key derived for that (an
//! authenticated encryption: a token tells nothing but whether it is the
//! same as another). A random nonce in the payload makes every mail's
//! token its own, so each can be answered once a turn. It is written in
//! lowercase base32 (mail systems may change the case of an address), 58
//! characters, so that `play+<token>@<domain>` keeps within the 64
//! characters an address's local part may have; the expiry is the end of
//! a day, to leave room for the nonce. Tokens mailed before they were
//! encrypted (56 characters, in the clear) still read until they expire.
//!
//! A **talk token** (`talk+<token>@<domain>`, the reply address of a talk
//! mail, docs/talk.md) is made the same way and signed in a domain of its
//! own, so that neither kind of token reads as the other: it names the
//! game, the reader's seat (who answers) and, in place of a version, the
//! seat a press answer goes to ([`TalkToken::to`]; none: the table).

use chrono::{DateTime, Utc};
use data_encoding::BASE32_NOPAD;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use uuid::Uuid;

/// The local part's prefix of reply addresses.
pub const REPLY_PREFIX: &str = "play+";

/// The local part's prefix of talk reply addresses.
pub const TALK_PREFIX: &str = "talk+";

/// The signature domain of reply tokens.
const REPLY_DOMAIN: &[u8] = b"reply\0";
/// The signature domain of talk tokens.
const TALK_DOMAIN: &[u8] = b"talk\0";

/// How long a reply token is good for.
pub const REPLY_TTL_DAYS: i64 = 30;

const MAC_BYTES: usize = 10;
/// Game, seat, version, expiry (a day number), nonce.
const PAYLOAD_BYTES: usize = 16 + 1 + 4 + 2 + 3;
/// The payload of tokens mailed before they were encrypted: expiry in
/// seconds, no nonce.
const LEGACY_PAYLOAD_BYTES: usize = 16 + 1 + 4 + 4;
const DAY: u32 = 86_400;

/// What a reply token says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplyToken {
    pub game: Uuid,
    pub seat: u8,
    pub version: u32,
    /// Unix seconds (the end of a day, in tokens made now).
    pub expires: u32,
    /// Random: every mail's token is its own, even two for one turn made
    /// in the same second (each is answered once a turn).
    pub nonce: [u8; 3],
}

/// Why a reply token is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("the reply address holds no valid token")]
    Malformed,
    #[error("the reply address's signature does not match")]
    BadSignature,
    #[error("the reply address has expired")]
    Expired,
}

fn mac(secret: &[u8], domain: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(secret)
        .unwrap_or_else(|_| unreachable!("HMAC accepts keys of any length"));
    mac.update(domain);
    for part in parts {
        mac.update(part);
    }
    mac.finalize().into_bytes().into()
}

/// XORs `payload` with the key stream of `tag`: HMAC-SHA256 under the
/// mail secret, in a domain of its own, of the tag (the synthetic IV).
fn cipher(secret: &[u8], tag: &[u8], payload: &mut [u8]) {
    let stream = mac(secret, b"reply-stream\0", &[tag]);
    for (byte, key) in payload.iter_mut().zip(stream) {
        *byte ^= key;
    }
}

/// The key under which a reply token's answer is counted
/// (`db::throttle`) while its game is at `version`: a token is answered at
/// most once per turn.
#[must_use]
pub fn answer_key(tag: &[u8], version: i64) -> String {
    format!(
        "{}{}:{version}",
        crate::db::throttle::REPLY_PREFIX,
        hex::encode(tag)
    )
}

impl ReplyToken {
    /// A token for `seat` of `game` at `version`, good until `expires`
    /// (rounded up to the end of its day, UTC).
    #[must_use]
    pub fn new(game: Uuid, seat: u8, version: i64, expires: DateTime<Utc>) -> Self {
        let secs = u32::try_from(expires.timestamp()).unwrap_or(u32::MAX - DAY);
        ReplyToken {
            game,
            seat,
            version: u32::try_from(version).unwrap_or(u32::MAX),
            expires: secs.div_ceil(DAY).saturating_mul(DAY),
            nonce: rand::random(),
        }
    }

    fn payload(&self) -> [u8; PAYLOAD_BYTES] {
        let day = u16::try_from(self.expires / DAY).unwrap_or(u16::MAX);
        let mut bytes = [0u8; PAYLOAD_BYTES];
        bytes[..16].copy_from_slice(self.game.as_bytes());
        bytes[16] = self.seat;
        bytes[17..21].copy_from_slice(&self.version.to_be_bytes());
        bytes[21..23].copy_from_slice(&day.to_be_bytes());
        bytes[23..].copy_from_slice(&self.nonce);
        bytes
    }

    /// What the signature covers: the payload in the clear.
    fn signed(&self, legacy: bool) -> Vec<u8> {
        if !legacy {
            return self.payload().to_vec();
        }
        let mut bytes = self.payload()[..21].to_vec();
        bytes.extend_from_slice(&self.expires.to_be_bytes());
        bytes
    }

    /// The token as written in an address, signed for `user`.
    #[must_use]
    pub fn encode(&self, secret: &[u8], user: Uuid) -> String {
        self.encode_in(secret, user, REPLY_DOMAIN)
    }

    /// The token as written in an address, signed for `user` in `domain`.
    fn encode_in(&self, secret: &[u8], user: Uuid, domain: &[u8]) -> String {
        let mut payload = self.payload();
        let tag = mac(secret, domain, &[user.as_bytes(), &payload]);
        let tag = &tag[..MAC_BYTES];
        cipher(secret, tag, &mut payload);
        let mut bytes = payload.to_vec();
        bytes.extend_from_slice(tag);
        BASE32_NOPAD.encode(&bytes).to_ascii_lowercase()
    }

    /// Reads a token (decrypting it with `secret`) without checking it:
    /// the seat's user, which the signature covers, is found from its game
    /// and seat, then [`ReplyToken::check`] checks it. A token mailed
    /// before tokens were encrypted (shorter, in the clear) reads as it
    /// was written, until it expires; `true` beside it says so.
    ///
    /// # Errors
    /// [`TokenError::Malformed`].
    pub fn decode(text: &str, secret: &[u8]) -> Result<(Self, Vec<u8>, bool), TokenError> {
        let mut bytes = BASE32_NOPAD
            .decode(text.to_ascii_uppercase().as_bytes())
            .map_err(|_| TokenError::Malformed)?;
        if bytes.len() == LEGACY_PAYLOAD_BYTES + MAC_BYTES {
            let (payload, tag) = bytes.split_at(LEGACY_PAYLOAD_BYTES);
            let mut expires = [0u8; 4];
            expires.copy_from_slice(&payload[21..]);
            let token = ReplyToken {
                expires: u32::from_be_bytes(expires),
                nonce: [0; 3],
                ..Self::from_payload(payload)?
            };
            return Ok((token, tag.to_vec(), true));
        }
        if bytes.len() != PAYLOAD_BYTES + MAC_BYTES {
            return Err(TokenError::Malformed);
        }
        let (payload, tag) = bytes.split_at_mut(PAYLOAD_BYTES);
        cipher(secret, tag, payload);
        let mut day = [0u8; 2];
        day.copy_from_slice(&payload[21..23]);
        let mut nonce = [0u8; 3];
        nonce.copy_from_slice(&payload[23..]);
        let token = ReplyToken {
            // A day past 2106 (only a forged or garbled token names one) saturates.
            expires: u32::from(u16::from_be_bytes(day)).saturating_mul(DAY),
            nonce,
            ..Self::from_payload(payload)?
        };
        Ok((token, tag.to_vec(), false))
    }

    /// The game, seat and version of `payload` (in the clear).
    fn from_payload(payload: &[u8]) -> Result<Self, TokenError> {
        let game = Uuid::from_slice(&payload[..16]).map_err(|_| TokenError::Malformed)?;
        let mut version = [0u8; 4];
        version.copy_from_slice(&payload[17..21]);
        Ok(ReplyToken {
            game,
            seat: payload[16],
            version: u32::from_be_bytes(version),
            expires: 0,
            nonce: [0; 3],
        })
    }

    /// Checks `tag` (from [`ReplyToken::decode`]) for `user` and the expiry at `now`.
    ///
    /// # Errors
    /// [`TokenError::BadSignature`], [`TokenError::Expired`].
    pub fn check(
        &self,
        (tag, legacy): (&[u8], bool),
        secret: &[u8],
        user: Uuid,
        now: DateTime<Utc>,
    ) -> Result<(), TokenError> {
        self.check_in((tag, legacy), secret, user, now, REPLY_DOMAIN)
    }

    /// [`ReplyToken::check`], for a token signed in `domain`.
    fn check_in(
        &self,
        (tag, legacy): (&[u8], bool),
        secret: &[u8],
        user: Uuid,
        now: DateTime<Utc>,
        domain: &[u8],
    ) -> Result<(), TokenError> {
        // Compared in constant time by the MAC type's own check.
        let mut verifier = <Hmac<Sha256> as Mac>::new_from_slice(secret)
            .unwrap_or_else(|_| unreachable!("HMAC accepts keys of any length"));
        verifier.update(domain);
        verifier.update(user.as_bytes());
        verifier.update(&self.signed(legacy));
        if tag.len() != MAC_BYTES || verifier.verify_truncated_left(tag).is_err() {
            return Err(TokenError::BadSignature);
        }
        if i64::from(self.expires) < now.timestamp() {
            return Err(TokenError::Expired);
        }
        Ok(())
    }
}

/// What a talk token says: who answers a talk mail, and where the answer
/// goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TalkToken {
    pub game: Uuid,
    /// The reader's seat: the answer is said by the user holding it.
    pub seat: u8,
    /// The seat a press answer goes to (the author of the press message
    /// answered); none: the answer is said at the table.
    pub to: Option<u8>,
    /// Unix seconds (the end of a day).
    pub expires: u32,
    pub nonce: [u8; 3],
}

impl TalkToken {
    /// A token for `seat` of `game` answering to `to` (none: the table),
    /// good until `expires` (rounded up to the end of its day, UTC).
    #[must_use]
    pub fn new(game: Uuid, seat: u8, to: Option<u8>, expires: DateTime<Utc>) -> Self {
        let reply = ReplyToken::new(game, seat, 0, expires);
        TalkToken {
            game,
            seat,
            to,
            expires: reply.expires,
            nonce: reply.nonce,
        }
    }

    /// The same fields in a reply token's layout (`to` as its version,
    /// `u32::MAX` for the table).
    fn as_reply(&self) -> ReplyToken {
        ReplyToken {
            game: self.game,
            seat: self.seat,
            version: self.to.map_or(u32::MAX, u32::from),
            expires: self.expires,
            nonce: self.nonce,
        }
    }

    /// The token as written in an address, signed for `user`.
    #[must_use]
    pub fn encode(&self, secret: &[u8], user: Uuid) -> String {
        self.as_reply().encode_in(secret, user, TALK_DOMAIN)
    }

    /// Reads a token without checking it (see [`ReplyToken::decode`]).
    ///
    /// # Errors
    /// [`TokenError::Malformed`].
    pub fn decode(text: &str, secret: &[u8]) -> Result<(Self, Vec<u8>), TokenError> {
        let (reply, tag, legacy) = ReplyToken::decode(text, secret)?;
        let to = match reply.version {
            u32::MAX => None,
            seat => Some(u8::try_from(seat).map_err(|_| TokenError::Malformed)?),
        };
        if legacy {
            return Err(TokenError::Malformed);
        }
        let token = TalkToken {
            game: reply.game,
            seat: reply.seat,
            to,
            expires: reply.expires,
            nonce: reply.nonce,
        };
        Ok((token, tag))
    }

    /// Checks `tag` (from [`TalkToken::decode`]) for `user` and the expiry at `now`.
    ///
    /// # Errors
    /// [`TokenError::BadSignature`], [`TokenError::Expired`].
    pub fn check(
        &self,
        tag: &[u8],
        secret: &[u8],
        user: Uuid,
        now: DateTime<Utc>,
    ) -> Result<(), TokenError> {
        self.as_reply()
            .check_in((tag, false), secret, user, now, TALK_DOMAIN)
    }
}

/// The reply address of `token` for `user` at `domain`.
#[must_use]
pub fn reply_address(token: &ReplyToken, secret: &[u8], user: Uuid, domain: &str) -> String {
    format!("{REPLY_PREFIX}{}@{domain}", token.encode(secret, user))
}

/// The talk reply address of `token` for `user` at `domain`.
#[must_use]
pub fn talk_address(token: &TalkToken, secret: &[u8], user: Uuid, domain: &str) -> String {
    format!("{TALK_PREFIX}{}@{domain}", token.encode(secret, user))
}

/// The token text in a recipient address, if it is a reply address
/// (`play+<token>@...`, any case, in angle brackets or not).
#[must_use]
pub fn token_in(address: &str) -> Option<&str> {
    after_prefix(address, REPLY_PREFIX)
}

/// The token text in a recipient address, if it is a talk reply address
/// (`talk+<token>@...`, any case, in angle brackets or not).
#[must_use]
pub fn talk_token_in(address: &str) -> Option<&str> {
    after_prefix(address, TALK_PREFIX)
}

fn after_prefix<'a>(address: &'a str, wanted: &str) -> Option<&'a str> {
    let address = address.trim().trim_start_matches('<').trim_end_matches('>');
    let local = address.split('@').next()?;
    let prefix = local.get(..wanted.len())?;
    prefix
        .eq_ignore_ascii_case(wanted)
        .then(|| &local[wanted.len()..])
}

/// The signature of the one-click unsubscribe link of `user` from mails of
/// `kind`, hex.
#[must_use]
pub fn unsubscribe_signature(secret: &[u8], user: Uuid, kind: &str) -> String {
    let tag = mac(
        secret,
        b"unsubscribe\0",
        &[user.as_bytes(), kind.as_bytes()],
    );
    hex::encode(&tag[..16])
}

/// Whether `signature` is the unsubscribe signature of `user` and `kind`.
#[must_use]
pub fn unsubscribe_signature_ok(secret: &[u8], user: Uuid, kind: &str, signature: &str) -> bool {
    let Ok(given) = hex::decode(signature) else {
        return false;
    };
    let mut verifier = <Hmac<Sha256> as Mac>::new_from_slice(secret)
        .unwrap_or_else(|_| unreachable!("HMAC accepts keys of any length"));
    verifier.update(b"unsubscribe\0");
    verifier.update(user.as_bytes());
    verifier.update(kind.as_bytes());
    given.len() == 16 && verifier.verify_truncated_left(&given).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &[u8] = b"a mail secret";

    fn token() -> ReplyToken {
        ReplyToken::new(
            Uuid::from_u128(0x1234_5678_9abc_def0_1234_5678_9abc_def0),
            1,
            17,
            DateTime::from_timestamp(2_000_000_000, 0).unwrap(),
        )
    }

    fn now() -> DateTime<Utc> {
        DateTime::from_timestamp(1_900_000_000, 0).unwrap()
    }

    #[test]
    fn a_reply_address_fits_the_64_characters_of_a_local_part() {
        let address = reply_address(&token(), SECRET, Uuid::nil(), "example.com");
        let local = address.split('@').next().unwrap();
        assert!(local.len() <= 64, "{local} is {} long", local.len());
        assert_eq!(local, local.to_ascii_lowercase());
    }

    #[test]
    fn a_token_reads_back_and_checks_for_its_user_only() {
        let user = Uuid::from_u128(7);
        let token = token();
        // It expires at the end of its day.
        assert_eq!(token.expires % DAY, 0);
        assert!((2_000_000_000..2_000_000_000 + DAY).contains(&token.expires));
        let text = token.encode(SECRET, user);
        let (read, tag, legacy) = ReplyToken::decode(&text.to_ascii_uppercase(), SECRET).unwrap();
        assert_eq!((read, legacy), (token, false));
        assert_eq!(read.check((&tag, false), SECRET, user, now()), Ok(()));
        assert_eq!(
            read.check((&tag, false), SECRET, Uuid::from_u128(8), now()),
            Err(TokenError::BadSignature)
        );
        assert_eq!(
            read.check((&tag, false), b"another secret", user, now()),
            Err(TokenError::BadSignature)
        );
        let later = DateTime::from_timestamp(i64::from(token.expires) + 1, 0).unwrap();
        assert_eq!(
            read.check((&tag, false), SECRET, user, later),
            Err(TokenError::Expired)
        );
    }

    #[test]
    fn a_token_with_a_changed_version_is_refused() {
        let user = Uuid::from_u128(7);
        let (_, tag, _) = ReplyToken::decode(&token().encode(SECRET, user), SECRET).unwrap();
        let forged = ReplyToken {
            version: 18,
            ..token()
        };
        assert_eq!(
            forged.check((&tag, false), SECRET, user, now()),
            Err(TokenError::BadSignature)
        );
        assert_eq!(
            ReplyToken::decode("not-a-token", SECRET),
            Err(TokenError::Malformed)
        );
        assert_eq!(
            ReplyToken::decode("aaaa", SECRET),
            Err(TokenError::Malformed)
        );
    }

    #[test]
    fn given_any_bytes_of_a_tokens_length_then_reading_them_never_panics() {
        // Every day number, read under a key that garbles the payload, reads
        // as some token or as malformed, never a panic (the day once
        // overflowed when multiplied out to seconds).
        for day in [0u16, 1, 49_710, 49_711, u16::MAX] {
            let mut bytes = vec![0u8; PAYLOAD_BYTES + MAC_BYTES];
            bytes[21..23].copy_from_slice(&day.to_be_bytes());
            let (payload, tag) = bytes.split_at_mut(PAYLOAD_BYTES);
            cipher(SECRET, tag, payload);
            let text = BASE32_NOPAD.encode(&bytes);
            let (read, _, _) = ReplyToken::decode(&text, SECRET).unwrap();
            assert_eq!(read.expires / DAY, u32::from(day).min(u32::MAX / DAY));
        }
        for seed in 0u32..2_000 {
            let bytes: Vec<u8> = (0..PAYLOAD_BYTES + MAC_BYTES)
                .map(|i| (seed.wrapping_mul(2_654_435_761).rotate_left(i as u32) >> 7) as u8)
                .collect();
            let text = BASE32_NOPAD.encode(&bytes);
            let _ = ReplyToken::decode(&text, SECRET);
        }
    }

    #[test]
    fn a_token_names_its_game_only_to_the_server_and_every_mail_has_its_own() {
        // Given a token, its bytes hold no four bytes of the game id in a row …
        let user = Uuid::from_u128(7);
        let bytes = |token: &ReplyToken| {
            BASE32_NOPAD
                .decode(token.encode(SECRET, user).to_ascii_uppercase().as_bytes())
                .unwrap()
        };
        let first = token();
        let game = first.game;
        assert!(
            !bytes(&first)
                .windows(4)
                .any(|w| game.as_bytes().windows(4).any(|g| g == w))
        );
        // … a second token for the same turn, made in the same second,
        // differs from it throughout …
        let second = token();
        assert_ne!(first.nonce, second.nonce);
        let (a, b) = (bytes(&first), bytes(&second));
        assert!(a.iter().zip(&b).filter(|(x, y)| x == y).count() < 8);
        // … and under another secret it reads as something else, whose
        // signature does not hold.
        let text = first.encode(SECRET, user);
        let (read, tag, _) = ReplyToken::decode(&text, b"another secret").unwrap();
        assert_ne!(read, first);
        assert!(
            read.check((&tag, false), b"another secret", user, now())
                .is_err()
        );
        assert_eq!(
            answer_key(&tag, 17),
            format!("reply:{}:17", hex::encode(&tag))
        );
    }

    #[test]
    fn a_token_mailed_in_the_clear_before_still_reads_and_checks() {
        // Given a token as written before tokens were encrypted …
        let user = Uuid::from_u128(7);
        let old = ReplyToken {
            expires: 2_000_000_000,
            nonce: [0; 3],
            ..token()
        };
        let signed = old.signed(true);
        let tag = mac(SECRET, b"reply\0", &[user.as_bytes(), &signed]);
        let mut bytes = signed.clone();
        bytes.extend_from_slice(&tag[..MAC_BYTES]);
        let text = BASE32_NOPAD.encode(&bytes).to_ascii_lowercase();
        // … it reads as it was written, and checks.
        let (read, tag, legacy) = ReplyToken::decode(&text, SECRET).unwrap();
        assert_eq!((read, legacy), (old, true));
        assert_eq!(read.check((&tag, true), SECRET, user, now()), Ok(()));
        assert!(read.check((&tag, false), SECRET, user, now()).is_err());
    }

    #[test]
    fn given_a_talk_token_when_read_then_it_checks_as_talk_only() {
        // Given a talk token answering seat 2 in press, and one to the table
        let user = Uuid::from_u128(7);
        let game = Uuid::from_u128(9);
        let expires = DateTime::from_timestamp(2_000_000_000, 0).unwrap();
        for to in [Some(2), None] {
            let token = TalkToken::new(game, 1, to, expires);
            let text = token.encode(SECRET, user);
            // When it is read, then it is what was made and checks for its user
            let (read, tag) = TalkToken::decode(&text, SECRET).unwrap();
            assert_eq!(read, token);
            assert_eq!(read.check(&tag, SECRET, user, now()), Ok(()));
            assert!(read.check(&tag, SECRET, Uuid::from_u128(8), now()).is_err());
            // And read as a move's reply token, it does not check
            let (as_reply, tag, _) = ReplyToken::decode(&text, SECRET).unwrap();
            assert_eq!(
                as_reply.check((&tag, false), SECRET, user, now()),
                Err(TokenError::BadSignature)
            );
            assert!(
                talk_address(&token, SECRET, user, "example.com")
                    .split('@')
                    .next()
                    .unwrap()
                    .len()
                    <= 64
            );
        }
        // A move's reply token does not check as a talk token
        let reply = token();
        let (as_talk, tag) = TalkToken::decode(&reply.encode(SECRET, user), SECRET)
            .unwrap_or_else(|_| (TalkToken::new(game, 1, None, expires), vec![0; MAC_BYTES]));
        assert!(as_talk.check(&tag, SECRET, user, now()).is_err());
    }

    #[test]
    fn tokens_are_found_in_reply_addresses_only() {
        assert_eq!(talk_token_in("<TALK+abc@example.com>"), Some("abc"));
        assert_eq!(talk_token_in("play+abc@example.com"), None);
        assert_eq!(token_in("talk+abc@example.com"), None);
        assert_eq!(token_in("<PLAY+abc@example.com>"), Some("abc"));
        assert_eq!(token_in("play+abc@example.com"), Some("abc"));
        assert_eq!(token_in("someone@example.com"), None);
        assert_eq!(token_in("pl@x"), None);
    }

    #[test]
    fn unsubscribe_links_are_signed_per_user_and_kind() {
        let user = Uuid::from_u128(3);
        let sig = unsubscribe_signature(SECRET, user, "your_turn");
        assert!(unsubscribe_signature_ok(SECRET, user, "your_turn", &sig));
        assert!(!unsubscribe_signature_ok(SECRET, user, "invited", &sig));
        assert!(!unsubscribe_signature_ok(
            SECRET,
            Uuid::from_u128(4),
            "your_turn",
            &sig
        ));
        assert!(!unsubscribe_signature_ok(SECRET, user, "your_turn", "zz"));
    }
}
