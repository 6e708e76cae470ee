//! Each user's own settings for how their turns are played
//! (docs/turn-conveniences.md): one row per user who changed one; a user
//! without a row has every setting off and no language chosen
//! (docs/i18n.md).

use chrono::{DateTime, Utc};
use diesel::OptionalExtension;
use diesel::sql_types::{Array, Bool, Nullable, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

/// A user's stored settings.
#[derive(Debug, Clone, PartialEq, Eq, Default, diesel::QueryableByName)]
pub struct SettingsRow {
    #[diesel(sql_type = Bool)]
    pub auto_play_forced: bool,
    /// The language chosen (`en`, `fr`), or None: as the request says.
    #[diesel(sql_type = Nullable<Text>)]
    pub language: Option<String>,
    /// The user's time zone (IANA), if they set one.
    #[diesel(sql_type = Nullable<Text>)]
    pub time_zone: Option<String>,
}

/// `user`'s settings (every one off when none is stored).
///
/// # Errors
/// Database errors.
pub async fn get(conn: &mut AsyncPgConnection, user: Uuid) -> diesel::QueryResult<SettingsRow> {
    let row: Option<SettingsRow> = diesel::sql_query(
        "SELECT auto_play_forced, language, time_zone FROM user_settings WHERE user_id = $1",
    )
    .bind::<SqlUuid, _>(user)
    .get_result(conn)
    .await
    .optional()?;
    Ok(row.unwrap_or_default())
}

/// Changes `user`'s settings: a value given is stored, one absent stays
/// (`language`: None keeps it, `Some(None)` clears it); returns the
/// settings now.
///
/// # Errors
/// Database errors (a foreign-key violation for a user who is gone).
pub async fn change(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    auto_play_forced: Option<bool>,
    language: Option<Option<&str>>,
    time_zone: Option<&str>,
    now: DateTime<Utc>,
) -> diesel::QueryResult<SettingsRow> {
    diesel::sql_query(
        "INSERT INTO user_settings (user_id, auto_play_forced, updated_at, language, time_zone)
         VALUES ($1, COALESCE($2, false), $3, $5, $6)
         ON CONFLICT (user_id) DO UPDATE
            SET auto_play_forced = COALESCE($2, user_settings.auto_play_forced),
                language = CASE WHEN $4 THEN $5 ELSE user_settings.language END,
                time_zone = COALESCE($6, user_settings.time_zone),
                updated_at = $3
         RETURNING auto_play_forced, language, time_zone",
    )
    .bind::<SqlUuid, _>(user)
    .bind::<Nullable<Bool>, _>(auto_play_forced)
    .bind::<Timestamptz, _>(now)
    .bind::<Bool, _>(language.is_some())
    .bind::<Nullable<Text>, _>(language.flatten())
    .bind::<Nullable<Text>, _>(time_zone)
    .get_result(conn)
    .await
}

#[derive(diesel::QueryableByName)]
struct Zone {
    #[diesel(sql_type = SqlUuid)]
    user_id: Uuid,
    #[diesel(sql_type = Text)]
    time_zone: String,
}

/// The time zones `users` set (those who set none are left out): one
/// primary-key lookup per user.
///
/// # Errors
/// Database errors.
pub async fn time_zones(
    conn: &mut AsyncPgConnection,
    users: &[Uuid],
) -> diesel::QueryResult<Vec<(Uuid, String)>> {
    let rows: Vec<Zone> = diesel::sql_query(
        "SELECT user_id, time_zone FROM user_settings
          WHERE user_id = ANY($1) AND time_zone IS NOT NULL",
    )
    .bind::<Array<SqlUuid>, _>(users)
    .load(conn)
    .await?;
    Ok(rows.into_iter().map(|z| (z.user_id, z.time_zone)).collect())
}
