#!/usr/bin/env python3
"""Generates tests/oracle/axf_cycles.json: random repetition cycles ruled by
Fairy-Stockfish (the PyPI package `pyffish`) under its Asian (AXF) chasing
rule, for the referee's differential test (tests/oracle.rs).

Each sample is a position reached by a random playout from the start, then
a four-ply cycle m1 m2 r1 r2 (r = the reverse move) played until the
position after m1 stands for the third time (nine plies), as the rule-book
cases of data/xiangqi-repetition-cases.json do. Fairy-Stockfish's verdict
(`is_optional_game_end`) is stored as seen from the side to move.

Run: python3 crates/referee/tests/oracle/gen_axf.py [count] [seed] [out]
(the output file, rewritten after every sample, is stdout if not given).
"""
import json
import random
import sys

import pyffish as sf

V = "xiangqi"


def to_iccs(m):
    """FSF coordinates (ranks 1-10) to ICCS (ranks 0-9)."""
    a, b = split(m)
    return f"{a[0]}{int(a[1:]) - 1}{b[0]}{int(b[1:]) - 1}"


def reverse(m):
    a, b = split(m)
    return b + a


def split(m):
    j = 1
    while m[j].isdigit():
        j += 1
    return m[:j], m[j:]


def flipped(fen):
    """The same position with the other side to move (a null move)."""
    parts = fen.split(" ")
    parts[1] = "b" if parts[1] == "w" else "w"
    return " ".join(parts)


def quiet(fen, moves):
    return [m for m in sf.legal_moves(V, fen, moves) if not sf.is_capture(V, fen, moves, m)]


def victims(fen, moves, frm):
    """Squares the piece on `frm` could take at once, nothing taking back
    (as if it were its turn again)."""
    here = flipped(sf.get_fen(V, fen, moves))
    out = []
    for m in sf.legal_moves(V, here, []):
        a, b = split(m)
        if a == frm and sf.is_capture(V, here, [], m):
            if not any(split(r)[1] == b for r in sf.legal_moves(V, here, [m])):
                out.append(b)
    return out


def chase_cycle(rng, fen):
    """A cycle in which a piece follows an opponent piece that steps to and
    fro: p0p1 q1q2 p1p2 q2q1 p2p1 q1q2 p1p2 q2q1 p2p1 (nine plies); one time
    in five a plain shuffle m1 m2 r1 r2 repeated instead."""
    first = quiet(fen, [])
    rng.shuffle(first)
    plain = rng.random() < 0.2
    for m1 in first:
        p0, p1 = split(m1)
        if plain:
            for m2 in quiet(fen, [m1])[:4]:
                seq = [m1, m2, reverse(m1), reverse(m2)] * 2 + [m1]
                if legal_quiet(fen, seq):
                    return seq
            continue
        targets = victims(fen, [m1], p1)
        if not targets:
            continue
        replies = [m for m in quiet(fen, [m1]) if split(m)[0] in targets]
        rng.shuffle(replies)
        for m2 in replies:
            q1, q2 = split(m2)
            follows = [m for m in quiet(fen, [m1, m2]) if split(m)[0] == p1]
            rng.shuffle(follows)
            for m3 in follows:
                _, p2 = split(m3)
                if q2 not in victims(fen, [m1, m2, m3], p2):
                    continue
                cyc = [m2, m3, reverse(m2), reverse(m3)]
                seq = [m1] + cyc * 2
                if legal_quiet(fen, seq):
                    return seq
    return None


def legal_quiet(fen, seq):
    for k, m in enumerate(seq):
        if m not in sf.legal_moves(V, fen, seq[:k]) or sf.is_capture(V, fen, seq[:k], m):
            return False
    return True


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 7)
    start = sf.start_fen(V)
    out = []
    tries = 0
    while len(out) < count and tries < count * 200:
        tries += 1
        moves = []
        for _ in range(rng.randrange(8, 60)):
            legal = sf.legal_moves(V, start, moves)
            if not legal:
                break
            moves.append(rng.choice(legal))
        fen = sf.get_fen(V, start, moves)
        if not sf.legal_moves(V, fen, []) or sf.gives_check(V, fen, []):
            continue
        seq = chase_cycle(rng, fen)
        if seq is None:
            continue
        end, value = sf.is_optional_game_end(V, fen, seq)
        if not end:
            continue
        if value == 0:
            verdict = "draw"
        else:
            # The value is the side to move's: after nine plies that is the
            # side that did not start.
            to_move = "black" if " w " in fen else "red"
            started = "red" if to_move == "black" else "black"
            verdict = f"{started} loses" if value > 0 else f"{to_move} loses"
        out.append({
            "fen": fen,
            "moves": [to_iccs(m) for m in seq],
            "expected": verdict,
        })
        if len(sys.argv) > 3:
            with open(sys.argv[3], "w") as f:
                json.dump(out, f, indent=0)
                f.write("\n")
    if len(sys.argv) <= 3:
        json.dump(out, sys.stdout, indent=0)
        print()
    kinds = {}
    for o in out:
        kinds[o["expected"]] = kinds.get(o["expected"], 0) + 1
    print(len(out), kinds, file=sys.stderr)


if __name__ == "__main__":
    main()
