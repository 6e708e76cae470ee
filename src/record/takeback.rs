//! Takebacks (docs/turn-conveniences.md): the pure rule of when a seat may
//! take back its last command, folded over a game's log by [`Tracker`], the
//! same fold for the live step, for replays and for `verify`.
//!
//! Rules:
//! - A command may be taken back only while it is the **last thing** in the
//!   log: its events came last, and nothing followed them but the offer and
//!   its acceptances. Any other event (another command, whoever's; a
//!   timeout, a vacation, a resignation, a decline) ends the chance for
//!   good; a declined offer is not made again.
//! - It must be a **player's own** command: sent by its user (not played by
//!   the server for an out or timed-out seat, not a forced move), offered by
//!   that same user and seat.
//! - **Nothing hidden revealed**: none of its events reveals anything
//!   (`Ruleset::reveals`: no card dealt, drawn, taken or played from a hand).
//!   In Top Hats nothing does, so any command may be taken back until the
//!   next seat moves.
//! - **Everyone agrees**: every other seat that is not out accepts
//!   (`turn_takeback_accepted`, once each); then `turn_taken_back` names the
//!   seat and the version before the command, and the state is again the
//!   state at that version.
//! - The tracker must have seen the event before the command (a log tail
//!   that starts inside a command's batch allows nothing).

use uuid::Uuid;

use super::chain::Actor;
use super::out::OutSeats;
use super::server_event::ServerEvent;

/// A standing offer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    /// The seat whose last command it takes back.
    pub seat: u8,
    /// The version before that command.
    pub to_version: i64,
    /// The seats that accepted so far, in the order they did.
    pub accepted: Vec<u8>,
}

impl Offer {
    /// The seats whose acceptance is still awaited: every seat of `out`'s
    /// game but the offering one that is not out and has not accepted.
    #[must_use]
    pub fn waiting(&self, out: &OutSeats) -> Vec<u8> {
        (0..out.len())
            .filter_map(|s| u8::try_from(s).ok())
            .filter(|&s| s != self.seat && !out.is_out(s) && !self.accepted.contains(&s))
            .collect()
    }
}

/// The last command of the log and where its takeback stands.
#[derive(Debug, Clone)]
struct Last<S> {
    seat: u8,
    user: Option<Uuid>,
    to_version: i64,
    /// The state before the command (kept by replays; `()` for a tail).
    before: S,
    /// Sent by its user, not forced, nothing revealed, seen from its start.
    takeable: bool,
    /// Its events are still the last in the log.
    open: bool,
    offer: Option<Offer>,
}

/// The fold of a log (or of its tail) that knows where a takeback stands.
#[derive(Debug, Clone)]
pub struct Tracker<S> {
    last: Option<Last<S>>,
    /// A `turn_forced` came last: the next command is forced.
    forced_next: bool,
    /// Whether any event was seen (a tail's first command is not known whole).
    seen_any: bool,
}

impl<S> Default for Tracker<S> {
    fn default() -> Self {
        Tracker {
            last: None,
            forced_next: false,
            seen_any: false,
        }
    }
}

/// Why a takeback event does not follow the rules (as `verify` says it).
pub type Broken = String;

impl<S> Tracker<S> {
    /// An engine event at `seq`: the first of a command's batch (`first`) by
    /// `actor`, or the next of the batch. `reveals` is the engine's
    /// `Ruleset::reveals`; `before` gives the state before the event.
    pub fn engine(
        &mut self,
        seq: i64,
        actor: Actor,
        first: bool,
        reveals: bool,
        before: impl FnOnce() -> S,
    ) {
        let forced = std::mem::take(&mut self.forced_next);
        if first {
            self.last = actor.seat.map(|seat| Last {
                seat,
                user: actor.user,
                to_version: seq - 1,
                before: before(),
                takeable: self.seen_any && actor.user.is_some() && !forced && !reveals,
                open: true,
                offer: None,
            });
        } else {
            match &mut self.last {
                Some(last) if last.open && last.offer.is_none() => last.takeable &= !reveals,
                _ => self.last = None,
            }
        }
        self.seen_any = true;
    }

    /// A server event at `seq` by `actor`; `out` are the seats that are out.
    /// Returns the state to go back to on `turn_taken_back`.
    ///
    /// # Errors
    /// A takeback event the rules do not allow.
    pub fn server(
        &mut self,
        seq: i64,
        event: &ServerEvent,
        actor: Actor,
        out: &OutSeats,
    ) -> Result<Option<S>, Broken> {
        self.seen_any = true;
        self.forced_next = false;
        match event {
            ServerEvent::TurnTakebackOffered(offer) => {
                self.offerable(offer.seat, actor)
                    .map_err(|why| format!("event {seq}: a takeback offer {why}"))?;
                let last = self.last.as_mut().ok_or("no last command")?;
                if offer.to_version != last.to_version {
                    return Err(format!(
                        "event {seq}: the offer names version {}, not {} (before the command)",
                        offer.to_version, last.to_version
                    ));
                }
                last.open = false;
                last.offer = Some(Offer {
                    seat: offer.seat,
                    to_version: last.to_version,
                    accepted: Vec::new(),
                });
                Ok(None)
            }
            ServerEvent::TurnTakebackAccepted(answer) => {
                let offer = self
                    .answerable(answer.seat, actor, out)
                    .map_err(|why| format!("event {seq}: an acceptance {why}"))?;
                offer.accepted.push(answer.seat);
                Ok(None)
            }
            ServerEvent::TurnTakebackDeclined(answer) => {
                self.answerable(answer.seat, actor, out)
                    .map_err(|why| format!("event {seq}: a decline {why}"))?;
                self.last = None;
                Ok(None)
            }
            ServerEvent::TurnTakenBack(back) => {
                let offer = self
                    .offer()
                    .ok_or_else(|| format!("event {seq}: a takeback without an offer"))?;
                if back.seat != offer.seat || back.to_version != offer.to_version {
                    return Err(format!("event {seq}: the takeback is not the offer's"));
                }
                if !offer.waiting(out).is_empty() {
                    return Err(format!(
                        "event {seq}: a takeback not accepted by every other seat"
                    ));
                }
                if actor != Actor::SYSTEM {
                    return Err(format!("event {seq}: a takeback is the server's"));
                }
                Ok(self.last.take().map(|last| last.before))
            }
            _ => {
                self.last = None;
                if matches!(event, ServerEvent::TurnForced(_)) {
                    self.forced_next = true;
                }
                Ok(None)
            }
        }
    }

    /// The standing offer.
    #[must_use]
    pub fn offer(&self) -> Option<&Offer> {
        self.last.as_ref().and_then(|l| l.offer.as_ref())
    }

    /// Whether `actor`, at `seat`, may offer to take back the last command
    /// now, and the version it goes back to.
    ///
    /// # Errors
    /// Why not, in words.
    pub fn offerable(&self, seat: u8, actor: Actor) -> Result<i64, String> {
        let last = self
            .last
            .as_ref()
            .filter(|l| l.open && l.offer.is_none())
            .ok_or("comes after something other than a command")?;
        if last.seat != seat || actor.seat != Some(seat) || actor.user != last.user {
            return Err("is not by the player who sent the last command".into());
        }
        if !last.takeable {
            return Err(
                "names a command that revealed something hidden, or that its player did not send"
                    .into(),
            );
        }
        Ok(last.to_version)
    }

    /// The standing offer, if `actor` at `seat` may answer it.
    fn answerable(&mut self, seat: u8, actor: Actor, out: &OutSeats) -> Result<&mut Offer, String> {
        if actor.seat != Some(seat) || actor.user.is_none() {
            return Err("is not by the seat's player".into());
        }
        let offer = self
            .last
            .as_mut()
            .and_then(|l| l.offer.as_mut())
            .ok_or("without an offer")?;
        if !offer.waiting(out).contains(&seat) {
            return Err(format!("by seat {seat}, which is not awaited"));
        }
        Ok(offer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::server_event::{SeatOnly, Takeback};

    const ADA: Uuid = Uuid::from_u128(1);
    const BRUNO: Uuid = Uuid::from_u128(2);

    fn player(seat: u8, user: Uuid) -> Actor {
        Actor {
            user: Some(user),
            seat: Some(seat),
        }
    }

    fn offered(seat: u8, to_version: i64) -> ServerEvent {
        ServerEvent::TurnTakebackOffered(Takeback { seat, to_version })
    }

    fn accepted(seat: u8) -> ServerEvent {
        ServerEvent::TurnTakebackAccepted(SeatOnly { seat })
    }

    fn taken_back(seat: u8, to_version: i64) -> ServerEvent {
        ServerEvent::TurnTakenBack(Takeback { seat, to_version })
    }

    /// Two seats; the game started (event 5); seat 0 sent a command of two
    /// events (6 and 7), the state before it being "at 5".
    fn after_a_command(reveals: bool) -> Tracker<&'static str> {
        let mut tracker = Tracker::default();
        let out = OutSeats::none_of(2);
        tracker
            .server(
                5,
                &ServerEvent::GameStarted(Default::default()),
                Actor::SYSTEM,
                &out,
            )
            .unwrap();
        tracker.engine(6, player(0, ADA), true, false, || "at 5");
        tracker.engine(7, player(0, ADA), false, reveals, || "at 6");
        tracker
    }

    #[test]
    fn given_a_command_that_revealed_nothing_when_offered_and_accepted_then_it_goes_back() {
        let mut tracker = after_a_command(false);
        let out = OutSeats::none_of(2);
        assert_eq!(tracker.offerable(0, player(0, ADA)), Ok(5));
        tracker
            .server(8, &offered(0, 5), player(0, ADA), &out)
            .unwrap();
        assert_eq!(tracker.offer().unwrap().waiting(&out), vec![1]);
        tracker
            .server(9, &accepted(1), player(1, BRUNO), &out)
            .unwrap();
        let back = tracker
            .server(10, &taken_back(0, 5), Actor::SYSTEM, &out)
            .unwrap();
        assert_eq!(back, Some("at 5"));
        assert!(tracker.offer().is_none());
    }

    #[test]
    fn given_a_command_that_revealed_a_card_when_offered_then_it_is_refused() {
        let mut tracker = after_a_command(true);
        let out = OutSeats::none_of(2);
        assert!(tracker.offerable(0, player(0, ADA)).is_err());
        assert!(
            tracker
                .server(8, &offered(0, 5), player(0, ADA), &out)
                .is_err()
        );
    }

    #[test]
    fn given_another_seat_moved_since_when_offered_then_it_is_refused() {
        let mut tracker = after_a_command(false);
        tracker.engine(8, player(1, BRUNO), true, false, || "at 7");
        assert!(tracker.offerable(0, player(0, ADA)).is_err());
        // Bruno may take back his own.
        assert_eq!(tracker.offerable(1, player(1, BRUNO)), Ok(7));
    }

    #[test]
    fn given_a_forced_or_server_played_command_when_offered_then_it_is_refused() {
        let mut forced = after_a_command(false);
        let out = OutSeats::none_of(2);
        forced
            .server(
                8,
                &ServerEvent::TurnForced(SeatOnly { seat: 0 }),
                player(0, ADA),
                &out,
            )
            .unwrap();
        forced.engine(9, player(0, ADA), true, false, || "at 8");
        assert!(forced.offerable(0, player(0, ADA)).is_err());
        let mut autoplayed = after_a_command(false);
        let server = Actor {
            user: None,
            seat: Some(1),
        };
        autoplayed.engine(8, server, true, false, || "at 7");
        assert!(autoplayed.offerable(1, player(1, BRUNO)).is_err());
    }

    #[test]
    fn given_an_offer_when_declined_or_followed_by_a_command_then_it_ends_for_good() {
        let out = OutSeats::none_of(2);
        let mut declined = after_a_command(false);
        declined
            .server(8, &offered(0, 5), player(0, ADA), &out)
            .unwrap();
        let decline = ServerEvent::TurnTakebackDeclined(SeatOnly { seat: 1 });
        declined
            .server(9, &decline, player(1, BRUNO), &out)
            .unwrap();
        assert!(declined.offer().is_none());
        assert!(declined.offerable(0, player(0, ADA)).is_err());
        assert!(
            declined
                .server(10, &taken_back(0, 5), Actor::SYSTEM, &out)
                .is_err()
        );
        let mut moved_on = after_a_command(false);
        moved_on
            .server(8, &offered(0, 5), player(0, ADA), &out)
            .unwrap();
        moved_on.engine(9, player(1, BRUNO), true, false, || "at 8");
        assert!(moved_on.offer().is_none());
    }

    #[test]
    fn given_an_offer_when_taken_back_without_every_acceptance_then_it_is_broken() {
        let out = OutSeats::none_of(3);
        let mut tracker = after_a_command(false);
        tracker
            .server(8, &offered(0, 5), player(0, ADA), &out)
            .unwrap();
        tracker
            .server(9, &accepted(1), player(1, BRUNO), &out)
            .unwrap();
        assert!(
            tracker
                .server(10, &taken_back(0, 5), Actor::SYSTEM, &out)
                .is_err()
        );
    }

    #[test]
    fn given_an_offer_when_answered_by_its_own_seat_twice_or_by_an_out_seat_then_it_is_broken() {
        let mut out = OutSeats::none_of(3);
        out.mark(2).unwrap();
        let mut tracker = after_a_command(false);
        tracker
            .server(8, &offered(0, 5), player(0, ADA), &out)
            .unwrap();
        assert!(
            tracker
                .server(9, &accepted(0), player(0, ADA), &out)
                .is_err()
        );
        assert!(
            tracker
                .server(9, &accepted(2), player(2, BRUNO), &out)
                .is_err()
        );
        tracker
            .server(9, &accepted(1), player(1, BRUNO), &out)
            .unwrap();
        assert!(
            tracker
                .server(10, &accepted(1), player(1, BRUNO), &out)
                .is_err()
        );
        // The out seat is not awaited: seat 1's acceptance is enough.
        assert!(
            tracker
                .server(10, &taken_back(0, 5), Actor::SYSTEM, &out)
                .is_ok()
        );
    }

    #[test]
    fn given_a_tail_that_starts_inside_a_command_then_nothing_may_be_taken_back() {
        let mut tracker = Tracker::<()>::default();
        tracker.engine(6, player(0, ADA), true, false, || ());
        assert!(tracker.offerable(0, player(0, ADA)).is_err());
    }

    #[test]
    fn given_an_offer_naming_another_version_then_it_is_broken() {
        let out = OutSeats::none_of(2);
        let mut tracker = after_a_command(false);
        assert!(
            tracker
                .server(8, &offered(0, 4), player(0, ADA), &out)
                .is_err()
        );
        assert!(
            tracker
                .server(8, &offered(0, 5), player(1, BRUNO), &out)
                .is_err()
        );
    }

    /// The property, for every ruleset: random legal play by players, and at
    /// random points where the rules allow it, the last command offered
    /// back, accepted by every other seat and taken back; the replay's state
    /// after `turn_taken_back` is the state the log had at `to_version`,
    /// and the game goes on from there.
    mod property {
        use hatstand_engine::{Randomness, Ruleset, seat};
        use rand::{Rng, SeedableRng};
        use rand_chacha::ChaCha8Rng;
        use serde_json::json;

        use super::*;
        use crate::record::chain::{Chain, GENESIS_HASH, now};
        use crate::record::codec::{split_tagged, to_json};
        use crate::record::replay::Replay;
        use crate::record::server_event::{GameCreated, PlayerJoined, Started};

        fn user(seat: usize) -> Uuid {
            Uuid::from_u128(100 + seat as u128)
        }

        fn push(
            chain: &mut Chain,
            replay: &mut Replay<impl Ruleset>,
            event: &ServerEvent,
            actor: Actor,
        ) {
            chain.push_server(event, actor).unwrap();
            replay.apply(chain.events.last().unwrap()).unwrap();
        }

        /// Plays `games` games of `R` with `players`; returns how many
        /// takebacks were made.
        fn play<R: Ruleset>(players: usize, games: u64, max_actions: usize) -> usize {
            let mut takebacks = 0;
            for game in 0..games {
                let mut chooser = ChaCha8Rng::seed_from_u64(game);
                let seed = format!("takeback-{game}");
                let randomness = Randomness::from_seed(&seed);
                let mut chain = Chain::after(0, GENESIS_HASH, now());
                let mut replay = Replay::<R>::default();
                let created = ServerEvent::GameCreated(GameCreated {
                    ruleset: R::ID.to_owned(),
                    players: u8::try_from(players).unwrap(),
                    options: serde_json::to_value(R::Options::default()).unwrap(),
                    seed_commitment: "00".into(),
                    seed: Some(seed.clone()),
                    created_by: user(0),
                    server_options: Some(json!({"takebacks": true, "rated": false})),
                    private: false,
                    rules: format!("{}@1", R::ID),
                });
                push(&mut chain, &mut replay, &created, Actor::SYSTEM);
                for s in 0..players {
                    let joined = ServerEvent::PlayerJoined(PlayerJoined {
                        seat: u8::try_from(s).unwrap(),
                        user_id: user(s),
                        username: format!("p{s}"),
                        salt: None,
                        salt_by_server: false,
                    });
                    push(&mut chain, &mut replay, &joined, Actor::SYSTEM);
                }
                push(
                    &mut chain,
                    &mut replay,
                    &ServerEvent::GameStarted(Started {}),
                    Actor::SYSTEM,
                );
                let opening = R::start(replay.state.as_ref().unwrap(), &randomness);
                for event in &opening {
                    let (kind, data) = split_tagged(to_json(event).unwrap()).unwrap();
                    chain.push(&kind, data, Actor::SYSTEM, None);
                    replay.apply(chain.events.last().unwrap()).unwrap();
                }
                // The state at each version, as the log had it.
                let mut at = std::collections::HashMap::new();
                at.insert(chain.version(), replay.state.clone().unwrap());
                for _ in 0..max_actions {
                    let state = replay.state.clone().unwrap();
                    let to_act = R::to_act(&state);
                    if to_act.is_empty() {
                        break;
                    }
                    let mover = to_act[chooser.random_range(0..to_act.len())];
                    let legal = R::legal_commands(&state, mover);
                    let command = &legal[chooser.random_range(0..legal.len())];
                    let events = R::decide(&state, mover, command, &randomness).unwrap();
                    let actor = Actor {
                        user: Some(user(mover.index())),
                        seat: Some(mover.0),
                    };
                    let command_json = to_json(command).unwrap();
                    for (i, event) in events.iter().enumerate() {
                        let (kind, data) = split_tagged(to_json(event).unwrap()).unwrap();
                        chain.push(&kind, data, actor, (i == 0).then(|| command_json.clone()));
                        replay.apply(chain.events.last().unwrap()).unwrap();
                    }
                    let revealed = events.iter().any(R::reveals);
                    let offerable = replay.takeback.offerable(mover.0, actor);
                    assert_eq!(
                        offerable.is_ok(),
                        !revealed,
                        "{}: a command is offerable exactly when it revealed nothing",
                        R::ID
                    );
                    if let Ok(to_version) = offerable
                        && R::result(replay.state.as_ref().unwrap()).is_none()
                        && chooser.random_bool(0.5)
                    {
                        let offer = ServerEvent::TurnTakebackOffered(Takeback {
                            seat: mover.0,
                            to_version,
                        });
                        push(&mut chain, &mut replay, &offer, actor);
                        for other in (0..players).filter(|&s| s != mover.index()) {
                            let answer = ServerEvent::TurnTakebackAccepted(SeatOnly {
                                seat: u8::try_from(other).unwrap(),
                            });
                            let by = Actor {
                                user: Some(user(other)),
                                seat: Some(seat(other).0),
                            };
                            push(&mut chain, &mut replay, &answer, by);
                        }
                        let back = ServerEvent::TurnTakenBack(Takeback {
                            seat: mover.0,
                            to_version,
                        });
                        push(&mut chain, &mut replay, &back, Actor::SYSTEM);
                        assert_eq!(
                            replay.state.as_ref(),
                            at.get(&to_version),
                            "{}: the state after a takeback is the state at {to_version}",
                            R::ID
                        );
                        takebacks += 1;
                    }
                    at.insert(chain.version(), replay.state.clone().unwrap());
                }
            }
            takebacks
        }

        #[test]
        fn in_top_hats_any_own_command_may_be_taken_back_and_the_state_goes_back() {
            assert!(play::<hatstand_engine::top_hats::TopHats>(2, 12, 300) > 100);
        }

        #[test]
        fn in_hats_face_down_moves_may_be_taken_back_and_the_state_goes_back() {
            assert!(play::<hatstand_engine::hats::Hats>(3, 12, 400) > 10);
        }

        #[test]
        fn in_goathead_bids_may_be_taken_back_and_the_state_goes_back() {
            assert!(play::<hatstand_engine::goathead::Goathead>(3, 12, 400) > 10);
        }

        #[test]
        fn in_hat_trick_every_command_shows_a_card_and_none_is_taken_back() {
            assert_eq!(play::<hatstand_engine::hat_trick::HatTrick>(3, 6, 200), 0);
        }
    }
}
