"""berserk (lichess's Python client, PyPI `berserk`) plays through qiju's
lichess-compatible Bot API, unchanged but for its base URL (issue 32).

Run by crates/server/tests/lichess.rs with QIJU_URL, WHITE_TOKEN,
BLACK_TOKEN (two fresh accounts' bot tokens) and MATE_GAME (a Xiangqi game
ending in red's mate, ICCS). Both accounts are upgraded to bots; then:
a Xiangqi game to the mate, a chess game to fool's mate, and a game
resigned — each side a thread reading its own game stream and moving when
it is its turn, as a lichess bot does. Prints one line per result.
"""

import os
import queue
import sys
import threading

import berserk

URL = os.environ["QIJU_URL"]
MATE_GAME = os.environ["MATE_GAME"].split()
FOOLS_MATE = ["f2f3", "e7e5", "g2g4", "d8h4"]


def client(token):
    return berserk.Client(session=berserk.TokenSession(token), base_url=URL)


def fail(msg):
    print("FAIL:", msg, flush=True)
    sys.exit(1)


class Events:
    """A bot's event stream, read on a thread into a queue."""

    def __init__(self, bot):
        self.q = queue.Queue()
        threading.Thread(target=self.read, args=(bot,), daemon=True).start()

    def read(self, bot):
        for ev in bot.bots.stream_incoming_events():
            self.q.put(ev)

    def expect(self, kind):
        while True:
            try:
                ev = self.q.get(timeout=30)
            except queue.Empty:
                fail(f"no {kind} event within 30 s")
            if ev.get("type") == kind:
                return ev


def play_side(bot, game_id, color, moves, results, chat=None, resign_after=None):
    """Reads the game stream; plays `moves[i]` whenever it is this side's
    turn; resigns once `resign_after` moves are on the board."""
    me_first = color == "white"
    full = None
    for line in bot.bots.stream_game_state(game_id):
        if line["type"] == "gameFull":
            full = line
            state = line["state"]
            if chat:
                bot.bots.post_message(game_id, chat)
        elif line["type"] == "gameState":
            state = line
        else:
            continue
        if state["status"] != "started":
            results[color] = (full, state)
            return
        played = state["moves"].split()
        if resign_after is not None and len(played) >= resign_after:
            if (len(played) % 2 == 0) == me_first:
                bot.bots.resign_game(game_id)
            continue
        if (len(played) % 2 == 0) == me_first and len(played) < len(moves):
            bot.bots.make_move(game_id, moves[len(played)])
    results[color] = (full, None)


def game(challenger, accepter, acc_events, events, variant, limit, inc, color, moves, chat=None, resign_after=None):
    """`challenger` challenges `accepter` (who accepts); the two play
    `moves`; returns each side's (gameFull, last state)."""
    ch = challenger.challenges.create(
        accepter.account.get()["username"], rated=False, clock_limit=limit, clock_increment=inc,
        color=color, variant=variant,
    )
    ev = acc_events.expect("challenge")
    if ev["challenge"]["id"] != ch["id"]:
        fail(f"challenge {ch['id']} announced as {ev['challenge']['id']}")
    if ev["challenge"]["variant"]["key"] != variant:
        fail(f"variant {ev['challenge']['variant']}")
    accepter.bots.accept_challenge(ch["id"])
    starts = {name: e.expect("gameStart")["game"] for name, e in events.items()}
    game_id = starts["challenger"]["gameId"]
    if starts["accepter"]["gameId"] != game_id:
        fail("the two gameStart events name different games")
    results = {}
    threads = []
    for name, bot in [("challenger", challenger), ("accepter", accepter)]:
        colour = starts[name]["color"]
        t = threading.Thread(
            target=play_side,
            args=(bot, game_id, colour, moves, results),
            kwargs={"chat": chat if name == "challenger" else None, "resign_after": resign_after},
            daemon=True,
        )
        t.start()
        threads.append(t)
    for t in threads:
        t.join(timeout=60)
        if t.is_alive():
            fail(f"game {game_id} did not end within 60 s: {results}")
    for name, e in events.items():
        fin = e.expect("gameFinish")["game"]
        if fin["gameId"] != game_id:
            fail(f"gameFinish of {fin['gameId']}, not {game_id}")
    return game_id, results


def main():
    white = client(os.environ["WHITE_TOKEN"])
    black = client(os.environ["BLACK_TOKEN"])
    for bot in (white, black):
        if bot.account.get().get("title") == "BOT":
            fail("a fresh account is not a bot yet")
        bot.account.upgrade_to_bot()
        acct = bot.account.get()
        if acct.get("title") != "BOT":
            fail(f"upgraded account: {acct}")
    w_events, b_events = Events(white), Events(black)

    # Xiangqi: white (red, the first side) mates.
    game_id, res = game(
        white, black, b_events, {"challenger": w_events, "accepter": b_events},
        "xiangqi", 300, 2, "white", MATE_GAME, chat="good luck from berserk",
    )
    full, last = res["white"]
    if full["variant"]["key"] != "xiangqi" or full["clock"] != {"initial": 300000, "increment": 2000}:
        fail(f"gameFull: {full}")
    if last is None or last["status"] != "mate" or last.get("winner") != "white":
        fail(f"xiangqi ended {last}")
    if last["moves"].split() != MATE_GAME:
        fail(f"moves {last['moves']}")
    print("xiangqi mate", game_id, flush=True)

    # Chess: black challenges as black; fool's mate.
    game_id, res = game(
        black, white, w_events, {"challenger": b_events, "accepter": w_events},
        "chess", 180, 0, "black", FOOLS_MATE,
    )
    full, last = res["black"]
    if full["variant"]["key"] != "chess" or full["white"]["name"] != white.account.get()["username"]:
        fail(f"gameFull: {full}")
    if last is None or last["status"] != "mate" or last.get("winner") != "black":
        fail(f"chess ended {last}")
    print("chess mate", game_id, flush=True)

    # Resigned: after 2 moves, the side to move (white) resigns.
    game_id, res = game(
        white, black, b_events, {"challenger": w_events, "accepter": b_events},
        "xiangqi", 60, 0, "white", MATE_GAME, resign_after=2,
    )
    _, last = res["black"]
    if last is None or last["status"] != "resign" or last.get("winner") != "black":
        fail(f"resigned game ended {last}")
    print("resigned", game_id, flush=True)

    # lichess's errors arrive as berserk's ResponseError.
    try:
        white.bots.make_move(game_id, "h2e2")
        fail("a move in a finished game was taken")
    except berserk.exceptions.ResponseError as e:
        if e.status_code != 400:
            fail(f"a move in a finished game: {e.status_code}")
    bots = [u["username"] for u in white.bots.get_online_bots()]
    if white.account.get()["username"] not in bots:
        fail(f"/api/bot/online: {bots}")
    print("ok", flush=True)


if __name__ == "__main__":
    main()
