//! The database: the committed schema matches the migrations, and a private
//! PostgreSQL server is started when none is found.

use std::collections::BTreeMap;

use diesel::prelude::*;
use diesel_async::RunQueryDsl;

use serde_json::json;

use crate::support::{TestApp, TestDb};

#[derive(QueryableByName, Debug)]
struct ColumnInfo {
    #[diesel(sql_type = diesel::sql_types::Text)]
    table_name: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    column_name: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    udt_name: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    is_nullable: String,
}

/// `src/db/schema.rs` as (table, column) → "Type" / "Nullable<Type>", read
/// from the file in the form `diesel print-schema` writes.
fn committed_schema() -> BTreeMap<(String, String), String> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/db/schema.rs")).unwrap();
    let mut out = BTreeMap::new();
    let mut table = None;
    let mut sql_name = None;
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_suffix('{').filter(|_| line.contains(" (")) {
            table = Some(rest.split_whitespace().next().unwrap().to_owned());
        } else if line == "}" {
            table = None;
        } else if let Some(name) = line
            .strip_prefix("#[sql_name = \"")
            .and_then(|l| l.strip_suffix("\"]"))
        {
            sql_name = Some(name.to_owned());
        } else if let (Some(t), Some((column, ty))) = (&table, line.split_once(" -> ")) {
            let column = sql_name.take().unwrap_or_else(|| column.to_owned());
            out.insert((t.clone(), column), ty.trim_end_matches(',').to_owned());
        }
    }
    out
}

fn diesel_type(udt: &str) -> &'static str {
    match udt {
        "uuid" => "Uuid",
        "text" => "Text",
        "int2" => "Int2",
        "int4" => "Int4",
        "int8" => "Int8",
        "bool" => "Bool",
        "bytea" => "Bytea",
        "jsonb" => "Jsonb",
        "timestamptz" => "Timestamptz",
        "_int2" => "Array<Int2>",
        "_int4" => "Array<Int4>",
        "_uuid" => "Array<Uuid>",
        "_text" => "Array<Text>",
        "float8" => "Float8",
        other => panic!("no mapping for {other}"),
    }
}

#[actix_web::test]
async fn schema_rs_matches_the_migrated_database() {
    let db = TestDb::new().await;
    let mut conn = hatstand::db::locate::connect(&db.url).await.unwrap();
    let columns: Vec<ColumnInfo> = diesel::sql_query(
        "SELECT table_name::text, column_name::text, udt_name::text, is_nullable::text
           FROM information_schema.columns
          WHERE table_schema = 'public' AND table_name <> '__diesel_schema_migrations'",
    )
    .load(&mut conn)
    .await
    .unwrap();
    let live: BTreeMap<(String, String), String> = columns
        .into_iter()
        .map(|c| {
            let ty = diesel_type(&c.udt_name);
            let ty = if c.is_nullable == "YES" {
                format!("Nullable<{ty}>")
            } else {
                ty.to_owned()
            };
            ((c.table_name, c.column_name), ty)
        })
        .collect();
    assert_eq!(
        committed_schema(),
        live,
        "src/db/schema.rs drifted from migrations/"
    );
}

#[actix_web::test]
async fn a_private_server_is_started_when_nothing_listens() {
    let dir = std::env::temp_dir().join(format!(
        "hatstand-private-{}",
        uuid::Uuid::new_v4().simple()
    ));
    // Nothing listens on port 9 of loopback: the fallback starts a private server.
    let (url, origin) = hatstand::db::locate::locate_at(None, "127.0.0.1:9", &dir, "hatstand")
        .await
        .unwrap();
    let hatstand::db::locate::Origin::Private { pgdata, port } = origin else {
        panic!("expected a private server, got {origin:?}");
    };
    hatstand::db::locate::ensure_database(&url).await.unwrap();
    hatstand::db::migrate(&url).await.unwrap();
    // A second start finds the running server instead of starting another.
    let (again, _) = hatstand::db::locate::locate_at(None, "127.0.0.1:9", &dir, "hatstand")
        .await
        .unwrap();
    assert_eq!(again, url);
    assert!(url.contains(&format!(":{port}/")));
    let pg_ctl = hatstand_pg_ctl();
    let mut stop = std::process::Command::new(if is_root() {
        "runuser"
    } else {
        pg_ctl.to_str().unwrap()
    });
    if is_root() {
        stop.args(["-u", "postgres", "--"]).arg(&pg_ctl);
    }
    let stopped = stop
        .args(["-D", pgdata.to_str().unwrap(), "-m", "immediate", "stop"])
        .output()
        .unwrap();
    assert!(stopped.status.success(), "{stopped:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"))
}

fn hatstand_pg_ctl() -> std::path::PathBuf {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("pg_ctl"))
            .find(|p| p.is_file())
    });
    on_path.unwrap_or_else(|| {
        let mut versions: Vec<_> = std::fs::read_dir("/usr/lib/postgresql")
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        versions.sort();
        versions.pop().unwrap().join("bin/pg_ctl")
    })
}

/// The pool reuses connections without a test query: when PostgreSQL drops
/// them all, a request may meet a dead one and answers 503 `unavailable`
/// (never a 500), and the server is back at once on fresh connections.
#[actix_web::test]
async fn connections_dropped_by_postgres_are_replaced() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    app.game(&id, Some(&users[0])).await;
    app.sql(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .await;
    let mut answers = Vec::new();
    for _ in 0..20 {
        let reply = app
            .get(&format!("/v1/games/{id}"), Some(&users[0].token))
            .await;
        if reply.status.as_u16() == 200 {
            break;
        }
        reply.assert_problem(503, "unavailable");
        answers.push(reply.status.as_u16());
    }
    assert!(answers.len() < 20, "never recovered: {answers:?}");
    app.game(&id, Some(&users[0])).await;
}

/// A started game whose row another session holds (`FOR UPDATE` in an open
/// transaction), with the first seat's first legal command at the game's
/// version and the footprint before it.
struct Held {
    id: String,
    users: Vec<crate::support::User>,
    version: i64,
    command: serde_json::Value,
    before: Vec<i64>,
    holder: diesel_async::AsyncPgConnection,
}

async fn a_game_with_its_row_held(app: &TestApp) -> Held {
    use diesel_async::SimpleAsyncConnection;
    let users = app.users(2).await;
    let (id, version, command) = app.opening(&users).await;
    let before = app.footprint().await;
    let mut holder = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    holder
        .batch_execute(&format!(
            "BEGIN; SELECT 1 FROM games WHERE id = '{id}' FOR UPDATE"
        ))
        .await
        .unwrap();
    Held {
        id,
        users,
        version,
        command,
        before,
        holder,
    }
}

/// PostgreSQL ends a command's session while its statement waits on the
/// game's row (an administrator's `pg_terminate_backend`, as in a restart):
/// the command answers 503 `unavailable`, writes nothing, and the same
/// command is then accepted on a fresh connection.
#[actix_web::test]
async fn a_command_whose_session_is_ended_mid_statement_is_unavailable() {
    use diesel_async::SimpleAsyncConnection;
    use hatstand::db::locate;

    let app = TestApp::spawn().await;
    // Given another session holding the game's row
    let Held {
        id,
        users,
        version,
        command,
        before,
        mut holder,
    } = a_game_with_its_row_held(&app).await;
    // When the command waits for it and its session is ended
    let (reply, ()) = tokio::join!(app.command(&id, &users[0], version, &command), async {
        let mut admin = locate::connect(&app.db.url).await.unwrap();
        for _ in 0..600 {
            #[derive(QueryableByName)]
            struct Ended {
                #[diesel(sql_type = diesel::sql_types::Bool)]
                ended: bool,
            }
            let ended = diesel::sql_query(
                "SELECT coalesce(bool_or(pg_terminate_backend(pid)), false) AS ended
                   FROM pg_stat_activity
                  WHERE datname = current_database() AND wait_event_type = 'Lock'",
            )
            .get_result::<Ended>(&mut admin)
            .await
            .unwrap();
            if ended.ended {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        panic!("the command never waited on the game's row");
    });
    holder.batch_execute("ROLLBACK").await.unwrap();

    // Then it is unavailable, nothing is written, and a retry is accepted
    reply.assert_problem(503, "unavailable");
    assert_eq!(app.footprint().await, before);
    app.command(&id, &users[0], version, &command).await.ok(200);
}

/// A database that does not answer (here: the game's row held by another
/// session, so the command's statement waits) makes a command answer 503
/// `unavailable` once `statement_timeout` passes, instead of hanging; it
/// writes nothing, `/readyz` still answers at once, and once the database
/// answers again the same command is accepted.
#[actix_web::test]
async fn a_command_on_a_hung_database_answers_503_in_bounded_time() {
    use diesel_async::SimpleAsyncConnection;

    let app = TestApp::spawn_with(|s| s.statement_timeout_ms = 300).await;
    let Held {
        id,
        users,
        version,
        command,
        before,
        mut holder,
    } = a_game_with_its_row_held(&app).await;
    app.command(&id, &users[0], version, &command)
        .await
        .assert_problem(503, "unavailable");
    assert_eq!(app.get("/readyz", None).await.ok(200)["status"], "ready");
    holder.batch_execute("ROLLBACK").await.unwrap();

    assert_eq!(app.footprint().await, before);
    app.command(&id, &users[0], version, &command).await.ok(200);
}

/// The primary the server writes to becomes a standby (a switchover, or an
/// old primary back as a replica), here as new sessions that are read-only:
/// a command meeting it answers 503 `unavailable` with `Retry-After` (never
/// a 500) and writes nothing; once the database takes writes again, the
/// connections opened before are not reused and the same command is
/// accepted.
#[actix_web::test]
async fn a_primary_turned_standby_answers_503_and_its_connections_are_dropped() {
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let (id, version, command) = app.opening(&users).await;
    let before = app.footprint().await;
    // The node turns read-only: its sessions are ended, new ones refuse writes.
    app.sql(
        "DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET default_transaction_read_only = on',
                                    current_database()); END $$;
         SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .await;
    let mut refused_read_only = false;
    for _ in 0..20 {
        let reply = app.command(&id, &users[0], version, &command).await;
        reply.assert_problem(503, "unavailable");
        assert_eq!(
            reply
                .headers
                .get("retry-after")
                .map(|v| v.to_str().unwrap()),
            Some("1")
        );
        if reply.body["detail"]
            .as_str()
            .unwrap()
            .contains("changing its primary")
        {
            refused_read_only = true;
            break;
        }
    }
    assert!(refused_read_only, "no command met the read-only database");
    assert_eq!(app.footprint().await, before);
    // Writes are taken again by new sessions; the pooled read-only ones
    // (opened before the refusal) must not be handed out.
    app.sql(
        "BEGIN READ WRITE;
         DO $$ BEGIN EXECUTE format('ALTER DATABASE %I RESET default_transaction_read_only',
                                    current_database()); END $$;
         COMMIT",
    )
    .await;
    let mut answers = Vec::new();
    loop {
        let reply = app.command(&id, &users[0], version, &command).await;
        if reply.status.as_u16() == 200 {
            break;
        }
        reply.assert_problem(503, "unavailable");
        answers.push(reply.body["detail"].clone());
        assert!(answers.len() < 5, "still refused: {answers:?}");
    }
}

/// A command updates its game's row in place, as a heap-only tuple (no new
/// entry in any index of `games`): no index covers a column that every
/// command changes, and the table's pages keep room for the next version.
#[actix_web::test]
async fn a_command_updates_its_games_row_in_place() {
    // Given a game of Hats, three commands into play
    let app = TestApp::spawn().await;
    let users = app.users(2).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    for _ in 0..3 {
        let seat = app.game(&id, None).await["to_act"][0].as_u64().unwrap();
        let user = &users[usize::try_from(seat).unwrap()];
        let game = app.game(&id, Some(user)).await;
        let version = game["version"].as_i64().unwrap();
        app.command(&id, user, version, &game["legal_commands"][0])
            .await
            .ok(200);
    }
    // When the row's current version is read off its page
    app.sql("CREATE EXTENSION IF NOT EXISTS pageinspect").await;
    #[derive(QueryableByName)]
    struct Tuple {
        #[diesel(sql_type = diesel::sql_types::Bool)]
        heap_only: bool,
    }
    let mut conn = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    let tuple: Tuple = diesel::sql_query(
        "SELECT (h.t_infomask2 & 32768) <> 0 AS heap_only
           FROM games g,
                heap_page_items(get_raw_page('games', (g.ctid::text::point)[0]::int)) h
          WHERE g.id = $1 AND h.lp = (g.ctid::text::point)[1]::int",
    )
    .bind::<diesel::sql_types::Uuid, _>(id.parse::<uuid::Uuid>().unwrap())
    .get_result(&mut conn)
    .await
    .unwrap();
    // Then the last command wrote it as a heap-only tuple
    assert!(tuple.heap_only, "the last command's update was not HOT");
}
