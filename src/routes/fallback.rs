//! What answers a request no route serves: `405 method_not_allowed` with
//! `Allow` when the path is one of the API's but the method is not, else
//! `404 not_found`. The paths and their methods come from the OpenAPI
//! document (startup hands them over as [`ApiPaths`]), so they cannot drift
//! from the routes.

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, ResponseError, web};
use utoipa::openapi::OpenApi;

use super::problem::ApiError;
use crate::error::Failure;

/// Each documented path, split into segments (`{…}` matches any one), with
/// the methods it serves.
pub struct ApiPaths(Vec<(Vec<String>, Vec<&'static str>)>);

impl ApiPaths {
    /// The paths of `document`.
    #[must_use]
    pub fn of(document: &OpenApi) -> Self {
        ApiPaths(
            document
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
                .collect(),
        )
    }

    /// The methods the API serves at `path`, if it is one of its paths.
    #[must_use]
    pub fn allowed(&self, path: &str) -> Option<&[&'static str]> {
        let asked: Vec<&str> = segments(path).collect();
        self.0.iter().find_map(|(template, methods)| {
            let fits = template.len() == asked.len()
                && template
                    .iter()
                    .zip(&asked)
                    .all(|(t, a)| t.starts_with('{') || t == a);
            fits.then_some(methods.as_slice())
        })
    }
}

fn segments(path: &str) -> impl Iterator<Item = &str> {
    path.trim_end_matches('/').split('/')
}

/// Answers a request no route took.
pub async fn unrouted(req: HttpRequest, paths: web::Data<ApiPaths>) -> HttpResponse {
    match paths.allowed(req.path()) {
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

    fn allowed(path: &str) -> Option<Vec<&'static str>> {
        ApiPaths::of(&crate::openapi::document())
            .allowed(path)
            .map(<[_]>::to_vec)
    }

    #[test]
    fn documented_paths_know_their_methods() {
        assert_eq!(allowed("/v1/rulesets"), Some(vec!["GET"]));
        let game = allowed("/v1/games/5b1f0c52-6a1e-4a44-9d7d-2a3c1f0f1a11/resign").unwrap();
        assert_eq!(game, vec!["POST"]);
        assert!(allowed("/v1/games").unwrap().contains(&"POST"));
        assert_eq!(allowed("/v1/nope"), None);
        assert_eq!(allowed("/v1/games/x/y/z"), None);
    }
}
