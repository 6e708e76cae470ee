//! Given/when/then: each clock kind with a controlled clock (instants
//! written out), the weekend pause, and the daylight-saving cases.

use super::*;

fn t(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .with_timezone(&Utc)
}

fn rules(option: serde_json::Value, weekends: Option<Weekends>) -> Rules {
    let option: ClockOption = serde_json::from_value(option).unwrap();
    Rules::read(&option, weekends).unwrap()
}

fn bank() -> Rules {
    rules(
        serde_json::json!({"kind": "bank", "initial": "P3D", "increment": "PT12H", "max": "P7D"}),
        None,
    )
}

fn utc(n: usize) -> Vec<String> {
    vec!["UTC".to_owned(); n]
}

const HOUR: i64 = 3_600_000;

#[test]
fn given_a_bank_when_the_seat_is_to_act_then_its_bank_runs_and_the_deadline_is_when_it_is_spent() {
    let rules = bank();
    let start = t("2026-06-01T10:00:00Z");
    let clocks = Clocks::start(&rules, &utc(2), &[0], start);
    assert_eq!(clocks.deadline(&rules, 0), Some(t("2026-06-04T10:00:00Z")));
    assert_eq!(
        clocks.deadline(&rules, 1),
        None,
        "a seat not to act has no deadline"
    );
    assert_eq!(
        clocks.remaining(&rules, 0, t("2026-06-02T10:00:00Z")),
        Some(TimeDelta::days(2))
    );
    assert_eq!(
        clocks.remaining(&rules, 1, t("2026-06-02T10:00:00Z")),
        Some(TimeDelta::days(3)),
        "the other seat's bank does not run"
    );
    assert_eq!(
        clocks.next_deadline(&rules),
        Some(t("2026-06-04T10:00:00Z"))
    );
    assert!(clocks.due(&rules, t("2026-06-04T09:59:59Z")).is_empty());
    assert_eq!(clocks.due(&rules, t("2026-06-04T10:00:00Z")), vec![0]);
}

#[test]
fn given_a_bank_when_the_seat_moves_then_it_is_charged_and_gains_the_increment() {
    let rules = bank();
    let mut clocks = Clocks::start(&rules, &utc(2), &[0], t("2026-06-01T10:00:00Z"));
    let change = clocks.moved(&rules, 0, t("2026-06-02T10:00:00Z"));
    clocks.to_act(&rules, &[1], t("2026-06-02T10:00:00Z"));
    // 3 days - 1 day + 12 hours.
    assert_eq!(
        change,
        Some(BankChange {
            seat: 0,
            bank_ms: 60 * HOUR
        })
    );
    assert_eq!(clocks.seats[0].since, None);
    assert_eq!(clocks.deadline(&rules, 1), Some(t("2026-06-05T10:00:00Z")));
}

#[test]
fn given_a_full_bank_when_the_seat_moves_at_once_then_the_bank_stays_at_its_maximum() {
    let rules = rules(
        serde_json::json!({"kind": "bank", "initial": "P7D", "increment": "PT12H", "max": "P7D"}),
        None,
    );
    let mut clocks = Clocks::start(&rules, &utc(2), &[0], t("2026-06-01T10:00:00Z"));
    let change = clocks.moved(&rules, 0, t("2026-06-01T11:00:00Z")).unwrap();
    assert_eq!(change.bank_ms, 7 * 24 * HOUR, "never beyond max");
}

#[test]
fn given_a_bank_that_ran_out_when_the_server_plays_the_turn_then_the_bank_is_the_increment_alone() {
    let rules = bank();
    let mut clocks = Clocks::start(&rules, &utc(2), &[0], t("2026-06-01T10:00:00Z"));
    let late = t("2026-06-05T10:00:00Z");
    assert_eq!(clocks.due(&rules, late), vec![0]);
    let change = clocks.moved(&rules, 0, late).unwrap();
    assert_eq!(
        change.bank_ms,
        12 * HOUR,
        "a spent bank is 0, never negative"
    );
}

#[test]
fn given_vacation_when_the_bank_runs_then_the_vacation_is_free_time() {
    let rules = bank();
    let mut clocks = Clocks::start(&rules, &utc(2), &[0], t("2026-06-01T10:00:00Z"));
    clocks.vacation(0, TimeDelta::days(2));
    assert_eq!(clocks.deadline(&rules, 0), Some(t("2026-06-06T10:00:00Z")));
    let change = clocks.moved(&rules, 0, t("2026-06-02T10:00:00Z")).unwrap();
    assert_eq!(change.bank_ms, 84 * HOUR, "three days and the increment");
}

#[test]
fn given_a_simultaneous_phase_when_one_seat_moves_then_the_others_keep_running() {
    let rules = bank();
    let start = t("2026-06-01T10:00:00Z");
    let mut clocks = Clocks::start(&rules, &utc(3), &[0, 1, 2], start);
    let later = t("2026-06-01T16:00:00Z");
    clocks.moved(&rules, 1, later);
    clocks.to_act(&rules, &[0, 2], later);
    assert_eq!(clocks.seats[0].since, Some(start));
    assert_eq!(clocks.deadline(&rules, 2), Some(t("2026-06-04T10:00:00Z")));
    assert_eq!(
        clocks.remaining(&rules, 1, later),
        Some(TimeDelta::hours(78))
    );
}

#[test]
fn given_per_turn_when_another_seat_moves_then_a_running_turn_goes_on() {
    let rules = rules(
        serde_json::json!({"kind": "per_turn", "turn": "PT24H"}),
        None,
    );
    let mut clocks = Clocks::start(&rules, &utc(3), &[0, 1], t("2026-06-01T10:00:00Z"));
    clocks.moved(&rules, 1, t("2026-06-01T12:00:00Z"));
    clocks.to_act(&rules, &[0, 2], t("2026-06-01T12:00:00Z"));
    assert_eq!(clocks.deadline(&rules, 0), Some(t("2026-06-02T10:00:00Z")));
    assert_eq!(clocks.deadline(&rules, 2), Some(t("2026-06-02T12:00:00Z")));
    assert_eq!(
        clocks.next_deadline(&rules),
        Some(t("2026-06-02T10:00:00Z"))
    );
}

#[test]
fn given_a_weekend_pause_when_a_turn_spans_a_weekend_then_the_weekend_does_not_count() {
    let rules = rules(
        serde_json::json!({"kind": "per_turn", "turn": "PT24H"}),
        Some(Weekends::EachSeat),
    );
    // Friday 2026-06-05 18:00 UTC.
    let clocks = Clocks::start(&rules, &utc(2), &[0], t("2026-06-05T18:00:00Z"));
    assert_eq!(clocks.deadline(&rules, 0), Some(t("2026-06-08T18:00:00Z")));
    assert_eq!(
        clocks.remaining(&rules, 0, t("2026-06-07T12:00:00Z")),
        Some(TimeDelta::hours(18)),
        "on Sunday the clock stands still"
    );
    assert_eq!(
        clocks.next_change(&rules, 0, t("2026-06-05T18:00:00Z")),
        Some(t("2026-06-06T00:00:00Z"))
    );
    assert_eq!(
        clocks.next_change(&rules, 0, t("2026-06-06T10:00:00Z")),
        Some(t("2026-06-08T00:00:00Z"))
    );
}

#[test]
fn given_a_weekend_pause_when_seats_live_in_different_zones_then_each_has_its_own_weekend() {
    let rules = rules(
        serde_json::json!({"kind": "per_turn", "turn": "PT1H"}),
        Some(Weekends::EachSeat),
    );
    let zones = vec!["Asia/Tokyo".to_owned(), "America/New_York".to_owned()];
    // Friday 2026-06-05 16:00 UTC: Saturday 01:00 in Tokyo, Friday noon in New York.
    let clocks = Clocks::start(&rules, &zones, &[0, 1], t("2026-06-05T16:00:00Z"));
    // Tokyo's Monday begins Sunday 15:00 UTC.
    assert_eq!(clocks.deadline(&rules, 0), Some(t("2026-06-07T16:00:00Z")));
    assert_eq!(clocks.deadline(&rules, 1), Some(t("2026-06-05T17:00:00Z")));
    // By the game's zone instead, both pause alike.
    let game = Rules {
        weekends: Some(Weekends::Zone(zone("America/New_York").unwrap())),
        ..rules
    };
    assert_eq!(clocks.deadline(&game, 0), Some(t("2026-06-05T17:00:00Z")));
}

#[test]
fn given_a_weekend_pause_in_paris_when_the_clocks_go_forward_that_sunday_then_the_weekend_is_47_hours()
 {
    let rules = rules(
        serde_json::json!({"kind": "bank", "initial": "P1D", "increment": "PT0S", "max": "P1D"}),
        Some(Weekends::EachSeat),
    );
    let zones = vec!["Europe/Paris".to_owned(); 2];
    // Friday 2026-03-27 20:00 CET; the clocks go forward on Sunday the 29th.
    let clocks = Clocks::start(&rules, &zones, &[0], t("2026-03-27T19:00:00Z"));
    // 4 hours on Friday, 20 on Monday (CEST): Monday 20:00 CEST.
    assert_eq!(clocks.deadline(&rules, 0), Some(t("2026-03-30T18:00:00Z")));
    assert_eq!(
        running(
            t("2026-03-27T19:00:00Z"),
            t("2026-03-30T18:00:00Z"),
            Some(zone("Europe/Paris").unwrap())
        ),
        TimeDelta::days(1)
    );
}

fn daily(at: &str, zone: &str, min: &str) -> Rules {
    rules(
        serde_json::json!({"kind": "daily", "at": at, "time_zone": zone, "min": min}),
        None,
    )
}

fn daily_deadline(rules: &Rules, began: &str) -> DateTime<Utc> {
    Clocks::start(rules, &utc(1), &[0], t(began))
        .deadline(rules, 0)
        .unwrap()
}

#[test]
fn given_a_daily_deadline_when_a_turn_begins_then_it_ends_at_the_next_hour_at_least_the_minimum_later()
 {
    let rules = daily("20:00", "Europe/Paris", "PT12H");
    // Monday 2026-06-01 09:00 CEST: 20:00 the same day is 11 hours away: the next day.
    assert_eq!(
        daily_deadline(&rules, "2026-06-01T07:00:00Z"),
        t("2026-06-02T18:00:00Z")
    );
    // 07:00 CEST: 13 hours away: the same day.
    assert_eq!(
        daily_deadline(&rules, "2026-06-01T05:00:00Z"),
        t("2026-06-01T18:00:00Z")
    );
    // Exactly the minimum is enough.
    assert_eq!(
        daily_deadline(&rules, "2026-06-01T06:00:00Z"),
        t("2026-06-01T18:00:00Z")
    );
}

#[test]
fn given_a_daily_deadline_in_paris_when_the_clocks_go_forward_on_the_last_sunday_of_march_then_it_is_20_00_cest()
 {
    let rules = daily("20:00", "Europe/Paris", "PT12H");
    // Saturday 2026-03-28 21:00 CET (20:00 UTC); Sunday's 20:00 is CEST, 18:00 UTC.
    assert_eq!(
        daily_deadline(&rules, "2026-03-28T20:00:00Z"),
        t("2026-03-29T18:00:00Z")
    );
    // The day before, 20:00 is still CET (19:00 UTC).
    assert_eq!(
        daily_deadline(&rules, "2026-03-27T20:00:00Z"),
        t("2026-03-28T19:00:00Z")
    );
    // An hour that does not exist that night (02:30) is read with the
    // offset before the gap: 03:30 CEST.
    let gap = daily("02:30", "Europe/Paris", "PT1H");
    assert_eq!(
        daily_deadline(&gap, "2026-03-28T22:00:00Z"),
        t("2026-03-29T01:30:00Z")
    );
}

#[test]
fn given_a_daily_deadline_in_paris_when_the_clocks_go_back_on_the_last_sunday_of_october_then_it_is_20_00_cet()
 {
    let rules = daily("20:00", "Europe/Paris", "PT12H");
    // Saturday 2026-10-24 21:00 CEST (19:00 UTC); Sunday's 20:00 is CET, 19:00 UTC.
    assert_eq!(
        daily_deadline(&rules, "2026-10-24T19:00:00Z"),
        t("2026-10-25T19:00:00Z")
    );
    // 02:30 happens twice that night: the first one counts (CEST, 00:30 UTC).
    let twice = daily("02:30", "Europe/Paris", "PT1H");
    assert_eq!(
        daily_deadline(&twice, "2026-10-24T22:00:00Z"),
        t("2026-10-25T00:30:00Z")
    );
}

#[test]
fn given_a_daily_deadline_in_new_york_when_the_clocks_go_forward_then_it_keeps_the_local_hour() {
    let rules = daily("20:00", "America/New_York", "PT12H");
    // Saturday 2026-03-07 21:00 EST (Sunday 02:00 UTC); clocks go forward on
    // Sunday the 8th: 20:00 EDT is 00:00 UTC on the 9th.
    assert_eq!(
        daily_deadline(&rules, "2026-03-08T02:00:00Z"),
        t("2026-03-09T00:00:00Z")
    );
    // And back on 2026-11-01: 20:00 EST is 01:00 UTC.
    assert_eq!(
        daily_deadline(&rules, "2026-11-01T01:00:00Z"),
        t("2026-11-02T01:00:00Z")
    );
}

#[test]
fn given_a_daily_deadline_with_the_weekend_pause_when_a_turn_begins_on_friday_then_it_ends_on_monday()
 {
    let rules = rules(
        serde_json::json!({"kind": "daily", "at": "20:00", "time_zone": "Europe/Paris", "min": "PT12H"}),
        Some(Weekends::EachSeat),
    );
    // Friday 2026-06-05 10:00 CEST: 10 hours left on Friday, 2 more on Monday; Monday 20:00.
    assert_eq!(
        daily_deadline(&rules, "2026-06-05T08:00:00Z"),
        t("2026-06-08T18:00:00Z")
    );
}

#[test]
fn bad_clock_options_are_told_apart() {
    let read = |v: serde_json::Value| {
        let option: ClockOption = serde_json::from_value(v).unwrap();
        Rules::read(&option, None)
    };
    for bad in [
        serde_json::json!({"kind": "bank", "initial": "3 days", "increment": "PT1H", "max": "P7D"}),
        serde_json::json!({"kind": "bank", "initial": "P8D", "increment": "PT1H", "max": "P7D"}),
        serde_json::json!({"kind": "bank", "initial": "PT0S", "increment": "PT1H", "max": "P7D"}),
        serde_json::json!({"kind": "per_turn", "turn": "P400D"}),
        serde_json::json!({"kind": "daily", "at": "20:00", "time_zone": "UTC", "min": "P8D"}),
    ] {
        assert!(
            matches!(read(bad.clone()), Err(BadClock::Duration(_))),
            "{bad}"
        );
    }
    assert_eq!(
        read(serde_json::json!({"kind": "daily", "at": "20:00", "time_zone": "Mars/Olympus"})),
        Err(BadClock::Zone("Mars/Olympus".to_owned()))
    );
    for at in ["8pm", "24:00", "20:0", "20:00:00"] {
        assert!(
            matches!(
                read(serde_json::json!({"kind": "daily", "at": at, "time_zone": "UTC"})),
                Err(BadClock::Other(_))
            ),
            "{at}"
        );
    }
}

/// Markers of a pause and a resume among the inputs below.
const PAUSE: u8 = 100;
const RESUME: u8 = 101;

/// A replay of the same inputs at the same instants finds the same clocks:
/// the clocks are a fold over what happened, nothing else (random games of
/// moves, phases, vacations and table pauses, for every kind). A pause
/// or a resume leaves a bank's or a per-turn clock's time left as it was,
/// and no deadline stands while paused.
#[test]
fn given_random_histories_when_the_clocks_are_replayed_from_their_inputs_then_they_are_the_live_ones()
 {
    use rand::{Rng, SeedableRng};
    let kinds = [
        bank(),
        rules(
            serde_json::json!({"kind": "per_turn", "turn": "PT36H"}),
            Some(Weekends::EachSeat),
        ),
        rules(
            serde_json::json!({"kind": "daily", "at": "20:00", "time_zone": "Europe/Paris"}),
            Some(Weekends::EachSeat),
        ),
    ];
    let zones = vec![
        "Europe/Paris".to_owned(),
        "America/New_York".to_owned(),
        "Asia/Tokyo".to_owned(),
    ];
    for seed in 0..200_u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let rules = kinds[usize::try_from(seed % 3).unwrap()];
        let mut at = t("2026-03-20T10:00:00Z");
        let mut live = Clocks::start(&rules, &zones, &[0], at);
        let mut inputs = Vec::new();
        let mut to_act = vec![0_u8];
        for _ in 0..60 {
            at += TimeDelta::milliseconds(rng.random_range(0..3 * 86_400_000));
            let seat = to_act[rng.random_range(0..to_act.len())];
            if rng.random_bool(0.1) {
                let extra = TimeDelta::seconds(rng.random_range(1..86_400));
                live.vacation(seat, extra);
                inputs.push((at, None, Some((seat, extra)), Vec::new()));
                continue;
            }
            if rng.random_bool(0.1) {
                // The table pauses or resumes (`record::pause`).
                let frozen = live.remaining(&rules, seat, at);
                if live.paused.is_some() {
                    live.resume(&rules, at);
                    inputs.push((at, None, None, vec![RESUME]));
                } else {
                    live.pause(at);
                    assert_eq!(
                        live.next_deadline(&rules),
                        None,
                        "seed {seed}: a deadline while paused"
                    );
                    assert!(live.due(&rules, at + TimeDelta::days(400)).is_empty());
                    inputs.push((at, None, None, vec![PAUSE]));
                }
                if !matches!(rules.kind, Kind::Daily { .. }) {
                    assert_eq!(
                        live.remaining(&rules, seat, at),
                        frozen,
                        "seed {seed}: pausing or resuming changed the time left"
                    );
                }
                continue;
            }
            to_act = if rng.random_bool(0.3) {
                vec![0, 1, 2]
            } else {
                vec![(seat + 1) % 3]
            };
            let change = live.moved(&rules, seat, at);
            live.to_act(&rules, &to_act, at);
            if let (Some(change), Some(bank)) = (change, live.seats[usize::from(seat)].bank_ms) {
                assert_eq!(change.bank_ms, bank);
                assert!(change.bank_ms >= 0 && change.bank_ms <= 7 * 24 * HOUR);
            }
            inputs.push((at, Some(seat), None, to_act.clone()));
        }
        let mut replayed = Clocks::start(&rules, &zones, &[0], t("2026-03-20T10:00:00Z"));
        for (at, moved, vacation, to_act) in inputs {
            if moved.is_none() && to_act == [PAUSE] {
                replayed.pause(at);
            } else if moved.is_none() && to_act == [RESUME] {
                replayed.resume(&rules, at);
            }
            if let Some((seat, extra)) = vacation {
                replayed.vacation(seat, extra);
            }
            if let Some(seat) = moved {
                replayed.moved(&rules, seat, at);
                replayed.to_act(&rules, &to_act, at);
            }
        }
        assert_eq!(replayed, live, "seed {seed}");
        assert_eq!(replayed.next_deadline(&rules), live.next_deadline(&rules));
        for (seat, clock) in live.seats.iter().enumerate() {
            let seat = u8::try_from(seat).unwrap();
            if let (Some(since), Some(deadline)) = (clock.since, live.deadline(&rules, seat)) {
                assert!(
                    deadline >= since,
                    "seed {seed}: a deadline before its turn began"
                );
            }
        }
    }
}

#[test]
fn given_a_paused_table_when_time_passes_then_no_bank_runs_and_the_resume_gives_it_back() {
    let rules = bank();
    let start = t("2026-06-01T10:00:00Z");
    let mut clocks = Clocks::start(&rules, &utc(2), &[0], start);
    // One day runs, then the table pauses for five days.
    clocks.pause(t("2026-06-02T10:00:00Z"));
    assert_eq!(clocks.deadline(&rules, 0), None, "no deadline while paused");
    assert!(clocks.due(&rules, t("2026-06-30T00:00:00Z")).is_empty());
    assert_eq!(
        clocks.remaining(&rules, 0, t("2026-06-05T10:00:00Z")),
        Some(TimeDelta::days(2)),
        "the time left stands still"
    );
    clocks.resume(&rules, t("2026-06-07T10:00:00Z"));
    assert_eq!(
        clocks.deadline(&rules, 0),
        Some(t("2026-06-09T10:00:00Z")),
        "two days left after the resume"
    );
    // Moving a day later is charged the two days that ran, not the pause.
    let change = clocks.moved(&rules, 0, t("2026-06-08T10:00:00Z")).unwrap();
    assert_eq!(change.bank_ms, (24 + 12) * HOUR);
}

#[test]
fn given_a_paused_table_when_a_seat_moves_then_the_pause_is_not_charged_and_the_next_turn_waits() {
    let rules = bank();
    let mut clocks = Clocks::start(&rules, &utc(2), &[0], t("2026-06-01T10:00:00Z"));
    clocks.pause(t("2026-06-01T22:00:00Z"));
    let change = clocks.moved(&rules, 0, t("2026-06-03T10:00:00Z")).unwrap();
    assert_eq!(
        change.bank_ms,
        (60 + 12) * HOUR,
        "charged the 12 hours before the pause"
    );
    clocks.to_act(&rules, &[1], t("2026-06-03T10:00:00Z"));
    assert_eq!(clocks.deadline(&rules, 1), None);
    clocks.resume(&rules, t("2026-06-05T10:00:00Z"));
    assert_eq!(
        clocks.deadline(&rules, 1),
        Some(t("2026-06-08T10:00:00Z")),
        "the turn begun during the pause starts to run at the resume"
    );
}

#[test]
fn given_a_daily_deadline_when_the_table_pauses_then_the_deadline_moves_back_by_the_pause() {
    let rules = daily("20:00", "UTC", "PT12H");
    let mut clocks = Clocks::start(&rules, &utc(2), &[0], t("2026-06-01T06:00:00Z"));
    assert_eq!(clocks.deadline(&rules, 0), Some(t("2026-06-01T20:00:00Z")));
    clocks.pause(t("2026-06-01T10:00:00Z"));
    clocks.resume(&rules, t("2026-06-02T13:00:00Z"));
    assert_eq!(clocks.deadline(&rules, 0), Some(t("2026-06-02T23:00:00Z")));
}
