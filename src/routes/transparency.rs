//! The server's public keys and its transparency log (records: #48):
//! `/.well-known/hatstand-keys.json`, `/v1/log/...`, `/v1/games/{id}/log-proof`.

use actix_web::http::header;
use actix_web::web::Query;
use actix_web::{HttpResponse, get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::problem::problems;
use super::{Answer, GamePath, Id, Reply, State};
use crate::auth::MaybeCaller;
use crate::error::Failure;
use crate::transparency::keys;
use crate::transparency::log::{self, ConsistencyProof, InclusionProof, TreeHead};
use crate::transparency::signing::KeySet;

/// Every public key the server signs (or signed) audits and tree heads
/// with, newest first; a retired key stays listed so that what it signed
/// still checks. `hatstand verify --key` takes this document.
#[utoipa::path(
    operation_id = "get_signing_keys", tag = "audit",
    responses((status = 200, description = "The server's Ed25519 public keys", body = KeySet, headers(("Cache-Control" = String, description = "`public, max-age=300`: the same for every caller"))))
)]
#[get("/.well-known/hatstand-keys.json")]
pub async fn signing_keys(state: State) -> Answer {
    let mut conn = state.pool.get().await.map_err(Failure::from)?;
    let keys = keys::published(&mut conn).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "public, max-age=300"))
        .json(keys))
}

/// The newest signed tree head of the log of games that are over.
#[utoipa::path(
    operation_id = "get_log_head", tag = "audit",
    responses((status = 200, description = "The newest signed tree head", body = TreeHead), GetLogHeadProblems)
)]
#[get("/log/head")]
pub async fn head(state: State) -> Reply<TreeHead> {
    let mut conn = state.pool.get().await.map_err(Failure::from)?;
    Ok(web::Json(log::latest(&mut conn).await?))
}

/// Which heads.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct HeadsQuery {
    /// Heads of more games than this (0 when absent).
    #[param(minimum = 0)]
    pub after: Option<u64>,
    /// At most this many (100 when absent).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<u16>,
}

/// The signed tree heads after a size, smallest first: what a monitor
/// reads to check that each extends the one before.
#[utoipa::path(
    operation_id = "list_log_heads", tag = "audit", params(HeadsQuery),
    responses((status = 200, description = "Signed tree heads, smallest first", body = Vec<TreeHead>), ListLogHeadsProblems)
)]
#[get("/log/heads")]
pub async fn heads(state: State, query: Query<HeadsQuery>) -> Reply<Vec<TreeHead>> {
    let limit = query.limit.unwrap_or(100);
    if !(1..=1000).contains(&limit) {
        return Err(Failure::bad_request("limit is between 1 and 1000").into());
    }
    in_int64(&[query.after])?;
    let mut conn = state.pool.get().await.map_err(Failure::from)?;
    Ok(web::Json(
        log::heads(&mut conn, query.after.unwrap_or(0), i64::from(limit)).await?,
    ))
}

/// Sizes are 64-bit signed integers in the document (`format: int64`):
/// a larger one is refused, not read as a size the log will never reach.
fn in_int64(sizes: &[Option<u64>]) -> Result<(), Failure> {
    if sizes.iter().flatten().any(|&n| i64::try_from(n).is_err()) {
        return Err(Failure::bad_request(
            "a size is at most 9223372036854775807",
        ));
    }
    Ok(())
}

/// Two heads.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ConsistencyQuery {
    /// The size of the older signed head.
    #[param(minimum = 1)]
    pub first: u64,
    /// The size of the newer signed head.
    #[param(minimum = 1)]
    pub second: u64,
}

/// The proof that the log at the head of size `second` holds the log at
/// the head of size `first` unchanged (RFC 9162 2.1.4), with both heads.
///
/// A rule across the two parameters, which JSON Schema cannot state:
/// `first` is at most `second` (else 400 `bad_request`).
#[utoipa::path(
    operation_id = "get_log_consistency", tag = "audit", params(ConsistencyQuery),
    responses((status = 200, description = "Both signed heads and the consistency proof between them", body = ConsistencyProof), GetLogConsistencyProblems)
)]
#[get("/log/consistency")]
pub async fn consistency(state: State, query: Query<ConsistencyQuery>) -> Reply<ConsistencyProof> {
    in_int64(&[Some(query.first), Some(query.second)])?;
    let mut conn = state.pool.get().await.map_err(Failure::from)?;
    Ok(web::Json(
        log::consistency(&mut conn, query.first, query.second).await?,
    ))
}

/// Under which head.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct InclusionQuery {
    /// The size of a signed head (the newest when absent).
    #[param(minimum = 1)]
    pub tree_size: Option<u64>,
}

/// The proof that a game that is over is in the log (RFC 9162 2.1.3):
/// its leaf, and the path from it to the root of a signed head. A game is
/// logged a few seconds after it ends (`not_found` until then).
#[utoipa::path(
    operation_id = "get_log_proof", tag = "audit", params(GamePath, InclusionQuery),
    security((), ("bearer" = [])),
    responses((status = 200, description = "The game's leaf and its inclusion path under a signed head", body = InclusionProof), GetLogProofProblems)
)]
#[get("/games/{id}/log-proof")]
pub async fn inclusion(
    state: State,
    caller: MaybeCaller,
    id: Id,
    query: Query<InclusionQuery>,
) -> Reply<InclusionProof> {
    let id = id.into_inner();
    in_int64(&[query.tree_size])?;
    let mut conn = state.pool.get().await.map_err(Failure::from)?;
    let loaded = crate::games::stored(&mut conn, id).await?;
    crate::games::watchers::check(&mut conn, &loaded, caller.0.map(|c| c.user_id)).await?;
    log::inclusion(&mut conn, id, query.tree_size)
        .await?
        .map(web::Json)
        .ok_or_else(|| {
            Failure::not_found("the game is not in the log under that head (yet)").into()
        })
}

problems! {
    /// What `get_log_head` answers besides the common problems.
    GetLogHeadProblems { NotFound: "the log is empty" }
    /// What `list_log_heads` answers besides the common problems.
    ListLogHeadsProblems { BadRequest: "`limit` out of range, or `after` past int64" }
    /// What `get_log_consistency` answers besides the common problems.
    GetLogConsistencyProblems { BadRequest: "not `0 < first ≤ second`", NotFound: "no head was signed at a size" }
    /// What `get_log_proof` answers besides the common problems.
    GetLogProofProblems { BadRequest: "malformed id or `tree_size`", NotFound: "no such game, not logged yet, or no head at `tree_size`" }
}
