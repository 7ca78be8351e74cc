#!/usr/bin/env python3
"""KIF/CSA round trip with cshogi (PyPI `cshogi`).

  records.py write DIR   plays seeded random games (the even start, every
                         handicap, and middlegame positions) and writes each
                         with cshogi's exporters: DIR/N.kifu (KIF, UTF-8),
                         DIR/N.kif (KIF, Shift_JIS) and DIR/N.csa; prints
                         one line a game: N, the start SFEN, the USI moves.
  records.py read DIR    reads DIR/*.kifu and DIR/*.csa (written by qiju)
                         with cshogi's parsers and prints: file name, start
                         SFEN, the USI moves.
"""

import datetime
import os
import random
import sys

import cshogi
import cshogi.CSA
import cshogi.KIF

HANDICAPS = [
    ("香落ち", "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("角落ち", "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("飛車落ち", "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("飛香落ち", "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("二枚落ち", "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("四枚落ち", "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("六枚落ち", "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("八枚落ち", "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("十枚落ち", "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
]
POSITIONS = [
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 1",
]


def write(out_dir, seed=7):
    rng = random.Random(seed)
    starts = [(None, cshogi.STARTING_SFEN)] * 18 + HANDICAPS + [("sfen", p) for p in POSITIONS]
    when = datetime.datetime(2026, 12, 4, 10, 0, 0)
    for n, (kind, sfen) in enumerate(starts):
        board = cshogi.Board(sfen)
        moves = []
        for _ in range(rng.randint(20, 200) if n % 3 else rng.randint(10, 40)):
            legal = list(board.legal_moves)
            if not legal:
                break
            m = rng.choice(legal)
            moves.append(m)
            board.push(m)
        for ext in ("kifu", "kif"):
            e = cshogi.KIF.Exporter(os.path.join(out_dir, "{}.{}".format(n, ext)))
            handicap = None if kind is None else ("sfen " + sfen if kind == "sfen" else kind)
            e.header(["先手さん", "後手さん"], when, handicap)
            for i, m in enumerate(moves):
                e.move(m, sec=i % 7, sec_sum=0)
            e.end("resign")
            e.close()
        c = cshogi.CSA.Exporter(os.path.join(out_dir, "{}.csa".format(n)))
        c.info(init_board=cshogi.Board(sfen), names=["Sente", "Gote"])
        for i, m in enumerate(moves):
            c.move(m, time=i % 5)
        c.endgame("%TORYO")
        c.close()
        print("{}\t{}\t{}".format(n, sfen, " ".join(cshogi.move_to_usi(m) for m in moves)))


def read(in_dir):
    for name in sorted(os.listdir(in_dir)):
        path = os.path.join(in_dir, name)
        if name.endswith(".kifu"):
            p = cshogi.KIF.Parser.parse_file(path)
            sfen, moves = p.sfen, p.moves
        elif name.endswith(".csa"):
            p = cshogi.CSA.Parser.parse_file(path)[0]
            sfen, moves = p.sfen, p.moves
        else:
            continue
        print("{}\t{}\t{}".format(name, sfen, " ".join(cshogi.move_to_usi(m) for m in moves)))


if __name__ == "__main__":
    {"write": write, "read": read}[sys.argv[1]](sys.argv[2])
