//! Reading and changing a user's notification preferences (the use cases
//! of `GET`/`PATCH /v1/me/notification-preferences`); the rules are in
//! [`super::preferences`].

use std::collections::BTreeMap;

use super::preferences::{self, CHANNELS, NotificationPreferences, PreferencesChange, QuietHours};
use crate::auth::Caller;
use crate::context::Context;
use crate::db::errors::unknown_user_is_unauthenticated;
use crate::db::notification_preferences::{self as store, Change, PreferencesRow};
use crate::error::Failure;

impl From<PreferencesRow> for NotificationPreferences {
    fn from(row: PreferencesRow) -> Self {
        let off: BTreeMap<String, Vec<String>> = CHANNELS
            .iter()
            .zip([row.push_off, row.email_off, row.webhooks_off])
            .map(|(c, kinds)| ((*c).to_owned(), kinds))
            .collect();
        let quiet_hours = match (row.quiet_start, row.quiet_end) {
            (Some(start), Some(end)) => Some(QuietHours {
                start: preferences::clock(start),
                end: preferences::clock(end),
            }),
            _ => None,
        };
        NotificationPreferences {
            off,
            quiet_hours,
            reminder_before_minutes: row.reminder_before_minutes,
        }
    }
}

/// The caller's preferences.
///
/// # Errors
/// `unavailable`.
pub async fn get(ctx: &Context, caller: &Caller) -> Result<NotificationPreferences, Failure> {
    let mut conn = ctx.pool.get().await?;
    Ok(store::get(&mut conn, caller.user_id).await?.into())
}

/// Changes the caller's preferences; returns them as they are now.
///
/// # Errors
/// `unknown_channel`, `unknown_notification_kind`, `invalid_quiet_hours`,
/// `invalid_duration` (nothing written); `unauthenticated` for a user who
/// is gone; `unavailable`.
pub async fn change(
    ctx: &Context,
    caller: &Caller,
    change: PreferencesChange,
) -> Result<NotificationPreferences, Failure> {
    let checked = preferences::check(&change)?;
    let [push_off, email_off, webhooks_off] = checked.off;
    let mut conn = ctx.pool.get().await?;
    let row = store::change(
        &mut conn,
        caller.user_id,
        Change {
            push_off,
            email_off,
            webhooks_off,
            quiet: checked.quiet,
            lead: checked.lead,
        },
        crate::record::chain::now(),
    )
    .await
    .map_err(unknown_user_is_unauthenticated)?;
    Ok(row.into())
}
