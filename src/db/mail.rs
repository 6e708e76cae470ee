//! Email addresses, mail preferences and the mail outbox.

use chrono::{DateTime, Utc};
use diesel::sql_types::{
    BigInt, Bool, Int2, Int4, Jsonb, Nullable, Text, Timestamptz, Uuid as SqlUuid,
};
use diesel::{OptionalExtension, QueryableByName};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use uuid::Uuid;

/// The mail outbox's CTE (see `db::notifications::OUTBOXES`): for every new
/// notification of a user with a confirmed address, one row per kind of mail
/// it causes that the user has not turned off (`never`, or left out of
/// `email` in their notification preferences) — the notification's own
/// kind, and for a `your_turn` with a deadline also a `reminder`, due the
/// user's chosen lead before the deadline, else when a quarter of the
/// turn's time is left (`hatstand_reminder_due`; none when the lead is as
/// long as the turn). A kind in `digest` mode is due at the user's next
/// digest hour.
pub const OUTBOX: &str =
    "INSERT INTO mail_outbox (user_id, kind, notification_id, game_id, payload, digest, due_at)
    SELECT n.user_id, k.kind, n.id, n.game_id, n.payload, k.mode = 'digest',
           CASE WHEN k.kind = 'reminder' THEN k.reminder_due
                WHEN k.mode = 'digest'
                     THEN hatstand_next_digest(e.digest_hour, e.time_zone, n.created_at)
                ELSE n.created_at END
      FROM noted n
      JOIN email_addresses e ON e.user_id = n.user_id AND e.confirmed_at IS NOT NULL
      LEFT JOIN notification_preferences p ON p.user_id = n.user_id
      CROSS JOIN LATERAL (
            SELECT kk.kind, COALESCE(e.preferences ->> kk.kind, 'immediately') AS mode,
                   hatstand_reminder_due((n.payload ->> 'deadline')::timestamptz, n.created_at,
                                         p.reminder_before_minutes) AS reminder_due
              FROM (VALUES (n.kind),
                           (CASE WHEN n.kind = 'your_turn' AND n.payload ->> 'deadline' IS NOT NULL
                                 THEN 'reminder' END)) kk(kind)
             WHERE kk.kind IS NOT NULL) k
     WHERE k.mode <> 'never'
       AND NOT (k.kind = ANY (COALESCE(p.email_off, '{}')))
       AND (k.kind <> 'reminder' OR k.reminder_due IS NOT NULL)
    RETURNING notification_id";

/// A user's address and mail preferences.
#[derive(Debug, Clone, QueryableByName)]
pub struct AddressRow {
    #[diesel(sql_type = SqlUuid)]
    pub user_id: Uuid,
    #[diesel(sql_type = Text)]
    pub address: String,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    pub confirmed_at: Option<DateTime<Utc>>,
    #[diesel(sql_type = Nullable<Text>)]
    pub code_hash: Option<String>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    pub code_expires_at: Option<DateTime<Utc>>,
    #[diesel(sql_type = Int4)]
    pub code_attempts: i32,
    #[diesel(sql_type = Jsonb)]
    pub preferences: Value,
    #[diesel(sql_type = Int2)]
    pub digest_hour: i16,
    #[diesel(sql_type = Text)]
    pub time_zone: String,
}

/// The `SET` item that drops a confirmation code from a mail's payload when
/// the update takes the mail out of `pending` (sent, skipped or failed), as
/// it does where `leaving` (an SQL condition) holds: a code is kept only as
/// long as a mail still has to carry it.
fn forget_code(leaving: &str) -> String {
    format!(
        "payload = CASE WHEN kind = 'confirm_address' AND ({leaving}) THEN payload - 'code' ELSE payload END"
    )
}

const COLUMNS: &str = "user_id, address, confirmed_at, code_hash, code_expires_at, code_attempts, preferences, digest_hour, time_zone";

/// The address of `user`, if any.
///
/// # Errors
/// Database errors.
pub async fn address(
    conn: &mut AsyncPgConnection,
    user: Uuid,
) -> diesel::QueryResult<Option<AddressRow>> {
    let mut rows: Vec<AddressRow> = diesel::sql_query(format!(
        "SELECT {COLUMNS} FROM email_addresses WHERE user_id = $1"
    ))
    .bind::<SqlUuid, _>(user)
    .load(conn)
    .await?;
    Ok(rows.pop())
}

/// When `user` was last sent a confirmation code (queued, whatever became
/// of it since: an address removed or changed meanwhile does not undo it),
/// with `user`'s row locked until the end of the transaction, so that two
/// requests of one user ask and set one after the other. `Some(None)` for a
/// user who never had one; `None` for an unknown user.
///
/// # Errors
/// Database errors.
pub async fn lock_last_code(
    conn: &mut AsyncPgConnection,
    user: Uuid,
) -> diesel::QueryResult<Option<Option<DateTime<Utc>>>> {
    #[derive(QueryableByName)]
    struct Last {
        #[diesel(sql_type = Nullable<Timestamptz>)]
        at: Option<DateTime<Utc>>,
    }
    let last: Option<Last> = diesel::sql_query(
        "SELECT (SELECT max(created_at) FROM mail_outbox
                  WHERE user_id = $1 AND kind = 'confirm_address') AS at
           FROM users WHERE id = $1
            FOR NO KEY UPDATE",
    )
    .bind::<SqlUuid, _>(user)
    .get_result(conn)
    .await
    .optional()?;
    Ok(last.map(|last| last.at))
}

/// Sets `user`'s address to `address`, unconfirmed, with a new confirmation
/// code (its hash), and queues the mail that carries the code; preferences
/// are kept. Returns the row.
///
/// # Errors
/// Database errors (a foreign key violation for an unknown user).
pub async fn set_address(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    address: &str,
    code_hash: &str,
    code: &str,
    expires_at: DateTime<Utc>,
) -> diesel::QueryResult<AddressRow> {
    diesel::sql_query(format!(
        "WITH set AS (
            INSERT INTO email_addresses (user_id, address, code_hash, code_expires_at)
            VALUES ($1, $2, $3, $4)
            ON CONFLICT (user_id) DO UPDATE
               SET address = EXCLUDED.address, confirmed_at = NULL, code_hash = EXCLUDED.code_hash,
                   code_expires_at = EXCLUDED.code_expires_at, code_attempts = 0, updated_at = now()
            RETURNING {COLUMNS}),
         dropped AS (
            UPDATE mail_outbox SET state = 'skipped', last_error = 'the address changed', {forget}
             WHERE user_id = $1 AND state = 'pending'
            RETURNING 1),
         queued AS (
            INSERT INTO mail_outbox (user_id, kind, payload)
            SELECT $1, 'confirm_address', jsonb_build_object('address', $2::text, 'code', $5::text)
              FROM set
            RETURNING 1)
         SELECT {COLUMNS} FROM set",
        forget = forget_code("true")
    ))
    .bind::<SqlUuid, _>(user)
    .bind::<Text, _>(address)
    .bind::<Text, _>(code_hash)
    .bind::<Timestamptz, _>(expires_at)
    .bind::<Text, _>(code)
    .get_result(conn)
    .await
}

/// Counts one try at `user`'s confirmation code.
///
/// # Errors
/// Database errors.
pub async fn count_code_attempt(
    conn: &mut AsyncPgConnection,
    user: Uuid,
) -> diesel::QueryResult<()> {
    diesel::sql_query(
        "UPDATE email_addresses SET code_attempts = code_attempts + 1 WHERE user_id = $1",
    )
    .bind::<SqlUuid, _>(user)
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks `user`'s address confirmed; `false` when another account has
/// confirmed the same address meanwhile (the unique index).
///
/// # Errors
/// Database errors other than that one.
pub async fn confirm(conn: &mut AsyncPgConnection, user: Uuid) -> diesel::QueryResult<bool> {
    let done = diesel::sql_query(
        "UPDATE email_addresses
            SET confirmed_at = now(), code_hash = NULL, code_expires_at = NULL, updated_at = now()
          WHERE user_id = $1",
    )
    .bind::<SqlUuid, _>(user)
    .execute(conn)
    .await;
    match done {
        Ok(_) => Ok(true),
        Err(e) if super::errors::is_unique_violation(&e) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Removes `user`'s address (and drops the mails still to send); whether there was one.
///
/// # Errors
/// Database errors.
pub async fn remove(conn: &mut AsyncPgConnection, user: Uuid) -> diesel::QueryResult<bool> {
    #[derive(QueryableByName)]
    struct Removed {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }
    let removed: Removed = diesel::sql_query(format!(
        "WITH gone AS (DELETE FROM email_addresses WHERE user_id = $1 RETURNING 1),
              dropped AS (
                UPDATE mail_outbox SET state = 'skipped', last_error = 'the address was removed', {forget}
                 WHERE user_id = $1 AND state = 'pending' RETURNING 1)
         SELECT count(*) AS n FROM gone",
        forget = forget_code("true")
    ))
    .bind::<SqlUuid, _>(user)
    .get_result(conn)
    .await?;
    Ok(removed.n > 0)
}

/// Stores `user`'s preferences and digest time.
///
/// # Errors
/// Database errors.
pub async fn set_preferences(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    preferences: &Value,
    digest_hour: i16,
    time_zone: &str,
) -> diesel::QueryResult<Option<AddressRow>> {
    let mut rows: Vec<AddressRow> = diesel::sql_query(format!(
        "UPDATE email_addresses
            SET preferences = $2, digest_hour = $3, time_zone = $4, updated_at = now()
          WHERE user_id = $1
         RETURNING {COLUMNS}"
    ))
    .bind::<SqlUuid, _>(user)
    .bind::<Jsonb, _>(preferences)
    .bind::<Int2, _>(digest_hour)
    .bind::<Text, _>(time_zone)
    .load(conn)
    .await?;
    Ok(rows.pop())
}

/// Whether PostgreSQL knows the time zone `name` (an IANA name such as
/// `Europe/Paris`).
///
/// # Errors
/// Database errors.
pub async fn known_time_zone(
    conn: &mut AsyncPgConnection,
    name: &str,
) -> diesel::QueryResult<bool> {
    #[derive(QueryableByName)]
    struct Known {
        #[diesel(sql_type = Bool)]
        known: bool,
    }
    let row: Known = diesel::sql_query(
        "SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = $1) AS known",
    )
    .bind::<Text, _>(name)
    .get_result(conn)
    .await?;
    Ok(row.known)
}

/// Queues a mail that no notification causes (a reply to a mailed move).
///
/// # Errors
/// Database errors.
pub async fn queue_direct(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    kind: &str,
    game: Option<Uuid>,
    payload: &Value,
) -> diesel::QueryResult<()> {
    diesel::sql_query(
        "INSERT INTO mail_outbox (user_id, kind, game_id, payload)
         SELECT $1, $2, $3, $4 FROM email_addresses WHERE user_id = $1 AND confirmed_at IS NOT NULL",
    )
    .bind::<SqlUuid, _>(user)
    .bind::<Text, _>(kind)
    .bind::<Nullable<SqlUuid>, _>(game)
    .bind::<Jsonb, _>(payload)
    .execute(conn)
    .await?;
    Ok(())
}

/// One mail (or digest line) claimed for sending, with its recipient.
#[derive(Debug, Clone, QueryableByName)]
pub struct Claimed {
    #[diesel(sql_type = SqlUuid)]
    pub user_id: Uuid,
    #[diesel(sql_type = BigInt)]
    pub id: i64,
    #[diesel(sql_type = Text)]
    pub kind: String,
    #[diesel(sql_type = Nullable<SqlUuid>)]
    pub game_id: Option<Uuid>,
    #[diesel(sql_type = Jsonb)]
    pub payload: Value,
    #[diesel(sql_type = Bool)]
    pub digest: bool,
    #[diesel(sql_type = Int4)]
    pub attempts: i32,
    #[diesel(sql_type = Timestamptz)]
    pub created_at: DateTime<Utc>,
    /// Where it goes: the address as it is now (the confirmation code goes
    /// to the address it confirms, confirmed or not).
    #[diesel(sql_type = Text)]
    pub address: String,
    #[diesel(sql_type = Text)]
    pub username: String,
    /// The reader's time zone (IANA): their profile's, else their digest's.
    #[diesel(sql_type = Text)]
    pub time_zone: String,
    /// The reader's language setting (`en`, `fr`), if they chose one.
    #[diesel(sql_type = Nullable<Text>)]
    pub language: Option<String>,
}

/// The due mails: a range of the partial index `mail_outbox_due` (pending
/// only), the earliest first.
pub(crate) const CLAIM: &str = "WITH due AS (
            SELECT user_id, id FROM mail_outbox
             WHERE state = 'pending' AND due_at <= now()
             ORDER BY due_at
             LIMIT 16
               FOR UPDATE SKIP LOCKED),
         taken AS (
            UPDATE mail_outbox o
               SET attempts = o.attempts + 1, due_at = now() + make_interval(secs => $1)
              FROM due
             WHERE o.user_id = due.user_id AND o.id = due.id
            RETURNING o.*)
         SELECT t.user_id, t.id, t.kind, t.game_id, t.payload, t.digest, t.attempts, t.created_at,
                CASE WHEN t.kind = 'confirm_address' THEN t.payload ->> 'address' ELSE e.address END AS address,
                u.username,
                COALESCE(st.time_zone, e.time_zone) AS time_zone,
                st.language
           FROM taken t
           JOIN users u ON u.id = t.user_id
           JOIN email_addresses e ON e.user_id = t.user_id
           LEFT JOIN user_settings st ON st.user_id = t.user_id
          ORDER BY t.user_id, t.id";

/// Claims up to 16 due mails (or digest lines), leasing them for
/// `lease_secs`; the lines of one user's digest due together go in one mail.
///
/// # Errors
/// Database errors.
pub async fn claim_due(
    conn: &mut AsyncPgConnection,
    lease_secs: f64,
) -> diesel::QueryResult<Vec<Claimed>> {
    diesel::sql_query(CLAIM)
        .bind::<diesel::sql_types::Double, _>(lease_secs)
        .load(conn)
        .await
}

/// Records mails as sent (or, `skipped`, as not worth sending any more).
///
/// # Errors
/// Database errors.
pub async fn finish(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    ids: &[i64],
    state: &str,
    why: Option<&str>,
) -> diesel::QueryResult<()> {
    diesel::sql_query(format!(
        "UPDATE mail_outbox
            SET state = $3, sent_at = CASE WHEN $3 = 'sent' THEN now() END, last_error = $4, {forget}
          WHERE user_id = $1 AND id = ANY($2)",
        forget = forget_code("true")
    ))
    .bind::<SqlUuid, _>(user)
    .bind::<diesel::sql_types::Array<BigInt>, _>(ids)
    .bind::<Text, _>(state)
    .bind::<Nullable<Text>, _>(why)
    .execute(conn)
    .await?;
    Ok(())
}

/// Records a failed attempt: retried after `retry_secs`, or `failed` once
/// it has had `max_attempts`.
///
/// # Errors
/// Database errors.
pub async fn failed(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    ids: &[i64],
    error: &str,
    max_attempts: i32,
    retry_secs: f64,
) -> diesel::QueryResult<()> {
    diesel::sql_query(format!(
        "UPDATE mail_outbox
            SET last_error = $3,
                state = CASE WHEN attempts >= $4 THEN 'failed' ELSE 'pending' END,
                {forget},
                due_at = now() + make_interval(secs => $5)
          WHERE user_id = $1 AND id = ANY($2)",
        forget = forget_code("attempts >= $4")
    ))
    .bind::<SqlUuid, _>(user)
    .bind::<diesel::sql_types::Array<BigInt>, _>(ids)
    .bind::<Text, _>(error)
    .bind::<Int4, _>(max_attempts)
    .bind::<diesel::sql_types::Double, _>(retry_secs)
    .execute(conn)
    .await?;
    Ok(())
}

/// Mails due and not sent yet (future reminders and digest lines are not a
/// backlog), through the outbox's partial index of pending rows.
const BACKLOG: &str = "SELECT count(*) AS pending,
       coalesce(extract(epoch FROM now() - min(due_at)), 0)::float8 AS oldest_due_seconds
  FROM mail_outbox WHERE state = 'pending' AND due_at <= now()";

/// The mail outbox's backlog, for `/metrics`.
///
/// # Errors
/// Database errors.
pub async fn backlog(conn: &mut AsyncPgConnection) -> diesel::QueryResult<super::backlog::Backlog> {
    diesel::sql_query(BACKLOG).get_result(conn).await
}

/// Records what sent mail `id` showed, when it asks for a move: the version
/// of its reply address and the fingerprint of its facts and moves.
///
/// # Errors
/// Database errors.
pub async fn record_shown(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    id: i64,
    version: i64,
    fingerprint: &str,
) -> diesel::QueryResult<()> {
    diesel::sql_query(
        "UPDATE mail_outbox
            SET payload = payload || jsonb_build_object('shown',
                    jsonb_build_object('version', $3::bigint, 'fingerprint', $4::text))
          WHERE user_id = $1 AND id = $2",
    )
    .bind::<SqlUuid, _>(user)
    .bind::<BigInt, _>(id)
    .bind::<BigInt, _>(version)
    .bind::<Text, _>(fingerprint)
    .execute(conn)
    .await?;
    Ok(())
}

/// The fingerprint a sent mail of `user` about `game` showed at `version`
/// (see [`record_shown`]), if one is kept.
///
/// # Errors
/// Database errors.
pub async fn shown_at(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    game: Uuid,
    version: i64,
) -> diesel::QueryResult<Option<String>> {
    #[derive(QueryableByName)]
    struct Shown {
        #[diesel(sql_type = Text)]
        fingerprint: String,
    }
    let mut rows: Vec<Shown> = diesel::sql_query(
        "SELECT payload -> 'shown' ->> 'fingerprint' AS fingerprint
           FROM mail_outbox
          WHERE user_id = $1 AND game_id = $2 AND state = 'sent'
            AND payload -> 'shown' ->> 'version' = $3::text
          ORDER BY id DESC LIMIT 1",
    )
    .bind::<SqlUuid, _>(user)
    .bind::<SqlUuid, _>(game)
    .bind::<BigInt, _>(version)
    .load(conn)
    .await?;
    Ok(rows.pop().map(|r| r.fingerprint))
}

/// When the last turn mail (`your_turn`, `reminder`, not a digest line)
/// of `user` about `game` that was sent had been queued, if one was. (Its
/// queueing, not its sending: what was said between the two is told again
/// rather than never.)
///
/// # Errors
/// Database errors.
pub async fn last_turn_mail(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    game: Uuid,
) -> diesel::QueryResult<Option<DateTime<Utc>>> {
    #[derive(QueryableByName)]
    struct Sent {
        #[diesel(sql_type = Timestamptz)]
        created_at: DateTime<Utc>,
    }
    let mut rows: Vec<Sent> = diesel::sql_query(
        "SELECT created_at FROM mail_outbox
          WHERE user_id = $1 AND game_id = $2 AND state = 'sent' AND NOT digest
            AND kind IN ('your_turn', 'reminder')
          ORDER BY id DESC LIMIT 1",
    )
    .bind::<SqlUuid, _>(user)
    .bind::<SqlUuid, _>(game)
    .load(conn)
    .await?;
    Ok(rows.pop().map(|r| r.created_at))
}
