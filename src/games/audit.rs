//! The audit of a finished game (the whole unredacted log, the revealed seed,
//! the final state) and step-through replay (`state?at=N`).

use hatstand_engine::{Ruleset, with_ruleset};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::kind_of;
use super::public::viewer_for;
use super::status;
use crate::context::Context;
use crate::db::Conn;
use crate::db::event_store;
use crate::error::{ErrorCode, Failure};
use crate::record::codec::to_json;
use crate::record::replay::Replay;
use crate::record::verify::{AuditDocument, AuditEvent, FORMAT};

/// The audit of game `id` for `user` (none: signed out); only once it is
/// over, since it reveals everything, and only to those who may watch it.
///
/// # Errors
/// `not_found` (also for a game the caller may not watch), `game_not_finished`.
#[tracing::instrument(skip_all, fields(game = %id))]
pub async fn audit(
    state: &Context,
    user: Option<Uuid>,
    id: Uuid,
) -> Result<AuditDocument, Failure> {
    let mut conn = state.pool.get().await?;
    let loaded = super::stored(&mut conn, id).await?;
    super::watchers::check(&mut conn, &loaded, user).await?;
    let mut doc = audit_on(&mut conn, id).await?;
    // Signed, with its proof of inclusion in the log (records: #48).
    crate::transparency::seal(&mut conn, &state.signer, &mut doc).await?;
    Ok(doc)
}

/// The audit of game `id`, read on `conn` (the export reads many in a row).
///
/// # Errors
/// `not_found`, `game_not_finished`.
pub async fn audit_on(conn: &mut Conn, id: Uuid) -> Result<AuditDocument, Failure> {
    let loaded = super::stored(conn, id).await?;
    let game = &loaded.game;
    if game.status != status::FINISHED && game.status != status::ABANDONED {
        return Err(Failure::new(
            ErrorCode::GameNotFinished,
            "the audit reveals every card: it is published once the game is over",
        ));
    }
    if game.archived_at.is_some() {
        return super::read_archived::document(conn, id).await;
    }
    let events = event_store::load(conn, id, 0, game.version, game.version).await?;
    Ok(AuditDocument {
        format: FORMAT.to_owned(),
        game_id: id,
        ruleset: game.ruleset.clone(),
        rules: Some(game.rules()),
        status: game.status.clone(),
        finished_at: Some(crate::record::chain::format_time(game.updated_at)),
        seed_commitment: game.seed_commitment.clone(),
        seed: game.seed.clone(),
        events: events.iter().map(AuditEvent::from).collect(),
        final_state: match &game.state {
            Some(snapshot) => snapshot.parse().map_err(Failure::internal)?,
            None => Value::Null,
        },
        result: game.result.clone(),
        log: None,
        signature: None,
        talk: super::audit_talk::record(conn, game).await?,
    })
}

/// The table as a viewer saw it at some version.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StateAt {
    /// The game's ruleset (added beside the view, which is that ruleset's).
    #[schema(value_type = crate::record::names::RulesetId)]
    pub ruleset: String,
    /// The version shown.
    pub version: i64,
    /// The game's status then.
    #[schema(value_type = crate::games::GameStatus)]
    pub status: String,
    /// The seats the game waited for then.
    pub to_act: Vec<u8>,
    /// What the viewer could see then (`null` before the start); once the
    /// game is over, everything (every hand), as its audit shows.
    #[schema(value_type = Object, nullable)]
    pub view: Value,
}

/// Game `id` after `at` events: while it is played, as `user` (or a
/// spectator) saw it then; once it is over (finished or abandoned), with
/// every hand and hidden card shown, as its public audit shows them.
///
/// # Errors
/// `not_found`, `no_such_version` when `at` is past the game's version
/// (below 1, `bad_request`).
pub async fn state_at(
    state: &Context,
    user: Option<Uuid>,
    id: Uuid,
    at: i64,
) -> Result<StateAt, Failure> {
    let mut conn = state.pool.get().await?;
    let loaded = super::stored(&mut conn, id).await?;
    super::watchers::check(&mut conn, &loaded, user).await?;
    if at < 1 {
        return Err(Failure::bad_request(format!(
            "at must be between 1 and the game's version {}",
            loaded.game.version
        )));
    }
    if at > loaded.game.version {
        return Err(Failure::new(
            ErrorCode::NoSuchVersion,
            format!(
                "at must be between 1 and the game's version {}",
                loaded.game.version
            ),
        ));
    }
    let events = super::read_archived::events(&mut conn, &loaded.game, 0, at, at).await?;
    drop(conn);
    let over = loaded.game.status == status::FINISHED || loaded.game.status == status::ABANDONED;
    let viewer = if over {
        hatstand_engine::Viewer::Auditor
    } else {
        viewer_for(user.and_then(|u| loaded.seat_of(u)))
    };
    let kind = kind_of(&loaded.game)?;
    with_ruleset!(kind, |R| {
        let replay = Replay::<R>::of(&events).map_err(Failure::internal)?;
        view_of::<R>(&replay, viewer, at)
    })
}

fn view_of<R: Ruleset>(
    replay: &Replay<R>,
    viewer: hatstand_engine::Viewer,
    at: i64,
) -> Result<StateAt, Failure> {
    let Some(state) = &replay.state else {
        return Ok(StateAt {
            ruleset: R::ID.to_owned(),
            version: at,
            status: status::OPEN.to_owned(),
            to_act: Vec::new(),
            view: Value::Null,
        });
    };
    let finished = R::result(state).is_some() || replay.forfeit.is_some();
    Ok(StateAt {
        ruleset: R::ID.to_owned(),
        version: at,
        status: if finished {
            status::FINISHED
        } else {
            status::ACTIVE
        }
        .to_owned(),
        to_act: if finished {
            Vec::new()
        } else {
            R::to_act(state).into_iter().map(|s| s.0).collect()
        },
        view: to_json(&R::view(state, viewer))?,
    })
}
