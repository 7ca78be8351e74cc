//! The layout docs/ARCHITECTURE.md draws, checked on the sources: the
//! server's crates depend downward only, only `store` speaks SQL, the rooms
//! know nothing of HTTP, the rules crates do no I/O, and inside each of the
//! server's crates no two modules import each other round a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The names in a crate's `[dependencies]` (not dev or build).
fn dependencies(krate: &str) -> BTreeSet<String> {
    let toml = std::fs::read_to_string(crates_dir().join(krate).join("Cargo.toml")).unwrap();
    let mut out = BTreeSet::new();
    let mut inside = false;
    for line in toml.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[dependencies]";
            continue;
        }
        if inside {
            if let Some((name, _)) = line.split_once('=') {
                if !name.trim().starts_with('#') {
                    out.insert(name.trim().to_string());
                }
            }
        }
    }
    out
}

const ROOMS: [&str; 5] = ["accounts", "events", "lobby", "play", "store"];
const RULES: [&str; 14] = [
    "game",
    "xiangqi",
    "chess",
    "shogi",
    "renju",
    "variants",
    "referee",
    "clock",
    "session",
    "record",
    "rating",
    "tournament",
    "registry",
    "engine",
];

#[test]
fn crates_depend_downward_only() {
    // server → rooms → store → common; lobby and events may use play,
    // never back, and never each other.
    let order = ["common", "store", "accounts", "play", "lobby", "server"];
    for (i, krate) in order.iter().enumerate() {
        let deps = dependencies(krate);
        for above in &order[i + 1..] {
            assert!(
                !deps.contains(*above),
                "{krate} depends on {above}, which sits above it"
            );
        }
    }
    assert!(!dependencies("accounts").contains("play") && !dependencies("accounts").contains("lobby"));
    let events = dependencies("events");
    for other in ["server", "lobby", "accounts"] {
        assert!(!events.contains(other), "events depends on {other}");
    }
    for below in ["play", "lobby", "accounts", "store", "common"] {
        assert!(
            !dependencies(below).contains("events"),
            "{below} depends on events, which sits above it"
        );
    }
    assert!(!dependencies("play").contains("accounts"));
}

#[test]
fn only_store_speaks_sql_and_the_rooms_know_no_http() {
    for krate in ["common", "accounts", "play", "lobby", "events", "server", "qiju"] {
        let deps = dependencies(krate);
        for sql in ["sqlx", "rusqlite"] {
            assert!(
                !deps.contains(sql),
                "{krate} depends on {sql}: only store speaks SQL"
            );
        }
    }
    for krate in ROOMS.iter().chain(&["common"]) {
        let deps = dependencies(krate);
        for http in ["axum", "hyper", "hyper-util", "tower", "tower-http"] {
            assert!(
                !deps.contains(http),
                "{krate} depends on {http}: HTTP is the server's"
            );
        }
    }
}

/// The bus between nodes (issue 29) sits beside `store`: the rooms use it,
/// it knows none of them, and only it speaks Redis.
#[test]
fn only_the_bus_speaks_redis_and_it_knows_no_room() {
    let bus = dependencies("bus");
    assert!(bus.contains("redis"), "the bus is Redis's client");
    for qiju in ROOMS.iter().chain(&RULES).chain(&["common", "server"]) {
        assert!(!bus.contains(*qiju), "bus depends on {qiju}");
    }
    for other in ["sqlx", "rusqlite", "axum", "hyper"] {
        assert!(!bus.contains(other), "bus depends on {other}");
    }
    for krate in ROOMS.iter().chain(&RULES).chain(&["common", "server", "qiju"]) {
        assert!(
            !dependencies(krate).contains("redis"),
            "{krate} depends on redis: only bus speaks Redis"
        );
    }
}

#[test]
fn rules_crates_do_no_io() {
    for krate in RULES {
        let deps = dependencies(krate);
        for io in ["tokio", "sqlx", "rusqlite", "axum", "hyper", "reqwest"] {
            assert!(
                !deps.contains(io),
                "{krate} depends on {io}: rules crates do no I/O"
            );
        }
    }
}

/// `a::b` for `src/a/b.rs` or `src/a/b/mod.rs`; `` for `src/lib.rs`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The paths that follow each `prefix` (`crate::` or `super::`) in `text`:
/// `a::b::C`, or each item of `{a::b, c}`.
fn paths_after(text: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices(prefix) {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue; // `super::super::`, or part of a longer path
        }
        let rest = &text[at + prefix.len()..];
        let group = if let Some(inner) = rest.strip_prefix('{') {
            inner[..inner.find('}').unwrap_or(inner.len())].to_string()
        } else {
            rest.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect()
        };
        for item in group.split(',') {
            let item = item.trim();
            if !item.is_empty() {
                out.push(item.split("::").map(str::to_string).collect());
            }
        }
    }
    out
}

/// Each module of a crate and the modules it imports, with the edges
/// between a module and its ancestors left out: the crate root (and a
/// folder's `mod.rs`) is the front door that declares the room's handle,
/// which every module below it implements.
fn import_graph(krate: &str) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let src = crates_dir().join(krate).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let modules: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|f| (module_of(&src, f), std::fs::read_to_string(f).unwrap()))
        .collect();
    let resolve = |path: &[String]| -> Vec<String> {
        (0..=path.len())
            .rev()
            .map(|k| path[..k].to_vec())
            .find(|p| modules.contains_key(p))
            .unwrap_or_default()
    };
    let mut graph = BTreeMap::new();
    for (module, text) in &modules {
        let code: String = text
            .split("#[cfg(test)]")
            .next()
            .unwrap_or("")
            .lines()
            .filter(|l| {
                let l = l.trim_start();
                !l.starts_with("//") && !l.starts_with("pub use ")
            })
            .collect::<Vec<_>>()
            .join("\n");
        let parent: Vec<String> = module[..module.len().saturating_sub(1)].to_vec();
        let mut deps = BTreeSet::new();
        for path in paths_after(&code, "crate::") {
            deps.insert(resolve(&path));
        }
        for path in paths_after(&code, "super::") {
            let full: Vec<String> = parent.iter().cloned().chain(path).collect();
            deps.insert(resolve(&full));
        }
        deps.retain(|d| !d.starts_with(module) && !module.starts_with(d));
        graph.insert(module.clone(), deps);
    }
    graph
}

/// A circle of imports, if there is one.
fn circle(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Option<Vec<String>> {
    fn visit(
        node: &Vec<String>,
        graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        path: &mut Vec<Vec<String>>,
        done: &mut BTreeSet<Vec<String>>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            return Some(path[at..].iter().map(|m| m.join("::")).collect());
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.clone());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.clone());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

#[test]
fn no_module_imports_round_a_circle() {
    for krate in ["common", "store", "accounts", "play", "lobby", "events", "server"] {
        let graph = import_graph(krate);
        assert!(graph.len() > 1 || krate == "common", "{krate}: no modules read");
        if let Some(c) = circle(&graph) {
            panic!(
                "{krate}: the modules {} import each other round a circle",
                c.join(" → ")
            );
        }
    }
}

/// The check finds a circle where there is one (it is not vacuous).
#[test]
fn a_circle_is_found() {
    let m = |s: &str| s.split("::").map(str::to_string).collect::<Vec<_>>();
    let mut graph = BTreeMap::new();
    graph.insert(m("a"), BTreeSet::from([m("b")]));
    graph.insert(m("b"), BTreeSet::from([m("c")]));
    graph.insert(m("c"), BTreeSet::from([m("a")]));
    assert_eq!(circle(&graph).map(|c| c.len()), Some(3));
    graph.insert(m("c"), BTreeSet::new());
    assert_eq!(circle(&graph), None);
    let paths = paths_after("use crate::{live::Cmd, Play};\nsuper::state::X", "crate::");
    assert_eq!(paths, vec![m("live::Cmd"), m("Play")]);
}
