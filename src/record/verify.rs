//! The audit document of a finished game, and its offline verification.
//!
//! `hatstand verify <audit.json>` checks, and says where it fails:
//! 1. the hash chain: every event's `seq` follows the previous one, its
//!    `prev_hash` is the previous event's hash, and its `hash` is recomputed;
//! 2. the seed: SHA-256 of the revealed seed is the commitment published at
//!    creation (in the document and in the `game_created` event);
//! 3. the salts: in a game whose seats salt the shuffle (`record::salts`),
//!    every `player_joined` carries a well-formed salt (and no other game's
//!    does), and the deals below are drawn from the deal seed of the
//!    revealed seed and the salts in seat order; as the seed's commitment is
//!    event 1 and the salts come after it in the chain, a seed changed once
//!    the salts were in fails check 2;
//! 4. the play: the opening events are recomputed from the seed, every command
//!    is replayed through the engine (which must produce exactly the events
//!    that follow it, shuffles included), and no event appears that no command
//!    caused; a command the server played for a seat (autoplay, no user)
//!    must be the one the seed picks (at the game's `autoplay_level` for a
//!    timed-out turn, recomputed by the same bot);
//! 5. the server's events fit: timeouts and vacations only for seats the
//!    game waits on, a forced turn (`turn_forced`) only for a seat with
//!    exactly one legal command, followed at once by that command of the
//!    same player, a seat out only once, a forfeit only when at most one
//!    seat is left in, and nothing after it;
//! 6. the clocks (a game with a `clock` option or a weekend pause;
//!    docs/clocks.md): they start right after the opening events with each
//!    seat's recorded zone; every move's bank change is the one the
//!    recorded times give (`seat_bank_changed`, right after the move); every
//!    vacation's new deadline is recomputed; and a `turn_timed_out` before
//!    the seat's deadline, recomputed from the recorded times, is refused:
//!    that timeout could not have happened. On the fixed per-turn clock
//!    (`turn_timeout` alone, every game from before clocks) the same holds
//!    for the game's one deadline: the last step's time plus
//!    `turn_timeout` (a step of takeback or pause offers and votes leaves
//!    it as it was; a vacation's `until` replaces it), and a game with no
//!    clock at all never times out. The table's pauses (`record::pause`)
//!    are folded from their events: a proposal, a vote and a resume only
//!    when they fit, and no timeout while the table is paused;
//! 7. the end: the replayed final state and result (the forfeit's, or the
//!    engine's) equal the document's.

use hatstand_engine::bots::{BotRules, Level};
use hatstand_engine::random::seed_commitment;
use hatstand_engine::{Randomness, Rules, RulesError, Ruleset, seat, with_ruleset};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::chain::{GENESIS_HASH, LoggedEvent, format_time};
use super::clock::{BankChange, Clocks};
use super::codec::{split_tagged, to_json};
use super::out::autoplay_command;
use super::pause::TablePause;
use super::replay::Replay;
use super::server_event::{ServerEvent, is_server_event};

/// The format tag of audit documents.
pub const FORMAT: &str = "hatstand-audit/1";

/// The complete, unredacted record of a game.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AuditDocument {
    /// Always `hatstand-audit/1`.
    pub format: String,
    pub game_id: Uuid,
    #[schema(value_type = super::names::RulesetId)]
    pub ruleset: String,
    /// The rules the game was played under (`hats@1`), as its first event
    /// records them. Absent from documents written before rules versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = "hats@1")]
    pub rules: Option<String>,
    #[schema(value_type = super::names::GameStatus)]
    pub status: String,
    /// When the game ended (RFC 3339, microseconds): the export's cursor.
    /// Not part of what is verified.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<String>,
    /// SHA-256 of `seed`, as published at creation.
    pub seed_commitment: String,
    /// The game's seed, revealed.
    pub seed: String,
    /// Every event, unredacted, with its hash chain.
    pub events: Vec<AuditEvent>,
    /// The engine's final state; null for a game cancelled before it started.
    #[schema(value_type = Option<Object>)]
    pub final_state: Value,
    /// The result.
    #[schema(value_type = Option<Object>)]
    pub result: Option<Value>,
    /// That the game is in the server's transparency log: its leaf and the
    /// path to a signed tree head (absent until the game is logged, a few
    /// seconds after it ends, and from documents issued before the log).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log: Option<super::proofs::InclusionProof>,
    /// The server's Ed25519 signature over the canonical JSON of every
    /// other member (see `/.well-known/hatstand-keys.json`). Absent from
    /// documents issued before signatures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<super::signing::Signature>,
    /// The game's talk (docs/talk.md): absent for a game in which nothing
    /// was said and that allowed no press.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub talk: Option<super::talk::TalkRecord>,
}

impl AuditDocument {
    /// The document of an archived game from its archive row: the audit
    /// exactly as it was served, zstd-compressed.
    ///
    /// # Errors
    /// `internal` when the bytes do not decode.
    pub fn from_archive(compressed: &[u8]) -> Result<Self, crate::error::Failure> {
        let json = zstd::decode_all(compressed).map_err(crate::error::Failure::internal)?;
        serde_json::from_slice(&json).map_err(crate::error::Failure::internal)
    }
}

/// An event as the audit shows it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct AuditEvent {
    pub seq: i64,
    #[serde(rename = "type")]
    pub kind: String,
    #[schema(value_type = Object, nullable)]
    pub data: Value,
    /// Who caused it: a user, a seat (a timeout's), or both; null for the
    /// server itself.
    pub actor: Option<AuditActor>,
    /// The command that caused this event (on the first event of its batch).
    #[schema(value_type = Option<Object>)]
    pub command: Option<Value>,
    /// When it was recorded: RFC 3339 UTC with exactly six fractional
    /// digits. Declared a plain string, not `date-time`, because the hash
    /// covers these exact characters: a client that parses and re-prints
    /// the time may not verify.
    #[schema(example = "2026-11-23T10:00:00.000000Z")]
    pub at: String,
    pub prev_hash: String,
    pub hash: String,
    /// The schema the event was written under (1 when absent: documents
    /// written before schemas). Not part of the hash.
    #[serde(default = "first_schema")]
    #[schema(example = 2)]
    pub schema_version: i16,
}

fn first_schema() -> i16 {
    1
}

/// Who caused an event.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct AuditActor {
    pub user_id: Option<Uuid>,
    pub seat: Option<u8>,
}

impl From<&LoggedEvent> for AuditEvent {
    fn from(e: &LoggedEvent) -> Self {
        let actor = e.actor();
        AuditEvent {
            seq: e.seq,
            kind: e.kind.clone(),
            data: e.data.clone(),
            actor: (actor.user.is_some() || actor.seat.is_some()).then_some(AuditActor {
                user_id: actor.user,
                seat: actor.seat,
            }),
            command: e.command.clone(),
            at: e.created_at.clone(),
            prev_hash: e.prev_hash.clone(),
            hash: e.hash.clone(),
            schema_version: e.schema_version,
        }
    }
}

impl From<&AuditEvent> for LoggedEvent {
    fn from(e: &AuditEvent) -> Self {
        LoggedEvent {
            seq: e.seq,
            kind: e.kind.clone(),
            data: e.data.clone(),
            actor_user: e.actor.and_then(|a| a.user_id),
            actor_seat: e.actor.and_then(|a| a.seat).map(i16::from),
            command: e.command.clone(),
            prev_hash: e.prev_hash.clone(),
            hash: e.hash.clone(),
            created_at: e.at.clone(),
            schema_version: e.schema_version,
        }
    }
}

/// Why a document did not verify.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// The game was played under rules this build does not know: nothing
    /// can be said about it here (a newer build may verify it).
    #[error("{0}")]
    UnknownRules(String),
    /// The document is not what its game produced: the first problem found.
    #[error("{0}")]
    Failed(String),
}

impl From<String> for Rejection {
    fn from(why: String) -> Self {
        Rejection::Failed(why)
    }
}

impl From<&str> for Rejection {
    fn from(why: &str) -> Self {
        Rejection::Failed(why.to_owned())
    }
}

/// The server event `event` is, read through its upcaster (`None` for an
/// engine's event).
fn server_event(event: &LoggedEvent) -> Result<Option<ServerEvent>, String> {
    ServerEvent::read(&event.kind, event.schema_version, &event.data)
        .map_err(|e| format!("event {}: {e}", event.seq))
}

/// What a successful verification established.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    pub events: usize,
    pub commands: usize,
    pub ruleset: String,
    /// The rules it was replayed under (`hats@1`).
    pub rules: String,
    /// In a game whose seats salted the shuffle: the deal seed recomputed
    /// from the revealed seed and the salts, and how many of the salts the
    /// server made (`record::salts`).
    pub salted: Option<Salted>,
}

/// What the salts of a verified game came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Salted {
    /// The deal seed every draw came from (hex).
    pub deal_seed: String,
    /// One per seat.
    pub salts: usize,
    /// Those the server made (bots' seats, clients that sent none).
    pub by_server: usize,
}

/// The salts of a game's joins in seat order, if its seats salted the
/// shuffle and the table filled (a verified log: they are well formed).
fn salted(seed: &str, events: &[LoggedEvent]) -> Result<Option<Salted>, String> {
    let mut joined = Vec::new();
    for event in events {
        if let Some(ServerEvent::PlayerJoined(j)) = server_event(event)? {
            joined.push(j);
        }
    }
    joined.sort_by_key(|j| j.seat);
    let salts: Option<Vec<[u8; 32]>> = joined
        .iter()
        .map(|j| {
            j.salt
                .as_deref()
                .and_then(hatstand_engine::random::parse_salt)
        })
        .collect();
    let started = events.iter().any(|e| e.kind == "game_started");
    Ok(salts
        .filter(|s| started && !s.is_empty())
        .map(|salts| Salted {
            deal_seed: hatstand_engine::random::deal_seed(seed, &salts),
            salts: salts.len(),
            by_server: joined.iter().filter(|j| j.salt_by_server).count(),
        }))
}

/// Verifies an audit document (see the module documentation).
///
/// # Errors
/// `UnknownRules` when the game was played under rules this build does not
/// know; otherwise `Failed` with the first problem found, saying where.
pub fn verify(doc: &AuditDocument) -> Result<Verified, Rejection> {
    if doc.format != FORMAT {
        return Err(format!("not a {FORMAT} document").into());
    }
    let events: Vec<LoggedEvent> = doc.events.iter().map(LoggedEvent::from).collect();
    check_chain(&events)?;
    if seed_commitment(&doc.seed) != doc.seed_commitment {
        return Err("the seed does not match the seed commitment".into());
    }
    let first = events.first().ok_or("the log is empty")?;
    let Some(ServerEvent::GameCreated(created)) = server_event(first)? else {
        return Err("event 1 is not game_created".into());
    };
    if created.seed_commitment != doc.seed_commitment {
        return Err("event 1: the commitment published at creation is not the document's".into());
    }
    if created.ruleset != doc.ruleset {
        return Err("event 1: the ruleset is not the document's".into());
    }
    let rules = created.rules;
    if doc.rules.as_ref().is_some_and(|shown| *shown != rules) {
        return Err("event 1: the rules recorded at creation are not the document's".into());
    }
    let rules = Rules::parse(&rules).map_err(|e| match e {
        RulesError::Malformed(_) => Rejection::Failed(format!("event 1: {e}")),
        RulesError::UnknownRuleset(_) | RulesError::UnknownVersion { .. } => {
            Rejection::UnknownRules(format!("the game was played under {e}"))
        }
    })?;
    if rules.kind.id() != doc.ruleset {
        return Err("event 1: the rules recorded are not the document's ruleset".into());
    }
    let commands = with_ruleset!(rules.kind, |R| replay_and_compare::<R>(doc, &events))?;
    if let Some(talk) = &doc.talk {
        super::talk::verify(talk)?;
    }
    Ok(Verified {
        events: events.len(),
        commands,
        ruleset: doc.ruleset.clone(),
        rules: rules.to_string(),
        salted: salted(&doc.seed, &events)?,
    })
}

/// Checks the order and the hash chain of a log.
///
/// # Errors
/// Where the chain breaks.
pub fn check_chain(events: &[LoggedEvent]) -> Result<(), String> {
    let mut prev = GENESIS_HASH.to_owned();
    for (i, event) in events.iter().enumerate() {
        let expected_seq = i64::try_from(i).map_err(|e| e.to_string())? + 1;
        if event.seq != expected_seq {
            return Err(format!(
                "event at position {expected_seq} has seq {}: events are missing or out of order",
                event.seq
            ));
        }
        if event.prev_hash != prev {
            return Err(format!(
                "event {}: prev_hash does not match the previous event's hash (reordered or removed events)",
                event.seq
            ));
        }
        if event.expected_hash() != event.hash {
            return Err(format!(
                "event {}: hash mismatch, the event was altered",
                event.seq
            ));
        }
        prev.clone_from(&event.hash);
    }
    Ok(())
}

fn engine_parts<R: Ruleset>(events: &[R::Event]) -> Result<Vec<(String, Value)>, String> {
    events
        .iter()
        .map(|e| to_json(e).and_then(split_tagged).map_err(|e| e.detail))
        .collect()
}

fn compare_batch(
    expected: &[(String, Value)],
    recorded: &[LoggedEvent],
    what: &str,
) -> Result<(), String> {
    for (i, (kind, data)) in expected.iter().enumerate() {
        let Some(event) = recorded.get(i) else {
            return Err(format!("{what}: the log ends before its event {kind}"));
        };
        if &event.kind != kind || &event.data != data {
            return Err(format!(
                "event {}: recorded {} is not the {kind} the engine produces from {what}",
                event.seq, event.kind
            ));
        }
        if i > 0 && event.command.is_some() {
            return Err(format!(
                "event {}: carries a command inside another command's batch",
                event.seq
            ));
        }
    }
    Ok(())
}

/// What decides the server's autoplay in a game: its engine options, seats
/// and `autoplay_level` (from `game_created`).
struct Autoplay<R: Ruleset> {
    options: Option<R::Options>,
    players: usize,
    level: Level,
    /// The seat whose `turn_timed_out` is the event just before, if any:
    /// the next command without a user is its timeout autoplay.
    timed_out: Option<u8>,
}

impl<R: BotRules> Autoplay<R> {
    fn new() -> Self {
        Autoplay {
            options: None,
            players: 0,
            level: Level::Random,
            timed_out: None,
        }
    }

    /// Takes note of a server event.
    fn saw(&mut self, event: Option<&ServerEvent>) -> Result<(), String> {
        self.timed_out = None;
        match event {
            Some(ServerEvent::GameCreated(created)) => {
                self.options = Some(
                    serde_json::from_value(created.options.clone())
                        .map_err(|e| format!("the game's options do not parse: {e}"))?,
                );
                self.players = usize::from(created.players);
                self.level = created
                    .server_options
                    .as_ref()
                    .and_then(|o| o.get("autoplay_level"))
                    .and_then(Value::as_str)
                    .and_then(|l| l.parse().ok())
                    .unwrap_or(Level::Random);
            }
            Some(ServerEvent::TurnTimedOut(timed_out)) => self.timed_out = Some(timed_out.seat),
            _ => {}
        }
        Ok(())
    }

    /// A command the server played for a seat (no user) must be the one the
    /// rules of autoplay give (`record::out`): at the game's level right
    /// after that seat's `turn_timed_out`, else the random pick
    /// `legal_commands[below(stream("autoplay", seq - 1), len)]`.
    fn check(
        &mut self,
        state: &R::State,
        seat_no: u8,
        command: &R::Command,
        randomness: &Randomness,
        seq: i64,
    ) -> Result<(), String> {
        let version = u64::try_from(seq - 1).map_err(|e| e.to_string())?;
        let level = if self.timed_out.take() == Some(seat_no) {
            self.level
        } else {
            Level::Random
        };
        let options = self
            .options
            .as_ref()
            .ok_or("a command before game_created")?;
        let expected = autoplay_command::<R>(
            state,
            options,
            self.players,
            seat_no,
            level,
            randomness,
            version,
        );
        if expected.as_ref() != Some(command) {
            return Err(format!(
                "event {seq}: the server's autoplay is not the command the seed picks"
            ));
        }
        Ok(())
    }
}

/// The command after a `turn_forced` of (`seat`, `user`) is that seat's
/// and that user's, and it is the seat's one legal command.
fn check_forced<R: Ruleset>(
    state: &R::State,
    (seat_no, user): (u8, Option<Uuid>),
    played_by: u8,
    event: &LoggedEvent,
    command: &R::Command,
) -> Result<(), String> {
    if played_by != seat_no || event.actor_user != user || user.is_none() {
        return Err(format!(
            "event {}: the command after a forced turn is not its seat's player's",
            event.seq
        ));
    }
    if R::legal_commands(state, seat(usize::from(seat_no))) != [command.clone()] {
        return Err(format!(
            "event {}: a forced command that is not the seat's one legal command",
            event.seq
        ));
    }
    Ok(())
}

/// The clocks of a game, replayed from the recorded times.
struct ClockReplay {
    rules: Option<super::clock::Rules>,
    clocks: Option<Clocks>,
    /// The bank change the move just replayed must be followed by.
    pending: Option<BankChange>,
    /// The table's pause, folded from its events.
    pause: TablePause,
    /// The fixed per-turn clock, when the game has neither a `clock` nor
    /// a weekend pause.
    fixed: FixedClock,
}

/// The fixed per-turn clock replayed: one deadline for the game, set anew
/// by each step (the events written at one instant).
#[derive(Default)]
struct FixedClock {
    /// `turn_timeout`.
    turn: Option<chrono::TimeDelta>,
    /// The time of the step being read.
    step_at: Option<chrono::DateTime<chrono::Utc>>,
    /// A vacation's new deadline in that step.
    step_until: Option<chrono::DateTime<chrono::Utc>>,
    /// Whether that step only offered or voted (it keeps the deadline).
    step_keeps: bool,
    /// The deadline in force before that step.
    deadline: Option<chrono::DateTime<chrono::Utc>>,
}

impl FixedClock {
    /// The event at `at` is read: a new instant ends the step before it.
    fn at(&mut self, at: chrono::DateTime<chrono::Utc>, paused: bool) {
        if self.step_at == Some(at) {
            return;
        }
        if let Some(step_at) = self.step_at {
            self.deadline = if paused {
                None
            } else if let Some(until) = self.step_until {
                Some(until)
            } else if self.step_keeps {
                self.deadline
            } else {
                self.turn.and_then(|t| step_at.checked_add_signed(t))
            };
        }
        self.step_at = Some(at);
        self.step_until = None;
        self.step_keeps = true;
    }

    /// Notes what the step holds.
    fn saw(&mut self, server: Option<&ServerEvent>) {
        match server {
            Some(ServerEvent::SeatVacation(v)) => {
                self.step_until = chrono::DateTime::parse_from_rfc3339(&v.until)
                    .ok()
                    .map(|t| t.with_timezone(&chrono::Utc));
            }
            Some(
                ServerEvent::TurnTakebackOffered(_)
                | ServerEvent::TurnTakebackAccepted(_)
                | ServerEvent::TurnTakebackDeclined(_)
                | ServerEvent::GamePauseProposed(_)
                | ServerEvent::GamePauseVoted(_),
            ) => {}
            _ => self.step_keeps = false,
        }
    }
}

fn time_of(event: &LoggedEvent) -> Result<chrono::DateTime<chrono::Utc>, String> {
    chrono::DateTime::parse_from_rfc3339(&event.created_at)
        .map(|t| t.with_timezone(&chrono::Utc))
        .map_err(|e| format!("event {}: its time does not parse: {e}", event.seq))
}

impl ClockReplay {
    fn to_act<R: Ruleset>(state: Option<&R::State>) -> Vec<u8> {
        state.map_or_else(Vec::new, |s| {
            R::to_act(s).into_iter().map(|s| s.0).collect()
        })
    }

    /// Checks and folds a server event.
    fn saw<R: Ruleset>(
        &mut self,
        event: &LoggedEvent,
        server: Option<&ServerEvent>,
        state: Option<&R::State>,
    ) -> Result<(), String> {
        let seq = event.seq;
        let at = time_of(event)?;
        self.fixed.at(at, self.pause.is_paused());
        self.fixed.saw(server);
        if let Some(server) = server {
            self.pause
                .apply(server, at)
                .map_err(|e| format!("event {seq}: {e}"))?;
        }
        if let Some(due) = self.pending.take() {
            match server {
                Some(ServerEvent::SeatBankChanged(changed))
                    if changed.seat == due.seat && changed.bank_ms == due.bank_ms => {}
                _ => {
                    return Err(format!(
                        "event {seq}: seat {}'s bank after its move is {} ms by the recorded times, and no such seat_bank_changed follows",
                        due.seat, due.bank_ms
                    ));
                }
            }
            return Ok(());
        }
        match server {
            Some(ServerEvent::GameCreated(created)) => {
                let options = created.server_options.clone().unwrap_or(Value::Null);
                self.rules = super::clock::rules_of(&options)
                    .map_err(|e| format!("event {seq}: the clock options do not read: {e}"))?;
                self.fixed.turn = options
                    .get("turn_timeout")
                    .and_then(Value::as_str)
                    .and_then(|t| super::clock::parse_duration(t).ok())
                    .and_then(|secs| i64::try_from(secs).ok())
                    .and_then(chrono::TimeDelta::try_seconds);
            }
            Some(ServerEvent::GameClockStarted(started)) => {
                let rules = self
                    .rules
                    .as_ref()
                    .ok_or_else(|| format!("event {seq}: clocks in a game without a clock"))?;
                if self.clocks.is_some() {
                    return Err(format!("event {seq}: the clocks start twice"));
                }
                for zone in &started.zones {
                    super::clock::zone(zone).map_err(|e| format!("event {seq}: {e}"))?;
                }
                self.clocks = Some(Clocks::start(
                    rules,
                    &started.zones,
                    &Self::to_act::<R>(state),
                    time_of(event)?,
                ));
            }
            Some(ServerEvent::SeatBankChanged(_)) => {
                return Err(format!("event {seq}: a bank change that no move caused"));
            }
            Some(ServerEvent::TurnTimedOut(out)) => {
                if self.pause.is_paused() {
                    return Err(format!(
                        "event {seq}: seat {} timed out while the table was paused: that timeout could not have happened",
                        out.seat
                    ));
                }
                if self.rules.is_none() {
                    self.fixed_timeout(event, out.seat, at)?;
                }
                if let (Some(rules), Some(clocks)) = (&self.rules, &self.clocks) {
                    match clocks.deadline(rules, out.seat) {
                        Some(deadline) if deadline <= at => {}
                        Some(deadline) => {
                            return Err(format!(
                                "event {seq}: seat {} timed out at {}, before its deadline {}: that timeout could not have happened",
                                out.seat,
                                event.created_at,
                                format_time(deadline)
                            ));
                        }
                        None => {
                            return Err(format!(
                                "event {seq}: seat {} timed out with no clock running",
                                out.seat
                            ));
                        }
                    }
                }
            }
            Some(ServerEvent::GamePaused(_)) => {
                if let Some(clocks) = &mut self.clocks {
                    clocks.pause(at);
                }
            }
            Some(ServerEvent::GameResumed(_)) => {
                if let (Some(rules), Some(clocks)) = (&self.rules, &mut self.clocks) {
                    clocks.resume(rules, at);
                }
            }
            Some(ServerEvent::SeatVacation(vacation)) => {
                if let (Some(rules), Some(clocks)) = (&self.rules, &mut self.clocks) {
                    let extra = i64::try_from(vacation.duration_secs)
                        .ok()
                        .and_then(chrono::TimeDelta::try_seconds)
                        .ok_or_else(|| format!("event {seq}: a vacation too long"))?;
                    clocks.vacation(vacation.seat, extra);
                    let until = clocks.deadline(rules, vacation.seat).map(format_time);
                    if until.as_deref() != Some(vacation.until.as_str()) {
                        return Err(format!(
                            "event {seq}: the vacation's new deadline is not the one the clock gives"
                        ));
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// A timeout at `at` on the fixed per-turn clock: not before the
    /// game's deadline as the steps before set it.
    fn fixed_timeout(
        &self,
        event: &LoggedEvent,
        seat: u8,
        at: chrono::DateTime<chrono::Utc>,
    ) -> Result<(), String> {
        let seq = event.seq;
        if self.fixed.turn.is_none() {
            return Err(format!(
                "event {seq}: seat {seat} timed out in a game without a clock: that timeout could not have happened"
            ));
        }
        match self.fixed.deadline {
            Some(deadline) if deadline <= at => Ok(()),
            Some(deadline) => Err(format!(
                "event {seq}: seat {seat} timed out at {}, before the game's deadline {}: that timeout could not have happened",
                event.created_at,
                format_time(deadline)
            )),
            None => Err(format!(
                "event {seq}: seat {seat} timed out with no deadline running: that timeout could not have happened"
            )),
        }
    }

    /// Folds the move of `seat` (the command `event`), the game now in `state`.
    fn moved<R: Ruleset>(
        &mut self,
        event: &LoggedEvent,
        seat: u8,
        state: Option<&R::State>,
    ) -> Result<(), String> {
        if let Some(due) = self.pending.take() {
            return Err(format!(
                "event {}: seat {}'s bank change is missing before it",
                event.seq, due.seat
            ));
        }
        self.fixed.at(time_of(event)?, self.pause.is_paused());
        self.fixed.step_keeps = false;
        let Some(rules) = &self.rules else {
            return Ok(());
        };
        let clocks = self
            .clocks
            .as_mut()
            .ok_or_else(|| format!("event {}: a move before the clocks started", event.seq))?;
        let at = time_of(event)?;
        self.pending = clocks.moved(rules, seat, at);
        clocks.to_act(rules, &Self::to_act::<R>(state), at);
        Ok(())
    }
}

/// A game cancelled before it started: its log ends with the cancellation,
/// and it has neither a final state nor a result.
fn never_started(doc: &AuditDocument, events: &[LoggedEvent]) -> Result<(), String> {
    let last = events.last().map(server_event).transpose()?.flatten();
    let cancelled = matches!(last, Some(ServerEvent::GameCancelled(_)));
    if !cancelled || doc.status != "abandoned" {
        return Err("the game never started, yet it was not cancelled".into());
    }
    if !doc.final_state.is_null() || doc.result.is_some() {
        return Err("a game that never started has no final state or result".into());
    }
    Ok(())
}

fn replay_and_compare<R: BotRules>(
    doc: &AuditDocument,
    events: &[LoggedEvent],
) -> Result<usize, String> {
    // Replaced by the game's own (salted or not) once every seat is taken.
    let mut randomness = Randomness::from_seed(&doc.seed);
    let mut replay = Replay::<R>::default();
    let mut autoplay = Autoplay::<R>::new();
    let mut clock = ClockReplay {
        rules: None,
        clocks: None,
        pending: None,
        pause: TablePause::default(),
        fixed: FixedClock::default(),
    };
    let mut commands = 0;
    let mut i = 0;
    // The forced turn (`turn_forced`: its seat and user) whose command must
    // come next.
    let mut forced: Option<(u8, Option<Uuid>)> = None;
    while i < events.len() {
        let event = &events[i];
        if is_server_event(&event.kind) {
            if forced.is_some() {
                return Err(format!(
                    "event {}: a forced turn is followed by {}, not its command",
                    event.seq, event.kind
                ));
            }
            replay.apply(event)?;
            i += 1;
            let server = server_event(event)?;
            clock.saw::<R>(event, server.as_ref(), replay.state.as_ref())?;
            autoplay.saw(server.as_ref())?;
            if let Some(ServerEvent::TurnForced(turn)) = &server {
                forced = Some((turn.seat, event.actor_user));
            }
            if let Some(ServerEvent::GameStarted(_)) = server {
                randomness = replay
                    .randomness(&doc.seed)
                    .map_err(|e| format!("event {}: {e}", event.seq))?;
                let state = replay.state.as_ref().ok_or("no state after game_started")?;
                let opening = engine_parts::<R>(&R::start(state, &randomness))?;
                compare_batch(&opening, &events[i..], "the seed's opening deal")?;
                for e in &events[i..i + opening.len()] {
                    replay.apply(e)?;
                }
                i += opening.len();
            }
            continue;
        }
        let Some(command_json) = &event.command else {
            return Err(format!(
                "event {}: {} was caused by no command",
                event.seq, event.kind
            ));
        };
        let seat_no = event
            .actor()
            .seat
            .ok_or_else(|| format!("event {}: a command without a seat", event.seq))?;
        let command: R::Command = serde_json::from_value(command_json.clone())
            .map_err(|e| format!("event {}: the command does not parse: {e}", event.seq))?;
        let state = replay
            .state
            .as_ref()
            .ok_or("a command before the game started")?;
        if let Some(turn) = forced.take() {
            check_forced::<R>(state, turn, seat_no, event, &command)?;
        } else if event.actor_user.is_none() {
            autoplay.check(state, seat_no, &command, &randomness, event.seq)?;
        }
        autoplay.timed_out = None;
        // A player's command is the seat's holder's: the player who joined
        // it, or its last substitute (`seat_substituted`).
        if let Some(user) = event.actor_user
            && replay.holder(seat_no) != Some(user)
        {
            return Err(format!(
                "event {}: a command of seat {seat_no} by a player who does not hold it",
                event.seq
            ));
        }
        let produced = R::decide(state, seat(usize::from(seat_no)), &command, &randomness)
            .map_err(|e| {
                format!(
                    "event {}: the engine refuses the recorded command: {e}",
                    event.seq
                )
            })?;
        let expected = engine_parts::<R>(&produced)?;
        compare_batch(
            &expected,
            &events[i..],
            &format!("the command of event {}", event.seq),
        )?;
        for e in &events[i..i + expected.len()] {
            replay.apply(e)?;
        }
        clock.moved::<R>(event, seat_no, replay.state.as_ref())?;
        i += expected.len();
        commands += 1;
    }
    if forced.is_some() {
        return Err("the log ends with a forced turn and no command".into());
    }
    if let Some(due) = clock.pending {
        return Err(format!(
            "the log ends without seat {}'s bank change after its move",
            due.seat
        ));
    }
    let Some(state) = replay.state.as_ref() else {
        return never_started(doc, events).map(|()| commands);
    };
    let final_state = serde_json::to_value(state).map_err(|e| e.to_string())?;
    if final_state != doc.final_state {
        return Err("the final state is not the one the log replays to".into());
    }
    let result = replay.result()?;
    if result != doc.result {
        return Err("the result is not the one the log replays to".into());
    }
    Ok(commands)
}
