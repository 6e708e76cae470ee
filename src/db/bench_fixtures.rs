//! The benchmark's scratch databases: the SQL that fills them (a backlog of
//! expired rows, copies of finished games), measures them (row sizes, the
//! database's size) and gives pgbench its lean tables. Only `hatstand
//! bench` calls it, always on a database made for the run.

use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Bytea, Integer, Text, Uuid as SqlUuid};
use diesel_async::{RunQueryDsl, SimpleAsyncConnection};
use uuid::Uuid;

use super::Conn;

/// A statement's failure, as the bench reports it.
fn said(e: &diesel::result::Error) -> String {
    e.to_string()
}

/// Drops the database `name` (connected to another one as `admin`), its
/// sessions ended first; a failure is ignored (the run is over).
pub async fn drop_database(admin: &mut Conn, name: &str) {
    let _ = admin
        .batch_execute(&format!(
            "DROP DATABASE IF EXISTS {} WITH (FORCE)",
            super::locate::quote_ident(name)
        ))
        .await;
}

/// Adds `n` idempotency keys a day past their expiry (with answers of a
/// typical size) and `n` notifications past theirs.
///
/// # Errors
/// The database's refusal, as text.
pub async fn add_backlog(conn: &mut Conn, n: u64) -> Result<(), String> {
    conn.batch_execute(&format!(
        "INSERT INTO idempotency_keys (user_id, key, game_id, request_hash, response_status, response_body, created_at)
         SELECT g.created_by, 'backlog-' || i, g.id, repeat('0', 64), 200,
                jsonb_build_object('version', i, 'pad', repeat('x', 1300)), now() - interval '2 days'
           FROM generate_series(1, {n}) AS i, (SELECT id, created_by FROM games LIMIT 1) AS g;
         INSERT INTO notifications (user_id, game_id, kind, payload, created_at)
         SELECT g.created_by, g.id, 'your_turn', jsonb_build_object('version', i), now() - interval '31 days'
           FROM generate_series(1, {n}) AS i, (SELECT id, created_by FROM games LIMIT 1) AS g;
         ANALYZE idempotency_keys; ANALYZE notifications;"
    ))
    .await
    .map_err(|e| said(&e))
}

#[derive(QueryableByName)]
struct Id {
    #[diesel(sql_type = SqlUuid)]
    id: Uuid,
}

/// The oldest finished game, if any.
///
/// # Errors
/// The database's refusal, as text.
pub async fn oldest_finished(conn: &mut Conn) -> Result<Option<Uuid>, String> {
    let found: Vec<Id> = diesel::sql_query(
        "SELECT id FROM games WHERE status = 'finished' ORDER BY created_at LIMIT 1",
    )
    .load(conn)
    .await
    .map_err(|e| said(&e))?;
    Ok(found.into_iter().next().map(|f| f.id))
}

/// Up to `limit` finished, unarchived games, oldest first: the templates
/// of the copies.
///
/// # Errors
/// The database's refusal, as text.
pub async fn templates(conn: &mut Conn, limit: i64) -> Result<Vec<Uuid>, String> {
    let found: Vec<Id> = diesel::sql_query(
        "SELECT id FROM games WHERE status = 'finished' AND archived_at IS NULL
          ORDER BY created_at LIMIT $1",
    )
    .bind::<BigInt, _>(limit)
    .load(conn)
    .await
    .map_err(|e| said(&e))?;
    Ok(found.into_iter().map(|f| f.id).collect())
}

/// Creates the session's table of templates (`grow_templates`).
///
/// # Errors
/// The database's refusal, as text.
pub async fn create_templates_table(conn: &mut Conn) -> Result<(), String> {
    conn.batch_execute(
        "CREATE TEMP TABLE grow_templates (
             k int PRIMARY KEY, id uuid NOT NULL, audit bytea NOT NULL, json_bytes int NOT NULL,
             length interval NOT NULL, notice jsonb)",
    )
    .await
    .map_err(|e| said(&e))
}

/// Keeps template `k`: the game `id`, its compressed audit (`json_bytes`
/// before compression), its length and its `game_finished` notice.
///
/// # Errors
/// The database's refusal, as text.
pub async fn add_template(
    conn: &mut Conn,
    k: i32,
    id: Uuid,
    audit: &[u8],
    json_bytes: i32,
) -> Result<(), String> {
    diesel::sql_query(
        "INSERT INTO grow_templates (k, id, audit, json_bytes, length, notice)
         SELECT $1, g.id, $3, $4, g.updated_at - g.created_at,
                (SELECT n.payload FROM notifications n
                  WHERE n.game_id = g.id AND n.kind = 'game_finished' LIMIT 1)
           FROM games g WHERE g.id = $2",
    )
    .bind::<Integer, _>(k)
    .bind::<SqlUuid, _>(id)
    .bind::<Bytea, _>(audit)
    .bind::<Integer, _>(json_bytes)
    .execute(conn)
    .await
    .map(|_| ())
    .map_err(|e| said(&e))
}

/// Adds `users` players (`grow0`, `grow1`…), members since `span_days` ago.
///
/// # Errors
/// The database's refusal, as text.
pub async fn add_players(conn: &mut Conn, users: u64, span_days: i64) -> Result<(), String> {
    conn.batch_execute(&format!(
        "INSERT INTO users (id, username, password_hash, created_at)
         SELECT md5('grow-user' || u)::uuid, 'grow' || u, '!', now() - interval '{span_days} days'
           FROM generate_series(0, {users} - 1) AS u"
    ))
    .await
    .map_err(|e| said(&e))
}

/// One batch of copied games: games `from..upto` of `n`, spread over
/// `span_days` before now.
pub struct Copies {
    pub from: u64,
    pub upto: u64,
    pub n: u64,
    /// How many templates `grow_templates` holds.
    pub templates: usize,
    /// How many players `add_players` made.
    pub users: u64,
    /// The player seated first in every `heavy_every`th game.
    pub heavy: Uuid,
    pub heavy_every: u64,
    /// Only the games `heavy` plays.
    pub heavys_only: bool,
    pub span_days: i64,
    /// Games over for longer than this are written archived.
    pub archived_after_days: i64,
}

/// Writes one batch of copies in one transaction: game `i` (0 is the
/// newest) was created `i/n` of the span ago, and its id, players and
/// times derive from `i`, so batches need no lookup. A copy keeps its
/// template's events byte for byte; one over for longer than the
/// retention is written archived (its audit, no events).
///
/// # Errors
/// The database's refusal, as text.
pub async fn copy_games(conn: &mut Conn, c: &Copies) -> Result<(), String> {
    let Copies {
        from,
        upto,
        n,
        templates,
        users,
        heavy,
        heavy_every,
        heavys_only,
        span_days,
        archived_after_days,
    } = *c;
    let keep = if heavys_only {
        format!("i % {heavy_every} = 0")
    } else {
        "true".to_owned()
    };
    let games = format!(
        "FROM (SELECT i FROM generate_series({from}, {upto} - 1) AS t (i) WHERE {keep}) AS picked
         JOIN grow_templates k ON k.k = i % {templates}
         CROSS JOIN LATERAL (
             SELECT md5('grow-game' || i)::uuid AS id,
                    now() - make_interval(secs => i::float8 / {n} * {span_days} * 86400) - k.length AS created_at
         ) c
         CROSS JOIN LATERAL (
             SELECT c.created_at + k.length AS ended_at,
                    c.created_at + k.length < now() - interval '{archived_after_days} days' AS archived
         ) e"
    );
    let user = |seat: &str| {
        format!(
            "CASE WHEN {seat} = 0 AND i % {heavy_every} = 0 THEN '{heavy}'::uuid
                  ELSE md5('grow-user' || ((i * 7 + {seat}) % {users}))::uuid END"
        )
    };
    conn.batch_execute(&format!(
        "BEGIN;
         INSERT INTO games (id, ruleset, players, options, seed, seed_public, seed_commitment,
                            status, version, last_hash, state, to_act, result, created_by,
                            created_at, updated_at, server_options, deadline, private,
                            invite_code, rules_version, archived_at)
         SELECT c.id, t.ruleset, t.players, t.options, t.seed, t.seed_public, t.seed_commitment,
                t.status, t.version, t.last_hash, CASE WHEN e.archived THEN NULL ELSE t.state END,
                t.to_act, t.result, {creator},
                c.created_at, e.ended_at, t.server_options, NULL, t.private,
                NULL, t.rules_version,
                CASE WHEN e.archived THEN e.ended_at + interval '{archived_after_days} days' END
           {games}
           JOIN games t ON t.id = k.id;
         INSERT INTO seats (game_id, seat, user_id, joined_at, vacation_used_secs, timeouts,
                            resigned_at, game_created_at, game_status, game_finished_at)
         SELECT c.id, s.seat, {seat_user}, c.created_at, s.vacation_used_secs, s.timeouts,
                s.resigned_at, c.created_at, t.status, e.ended_at
           {games}
           JOIN games t ON t.id = k.id
           JOIN seats s ON s.game_id = k.id;
         INSERT INTO archived_games (game_id, audit, json_bytes, archived_at)
         SELECT c.id, k.audit, k.json_bytes, e.ended_at + interval '{archived_after_days} days'
           {games}
          WHERE e.archived;
         INSERT INTO events (game_id, seq, \"type\", data, actor_user, actor_seat, command,
                             prev_hash, hash, created_at, digest, schema_version)
         SELECT c.id, v.seq, v.\"type\", v.data, v.actor_user, v.actor_seat, v.command,
                v.prev_hash, v.hash, v.created_at, v.digest, v.schema_version
           {games}
           JOIN events v ON v.game_id = k.id
          WHERE NOT e.archived;
         INSERT INTO notifications (user_id, game_id, kind, payload, created_at)
         SELECT {seat_user}, c.id, 'game_finished', k.notice, e.ended_at
           {games}
           JOIN seats s ON s.game_id = k.id
          WHERE NOT e.archived AND k.notice IS NOT NULL;
         COMMIT;",
        creator = user("0"),
        seat_user = user("s.seat"),
    ))
    .await
    .map_err(|e| format!("filling games {from}..{upto}: {e}"))
}

/// `VACUUM ANALYZE` of the whole database.
///
/// # Errors
/// The database's refusal, as text.
pub async fn vacuum_analyze(conn: &mut Conn) -> Result<(), String> {
    conn.batch_execute("VACUUM ANALYZE")
        .await
        .map_err(|e| said(&e))
}

/// What a database holds.
#[derive(QueryableByName)]
pub struct Size {
    #[diesel(sql_type = BigInt)]
    pub games: i64,
    #[diesel(sql_type = BigInt)]
    pub events: i64,
    /// `pg_size_pretty` of the database.
    #[diesel(sql_type = Text)]
    pub size: String,
}

/// The games, events and bytes the database holds.
///
/// # Errors
/// The database's refusal, as text.
pub async fn size(conn: &mut Conn) -> Result<Size, String> {
    diesel::sql_query(
        "SELECT (SELECT count(*) FROM games) AS games, (SELECT count(*) FROM events) AS events,
                pg_size_pretty(pg_database_size(current_database())) AS size",
    )
    .get_result(conn)
    .await
    .map_err(|e| said(&e))
}

/// pgbench's lean transaction, in its script language: each client owns
/// one row of a table of games and, like the command path, makes two round
/// trips: it reads the row's version and snapshot, then one statement bumps
/// the version (guarded by the one read), writes the snapshot back and
/// appends an event.
pub const LEAN_SCRIPT: &str = "\\set g :client_id + 1
SELECT version, snapshot FROM lean_games WHERE id = :g \\gset
WITH bumped AS (
    UPDATE lean_games SET version = version + 1, snapshot = :snapshot
     WHERE id = :g AND version = :version
 RETURNING id, version)
INSERT INTO lean_events (game_id, seq, data)
SELECT id, version, repeat('e', :event_bytes) FROM bumped;
";

/// The average snapshot and event of a database's games, in bytes (the
/// event as stored: its row's size), or typical sizes for an empty one.
#[derive(QueryableByName)]
pub struct RowSizes {
    #[diesel(sql_type = Integer)]
    pub snapshot: i32,
    #[diesel(sql_type = Integer)]
    pub event: i32,
}

/// The games' and events' average sizes (see [`RowSizes`]).
///
/// # Errors
/// The database's refusal, as text.
pub async fn row_sizes(conn: &mut Conn) -> Result<RowSizes, String> {
    diesel::sql_query(
        "SELECT coalesce((SELECT avg(octet_length(state)) FROM games), 1000)::int AS snapshot,
                coalesce((SELECT avg(pg_column_size(e.*)) FROM events AS e), 300)::int AS event",
    )
    .get_result(conn)
    .await
    .map_err(|e| format!("snapshot and event sizes: {e}"))
}

/// (Re)creates pgbench's lean tables: one row per client, each snapshot
/// `snapshot_bytes` long.
///
/// # Errors
/// The database's refusal, as text.
pub async fn create_lean_tables(
    conn: &mut Conn,
    clients: usize,
    snapshot_bytes: i32,
) -> Result<(), String> {
    conn.batch_execute(&format!(
        "DROP TABLE IF EXISTS lean_events, lean_games;
         CREATE TABLE lean_games (id int PRIMARY KEY, version bigint NOT NULL, snapshot text NOT NULL);
         CREATE TABLE lean_events (game_id int NOT NULL REFERENCES lean_games (id), seq bigint NOT NULL,
                                   data text NOT NULL, PRIMARY KEY (game_id, seq));
         INSERT INTO lean_games SELECT g, 1, repeat('s', {snapshot_bytes}) FROM generate_series(1, {clients}) AS g;
         ANALYZE lean_games;"
    ))
    .await
    .map_err(|e| format!("pgbench tables: {e}"))
}

/// One game for each pgbench client of the command's own statements: a
/// game in play, the user whose turn it is and one of their live sessions,
/// the game's latest event as the append's event (its row as
/// `jsonb_to_recordset` reads it), and its latest notification as the one
/// the append writes. Returns how many clients have a game.
///
/// # Errors
/// The database's refusal, as text.
pub async fn create_command_targets(conn: &mut Conn, clients: usize) -> Result<usize, String> {
    #[derive(QueryableByName)]
    struct Made {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }
    conn.batch_execute(&format!(
        "DROP TABLE IF EXISTS bench_command_targets;
         CREATE TABLE bench_command_targets AS
         SELECT (row_number() OVER (ORDER BY g.id) - 1)::int AS client, g.id AS game, s.user_id AS player,
                COALESCE((SELECT se.id FROM sessions se WHERE se.user_id = s.user_id AND se.revoked_at IS NULL LIMIT 1),
                         gen_random_uuid()) AS session,
                (SELECT jsonb_build_object('seq', e.seq, 'type', e.\"type\", 'data', e.data,
                                           'actor_user', e.actor_user, 'actor_seat', e.actor_seat,
                                           'command', e.command, 'hash', encode(e.digest, 'hex'),
                                           'created_at', e.created_at, 'schema_version', e.schema_version)
                   FROM events e WHERE e.game_id = g.id ORDER BY e.seq DESC LIMIT 1) AS event,
                COALESCE((SELECT jsonb_build_array(jsonb_build_object('user_id', n.user_id, 'kind', n.kind,
                                                                      'payload', n.payload))
                            FROM notifications n WHERE n.game_id = g.id ORDER BY n.id DESC LIMIT 1),
                         '[]'::jsonb) AS note
           FROM games g
           JOIN seats s ON s.game_id = g.id AND s.seat = g.to_act[1]
          WHERE g.status = 'active' AND g.state IS NOT NULL AND cardinality(g.to_act) = 1
          LIMIT {clients};"
    ))
    .await
    .map_err(|e| format!("pgbench's command targets: {e}"))?;
    let made: Made = diesel::sql_query("SELECT count(*) AS n FROM bench_command_targets")
        .get_result(conn)
        .await
        .map_err(|e| said(&e))?;
    Ok(usize::try_from(made.n).unwrap_or(0))
}

/// The sum of the versions of [`create_command_targets`]'s games: it grows
/// by one with each append.
///
/// # Errors
/// The database's refusal, as text.
pub async fn command_targets_version(conn: &mut Conn) -> Result<i64, String> {
    #[derive(QueryableByName)]
    struct Sum {
        #[diesel(sql_type = BigInt)]
        v: i64,
    }
    let sum: Sum = diesel::sql_query(
        "SELECT COALESCE(sum(g.version), 0)::bigint AS v FROM games g JOIN bench_command_targets t ON t.game = g.id",
    )
    .get_result(conn)
    .await
    .map_err(|e| said(&e))?;
    Ok(sum.v)
}

/// The command's own three statements as a pgbench script: the next seat's
/// read of the game (the load statement with the session check, as
/// `GET /v1/games/{id}` runs it), the command's load (with an idempotency
/// key when `keyed`), and the append with its version guard, snapshot bump
/// and notification, each as its statement text in [`super::games`], the
/// same texts the server prepares. Only the parameters are pgbench's: the
/// client's game, player and session (read once per client from
/// `bench_command_targets`), the version and snapshot the load read, and
/// the event and notification of [`create_command_targets`] with the new
/// sequence number set in SQL. Each statement commits on its own, as the
/// server's do. Run it with `--define=loaded=0` (each client reads its
/// target once).
#[must_use]
pub fn command_script(keyed: bool) -> String {
    let key = "('bench-' || :client_id || '-' || :r)";
    let read = with_parameters(super::games::load_sql(false, false, true), |n| match n {
        1 => Some(":g::uuid".to_owned()),
        2 => Some(":u::uuid".to_owned()),
        3 => Some("NULL::text".to_owned()),
        4 => Some(":s::uuid".to_owned()),
        _ => None,
    });
    let load = with_parameters(super::games::load_sql(keyed, false, false), |n| match n {
        1 => Some(":g::uuid".to_owned()),
        2 => Some(":u::uuid".to_owned()),
        3 => Some(if keyed {
            key.to_owned()
        } else {
            "NULL::text".to_owned()
        }),
        4 => Some("NULL::uuid".to_owned()),
        _ => None,
    });
    let append = with_parameters(super::games::append_sql(keyed, false, true, false), |n| {
        Some(
            match n {
                1 => ":g::uuid",
                2 => ":version::bigint",
                3 => ":nv::bigint",
                4 => "md5(:nv::text)",
                5 => ":state::text",
                6 => ":to_act::smallint[]",
                7 => ":status::text",
                8 => "NULL::jsonb",
                9 => "now()",
                10 => "jsonb_build_array(jsonb_set(:ev::jsonb, '{seq}', to_jsonb(:nv::bigint)))",
                11 => ":u::uuid",
                12 => key,
                13 => "'bench'::text",
                14 => "200::smallint",
                15 => ":state::text",
                16 => "NULL::timestamptz",
                17 | 19 => "'[]'::jsonb",
                18 => ":nt::jsonb",
                20 => "NULL::jsonb",
                _ => return None,
            }
            .to_owned(),
        )
    });
    format!(
        "\\if :loaded = 0
SELECT game AS g, player AS u, session AS s, event AS ev, note AS nt FROM bench_command_targets WHERE client = :client_id \\gset
\\set loaded 1
\\endif
\\set r random(1, 2000000000)
{read};
{load} \\gset
\\set nv :version + 1
{append};
"
    )
}

/// `sql` with each `$n` replaced by `value(n)` (left as it is when `None`),
/// on one line: pgbench reads a statement up to its line's end (a
/// meta-command) or its `;`.
fn with_parameters(sql: &str, value: impl Fn(u32) -> Option<String>) -> String {
    let mut out = String::with_capacity(sql.len() + 256);
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '$' || !chars.peek().is_some_and(char::is_ascii_digit) {
            out.push(if c == '\n' { ' ' } else { c });
            continue;
        }
        let mut digits = String::new();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            digits.push(*d);
            chars.next();
        }
        match digits.parse().ok().and_then(&value) {
            Some(v) => out.push_str(&v),
            None => {
                out.push('$');
                out.push_str(&digits);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{command_script, with_parameters};

    #[test]
    fn given_a_statement_when_its_parameters_are_replaced_then_ten_is_not_one_and_zero() {
        let sql = "SELECT $1, $10,\n $2 FROM t WHERE x = $1";
        let out = with_parameters(sql, |n| (n != 2).then(|| format!(":p{n}")));
        assert_eq!(out, "SELECT :p1, :p10,  $2 FROM t WHERE x = :p1");
    }

    #[test]
    fn the_command_script_holds_the_servers_three_statements_with_no_parameter_left() {
        for keyed in [false, true] {
            let script = command_script(keyed);
            let statements: Vec<_> = script.lines().filter(|l| !l.starts_with('\\')).collect();
            assert_eq!(statements.len(), 4, "{script}"); // the targets' read, then the three
            assert!(!script.contains('$'), "a parameter was left: {script}");
            assert!(
                statements[1].contains("session_live") && statements[1].contains("FROM games g")
            );
            assert!(
                statements[3].contains("UPDATE games")
                    && statements[3].contains("INSERT INTO notifications")
            );
            assert_eq!(statements[3].contains("idempotency_keys"), keyed);
        }
    }
}
