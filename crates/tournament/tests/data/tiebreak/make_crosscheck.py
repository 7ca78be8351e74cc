#!/usr/bin/env python3
"""Cross-check data for qiju's tie-breaks: random Swiss-like tournaments
(random pairings, not a pairing system: the tie-breaks only read the
crosstable) with forfeits, half- and zero-point byes, pairing-allocated byes
and withdrawals, written as TRF, and the tie-break values a second
implementation computes for them: tiebreak-core (PyPI, MIT), ruleset
"fide-2024" (FIDE C.07 as applied from August 2024, article 16 for unplayed
rounds).

    pip install tiebreak-core==1.2.0
    python3 make_crosscheck.py      # rewrites cc_*.trf and expected.tsv

expected.tsv: file, player, then BH, BH-C1, SB, PS, WIN, WON, AROC, in
hundredths of a point for the first four (exact: scores are halves).

expected_dutch.tsv: the same for the 1/½/0 tournaments of the Dutch replay
corpus (../dutch/*.trf, made by bbpPairings' generator and replayed round by
round), a half-point pairing-allocated bye (`BBU 0.5`) included; files whose
games score otherwise (BBW/BBD/BBL/BBZ/BBF, XXS or 162 lines: 3/1/0 and
2/1/0) are left out because tiebreak-core counts C.07 16.3's draw as 0.5
whatever the points system. A file written mid-event is ranked on the
rounds paired so far (as qiju's `Table` does), not on XXR.

expected_order.tsv: the full ranking (points, then the tie-breaks named on
the line, direct encounter by C.07 6.1-6.3 among them, ties in pairing-
number order) of every file above. Files where two players on equal points
met only by forfeit are left out: tiebreak-core counts such a pair as
having met (scoring nothing), qiju as not having met (6.1.1: forfeits are
not games for direct encounter in a Swiss).
"""
import glob
import os
import random

from tiebreak_core import (GameRecord, PlayerTiebreakData, calculate_all_strict,
                           rank_standings_strict)

HERE = os.path.dirname(os.path.abspath(__file__))
CRITERIA = ["buchholz", "buchholz_cut1", "sonneborn_berger", "progressive",
            "wins", "won", "aro_cut1"]
POINTS = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "U": 1.0,
          "H": 0.5, "Z": 0.0, " ": 0.0, "W": 1.0, "D": 0.5, "L": 0.0,
          "F": 1.0}


def tournament(rng, n, rounds):
    """cells[p][r] = (opponent or 0, colour, code)."""
    cells = {p: [] for p in range(1, n + 1)}
    withdrawn = {}
    for p in rng.sample(range(1, n + 1), k=rng.randint(0, 2)):
        withdrawn[p] = rng.randint(2, rounds)
    met = set()
    for r in range(1, rounds + 1):
        here = []
        for p in range(1, n + 1):
            if p in withdrawn and r >= withdrawn[p]:
                cells[p].append((0, "-", " "))
            elif rng.random() < 0.06:
                cells[p].append((0, "-", rng.choice("HZ")))
            else:
                here.append(p)
        rng.shuffle(here)
        if len(here) % 2:
            p = here.pop()
            cells[p].append((0, "-", "U"))
        while here:
            a = here.pop()
            # Prefer an opponent not met yet.
            j = next((i for i, b in enumerate(here) if (min(a, b), max(a, b)) not in met), 0)
            b = here.pop(j)
            met.add((min(a, b), max(a, b)))
            x = rng.random()
            if x < 0.05:
                ra, rb = "+", "-"
            elif x < 0.08:
                ra, rb = "-", "+"
            elif x < 0.45:
                ra, rb = "1", "0"
            elif x < 0.75:
                ra, rb = "0", "1"
            else:
                ra, rb = "=", "="
            cells[a].append((b, "w", ra))
            cells[b].append((a, "b", rb))
    return cells


def trf(name, cells, ratings, rounds):
    lines = [f"012 {name}", f"XXR {rounds}"]
    for p in sorted(cells):
        pts = sum(POINTS[c[2]] for c in cells[p])
        line = f"001 {p:>4}  {'':>3} {('Player ' + str(p)):<33} {ratings[p]:>4} {'':<3} {'':>11} {'':<10} {pts:>4.1f} {'':>4}"
        for opp, col, code in cells[p]:
            line += f"  {opp:>4} {col} {code}" if opp else f"  0000 - {code}"
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n"


def points_of(path):
    """The value of each TRF result code in the file at `path`: 1/½/0 with,
    where a `BBU` line says so, another value for the pairing-allocated bye
    (tiebreak-core takes a bye's score as given). None for a file whose games
    score otherwise (BBW/BBD/BBL/BBZ/BBF, XXS or 162 lines): tiebreak-core
    counts C.07 16.3's draw as 0.5 whatever the points system."""
    points = dict(POINTS)
    for line in open(path):
        if line[:3] in ("BBW", "BBD", "BBL", "BBZ", "BBF", "XXS", "162"):
            return None
        if line[:3] == "BBU":
            points["U"] = float(line.split()[1])
    return points


def records(cells, ratings, points=POINTS):
    players = {}
    for p, row in cells.items():
        games = []
        for r, (opp, col, code) in enumerate(row, start=1):
            score = points[code]
            colour = {"w": "white", "b": "black"}.get(col, "white")
            if code in "1=0WDL":
                games.append(GameRecord(opp, ratings[opp], score, colour, r, kind="played"))
            elif code == "+":
                games.append(GameRecord(opp, ratings[opp], score, colour, r, kind="forfeit_win"))
            elif code == "-":
                games.append(GameRecord(opp, ratings[opp], score, colour, r, kind="forfeit_loss"))
            elif code == "U":
                games.append(GameRecord(-1, 0, score, colour, r, kind="pairing_bye"))
            else:  # H, Z, and the zero-point rounds after a withdrawal
                games.append(GameRecord(-1, 0, score, colour, r, kind="requested_bye"))
        players[p] = PlayerTiebreakData(p, ratings[p], sum(g.score for g in games), games)
    return players


def read_trf(path):
    """Ratings and cells of a TRF-2016 file (player lines only)."""
    rounds = 0
    rows = {}
    ratings = {}
    for line in open(path):
        if line.startswith("XXR"):
            rounds = int(line.split()[1])
        if not line.startswith("001"):
            continue
        p = int(line[4:8])
        ratings[p] = int(line[48:52].strip() or 0)
        cells = []
        at = 91
        while at + 7 < len(line.rstrip("\n")) + 1:
            opp = line[at:at + 4].strip()
            col = line[at + 5:at + 6]
            code = line[at + 7:at + 8] if at + 7 < len(line.rstrip("\n")) else " "
            cells.append((int(opp) if opp and opp != "0000" else 0, col, code or " "))
            at += 10
        rows[p] = cells
    rounds = max([rounds] + [len(c) for c in rows.values()])
    for p in rows:
        rows[p] += [(0, "-", " ")] * (rounds - len(rows[p]))
    # A file written mid-event (XXR says more, or the next round's absences
    # are already entered) is ranked on the rounds paired so far: the last
    # round in which someone has an opponent or a pairing-allocated bye.
    paired = max((r + 1 for row in rows.values() for r, (opp, _, code) in enumerate(row)
                  if opp or code == "U"), default=0)
    rows = {p: row[:paired] for p, row in rows.items()}
    return rows, ratings, paired


def dutch(order_out):
    out = ["# file\tplayer\tBH\tBH-C1\tSB\tPS\tWIN\tWON\tAROC"]
    for path in sorted(glob.glob(os.path.join(HERE, "..", "dutch", "*.trf"))):
        name = os.path.basename(path)
        points = points_of(path)
        if points is None:
            continue
        cells, ratings, rounds = read_trf(path)
        orders("../dutch/" + name, cells, ratings, rounds, order_out, points)
        players = records(cells, ratings, points)
        for p in sorted(players):
            v = calculate_all_strict(players[p], players, CRITERIA,
                                     total_rounds=rounds, ruleset="fide-2024")
            hundredths = [round(v[c] * 100) for c in CRITERIA[:4]]
            counts = [round(v[c]) for c in CRITERIA[4:]]
            out.append("\t".join([name, str(p)] + [str(x) for x in hundredths + counts]))
    with open(os.path.join(HERE, "expected_dutch.tsv"), "w") as f:
        f.write("\n".join(out) + "\n")


ORDERS = [
    ["direct_encounter", "buchholz_cut1", "buchholz", "sonneborn_berger", "progressive", "won"],
    ["buchholz_cut1", "direct_encounter", "aro_cut1"],
]
NAMES = {"direct_encounter": "DE", "buchholz_cut1": "BH-C1", "buchholz": "BH",
         "sonneborn_berger": "SB", "progressive": "PS", "won": "WON",
         "aro_cut1": "AROC"}


def forfeit_between_equals(cells, values=POINTS):
    points = {p: sum(values[c[2]] for c in row) for p, row in cells.items()}
    return any(code in "+-" and opp and points[opp] == points[p]
               for p, row in cells.items() for opp, _, code in row)


def orders(name, cells, ratings, rounds, out, points=POINTS):
    if forfeit_between_equals(cells, points):
        return
    players = records(cells, ratings, points)
    for criteria in ORDERS:
        s = rank_standings_strict(players, criteria, total_rounds=rounds,
                                  ruleset="fide-2024")
        ids = ",".join(str(r.player_id) for r in s.players)
        out.append("\t".join([name, ",".join(NAMES[c] for c in criteria), ids]))


def main():
    rng = random.Random(20261203)
    out = ["# file\tplayer\tBH\tBH-C1\tSB\tPS\tWIN\tWON\tAROC"]
    order_out = ["# file\ttie-breaks\tpairing numbers, first place first"]
    for k in range(16):
        n = rng.randint(7, 30)
        rounds = rng.randint(5, 9)
        cells = tournament(rng, n, rounds)
        ratings = {p: rng.randint(1400, 2500) for p in cells}
        name = f"cc_{k:02}.trf"
        with open(os.path.join(HERE, name), "w") as f:
            f.write(trf(f"tie-break cross-check {k}", cells, ratings, rounds))
        orders(name, cells, ratings, rounds, order_out)
        players = records(cells, ratings)
        for p in sorted(players):
            v = calculate_all_strict(players[p], players, CRITERIA,
                                     total_rounds=rounds, ruleset="fide-2024")
            hundredths = [round(v[c] * 100) for c in CRITERIA[:4]]
            counts = [round(v[c]) for c in CRITERIA[4:]]
            out.append("\t".join([name, str(p)] + [str(x) for x in hundredths + counts]))
    with open(os.path.join(HERE, "expected.tsv"), "w") as f:
        f.write("\n".join(out) + "\n")
    dutch(order_out)
    with open(os.path.join(HERE, "expected_order.tsv"), "w") as f:
        f.write("\n".join(order_out) + "\n")


if __name__ == "__main__":
    main()
