"""Multi-threaded search speed: time to depth on the bench positions (search/bench.py)
with ``Threads N`` against ``Threads 1``.

    python benchmarks/smp.py                      # 2 threads against 1, bench depth + 1
    python benchmarks/smp.py --threads 4 --extra 1 --repeat 3 --game capablanca

Each search starts from a fresh table and history and runs until the main thread has
finished the given depth; its wall-clock time is the figure. Lazy SMP is not
deterministic, so every position is searched ``--repeat`` times per thread count,
1 and N alternating (load that comes and goes then hits both alike), and the median
is taken. The issue's target is 1.4x with 2 threads.

Helper threads need idle cores, and a wall-clock figure taken while other processes
use them understates the speedup (the main thread then gets less CPU with helpers
beside it). So a search that had less than 90% of its cores (the process's CPU time
against threads x wall time) is done again, up to ``--tries`` times; how many samples
were undisturbed, and the load average, are printed. The second figure does not
depend on the load at all: how many fewer nodes the main thread itself needs to reach
the depth with helpers filling the table, which is what the wall-clock speedup would be
if every thread had a core of its own and ran as fast as one alone (it ignores their
sharing of caches and memory).
"""
import argparse
import math
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from movegen import Position
from search import Limits, Searcher
from search.bench import BENCH_HASH_MB, BENCH_POSITIONS, warm_up

TARGET = 1.4
UNDISTURBED = 0.9  # share of its cores a search must have had to count as undisturbed


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def time_to_depth(searcher: Searcher, pos: Position, depth: int) -> tuple[float, int, float]:
    """Seconds, the main thread's nodes, and the share of its cores the search had (CPU
    seconds of the process over threads x seconds), to finish ``depth`` from a fresh
    table."""
    searcher.new_game()
    start, cpu = time.perf_counter(), time.process_time()
    searcher.search(pos, Limits(depth=depth))
    seconds = time.perf_counter() - start
    return seconds, searcher.thread_nodes[0], (time.process_time() - cpu) / (searcher.threads * seconds)


def undisturbed(searcher: Searcher, pos: Position, depth: int, tries: int):
    """``time_to_depth`` until a search had at least UNDISTURBED of its cores (other
    processes kept off them), at most ``tries`` times; else the least disturbed one.
    Returns the sample and whether it is undisturbed."""
    samples = []
    for _ in range(tries):
        samples.append(time_to_depth(searcher, pos, depth))
        if samples[-1][2] >= UNDISTURBED:
            return samples[-1], True
    return max(samples, key=lambda s: s[2]), False


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2, help="threads to compare with 1")
    parser.add_argument("--extra", type=int, default=1, help="plies beyond each bench depth")
    parser.add_argument("--repeat", type=int, default=3, help="searches per position and thread count")
    parser.add_argument("--tries", type=int, default=5,
                        help="searches per sample, to find one that had its cores to itself")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    args = parser.parse_args(argv)
    if args.threads < 2 or args.repeat < 1 or args.tries < 1:
        parser.error("--threads must be 2 or more, --repeat and --tries 1 or more")
    positions = [p for p in BENCH_POSITIONS if not args.game or p[0] in args.game]
    if not positions:
        parser.error(f"no bench position of {args.game}")
    print(f"kernels compiled or loaded in {warm_up(positions):.1f} s (not counted below)")
    print(f"{os.cpu_count()} cores, {load()}", flush=True)
    one = Searcher(hash_mb=BENCH_HASH_MB, threads=1)
    many = Searcher(hash_mb=BENCH_HASH_MB, threads=args.threads)
    n = args.threads
    print(f"{'#':>2s} {'game':13s} {'depth':>5s} {'1 thread s':>10s} {f'{n} threads s':>11s} "
          f"{'speedup':>8s} {'main nodes 1':>12s} {f'main nodes {n}':>12s} {'ratio':>6s} {'cores had':>9s}")
    seconds, nodes, ratios = [0.0, 0.0], [0, 0], []
    shares: tuple[list, list] = ([], [])
    clean = total = 0
    for i, (game, fen, bench_depth) in enumerate(positions, start=1):
        depth = bench_depth + args.extra
        pos = Position(game, fen)
        runs: tuple[list, list] = ([], [])
        for _ in range(args.repeat):
            for j, searcher in enumerate((one, many)):
                sample, ok = undisturbed(searcher, pos, depth, args.tries)
                runs[j].append(sample)
                shares[j].append(sample[2])
                clean += ok
                total += 1
        t1, tn = (statistics.median(t for t, _, _ in r) for r in runs)
        n1, nn = (int(statistics.median(k for _, k, _ in r)) for r in runs)
        had = min(share for _, _, share in runs[0] + runs[1])
        seconds[0] += t1
        seconds[1] += tn
        nodes[0] += n1
        nodes[1] += nn
        ratios.append(t1 / tn)
        print(f"{i:2d} {game:13s} {depth:5d} {t1:10.3f} {tn:11.3f} {t1 / tn:7.2f}x "
              f"{n1:12d} {nn:12d} {n1 / nn:5.2f}x {had:8.0%}", flush=True)
    speedup = seconds[0] / seconds[1]
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"wall clock: {seconds[0]:.2f} s with 1 thread, {seconds[1]:.2f} s with {n}: "
          f"{speedup:.2f}x faster to depth (geometric mean per position {geo:.2f}x)")
    print(f"main thread's nodes to depth: {nodes[0]} with 1 thread, {nodes[1]} with {n}: "
          f"{nodes[0] / nodes[1]:.2f}x fewer")
    print(f"{clean} of {total} samples had at least {UNDISTURBED:.0%} of their cores; the searches "
          f"had on average {statistics.mean(shares[0]):.0%} of their core with 1 thread, "
          f"{statistics.mean(shares[1]):.0%} of their {n} cores with {n}")
    print(f"{load()} at the end")
    if n == 2:
        print(f"target {TARGET}x with 2 threads, wall clock: {'met' if speedup >= TARGET else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
