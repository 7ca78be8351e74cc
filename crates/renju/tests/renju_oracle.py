"""Oracle for tests/oracle.rs: black's forbidden points as PyPI `renju`
(renju==0.1.0, a port of the Piskvork judge's forbidden-move check) sees them.

Reads one board per line on stdin: 225 characters in point order (column a
first, rows 1..15 within a column), `x` black, `o` white, `.` empty. Writes
one line per board: `point:kind` pairs separated by spaces, kinds
`overline`, `double-four`, `double-three`, points in the same order.
With `--bench` it writes instead one line: the mean time per board in
microseconds (the benchmark's outside anchor, `cargo bench -p renju`).

Only `renju.check_forbid.get_foul_type(board, x, y)` is used; it returns 0
(allowed, including a five), 1 (double-three), 2 (double-four) or 3
(overline) for a black stone on the empty point (x, y).
"""
import sys
import time

from renju.check_forbid import get_foul_type

N = 15
KINDS = {1: "double-three", 2: "double-four", 3: "overline"}
LINES = [(1, 0), (0, 1), (1, 1), (1, -1)]


def near_black(board, x, y):
    # A point with no black stone within 5 along any line makes nothing:
    # skipping it only saves time (each call costs about a millisecond).
    for dx, dy in LINES:
        for k in range(-5, 6):
            a, b = x + k * dx, y + k * dy
            if k and 0 <= a < N and 0 <= b < N and board[a][b] == 1:
                return True
    return False


def main():
    bench = "--bench" in sys.argv[1:]
    out = sys.stdout
    started = time.perf_counter()
    boards = 0
    for line in sys.stdin:
        line = line.strip()
        if len(line) != N * N:
            raise SystemExit("bad board line: %r" % line)
        boards += 1
        board = [[0] * N for _ in range(N)]
        for i, ch in enumerate(line):
            board[i // N][i % N] = {"x": 1, "o": 2}.get(ch, 0)
        found = []
        for i, ch in enumerate(line):
            x, y = i // N, i % N
            if ch != "." or not near_black(board, x, y):
                continue
            kind = get_foul_type(board, x, y)
            if kind:
                found.append("%s%d:%s" % (chr(ord("a") + x), y + 1, KINDS[kind]))
        if not bench:
            out.write(" ".join(found) + "\n")
            out.flush()
    if bench:
        out.write("%.1f\n" % ((time.perf_counter() - started) * 1e6 / max(boards, 1)))


if __name__ == "__main__":
    main()
