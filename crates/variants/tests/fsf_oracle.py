#!/usr/bin/env python3
"""Fairy-Stockfish oracle for fsf_diff.rs (through tests/common/mod.rs).

Usage: fsf_oracle.py VARIANT FILE. FILE holds one JSON object a line:
  {"fen": START, "moves": [...], "perft": [depths]}
— a start FEN and the moves played since, in Fairy-Stockfish coordinates
(ranks from 1), so that what a position's past decides (Janggi's passes and
bikjang) is seen as the engine under test sees it. Writes one JSON object a
line to stdout, in the input's order:
  {"fen": ..., "legal": [...], "check": bool, "result": int?, "perft": {d: n}}
"result" (the game value for the side to move) is present only when there
is no legal move; "perft" counts the leaves at each asked depth by walking
pyffish's legal moves (it has no perft of its own).
"""
import json
import sys

import pyffish as sf


def perft(variant, fen, moves, depth):
    legal = sf.legal_moves(variant, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(perft(variant, fen, moves + [m], depth - 1) for m in legal)


def main():
    variant, path = sys.argv[1], sys.argv[2]
    out = sys.stdout
    with open(path, encoding="utf-8") as src:
        for line in src:
            if not line.strip():
                continue
            ask = json.loads(line)
            fen, moves = ask["fen"], ask.get("moves", [])
            legal = sf.legal_moves(variant, fen, moves)
            rec = {
                "fen": sf.get_fen(variant, fen, moves),
                "legal": legal,
                "check": bool(sf.gives_check(variant, fen, moves)),
            }
            if not legal:
                rec["result"] = sf.game_result(variant, fen, moves)
            counts = {}
            for depth in ask.get("perft", []):
                counts[str(depth)] = perft(variant, fen, moves, depth)
            rec["perft"] = counts
            out.write(json.dumps(rec) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
