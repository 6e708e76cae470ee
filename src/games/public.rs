//! What may be shown of any game to anyone: the engine's viewer for a seat
//! (or a spectator), and the options as clients may see them.

use hatstand_engine::Viewer;
use serde_json::{Map, Value};

/// The engine viewer for a user (`None`: anonymous) at this table.
#[must_use]
pub fn viewer_for(my_seat: Option<u8>) -> Viewer {
    my_seat.map_or(Viewer::Spectator, |s| {
        Viewer::Seat(hatstand_engine::Seat(s))
    })
}

/// The options as clients may see them: explicit deals replaced by their
/// count, the seed shown only when public.
#[must_use]
pub fn public_options(options: &Value, public_seed: Option<&str>) -> Value {
    let mut map = match options {
        Value::Object(map) => map.clone(),
        _ => Map::new(),
    };
    if let Some(deals) = map.remove("deals")
        && let Value::Array(list) = deals
    {
        map.insert("explicit_deals".to_owned(), Value::from(list.len()));
    }
    if let Some(seed) = public_seed {
        map.insert("seed".to_owned(), Value::String(seed.to_owned()));
    }
    Value::Object(map)
}
