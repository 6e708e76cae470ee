//! The plans of the hot statements (`hatstand::db::plans::hot`) on a
//! database grown enough that a bad one shows (`plans/grown.sql`), each run
//! with `EXPLAIN ANALYZE` under both the plan PostgreSQL makes for the
//! given arguments and the generic plan a cached statement may settle on:
//!
//! - no sequential scan of a table that grows;
//! - a per-user statement, asked for a user with no rows, reads no row of
//!   a growing table (every row it read would be another user's); asked for
//!   the heavy player, it reads about a page of rows, not the server's;
//! - a worker's statement reads about its batch, not the table.
//!
//! The statistics are fresh (`ANALYZE` after the fill); nothing is forced
//! but the generic plan (no `enable_seqscan = off`).

use diesel::QueryableByName;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use hatstand::db::plans::{Hot, Reads, hot};
use serde_json::Value;

use crate::support::TestDb;

const HEAVY: &str = "00000000-0000-4000-8000-00000000aaaa";
const NOBODY: &str = "00000000-0000-4000-8000-00000000bbbb";

/// Tables whose rows grow with the server's history or its players.
const GROWING: &[&str] = &[
    "games",
    "seats",
    "events",
    "notifications",
    "webhook_deliveries",
    "mail_outbox",
    "idempotency_keys",
    "sessions",
    "users",
    "archived_games",
    "invitations",
    "webhooks",
    "email_addresses",
];

#[derive(QueryableByName)]
struct Plan {
    #[diesel(sql_type = diesel::sql_types::Json)]
    #[diesel(column_name = "QUERY PLAN")]
    plan: Value,
}

/// What a plan's scans of growing tables did.
#[derive(Debug, Default)]
struct Scanned {
    /// Sequential scans, by table.
    sequential: Vec<String>,
    /// Rows read (returned, or removed by a filter or recheck), all loops.
    rows: f64,
    /// Of those, rows a filter removed.
    removed: f64,
}

fn walk(node: &Value, into: &mut Scanned) {
    let number = |key: &str| node[key].as_f64().unwrap_or(0.0);
    if let Some(table) = node["Relation Name"].as_str()
        && GROWING.contains(&table)
    {
        let loops = number("Actual Loops");
        let removed =
            (number("Rows Removed by Filter") + number("Rows Removed by Index Recheck")) * loops;
        into.rows += number("Actual Rows") * loops + removed;
        into.removed += removed;
        if node["Node Type"] == "Seq Scan" {
            into.sequential.push(table.to_owned());
        }
    }
    if node["Node Type"] == "Nested Loop" || node["Node Type"] == "Hash Join" {
        into.removed += number("Rows Removed by Join Filter") * number("Actual Loops");
    }
    for child in node["Plans"].as_array().into_iter().flatten() {
        walk(child, into);
    }
}

/// Runs `statement`'s plan for `user` (and a cursor into their rows) under
/// `mode`, in a transaction rolled back (claims update what they take).
async fn scan(
    conn: &mut AsyncPgConnection,
    statement: &Hot,
    user: &str,
    cursor: (&str, &str),
    mode: &str,
) -> (Scanned, Value) {
    let args: Vec<String> = statement
        .args
        .iter()
        .map(|a| {
            a.replace("{user}", &format!("'{user}'::uuid"))
                .replace("{cursor_at}", &format!("'{}'::timestamptz", cursor.0))
                .replace("{cursor_id}", &format!("'{}'::uuid", cursor.1))
                .replace("{batch}", "16")
        })
        .collect();
    let prepare = if statement.types.is_empty() {
        format!("PREPARE hot AS {}", statement.sql)
    } else {
        format!(
            "PREPARE hot ({}) AS {}",
            statement.types.join(", "),
            statement.sql
        )
    };
    let execute = if args.is_empty() {
        "EXECUTE hot".to_owned()
    } else {
        format!("EXECUTE hot ({})", args.join(", "))
    };
    conn.batch_execute(&format!(
        "BEGIN; SET LOCAL plan_cache_mode = {mode}; {prepare}"
    ))
    .await
    .unwrap_or_else(|e| panic!("{}: {e}", statement.name));
    let plan: Plan = diesel::sql_query(format!("EXPLAIN (ANALYZE, FORMAT JSON) {execute}"))
        .get_result(conn)
        .await
        .unwrap_or_else(|e| panic!("{}: {e}", statement.name));
    conn.batch_execute("ROLLBACK; DEALLOCATE hot")
        .await
        .unwrap();
    let root = plan.plan[0]["Plan"].clone();
    let mut scanned = Scanned::default();
    walk(&root, &mut scanned);
    (scanned, root)
}

#[derive(QueryableByName)]
struct Cursor {
    #[diesel(sql_type = diesel::sql_types::Text)]
    at: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    id: String,
}

#[actix_web::test]
async fn hot_statements_read_their_own_rows_on_a_grown_database() {
    let db = TestDb::new().await;
    let mut conn = AsyncPgConnection::establish(&db.url).await.unwrap();
    conn.batch_execute(include_str!("plans/grown.sql"))
        .await
        .unwrap();
    // A cursor halfway down the heavy player's games.
    let cursor: Cursor = diesel::sql_query(format!(
        "SELECT game_created_at::text AS at, game_id::text AS id FROM seats
          WHERE user_id = '{HEAVY}' ORDER BY game_created_at DESC, game_id DESC OFFSET 100 LIMIT 1"
    ))
    .get_result(&mut conn)
    .await
    .unwrap();
    let mut failures = Vec::new();
    for statement in hot() {
        let modes: &[&str] = if statement.cached {
            &["force_custom_plan", "force_generic_plan"]
        } else {
            // Sent unnamed: planned for its arguments every time.
            &["force_custom_plan"]
        };
        for &mode in modes {
            let users: &[(&str, f64)] = match statement.reads {
                // Nobody's rows: none. The heavy player's (200 games): a
                // page of 21 games, each with its seats and their names.
                Reads::OneUser => &[(NOBODY, 0.0), (HEAVY, 400.0)],
                // A batch (at most 16 here), with what it joins.
                Reads::Due => &[(NOBODY, 200.0)],
            };
            for &(user, most) in users {
                let (scanned, plan) =
                    scan(&mut conn, &statement, user, (&cursor.at, &cursor.id), mode).await;
                let name = format!("{} for {user} ({mode})", statement.name);
                if !scanned.sequential.is_empty() {
                    failures.push(format!(
                        "{name}: sequential scan of {:?}",
                        scanned.sequential
                    ));
                }
                if scanned.rows > most {
                    failures.push(format!(
                        "{name}: read {} rows of growing tables ({} removed by filters), at most {most} expected:\n{plan:#}",
                        scanned.rows, scanned.removed
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The fill is large enough to tell: the inbox statement of the release
/// before (the games of the server, newest first, each checked against the
/// member's seats), on the same rows, reads every other player's games for a
/// player with none, and the check above refuses it.
#[actix_web::test]
async fn the_grown_database_shows_the_inbox_that_walked_every_game() {
    let db = TestDb::new().await;
    let mut conn = AsyncPgConnection::establish(&db.url).await.unwrap();
    conn.batch_execute(include_str!("plans/grown.sql"))
        .await
        .unwrap();
    let before = Hot {
        name: "the inbox before".to_owned(),
        reads: Reads::OneUser,
        cached: true,
        sql: "SELECT g.id FROM games g
               WHERE ($1::uuid IS NULL OR EXISTS (
                         SELECT 1 FROM seats m WHERE m.game_id = g.id AND m.user_id = $1))
               ORDER BY g.created_at DESC, g.id DESC LIMIT 21"
            .to_owned(),
        types: &["uuid"],
        args: vec!["{user}"],
    };
    let (scanned, plan) = scan(&mut conn, &before, NOBODY, ("", ""), "force_custom_plan").await;
    assert!(
        scanned.removed >= 20_000.0,
        "the old shape looked cheap: {plan:#}"
    );
}
