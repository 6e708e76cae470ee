//! What answers a request no route serves: `405 method_not_allowed` with
//! `Allow` when the path is one of the API's but the method is not, else
//! `404 not_found`. The paths and their methods come from the OpenAPI
//! document, so they cannot drift from the routes.

use std::sync::LazyLock;

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, ResponseError};

use super::problem::ApiError;
use crate::error::Failure;

/// Each documented path, split into segments (`{…}` matches any one), with
/// the methods it serves.
static PATHS: LazyLock<Vec<(Vec<String>, Vec<&'static str>)>> = LazyLock::new(|| {
    crate::openapi::document()
        .paths
        .paths
        .iter()
        .map(|(path, item)| {
            let mut methods = Vec::new();
            for (method, served) in [
                ("GET", item.get.is_some()),
                ("POST", item.post.is_some()),
                ("PUT", item.put.is_some()),
                ("PATCH", item.patch.is_some()),
                ("DELETE", item.delete.is_some()),
            ] {
                if served {
                    methods.push(method);
                }
            }
            (segments(path).map(str::to_owned).collect(), methods)
        })
        .collect()
});

fn segments(path: &str) -> impl Iterator<Item = &str> {
    path.trim_end_matches('/').split('/')
}

/// The methods the API serves at `path`, if it is one of its paths.
#[must_use]
pub fn allowed(path: &str) -> Option<&'static [&'static str]> {
    let asked: Vec<&str> = segments(path).collect();
    PATHS.iter().find_map(|(template, methods)| {
        let fits = template.len() == asked.len()
            && template
                .iter()
                .zip(&asked)
                .all(|(t, a)| t.starts_with('{') || t == a);
        fits.then_some(methods.as_slice())
    })
}

/// Answers a request no route took.
pub async fn unrouted(req: HttpRequest) -> HttpResponse {
    match allowed(req.path()) {
        Some(methods) => {
            let mut response = ApiError(Failure::method_not_allowed()).error_response();
            if let Ok(allow) = HeaderValue::from_str(&methods.join(", ")) {
                response.headers_mut().insert(header::ALLOW, allow);
            }
            response
        }
        None => ApiError(Failure::not_found("there is no such resource")).error_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_paths_know_their_methods() {
        assert_eq!(allowed("/v1/rulesets"), Some(&["GET"][..]));
        let game = allowed("/v1/games/5b1f0c52-6a1e-4a44-9d7d-2a3c1f0f1a11/resign").unwrap();
        assert_eq!(game, &["POST"][..]);
        assert!(allowed("/v1/games").unwrap().contains(&"POST"));
        assert_eq!(allowed("/v1/nope"), None);
        assert_eq!(allowed("/v1/games/x/y/z"), None);
    }
}
