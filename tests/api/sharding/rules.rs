//! The rules a Citus cluster holds each class of table to, checked against
//! the schema. Each violation is one line naming the table and the rule.

use super::catalog::{Catalog, ForeignKey};
use super::plan::{Class, Plan};

/// Every rule broken by `catalog` under `plan`.
pub fn violations(plan: &Plan, catalog: &Catalog) -> Vec<String> {
    let mut out = Vec::new();
    every_table_has_one_class(plan, catalog, &mut out);
    for (table, classified) in plan {
        if let Class::Distributed { column, group } = &classified.class {
            distribution_column(plan, catalog, table, column, group, &mut out);
            unique_keys_include_it(catalog, table, column, &mut out);
        }
    }
    for key in &catalog.foreign_keys {
        foreign_key(plan, key, &mut out);
    }
    out
}

/// Every table of the schema is classified, and only those.
fn every_table_has_one_class(plan: &Plan, catalog: &Catalog, out: &mut Vec<String>) {
    for table in &catalog.tables {
        if !plan.contains_key(table) {
            out.push(format!(
                "`{table}`: every table has a class: none in deploy/citus.sql (distribute it, \
                 make it a reference table, or mark it `-- local: {table}`)"
            ));
        }
    }
    for table in plan.keys() {
        if !catalog.tables.contains(table) {
            out.push(format!(
                "`{table}`: only tables of the schema are classified: deploy/citus.sql names it, \
                 the migrations do not create it"
            ));
        }
    }
}

/// The distribution column exists, is `NOT NULL` (a row without it has no
/// shard), and has the type of its co-location group's.
fn distribution_column(
    plan: &Plan,
    catalog: &Catalog,
    table: &str,
    column: &str,
    group: &str,
    out: &mut Vec<String>,
) {
    let Some(found) = catalog.column(table, column) else {
        if catalog.tables.iter().any(|t| t == table) {
            out.push(format!(
                "`{table}`: the distribution column exists: `{column}` does not"
            ));
        }
        return;
    };
    if !found.not_null {
        out.push(format!(
            "`{table}`: the distribution column is NOT NULL: `{column}` is nullable"
        ));
    }
    let anchor = plan.get(group).and_then(|c| match &c.class {
        Class::Distributed { column, .. } => catalog.column(group, column),
        _ => None,
    });
    if let Some(anchor) = anchor
        && anchor.type_name != found.type_name
    {
        out.push(format!(
            "`{table}`: co-located tables are distributed by one type: `{column}` is {}, \
             `{group}`.`{}` is {}",
            found.type_name, anchor.column_name, anchor.type_name
        ));
    }
}

/// Every primary key, unique constraint and unique index includes the
/// distribution column: a shard can enforce only keys that include it.
fn unique_keys_include_it(catalog: &Catalog, table: &str, column: &str, out: &mut Vec<String>) {
    for key in catalog.unique_keys.iter().filter(|k| k.table_name == table) {
        if !key.columns.iter().any(|c| c == column) {
            out.push(format!(
                "`{table}`: unique keys include the distribution column: `{}` ({}) lacks `{column}`",
                key.index_name,
                key.columns.join(", ")
            ));
        }
    }
}

/// A foreign key joins tables a cluster can check together: co-located
/// distributed tables on their distribution columns, or any table with a
/// reference table, or local tables with each other; it never changes a
/// distribution column; and the table it points at is classified first
/// (Citus distributes in that order).
fn foreign_key(plan: &Plan, key: &ForeignKey, out: &mut Vec<String>) {
    let (Some(from), Some(to)) = (plan.get(&key.from_table), plan.get(&key.to_table)) else {
        return; // an unclassified table is reported already
    };
    let (name, from_table, to_table) = (&key.name, &key.from_table, &key.to_table);
    let supported = match (&from.class, &to.class) {
        (Class::Local, Class::Local) => false, // the coordinator checks it; no order
        (Class::Local, _) | (_, Class::Local) => {
            out.push(format!(
                "`{from_table}`: local tables have foreign keys only among themselves: \
                 `{name}` joins it with `{to_table}`"
            ));
            false
        }
        (_, Class::Reference) => true,
        (Class::Reference, Class::Distributed { .. }) => {
            out.push(format!(
                "`{from_table}`: no foreign key from a reference table to a distributed table: \
                 `{name}` points at `{to_table}`"
            ));
            false
        }
        (
            Class::Distributed {
                column: from_column,
                group: from_group,
            },
            Class::Distributed {
                column: to_column,
                group: to_group,
            },
        ) => co_located(key, (from_column, from_group), (to_column, to_group), out),
    };
    if let Class::Distributed { column, .. } = &from.class
        && key.from_columns.contains(column)
        && (matches!(key.on_delete.as_str(), "n" | "d")
            || matches!(key.on_update.as_str(), "n" | "d" | "c"))
    {
        out.push(format!(
            "`{from_table}`: a foreign key never changes the distribution column: `{name}` \
             sets or cascades `{column}` (ON DELETE SET NULL/DEFAULT or ON UPDATE)"
        ));
    }
    if supported && from_table != to_table && to.order > from.order {
        out.push(format!(
            "`{from_table}`: a table comes after the tables it references in deploy/citus.sql: \
             `{name}` points at `{to_table}`, classified later"
        ));
    }
}

/// A foreign key between distributed tables, given as (distribution column,
/// co-location group) of each side: whether it joins co-located tables on
/// both distribution columns, paired.
fn co_located(
    key: &ForeignKey,
    (from_column, from_group): (&str, &str),
    (to_column, to_group): (&str, &str),
    out: &mut Vec<String>,
) -> bool {
    let (name, from_table, to_table) = (&key.name, &key.from_table, &key.to_table);
    let before = out.len();
    if from_group != to_group {
        out.push(format!(
            "`{from_table}`: foreign keys between distributed tables join co-located tables: \
             `{name}` points at `{to_table}` (co-located with `{to_group}`, `{from_table}` \
             with `{from_group}`)"
        ));
    }
    let at = key.from_columns.iter().position(|c| c == from_column);
    if at.is_none() || at != key.to_columns.iter().position(|c| c == to_column) {
        out.push(format!(
            "`{from_table}`: foreign keys between distributed tables join their distribution \
             columns: `{name}` ({}) → `{to_table}` ({}) does not pair `{from_column}` with \
             `{to_column}`",
            key.from_columns.join(", "),
            key.to_columns.join(", ")
        ));
    }
    out.len() == before
}
