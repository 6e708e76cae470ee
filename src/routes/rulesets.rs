//! `/v1/rulesets`: what can be played.

use actix_web::http::header;
use actix_web::{HttpResponse, get};

use crate::games::rulesets::{self, RulesetInfo};

/// The rulesets this server plays, with their options' JSON Schemas and defaults.
/// The same for every caller, so any cache may keep it a few minutes.
#[utoipa::path(operation_id = "list_rulesets", tag = "rulesets", responses((status = 200, description = "Every complete ruleset", body = Vec<RulesetInfo>, headers(("Cache-Control" = String, description = "`public, max-age=300`: the same for every caller")))))]
#[get("/rulesets")]
pub async fn list() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "public, max-age=300"))
        .json(rulesets::all())
}
