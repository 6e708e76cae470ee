//! `/v1/me/settings`: the caller's turn settings (docs/turn-conveniences.md)
//! and language (docs/i18n.md).

use actix_web::{get, patch, web};

use super::problem::problems;
use super::{Reply, State};
use crate::auth::Caller;
use crate::turns::settings::{self, SettingsChange, TurnSettings, VacationYear};

/// The caller's turn settings (`auto_play_forced`: whether the server plays
/// the caller's forced moves at once). Every setting is off until changed.
#[utoipa::path(
    operation_id = "get_settings", tag = "turns", security(("bearer" = [])),
    responses((status = 200, description = "The caller's settings", body = TurnSettings,
               example = json!({"auto_play_forced": false})))
)]
#[get("/me/settings")]
pub async fn get_settings(state: State, caller: Caller) -> Reply<TurnSettings> {
    Ok(web::Json(settings::get(&state, &caller).await?))
}

/// The caller's vacation over the last 365 days, all games together,
/// against the server's yearly allowance (`--vacation-days-per-year`, 30
/// days by default; docs/clocks.md). Vacation beyond it is
/// `422 vacation_allowance_exceeded`.
#[utoipa::path(
    operation_id = "get_vacation", tag = "turns", security(("bearer" = [])),
    responses((status = 200, description = "The caller's vacation this year", body = VacationYear,
               example = json!({"allowance_secs": 2_592_000, "taken_secs": 43_200, "left_secs": 2_548_800})))
)]
#[get("/me/vacation")]
pub async fn get_vacation(state: State, caller: Caller) -> Reply<VacationYear> {
    Ok(web::Json(settings::vacation(&state, &caller).await?))
}

/// Changes the caller's settings; what is absent stays. `language` (`en`,
/// `fr`, or `null` to follow `Accept-Language` again) is the language of
/// the user's pages, mails, pushes and problem titles. `time_zone` (IANA)
/// is where the weekend pause of games with one is reckoned, for games
/// started from then on, and the zone turn mails say deadlines in. With
/// `auto_play_forced`, whenever the caller's seat has exactly one legal
/// command the server plays it at once, in the step that made it the
/// caller's turn (`turn_forced`, then the command with the caller as
/// actor), and no `your_turn` is sent for it.
#[utoipa::path(
    operation_id = "change_settings", tag = "turns", request_body = SettingsChange,
    security(("bearer" = [])),
    responses((status = 200, description = "The settings now", body = TurnSettings,
               example = json!({"auto_play_forced": true, "language": "fr", "time_zone": "Europe/Paris"})),
              ChangeSettingsProblems)
)]
#[patch("/me/settings")]
pub async fn change_settings(
    state: State,
    caller: Caller,
    body: super::strict_json::Json<SettingsChange>,
) -> Reply<TurnSettings> {
    Ok(web::Json(
        settings::change(&state, &caller, body.into_inner()).await?,
    ))
}

problems! {
    /// What `change_settings` answers besides the common problems.
    ChangeSettingsProblems {
        UnsupportedLanguage: "a language other than en and fr",
        UnknownTimeZone: "a `time_zone` not in the IANA database",
    }
}
