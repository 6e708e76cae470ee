//! The storage report's queries: what the rows of a ruleset's finished
//! games take, table by table (see `tools/storage.rs`, the command that prints it).

use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Double, Text};
use diesel_async::{AsyncPgConnection, RunQueryDsl};

/// The rows of one table that belong to the finished games of a ruleset:
/// a `FROM` clause over `f` (the finished games' ids) naming the rows `t`.
const TABLES: [(&str, &str); 8] = [
    ("games", "games t JOIN f ON t.id = f.id"),
    ("seats", "seats t JOIN f ON t.game_id = f.id"),
    ("invitations", "invitations t JOIN f ON t.game_id = f.id"),
    ("events", "events t JOIN f ON t.game_id = f.id"),
    (
        "notifications",
        "notifications t JOIN f ON t.game_id = f.id",
    ),
    (
        "webhook_deliveries",
        "webhook_deliveries t JOIN notifications n ON n.user_id = t.user_id AND n.id = t.notification_id JOIN f ON n.game_id = f.id",
    ),
    (
        "idempotency_keys",
        "idempotency_keys t JOIN f ON t.game_id = f.id",
    ),
    (
        "archived_games",
        "archived_games t JOIN f ON t.game_id = f.id",
    ),
];

/// One table's share of a ruleset's finished games.
#[derive(Debug, Clone, QueryableByName)]
pub struct TableCost {
    #[diesel(sql_type = Text)]
    pub table: String,
    /// Rows that belong to the finished games.
    #[diesel(sql_type = BigInt)]
    pub rows: i64,
    /// Their bytes as stored, line pointers included.
    #[diesel(sql_type = BigInt)]
    pub heap_bytes: i64,
    /// The table's index bytes, shared out by rows.
    #[diesel(sql_type = Double)]
    pub index_bytes: f64,
}

#[derive(QueryableByName)]
struct Ruleset {
    #[diesel(sql_type = Text)]
    ruleset: String,
    #[diesel(sql_type = BigInt)]
    games: i64,
}

/// Each ruleset with finished games, and how many.
///
/// # Errors
/// Database errors.
pub async fn finished_by_ruleset(
    conn: &mut AsyncPgConnection,
) -> diesel::QueryResult<Vec<(String, i64)>> {
    let rulesets: Vec<Ruleset> = diesel::sql_query(
        "SELECT ruleset, count(*) AS games FROM games WHERE status = 'finished'
          GROUP BY ruleset ORDER BY ruleset",
    )
    .load(conn)
    .await?;
    Ok(rulesets.into_iter().map(|r| (r.ruleset, r.games)).collect())
}

/// What each table holds of the finished games of `ruleset`.
///
/// # Errors
/// Database errors.
pub async fn table_costs(
    conn: &mut AsyncPgConnection,
    ruleset: &str,
) -> diesel::QueryResult<Vec<TableCost>> {
    let mut tables = Vec::new();
    for (table, from) in TABLES {
        // `table` and `from` are constants of this module, never input.
        let sql = format!(
            "WITH f AS (SELECT id FROM games WHERE ruleset = $1 AND status = 'finished'),
                  mine AS (SELECT count(*) AS rows, coalesce(sum(pg_column_size(t.*) + 4), 0)::bigint AS bytes
                             FROM {from}),
                  whole AS (SELECT greatest(count(*), 1) AS rows FROM {table})
             SELECT '{table}' AS table, mine.rows, mine.bytes AS heap_bytes,
                    pg_indexes_size('{table}')::float8 * mine.rows / whole.rows AS index_bytes
               FROM mine, whole"
        );
        tables.push(
            diesel::sql_query(sql)
                .bind::<Text, _>(ruleset)
                .get_result::<TableCost>(conn)
                .await?,
        );
    }
    Ok(tables)
}

/// What the finished games of one ruleset cost.
#[derive(Debug, Clone)]
pub struct RulesetCost {
    pub ruleset: String,
    pub games: i64,
    pub tables: Vec<TableCost>,
}

/// The tables whose rows stay as long as the game (the others expire; see
/// `retention.rs`).
pub const KEPT: [&str; 5] = ["games", "seats", "invitations", "events", "archived_games"];

impl RulesetCost {
    /// Bytes per finished game in the tables `which` selects, indexes included.
    #[must_use]
    #[expect(clippy::cast_precision_loss, reason = "a figure for people")]
    pub fn bytes_per_game(&self, which: impl Fn(&str) -> bool) -> f64 {
        let total: f64 = self
            .tables
            .iter()
            .filter(|t| which(&t.table))
            .map(|t| t.heap_bytes as f64 + t.index_bytes)
            .sum();
        total / self.games.max(1) as f64
    }

    /// Bytes per finished game that stay as long as the game does.
    #[must_use]
    pub fn kept_per_game(&self) -> f64 {
        self.bytes_per_game(|t| KEPT.contains(&t))
    }

    /// Bytes per finished game that expire (idempotency keys, notifications,
    /// webhook deliveries).
    #[must_use]
    pub fn expiring_per_game(&self) -> f64 {
        self.bytes_per_game(|t| !KEPT.contains(&t))
    }
}

/// The cost of the finished games of every ruleset that has some.
///
/// # Errors
/// Database errors.
pub async fn measure(conn: &mut AsyncPgConnection) -> diesel::QueryResult<Vec<RulesetCost>> {
    let mut out = Vec::new();
    for (ruleset, games) in finished_by_ruleset(conn).await? {
        let tables = table_costs(conn, &ruleset).await?;
        out.push(RulesetCost {
            ruleset,
            games,
            tables,
        });
    }
    Ok(out)
}
