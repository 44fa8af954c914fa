"""Leyden against a peer at equal nodes a move, at several node counts: how much of the
strength gap is the search's use of its nodes (neither engine's speed counts here).

    python benchmarks/equal_nodes.py                       # capablanca, Fairy-Stockfish
    python benchmarks/equal_nodes.py --nodes 10000 50000 200000 --games 40
    python benchmarks/equal_nodes.py --dir /tmp/build      # another checkout's Leyden

Each node count is one ``leyden match`` (every opening played with both colours, from
the game's balanced book in ``benchmarks/books/`` where there is one, else random
balanced plies), written to ``--out/GAME-PEER-NODES.pgn`` and resumed from it. Then one
line per node count: Leyden's score with its Elo and 95% interval, and the mean search
depth of each side. If Leyden's deficit grows with the node count, its search turns
nodes into strength less well than the peer's (its tree grows faster with depth); a
constant deficit would point at the evaluation instead. A load on the machine changes
how long this takes, not its results.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from match import runner  # noqa: E402
from match.peers import PEERS, engine_tokens  # noqa: E402
from match.stats import fmt_elo  # noqa: E402
from strength import leyden_tokens, summarize  # noqa: E402

BOOKS = Path(ROOT) / "benchmarks" / "books"
OUT = Path(ROOT) / "benchmarks" / "equal-nodes"


def match_argv(args, nodes: int, pgn: Path) -> list[str]:
    # UCI for Leyden (the later proto= wins): `go nodes N`, also right in builds older than
    # 589becb, whose XBoard side ignored nps under st
    leyden = leyden_tokens("leyden", "proto=uci", checkout=args.dir)
    argv = ["--variant", args.game, "--games", str(args.games), "--tc", f"nodes={nodes}",
            "--pgn", str(pgn), "--resume", "--seed", str(args.seed),
            "--concurrency", str(args.concurrency),
            "--event", f"Leyden vs {args.peer} at equal nodes",
            "--engine", *leyden, "--engine", *engine_tokens(args.peer, args.game)]
    book = BOOKS / f"{args.game}.epd"
    argv += ["--openings", str(book)] if book.exists() else ["--random-plies", "6"]
    if args.quiet:
        argv.append("--quiet")
    return argv


def report_line(nodes: int, pgn: Path) -> str:
    s = summarize(str(pgn), "leyden")
    t = s["tally"]
    elo, lo, hi = t.elo_interval()
    return (f"{nodes:>9,} {t.games:>6} {100 * t.score:>6.1f}%  {fmt_elo(elo)} [{fmt_elo(lo)}, {fmt_elo(hi)}]"
            f"  {s['depth']['first']:>6.1f} {s['depth']['other']:>6.1f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="capablanca")
    ap.add_argument("--peer", default="fairy-stockfish", choices=sorted(PEERS))
    ap.add_argument("--nodes", type=int, nargs="+", default=[10_000, 50_000, 200_000])
    ap.add_argument("--games", type=int, default=40, help="games per node count (default 40)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--concurrency", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--dir", default=ROOT, help="the checkout whose Leyden plays (default this one)")
    ap.add_argument("--out", default=str(OUT), help=f"where the PGN files go (default {OUT})")
    ap.add_argument("--quiet", action="store_true", help="no line per game")
    args = ap.parse_args(argv)
    if args.game not in PEERS[args.peer]["games"]:
        print(f"error: {args.peer} does not play {args.game} here", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    pgns = {n: out / f"{args.game}-{args.peer}-{n}.pgn" for n in args.nodes}
    for n, pgn in pgns.items():
        status = runner.cli(match_argv(args, n, pgn))
        if status != 0:
            return status
    print(f"\n{args.game}: Leyden ({args.dir}) against {args.peer}, equal nodes a move")
    print(f"{'nodes':>9} {'games':>6} {'score':>7}  Elo [95% interval]  depth: Leyden, peer")
    for n, pgn in pgns.items():
        print(report_line(n, pgn))
    return 0


if __name__ == "__main__":
    sys.exit(main())
