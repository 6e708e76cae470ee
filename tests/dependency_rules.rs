//! The dependency rules of the source tree, read from the code: every `use`
//! line and every `crate::`/`super::` path of `src/` and `engine/src`
//! (test modules and files named `tests` left out) is resolved to the file
//! it names, and the rules below are held against those imports.
//!
//! The rules (docs/layout.md, "The arrows point one way"):
//! 1. The edge is `routes/`, `startup.rs`, `web.rs`, `openapi/`, the
//!    binary (`main.rs`, `tools/`): nothing else imports from it.
//! 2. The edge reaches the store through a use case: `routes/` imports
//!    nothing from `db/` (but `routes/app_state.rs`, which holds the pools
//!    `startup` made).
//! 3. The store imports no use case: `db/` imports only `db/`, `error.rs`,
//!    `record/`, `config.rs`, `rate.rs` (the pure rate rule) and the engine.
//! 4. The record is pure: `record/` imports only `record/`, `error.rs` and
//!    the engine.
//! 5. HTTP stays at the edge: only the edge, `metrics/` (its request
//!    middleware) and the webhook deliveries (an HTTP client) name
//!    `actix_web`, `actix_*` or `awc`.
//! 6. Diesel stays in the store: only `db/` names `diesel` or
//!    `diesel_async`, but for a use case's transaction
//!    (`diesel_async::AsyncConnection`).
//! 7. No circle: between the files of `src/` and of `engine/src`, and
//!    between the children (files and folders) of any one folder. A file's
//!    use of its own folder's `mod.rs` (or the crate's `lib.rs`) is a use of
//!    the folder it is in, not of a sibling.
//!
//! A broken rule is named with the import that breaks it
//! (`file:line: path`).
//!
//! [`OPEN`] lists the imports that still break a rule (from file, to file):
//! work not done yet, each named. A test fails when one of them is gone, so
//! the list only shrinks. It is empty: every rule holds, and a change that
//! breaks one names the import that does.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One import: where it is written, the path as written, the file it names.
#[derive(Debug, Clone)]
struct Import {
    from: String,
    line: usize,
    path: String,
    to: String,
}

impl std::fmt::Display for Import {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: {} (-> {})",
            self.from, self.line, self.path, self.to
        )
    }
}

/// The files of one crate's source folder, by module path.
struct Tree {
    /// `src` or `engine/src`.
    root: String,
    /// Module path (`["games", "join"]`) to file (`src/games/join.rs`).
    modules: BTreeMap<Vec<String>, String>,
}

/// The imports that still break a rule: (from file, to file or crate).
const OPEN: &[(&str, &str)] = &[];

fn is_open(import: &Import) -> bool {
    OPEN.iter()
        .any(|(from, to)| import.from == *from && import.to == *to)
}

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("a source folder")
        .map(|e| e.expect("an entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Test code is left out: a file named `tests.rs` or under a `tests` folder.
fn is_test_file(rel: &str) -> bool {
    rel.split('/')
        .any(|part| part == "tests" || part == "tests.rs")
}

impl Tree {
    fn read(root: &str) -> Self {
        let mut files = Vec::new();
        rust_files(&manifest_dir().join(root), &mut files);
        let mut modules = BTreeMap::new();
        for file in files {
            let rel = file
                .strip_prefix(manifest_dir())
                .expect("inside the package")
                .to_string_lossy()
                .replace('\\', "/");
            if is_test_file(&rel) {
                continue;
            }
            let inner = rel[root.len() + 1..].trim_end_matches(".rs").to_owned();
            let mut path: Vec<String> = inner.split('/').map(str::to_owned).collect();
            if matches!(
                path.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                path.pop();
            }
            if path.is_empty() && modules.contains_key(&path) {
                // main.rs beside lib.rs: both are a crate root.
                modules.insert(vec!["<main>".to_owned()], rel);
            } else {
                modules.insert(path, rel);
            }
        }
        Self {
            root: root.to_owned(),
            modules,
        }
    }

    fn module_of(&self, file: &str) -> Vec<String> {
        self.modules
            .iter()
            .find(|(_, f)| f.as_str() == file)
            .map(|(m, _)| {
                if m == &["<main>"] {
                    Vec::new()
                } else {
                    m.clone()
                }
            })
            .expect("a known file")
    }

    /// The file a module path names: the longest prefix that is a module.
    fn file_of(&self, path: &[String]) -> Option<&String> {
        (0..=path.len())
            .rev()
            .find_map(|n| self.modules.get(&path[..n]))
    }
}

/// The code of a file without comments, string and character literals, and
/// without its inline test modules (`#[cfg(test)] mod … { … }`).
fn code(text: &str) -> Vec<(usize, String)> {
    let mut out = String::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                if chars[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 2;
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !ident_before(&chars, i) {
            // A raw string: r"…", r#"…"#.
            let mut hashes = 0;
            let mut j = i + 1;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) == Some(&'"') {
                j += 1;
                loop {
                    if j >= chars.len() {
                        break;
                    }
                    if chars[j] == '"' && (1..=hashes).all(|k| chars.get(j + k) == Some(&'#')) {
                        j += 1 + hashes;
                        break;
                    }
                    if chars[j] == '\n' {
                        out.push('\n');
                    }
                    j += 1;
                }
                out.push_str("\"\"");
                i = j;
            } else {
                out.push(c);
                i += 1;
            }
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                if chars.get(i) == Some(&'\n') {
                    out.push('\n');
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{1F3A9}') or a lifetime.
            if next == Some('\\') {
                let mut j = i + 2;
                while j < chars.len() && chars[j] != '\'' {
                    j += 1;
                }
                i = j + 1;
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    drop_test_modules(&out)
}

fn ident_before(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

fn drop_test_modules(code: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() == "#[cfg(test)]" {
            let mut j = i + 1;
            while j < lines.len() && lines[j].trim_start().starts_with("#[") {
                j += 1;
            }
            let header = lines.get(j).map_or("", |l| l.trim());
            if (header.starts_with("mod ") || header.starts_with("pub mod "))
                && header.ends_with('{')
            {
                let mut depth = 0i32;
                let mut k = j;
                loop {
                    depth += lines[k].matches('{').count() as i32;
                    depth -= lines[k].matches('}').count() as i32;
                    k += 1;
                    if depth <= 0 || k >= lines.len() {
                        break;
                    }
                }
                i = k;
                continue;
            }
        }
        out.push((i + 1, lines[i].to_owned()));
        i += 1;
    }
    out
}

/// The paths named in code: each `use` tree expanded, and each path that
/// starts with `crate`, `super`, `self` or the crates' names elsewhere.
/// The head of a `use` path that is none of those is kept as written (a
/// child module, or another crate).
fn paths(lines: &[(usize, String)]) -> Vec<(usize, Vec<String>)> {
    // Tokens: identifiers, `::`, and single punctuation, with their lines.
    let mut tokens: Vec<(usize, String)> = Vec::new();
    for (n, line) in lines {
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c.is_alphanumeric() || c == '_' {
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                tokens.push((*n, chars[start..i].iter().collect()));
            } else if c == ':' && chars.get(i + 1) == Some(&':') {
                tokens.push((*n, "::".to_owned()));
                i += 2;
            } else {
                if !c.is_whitespace() {
                    tokens.push((*n, c.to_string()));
                }
                i += 1;
            }
        }
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let (n, word) = &tokens[i];
        let after_colons = i > 0 && tokens[i - 1].1 == "::";
        if word == "use" && !after_colons {
            let mut j = i + 1;
            let mut found = Vec::new();
            use_tree(&tokens, &mut j, Vec::new(), &mut found);
            out.extend(found);
            i = j;
        } else if !after_colons
            && matches!(
                word.as_str(),
                "crate" | "super" | "self" | "hatstand" | "hatstand_engine"
            )
            && tokens.get(i + 1).is_some_and(|t| t.1 == "::")
        {
            let mut path = vec![word.clone()];
            let mut j = i + 1;
            while tokens.get(j).is_some_and(|t| t.1 == "::")
                && tokens.get(j + 1).is_some_and(|t| is_ident(&t.1))
            {
                path.push(tokens[j + 1].1.clone());
                j += 2;
            }
            out.push((*n, path));
            i = j;
        } else if !after_colons
            && matches!(
                word.as_str(),
                "diesel" | "diesel_async" | "actix_web" | "awc"
            )
            && tokens.get(i + 1).is_some_and(|t| t.1 == "::")
            && !(i > 0 && (tokens[i - 1].1 == "." || is_ident(&tokens[i - 1].1)))
        {
            out.push((*n, vec![word.clone()]));
            i += 1;
        } else {
            i += 1;
        }
    }
    out
}

fn is_ident(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// One `use` tree from `tokens[*j]` on, its paths pushed onto `out`.
fn use_tree(
    tokens: &[(usize, String)],
    j: &mut usize,
    prefix: Vec<String>,
    out: &mut Vec<(usize, Vec<String>)>,
) {
    let mut path = prefix;
    let line = tokens.get(*j).map_or(0, |t| t.0);
    while let Some((_, t)) = tokens.get(*j) {
        match t.as_str() {
            "::" => *j += 1,
            "{" => {
                *j += 1;
                loop {
                    use_tree(tokens, j, path.clone(), out);
                    match tokens.get(*j).map(|t| t.1.as_str()) {
                        Some(",") => *j += 1,
                        Some("}") => {
                            *j += 1;
                            break;
                        }
                        _ => break,
                    }
                    if tokens.get(*j).is_some_and(|t| t.1 == "}") {
                        *j += 1;
                        break;
                    }
                }
                return;
            }
            "as" => {
                *j += 2;
                break;
            }
            "*" => {
                *j += 1;
                break;
            }
            "," | "}" | ";" => break,
            word if is_ident(word) => {
                path.push(word.to_owned());
                *j += 1;
            }
            _ => {
                *j += 1;
                break;
            }
        }
    }
    if tokens.get(*j).is_some_and(|t| t.1 == ";") && path.len() > 1 || !path.is_empty() {
        out.push((line, path));
    }
}

/// The imports of every file of `tree`, resolved to files of the tree (or to
/// `engine`, `diesel`, `actix_web` for those crates); other crates dropped.
fn imports(tree: &Tree, engine_crate: bool) -> Vec<Import> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for file in tree.modules.values() {
        let text = std::fs::read_to_string(manifest_dir().join(file)).expect("a readable file");
        let here = tree.module_of(file);
        for (line, path) in paths(&code(&text)) {
            let written = path.join("::");
            let Some(to) = resolve(tree, &here, &path, engine_crate) else {
                continue;
            };
            if &to == file || !seen.insert((file.clone(), line, to.clone())) {
                continue;
            }
            out.push(Import {
                from: file.clone(),
                line,
                path: written,
                to,
            });
        }
    }
    out
}

fn resolve(tree: &Tree, here: &[String], path: &[String], engine_crate: bool) -> Option<String> {
    let head = path.first()?.as_str();
    let rest = &path[1..];
    let mut module: Vec<String> = match head {
        "diesel" | "diesel_async" => return Some("diesel".to_owned()),
        "actix_web" | "awc" => return Some("actix_web".to_owned()),
        "actix_tls" | "actix_http" | "tracing_actix_web" | "utoipa_actix_web" => {
            return Some("actix_web".to_owned());
        }
        "hatstand_engine" => return Some("engine".to_owned()),
        "crate" if engine_crate => rest.to_vec(),
        "crate" | "hatstand" => {
            if rest.first().is_some_and(|r| r == "engine") {
                return Some("engine".to_owned());
            }
            rest.to_vec()
        }
        "self" => here.iter().cloned().chain(rest.iter().cloned()).collect(),
        "super" => {
            let mut base = here.to_vec();
            // A file `a/b.rs` is module `a::b`; its `super` is `a`. A
            // `mod.rs` is its folder's module, whose `super` is one up.
            let mut segments = path;
            while segments.first().is_some_and(|s| s == "super") {
                base.pop();
                segments = &segments[1..];
            }
            base.into_iter().chain(segments.iter().cloned()).collect()
        }
        child => {
            let mut candidate = here.to_vec();
            candidate.push(child.to_owned());
            if tree.modules.contains_key(&candidate) {
                here.iter().cloned().chain(path.iter().cloned()).collect()
            } else {
                return None;
            }
        }
    };
    if module.first().is_some_and(|m| m == "<main>") {
        module.remove(0);
    }
    tree.file_of(&module).cloned()
}

/// The first folder or file under the root a file is in (`games`, `db`,
/// `error.rs`).
fn room(tree: &Tree, file: &str) -> String {
    let inner = &file[tree.root.len() + 1..];
    match inner.split_once('/') {
        Some((folder, _)) => folder.to_owned(),
        None => inner.trim_end_matches(".rs").to_owned(),
    }
}

fn server() -> (Tree, Vec<Import>) {
    let tree = Tree::read("src");
    let found = imports(&tree, false);
    (tree, found)
}

/// The imports from files in `from` rooms that name a file in a `to` room
/// (or `diesel`, `actix_web`, `engine`).
fn breaking<'a>(
    tree: &Tree,
    found: &'a [Import],
    from: impl Fn(&str) -> bool,
    allowed: impl Fn(&str) -> bool,
) -> Vec<&'a Import> {
    found
        .iter()
        .filter(|i| !is_open(i))
        .filter(|i| from(&room(tree, &i.from)))
        .filter(|i| {
            let to = if i.to.ends_with(".rs") {
                room(tree, &i.to)
            } else {
                i.to.clone()
            };
            !allowed(&to)
        })
        .collect()
}

fn assert_none(rule: &str, broken: &[&Import]) {
    assert!(
        broken.is_empty(),
        "{rule}, but:\n{}",
        broken
            .iter()
            .map(|i| format!("  {i}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

const EDGE: [&str; 7] = [
    "routes", "startup", "web", "openapi", "main", "tools", "lib",
];

fn is_edge(room: &str) -> bool {
    EDGE.contains(&room)
}

#[test]
fn nothing_but_the_edge_imports_the_edge() {
    let (tree, found) = server();
    let broken = breaking(&tree, &found, |r| !is_edge(r), |to| !is_edge(to));
    assert_none(
        "only the edge (routes/, startup, web, openapi/, the binary) imports the edge",
        &broken,
    );
}

#[test]
fn the_edge_reaches_the_store_through_a_use_case() {
    let (tree, found) = server();
    let broken: Vec<_> = breaking(&tree, &found, |r| r == "routes", |to| to != "db")
        .into_iter()
        .filter(|i| i.from != "src/routes/app_state.rs")
        .collect();
    assert_none(
        "routes/ (but app_state.rs) imports nothing from db/",
        &broken,
    );
}

#[test]
fn the_store_imports_no_use_case() {
    let (tree, found) = server();
    let broken = breaking(
        &tree,
        &found,
        |r| r == "db",
        |to| {
            matches!(
                to,
                "db" | "error" | "record" | "config" | "rate" | "engine" | "diesel"
            )
        },
    );
    assert_none(
        "db/ imports only db/, error.rs, record/, config.rs, rate.rs and the engine",
        &broken,
    );
}

#[test]
fn the_record_uses_only_the_engine() {
    let (tree, found) = server();
    let broken = breaking(
        &tree,
        &found,
        |r| r == "record",
        |to| matches!(to, "record" | "error" | "engine"),
    );
    assert_none(
        "record/ imports only record/, error.rs and the engine",
        &broken,
    );
}

#[test]
fn http_stays_at_the_edge() {
    let (tree, found) = server();
    let broken: Vec<_> = breaking(&tree, &found, |r| !is_edge(r), |to| to != "actix_web")
        .into_iter()
        // The request middleware times requests; webhooks are delivered by
        // an HTTP client.
        .filter(|i| {
            !i.from.starts_with("src/metrics/requests.rs")
                && !i.from.starts_with("src/notifications/webhooks")
        })
        .collect();
    assert_none(
        "only the edge, metrics/requests.rs and the webhook deliveries name actix or awc",
        &broken,
    );
}

#[test]
fn diesel_stays_in_the_store() {
    let (tree, found) = server();
    let broken: Vec<_> = breaking(&tree, &found, |r| r != "db", |to| to != "diesel")
        .into_iter()
        .filter(|i| i.path != "diesel_async::AsyncConnection")
        .collect();
    assert_none(
        "only db/ names diesel or diesel_async (but AsyncConnection, for a transaction)",
        &broken,
    );
}

/// Every circle of `edges` (node to nodes, with an import each), as the
/// imports that close it.
fn circles(edges: &BTreeMap<String, BTreeMap<String, Import>>) -> Vec<Vec<Import>> {
    // Tarjan's strongly connected components, then one circle per component.
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeMap<String, Import>>,
        index: BTreeMap<String, usize>,
        low: BTreeMap<String, usize>,
        stack: Vec<String>,
        on_stack: BTreeSet<String>,
        next: usize,
        components: Vec<Vec<String>>,
    }
    fn visit(s: &mut State<'_>, v: &str) {
        s.index.insert(v.to_owned(), s.next);
        s.low.insert(v.to_owned(), s.next);
        s.next += 1;
        s.stack.push(v.to_owned());
        s.on_stack.insert(v.to_owned());
        let targets: Vec<String> = s
            .edges
            .get(v)
            .map(|t| t.keys().cloned().collect())
            .unwrap_or_default();
        for w in targets {
            if !s.index.contains_key(&w) {
                visit(s, &w);
                let low = s.low[v].min(s.low[&w]);
                s.low.insert(v.to_owned(), low);
            } else if s.on_stack.contains(&w) {
                let low = s.low[v].min(s.index[&w]);
                s.low.insert(v.to_owned(), low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(&w);
                let done = w == v;
                component.push(w);
                if done {
                    break;
                }
            }
            if component.len() > 1 {
                s.components.push(component);
            }
        }
    }
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        components: Vec::new(),
    };
    let nodes: Vec<String> = edges.keys().cloned().collect();
    for v in nodes {
        if !state.index.contains_key(&v) {
            visit(&mut state, &v);
        }
    }
    // One circle through each component: a shortest way back to its start.
    state
        .components
        .iter()
        .map(|component| {
            let members: BTreeSet<&String> = component.iter().collect();
            let start = component.iter().min().expect("a member");
            let mut came: BTreeMap<String, (String, Import)> = BTreeMap::new();
            let mut queue = std::collections::VecDeque::from([start.clone()]);
            let mut back = None;
            while let Some(v) = queue.pop_front() {
                for (w, import) in edges.get(&v).into_iter().flatten() {
                    if !members.contains(w) {
                        continue;
                    }
                    if w == start {
                        back = Some((v.clone(), import.clone()));
                        queue.clear();
                        break;
                    }
                    if !came.contains_key(w) {
                        came.insert(w.clone(), (v.clone(), import.clone()));
                        queue.push_back(w.clone());
                    }
                }
            }
            let (mut at, last) = back.expect("a component is a circle");
            let mut circle = vec![last];
            while &at != start {
                let (prev, import) = came[&at].clone();
                circle.push(import);
                at = prev;
            }
            circle.reverse();
            circle
        })
        .collect()
}

/// Whether an import names the `mod.rs` (or `lib.rs`, `main.rs`) of a
/// folder its file is in: that is the folder itself, whose children its
/// `mod.rs` declares, not a sibling file.
fn is_own_folder(import: &Import) -> bool {
    ["/mod.rs", "/lib.rs", "/main.rs"].iter().any(|root| {
        import
            .to
            .strip_suffix(root)
            .is_some_and(|folder| import.from.starts_with(&format!("{folder}/")))
    })
}

/// The circles between files, and between the children of every folder.
fn all_circles(tree: &Tree, found: &[Import]) -> Vec<(String, Vec<Import>)> {
    let mut out = Vec::new();
    let in_tree = |to: &str| to.ends_with(".rs");
    // Files.
    let mut edges: BTreeMap<String, BTreeMap<String, Import>> = BTreeMap::new();
    let found: Vec<&Import> = found
        .iter()
        .filter(|i| !is_open(i) && !is_own_folder(i))
        .collect();
    for i in found.iter().filter(|i| in_tree(&i.to)) {
        edges
            .entry(i.from.clone())
            .or_default()
            .entry(i.to.clone())
            .or_insert_with(|| (*i).clone());
    }
    for circle in circles(&edges) {
        out.push(("files".to_owned(), circle));
    }
    // The children of each folder: a file, or a folder with all it holds
    // (a folder's own `mod.rs` stands for the folder). A folder's files may
    // use their own folder's `mod.rs`: that is the folder, not a sibling.
    let folders: BTreeSet<String> = tree
        .modules
        .values()
        .filter_map(|f| f.rsplit_once('/').map(|(d, _)| d.to_owned()))
        .collect();
    for folder in folders {
        let child = |file: &str| -> Option<String> {
            let inner = file.strip_prefix(&format!("{folder}/"))?;
            let name = match inner.split_once('/') {
                Some((sub, _)) => sub.to_owned(),
                None => inner.trim_end_matches(".rs").to_owned(),
            };
            // mod.rs/lib.rs/main.rs: the folder itself, not one of its children.
            (!matches!(name.as_str(), "mod" | "lib" | "main")).then_some(name)
        };
        let mut edges: BTreeMap<String, BTreeMap<String, Import>> = BTreeMap::new();
        for i in found.iter().filter(|i| in_tree(&i.to)) {
            let (Some(a), Some(b)) = (child(&i.from), child(&i.to)) else {
                continue;
            };
            if a != b {
                edges
                    .entry(a)
                    .or_default()
                    .entry(b)
                    .or_insert_with(|| (*i).clone());
            }
        }
        for circle in circles(&edges) {
            out.push((format!("children of {folder}/"), circle));
        }
    }
    out
}

fn assert_no_circle(tree: &Tree, found: &[Import]) {
    let circles = all_circles(tree, found);
    assert!(
        circles.is_empty(),
        "no circle between files or folders of {}, but:\n{}",
        tree.root,
        circles
            .iter()
            .map(|(level, circle)| format!(
                "  a circle between {level}:\n{}",
                circle
                    .iter()
                    .map(|i| format!("    {i}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            ))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn no_circle_between_the_servers_files_or_folders() {
    let (tree, found) = server();
    assert_no_circle(&tree, &found);
}

#[test]
fn no_circle_between_the_engines_files_or_folders() {
    let tree = Tree::read("engine/src");
    let found = imports(&tree, true);
    assert_no_circle(&tree, &found);
}

#[test]
fn every_open_import_is_still_there() {
    let (_, server) = server();
    let engine = imports(&Tree::read("engine/src"), true);
    let gone: Vec<_> = OPEN
        .iter()
        .filter(|(from, to)| {
            !server
                .iter()
                .chain(&engine)
                .any(|i| i.from == *from && i.to == *to)
        })
        .collect();
    assert!(
        gone.is_empty(),
        "these imports are gone: take them off OPEN: {gone:?}"
    );
}

// The reader itself, on code it must read right.

#[test]
fn a_use_tree_is_read_to_each_path_it_names() {
    let lines = code(
        "use crate::{a::b, c::{d, e as f}, g};\nuse super::h::*;\nfn x() { crate::i::j(); let s = \"crate::no\"; }\n// crate::comment\n",
    );
    let found: Vec<String> = paths(&lines)
        .into_iter()
        .map(|(_, p)| p.join("::"))
        .collect();
    assert_eq!(
        found,
        [
            "crate::a::b",
            "crate::c::d",
            "crate::c::e",
            "crate::g",
            "super::h",
            "crate::i::j"
        ]
    );
}

#[test]
fn a_test_module_is_left_out() {
    let lines =
        code("use crate::a;\n#[cfg(test)]\nmod tests {\n    use crate::b;\n}\nuse crate::c;\n");
    let found: Vec<String> = paths(&lines)
        .into_iter()
        .map(|(_, p)| p.join("::"))
        .collect();
    assert_eq!(found, ["crate::a", "crate::c"]);
}

#[test]
fn a_circle_is_named_by_its_imports() {
    let import = |from: &str, to: &str| Import {
        from: from.to_owned(),
        line: 1,
        path: format!("crate::{to}"),
        to: to.to_owned(),
    };
    let mut edges: BTreeMap<String, BTreeMap<String, Import>> = BTreeMap::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        edges
            .entry(a.to_owned())
            .or_default()
            .insert(b.to_owned(), import(a, b));
    }
    let found = circles(&edges);
    assert_eq!(found.len(), 1);
    let named: Vec<String> = found[0]
        .iter()
        .map(|i| format!("{}->{}", i.from, i.to))
        .collect();
    assert_eq!(named, ["a->b", "b->c", "c->a"]);
}
