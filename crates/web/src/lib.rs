//! The browser UI's static files, embedded into the binary at compile time so
//! that `qiju serve` is one self-contained executable. The UI lives in
//! `assets/`; the server serves it under `/`. (`build.rs` makes Cargo
//! rebuild this crate when a file in `assets/` changes.)
//!
//! The UI is a single-page app with its own routes (`/game/abc`,
//! `/replay/abc`, `/@/name`): [`get`] answers those with `index.html`, so
//! a reload or a shared link works, while a missing file with an extension
//! (`/js/nope.js`) is still "not found".
//!
//! For working on the UI without rebuilding the binary, set `QIJU_WEB_DIR`
//! to an `assets/` folder: files are then read from there (each path is
//! checked to stay inside it), falling back to the embedded copy.

use include_dir::{include_dir, Dir};
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::SystemTime;

static ASSETS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/assets");

/// An embedded file: its bytes and the `Content-Type` to send with them.
#[derive(Clone, Copy, Debug)]
pub struct Asset {
    pub bytes: &'static [u8],
    pub content_type: &'static str,
}

/// Looks up a file by its path below `assets/` (`""` and paths ending in
/// `/` mean `index.html` there; an app route — a path whose last segment
/// has no extension — is answered with `index.html` too). Paths never
/// escape the folder: the lookup is in an in-memory table (or, with
/// `QIJU_WEB_DIR`, checked to name a file inside that folder).
#[must_use]
pub fn get(path: &str) -> Option<Asset> {
    let path = normalize(path)?;
    if let Some(a) = from_disk(&path) {
        return Some(a);
    }
    if let Some(file) = ASSETS.get_file(&path) {
        return Some(Asset {
            bytes: file.contents(),
            content_type: content_type(&path),
        });
    }
    if is_app_route(&path) {
        return get("");
    }
    None
}

/// The path below `assets/` a request names, or `None` when it tries to
/// climb out (`..`) or is otherwise malformed.
fn normalize(path: &str) -> Option<String> {
    let path = path.trim_start_matches('/');
    if path
        .split('/')
        .any(|seg| seg == ".." || seg == "." || seg.contains('\\'))
        || path.contains('\0')
    {
        return None;
    }
    Some(if path.is_empty() || path.ends_with('/') {
        format!("{path}index.html")
    } else {
        path.to_string()
    })
}

/// Whether a path is one of the UI's own routes rather than a file: its
/// last segment has no extension, and it is not under `api/`.
fn is_app_route(path: &str) -> bool {
    let last = path.rsplit('/').next().unwrap_or("");
    !path.starts_with("api/") && !last.contains('.')
}

type DiskCache = Mutex<HashMap<PathBuf, (SystemTime, &'static [u8])>>;

/// A file from `QIJU_WEB_DIR`, for UI development. Each version of a file
/// is read (and kept) once, keyed by its modification time.
fn from_disk(path: &str) -> Option<Asset> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    static CACHE: OnceLock<DiskCache> = OnceLock::new();
    let dir = DIR
        .get_or_init(|| std::env::var_os("QIJU_WEB_DIR").and_then(|d| Path::new(&d).canonicalize().ok()))
        .as_ref()?;
    let rel = Path::new(path);
    if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
        return None;
    }
    let full = dir.join(rel).canonicalize().ok()?;
    if !full.starts_with(dir) || !full.is_file() {
        return None;
    }
    let modified = std::fs::metadata(&full).and_then(|m| m.modified()).ok()?;
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut cache = cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((when, bytes)) = cache.get(&full) {
        if *when == modified {
            return Some(Asset {
                bytes,
                content_type: content_type(path),
            });
        }
    }
    let bytes: &'static [u8] = Box::leak(std::fs::read(&full).ok()?.into_boxed_slice());
    cache.insert(full, (modified, bytes));
    Some(Asset {
        bytes,
        content_type: content_type(path),
    })
}

/// The MIME type for a file name, by extension.
#[must_use]
pub fn content_type(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    match ext {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "wasm" => "application/wasm",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_is_embedded() {
        let a = get("/").expect("index.html");
        assert!(a.content_type.starts_with("text/html"));
        assert!(!a.bytes.is_empty());
        assert!(get("/../Cargo.toml").is_none());
        assert!(get("no-such-file.js").is_none());
    }

    #[test]
    fn app_routes_get_the_shell() {
        let index = get("/").unwrap().bytes;
        for route in [
            "/game/abc123",
            "/replay/abc123",
            "/@/wang_wei",
            "/login",
            "/events",
            "/event/abc123",
        ] {
            let a = get(route).unwrap_or_else(|| panic!("{route}"));
            assert_eq!(a.bytes, index, "{route}");
        }
        assert!(get("/api/nothing").is_none());
        assert!(get("/js/app.js.missing").is_none());
        assert!(get("/js/../../Cargo.toml").is_none());
        assert!(get("/./index.html").is_none());
    }

    #[test]
    fn modules_are_served_as_javascript() {
        for file in [
            "js/app.js",
            "js/api.js",
            "js/socket.js",
            "js/i18n.js",
            "js/clock.js",
            "js/notation/xiangqi.js",
            "js/notation/chess.js",
            "js/boards/board.js",
            "js/boards/grid.js",
            "js/boards/xiangqi.js",
            "js/boards/chess.js",
            "js/boards/renju.js",
            "js/rules/renju.js",
            "js/notation/renju.js",
            "js/rules/xiangqi.js",
            "js/rules/chess.js",
            "js/pages/lobby.js",
            "js/pages/game.js",
            "js/pages/replay.js",
            "js/pages/profile.js",
            "js/pages/login.js",
            "js/pages/events.js",
            "css/app.css",
        ] {
            let a = get(file).unwrap_or_else(|| panic!("{file} is not embedded"));
            let want = if file.ends_with(".css") {
                "text/css"
            } else {
                "text/javascript"
            };
            assert!(a.content_type.starts_with(want), "{file}: {}", a.content_type);
        }
    }

    /// Every relative import in the embedded modules names an embedded
    /// file, so a renamed module cannot break the app silently.
    #[test]
    fn module_imports_resolve() {
        fn walk(dir: &Dir<'static>, out: &mut Vec<&'static include_dir::File<'static>>) {
            out.extend(dir.files());
            for d in dir.dirs() {
                walk(d, out);
            }
        }
        let mut files = Vec::new();
        walk(&ASSETS, &mut files);
        let mut checked = 0;
        for f in files
            .iter()
            .filter(|f| f.path().extension().is_some_and(|e| e == "js"))
        {
            let text = f.contents_utf8().expect("modules are UTF-8");
            let base = f.path().parent().unwrap_or(Path::new(""));
            for spec in text
                .split(['\'', '"'])
                .filter(|s| s.starts_with("./") || s.starts_with("../"))
            {
                if !spec.ends_with(".js") {
                    continue;
                }
                let mut p = base.to_path_buf();
                for part in spec.split('/') {
                    match part {
                        "." => {}
                        ".." => {
                            p.pop();
                        }
                        s => p.push(s),
                    }
                }
                assert!(
                    ASSETS.get_file(&p).is_some(),
                    "{} imports {spec}: not found",
                    f.path().display()
                );
                checked += 1;
            }
        }
        assert!(checked > 20, "only {checked} imports found");
    }
}
