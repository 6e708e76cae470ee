//! What can go wrong, in the domain's words: every failure a client can see
//! has one stable [`ErrorCode`], declared once below. Use cases return a
//! [`Failure`]; the HTTP edge (`routes::problem`) turns it into problem+json
//! with the status the code maps to. The OpenAPI document's `code` enum and
//! the table in docs/api.md come from the same list (a test compares them).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Declares [`ErrorCode`] and its list from one table.
macro_rules! error_codes {
    ($( $(#[doc = $doc:literal])+ $variant:ident = $code:literal, )+) => {
        /// The stable, machine-readable problem code clients branch on.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
        #[serde(rename_all = "snake_case")]
        pub enum ErrorCode {
            $( $(#[doc = $doc])+ $variant, )+
        }

        impl ErrorCode {
            /// Every code, in the order of docs/api.md's table.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant),+];

            /// The code as clients see it.
            #[must_use]
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $code,)+
                }
            }
        }
    };
}

impl ErrorCode {
    /// Whether a failure of this code is the request's own (a refusal:
    /// asking again the same way gets the same answer), not the server's
    /// (`internal`, `unavailable`, `busy`: asking again later may succeed).
    /// The HTTP layer answers exactly the refusals with a 4xx (a test there
    /// holds the two together).
    #[must_use]
    pub fn is_refusal(self) -> bool {
        !matches!(
            self,
            ErrorCode::Internal | ErrorCode::Unavailable | ErrorCode::Busy
        )
    }
}

error_codes! {
    /// Malformed JSON, wrong types, unknown fields, bad query, path or header values.
    BadRequest = "bad_request",
    /// Missing, expired, malformed, forged or signed-out credentials.
    Unauthenticated = "unauthenticated",
    /// A rotated refresh token sent again: its session is now revoked.
    RefreshTokenReused = "refresh_token_reused",
    /// A password change with the wrong current password.
    WrongPassword = "wrong_password",
    /// An email confirmation code that is not the one mailed, has expired or
    /// was tried too often, or none is pending: set the address again.
    WrongCode = "wrong_code",
    /// Acting in a game the caller has no seat in.
    NotAPlayer = "not_a_player",
    /// Anything else the caller may not do.
    Forbidden = "forbidden",
    /// A private game without its invite code or an invitation.
    NotInvited = "not_invited",
    /// An unknown game, user, ruleset, webhook or route.
    NotFound = "not_found",
    /// A method the route does not serve.
    MethodNotAllowed = "method_not_allowed",
    /// The request body did not arrive in time.
    RequestTimeout = "request_timeout",
    /// The version sent is not the game's current version (`current_version` tells it).
    VersionConflict = "version_conflict",
    /// Every seat of the game is taken.
    GameFull = "game_full",
    /// The seat asked for is taken.
    SeatTaken = "seat_taken",
    /// The caller already sits at the game.
    AlreadyJoined = "already_joined",
    /// The game has not started (or is no longer open to join).
    GameNotOpen = "game_not_open",
    /// The game is over.
    GameFinished = "game_finished",
    /// The audit of a game that is still being played; a rematch of a game not finished.
    GameNotFinished = "game_not_finished",
    /// The username belongs to someone else.
    UsernameTaken = "username_taken",
    /// The caller is seated but the game does not wait for them now.
    NotYourTurn = "not_your_turn",
    /// The seat is already out of the game.
    AlreadyResigned = "already_resigned",
    /// A vacation in a game without `turn_timeout`.
    NoDeadline = "no_deadline",
    /// The account has as many webhooks as it may.
    TooManyWebhooks = "too_many_webhooks",
    /// The account has as many push subscriptions as it may (10).
    TooManyPushSubscriptions = "too_many_push_subscriptions",
    /// A push subscription whose endpoint is not `https://`, names a
    /// non-public address, or whose keys are not a P-256 key and a 16-byte secret.
    InvalidPushSubscription = "invalid_push_subscription",
    /// A notification channel the server does not know (push: `web`,
    /// `fcm`, `apns`; preferences: `push`, `email`, `webhooks`).
    UnknownChannel = "unknown_channel",
    /// A push channel (`fcm`, `apns`) this server is not configured for.
    PushChannelNotConfigured = "push_channel_not_configured",
    /// A notification kind one cannot choose about (`your_turn`,
    /// `reminder`, `invited`, `game_finished`, `talk`, `takeback_offered`).
    UnknownNotificationKind = "unknown_notification_kind",
    /// Quiet hours whose `start` or `end` is not `HH:MM`, or that are equal.
    InvalidQuietHours = "invalid_quiet_hours",
    /// Talk the game's `talk` option does not allow (`none`; press at a
    /// `table` game), or a room the caller may not speak in.
    TalkNotAllowed = "talk_not_allowed",
    /// A press message to no seat, to a seat the game does not have, or to the author's own.
    AudienceNotASeat = "audience_not_a_seat",
    /// A message over 1,000 characters.
    MessageTooLong = "message_too_long",
    /// Every seat a press message names has muted its author.
    Muted = "muted",
    /// An operator hiding a message nobody reported.
    NotReported = "not_reported",
    /// A notification cursor into what was pruned: refetch from the start.
    CursorExpired = "cursor_expired",
    /// A body over the size limit.
    PayloadTooLarge = "payload_too_large",
    /// A well-formed command the rules forbid now.
    IllegalCommand = "illegal_command",
    /// Game options the ruleset cannot play.
    InvalidOptions = "invalid_options",
    /// Tournament settings that cannot be run (docs/tournaments.md: the
    /// window, the schedule, the cap, the format's rounds, duplicate mode).
    InvalidTournament = "invalid_tournament",
    /// Registering or withdrawing outside the tournament's registration window.
    RegistrationClosed = "registration_closed",
    /// Registering for a tournament at its player cap.
    TournamentFull = "tournament_full",
    /// Registering twice for one tournament.
    AlreadyRegistered = "already_registered",
    /// Withdrawing from a tournament one is not registered for.
    NotRegistered = "not_registered",
    /// Registering with a rating below the tournament's minimum.
    BelowMinRating = "below_min_rating",
    /// The audit of a tournament still registering or running.
    TournamentNotOver = "tournament_not_over",
    /// A clock duration that is malformed or out of range (docs/clocks.md).
    InvalidDuration = "invalid_duration",
    /// A time zone that is not in the IANA database.
    UnknownTimeZone = "unknown_time_zone",
    /// An `Idempotency-Key` reused with a different request.
    IdempotencyKeyReused = "idempotency_key_reused",
    /// More vacation than `max_vacation`.
    VacationExceeded = "vacation_exceeded",
    /// A rules version this build does not know.
    UnknownRulesVersion = "unknown_rules_version",
    /// A seat's `salt` that is not 64 lowercase hex digits (32 bytes), or
    /// one sent where no salt is taken (a game with a public seed or under
    /// rules from before salts; a creation that takes no seat).
    BadSalt = "bad_salt",
    /// A bot level that does not exist (levels: `random`, `greedy`, `ismcts`).
    UnknownBotLevel = "unknown_bot_level",
    /// A seat the game does not have (seat 4 of a game of 3).
    NoSuchSeat = "no_such_seat",
    /// A version the game has not reached (`at` past its version).
    NoSuchVersion = "no_such_version",
    /// Conditional lines that do not parse: not a list of lines of
    /// `{seat, command}` steps, a command that is not one of the ruleset's,
    /// or a line that plays nothing for its owner.
    ConditionalUnparsable = "conditional_unparsable",
    /// A conditional line that can never match: its first step is not a
    /// command of a seat the game waits for (in Top Hats: not a legal one).
    ConditionalNeverMatches = "conditional_never_matches",
    /// A conditional line whose condition names a command of another seat
    /// that the owner cannot see whole (a card drawn, discarded, offered,
    /// buried or swapped face down; a Top Hats stack built).
    ConditionalHiddenStep = "conditional_hidden_step",
    /// Conditional lines in a ruleset that does not take them (every
    /// ruleset served now does).
    ConditionalNotSupported = "conditional_not_supported",
    /// Conditional lines stored while the game waits for the owner's own seat.
    ConditionalOnYourTurn = "conditional_on_your_turn",
    /// `takebacks` asked for in a game that is rated (docs/turn-conveniences.md).
    TakebacksInRatedGame = "takebacks_in_rated_game",
    /// A takeback in a game whose options do not allow them.
    TakebackDisabled = "takeback_disabled",
    /// A takeback the rules do not allow now: the last command is not the
    /// caller's own, revealed something hidden, or something followed it.
    TakebackNotAllowed = "takeback_not_allowed",
    /// Accepting or declining when no offer awaits the caller's answer.
    TakebackNoOffer = "takeback_no_offer",
    /// Vacation beyond the player's allowance over the last 365 days.
    VacationAllowanceExceeded = "vacation_allowance_exceeded",
    /// Pausing the table in a game created with `pauses: false`.
    PausesForbidden = "pauses_forbidden",
    /// Proposing a pause while one is proposed or the table is paused.
    PauseOpen = "pause_open",
    /// A pause's end that is not in the future.
    PauseUntilPast = "pause_until_past",
    /// Voting when no proposal to pause awaits the caller's vote.
    NoPauseProposal = "no_pause_proposal",
    /// Resuming a table that is not paused.
    NotPaused = "not_paused",
    /// Joining an open table whose rating range leaves the player's rating out.
    RatingOutOfRange = "rating_out_of_range",
    /// Joining a table whose `min_reliability` is above the player's reliability.
    ReliabilityTooLow = "reliability_too_low",
    /// A rematch offered on a game that has one already (also after a decline).
    RematchAlreadyOffered = "rematch_already_offered",
    /// Accepting or declining a rematch nobody offered.
    RematchNotOffered = "rematch_not_offered",
    /// Answering a rematch offer already declined or started, otherwise than before.
    RematchClosed = "rematch_closed",
    /// A bot (built in, or a player's bot account) in a `humans_only` game.
    HumansOnly = "humans_only",
    /// Taking a seat (joining, creating with a seat, accepting an
    /// invitation or a rematch) while holding a seat in as many games open
    /// or in play as the server allows at once (`--seats-at-once`).
    TooManyGames = "too_many_games",
    /// Blocking a user past the most one account may block (1,000).
    TooManyBlocks = "too_many_blocks",
    /// A seat at a table that has not started, where the caller and a
    /// player seated (or the creator's invitee list) block one another;
    /// the same whoever blocked whom (docs/seats.md).
    SeatRefused = "seat_refused",
    /// Taking a seat that is not vacant: its player has not left it, it was
    /// taken already, or the game is not on (docs/seats.md).
    SeatNotVacant = "seat_not_vacant",
    /// Taking a vacant seat in a game whose `substitutes` option is off.
    SubstitutesForbidden = "substitutes_forbidden",
    /// An account that has played cannot become a bot account (or is one already).
    BotAccountRefused = "bot_account_refused",
    /// A `language` the server does not speak (it speaks `en` and `fr`).
    UnsupportedLanguage = "unsupported_language",
    /// A command sent with neither `expected_version` nor `If-Match`.
    PreconditionRequired = "precondition_required",
    /// Too many requests or failed logins (`Retry-After` tells when to retry).
    RateLimited = "rate_limited",
    /// The database cannot be reached now; the request changed nothing.
    Unavailable = "unavailable",
    /// A fault of the server; nothing was changed.
    Internal = "internal",
    /// A cost limit reached (games, streams, registrations, codes): nothing
    /// was written; `Retry-After` tells when to retry.
    LimitReached = "limit_reached",
    /// The password threads have as much queued as they may take; nothing
    /// was written; `Retry-After` tells when to retry.
    Busy = "busy",
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A refused request: its code, what exactly went wrong, and what a client
/// needs to recover (the current version, when to retry).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {detail}")]
pub struct Failure {
    pub code: ErrorCode,
    /// What exactly went wrong, for people.
    pub detail: String,
    /// With `version_conflict`: the game's current version.
    pub current_version: Option<i64>,
    /// With `rate_limited`: seconds until a retry may succeed.
    pub retry_after: Option<u64>,
    /// With `version_conflict`: the expected version was a precondition
    /// (`If-Match`) rather than part of the command.
    pub precondition: bool,
}

impl Failure {
    /// A failure with `code` and `detail`.
    pub fn new(code: ErrorCode, detail: impl Into<String>) -> Self {
        Failure {
            code,
            detail: detail.into(),
            current_version: None,
            retry_after: None,
            precondition: false,
        }
    }

    /// Too many attempts; a retry may succeed after `retry_after_secs`.
    pub fn rate_limited(detail: impl Into<String>, retry_after_secs: u64) -> Self {
        let mut failure = Self::new(ErrorCode::RateLimited, detail);
        failure.retry_after = Some(retry_after_secs.max(1));
        failure
    }

    /// Malformed JSON, wrong types, unknown fields, bad query or path values.
    pub fn bad_request(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::BadRequest, detail)
    }

    /// Missing, expired, malformed or forged credentials.
    pub fn unauthenticated(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::Unauthenticated, detail)
    }

    /// A refresh token presented after it was rotated: the session it
    /// belonged to has just been revoked.
    #[must_use]
    pub fn refresh_token_reused() -> Self {
        Self::new(
            ErrorCode::RefreshTokenReused,
            "this refresh token was used before, so its session is now signed out; sign in again",
        )
    }

    /// A password change whose current password is wrong.
    #[must_use]
    pub fn wrong_password() -> Self {
        Self::new(ErrorCode::WrongPassword, "the current password is wrong")
    }

    /// A cursor (`after`, `Last-Event-ID`) into notifications that may have
    /// been pruned: the client refetches from the start.
    pub fn cursor_expired(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::CursorExpired, detail)
    }

    /// A request body that did not arrive within the body timeout.
    #[must_use]
    pub fn request_timeout(limit: std::time::Duration) -> Self {
        Self::new(
            ErrorCode::RequestTimeout,
            format!(
                "the request body must arrive within {} ms",
                limit.as_millis()
            ),
        )
    }

    /// Acting in a game the caller has no seat in.
    #[must_use]
    pub fn not_a_player() -> Self {
        Self::new(ErrorCode::NotAPlayer, "you have no seat in this game")
    }

    /// Anything else the caller may not do.
    pub fn forbidden(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::Forbidden, detail)
    }

    /// A private game joined (or an invitation declined) by someone not
    /// invited and without the right invite code.
    #[must_use]
    pub fn not_invited() -> Self {
        Self::new(
            ErrorCode::NotInvited,
            "this game is private: join with its invite code, or be invited",
        )
    }

    /// An unknown game, user, ruleset or route.
    pub fn not_found(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::NotFound, detail)
    }

    /// A method the route does not serve.
    #[must_use]
    pub fn method_not_allowed() -> Self {
        Self::new(
            ErrorCode::MethodNotAllowed,
            "this route does not serve that method",
        )
    }

    /// The version the client sent is not the game's current version;
    /// `precondition` when it came as `If-Match`.
    #[must_use]
    pub fn version_conflict(current: i64, sent: i64, precondition: bool) -> Self {
        let mut failure = Self::new(
            ErrorCode::VersionConflict,
            format!("the game is at version {current}, not {sent}"),
        );
        failure.current_version = Some(current);
        failure.precondition = precondition;
        failure
    }

    /// The caller is seated but the game does not wait for them now.
    pub fn not_your_turn(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::NotYourTurn, detail)
    }

    /// A well-formed command the rules forbid now.
    pub fn illegal_command(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::IllegalCommand, detail)
    }

    /// Game options the ruleset cannot play.
    pub fn invalid_options(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::InvalidOptions, detail)
    }

    /// An `Idempotency-Key` reused with a different request.
    #[must_use]
    pub fn idempotency_key_reused() -> Self {
        Self::new(
            ErrorCode::IdempotencyKeyReused,
            "this Idempotency-Key was already used for a different request",
        )
    }

    /// A body over the size limit.
    #[must_use]
    pub fn payload_too_large(limit: usize) -> Self {
        Self::new(
            ErrorCode::PayloadTooLarge,
            format!("request bodies are limited to {limit} bytes"),
        )
    }

    /// A command sent with neither `expected_version` nor `If-Match`.
    #[must_use]
    pub fn precondition_required() -> Self {
        Self::new(
            ErrorCode::PreconditionRequired,
            "send the version you expect, as expected_version or If-Match",
        )
    }

    /// A cost limit reached; a retry may succeed after `retry_after_secs`.
    pub fn limit_reached(detail: impl Into<String>, retry_after_secs: u64) -> Self {
        let mut failure = Self::new(ErrorCode::LimitReached, detail);
        failure.retry_after = Some(retry_after_secs.max(1));
        failure
    }

    /// The password threads are full; a retry may succeed after a second.
    pub fn busy() -> Self {
        let mut failure = Self::new(
            ErrorCode::Busy,
            "the server is checking as many passwords as it can; try again in a moment",
        );
        failure.retry_after = Some(1);
        failure
    }

    /// The database cannot be reached now; the request changed nothing. A
    /// retry may succeed after a second (`Retry-After: 1`): a failover
    /// takes seconds, a lost connection is replaced at once.
    pub fn unavailable(detail: impl Into<String>) -> Self {
        let mut failure = Self::new(ErrorCode::Unavailable, detail);
        failure.retry_after = Some(1);
        failure
    }

    /// A fault of the server. The detail is logged, not shown.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        tracing::error!(error = %detail, "internal error");
        Self::new(
            ErrorCode::Internal,
            "the server failed; nothing was changed",
        )
    }

    /// The stable code.
    #[must_use]
    pub fn code(&self) -> ErrorCode {
        self.code
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_written_as_its_serde_name() {
        for code in ErrorCode::ALL {
            assert_eq!(
                serde_json::to_value(code).unwrap(),
                serde_json::Value::String(code.as_str().to_owned())
            );
        }
    }

    #[test]
    fn no_code_is_listed_twice() {
        let mut names: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ErrorCode::ALL.len());
    }
}
