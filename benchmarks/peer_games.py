"""Training positions from a peer engine playing itself, for the Texel tuner.

    python benchmarks/peer_games.py capablanca --peer fairy-stockfish --games 2000 --nodes 20000
    make peer-data GAME=capablanca GAMES=2000

Two instances of the peer (configured by ``benchmarks/peers/``) play ``leyden match``
games, refereed with Leyden's rules, from random balanced openings (a fresh shuffle in
the random games), at ``--nodes`` nodes a move, adjudicated won at 10 pawns agreed for 6
moves; the games go to ``data/tune/GAME-PEER.pgn`` (``--resume``: a rerun with more
games continues it), then tune/pgndata.py turns them into labelled quiet positions,
``data/tune/GAME-PEER.txt``, for ``python -m tune.texel GAME --data ...``.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from match.peers import PEERS, engine_tokens  # noqa: E402

from match import runner  # noqa: E402
from tune.pgndata import convert  # noqa: E402

DATA_DIR = Path(ROOT) / "data" / "tune"


def match_argv(args, pgn: Path, first: list[str], second: list[str]) -> list[str]:
    argv = ["--variant", args.game, "--games", str(args.games), "--tc", f"nodes={args.nodes}",
            "--pgn", str(pgn), "--resume", "--seed", str(args.seed),
            "--concurrency", str(args.concurrency), "--resign", "score=1000", "count=6",
            "--event", f"{args.peer} self-play for tuning",
            "--engine", *first, "--engine", *second]
    if not args.game.endswith("random"):
        argv += ["--random-plies", str(args.random_plies)]
    if args.quiet:
        argv.append("--quiet")
    return argv


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--peer", default="fairy-stockfish", choices=sorted(PEERS))
    ap.add_argument("--games", type=int, default=1000, help="games the PGN file should hold (default 1000)")
    ap.add_argument("--nodes", type=int, default=20000, help="nodes a move (default 20000)")
    ap.add_argument("--random-plies", type=int, default=8, help="random opening plies (default 8)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--concurrency", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--quiet", action="store_true", help="no line per game")
    ap.add_argument("--out-dir", default=str(DATA_DIR), help=f"where the files go (default {DATA_DIR})")
    args = ap.parse_args(argv)
    if args.game not in PEERS[args.peer]["games"]:
        print(f"error: {args.peer} does not play {args.game} here "
              f"(it plays {', '.join(PEERS[args.peer]['games'])})", file=sys.stderr)
        return 2
    try:  # two instances of the peer, named apart
        first = engine_tokens(args.peer, args.game)
        second = engine_tokens(args.peer, args.game, name=f"{args.peer}-2")
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    stem = Path(args.out_dir) / f"{args.game}-{args.peer}"
    stem.parent.mkdir(parents=True, exist_ok=True)
    status = runner.cli(match_argv(args, stem.with_suffix(".pgn"), first, second))
    convert(args.game, [str(stem.with_suffix(".pgn"))], stem.with_suffix(".txt"))
    return status


if __name__ == "__main__":
    sys.exit(main())
