//! Examples of the engines' wire types for the OpenAPI document: real
//! values, from seeded random games of the engines themselves, keyed by the
//! schema that names them (see `wire_types` and `openapi::wire`).

use std::collections::BTreeMap;
use std::sync::LazyLock;

use hatstand_engine::goathead::Goathead;
use hatstand_engine::hat_trick::HatTrick;
use hatstand_engine::hats::Hats;
use hatstand_engine::top_hats::TopHats;
use hatstand_engine::{Randomness, Ruleset, Viewer, apply_all, seat};
use serde::Serialize;
use serde_json::Value;

/// Real values of the engines' wire types, keyed by the schema that names
/// them, for the document's examples: from seeded random games of each
/// ruleset at every table size, the first legal command of each type, the
/// first event of each type as seat 0 sees it (with a `seq`, `kind` and `at`),
/// seat 0's view a few turns in, a result and the default options. Being
/// the engines' own output, they cannot drift from the schemas. Computed
/// once.
#[must_use]
pub fn examples() -> &'static BTreeMap<String, Value> {
    static EXAMPLES: LazyLock<BTreeMap<String, Value>> = LazyLock::new(|| {
        let mut examples = BTreeMap::new();
        examples_of::<Hats>("Hats", &mut examples);
        examples_of::<Goathead>("Goathead", &mut examples);
        examples_of::<HatTrick>("HatTrick", &mut examples);
        examples_of::<TopHats>("TopHats", &mut examples);
        examples
    });
    &EXAMPLES
}

/// `snake_case` as `CamelCase` (`discard_draw`: `DiscardDraw`), as the
/// document names a union's variants.
#[must_use]
pub fn camel(snake: &str) -> String {
    snake
        .split('_')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_uppercase().chain(chars).collect()
            })
        })
        .collect()
}

fn examples_of<R: Ruleset>(prefix: &str, examples: &mut BTreeMap<String, Value>) {
    let seat0 = Viewer::Seat(seat(0));
    for players in R::MIN_PLAYERS..=R::MAX_PLAYERS {
        for game in 0..3_u64 {
            let randomness = Randomness::from_seed(&format!("openapi-examples-{game}"));
            let Ok(mut state) = R::new_game(players, R::Options::default()) else {
                continue;
            };
            let mut events = R::start(&state, &randomness);
            let mut seq = 0_usize;
            for turn in 0..5_000_usize {
                for event in &events {
                    seq += 1;
                    let mut shown = json(&R::redact(event, seat0));
                    let kind = shown["type"].as_str().unwrap_or_default().to_owned();
                    shown["seq"] = seq.into();
                    shown["kind"] = super::events::qualified(R::ID, &kind).into();
                    shown["at"] = "2026-11-25T10:00:00.000000Z".into();
                    let name = format!("{prefix}EventView{}", camel(&kind));
                    examples.entry(name).or_insert(shown);
                }
                apply_all::<R>(&mut state, &events);
                if turn == 6 {
                    examples
                        .entry(format!("{prefix}View"))
                        .or_insert_with(|| json(&R::view(&state, seat0)));
                }
                let to_act = R::to_act(&state);
                let Some(&actor) = to_act.get(turn % to_act.len().max(1)) else {
                    break;
                };
                let legal = R::legal_commands(&state, actor);
                for command in &legal {
                    let command = json(command);
                    let kind = command["type"].as_str().unwrap_or_default().to_owned();
                    examples
                        .entry(format!("{prefix}Command{}", camel(&kind)))
                        .or_insert(command);
                }
                // A different choice each turn and game, the same every run.
                let pick = (turn * 7 + usize::try_from(game).unwrap_or(0) * 3) % legal.len().max(1);
                let Some(command) = legal.get(pick) else {
                    break;
                };
                let Ok(next) = R::decide(&state, actor, command, &randomness) else {
                    break;
                };
                events = next;
            }
            if let Some(result) = R::result(&state) {
                examples
                    .entry(format!("{prefix}Result"))
                    .or_insert_with(|| json(&result));
            }
        }
    }
    examples.insert(format!("{prefix}GameOptions"), json(&R::Options::default()));
}

/// An engine value as JSON (engine values always serialize).
fn json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or_default()
}
