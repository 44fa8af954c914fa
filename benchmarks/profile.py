"""Where a search node's time goes, per game family: measured, not guessed.

    python benchmarks/profile.py            # the bench positions (search/bench.py)
    python benchmarks/profile.py --quick    # two plies shallower

Two measurements in one run (single-threaded):

1. Work per node. The bench searches run in a build of the search that counts what it
   does (LEYDEN_PROFILE=1, compiled into a numba cache of its own): main-search and
   quiescence nodes, static evaluations, pseudo-legal and noisy move lists generated,
   lists scored for ordering, moves tested for legality as they are tried (the staged
   picking of search/picker.py), moves made (and unmade), transposition-table probes,
   static exchange evaluations.
2. Cost per unit of work. Each kernel is timed alone, in a compiled loop, on positions
   met in those searches (random continuations of the bench positions).

Count times cost, per node, against the measured time per node gives the breakdown.
"other" is what remains: the search's own bookkeeping (pruning tests, PV and history
updates, repetition checks, calls) and the cache misses that a kernel timed alone on a
few positions does not see. The counting build is itself about 2% slower.
"""
import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# before any kernel is imported: the counting build, in a cache of its own
os.environ["LEYDEN_PROFILE"] = "1"
os.environ["NUMBA_CACHE_DIR"] = str(Path(tempfile.gettempdir()) / "leyden-profile-cache")

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from benchmarks.children import evaluate_children  # noqa: E402
from movegen import Position  # noqa: E402
from movegen import layout as L  # noqa: E402
from movegen.core import victim  # noqa: E402
from movegen.kernel import gen_pseudo, in_check, is_legal, make, unmake  # noqa: E402
from search import Limits, Searcher  # noqa: E402
from search.alphabeta import gen_noisy  # noqa: E402
from search.bench import BENCH_HASH_MB, BENCH_POSITIONS  # noqa: E402
from search.evaluate import build_eval  # noqa: E402
from search.ordering import pick_next, score_moves  # noqa: E402
from search.see import see  # noqa: E402
from search.state import new_state  # noqa: E402
from search.tt import tt_probe  # noqa: E402

FAMILIES = {0: "chess-like", 1: "batteries", 2: "enders"}
SAMPLES = 40  # positions per family for the kernel timings
REPS = 200  # calls per position and kernel


# ------------------------------------------------------------------ timed loops
@njit(nogil=True)
def _time_legal(G, board, st, undo, moves, reps):
    """The legality test of a move about to be tried (most of them are legal)."""
    check = in_check(G, board, st)
    k = 0
    for _ in range(reps):
        for m in moves:
            k += is_legal(G, board, st, undo, m, check)
    return k


@njit(nogil=True)
def _time_pseudo(G, board, st, undo, buf, reps):
    n = 0
    for _ in range(reps):
        n += gen_pseudo(G, board, st, buf, 0)
    return n


@njit(nogil=True)
def _time_noisy(G, board, st, undo, buf, reps):
    n = 0
    fam = G[L.GI_FAMILY]
    for _ in range(reps):
        n += gen_noisy(G, board, st, buf, 0, fam)
    return n


@njit(nogil=True)
def _time_order(G, board, st, buf, n, ss, ev, reps):
    for _ in range(reps):
        score_moves(G, board, st, buf, 0, n, ss, ev, 0, 0, False)  # SEE: a row of its own
    return n


@njit(nogil=True)
def _time_see(G, board, st, ev, ss, moves, reps):
    """The static exchange evaluation of each capture (a quiet move returns at once)."""
    s = 0
    for _ in range(reps):
        for m in moves:
            s += see(G, board, st, ev, ss, m)
    return s


@njit(nogil=True)
def _time_check(G, board, st, undo, moves, reps):
    """The check test after each move (the search asks it of every move it makes)."""
    k = 0
    for _ in range(reps):
        for m in moves:
            make(G, board, st, undo, m)
            if in_check(G, board, st):
                k += 1
            unmake(G, board, st, undo)
    return k


@njit(nogil=True)
def _time_pick(buf, ss, n, reps):
    """One selection of the best-scored move from a scored list (once per move tried)."""
    s = 0
    for _ in range(reps):
        s += pick_next(buf, ss, 0, 0, n)
    return s


@njit(nogil=True)
def _time_tt(tt, keys, reps):
    """Probes that wait for each other (the next key depends on the last answer), as in
    the search, so the memory latency of a miss is not hidden by overlapping probes."""
    hits = 0
    i = 0
    mask = len(keys) - 1
    for _ in range(reps * len(keys)):
        e = tt_probe(tt, keys[i])
        hits += e >= 0
        i = (i + 1 + (e & 1)) & mask
    return hits


def _ns(fn, *args, calls: int) -> float:
    fn(*args)  # compile / warm
    start = time.perf_counter()
    fn(*args)
    return (time.perf_counter() - start) / calls * 1e9


# ------------------------------------------------------------------ the two measurements
def _searches(depth_cut: int):
    """Per family: summed work counts, nodes and seconds of the bench searches."""
    searcher = Searcher(hash_mb=BENCH_HASH_MB)
    totals = {}
    for game, fen, depth in BENCH_POSITIONS:
        pos = Position(game, fen)
        searcher.new_game()
        start = time.perf_counter()
        searcher.search(pos, Limits(depth=max(1, depth - depth_cut)))
        seconds = time.perf_counter() - start
        fam = FAMILIES[pos.game.family]
        t = totals.setdefault(fam, {"nodes": 0, "seconds": 0.0})
        t["nodes"] += searcher.nodes
        t["seconds"] += seconds
        for k, v in searcher.work_counts().items():
            t[k] = t.get(k, 0) + v
    return totals, searcher._tt


def _samples(family: str, rng: random.Random) -> list[Position]:
    """Positions a search meets: random continuations of the family's bench positions."""
    starts = [Position(g, f) for g, f, _ in BENCH_POSITIONS if FAMILIES[Position(g).game.family] == family]
    out = []
    while len(out) < SAMPLES:
        pos = starts[len(out) % len(starts)].copy().play_random(rng, rng.randrange(0, 12))
        if len(pos.legal_move_codes()) and pos.outcome() is None:
            out.append(pos)
    return out


def _costs(family: str, tt: np.ndarray, rng: random.Random) -> dict[str, float]:
    """Nanoseconds per call of each kernel, averaged over the family's sample positions."""
    sums = dict.fromkeys(("legal", "pseudo", "noisy", "make", "check", "eval", "order", "pick", "tt", "see"), 0.0)
    buf = np.zeros(L.MAX_MOVES * 4, np.int64)
    ss = new_state()
    # far more keys than the caches hold: a probe in the search mostly misses them too
    keys = np.array([rng.randrange(1, 2**62) for _ in range(1 << 16)], np.int64)
    positions = _samples(family, rng)
    for pos in positions:
        G, board, st, undo = pos.tables.G, pos.board, pos.st, pos.undo
        ev = build_eval(pos.game)
        moves = pos.legal_move_codes()
        n = len(moves)
        # the make and unmake alone, then with the evaluation between them
        make_ns = _ns(evaluate_children, G, board, st, undo, ev, ss, moves, REPS, False, 0,
                      calls=REPS * n)
        sums["make"] += make_ns
        sums["check"] += _ns(_time_check, G, board, st, undo, moves, REPS, calls=REPS * n) - make_ns
        sums["legal"] += _ns(_time_legal, G, board, st, undo, moves, REPS, calls=REPS * n)
        sums["pseudo"] += _ns(_time_pseudo, G, board, st, undo, buf, REPS, calls=REPS)
        sums["noisy"] += _ns(_time_noisy, G, board, st, undo, buf, REPS, calls=REPS)
        sums["eval"] += _ns(evaluate_children, G, board, st, undo, ev, ss, moves, REPS, True, 0,
                            calls=REPS * n) - make_ns
        captures = np.array([m for m in moves if victim(pos.board, m) != 0] or [0], np.int64)
        sums["see"] += _ns(_time_see, G, board, st, ev, ss, captures, REPS, calls=REPS * len(captures))
        buf[:n] = moves
        sums["order"] += _ns(_time_order, G, board, st, buf, n, ss, ev, REPS, calls=REPS * n)
        sums["pick"] += _ns(_time_pick, buf, ss, n, REPS, calls=REPS)
        sums["tt"] += _ns(_time_tt, tt, keys, 4, calls=4 * len(keys))
    return {k: v / len(positions) for k, v in sums.items()}


def _table(family: str, work: dict, cost: dict) -> None:
    nodes = work["nodes"]
    ns_node = work["seconds"] / nodes * 1e9
    per = {k: work[k] / nodes
           for k in ("main", "qs", "eval", "gen", "noisy", "order", "moves", "make", "tt", "legal", "see")}
    rows = [
        ("move generation, pseudo-legal", per["gen"], cost["pseudo"]),
        ("  legality test per move tried", per["legal"], cost["legal"]),
        ("move generation, noisy lists", per["noisy"], cost["noisy"]),
        ("make + unmake", per["make"], cost["make"]),
        ("check test after a move", per["make"] if family != "enders" else 0.0, cost["check"]),
        ("picking the next move to try", per["make"], cost["pick"]),
        ("evaluation", per["eval"], cost["eval"]),
        ("ordering: scoring (per move)", per["moves"], cost["order"]),
        ("transposition table probe", per["tt"], cost["tt"]),
        ("static exchange evaluation", per["see"], cost["see"]),
    ]
    print(f"\n{family}: {nodes:,} nodes ({per['main']:.0%} main search, {per['qs']:.0%} quiescence), "
          f"{ns_node:.0f} ns per node ({1e6 / ns_node:.0f} k nodes/s)")
    print(f"  {'work':32s} {'per node':>9s} {'ns each':>8s} {'ns/node':>8s} {'share':>6s}")
    accounted = 0.0
    for name, count, each in rows:
        t = count * max(each, 0.0)
        accounted += t
        print(f"  {name:32s} {count:9.2f} {each:8.0f} {t:8.0f} {t / ns_node:6.0%}")
    other = ns_node - accounted
    print(f"  {'other (search bookkeeping)':32s} {'':9s} {'':8s} {other:8.0f} {other / ns_node:6.0%}")
    if work["cut"]:
        print(f"  main-search nodes failing high: {work['cut'] / work['main']:.0%}, "
              f"{work['cut1'] / work['cut']:.1%} of them on the first move tried")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="bench depths less two")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    Searcher(hash_mb=1).search(Position("capablanca"), Limits(depth=2))  # compile first
    print(f"counting build ready in {time.perf_counter() - start:.1f} s "
          f"(cache {os.environ['NUMBA_CACHE_DIR']})")
    work, tt = _searches(2 if args.quick else 0)
    rng = random.Random(1)
    for family in FAMILIES.values():
        _table(family, work[family], _costs(family, tt, rng))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
