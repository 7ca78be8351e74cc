#!/usr/bin/env python3
"""Differential oracle for crates/shogi: cshogi (PyPI `cshogi`, Apery's move
generator, written independently of rsshogi) plays seeded random playouts and
describes every position it reaches.

Output, one line per record, fields separated by tabs:

  G  label  start-sfen        a new game
  P  sfen  moves  check       a position: SFEN without its move number, the
                              legal moves in USI sorted and space-separated,
                              1 when the side to move is in check
  M  usi                      the move played from the last P

Starts: the even game, every handicap, published middlegames, and random
sparse positions built so that the rules on drops come into play: a king on
or near its back rank among defenders (some of them pinned) facing an
attacker holding pawns — where a pawn drop would mate (打ち歩詰め) — with
pawns already on most files (二歩) and pawns, lances and knights in hand next
to the far ranks (行き所のない駒). The generator keeps drawing sparse
positions until it has found at least MIN_PAWN_DROP_MATES positions with a
pawn-drop mate; cshogi's word on each is what the Rust side compares.

Usage: oracle.py [seed]
"""

import random
import sys

import cshogi

MIN_PAWN_DROP_MATES = 200

STARTS = [
    ("even", cshogi.STARTING_SFEN),
    ("lance", "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("bishop", "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("rook", "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("rook-lance", "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("two-pieces", "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("four-pieces", "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("six-pieces", "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("eight-pieces", "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("ten-pieces", "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("matsuri", "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1"),
    ("opening", "lnsgkgsnl/1r7/p1ppp1bpp/1p3pp2/7P1/2P6/PP1PPPP1P/1B3S1R1/LNSGKG1NL b - 9"),
    ("most-moves", "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1"),
]

LETTERS = {"P": 1, "L": 2, "N": 3, "S": 4, "B": 5, "R": 6, "G": 7, "K": 8}
SET = {"P": 18, "L": 4, "N": 4, "S": 4, "G": 4, "B": 2, "R": 2}
PROMOTABLE = "PLNSBR"


def describe(board):
    moves = sorted(cshogi.move_to_usi(m) for m in board.legal_moves)
    sfen = " ".join(board.sfen().split()[:3])
    return "P\t{}\t{}\t{}".format(sfen, " ".join(moves), 1 if board.is_check() else 0)


def playout(rng, label, sfen, plies, out):
    board = cshogi.Board(sfen)
    out.append("G\t{}\t{}".format(label, sfen))
    for _ in range(plies):
        out.append(describe(board))
        moves = list(board.legal_moves)
        if not moves:
            return
        # Prefer drops and promotions now and then, so hands fill and empty.
        m = rng.choice(moves)
        out.append("M\t{}".format(cshogi.move_to_usi(m)))
        board.push(m)
    out.append(describe(board))


def dead(letter, black, rank):
    """Whether an unpromoted piece could never move from `rank` (1..9)."""
    far = rank if black else 10 - rank
    return (letter in "PL" and far <= 1) or (letter == "N" and far <= 2)


def sparse_position(rng):
    """A random legal-looking position built around a pawn-drop mate: the
    side to move (the attacker) holds pawns; the defender's king stands on
    or near its back rank with a few defenders, some in line with the
    attacker's sliders."""
    attacker_black = rng.random() < 0.5
    board = {}
    counts = {k: 0 for k in SET}

    def put(f, r, letter, black, promoted=False):
        if (f, r) in board or not (1 <= f <= 9 and 1 <= r <= 9):
            return False
        if letter != "K":
            if counts[letter] >= SET[letter]:
                return False
            if not promoted and dead(letter, black, r):
                return False
            if letter == "P" and not promoted and any(
                p == ("P", black, False) and s[0] == f for s, p in board.items()
            ):
                return False  # 二歩 on the board
        board[(f, r)] = (letter, black, promoted)
        if letter != "K":
            counts[letter] += 1
        return True

    # The defender's king near its own back rank.
    d_black = not attacker_black
    kf = rng.randint(1, 9)
    kr_rel = rng.choice([1, 1, 1, 2, 2, 3])  # rank counted from the defender's side
    kr = 10 - kr_rel if d_black else kr_rel
    put(kf, kr, "K", d_black)
    # The attacker's king far away.
    while True:
        af, ar = rng.randint(1, 9), (rng.randint(1, 4) if d_black else rng.randint(6, 9))
        if abs(af - kf) > 1 or abs(ar - kr) > 1:
            if put(af, ar, "K", attacker_black):
                break
    forward = 1 if d_black else -1  # the defender moves up (black) or down
    # Often: a defender beside the king that guards the square in front of
    # it, pinned along the rank by a rook (or along a diagonal by a bishop).
    if rng.random() < 0.4:
        side = rng.choice([-1, 1])
        letter = rng.choice("GGS")
        if letter == "G":
            gf, gr = kf + side, kr
        else:
            gf, gr = kf + side, kr + forward  # a silver diagonally behind
        if put(gf, gr, letter, d_black):
            dist = rng.randint(2, 8)
            pf, pr = kf + side * dist, kr + (gr - kr) * dist
            put(pf, pr, "R" if gr == kr else "B", attacker_black, promoted=rng.random() < 0.5)
    # Defenders around the king.
    for _ in range(rng.randint(0, 4)):
        f = kf + rng.randint(-2, 2)
        r = kr + rng.randint(-2, 2)
        letter = rng.choice("GGSSNLPB R")
        if letter == " ":
            continue
        put(f, r, letter, d_black, promoted=letter in PROMOTABLE and rng.random() < 0.2)
    # Attackers covering the squares around the king: golds, silvers,
    # dragons, horses, lances and knights near; rooks, bishops and lances
    # far on the king's lines (to pin defenders).
    for _ in range(rng.randint(1, 5)):
        f = kf + rng.randint(-2, 2)
        r = kr + rng.randint(-3, 3) * (-forward if rng.random() < 0.7 else forward)
        letter = rng.choice("GGSSRBLNP")
        put(f, r, letter, attacker_black, promoted=letter in "RBSP" and rng.random() < 0.4)
    for _ in range(rng.randint(0, 3)):
        letter = rng.choice("RBL")
        if letter == "R":
            if rng.random() < 0.5:
                f, r = rng.choice([1, 9]) if rng.random() < 0.5 else rng.randint(1, 9), kr
            else:
                f, r = kf, (1 if not d_black else 9) if rng.random() < 0.5 else rng.randint(1, 9)
        elif letter == "B":
            dist = rng.randint(2, 6)
            f = kf + rng.choice([-dist, dist])
            r = kr + rng.choice([-dist, dist])
        else:
            # A lance behind the square in front of the king, on its file.
            f = kf
            r = kr - forward * rng.randint(2, 7)
        put(f, r, letter, attacker_black, promoted=letter != "L" and rng.random() < 0.3)
    # Pawns on many files for both sides (二歩 for the attacker's drops).
    for black in (attacker_black, d_black):
        for f in range(1, 10):
            if rng.random() < 0.45:
                put(f, rng.randint(2, 8), "P", black)
    # Hands: the attacker always holds a pawn, often lances and knights
    # (dead-end drops) and sometimes more.
    hands = {True: {}, False: {}}

    def give(black, letter, n):
        n = min(n, SET[letter] - counts[letter])
        if n > 0:
            hands[black][letter] = hands[black].get(letter, 0) + n
            counts[letter] += n

    give(attacker_black, "P", rng.randint(1, 3))
    for letter in "LNSGBR":
        if rng.random() < 0.3:
            give(attacker_black, letter, 1)
        if rng.random() < 0.2:
            give(d_black, letter, 1)
    if rng.random() < 0.5:
        give(d_black, "P", rng.randint(1, 3))

    ranks = []
    for r in range(1, 10):
        row, empty = "", 0
        for f in range(9, 0, -1):
            p = board.get((f, r))
            if p is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            letter, black, promoted = p
            ch = letter if black else letter.lower()
            row += ("+" if promoted else "") + ch
        if empty:
            row += str(empty)
        ranks.append(row)
    hand = ""
    for black in (True, False):
        for letter in "RBGSNLP":
            n = hands[black].get(letter, 0)
            if n:
                ch = letter if black else letter.lower()
                hand += (str(n) if n > 1 else "") + ch
    return "{} {} {} 1".format("/".join(ranks), "b" if attacker_black else "w", hand or "-")


def legal_sfen(sfen):
    """Whether cshogi takes it and the side not to move is not in check."""
    try:
        board = cshogi.Board(sfen)
    except Exception:
        return False
    parts = sfen.split()
    parts[1] = "w" if parts[1] == "b" else "b"
    other = cshogi.Board(" ".join(parts))
    return not other.is_check()


def pawn_drop_mates(board):
    """The pawn drops in front of the enemy king that pass every other rule
    but are not legal: mate by a pawn drop."""
    if board.is_check():
        return []
    turn = board.turn
    if board.pieces_in_hand[turn][0] == 0:
        return []
    king = board.king_square(1 - turn)
    f, r = divmod(king, 9)
    r_front = r + 1 if turn == cshogi.BLACK else r - 1
    if not 0 <= r_front <= 8:
        return []
    to = f * 9 + r_front
    if board.piece(to) != 0:
        return []
    usi = "P*{}{}".format(f + 1, chr(ord("a") + r_front))
    own_pawn = cshogi.BPAWN if turn == cshogi.BLACK else cshogi.WPAWN
    if any(board.piece(f * 9 + rr) == own_pawn for rr in range(9)):
        return []
    legal = {cshogi.move_to_usi(m) for m in board.legal_moves}
    return [] if usi in legal else [usi]


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 2026
    rng = random.Random(seed)
    out = []
    for label, sfen in STARTS:
        games = 6 if label == "even" else 2
        for _ in range(games):
            playout(rng, label, sfen, rng.randint(60, 160), out)
    found = 0
    tries = 0
    while found < MIN_PAWN_DROP_MATES and tries < 400_000:
        tries += 1
        sfen = sparse_position(rng)
        if not legal_sfen(sfen):
            continue
        board = cshogi.Board(sfen)
        if pawn_drop_mates(board):
            found += 1
            playout(rng, "pawn-drop-mate", sfen, rng.randint(0, 6), out)
        elif tries % 40 == 0:
            playout(rng, "sparse", sfen, rng.randint(2, 12), out)
    print("\n".join(out))
    print("tries={} pawn_drop_mate_starts={}".format(tries, found), file=sys.stderr)


if __name__ == "__main__":
    main()
