//! The OpenAPI document's wire types against the engines: in random games
//! of every ruleset and player count, every command an engine lists as
//! legal, every view of every viewer at every step, every event as every
//! viewer sees it, every event and final state as the audit shows them and
//! every result is valid by the document (`Command`, `View`, `EventOut`,
//! `GameResult`, and the ruleset's own schemas: `HatsAuditEvent`,
//! `HatsState`, ...), so a generated client's types fit what the server
//! sends and takes.

use boon::{Compiler, Schemas};
use hatstand_engine::goathead::Goathead;
use hatstand_engine::hat_trick::HatTrick;
use hatstand_engine::hats::Hats;
use hatstand_engine::top_hats::TopHats;
use hatstand_engine::{Randomness, Ruleset, Viewer, apply_all};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

const DOCUMENT: &str = "https://hatstand.invalid/openapi.json";

/// The document's schemas `names`, compiled.
fn compiled(names: &[&str]) -> (Schemas, Vec<boon::SchemaIndex>) {
    let document = serde_json::to_value(hatstand::openapi::document()).unwrap();
    let mut compiler = Compiler::new();
    compiler.add_resource(DOCUMENT, document).unwrap();
    let mut schemas = Schemas::new();
    let indexes = names
        .iter()
        .map(|name| {
            compiler
                .compile(
                    &format!("{DOCUMENT}#/components/schemas/{name}"),
                    &mut schemas,
                )
                .unwrap_or_else(|e| panic!("{name}: {e}"))
        })
        .collect();
    (schemas, indexes)
}

/// What random games of `R` show a client, as JSON: every legal command of
/// every seat at every step, and the view of every seat, of a spectator and
/// of the audit at every step.
struct Shown {
    commands: Vec<Value>,
    views: Vec<Value>,
    events: Vec<Value>,
    /// Every event unredacted, as the audit shows it.
    audited: Vec<Value>,
    /// The state at the end of every game.
    states: Vec<Value>,
    results: Vec<Value>,
}

/// `event` as the audit shows it, caused by `command` (its first event).
fn audited(event: Value, command: Option<Value>) -> Value {
    let mut audited = event;
    audited["seq"] = 1.into();
    audited["at"] = "2026-11-25T10:00:00.000000Z".into();
    audited["prev_hash"] = "00".into();
    audited["hash"] = "01".into();
    audited["schema_version"] = 2.into();
    audited["actor"] = serde_json::json!({"user_id": null, "seat": 0});
    audited["command"] = command.unwrap_or(Value::Null);
    audited
}

fn shown<R: Ruleset>(games: u64) -> Shown {
    let mut shown = Shown {
        commands: Vec::new(),
        views: Vec::new(),
        events: Vec::new(),
        audited: Vec::new(),
        states: Vec::new(),
        results: Vec::new(),
    };
    for players in R::MIN_PLAYERS..=R::MAX_PLAYERS {
        for seed in 0..games {
            let mut chooser = ChaCha8Rng::seed_from_u64(seed);
            let randomness = Randomness::from_seed(&format!("wire-{seed}"));
            let mut state = R::new_game(players, R::Options::default()).unwrap();
            let viewers: Vec<Viewer> = (0..players)
                .map(|s| Viewer::Seat(hatstand_engine::seat(s)))
                .chain([Viewer::Spectator, Viewer::Auditor])
                .collect();
            let redacted = |events: &[R::Event]| -> Vec<Value> {
                events
                    .iter()
                    .flat_map(|e| viewers.iter().map(move |v| (e, *v)))
                    .map(|(e, v)| {
                        // As the events feed sends it: with its `seq`, `kind` and `at`.
                        let mut out = serde_json::to_value(R::redact(e, v)).unwrap();
                        let kind = out["type"].as_str().unwrap().to_owned();
                        out["kind"] = hatstand::games::events::qualified(R::ID, &kind).into();
                        out["seq"] = 1.into();
                        out["at"] = "2026-11-25T10:00:00.000000Z".into();
                        out
                    })
                    .collect()
            };
            let opening = R::start(&state, &randomness);
            shown.events.extend(redacted(&opening));
            shown.audited.extend(
                opening
                    .iter()
                    .map(|e| audited(serde_json::to_value(e).unwrap(), None)),
            );
            apply_all::<R>(&mut state, &opening);
            for _ in 0..2_000 {
                shown.views.extend(
                    viewers
                        .iter()
                        .map(|v| serde_json::to_value(R::view(&state, *v)).unwrap()),
                );
                let to_act = R::to_act(&state);
                let Some(&seat) = to_act.get(chooser.random_range(0..to_act.len().max(1))) else {
                    let result = R::result(&state).expect("a game over has a result");
                    shown.results.push(serde_json::to_value(result).unwrap());
                    shown.states.push(serde_json::to_value(&state).unwrap());
                    break;
                };
                let legal = R::legal_commands(&state, seat);
                shown
                    .commands
                    .extend(legal.iter().map(|c| serde_json::to_value(c).unwrap()));
                let command = &legal[chooser.random_range(0..legal.len())];
                let events = R::decide(&state, seat, command, &randomness).unwrap();
                shown.events.extend(redacted(&events));
                let caused = serde_json::to_value(command).unwrap();
                shown
                    .audited
                    .extend(events.iter().enumerate().map(|(i, e)| {
                        audited(
                            serde_json::to_value(e).unwrap(),
                            (i == 0).then(|| caused.clone()),
                        )
                    }));
                if shown.states.len() < 3 {
                    // A state in play, too (once the first games are over).
                    shown.states.push(serde_json::to_value(&state).unwrap());
                }
                apply_all::<R>(&mut state, &events);
            }
        }
    }
    shown
}

/// Validates each of `values` against the document's schemas `names`.
fn validate(ruleset: &str, what: &str, values: &[Value], names: &[&str]) {
    let (schemas, indexes) = compiled(names);
    assert!(!values.is_empty());
    for value in values {
        for (index, name) in indexes.iter().zip(names) {
            if let Err(e) = schemas.validate(value, *index) {
                panic!("{ruleset} {what} {value} is not a valid {name}: {e}");
            }
        }
    }
}

fn all_valid<R: Ruleset>(prefix: &str) {
    let shown = shown::<R>(3);
    let own_command = format!("{prefix}Command");
    validate(
        R::ID,
        "command",
        &shown.commands,
        &["Command", &own_command],
    );
    let own_view = format!("{prefix}View");
    validate(R::ID, "view", &shown.views, &["View", &own_view]);
    let own_event = format!("{prefix}EventView");
    validate(R::ID, "event", &shown.events, &["EventOut", &own_event]);
    let own_audit_event = format!("{prefix}AuditEvent");
    validate(
        R::ID,
        "audited event",
        &shown.audited,
        &["AuditEvent", &own_audit_event],
    );
    let own_state = format!("{prefix}State");
    validate(R::ID, "state", &shown.states, &[&own_state]);
    let defaults = serde_json::to_value(R::Options::default()).unwrap();
    let own_options = format!("{prefix}GameOptions");
    validate(
        R::ID,
        "options",
        std::slice::from_ref(&defaults),
        &["GameOptions", &own_options],
    );
    // As a game shows them (explicit deals counted) and as `game_created`
    // records them (the audit: the deals; the feed: their count).
    let public = hatstand::games::public::public_options(&defaults, Some("seed"));
    let own_shown = format!("{prefix}GameOptionsOut");
    validate(
        R::ID,
        "shown options",
        std::slice::from_ref(&public),
        &[&own_shown],
    );
    let own_created = format!("{prefix}CreatedOptions");
    let fed = hatstand::games::public::public_options(&defaults, None);
    validate(R::ID, "created options", &[defaults, fed], &[&own_created]);
    let own_result = format!("{prefix}Result");
    validate(
        R::ID,
        "result",
        &shown.results,
        &["GameResult", &own_result],
    );
    let types: std::collections::BTreeSet<String> = shown
        .commands
        .iter()
        .map(|command| command["type"].as_str().unwrap().to_owned())
        .collect();
    let document = serde_json::to_value(hatstand::openapi::document()).unwrap();
    let declared: std::collections::BTreeSet<String> = document["components"]["schemas"]
        [&own_command]["discriminator"]["mapping"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(types, declared, "every declared command type is played");
}

#[test]
fn every_hats_command_view_event_and_result_is_valid_by_the_document() {
    all_valid::<Hats>("Hats");
}

#[test]
fn every_goathead_command_view_event_and_result_is_valid_by_the_document() {
    all_valid::<Goathead>("Goathead");
}

#[test]
fn every_hat_trick_command_view_event_and_result_is_valid_by_the_document() {
    all_valid::<HatTrick>("HatTrick");
}

#[test]
fn every_top_hats_command_view_event_and_result_is_valid_by_the_document() {
    all_valid::<TopHats>("TopHats");
}

#[test]
fn a_command_with_a_card_the_ruleset_does_not_have_is_not_valid() {
    let (schemas, indexes) = compiled(&["HatsCommand"]);
    let bad = serde_json::json!({"type": "black_hat", "card": "Z9"});
    assert!(schemas.validate(&bad, indexes[0]).is_err());
    let good = serde_json::json!({"type": "black_hat", "card": "H5"});
    assert!(schemas.validate(&good, indexes[0]).is_ok());
}

#[test]
fn every_example_in_the_document_is_valid_by_its_schema() {
    let document = serde_json::to_value(hatstand::openapi::document()).unwrap();
    let schemas = document["components"]["schemas"].as_object().unwrap();
    let with_examples: Vec<&str> = schemas
        .iter()
        .filter(|(_, schema)| schema.get("examples").is_some())
        .map(|(name, _)| name.as_str())
        .collect();
    assert!(with_examples.len() > 60, "{with_examples:?}");
    let (compiled, indexes) = compiled(&with_examples);
    for (name, index) in with_examples.iter().zip(indexes) {
        for example in schemas[*name]["examples"].as_array().unwrap() {
            if let Err(e) = compiled.validate(example, index) {
                panic!("the example of {name}, {example}, is not valid: {e}");
            }
        }
    }
}
