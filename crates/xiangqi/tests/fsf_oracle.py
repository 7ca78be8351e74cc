#!/usr/bin/env python3
"""Fairy-Stockfish oracle for fsf_diff.rs.

Reads lines `FEN<TAB>move move ...` from the file named on the command line
(or stdin) and writes one JSON object per line to stdout:
  {"fen": ..., "legal": [...], "moves": {"h3e3": "C2=5", ...}, "check": bool,
   "result": int?}
"legal" is every legal move; "moves" gives the WXF string of each move named
after the tab. Moves are in Fairy-Stockfish coordinates (ranks 1-10);
"result" (the game value for the side to move) is present only when there is
no legal move. Every pyffish call costs milliseconds (it sets up a fresh
position state each time), so the caller names only the moves whose WXF it
wants and the work is spread over one worker process per CPU; answers keep
the input order.
"""
import json
import multiprocessing
import os
import sys

import pyffish as sf

VARIANT = "xiangqi"


def describe(line):
    fen, _, wanted = line.partition("\t")
    moves = sf.legal_moves(VARIANT, fen, [])
    legal = set(moves)
    rec = {
        "fen": fen,
        "legal": moves,
        "moves": {
            m: sf.get_san(VARIANT, fen, m, False, sf.NOTATION_XIANGQI_WXF)
            for m in wanted.split()
            if m in legal
        },
        "check": bool(sf.gives_check(VARIANT, fen, [])),
    }
    if not moves:
        rec["result"] = sf.game_result(VARIANT, fen, [])
    return rec


def main():
    src = open(sys.argv[1], encoding="utf-8") if len(sys.argv) > 1 else sys.stdin
    fens = [line.rstrip("\n") for line in src if line.strip()]
    workers = max(1, min(os.cpu_count() or 1, 16))
    out = sys.stdout
    with multiprocessing.Pool(workers) as pool:
        for rec in pool.imap(describe, fens, chunksize=16):
            out.write(json.dumps(rec) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
