//! `/v1/rulesets`: what can be played.

use actix_web::{get, web};

use crate::games::rulesets::{self, RulesetInfo};

/// The rulesets this server plays, with their options' JSON Schemas and defaults.
#[utoipa::path(tag = "rulesets", responses((status = 200, body = Vec<RulesetInfo>)))]
#[get("/rulesets")]
pub async fn list() -> web::Json<Vec<RulesetInfo>> {
    web::Json(rulesets::all())
}
