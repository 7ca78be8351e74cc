#!/usr/bin/env python3
"""Differential oracle for crates/chess: python-chess (PyPI `chess`) plays
seeded random playouts and describes every position it reaches.

Output, one line per record, fields separated by tabs:

  G  variant  start-fen                       a new game (standard|chess960)
  P  fen  moves  check  ending  threefold  fifty  white-insufficient  black-insufficient
  M  uci                                      the move played from the last P
  S  n  fen                                   Chess960 start position number n

`moves` is "uci:san" pairs separated by spaces, sorted by UCI. `ending` is
board.outcome()'s termination (checkmate, stalemate, insufficient_material,
seventy_five_moves, fivefold_repetition) or "-". `threefold` is
board.is_repetition(3) -- the current position only; can_claim_threefold_
repetition() also looks one move ahead, which is not what we compare.
`fifty` is board.is_fifty_moves(). The insufficient-material flags are
board.has_insufficient_material(colour), FIDE 6.9's "cannot win".

Usage: oracle.py [seed]
"""

import random
import sys

import chess

TERMINATION = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient_material",
    chess.Termination.SEVENTYFIVE_MOVES: "seventy_five_moves",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold_repetition",
}

# Middlegames rich in castling, en passant and promotions (the perft
# positions), and openings.
STANDARD_STARTS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
]

# Sparse endgames where random play meets mate, stalemate, dead
# positions, and (with the clocks given) the 50- and 75-move rules.
ENDGAME_STARTS = [
    "7k/8/5K2/8/8/8/8/6Q1 w - - 0 1",
    "k7/8/1K6/8/8/8/8/7R w - - 0 1",
    "5k2/8/5K2/5P2/8/8/8/8 w - - 0 1",
    "8/8/4k3/3b4/8/2N5/4K3/8 w - - 0 1",
    "8/8/3k4/8/3P4/8/3K4/8 w - - 0 1",
    "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
    "8/8/4k3/8/8/3K4/8/1R5r w - - 92 70",
    "8/8/4k3/8/8/3K4/8/1R5r w - - 141 90",
    "8/2n5/4k3/8/8/3K4/2B5/8 b - - 138 90",
    "7k/8/6K1/8/8/8/8/R7 w - - 145 100",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
    "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2",
    "8/6b1/8/8/3k4/8/1K6/3B4 w - - 0 1",
    "8/8/8/8/4k3/8/4K3/2Q5 w - - 0 1",
]

# Pawn walls (FIDE 5.2.2): python-chess, which knows dead positions by
# material only, plays on; qiju calls some dead, and tests/oracle.rs walks
# every reachable position to check those. Locked from the start; locked
# once g3-g4 is played; and walls a king can get round to take a pawn
# (alive, so qiju must play on).
LOCKED_STARTS = [
    "8/8/3k4/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1",
    "8/8/3k4/p1p1p1p1/P1P1P1P1/8/3K4/8 b - - 0 1",
    "8/8/3k4/p1p1p1p1/P1P1P3/6P1/3K4/8 w - - 0 1",
    "8/8/3k4/p1p1p3/P1P1P3/8/3K4/8 w - - 0 1",
    "8/3k4/8/1p1p1p2/1P1P1P2/8/8/K7 w - - 0 1",
]


def chess960_start(rng):
    return chess.Board.from_chess960_pos(rng.randrange(960)).fen()


def describe(board):
    moves = sorted(board.legal_moves, key=board.uci)
    pairs = " ".join(f"{board.uci(m)}:{board.san(m)}" for m in moves)
    outcome = board.outcome()
    ending = TERMINATION[outcome.termination] if outcome else "-"
    fields = [
        "P",
        board.fen(),
        pairs,
        str(int(board.is_check())),
        ending,
        str(int(board.is_repetition(3))),
        str(int(board.is_fifty_moves())),
        str(int(board.has_insufficient_material(chess.WHITE))),
        str(int(board.has_insufficient_material(chess.BLACK))),
    ]
    print("\t".join(fields))
    return outcome


def reverse_of(board, move):
    """The move that takes the piece back, if it is legal now."""
    back = chess.Move(move.to_square, move.from_square)
    return back if back in board.legal_moves else None


def playout(rng, fen, chess960, max_plies, shuffle_after=None):
    """Random moves; from `shuffle_after` plies on, each side mostly takes
    its previous move back, so positions repeat three and five times."""
    board = chess.Board(fen, chess960=chess960)
    print("\t".join(["G", "chess960" if chess960 else "standard", board.fen()]))
    for ply in range(max_plies + 1):
        if describe(board) is not None or ply == max_plies:
            return
        move = None
        if shuffle_after is not None and ply >= shuffle_after and len(board.move_stack) >= 2:
            last_own = board.move_stack[-2]
            if rng.random() < 0.9 and not board.is_capture(last_own) and last_own.promotion is None:
                move = reverse_of(board, last_own)
        if move is None:
            move = rng.choice(list(board.legal_moves))
        print("\t".join(["M", board.uci(move)]))
        board.push(move)


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 2026
    rng = random.Random(seed)
    for n in range(960):
        print("\t".join(["S", str(n), chess.Board.from_chess960_pos(n).fen()]))
    for fen in STANDARD_STARTS:
        for _ in range(3):
            playout(rng, fen, False, 90)
        playout(rng, fen, False, 60, shuffle_after=rng.randrange(0, 12))
    for fen in ENDGAME_STARTS:
        for _ in range(5):
            playout(rng, fen, False, 80)
    for _ in range(6):
        playout(rng, chess960_start(rng), True, 90)
    for _ in range(3):
        playout(rng, chess960_start(rng), True, 50, shuffle_after=rng.randrange(0, 10))
    # Chess960 positions where castling is near (the perft page's).
    for fen in [
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
        "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
        "nbkr1qbr/1pp1pppp/pn1p4/8/3P2P1/5R2/PPP1PP1P/NBN1KQBR w H - 2 9",
        "4k3/8/8/8/8/8/8/R5KR w HA - 0 1",
    ]:
        for _ in range(2):
            playout(rng, fen, True, 60)
    # Last, so that the playouts above stay as they were.
    for fen in LOCKED_STARTS:
        for _ in range(3):
            playout(rng, fen, False, 60)


if __name__ == "__main__":
    main()
