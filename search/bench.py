"""``leyden bench``: a fixed set of searches whose node total is the search's signature.

Two positions per game (the opening and a middlegame reached by the engine's own play),
each searched to a fixed depth with a fresh 16 MiB transposition table and fresh
history, no time limit: the node total depends only on the code, so it changes exactly
when the search or the evaluation changes (tests/search/test_bench.py records it).

The bench is single-threaded (deterministic). Its speed counts searching only: every
kernel is compiled (first run after an install) or loaded from the cache, and every
game's tables built, by ``warm_up`` before the clock starts; that time is printed on a
line of its own.
"""
from __future__ import annotations

import time

# (game, FEN, default depth): depths chosen for a few hundred thousand nodes each
BENCH_POSITIONS = [
    ("normal", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 10),
    ("normal", "r3kb1r/pppqpp2/2npb2p/6p1/4P1n1/2NPBN2/PPPQ1PPP/1K1R1B1R w kq - 2 10", 9),
    ("capablanca", "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1", 9),
    ("capablanca", "r2bqkb2r/ppp1pppppp/2n2c1n2/10/3pP5/3N2CNP1/PPPP1PPP1P/R2BQKB2R w KQkq - 0 10", 9),
    ("caparandom", "naqrbknbcr/pppppppppp/10/10/10/10/PPPPPPPPPP/NAQRBKNBCR w KQkq - 0 1", 9),
    ("caparandom", "2qrbk3r/ppp1ppbppp/1np3pn2/10/2P1N5/5N4/PP1PPPPPPP/2QRBK1B1R w KQkq - 4 10", 8),
    ("energizer", "rnackqnr/pbppppbp/1p4p1/8/8/1P4P1/PBPPPPBP/RNACKQNR w KQkq - 0 1", 9),
    ("energizer", "r4rk1/pbp1ppqp/1pnc1np1/3p4/3P1C2/1PN1PNP1/P1P2PBP/R3KQ1R w KQ - 1 10", 8),
    ("sultan", "rnbcqkcbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBCQKCBNR w KQkq - 0 1", 9),
    ("sultan", "r2cck1b1r/pp2p1pppp/4bp3n/3p6/10/3C1N4/PP1PPPPPPP/R1B1CK1B1R w KQkq - 2 10", 8),
    ("sultanrandom", "nrkcbbcnrq/pppppppppp/10/10/10/10/PPPPPPPPPP/NRKCBBCNRQ w KQkq - 0 1", 9),
    ("sultanrandom", "1rk1b1cr2/ppppbppp1p/4pcnqp1/10/2n5P1/1N1CCQNP2/PPPPPPP2P/1RK1BB3R w Qq - 5 10", 7),
    ("batteries", "2eokloe2/2baddab2/1ssssssss1/10/10/10/10/1SSSSSSSS1/2BADDAB2/2EOKLOE2 w - - 0 1", 8),
    ("batteries", "2eokloe2/3ab1ba2/1sssddsss1/10/5s4/1S3S2S1/10/2SSSDS3/3ABDBA2/2EOKLOE2 w - - 1 10", 8),
    ("enders", "**1**/5/5/5/5/5/5/5/5/5/**1**[RRBBKKNNrrbbkknn] w - - 0 1", 16),
    ("enders", "**1**/1b3/2rr1/5/5/2R2/2R2/5/B4/3BN/**1**[KKNbkknn] w - - 0 6", 7),
]
BENCH_HASH_MB = 16


def warm_up(positions=None) -> float:
    """Compile or load every kernel and build every table the bench positions need, by a
    depth-1 search of each with a throwaway searcher; returns the seconds it took."""
    from movegen import Position

    from . import Limits, Searcher
    start = time.perf_counter()
    searcher = Searcher(hash_mb=1, threads=1)
    for game, fen, _ in positions or BENCH_POSITIONS:
        searcher.search(Position(game, fen), Limits(depth=1))
    return time.perf_counter() - start


def run_bench(depth: int | None = None, out=print, positions=None) -> tuple[int, float]:
    """Search every bench position (to ``depth`` if given, else each one's own depth);
    print the warm-up time, one line per position and the totals; return (total nodes,
    nodes per second of the searches alone)."""
    from movegen import Position

    from . import Limits, Searcher
    out(f"Kernels compiled or loaded in {warm_up(positions):.1f} s (not counted below)")
    searcher = Searcher(hash_mb=BENCH_HASH_MB, threads=1)
    total = 0
    seconds = 0.0
    for i, (game, fen, own_depth) in enumerate(positions or BENCH_POSITIONS, start=1):
        pos = Position(game, fen)
        searcher.new_game()
        start = time.perf_counter()
        best, _ = searcher.search(pos, Limits(depth=depth or own_depth))
        elapsed = time.perf_counter() - start
        total += searcher.nodes
        seconds += elapsed
        out(f"{i:2d} {game:13s} depth {depth or own_depth:2d}  nodes {searcher.nodes:9d}  "
            f"time {elapsed:6.3f} s  best {best}")
    nps = total / seconds if seconds > 0 else 0.0
    out(f"Nodes: {total}")
    out(f"NPS: {int(nps)}")
    return total, nps
