"""Oracle for tests/oracle.rs's game endings: PyPI renju (renju==0.1.0)
replays whole games with `RenjuBoard(rule=...)`.

Reads one game per line on stdin: the rule (`freestyle`, `standard`,
`renju`) then the moves as points (`h8 i9 …`). Writes one line per game:
the number of moves after which the game ended (0 if it did not), the
status and the reason, e.g. `37 WHITE_WIN double_three`.
"""
import sys

from renju import BoardStatus, RenjuBoard


def main():
    for line in sys.stdin:
        fields = line.split()
        if not fields:
            continue
        board = RenjuBoard(rule=fields[0])
        ended = 0
        for i, move in enumerate(fields[1:]):
            status, reason = board.play_str(move)
            if status != BoardStatus.ONGOING:
                ended = i + 1
                break
        sys.stdout.write("%d %s %s\n" % (ended, board.status.name, board.reason.value))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
