"""A search or evaluation change played against Fairy-Stockfish at time odds, as the rows
"Against the peer at time odds" of benchmarks/sprt.md are (``make odds``):

    python benchmarks/odds.py --dir ../wt-candidate --pgn cand.pgn \
        --against benchmarks/sprt/odds-fsf2s-parentmc-7612.pgn

The engine of checkout ``--dir`` (a git worktree of the candidate; compiled first) plays
Leyden's 10 s + 0.1 s against the peer held to 2 s + 0.02 s, where Leyden scores well
above 50% and a change of strength shows; pairs of openings (capablanca: the balanced
book; the shuffles: their seeded start positions; the others: 6 random plies), two games
at a time. Then ``benchmarks/sprt_summary.py`` prints the figures of the row, with
``--against`` the reference run (main's engine, the same game and seed) compared opening
by opening. The peer is the one the strength table plays (``match/peers.py``).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from match.peers import engine_tokens  # noqa: E402

LEYDEN_TC = "10+0.1"
PEER_TC = "2+0.02"  # a fifth of Leyden's time
BOOKS = {"capablanca": os.path.join(ROOT, "benchmarks", "books", "capablanca.epd")}
SHUFFLES = ("caparandom", "sultanrandom")


def openings(game: str) -> list[str]:
    """The openings' arguments of ``python -m match`` for ``game``."""
    if game in BOOKS:
        return ["--openings", BOOKS[game]]
    return [] if game in SHUFFLES else ["--random-plies", "6"]


def match_argv(args) -> list[str]:
    """The ``python -m match`` arguments of the gauntlet."""
    leyden = ["name=leyden", f"cmd={sys.executable} -m engine", "proto=xboard",
              f"dir={os.path.abspath(args.dir)}"]
    peer = engine_tokens("fairy-stockfish", args.game) + [f"tc={PEER_TC}"]
    return (["--variant", args.game, "--games", str(args.games), "--tc", LEYDEN_TC, *openings(args.game),
             "--pgn", args.pgn, "--resume", "--seed", str(args.seed), "--concurrency", "2",
             "--engine", *leyden, "--engine", *peer])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="capablanca")
    ap.add_argument("--dir", default=ROOT, help="the checkout whose engine plays (default: this one)")
    ap.add_argument("--pgn", required=True, help="the games (resumed if it exists)")
    ap.add_argument("--seed", type=int, default=7612,
                    help="7612: main's capablanca reference; normal 7613, energizer 7614, caparandom 7615")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--against", metavar="REF", help="main's run on the same openings, to compare with")
    args = ap.parse_args(argv)
    args.pgn = os.path.abspath(args.pgn)  # the commands below run in the repository
    run = [sys.executable, "-m"]
    subprocess.run(run + ["engine", "warmup"], cwd=args.dir, check=True)
    subprocess.run(run + ["match", *match_argv(args)], cwd=ROOT, check=True)
    summary = [sys.executable, os.path.join(ROOT, "benchmarks", "sprt_summary.py"), args.pgn,
               "--first", "leyden", "--every", "0"] + (["--against", os.path.abspath(args.against)] if args.against else [])
    return subprocess.run(summary, cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main())
