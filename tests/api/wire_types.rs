//! The OpenAPI document's wire types against the engines: every command an
//! engine lists as legal, in random games of every ruleset and player
//! count, is valid by the document's `Command` schema (and by its own
//! ruleset's), so a generated client's types fit what the server sends
//! and takes.

use boon::{Compiler, Schemas};
use hatstand_engine::goathead::Goathead;
use hatstand_engine::hat_trick::HatTrick;
use hatstand_engine::hats::Hats;
use hatstand_engine::top_hats::TopHats;
use hatstand_engine::{Randomness, Ruleset, apply_all};
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

/// Every legal command of every seat at every step of `games` random games
/// of `R` at each player count, as JSON.
fn legal_commands<R: Ruleset>(games: u64) -> Vec<Value> {
    let mut seen = Vec::new();
    for players in R::MIN_PLAYERS..=R::MAX_PLAYERS {
        for seed in 0..games {
            let mut chooser = ChaCha8Rng::seed_from_u64(seed);
            let randomness = Randomness::from_seed(&format!("wire-{seed}"));
            let mut state = R::new_game(players, R::Options::default()).unwrap();
            let opening = R::start(&state, &randomness);
            apply_all::<R>(&mut state, &opening);
            for _ in 0..2_000 {
                let to_act = R::to_act(&state);
                let Some(&seat) = to_act.get(chooser.random_range(0..to_act.len().max(1))) else {
                    break;
                };
                let legal = R::legal_commands(&state, seat);
                seen.extend(legal.iter().map(|c| serde_json::to_value(c).unwrap()));
                let command = &legal[chooser.random_range(0..legal.len())];
                let events = R::decide(&state, seat, command, &randomness).unwrap();
                apply_all::<R>(&mut state, &events);
            }
        }
    }
    seen
}

fn all_valid<R: Ruleset>(own_schema: &str) {
    let (schemas, indexes) = compiled(&["Command", own_schema]);
    let commands = legal_commands::<R>(3);
    assert!(!commands.is_empty());
    let mut types = std::collections::BTreeSet::new();
    for command in &commands {
        for index in &indexes {
            if let Err(e) = schemas.validate(command, *index) {
                panic!(
                    "{} command {command} is not valid by the document: {e}",
                    R::ID
                );
            }
        }
        types.insert(command["type"].as_str().unwrap().to_owned());
    }
    println!("{}: {} commands of types {types:?}", R::ID, commands.len());
    let document = serde_json::to_value(hatstand::openapi::document()).unwrap();
    let declared: std::collections::BTreeSet<String> = document["components"]["schemas"]
        [own_schema]["discriminator"]["mapping"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(types, declared, "every declared command type is played");
}

#[test]
fn every_legal_hats_command_is_valid_by_the_document() {
    all_valid::<Hats>("HatsCommand");
}

#[test]
fn every_legal_goathead_command_is_valid_by_the_document() {
    all_valid::<Goathead>("GoatheadCommand");
}

#[test]
fn every_legal_hat_trick_command_is_valid_by_the_document() {
    all_valid::<HatTrick>("HatTrickCommand");
}

#[test]
fn every_legal_top_hats_command_is_valid_by_the_document() {
    all_valid::<TopHats>("TopHatsCommand");
}

#[test]
fn a_command_with_a_card_the_ruleset_does_not_have_is_not_valid() {
    let (schemas, indexes) = compiled(&["HatsCommand"]);
    let bad = serde_json::json!({"type": "black_hat", "card": "Z9"});
    assert!(schemas.validate(&bad, indexes[0]).is_err());
    let good = serde_json::json!({"type": "black_hat", "card": "H5"});
    assert!(schemas.validate(&good, indexes[0]).is_ok());
}
