//! `/v1/rulesets`: what can be played.

use actix_web::{get, web};

use crate::games::rulesets::{self, RulesetInfo};

/// The rulesets this server plays, with their options' JSON Schemas and defaults.
#[utoipa::path(operation_id = "list_rulesets", tag = "rulesets", responses((status = 200, description = "Every complete ruleset", body = Vec<RulesetInfo>)))]
#[get("/rulesets")]
pub async fn list() -> web::Json<Vec<RulesetInfo>> {
    web::Json(rulesets::all())
}
