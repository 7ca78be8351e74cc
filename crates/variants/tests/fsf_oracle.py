#!/usr/bin/env python3
"""Fairy-Stockfish oracle for fsf_diff.rs.

Usage: fsf_oracle.py VARIANT FILE. Reads one FEN a line from FILE and writes
one JSON object a line to stdout, in the input's order:
  {"fen": ..., "legal": [...], "check": bool, "result": int?}
Moves are in Fairy-Stockfish coordinates (ranks from 1); "result" (the game
value for the side to move) is present only when there is no legal move.
"""
import json
import sys

import pyffish as sf


def main():
    variant, path = sys.argv[1], sys.argv[2]
    out = sys.stdout
    with open(path, encoding="utf-8") as src:
        for line in src:
            fen = line.strip()
            if not fen:
                continue
            moves = sf.legal_moves(variant, fen, [])
            rec = {"fen": fen, "legal": moves, "check": bool(sf.gives_check(variant, fen, []))}
            if not moves:
                rec["result"] = sf.game_result(variant, fen, [])
            out.write(json.dumps(rec) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
