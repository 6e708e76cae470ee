//! `hatstand storage`: what a finished game costs on disk, per ruleset and
//! table, measured in a real database.
//!
//! For each ruleset, the rows that belong to its finished games (the game
//! row, seats, invitations, events, notifications with their webhook
//! deliveries, idempotency keys) are summed as PostgreSQL stores them: each
//! row's size as stored (`pg_column_size` of the whole row: tuple header and
//! data, compressed values as compressed) plus its 4-byte line pointer, and
//! each table's indexes shared out by row count. Free space in pages and
//! the write-ahead log are not counted.

use hatstand::db::storage::RulesetCost;

/// The report, as printed.
#[must_use]
#[expect(clippy::cast_precision_loss, reason = "figures for people")]
pub fn render(costs: &[RulesetCost]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    if costs.is_empty() {
        out.push_str("storage: no finished games yet\n");
    }
    for cost in costs {
        let games = cost.games.max(1) as f64;
        let _ = writeln!(
            out,
            "storage: {}: {} finished games: {:.0} bytes a game kept ({:.1} GB per million games), \
             {:.0} more that expire (keys after a day, notifications after 30 days)",
            cost.ruleset,
            cost.games,
            cost.kept_per_game(),
            cost.kept_per_game() * 1e6 / 1e9,
            cost.expiring_per_game(),
        );
        let _ = writeln!(
            out,
            "storage:   {:<20} {:>10} {:>12} {:>12} {:>12}",
            "table", "rows/game", "B/row", "heap B/game", "index B/game"
        );
        for t in &cost.tables {
            let per_row = if t.rows > 0 {
                t.heap_bytes as f64 / t.rows as f64
            } else {
                0.0
            };
            let _ = writeln!(
                out,
                "storage:   {:<20} {:>10.1} {:>12.0} {:>12.0} {:>12.0}",
                t.table,
                t.rows as f64 / games,
                per_row,
                t.heap_bytes as f64 / games,
                t.index_bytes / games
            );
        }
    }
    out
}
