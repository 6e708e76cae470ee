//! What the migrated schema holds, from `pg_catalog`: tables, columns,
//! unique keys and foreign keys of the `public` schema.

use diesel::QueryableByName;
use diesel::sql_types::{Array, Bool, Text};
use diesel_async::{AsyncPgConnection, RunQueryDsl};

#[derive(Debug, QueryableByName)]
pub struct Column {
    #[diesel(sql_type = Text)]
    pub table_name: String,
    #[diesel(sql_type = Text)]
    pub column_name: String,
    #[diesel(sql_type = Bool)]
    pub not_null: bool,
    #[diesel(sql_type = Text)]
    pub type_name: String,
}

/// A primary key, unique constraint, unique index or exclusion constraint:
/// its key columns (`(expression)` for an expression).
#[derive(Debug, QueryableByName)]
pub struct UniqueKey {
    #[diesel(sql_type = Text)]
    pub table_name: String,
    #[diesel(sql_type = Text)]
    pub index_name: String,
    #[diesel(sql_type = Array<Text>)]
    pub columns: Vec<String>,
}

/// A foreign key: `from_columns` of `from_table` reference `to_columns` of
/// `to_table`, in that order; the actions as `pg_constraint` codes (`a` no
/// action, `r` restrict, `c` cascade, `n` set null, `d` set default).
#[derive(Debug, QueryableByName)]
pub struct ForeignKey {
    #[diesel(sql_type = Text)]
    pub name: String,
    #[diesel(sql_type = Text)]
    pub from_table: String,
    #[diesel(sql_type = Array<Text>)]
    pub from_columns: Vec<String>,
    #[diesel(sql_type = Text)]
    pub to_table: String,
    #[diesel(sql_type = Array<Text>)]
    pub to_columns: Vec<String>,
    #[diesel(sql_type = Text)]
    pub on_delete: String,
    #[diesel(sql_type = Text)]
    pub on_update: String,
}

#[derive(Debug, QueryableByName)]
struct Table {
    #[diesel(sql_type = Text)]
    name: String,
}

/// The schema's tables and their keys.
#[derive(Debug)]
pub struct Catalog {
    pub tables: Vec<String>,
    pub columns: Vec<Column>,
    pub unique_keys: Vec<UniqueKey>,
    pub foreign_keys: Vec<ForeignKey>,
}

impl Catalog {
    /// The column `column` of `table`, if there is one.
    pub fn column(&self, table: &str, column: &str) -> Option<&Column> {
        self.columns
            .iter()
            .find(|c| c.table_name == table && c.column_name == column)
    }
}

const TABLES: &str = "
SELECT c.relname::text AS name
  FROM pg_class c
 WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
 ORDER BY 1";

const COLUMNS: &str = "
SELECT c.relname::text AS table_name, a.attname::text AS column_name, a.attnotnull AS not_null,
       format_type(a.atttypid, a.atttypmod) AS type_name
  FROM pg_attribute a
  JOIN pg_class c ON c.oid = a.attrelid
 WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
   AND a.attnum > 0 AND NOT a.attisdropped";

const UNIQUE_KEYS: &str = "
SELECT t.relname::text AS table_name, i.relname::text AS index_name,
       ARRAY(SELECT coalesce(a.attname::text, '(expression)')
               FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS k (attnum, n)
               LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum
              WHERE k.n <= x.indnkeyatts
              ORDER BY k.n) AS columns
  FROM pg_index x
  JOIN pg_class t ON t.oid = x.indrelid
  JOIN pg_class i ON i.oid = x.indexrelid
 WHERE t.relnamespace = 'public'::regnamespace AND (x.indisunique OR x.indisexclusion)
 ORDER BY 1, 2";

const FOREIGN_KEYS: &str = "
SELECT k.conname::text AS name,
       s.relname::text AS from_table,
       ARRAY(SELECT a.attname::text
               FROM unnest(k.conkey) WITH ORDINALITY AS c (attnum, n)
               JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = c.attnum
              ORDER BY c.n) AS from_columns,
       r.relname::text AS to_table,
       ARRAY(SELECT a.attname::text
               FROM unnest(k.confkey) WITH ORDINALITY AS c (attnum, n)
               JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = c.attnum
              ORDER BY c.n) AS to_columns,
       k.confdeltype::text AS on_delete, k.confupdtype::text AS on_update
  FROM pg_constraint k
  JOIN pg_class s ON s.oid = k.conrelid
  JOIN pg_class r ON r.oid = k.confrelid
 WHERE k.contype = 'f' AND s.relnamespace = 'public'::regnamespace
 ORDER BY 2, 1";

/// Reads the schema of the database `conn` is connected to.
pub async fn read(conn: &mut AsyncPgConnection) -> Catalog {
    let tables: Vec<Table> = diesel::sql_query(TABLES).load(conn).await.unwrap();
    Catalog {
        tables: tables.into_iter().map(|t| t.name).collect(),
        columns: diesel::sql_query(COLUMNS).load(conn).await.unwrap(),
        unique_keys: diesel::sql_query(UNIQUE_KEYS).load(conn).await.unwrap(),
        foreign_keys: diesel::sql_query(FOREIGN_KEYS).load(conn).await.unwrap(),
    }
}
