//! A user's turn settings.
//!
//! Rules:
//! - `auto_play_forced` (default off): when the user's seat has exactly one
//!   legal command, the server plays it for them at once, in the step that
//!   made it their turn, recorded as `turn_forced` and then the command with
//!   the user as actor. It holds in every game the user plays, from the next
//!   step of each on. Others see that the move was forced (as they would see
//!   from its timing), so in a card game they learn that the seat had one
//!   card it could play: a player who minds leaves the setting off.
//! - `language` (docs/i18n.md): `en` or `fr` for the pages, mails, pushes
//!   and problem titles, or absent (`null` in a change clears it): as the
//!   request's `Accept-Language` says, else English. Any other value is
//!   `unsupported_language`, and nothing is written.
//! - `time_zone` (IANA; none: UTC): where the weekend pause of a game
//!   with one is reckoned for the user's seat, fixed when the game starts
//!   (docs/clocks.md), and the zone turn mails say deadlines in.
//! - A change names what it changes; what is absent stays.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::context::Context;
use crate::db::errors::unknown_user_is_unauthenticated;
use crate::db::user_settings::{self, SettingsRow};
use crate::error::{ErrorCode, Failure};
use crate::i18n::Language;

/// A user's turn settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"auto_play_forced": true, "language": "fr", "time_zone": "Europe/Paris"}))]
pub struct TurnSettings {
    /// Whether the server plays the user's forced moves (a seat with exactly
    /// one legal command) at once.
    pub auto_play_forced: bool,
    /// The language the user chose (`en`, `fr`); absent when none was: the
    /// request's `Accept-Language` decides, else English.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<Language>,
    /// The user's time zone (IANA): weekends of games with a weekend pause
    /// (docs/clocks.md) and deadlines in turn mails. Absent: UTC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<String>,
}

/// A player's vacation over the last 365 days.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"allowance_secs": 2_592_000, "taken_secs": 43_200, "left_secs": 2_548_800}))]
pub struct VacationYear {
    /// The yearly allowance, in seconds; absent when the server sets none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowance_secs: Option<i64>,
    /// The vacation taken, in seconds.
    pub taken_secs: i64,
    /// What is left of the allowance, in seconds; absent without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left_secs: Option<i64>,
}

/// A change of settings: what is absent stays.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"auto_play_forced": true, "language": "fr"}))]
pub struct SettingsChange {
    /// Whether the server plays the user's forced moves at once.
    #[serde(default)]
    pub auto_play_forced: Option<bool>,
    /// The user's time zone (IANA, e.g. `Europe/Paris`).
    #[serde(default)]
    #[schema(example = "Europe/Paris")]
    pub time_zone: Option<String>,
    /// `en` or `fr`; `null` clears the choice (the request decides again).
    /// Any other value is `unsupported_language`.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, nullable, example = "fr")]
    pub language: Option<Option<String>>,
}

/// A member that is present, `null` or not: `Some(None)` for `null`, so a
/// change can tell clearing from leaving alone (absent is the `default`).
fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

impl From<SettingsRow> for TurnSettings {
    fn from(row: SettingsRow) -> Self {
        TurnSettings {
            auto_play_forced: row.auto_play_forced,
            language: row.language.as_deref().and_then(Language::from_code),
            time_zone: row.time_zone,
        }
    }
}

/// The caller's settings.
///
/// # Errors
/// `unavailable`.
pub async fn get(ctx: &Context, caller: &Caller) -> Result<TurnSettings, Failure> {
    let mut conn = ctx.pool.get().await?;
    Ok(user_settings::get(&mut conn, caller.user_id).await?.into())
}

/// The caller's vacation over the last 365 days, all games together,
/// against the server's yearly allowance (docs/clocks.md).
///
/// # Errors
/// `unavailable`.
pub async fn vacation(ctx: &Context, caller: &Caller) -> Result<VacationYear, Failure> {
    let mut conn = ctx.pool.get().await?;
    let since = crate::record::chain::now() - chrono::TimeDelta::days(365);
    let taken = crate::db::vacation::taken_since(&mut conn, caller.user_id, since).await?;
    let allowance = ctx.cost_limits.vacation_per_year_secs;
    Ok(VacationYear {
        allowance_secs: (allowance > 0).then_some(allowance),
        taken_secs: taken,
        left_secs: (allowance > 0).then(|| (allowance - taken).max(0)),
    })
}

/// Changes the caller's settings; returns them as they are now.
///
/// # Errors
/// `unsupported_language` for a language other than `en` and `fr`;
/// `unknown_time_zone`; (nothing written for either); `unauthenticated` for
/// a user who is gone; `unavailable`.
pub async fn change(
    ctx: &Context,
    caller: &Caller,
    change: SettingsChange,
) -> Result<TurnSettings, Failure> {
    let language = match &change.language {
        None => None,
        Some(None) => Some(None),
        Some(Some(code)) => Some(Some(
            Language::from_code(code)
                .ok_or_else(|| {
                    Failure::new(
                        ErrorCode::UnsupportedLanguage,
                        format!("the server speaks en and fr, not {code:?}"),
                    )
                })?
                .code(),
        )),
    };
    if let Some(zone) = &change.time_zone {
        crate::record::clock::zone(zone)
            .map_err(|e| Failure::new(crate::error::ErrorCode::UnknownTimeZone, e.to_string()))?;
    }
    let mut conn = ctx.pool.get().await?;
    let row = user_settings::change(
        &mut conn,
        caller.user_id,
        change.auto_play_forced,
        language,
        change.time_zone.as_deref(),
        crate::record::chain::now(),
    )
    .await
    .map_err(unknown_user_is_unauthenticated)?;
    Ok(row.into())
}
