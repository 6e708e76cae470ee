//! The statements whose cost must not grow with the server's history, for
//! the test that reads their plans (`tests/api/plans.rs`): every read of one
//! user's rows (the inbox in each of its shapes, the notification feed, the
//! export) and every worker's look for due rows (bots, deadlines, mail,
//! webhooks, pruning, compaction, archiving).
//!
//! Rules the test holds each one to, on a database with enough rows that a
//! bad plan shows: no sequential scan of a table that grows; a per-user
//! statement removes no row of another user (a user with no rows reads
//! none); a worker's removes none but live rows. A statement added to a
//! hot path belongs here.

/// Whose rows a statement reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reads {
    /// One user's own rows (`{user}` in its arguments).
    OneUser,
    /// The rows that are due (a worker's).
    Due,
}

/// One hot statement, as the server sends it.
#[derive(Debug, Clone)]
pub struct Hot {
    /// What it is, for a failure's message.
    pub name: String,
    /// Whose rows it reads.
    pub reads: Reads,
    /// The SQL text.
    pub sql: String,
    /// Whether the server keeps its prepared statement (`db::prepared`): then
    /// PostgreSQL may settle on a generic plan, which must be as good.
    pub cached: bool,
    /// Its parameters' types, in order (for `PREPARE`).
    pub types: &'static [&'static str],
    /// Its arguments as SQL expressions; the test replaces `{user}` with the
    /// user it asks for, `{cursor_at}` and `{cursor_id}` with a cursor into
    /// that user's rows, and `{batch}` with a worker's batch size scaled to
    /// the test's tables (a batch the server deletes, 1,000 rows, is as
    /// small a share of a production table as 16 rows are of the test's).
    pub args: Vec<&'static str>,
}

/// Every hot statement.
#[must_use]
pub fn hot() -> Vec<Hot> {
    use super::{archive, bots, games, mail, notifications, push, retention, webhooks};
    let mut all = Vec::new();
    for bits in 0..8u8 {
        let (status, cursor, my_turn) = (bits & 1 != 0, bits & 2 != 0, bits & 4 != 0);
        if my_turn && !status {
            // `turn=mine` always asks for a status (active, unless given).
            continue;
        }
        all.push(Hot {
            name: format!("inbox (status: {status}, cursor: {cursor}, turn=mine: {my_turn})"),
            reads: Reads::OneUser,
            cached: true,
            sql: games::member_sql(status, cursor, my_turn).to_owned(),
            types: &[
                "uuid",
                "text",
                "timestamptz",
                "uuid",
                "text",
                "uuid",
                "int8",
            ],
            args: vec![
                "{user}",
                if my_turn {
                    "'active'"
                } else if status {
                    "'finished'"
                } else {
                    "NULL"
                },
                if cursor { "{cursor_at}" } else { "NULL" },
                if cursor { "{cursor_id}" } else { "NULL" },
                "NULL",
                "{user}",
                "21",
            ],
        });
    }
    all.push(Hot {
        name: "export of a user's games".to_owned(),
        reads: Reads::OneUser,
        cached: true,
        sql: games::ENDED_OF_USER.to_owned(),
        types: &["uuid", "timestamptz", "uuid", "int8"],
        args: vec![
            "{user}",
            "'-infinity'",
            "'00000000-0000-0000-0000-000000000000'",
            "50",
        ],
    });
    all.push(Hot {
        name: "notification feed".to_owned(),
        reads: Reads::OneUser,
        cached: false,
        sql: notifications::FEED.to_owned(),
        types: &["uuid", "int8", "int8"],
        args: vec!["{user}", "0", "100"],
    });
    all.push(Hot {
        name: "export of every game, from the last page".to_owned(),
        reads: Reads::Due,
        cached: true,
        sql: games::ENDED.to_owned(),
        types: &["timestamptz", "uuid", "int8"],
        args: vec![
            "now() - interval '1 hour'",
            "'00000000-0000-0000-0000-000000000000'",
            "50",
        ],
    });
    all.push(Hot {
        name: "bot worker: waiting turns".to_owned(),
        reads: Reads::Due,
        cached: true,
        sql: bots::WAITING.to_owned(),
        types: &["int8"],
        args: vec!["16"],
    });
    all.push(Hot {
        name: "deadline worker: due games".to_owned(),
        reads: Reads::Due,
        cached: false,
        sql: games::DUE_DEADLINES.to_owned(),
        types: &[],
        args: vec![],
    });
    all.push(Hot {
        name: "mail worker: due mails".to_owned(),
        reads: Reads::Due,
        cached: false,
        sql: mail::CLAIM.to_owned(),
        types: &["float8"],
        args: vec!["30"],
    });
    all.push(Hot {
        name: "webhook worker: due deliveries".to_owned(),
        reads: Reads::Due,
        cached: false,
        sql: webhooks::CLAIM.to_owned(),
        types: &["float8"],
        args: vec!["30"],
    });
    all.push(Hot {
        name: "push worker: due pushes".to_owned(),
        reads: Reads::Due,
        cached: false,
        sql: push::CLAIM.to_owned(),
        types: &["float8"],
        args: vec!["30"],
    });
    for what in retention::Expiring::ALL {
        all.push(Hot {
            name: format!("pruner: {what:?}"),
            reads: Reads::Due,
            cached: false,
            sql: what.statement().to_owned(),
            types: &["timestamptz", "int8"],
            args: vec!["now() - interval '30 days'", "{batch}"],
        });
    }
    all.push(Hot {
        name: "pruner: compaction".to_owned(),
        reads: Reads::Due,
        cached: false,
        sql: retention::COMPACT.to_owned(),
        types: &["int8"],
        args: vec!["{batch}"],
    });
    all.push(Hot {
        name: "archiver: games due".to_owned(),
        reads: Reads::Due,
        cached: false,
        sql: archive::DUE.to_owned(),
        types: &["timestamptz", "int8"],
        args: vec!["now() - interval '30 days'", "{batch}"],
    });
    all
}
