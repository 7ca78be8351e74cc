#!/usr/bin/env python3
"""Digest lichess's published OpenAPI description into the answers qiju checks.

lichess documents its API in the `lichess-org/api` repository
(doc/specs/lichess-api.yaml and the files it refers to). This script reads a
checkout of it, resolves every `$ref`, keeps only what a check needs (types,
properties, required, enum, const, items, oneOf/anyOf/allOf, nullable) for the
paths qiju serves, and writes one JSON file. crates/server/tests/lichess_schema.rs
reads our answers against it field by field. Descriptions and examples are
dropped: the digest is data about field names and types, not the document.

    python3 tools/lichess-api-digest.py /path/to/lichess-org/api \
        > crates/server/tests/data/lichess-api.json
"""
import json
import os
import subprocess
import sys

import yaml

# (method, path, status, content type) of every answer qiju serves in
# lichess's form.
ANSWERS = [
    ("get", "/api/account", "200", "application/json"),
    ("post", "/api/bot/account/upgrade", "200", "application/json"),
    ("get", "/api/stream/event", "200", "application/x-ndjson"),
    ("get", "/api/bot/game/stream/{gameId}", "200", "application/x-ndjson"),
    ("get", "/api/board/game/stream/{gameId}", "200", "application/x-ndjson"),
    ("post", "/api/bot/game/{gameId}/move/{move}", "200", "application/json"),
    ("post", "/api/bot/game/{gameId}/move/{move}", "400", "application/json"),
    ("post", "/api/board/game/{gameId}/move/{move}", "200", "application/json"),
    ("post", "/api/bot/game/{gameId}/chat", "200", "application/json"),
    ("post", "/api/bot/game/{gameId}/abort", "200", "application/json"),
    ("post", "/api/bot/game/{gameId}/resign", "200", "application/json"),
    ("post", "/api/bot/game/{gameId}/claim-victory", "200", "application/json"),
    ("post", "/api/bot/game/{gameId}/draw/{accept}", "200", "application/json"),
    ("post", "/api/bot/game/{gameId}/takeback/{accept}", "200", "application/json"),
    ("post", "/api/board/game/{gameId}/chat", "200", "application/json"),
    ("post", "/api/board/game/{gameId}/abort", "200", "application/json"),
    ("post", "/api/board/game/{gameId}/resign", "200", "application/json"),
    ("post", "/api/board/game/{gameId}/draw/{accept}", "200", "application/json"),
    ("post", "/api/board/game/{gameId}/takeback/{accept}", "200", "application/json"),
    ("post", "/api/challenge/{username}", "200", "application/json"),
    ("post", "/api/challenge/{challengeId}/accept", "200", "application/json"),
    ("post", "/api/challenge/{challengeId}/accept", "404", "application/json"),
    ("post", "/api/challenge/{challengeId}/decline", "200", "application/json"),
    ("post", "/api/challenge/{challengeId}/cancel", "200", "application/json"),
    ("get", "/api/bot/online", "200", "application/x-ndjson"),
    ("get", "/api/user/{username}", "200", "application/json"),
    ("get", "/api/users/status", "200", "application/json"),
    ("post", "/api/token/test", "200", "application/json"),
]

KEEP = {"type", "properties", "required", "enum", "const", "items", "oneOf",
        "anyOf", "allOf", "nullable", "additionalProperties"}


def load(path, cache={}):
    if path not in cache:
        with open(path) as f:
            cache[path] = yaml.safe_load(f)
    return cache[path]


def pointer(doc, frag):
    for part in [p for p in frag.split("/") if p]:
        doc = doc[part.replace("~1", "/").replace("~0", "~")]
    return doc


def resolve(node, base, depth=0):
    """Inline every $ref (relative file, optional #fragment) and keep only
    the keys a check needs."""
    if depth > 40:
        raise SystemExit("$ref nesting too deep at " + base)
    if isinstance(node, list):
        return [resolve(n, base, depth + 1) for n in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        ref = node["$ref"]
        file, _, frag = ref.partition("#")
        target = os.path.normpath(os.path.join(os.path.dirname(base), file)) if file else base
        doc = pointer(load(target), frag)
        return resolve(doc, target, depth + 1)
    out = {}
    for k, v in node.items():
        if k == "properties":
            out[k] = {name: resolve(s, base, depth + 1) for name, s in v.items()}
        elif k in KEEP:
            out[k] = resolve(v, base, depth + 1)
    return out


def main():
    root = os.path.join(sys.argv[1], "doc/specs/lichess-api.yaml")
    spec = load(root)
    commit = subprocess.run(["git", "-C", sys.argv[1], "rev-parse", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    answers = {}
    for method, path, status, ctype in ANSWERS:
        item = spec["paths"][path]
        base = root
        if "$ref" in item:
            base = os.path.normpath(os.path.join(os.path.dirname(root), item["$ref"]))
            item = load(base)
        resp = item[method]["responses"][status]
        if "$ref" in resp:
            file, _, frag = resp["$ref"].partition("#")
            target = os.path.normpath(os.path.join(os.path.dirname(base), file)) if file else base
            resp, base = pointer(load(target), frag), target
        schema = resp["content"][ctype]["schema"]
        answers[f"{method.upper()} {path} {status}"] = resolve(schema, base)
    json.dump({"source": f"lichess-org/api {commit} doc/specs/lichess-api.yaml",
               "answers": answers}, sys.stdout, indent=1, sort_keys=True)
    print()


main()
