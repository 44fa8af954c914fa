"""How long Leyden takes to answer on the ``leyden serve`` page at its default level.

Plays ``--turns`` turns of each game (the human side makes random legal moves; in Ender's
Chess a drop or move and the end of the turn) and prints the seconds from the human's
last action to Leyden's whole turn being on the board, per game.

    python benchmarks/serve_reply.py [--turns 4] [--level 3]
"""
import argparse
import os
import random
import statistics
import sys
import time

# Run as a script, this folder comes first on the path, and its search.py would hide the
# search package.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

from movegen import GAMES  # noqa: E402
from serve.session import DEFAULT_LEVEL, Session  # noqa: E402


def replies(game: str, turns: int, level: str, rng: random.Random) -> list[float]:
    s = Session(game, level=level, seed=1 if GAMES[game].shuffle else None)
    out = []
    for _ in range(turns):
        legal = [m for m in s.state()["legal"] if m != "@@@@"]
        if not legal:
            break
        s.play(rng.choice(legal))
        if game == "enders" and s.pos.turn == "w":
            s.play("@@@@")
        started = time.monotonic()
        while s.thinking:
            time.sleep(0.005)
        out.append(time.monotonic() - started)
        if s.outcome():
            break
    s.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=4)
    ap.add_argument("--level", default=DEFAULT_LEVEL)
    args = ap.parse_args()
    rng = random.Random(1)
    print(f"level {args.level}: seconds per Leyden turn")
    print("| game | turns | mean | max |\n|---|---|---|---|")
    for game in GAMES:
        times = replies(game, args.turns, args.level, rng)
        print(f"| {game} | {len(times)} | {statistics.mean(times):.2f} | {max(times):.2f} |", flush=True)


if __name__ == "__main__":
    main()
