"""Depth reached in equal time: Leyden against Fairy-Stockfish (and Fairy-Max) on one
position, each engine alone on the machine in turn, through the same protocol drivers
as the match runner. The strength issue's yardstick: on the `capablanca` bench
middlegame, 8 s each, Leyden within 3 plies of Fairy-Stockfish.

    python benchmarks/depth.py                       # capablanca middlegame, 8 s each
    python benchmarks/depth.py --seconds 2 --game normal --fen "..."

Depth, nodes and time are the engines' own reports (their last thinking line).
"""
import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from match.peers import engine_tokens, find_binary, plays
from match.engines import make_player, parse_engine_spec
from match.tc import TimeControl
from movegen import GAMES

MIDDLEGAME = "r2bqkb2r/ppp1pppppp/2n2c1n2/10/3pP5/3N2CNP1/PPPP1PPP1P/R2BQKB2R w KQkq - 0 10"
LEYDEN = ["name=leyden", f"cmd={sys.executable} -m engine", f"dir={ROOT}", "proto=uci"]


HANG = 600.0  # seconds: start-up (Leyden compiles first after a change) and the answer


def think(tokens: list, game: str, fen: str, tc: TimeControl):
    """One search of ``fen`` under ``tc`` by the engine ``tokens`` name, the side to move
    moving; its Reply (the engine's own depth, nodes and time included)."""
    player = make_player(parse_engine_spec(tokens), GAMES[game], startup_timeout=HANG)
    try:
        player.start()
        player.new_game(fen, fen.split()[1], tc)
        player.color = fen.split()[1]  # the side to move: think() makes it move now
        return player.think([], None, None, HANG, HANG)
    finally:
        player.close(1.0)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="capablanca")
    parser.add_argument("--fen", default=MIDDLEGAME)
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args(argv)
    engines = [("Leyden", LEYDEN)]
    for peer, label in (("fairy-stockfish", "Fairy-Stockfish"), ("fairymax", "Fairy-Max")):
        if find_binary(peer) is None:
            print(f"{label} is not installed (apt-get install {peer}): left out")
        elif plays(peer, args.game):
            engines.append((label, engine_tokens(peer, args.game)))
    row = "{:16s} {:>6} {:>12} {:>10} {:>8}  {}"
    print(f"{args.game}, {args.seconds:g} s each: {args.fen}")
    print(row.format("engine", "depth", "nodes", "k nodes/s", "seconds", "move"))
    depths = {}
    for label, tokens in engines:
        reply = think(tokens, args.game, args.fen, TimeControl(movetime=args.seconds))
        nps = reply.nodes / reply.seconds / 1000 if reply.nodes and reply.seconds else 0
        depths[label] = reply.depth
        print(row.format(label, reply.depth, reply.nodes, f"{nps:.0f}", f"{reply.seconds or 0:.2f}",
                         reply.move), flush=True)
    if "Fairy-Stockfish" in depths:
        gap = depths["Fairy-Stockfish"] - depths["Leyden"]
        print(f"Leyden is {gap} plies {'behind' if gap >= 0 else 'ahead of'} Fairy-Stockfish "
              f"(the target: within 3)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
