//! A user's email address and what they want mailed.
//!
//! Rules:
//! - One address per user; setting it (again) sends a new 8-digit code to
//!   it and leaves it unconfirmed until the code is given back (within 24
//!   hours, at most 5 tries). An unconfirmed address gets nothing else. A
//!   user is sent at most one code a minute, whatever they did meanwhile
//!   (removing the address and setting it again included).
//! - A code is kept only while its mail waits to go: once the mail is sent,
//!   skipped or given up, the outbox row no longer holds it, only the
//!   address's hash of it does.
//! - A confirmed address belongs to one account.
//! - Each kind of mail is `immediately` (the default), `digest` or `never`;
//!   reminders are `immediately` or `never`. The digest goes at
//!   `digest_hour` (0–23) in `time_zone` (an IANA name, `UTC` by default).
//! - The one-click unsubscribe link of a mail turns its kind to `never`
//!   (the digest's turns every `digest` kind to `never`).

use chrono::{Duration, Utc};
use diesel_async::AsyncConnection;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, SchemaType, Type};
use utoipa::{PartialSchema, ToSchema};
use uuid::Uuid;

use crate::auth::Caller;
use crate::context::Context;
use crate::db::errors::unknown_user;
use crate::db::mail::{self, AddressRow};
use crate::error::{ErrorCode, Failure};
use crate::notifications::kind::Kind;

/// The kinds of mail a user chooses about, as stored in their preferences.
pub const KINDS: [&str; 8] = [
    Kind::CHOSEN[0].as_str(),
    Kind::CHOSEN[1].as_str(),
    Kind::CHOSEN[2].as_str(),
    Kind::CHOSEN[3].as_str(),
    Kind::CHOSEN[4].as_str(),
    Kind::CHOSEN[5].as_str(),
    Kind::CHOSEN[6].as_str(),
    Kind::CHOSEN[7].as_str(),
];
/// Tries at one code.
pub const MAX_CODE_ATTEMPTS: i32 = 5;
/// How long a code is good for.
pub const CODE_HOURS: i64 = 24;
/// The least time between two codes sent for one user (so that nobody can
/// make the server mail a stranger over and over).
pub const CODE_INTERVAL_SECS: i64 = 60;

/// When a kind of mail is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// As soon as it happens.
    Immediately,
    /// In the daily digest.
    Digest,
    /// Not at all.
    Never,
}

/// When a reminder is sent: a `Mode` but `digest`.
#[derive(ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReminderMode {
    /// As soon as it happens.
    Immediately,
    /// Not at all.
    Never,
}

/// Each kind of mail's mode.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Preferences {
    /// A game newly waits for you (with the game and your legal moves).
    pub your_turn: Mode,
    /// A quarter of your turn's time is left (`immediately` or `never`).
    pub reminder: Mode,
    /// You are invited to a private game.
    pub invited: Mode,
    /// A game you play ended (with the result and the audit link).
    pub game_finished: Mode,
    /// Someone said something to you or at your table (docs/talk.md).
    pub talk: Mode,
    /// A substitute took over a seat of a game you play (docs/seats.md).
    pub seat_substituted: Mode,
    /// A round of a tournament you entered started: your table is ready
    /// (docs/tournaments.md).
    pub tournament_round: Mode,
    /// A tournament you entered ended (your place) or was cancelled.
    pub tournament_finished: Mode,
}

/// The caller's address and mail preferences.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct EmailSettings {
    #[schema(example = "ada@example.com")]
    pub address: String,
    /// Whether the address was confirmed; until then it gets nothing but its code.
    pub confirmed: bool,
    pub preferences: Preferences,
    /// The hour (0–23) of the daily digest, in `time_zone`.
    #[schema(example = 8)]
    pub digest_hour: u8,
    /// An IANA time zone name.
    #[schema(example = "Europe/Paris")]
    pub time_zone: String,
}

/// A new address.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewAddress {
    /// At most 254 characters.
    #[schema(example = "ada@example.com", format = Email, max_length = 254)]
    pub address: String,
}

/// The code mailed to the address.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Confirmation {
    #[schema(example = "04918273")]
    pub code: String,
}

/// Changes to the preferences; what is absent stays.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PreferenceChange {
    pub your_turn: Option<Mode>,
    /// `immediately` or `never` (a reminder is never put off to a digest).
    #[schema(value_type = Option<ReminderMode>)]
    pub reminder: Option<Mode>,
    pub invited: Option<Mode>,
    pub game_finished: Option<Mode>,
    pub talk: Option<Mode>,
    pub seat_substituted: Option<Mode>,
    pub tournament_round: Option<Mode>,
    pub tournament_finished: Option<Mode>,
    #[schema(minimum = 0, maximum = 23)]
    pub digest_hour: Option<u8>,
    #[schema(value_type = Option<TimeZone>)]
    pub time_zone: Option<String>,
}

/// The time zone names a player may choose, one a line after the comments.
const TIME_ZONE_LIST: &str = include_str!("time_zones.txt");

/// The time zone names a player may choose (`time_zones.txt`).
pub fn time_zones() -> impl Iterator<Item = &'static str> {
    TIME_ZONE_LIST
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
}

/// A time zone name a player may choose.
pub struct TimeZone;

impl PartialSchema for TimeZone {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::String))
            .description(Some(
                "An IANA time zone name: a zone of IANA's `zone.tab`, `UTC`, or an older name \
                 browsers still give (`Asia/Calcutta`).",
            ))
            .enum_values(Some(time_zones()))
            .into()
    }
}

impl ToSchema for TimeZone {}

fn mode_of(preferences: &Value, kind: &str) -> Mode {
    match preferences.get(kind).and_then(Value::as_str) {
        Some("digest") => Mode::Digest,
        Some("never") => Mode::Never,
        _ => Mode::Immediately,
    }
}

impl From<&AddressRow> for EmailSettings {
    fn from(row: &AddressRow) -> Self {
        let p = &row.preferences;
        EmailSettings {
            address: row.address.clone(),
            confirmed: row.confirmed_at.is_some(),
            preferences: Preferences {
                your_turn: mode_of(p, Kind::YourTurn.as_str()),
                reminder: mode_of(p, Kind::Reminder.as_str()),
                invited: mode_of(p, Kind::Invited.as_str()),
                game_finished: mode_of(p, Kind::GameFinished.as_str()),
                talk: mode_of(p, Kind::Talk.as_str()),
                seat_substituted: mode_of(p, Kind::SeatSubstituted.as_str()),
                tournament_round: mode_of(p, Kind::TournamentRound.as_str()),
                tournament_finished: mode_of(p, Kind::TournamentFinished.as_str()),
            },
            digest_hour: u8::try_from(row.digest_hour).unwrap_or(8),
            time_zone: row.time_zone.clone(),
        }
    }
}

fn no_address() -> Failure {
    Failure::not_found("you have no email address; add one with PUT /v1/me/email")
}

fn code_hash(user: Uuid, code: &str) -> String {
    hex::encode(Sha256::digest(format!("{user}:{code}").as_bytes()))
}

/// The caller's settings.
///
/// # Errors
/// `not_found` without an address.
pub async fn get(ctx: &Context, caller: &Caller) -> Result<EmailSettings, Failure> {
    let mut conn = ctx.pool.get().await?;
    let row = mail::address(&mut conn, caller.user_id)
        .await?
        .ok_or_else(no_address)?;
    Ok(EmailSettings::from(&row))
}

/// Sets the caller's address and mails it a confirmation code: one a
/// minute per user, and (`docs/limits.md`) a few an hour per client
/// address and a few a day per email address, whoever asks, so that no one
/// can bomb a mailbox with codes from many accounts.
///
/// # Errors
/// `bad_request` for what is not an address; `rate_limited` (a code less
/// than a minute ago), `limit_reached` (per client or email address).
pub async fn set(
    ctx: &Context,
    caller: &Caller,
    new: NewAddress,
    client: Option<std::net::IpAddr>,
) -> Result<EmailSettings, Failure> {
    let address = new.address.trim();
    if address.len() > 254 || address.parse::<lettre::Address>().is_err() {
        return Err(Failure::bad_request(
            "address must be an email address such as ada@example.com (at most 254 characters)",
        ));
    }
    let code = format!("{:08}", rand::random_range(0..100_000_000_u32));
    let user = caller.user_id;
    let mut conn = ctx.pool.get().await?;
    let row = conn
        .transaction::<_, Failure, _>(async |conn| {
            let last_code = mail::lock_last_code(conn, user)
                .await?
                .ok_or_else(unknown_user)?;
            if let Some(sent) = last_code {
                let wait = CODE_INTERVAL_SECS - (Utc::now() - sent).num_seconds();
                if wait > 0 {
                    return Err(Failure::rate_limited(
                        "a code was sent less than a minute ago",
                        u64::try_from(wait).unwrap_or(1),
                    ));
                }
            }
            let limits = &ctx.cost_limits;
            let mut keys = vec![(
                format!("codes-to:{}", address.to_lowercase()),
                limits.codes_per_mailbox,
            )];
            if let Some(client) = client {
                keys.push((format!("codes-from:{client}"), limits.codes_per_client));
            }
            let now = Utc::now();
            if let Some(until) = crate::db::throttle::reserve(conn, &keys, now).await? {
                return Err(Failure::limit_reached(
                    "too many confirmation codes were asked for from this client address or \
                     for this email address; try again later",
                    crate::auth::limits::retry_after(until, now),
                ));
            }
            // The user's row is locked: it stays until the commit.
            Ok(mail::set_address(
                conn,
                user,
                address,
                &code_hash(user, &code),
                &code,
                Utc::now() + Duration::hours(CODE_HOURS),
            )
            .await?)
        })
        .await?;
    drop(conn);
    ctx.announcer.queued_mail();
    Ok(EmailSettings::from(&row))
}

/// Confirms the caller's address with the code mailed to it.
///
/// # Errors
/// `not_found` without an address; `bad_request` for a wrong or expired
/// code, or after 5 tries; `forbidden` when another account confirmed the
/// address first.
pub async fn confirm(
    ctx: &Context,
    caller: &Caller,
    given: Confirmation,
) -> Result<EmailSettings, Failure> {
    let mut conn = ctx.pool.get().await?;
    let row = mail::address(&mut conn, caller.user_id)
        .await?
        .ok_or_else(no_address)?;
    if row.confirmed_at.is_some() {
        return Ok(EmailSettings::from(&row));
    }
    let (Some(hash), Some(expires)) = (&row.code_hash, row.code_expires_at) else {
        return Err(Failure::new(
            ErrorCode::WrongCode,
            "no code is pending; set the address again",
        ));
    };
    if row.code_attempts >= MAX_CODE_ATTEMPTS || expires < Utc::now() {
        return Err(Failure::new(
            ErrorCode::WrongCode,
            "the code has expired or was tried too often; set the address again for a new one",
        ));
    }
    mail::count_code_attempt(&mut conn, caller.user_id).await?;
    if code_hash(caller.user_id, given.code.trim()) != *hash {
        return Err(Failure::new(
            ErrorCode::WrongCode,
            "that is not the code mailed to the address",
        ));
    }
    if !mail::confirm(&mut conn, caller.user_id).await? {
        return Err(Failure::new(
            ErrorCode::Forbidden,
            "another account has confirmed this address",
        ));
    }
    let row = mail::address(&mut conn, caller.user_id)
        .await?
        .ok_or_else(no_address)?;
    Ok(EmailSettings::from(&row))
}

/// Changes the caller's preferences.
///
/// # Errors
/// `not_found` without an address; `bad_request` for a reminder in
/// `digest` mode, an hour over 23 or an unknown time zone.
pub async fn change(
    ctx: &Context,
    caller: &Caller,
    change: PreferenceChange,
) -> Result<EmailSettings, Failure> {
    if change.reminder == Some(Mode::Digest) {
        return Err(Failure::bad_request("reminder is immediately or never"));
    }
    if change.digest_hour.is_some_and(|h| h > 23) {
        return Err(Failure::bad_request("digest_hour is 0–23"));
    }
    let mut conn = ctx.pool.get().await?;
    let row = mail::address(&mut conn, caller.user_id)
        .await?
        .ok_or_else(no_address)?;
    // A new name is one of the list (and known to PostgreSQL, which the
    // digest asks); the stored one is kept as it is.
    let listed = change
        .time_zone
        .as_deref()
        .is_none_or(|name| time_zones().any(|known| known == name));
    let time_zone = change.time_zone.unwrap_or(row.time_zone.clone());
    if !listed || !mail::known_time_zone(&mut conn, &time_zone).await? {
        return Err(Failure::bad_request(format!(
            "{time_zone:?} is not a time zone name (such as Europe/Paris or UTC)"
        )));
    }
    let mut preferences = row.preferences.as_object().cloned().unwrap_or_default();
    let changes = [
        (Kind::YourTurn.as_str(), change.your_turn),
        (Kind::Reminder.as_str(), change.reminder),
        (Kind::Invited.as_str(), change.invited),
        (Kind::GameFinished.as_str(), change.game_finished),
        (Kind::Talk.as_str(), change.talk),
        (Kind::SeatSubstituted.as_str(), change.seat_substituted),
        (Kind::TournamentRound.as_str(), change.tournament_round),
        (
            Kind::TournamentFinished.as_str(),
            change.tournament_finished,
        ),
    ];
    for (kind, mode) in changes {
        if let Some(mode) = mode {
            preferences.insert(
                kind.into(),
                serde_json::to_value(mode).map_err(Failure::internal)?,
            );
        }
    }
    let hour = change.digest_hour.map_or(row.digest_hour, i16::from);
    let row = mail::set_preferences(
        &mut conn,
        caller.user_id,
        &Value::Object(preferences),
        hour,
        &time_zone,
    )
    .await?
    .ok_or_else(no_address)?;
    Ok(EmailSettings::from(&row))
}

/// Removes the caller's address.
///
/// # Errors
/// `not_found` without an address.
pub async fn remove(ctx: &Context, caller: &Caller) -> Result<(), Failure> {
    let mut conn = ctx.pool.get().await?;
    if !mail::remove(&mut conn, caller.user_id).await? {
        return Err(no_address());
    }
    Ok(())
}

/// The one-click unsubscribe of `user` from mails of `kind` (`digest`:
/// every kind in digest mode), if `signature` is the link's.
///
/// # Errors
/// `not_found` for a link the server did not make (or an address since removed).
pub async fn unsubscribe(
    ctx: &Context,
    secret: &[u8],
    user: Uuid,
    kind: &str,
    signature: &str,
) -> Result<(), Failure> {
    let known = KINDS.contains(&kind) || kind == "digest";
    if !known || !super::token::unsubscribe_signature_ok(secret, user, kind, signature) {
        return Err(Failure::not_found(
            "this is not an unsubscribe link of this server",
        ));
    }
    let mut conn = ctx.pool.get().await?;
    let row = mail::address(&mut conn, user)
        .await?
        .ok_or_else(|| Failure::not_found("this address no longer gets mail from this server"))?;
    let mut preferences: Map<String, Value> =
        row.preferences.as_object().cloned().unwrap_or_default();
    for each in KINDS {
        let digest_kind = kind == "digest" && mode_of(&row.preferences, each) == Mode::Digest;
        if each == kind || digest_kind {
            preferences.insert(each.into(), Value::from("never"));
        }
    }
    mail::set_preferences(
        &mut conn,
        user,
        &Value::Object(preferences),
        row.digest_hour,
        &row.time_zone,
    )
    .await?;
    Ok(())
}

/// The page an unsubscribe link opens in a browser: one button that POSTs
/// the same link (a mail client's one-click unsubscribe POSTs directly).
#[must_use]
pub fn unsubscribe_page(user: Uuid, kind: &str, signature: &str) -> String {
    let (kind, signature) = (
        super::render::escape(kind),
        super::render::escape(signature),
    );
    format!(
        "<!doctype html><title>Unsubscribe</title>\
         <form method=\"post\" action=\"/v1/email/unsubscribe?user={user}&amp;kind={kind}&amp;sig={signature}\">\
         <p>Stop these mails ({kind})?</p><button type=\"submit\">Unsubscribe</button></form>"
    )
}
