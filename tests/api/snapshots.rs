//! The log is the truth: every game's state row (the snapshot the command
//! path reads instead of the log) equals the fold of its events.

use hatstand::db::event_store;
use hatstand::db::games;
use hatstand::engine::{GameKind, Ruleset, with_ruleset};
use hatstand::record::replay::Replay;
use serde_json::json;

use crate::play::play;
use crate::support::TestApp;

#[actix_web::test]
async fn every_snapshot_equals_the_replay_of_its_log() {
    let app = TestApp::spawn().await;
    let mut ids = Vec::new();
    for &kind in GameKind::ALL {
        let players = with_ruleset!(kind, |R| R::MIN_PLAYERS);
        ids.push(play(&app, kind.id(), players, json!({}), 7).await.id);
    }
    // A game in progress too: the snapshot after its opening events and one command.
    let users = app.users(2).await;
    let open = app.started_game(&users, "hats", json!({})).await;
    let game = app.game(&open, Some(&users[0])).await;
    let seat = game["to_act"][0].as_u64().unwrap() as usize;
    let mine = app.game(&open, Some(&users[seat])).await;
    app.command(
        &open,
        &users[seat],
        mine["version"].as_i64().unwrap(),
        &mine["legal_commands"][0],
    )
    .await
    .ok(200);
    ids.push(open);

    let mut conn = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    for id in ids {
        let id: uuid::Uuid = id.parse().unwrap();
        let loaded = games::load(&mut conn, id, None, None)
            .await
            .unwrap()
            .unwrap();
        let log = event_store::load(&mut conn, id, 0, i64::MAX, 1_000_000)
            .await
            .unwrap();
        let row = &loaded.game;
        assert_eq!(
            row.version,
            log.len() as i64,
            "{id}: version is the log's length"
        );
        assert_eq!(row.last_hash, log.last().unwrap().hash, "{id}: last hash");
        let kind = GameKind::from_id(&row.ruleset).unwrap();
        with_ruleset!(kind, |R| {
            let replay = Replay::<R>::of(&log).unwrap();
            let state = replay.state.unwrap();
            assert_eq!(
                row.state
                    .as_ref()
                    .unwrap()
                    .parse::<serde_json::Value>()
                    .unwrap(),
                serde_json::to_value(&state).unwrap(),
                "{id}: the snapshot differs from the fold of the log"
            );
            let to_act: Vec<i16> = R::to_act(&state).iter().map(|s| i16::from(s.0)).collect();
            assert_eq!(row.to_act, to_act, "{id}: to_act");
            let result = R::result(&state).map(|r| serde_json::to_value(r).unwrap());
            assert_eq!(row.result, result, "{id}: result");
        });
    }
}
