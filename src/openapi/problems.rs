//! The problems any operation of a kind can answer, added to the document
//! by rule.

use utoipa::Modify;
use utoipa::openapi::RefOr;
use utoipa::openapi::path::Operation;

/// The problems any operation of a kind can answer, declared once here
/// rather than on every route (a route's own, more specific description of
/// the same status wins; a route declares its own with `problems!`):
/// - `400 bad_request` where there are parameters or a body to get wrong;
/// - `401 unauthenticated` and `429 rate_limited` where a token is taken
///   (where it is optional, the 401 says a spectator sends none);
/// - `404 not_found` where the path names something;
/// - `413 payload_too_large` on every `POST`, `PUT` and `PATCH` (a body-less
///   one refuses a body too);
/// - `500 internal` everywhere, `503 unavailable` wherever the database is used.
pub(super) struct CommonProblems;

impl CommonProblems {
    fn add(operation: &mut Operation, status: &str, description: &str) {
        operation
            .responses
            .responses
            .entry(status.to_owned())
            .or_insert_with(|| RefOr::T(crate::routes::problem::problem_response(description)));
    }
}

impl Modify for CommonProblems {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for (path, item) in &mut openapi.paths.paths {
            let named = path.contains('{');
            // `/metrics` leaves out what the database does not answer.
            let database = path != "/healthz" && path != "/metrics";
            let methods = [
                (&mut item.get, false),
                (&mut item.post, true),
                (&mut item.put, true),
                (&mut item.patch, true),
                (&mut item.delete, false),
            ];
            for (operation, post) in methods {
                let Some(operation) = operation.as_mut() else {
                    continue;
                };
                let takes_token = serde_json::to_string(&operation.security)
                    .is_ok_and(|security| security.contains("bearer"));
                let has_input =
                    post || named || operation.parameters.as_ref().is_some_and(|p| !p.is_empty());
                if has_input {
                    Self::add(operation, "400", "`bad_request`");
                }
                if takes_token {
                    let optional = serde_json::to_string(&operation.security)
                        .is_ok_and(|security| security.contains("{}"));
                    Self::add(
                        operation,
                        "401",
                        if optional {
                            "`unauthenticated`: a token was sent and is not valid (send none to be served as a spectator)"
                        } else {
                            "`unauthenticated`"
                        },
                    );
                    Self::add(operation, "429", "`rate_limited`");
                }
                if named {
                    Self::add(operation, "404", "`not_found`");
                }
                if post {
                    Self::add(operation, "413", "`payload_too_large`");
                }
                Self::add(operation, "500", "`internal`");
                if database {
                    Self::add(operation, "503", "`unavailable`");
                }
            }
        }
    }
}
