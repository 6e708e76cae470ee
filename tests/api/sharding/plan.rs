//! `deploy/citus.sql` read as data: which class each table has.
//!
//! The file's statements say it: `create_distributed_table('t', 'column',
//! colocate_with => 'none' | '<table distributed before>')`,
//! `create_reference_table('t')`; and a comment line `-- local: t` leaves a
//! table on the coordinator. Any other statement or comment is not read.

use std::collections::BTreeMap;

/// The class of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Class {
    /// Sharded by `column`; tables of one `group` keep equal values on one node.
    Distributed { column: String, group: String },
    /// Copied to every node.
    Reference,
    /// Left on the coordinator.
    Local,
}

/// A classified table: its class and the place of its statement in the file
/// (Citus needs a table a foreign key points at to be distributed first).
#[derive(Debug, Clone)]
pub struct Classified {
    pub class: Class,
    pub order: usize,
}

/// The classification, or what is wrong with the file.
pub type Plan = BTreeMap<String, Classified>;

/// The file in the repository.
pub fn committed() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/citus.sql")).unwrap()
}

/// Reads `text`; every problem found is a line of the error.
pub fn parse(text: &str) -> Result<Plan, Vec<String>> {
    let mut plan = Plan::new();
    let mut problems = Vec::new();
    let mut sql = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(table) = trimmed.strip_prefix("-- local:") {
            classify(&mut plan, &mut problems, table.trim(), Class::Local);
        } else {
            sql.push_str(trimmed.split("--").next().unwrap_or_default());
            sql.push('\n');
        }
    }
    for statement in sql.split(';') {
        if let Some(args) = call(statement, "create_reference_table") {
            match args.as_slice() {
                [Arg::Positional(table)] => {
                    classify(&mut plan, &mut problems, table, Class::Reference);
                }
                _ => problems.push(format!(
                    "deploy/citus.sql: cannot read `{}`",
                    statement.trim()
                )),
            }
        } else if let Some(args) = call(statement, "create_distributed_table") {
            distributed(&mut plan, &mut problems, statement, &args);
        }
    }
    if problems.is_empty() {
        Ok(plan)
    } else {
        Err(problems)
    }
}

fn distributed(plan: &mut Plan, problems: &mut Vec<String>, statement: &str, args: &[Arg]) {
    let [Arg::Positional(table), Arg::Positional(column), rest @ ..] = args else {
        problems.push(format!(
            "deploy/citus.sql: cannot read `{}`",
            statement.trim()
        ));
        return;
    };
    let colocate = rest.iter().find_map(|a| match a {
        Arg::Named(name, value) if name == "colocate_with" => Some(value.as_str()),
        _ => None,
    });
    let group = match colocate {
        Some("none") => table.clone(),
        Some(other) => match plan.get(other).map(|c| &c.class) {
            Some(Class::Distributed { group, .. }) => group.clone(),
            _ => {
                problems.push(format!(
                    "`{table}`: colocate_with '{other}' must name a table distributed above it"
                ));
                return;
            }
        },
        None => {
            problems.push(format!(
                "`{table}`: say `colocate_with => 'none'` or the table it is co-located with \
                 (Citus would otherwise co-locate it with any table of the same column type)"
            ));
            return;
        }
    };
    let class = Class::Distributed {
        column: column.clone(),
        group,
    };
    classify(plan, problems, table, class);
}

fn classify(plan: &mut Plan, problems: &mut Vec<String>, table: &str, class: Class) {
    let order = plan.len();
    if plan
        .insert(table.to_owned(), Classified { class, order })
        .is_some()
    {
        problems.push(format!("`{table}`: classified twice in deploy/citus.sql"));
    }
}

/// An argument of a call: `'value'` or `name => 'value'`.
#[derive(Debug)]
enum Arg {
    Positional(String),
    Named(String, String),
}

/// The arguments of `SELECT function(...)` when `statement` is that call.
fn call(statement: &str, function: &str) -> Option<Vec<Arg>> {
    let start = statement.find(&format!("{function}("))? + function.len() + 1;
    let end = statement.rfind(')')?;
    let args = statement.get(start..end)?;
    Some(
        args.split(',')
            .map(|arg| match arg.split_once("=>") {
                Some((name, value)) => Arg::Named(name.trim().to_owned(), unquote(value)),
                None => Arg::Positional(unquote(arg)),
            })
            .collect(),
    )
}

fn unquote(value: &str) -> String {
    value.trim().trim_matches('\'').to_owned()
}
