//! Ready for sharding: `deploy/citus.sql` gives every table one class
//! (distributed by a column, reference, or local), and the migrated schema
//! keeps the rules a Citus cluster holds each class to:
//!
//! - every table of the schema has exactly one class, and only those;
//! - a distributed table's distribution column exists, is `NOT NULL`, and
//!   has one type across its co-location group;
//! - every primary key, unique constraint and unique index of a distributed
//!   table includes its distribution column;
//! - a foreign key between distributed tables joins co-located tables on
//!   both distribution columns, paired, and never sets or cascades them;
//! - no foreign key from a reference table to a distributed one (from a
//!   distributed table to a reference table is fine); local tables have
//!   foreign keys only among themselves;
//! - a table comes after the tables it references (the order Citus needs).
//!
//! A migration that breaks one of them fails here, naming table and rule.

mod catalog;
mod plan;
mod rules;

use plan::Class;

use crate::support::TestDb;

async fn schema_of(db: &TestDb) -> catalog::Catalog {
    let mut conn = hatstand::db::locate::connect(&db.url).await.unwrap();
    catalog::read(&mut conn).await
}

fn parsed(text: &str) -> plan::Plan {
    plan::parse(text).unwrap_or_else(|problems| panic!("{}", problems.join("\n")))
}

#[actix_web::test]
async fn the_migrated_schema_keeps_the_rules_of_deploy_citus_sql() {
    let db = TestDb::new().await;
    let plan = parsed(&plan::committed());
    let broken = rules::violations(&plan, &schema_of(&db).await);
    assert!(
        broken.is_empty(),
        "the schema breaks deploy/citus.sql's sharding rules:\n{}",
        broken.join("\n")
    );
}

#[test]
fn games_shard_by_game_and_what_users_are_told_by_user() {
    let plan = parsed(&plan::committed());
    let class = |table: &str| plan[table].class.clone();
    let by = |column: &str, group: &str| Class::Distributed {
        column: column.to_owned(),
        group: group.to_owned(),
    };
    assert_eq!(class("games"), by("id", "games"));
    for table in [
        "seats",
        "events",
        "invitations",
        "idempotency_keys",
        "archived_games",
    ] {
        assert_eq!(class(table), by("game_id", "games"), "{table}");
    }
    for table in ["notifications", "webhook_deliveries"] {
        assert_eq!(class(table), by("user_id", "notifications"), "{table}");
    }
    for table in ["users", "sessions", "webhooks"] {
        assert_eq!(class(table), Class::Reference, "{table}");
    }
    assert_eq!(class("login_failures"), Class::Local);
}

#[test]
fn a_distributed_table_names_its_co_location_and_is_classified_once() {
    let problems = plan::parse(
        "SELECT create_distributed_table('a', 'id');
         SELECT create_reference_table('b');
         SELECT create_distributed_table('c', 'id', colocate_with => 'b');
         -- local: b",
    )
    .unwrap_err();
    let expected = [
        "`a`: say `colocate_with",
        "`c`: colocate_with 'b' must name a table distributed above it",
        "`b`: classified twice",
    ];
    for rule in expected {
        assert!(
            problems.iter().any(|p| p.starts_with(rule)),
            "{rule}: {problems:#?}"
        );
    }
    assert_eq!(problems.len(), expected.len(), "{problems:#?}");
}

/// Each rule catches the change that breaks it.
#[actix_web::test]
async fn a_migration_that_breaks_a_rule_fails_naming_the_table_and_the_rule() {
    use diesel_async::SimpleAsyncConnection;
    let db = TestDb::new().await;
    let mut conn = hatstand::db::locate::connect(&db.url).await.unwrap();
    conn.batch_execute(
        "CREATE TABLE scratch (id integer PRIMARY KEY);
         CREATE TABLE game_notes (game_id uuid REFERENCES games (id), note text UNIQUE);
         CREATE UNIQUE INDEX events_by_digest ON events (digest);
         ALTER TABLE users ADD COLUMN last_game uuid REFERENCES games (id);
         ALTER TABLE notifications ADD FOREIGN KEY (game_id) REFERENCES games (id);
         ALTER TABLE login_failures ADD COLUMN user_id uuid REFERENCES users (id);",
    )
    .await
    .unwrap();
    let plan = parsed(&format!(
        "{}
         SELECT create_distributed_table('game_notes', 'game_id', colocate_with => 'games');
         SELECT create_reference_table('gone');",
        plan::committed()
    ));
    let broken = rules::violations(&plan, &schema_of(&db).await);
    let expected = [
        "`scratch`: every table has a class",
        "`gone`: only tables of the schema are classified",
        "`game_notes`: the distribution column is NOT NULL",
        "`game_notes`: unique keys include the distribution column: `game_notes_note_key`",
        "`events`: unique keys include the distribution column: `events_by_digest`",
        "`users`: no foreign key from a reference table to a distributed table",
        "`notifications`: foreign keys between distributed tables join co-located tables",
        "`notifications`: foreign keys between distributed tables join their distribution columns",
        "`login_failures`: local tables have foreign keys only among themselves",
    ];
    for rule in expected {
        assert!(
            broken.iter().any(|b| b.starts_with(rule)),
            "not reported: {rule}\n{}",
            broken.join("\n")
        );
    }
    assert_eq!(broken.len(), expected.len(), "{}", broken.join("\n"));
}
