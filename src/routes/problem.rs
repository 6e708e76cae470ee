//! The edge between the domain's [`Failure`] and HTTP: each [`ErrorCode`]
//! has one status (the match below is exhaustive, so a new code cannot be
//! forgotten), and every failure is answered as an RFC 9457 problem+json
//! document.

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError};
use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;
use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder};

use crate::error::{ErrorCode, Failure};

/// An RFC 9457 problem document.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Problem {
    /// Always `about:blank`: `code` identifies the problem.
    #[serde(rename = "type")]
    #[schema(example = "about:blank")]
    pub type_: &'static str,
    /// A short, human-readable summary of the problem kind.
    #[schema(example = "Illegal command")]
    pub title: &'static str,
    /// The HTTP status code.
    #[schema(example = 422)]
    pub status: u16,
    /// The stable, machine-readable problem code clients branch on.
    #[schema(example = "illegal_command")]
    pub code: ErrorCode,
    /// What exactly went wrong, for people.
    #[schema(example = "card H5 is not in your hand")]
    pub detail: String,
    /// With `version_conflict`: the game's current version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_version: Option<i64>,
}

/// The HTTP status of a code. `version_conflict` is a 409, or a 412 when
/// the version came as `If-Match`.
#[must_use]
pub fn status(code: ErrorCode) -> StatusCode {
    use ErrorCode as C;
    match code {
        C::BadRequest => StatusCode::BAD_REQUEST,
        C::Unauthenticated | C::RefreshTokenReused => StatusCode::UNAUTHORIZED,
        C::WrongPassword
        | C::WrongCode
        | C::NotAPlayer
        | C::Forbidden
        | C::NotInvited
        | C::TalkNotAllowed
        | C::Muted
        | C::SeatRefused
        | C::RatingOutOfRange
        | C::BelowMinRating
        | C::ReliabilityTooLow => StatusCode::FORBIDDEN,
        C::NotFound => StatusCode::NOT_FOUND,
        C::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
        C::RequestTimeout => StatusCode::REQUEST_TIMEOUT,
        C::VersionConflict
        | C::GameFull
        | C::SeatTaken
        | C::AlreadyJoined
        | C::GameNotOpen
        | C::GameFinished
        | C::GameNotFinished
        | C::TournamentNotOver
        | C::UsernameTaken
        | C::NotYourTurn
        | C::AlreadyResigned
        | C::NoDeadline
        | C::TooManyWebhooks
        | C::TooManyPushSubscriptions
        | C::HumansOnly
        | C::TooManyGames
        | C::SeatNotVacant
        | C::SubstitutesForbidden
        | C::TooManyBlocks
        | C::BotAccountRefused
        | C::ConditionalOnYourTurn
        | C::TakebackNotAllowed
        | C::TakebackNoOffer
        | C::PauseOpen
        | C::NoPauseProposal
        | C::NotPaused
        | C::NotReported
        | C::RematchAlreadyOffered
        | C::RematchNotOffered
        | C::RematchClosed
        | C::RegistrationClosed
        | C::TournamentFull
        | C::AlreadyRegistered
        | C::NotRegistered => StatusCode::CONFLICT,
        C::CursorExpired => StatusCode::GONE,
        C::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        C::IllegalCommand
        | C::InvalidOptions
        | C::InvalidTournament
        | C::InvalidDuration
        | C::UnknownTimeZone
        | C::IdempotencyKeyReused
        | C::VacationExceeded
        | C::UnknownRulesVersion
        | C::BadSalt
        | C::UnknownBotLevel
        | C::AudienceNotASeat
        | C::MessageTooLong
        | C::NoSuchSeat
        | C::NoSuchVersion
        | C::ConditionalUnparsable
        | C::ConditionalNeverMatches
        | C::ConditionalHiddenStep
        | C::ConditionalNotSupported
        | C::InvalidPushSubscription
        | C::UnknownChannel
        | C::PushChannelNotConfigured
        | C::UnknownNotificationKind
        | C::InvalidQuietHours
        | C::UnsupportedLanguage
        | C::TakebacksInRatedGame
        | C::TakebackDisabled
        | C::PausesForbidden
        | C::VacationAllowanceExceeded
        | C::PauseUntilPast => StatusCode::UNPROCESSABLE_ENTITY,
        C::PreconditionRequired => StatusCode::PRECONDITION_REQUIRED,
        C::RateLimited => StatusCode::TOO_MANY_REQUESTS,
        C::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        C::LimitReached => StatusCode::TOO_MANY_REQUESTS,
        C::Busy => StatusCode::SERVICE_UNAVAILABLE,
        C::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// The problem's title: the code's own, "Conflict" for the state conflicts,
/// else its status's reason phrase.
#[must_use]
pub fn title(code: ErrorCode) -> &'static str {
    use ErrorCode as C;
    match code {
        C::BadRequest => "Bad request",
        C::Unauthenticated => "Unauthenticated",
        C::RefreshTokenReused => "Refresh token reused",
        C::WrongPassword => "Wrong password",
        C::WrongCode => "Wrong code",
        C::NotAPlayer => "Not a player",
        C::Forbidden => "Forbidden",
        C::NotInvited => "Not invited",
        C::NotFound => "Not found",
        C::MethodNotAllowed => "Method not allowed",
        C::RequestTimeout => "Request timeout",
        C::VersionConflict => "Version conflict",
        C::NotYourTurn => "Not your turn",
        C::InvalidPushSubscription => "Invalid push subscription",
        C::UnknownChannel => "Unknown channel",
        C::PushChannelNotConfigured => "Push channel not configured",
        C::UnknownNotificationKind => "Unknown notification kind",
        C::InvalidQuietHours => "Invalid quiet hours",
        // The other state conflicts (`game_full`, `already_joined`, ...).
        _ if status(code) == StatusCode::CONFLICT => "Conflict",
        C::CursorExpired => "Cursor expired",
        C::PayloadTooLarge => "Payload too large",
        C::IllegalCommand => "Illegal command",
        C::InvalidOptions => "Invalid options",
        C::IdempotencyKeyReused => "Idempotency key reused",
        C::VacationExceeded
        | C::InvalidTournament
        | C::InvalidDuration
        | C::UnknownTimeZone
        | C::UnknownRulesVersion
        | C::BadSalt
        | C::UnknownBotLevel
        | C::NoSuchSeat
        | C::NoSuchVersion
        | C::ConditionalUnparsable
        | C::ConditionalNeverMatches
        | C::ConditionalHiddenStep
        | C::ConditionalNotSupported
        | C::UnsupportedLanguage
        | C::TakebacksInRatedGame
        | C::TakebackDisabled
        | C::PausesForbidden
        | C::VacationAllowanceExceeded
        | C::PauseUntilPast => "Unprocessable request",
        C::PreconditionRequired => "Precondition required",
        C::RateLimited => "Too many requests",
        C::Unavailable => "Service unavailable",
        C::LimitReached => "Limit reached",
        C::Busy => "Busy",
        C::Internal => "Internal server error",
        // A code without a title of its own: its status's reason phrase.
        _ => status(code).canonical_reason().unwrap_or("Error"),
    }
}

/// Declares, for each endpoint of a routes module, the problems it answers
/// besides the common ones (which `openapi::problems` adds by rule):
/// a unit type to name in the endpoint's `responses(...)`, listing codes
/// with an optional detail. The codes are grouped under the status
/// [`status`] gives them, so no endpoint can document a code under the
/// wrong status. Each routes module ends with one such table.
///
/// ```ignore
/// problems! {
///     /// What `join_game` answers besides the common problems.
///     JoinGameProblems { NotInvited: "without its code or an invitation", GameFull, SeatTaken }
/// }
/// #[utoipa::path(responses((status = 200, body = Game), JoinGameProblems))]
/// ```
macro_rules! problems {
    ($( $(#[$meta:meta])* $name:ident { $($code:ident $(: $detail:literal)?),* $(,)? } )*) => {
        $(
            $(#[$meta])*
            pub struct $name;

            impl utoipa::IntoResponses for $name {
                fn responses() -> std::collections::BTreeMap<
                    String,
                    utoipa::openapi::RefOr<utoipa::openapi::response::Response>,
                > {
                    $crate::routes::problem::responses(&[
                        $(($crate::error::ErrorCode::$code, concat!("" $(, $detail)?))),*
                    ])
                }
            }
        )*
    };
}
pub(crate) use problems;

/// The problem+json responses of `problems`, one per status: "`code`:
/// detail" for each code, joined by "; ".
#[must_use]
pub fn responses(
    problems: &[(ErrorCode, &str)],
) -> BTreeMap<String, RefOr<utoipa::openapi::response::Response>> {
    let mut described: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (code, detail) in problems {
        let line = if detail.is_empty() {
            format!("`{}`", code.as_str())
        } else {
            format!("`{}`: {detail}", code.as_str())
        };
        described
            .entry(status(*code).as_u16().to_string())
            .or_default()
            .push(line);
    }
    described
        .into_iter()
        .map(|(status, lines)| (status, RefOr::T(problem_response(&lines.join("; ")))))
        .collect()
}

/// A problem+json response described by `description`.
#[must_use]
pub fn problem_response(description: &str) -> utoipa::openapi::response::Response {
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/problem+json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("Problem")))
                .build(),
        )
        .build()
}

/// A failure on its way to a client.
#[derive(Debug, Clone, thiserror::Error)]
#[error(transparent)]
pub struct ApiError(#[from] pub Failure);

impl ApiError {
    /// The stable code.
    #[must_use]
    pub fn code(&self) -> ErrorCode {
        self.0.code
    }

    /// The problem document.
    #[must_use]
    pub fn problem(&self) -> Problem {
        Problem {
            type_: "about:blank",
            title: title(self.0.code),
            status: self.status_code().as_u16(),
            code: self.0.code,
            detail: self.0.detail.clone(),
            current_version: self.0.current_version,
        }
    }
}

impl From<Failure> for actix_web::Error {
    fn from(failure: Failure) -> Self {
        ApiError(failure).into()
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        if self.0.code == ErrorCode::VersionConflict && self.0.precondition {
            return StatusCode::PRECONDITION_FAILED;
        }
        status(self.0.code)
    }

    fn error_response(&self) -> HttpResponse {
        let status = self.status_code();
        let mut response = HttpResponse::build(status);
        response.insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/problem+json"),
        ));
        if status == StatusCode::UNAUTHORIZED {
            response.insert_header((header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer")));
        }
        if let Some(secs) = self.0.retry_after {
            response.insert_header((header::RETRY_AFTER, secs.to_string()));
        }
        if status == StatusCode::REQUEST_TIMEOUT {
            // The rest of the body may still be on its way: the connection
            // cannot carry another request.
            response.force_close();
        }
        // The title in the request's language (docs/i18n.md); English as
        // it always was.
        let mut problem = self.problem();
        let language = crate::i18n::request_language();
        if language != crate::i18n::Language::En {
            problem.title = crate::i18n::problem_title(language, self.0.code);
        }
        response.json(problem)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_english_message_file_holds_the_titles_the_api_always_gave() {
        for &code in ErrorCode::ALL {
            assert_eq!(
                crate::i18n::problem_title(crate::i18n::Language::En, code),
                title(code),
                "{code:?}"
            );
        }
    }

    #[test]
    fn the_refusals_are_exactly_the_client_errors() {
        for &code in ErrorCode::ALL {
            assert_eq!(
                code.is_refusal(),
                status(code).is_client_error(),
                "{code:?}"
            );
        }
    }

    /// The table of codes in docs/api.md: `| \`code\` | status | meaning |`.
    fn readme_table() -> Vec<(String, u16)> {
        let readme = include_str!("../../docs/api.md");
        readme
            .lines()
            .filter_map(|line| {
                let cells: Vec<&str> = line.split('|').map(str::trim).collect();
                let code = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
                let status = cells.get(2)?.split_whitespace().next()?.parse().ok()?;
                Some((code.to_owned(), status))
            })
            .filter(|(code, _)| ErrorCode::ALL.iter().any(|c| c.as_str() == code))
            .collect()
    }

    #[test]
    fn the_api_page_lists_every_code_once_with_its_status() {
        let listed = readme_table();
        let expected: Vec<(String, u16)> = ErrorCode::ALL
            .iter()
            .map(|c| (c.as_str().to_owned(), status(*c).as_u16()))
            .collect();
        assert_eq!(listed, expected);
    }

    #[test]
    fn given_an_endpoints_problems_when_documented_then_each_code_stands_under_its_own_status() {
        let documented = responses(&[
            (ErrorCode::NotInvited, "without its code"),
            (ErrorCode::GameFull, ""),
            (ErrorCode::SeatTaken, ""),
        ]);
        let described = |status: &str| match &documented[status] {
            RefOr::T(response) => response.description.clone(),
            RefOr::Ref(_) => panic!("a reference"),
        };
        assert_eq!(documented.len(), 2);
        assert_eq!(described("403"), "`not_invited`: without its code");
        assert_eq!(described("409"), "`game_full`; `seat_taken`");
    }

    #[test]
    fn a_version_sent_as_if_match_is_a_failed_precondition() {
        let body = ApiError(Failure::version_conflict(3, 2, false));
        let header = ApiError(Failure::version_conflict(3, 2, true));
        assert_eq!(body.status_code(), StatusCode::CONFLICT);
        assert_eq!(header.status_code(), StatusCode::PRECONDITION_FAILED);
        assert_eq!(header.problem().current_version, Some(3));
    }
}
