//! A built-in bot's decision, off the async threads.
//!
//! The bot is shown what the API shows its seat, computed from the stored
//! snapshot exactly as `GET /v1/games/{id}` computes it: the seat's view and
//! its legal commands. The engine state goes no further than that.

use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

use hatstand_engine::bots::{self, BotRng, BotRules, Budget, Level, Seen};
use hatstand_engine::{Viewer, seat, with_ruleset};
use rand_chacha::rand_core::SeedableRng;
use serde_json::Value;
use tokio::sync::Semaphore;

use crate::db::games::LoadedGame;
use crate::error::Failure;
use crate::games::kind_of;
use crate::games::snapshot::state_from_json;
use crate::record::codec::to_json;

/// The most bots thinking at once in this process: one per core, so that
/// thinking never starves the HTTP threads of more than the cores it has.
static THINKERS: LazyLock<Arc<Semaphore>> = LazyLock::new(|| {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    Arc::new(Semaphore::new(cores))
});

/// The most search iterations one decision may take, whatever its time
/// budget (a bound on a fast machine).
pub const MAX_ITERATIONS: u32 = 100_000;

/// The command (as JSON) the bot of `level` in `seat_no` sends in the
/// game `loaded` holds, thinking at most `budget` on a blocking thread,
/// with at most one thinker per core.
///
/// # Errors
/// `internal` when the stored game does not parse or the seat has nothing
/// to play.
pub async fn choose(
    loaded: LoadedGame,
    seat_no: u8,
    level: Level,
    budget: Duration,
) -> Result<Value, Failure> {
    let _permit = THINKERS
        .clone()
        .acquire_owned()
        .await
        .map_err(Failure::internal)?;
    tokio::task::spawn_blocking(move || {
        let kind = kind_of(&loaded.game)?;
        with_ruleset!(kind, |R| decide::<R>(&loaded, seat_no, level, budget))
    })
    .await
    .map_err(Failure::internal)?
}

/// The decision itself (see [`choose`]).
fn decide<R: BotRules>(
    loaded: &LoadedGame,
    seat_no: u8,
    level: Level,
    budget: Duration,
) -> Result<Value, Failure> {
    let game = &loaded.game;
    let snapshot = game
        .state
        .as_ref()
        .ok_or_else(|| Failure::internal("an active game without a state"))?;
    let options: R::Options = serde_json::from_value(game.options.clone())
        .map_err(|e| Failure::internal(format!("stored options do not parse: {e}")))?;
    let (view, legal) = {
        let state = state_from_json::<R>(snapshot)?;
        let me = seat(usize::from(seat_no));
        (
            R::view(&state, Viewer::Seat(me)),
            R::legal_commands(&state, me),
        )
    };
    if legal.is_empty() {
        return Err(Failure::internal(format!(
            "seat {seat_no} has nothing to play"
        )));
    }
    let seen = Seen::<R>::new(
        &options,
        loaded.seats.len(),
        seat(usize::from(seat_no)),
        &view,
        &legal,
    );
    let budget = Budget {
        iterations: MAX_ITERATIONS,
        deadline: Some(Instant::now() + budget),
    };
    let mut rng = BotRng::seed_from_u64(rand::random());
    to_json(&bots::decide(level, &seen, budget, &mut rng))
}
