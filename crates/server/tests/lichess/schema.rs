//! Our answers read against lichess's published API description.
//!
//! `tests/data/lichess-api.json` is a digest of lichess's OpenAPI document
//! (lichess-org/api, `doc/specs/lichess-api.yaml`, with every `$ref`
//! resolved; made by `tools/lichess-api-digest.py`, which names the
//! commit): for each answer qiju serves in lichess's form, the schema of
//! its body. [`Answers`] collects what the server said during a test and
//! checks every body field by field: each field lichess requires is there,
//! and each field lichess describes has lichess's type, `const` or `enum`
//! value, recursively. Fields lichess does not describe are qiju's extras
//! (lichess's clients ignore them); they are listed, not refused.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// lichess's description of each answer, keyed `METHOD /path status`.
pub fn digest() -> BTreeMap<String, Value> {
    let text = include_str!("../data/lichess-api.json");
    let v: Value = serde_json::from_str(text).expect("the digest is JSON");
    v["answers"]
        .as_object()
        .expect("answers")
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// Where a body broke lichess's description: the JSON path and what.
pub type Breaks = Vec<String>;

/// Checks `v` against `schema` at `at`; the fields lichess does not
/// describe go to `extras`.
pub fn check(schema: &Value, v: &Value, at: &str, extras: &mut BTreeSet<String>) -> Breaks {
    let mut out = Vec::new();
    if let Some(all) = schema["allOf"].as_array() {
        for s in all {
            out.extend(check(s, v, at, &mut BTreeSet::new()));
        }
        // A field is lichess's if any part describes it.
        if v.is_object() {
            let described: BTreeSet<&str> = all
                .iter()
                .filter_map(|s| s["properties"].as_object())
                .flat_map(|p| p.keys().map(String::as_str))
                .collect();
            for k in v.as_object().unwrap().keys() {
                if !described.contains(k.as_str()) && schema["properties"].get(k).is_none() {
                    extras.insert(format!("{at}.{k}"));
                }
            }
        }
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(alts) = schema[key].as_array() {
            // The alternative of the same `type` (lichess's events and
            // stream lines say which they are), else the one that fits
            // best; its breaks if none fits.
            let typed: Vec<&Value> = alts
                .iter()
                .filter(|s| v.get("type").is_some() && s["properties"]["type"]["const"] == v["type"])
                .collect();
            let alts: Vec<&Value> = if typed.is_empty() {
                alts.iter().collect()
            } else {
                typed
            };
            let best = alts
                .into_iter()
                .map(|s| {
                    let mut ex = BTreeSet::new();
                    let b = check(s, v, at, &mut ex);
                    (b, ex)
                })
                .min_by_key(|(b, _)| b.len())
                .expect("alternatives");
            out.extend(best.0);
            extras.extend(best.1);
        }
    }
    if v.is_null() && schema["nullable"] == true {
        return out;
    }
    if let Some(t) = schema.get("type") {
        let types: Vec<&str> = match t {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        if !types.iter().any(|t| is_type(v, t)) {
            out.push(format!("{at}: {v} is not {}", types.join(" or ")));
            return out;
        }
    }
    if let Some(c) = schema.get("const") {
        if c != v {
            out.push(format!("{at}: {v} is not the constant {c}"));
        }
    }
    if let Some(e) = schema["enum"].as_array() {
        if !e.contains(v) {
            out.push(format!("{at}: {v} is not one of {}", Value::Array(e.clone())));
        }
    }
    if let Some(obj) = v.as_object() {
        if let Some(req) = schema["required"].as_array() {
            for r in req.iter().filter_map(Value::as_str) {
                if !obj.contains_key(r) {
                    out.push(format!("{at}: lichess requires {r:?}, missing"));
                }
            }
        }
        let props = schema["properties"].as_object();
        for (k, field) in obj {
            let here = format!("{at}.{k}");
            match props.and_then(|p| p.get(k)) {
                Some(s) => out.extend(check(s, field, &here, extras)),
                None => match schema.get("additionalProperties") {
                    Some(s) if s.is_object() => out.extend(check(s, field, &here, extras)),
                    _ => {
                        if props.is_some() && schema.get("allOf").is_none() {
                            extras.insert(here);
                        }
                    }
                },
            }
        }
    }
    if let (Some(items), Some(arr)) = (schema.get("items"), v.as_array()) {
        for (i, item) in arr.iter().enumerate() {
            out.extend(check(items, item, &format!("{at}[{i}]"), extras));
        }
    }
    out
}

fn is_type(v: &Value, t: &str) -> bool {
    match t {
        "string" => v.is_string(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        "null" => v.is_null(),
        _ => false,
    }
}

/// A way qiju's answers depart from lichess's description on purpose: a
/// break at a path ending in `at`, of the kind `breaks` (a words of the
/// break), in a body for which `allowed` holds.
pub struct Departure {
    pub at: &'static str,
    pub breaks: &'static str,
    pub allowed: fn(&Value) -> bool,
    /// Why (said in docs/BOTS.md too).
    pub why: &'static str,
}

/// What the server answered during a test, each body under the key of the
/// answer lichess describes.
#[derive(Default)]
pub struct Answers {
    seen: BTreeMap<String, Vec<Value>>,
}

impl Answers {
    /// Keeps a body (for a stream, each line) to check.
    pub fn add(&mut self, key: &str, body: &Value) {
        self.seen.entry(key.to_string()).or_default().push(body.clone());
    }

    /// Checks every body kept; fails listing every break but the
    /// departures qiju means (each with its reason, docs/BOTS.md). Every
    /// answer the digest describes must have been seen at least once, so a
    /// path the test stopped reaching cannot pass unread.
    pub fn check_all(&self, departures: &[Departure]) -> BTreeSet<String> {
        let digest = digest();
        let mut breaks = Vec::new();
        let mut extras = BTreeSet::new();
        let mut excused = BTreeSet::new();
        for (key, bodies) in &self.seen {
            let schema = digest
                .get(key)
                .unwrap_or_else(|| panic!("lichess's description has no answer {key:?}"));
            for body in bodies {
                for b in check(schema, body, "$", &mut extras) {
                    let (at, what) = b.split_once(": ").unwrap_or((&b, ""));
                    let meant = departures
                        .iter()
                        .find(|d| at.ends_with(d.at) && what.contains(d.breaks) && (d.allowed)(body));
                    if let Some(d) = meant {
                        excused.insert(format!("{}: {}", d.at, d.why));
                    } else {
                        breaks.push(format!("{key}: {b}\n    in {body}"));
                    }
                }
            }
        }
        let unseen: Vec<&String> = digest.keys().filter(|k| !self.seen.contains_key(*k)).collect();
        assert!(unseen.is_empty(), "answers the test never read: {unseen:?}");
        assert!(
            breaks.is_empty(),
            "answers unlike lichess's description:\n{}",
            breaks.join("\n")
        );
        eprintln!("departures from lichess's description, meant: {excused:?}");
        extras
    }
}

#[test]
fn the_checker_catches_what_it_must() {
    let d = digest();
    let state = &d["GET /api/bot/game/stream/{gameId} 200"];
    let good = serde_json::json!({"type": "gameState", "moves": "", "wtime": 1, "btime": 1, "winc": 0, "binc": 0, "status": "started"});
    assert_eq!(check(state, &good, "$", &mut BTreeSet::new()), Breaks::new());
    let mut missing = good.clone();
    missing.as_object_mut().unwrap().remove("binc");
    assert_eq!(check(state, &missing, "$", &mut BTreeSet::new()).len(), 1);
    let mut wrong = good.clone();
    wrong["wtime"] = serde_json::json!("1");
    assert_eq!(check(state, &wrong, "$", &mut BTreeSet::new()).len(), 1);
    let mut bad_status = good.clone();
    bad_status["status"] = serde_json::json!("finished");
    assert_eq!(check(state, &bad_status, "$", &mut BTreeSet::new()).len(), 1);
    let mut extra = good;
    extra["mustChange"] = serde_json::json!("first");
    let mut ex = BTreeSet::new();
    assert_eq!(check(state, &extra, "$", &mut ex), Breaks::new());
    assert!(ex.contains("$.mustChange"), "{ex:?}");
}
