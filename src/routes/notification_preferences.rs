//! `/v1/me/notification-preferences` (docs/push.md): which kinds each
//! channel leaves out, quiet hours for pushes, and the reminder's lead.

use actix_web::{get, patch, web};

use super::problem::problems;
use super::{Reply, State};
use crate::auth::Caller;
use crate::notifications::preferences::{NotificationPreferences, PreferencesChange};
use crate::notifications::preferences_change;

/// The caller's notification preferences: per channel (`push`, `email`,
/// `webhooks`) the kinds it leaves out, quiet hours for pushes on the
/// caller's clock (their `time_zone` setting, else UTC), and how long
/// before a clock runs out the reminder comes (null: when a quarter of the
/// turn's time is left). Until changed, every kind goes everywhere.
#[utoipa::path(
    operation_id = "get_notification_preferences", tag = "notifications",
    security(("bearer" = [])),
    responses((status = 200, description = "The caller's preferences", body = NotificationPreferences,
               example = json!({"off": {"push": [], "email": [], "webhooks": []},
                                "quiet_hours": null, "reminder_before_minutes": null})))
)]
#[get("/me/notification-preferences")]
pub async fn get(state: State, caller: Caller) -> Reply<NotificationPreferences> {
    Ok(web::Json(preferences_change::get(&state, &caller).await?))
}

/// Changes the caller's notification preferences; what is absent stays.
/// `off` replaces the list of each channel it names. A push due in quiet
/// hours is held until they end, and then goes unless a newer push about
/// the same game is due by then (that one goes instead). Changing quiet
/// hours releases held pushes at once (the new hours may hold them again).
#[utoipa::path(
    operation_id = "change_notification_preferences", tag = "notifications",
    request_body = PreferencesChange, security(("bearer" = [])),
    responses((status = 200, description = "The preferences now", body = NotificationPreferences,
               example = json!({"off": {"push": ["talk", "game_finished"], "email": [], "webhooks": []},
                                "quiet_hours": {"start": "23:00", "end": "07:00"},
                                "reminder_before_minutes": 60})),
              ChangeNotificationPreferencesProblems)
)]
#[patch("/me/notification-preferences")]
pub async fn change(
    state: State,
    caller: Caller,
    body: super::strict_json::Json<PreferencesChange>,
) -> Reply<NotificationPreferences> {
    Ok(web::Json(
        preferences_change::change(&state, &caller, body.into_inner()).await?,
    ))
}

problems! {
    /// What `change_notification_preferences` answers besides the common problems.
    ChangeNotificationPreferencesProblems {
        UnknownChannel: "a channel other than push, email and webhooks",
        UnknownNotificationKind: "a kind one cannot choose about",
        InvalidQuietHours: "a start or end that is not HH:MM, or the two equal",
        InvalidDuration: "reminder_before_minutes outside 5 to 10080",
    }
}
