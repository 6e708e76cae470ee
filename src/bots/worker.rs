//! The bot worker: every server process runs one. It wakes whenever a game
//! changes (in any process: the games channel of `wake`;
//! at most every [`MIN_GAP`]) and at least every tick, asks which active games wait on a built-in
//! bot's seat, and plays each such turn in its own transaction:
//!
//! 1. the game row is locked `FOR UPDATE SKIP LOCKED`: a game another
//!    worker holds is skipped, so no two processes play one turn;
//! 2. the bot thinks on a blocking thread (at most one thinker per core)
//!    within its budget (`--bot-budget-ms`), shown its seat's view only;
//! 3. its command goes through the command path (`games::advance`:
//!    the same checks, engine decision and autoplay of out seats as a
//!    player's request) and is appended with the version guard, the bot as
//!    the actor.
//!
//! A player's request racing it (a resignation) waits for the lock, then
//! applies to the new version or fails with `version_conflict` as usual.

use std::sync::Arc;
use std::time::Duration;

use diesel_async::AsyncConnection;
use hatstand_engine::bots::Level;
use tokio::sync::{Notify, Semaphore};
use tokio::task::JoinSet;

use crate::context::Context;
use crate::db::bots::{self, BotTurn};
use crate::db::games;
use crate::error::Failure;
use crate::games::advance::{Move, advance, committed};
use crate::games::command::{CommandRequest, Precondition};
use crate::games::status;

/// The most waiting turns one round looks at.
const BATCH: i64 = 16;

/// The shortest pause between two looks: every change of a game with a bot
/// seated wakes the worker, and with many such games they come by the
/// hundred per second; a bot answers at most this much later, and the
/// question is asked at most 20 times a second.
const MIN_GAP: Duration = Duration::from_millis(50);

/// How the worker runs.
#[derive(Debug, Clone, Copy)]
pub struct BotSettings {
    /// The longest pause between two looks when nothing wakes it.
    pub every: Duration,
    /// How long a bot may think over one decision.
    pub budget: Duration,
}

/// Runs the worker forever.
pub async fn run(ctx: Context, wake: Arc<Notify>, settings: BotSettings) {
    let lanes = Arc::new(Semaphore::new(
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
    ));
    loop {
        let looked = tokio::time::Instant::now();
        match play_waiting(&ctx, &lanes, settings.budget).await {
            Ok(0) => {}
            // Moves were made: look again at once (a bot may be next).
            Ok(_) => continue,
            Err(e) => tracing::warn!(error = %e, "bot worker failed; retrying"),
        }
        tokio::select! {
            () = wake.notified() => {}
            () = tokio::time::sleep(settings.every) => {}
        }
        tokio::time::sleep_until(looked + MIN_GAP).await;
    }
}

/// One round: plays every waiting turn it can claim, a few at once;
/// returns how many moves were made.
///
/// # Errors
/// Database errors of the question (each turn's own are logged).
pub async fn play_waiting(
    ctx: &Context,
    lanes: &Arc<Semaphore>,
    budget: Duration,
) -> Result<usize, Failure> {
    let waiting = {
        let mut conn = ctx.pool.get().await?;
        bots::waiting(&mut conn, BATCH).await?
    };
    let mut turns = JoinSet::new();
    for turn in waiting {
        let ctx = ctx.clone();
        let lanes = Arc::clone(lanes);
        turns.spawn(async move {
            // A lane before a connection: thinking never holds more
            // connections than there are cores.
            let _lane = lanes.acquire_owned().await.map_err(Failure::internal)?;
            play_turn(&ctx, &turn, budget).await
        });
    }
    let mut moved = 0;
    while let Some(done) = turns.join_next().await {
        match done {
            Ok(Ok(true)) => moved += 1,
            Ok(Ok(false)) => {}
            Ok(Err(e)) => tracing::warn!(error = %e, "a bot could not move"),
            Err(e) => tracing::error!(error = %e, "a bot's task failed"),
        }
    }
    Ok(moved)
}

/// Plays one waiting turn if this worker can claim the game and it still
/// waits on that seat; whether a move was made.
#[tracing::instrument(skip_all, fields(game = %turn.game_id, seat = turn.seat, level = %turn.level))]
async fn play_turn(ctx: &Context, turn: &BotTurn, budget: Duration) -> Result<bool, Failure> {
    let level: Level = turn.level.parse().map_err(Failure::internal)?;
    let id = turn.game_id;
    let mut conn = ctx.pool.get().await?;
    let done = conn
        .transaction::<_, Failure, _>(async |conn| {
            if !bots::claim(conn, id).await? {
                return Ok(None);
            }
            let Some(loaded) = games::load(conn, id, None, None).await? else {
                return Ok(None);
            };
            let game = &loaded.game;
            let Some(seat) = loaded.seats.iter().find(|s| s.seat == turn.seat) else {
                return Ok(None);
            };
            if game.status != status::ACTIVE || !game.to_act.contains(&turn.seat) || seat.resigned {
                return Ok(None);
            }
            let bot = crate::auth::Caller {
                user_id: seat.user_id,
                username: seat.username.clone(),
                session: uuid::Uuid::nil(),
            };
            let seat_no = u8::try_from(turn.seat).map_err(Failure::internal)?;
            let command = super::think::choose(loaded.clone(), seat_no, level, budget).await?;
            let request = CommandRequest {
                expected_version: Some(game.version),
                command,
            };
            let precondition = Precondition {
                expected: game.version,
                via_if_match: false,
            };
            let step = Move::Command {
                by: &bot,
                request: &request,
                precondition,
            };
            Ok(advance(conn, &loaded, step, None).await?.ok())
        })
        .await?;
    let Some(advanced) = done else {
        return Ok(false);
    };
    let version = advanced.version;
    tracing::debug!(version, "a bot moved");
    committed(&ctx.announcer, &advanced);
    Ok(true)
}
