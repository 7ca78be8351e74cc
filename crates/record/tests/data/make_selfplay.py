#!/usr/bin/env python3
"""Writes selfplay-1000.pgn: 1,000 random-but-legal Xiangqi games.

The moves, the legality and the WXF move text all come from Fairy-Stockfish
(the PyPI package `pyffish`), not from qiju, so importing this collection
tests our PGN reader and rules against an independent implementation.

The games look like the files found in the wild: xqbase-style tags
(`[Game "Chinese Chess"]`, sometimes `[红方]`/`[黑方]`), moves in WXF or ICCS
(lower case `h2e2` or the dashed upper case `H2-E2` of xqbase), clock
comments (`[%clk]`, `[%emt]`), text comments, variations in parentheses,
NAGs, start positions given by `[FEN]`, black to move first.

Usage: python3 make_selfplay.py > selfplay-1000.pgn   (deterministic: seed 4)
"""
import random
import sys

import pyffish as sf

V = "xiangqi"
rng = random.Random(4)


def split(uci):
    # e.g. h10g8 -> (h, 10, g, 8)
    f1 = uci[0]
    i = 1
    while uci[i].isdigit():
        i += 1
    r1 = int(uci[1:i])
    f2 = uci[i]
    r2 = int(uci[i + 1:])
    return f1, r1 - 1, f2, r2 - 1


def to_iccs(uci, dashed):
    f1, r1, f2, r2 = split(uci)
    if dashed:
        return f"{f1.upper()}{r1}-{f2.upper()}{r2}"
    return f"{f1}{r1}{f2}{r2}"


def hms(ms):
    s = ms // 1000
    return f"{s // 3600}:{s // 60 % 60:02}:{s % 60:02}"


def occupied(fen):
    """The occupied squares of a FEN, in FSF coordinates (`a1`..`i10`)."""
    occ = set()
    for r, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                occ.add(f"{'abcdefghi'[f]}{10 - r}")
                f += 1
    return occ


def target(uci):
    f1, r1, f2, r2 = split(uci)
    return f"{f2}{r2 + 1}"


def random_game(start_fen, max_plies):
    moves = []
    fen = start_fen
    while len(moves) < max_plies:
        legal = sf.legal_moves(V, fen, [])
        if not legal:
            break
        # Prefer captures a little, so games end now and then.
        occ = occupied(fen)
        caps = [m for m in legal if target(m) in occ]
        if caps and rng.random() < 0.5:
            m = rng.choice(caps)
        else:
            m = rng.choice(legal)
        moves.append(m)
        fen = sf.get_fen(V, fen, [m])
    return moves


def wrap(tokens, width=79):
    lines, line = [], ""
    for t in tokens:
        if line and len(line) + 1 + len(t) > width:
            lines.append(line)
            line = t
        else:
            line = f"{line} {t}" if line else t
    if line:
        lines.append(line)
    return "\n".join(lines)


def main():
    out = sys.stdout
    startpos = sf.start_fen(V)
    for g in range(1, 1001):
        fen = startpos
        set_up = False
        if rng.random() < 0.12:
            pre = random_game(startpos, rng.randint(5, 24))
            if sf.legal_moves(V, startpos, pre):
                fen = sf.get_fen(V, startpos, pre)
                set_up = True
        moves = random_game(fen, rng.randint(20, 180))
        if not sf.legal_moves(V, fen, moves):
            # No legal move: mate or stalemate, both lose for the side to move.
            black_to_move = sf.get_fen(V, fen, moves).split()[1] == "b"
            result = "1-0" if black_to_move else "0-1"
        else:
            result = rng.choice(["1/2-1/2", "1/2-1/2", "*", "1-0", "0-1"])
        style = rng.choice(["wxf", "wxf", "iccs", "iccs-dashed"])
        chinese_tags = rng.random() < 0.15
        tags = [("Game", "Chinese Chess"), ("Event", f"qiju self-play {g // 100 + 1}"),
                ("Site", "pyffish"), ("Date", f"2024.{g % 12 + 1:02}.{g % 28 + 1:02}"),
                ("Round", str(g))]
        if chinese_tags:
            tags += [("红方", f"随机甲{g}"), ("黑方", f"随机乙{g}")]
        else:
            tags += [("Red", f"Random A{g}"), ("Black", f"Random B{g}")]
        tags.append(("Result", result))
        if set_up:
            tags += [("SetUp", "1"), ("FEN", fen)]
        tags.append(("Format", "WXF" if style == "wxf" else "ICCS"))
        for k, v in tags:
            out.write(f'[{k} "{v}"]\n')
        out.write("\n")
        if style == "wxf":
            texts = sf.get_san_moves(V, fen, moves, False, sf.NOTATION_XIANGQI_WXF)
        else:
            texts = [to_iccs(m, style == "iccs-dashed") for m in moves]
        clocks = rng.random() < 0.4
        emt = clocks and rng.random() < 0.5
        left = [rng.choice([300, 600, 900]) * 1000] * 2
        tokens = []
        if rng.random() < 0.1:
            tokens.append("{Random moves by Fairy-Stockfish.}")
        black_first = fen.split()[1] == "b"
        number = int(fen.split()[5])
        for i, t in enumerate(texts):
            side = (i + (1 if black_first else 0)) % 2
            if side == 0:
                tokens.append(f"{number}.")
            elif i == 0:
                tokens.append(f"{number}...")
            tokens.append(t)
            if side == 1:
                number += 1
            if rng.random() < 0.02:
                tokens.append(rng.choice(["$1", "$2", "$6"]))
            if clocks:
                spent = rng.randint(0, min(20_000, left[side]))
                left[side] -= spent
                c = f"[%clk {hms(left[side])}]"
                if emt:
                    c += f" [%emt {hms(spent)}]"
                tokens.append("{" + c + "}")
            elif rng.random() < 0.01:
                tokens.append("{" + rng.choice(["good move", "a mistake", "妙着"]) + "}")
            if rng.random() < 0.015 and i + 1 < len(moves):
                # A one-move variation: another legal move at this point.
                alt = sf.legal_moves(V, fen, moves[: i + 1])
                if alt:
                    a = rng.choice(alt)
                    at = (sf.get_san(V, sf.get_fen(V, fen, moves[: i + 1]), a, False,
                                     sf.NOTATION_XIANGQI_WXF)
                          if style == "wxf" else to_iccs(a, style == "iccs-dashed"))
                    tokens.append(f"({at})")
        tokens.append(result)
        out.write(wrap(tokens) + "\n\n")


if __name__ == "__main__":
    main()
