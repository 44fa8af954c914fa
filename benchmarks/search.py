"""Search speed per game on the bench positions (search/bench.py): a table of nodes,
seconds and k nodes/s, single-threaded. Kernels are compiled (first run after an
install) or loaded, and tables built, before any clock starts; that time is printed
first and counted nowhere else.

    python benchmarks/search.py               # the bench depths
    python benchmarks/search.py --depth 6     # every position at depth 6
    python benchmarks/search.py --deeper 2    # each position 2 plies past its bench depth
    python benchmarks/search.py --cpu         # CPU seconds, not the wall clock
    python benchmarks/search.py --repeat 3    # best of three runs per position
    python benchmarks/search.py --peer-depth 0     # without the Fairy-Max line

Then, when Fairy-Max is installed, its own search speed on the same `capablanca` bench
positions (its thinking output gives nodes and time; a fixed depth per position,
``--peer-depth``, so the last line covers the whole search) beside Leyden's, the comparison the search-speed issue asks for.
The machine is shared: run it on a quiet machine, or take the best of a few repeats.
"""
import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.depth import think
from match.peers import engine_tokens, find_binary
from match.tc import TimeControl
from movegen import GAMES, Position
from search import Limits, Searcher
from search.bench import BENCH_HASH_MB, BENCH_POSITIONS, warm_up

PEER_GAME = "capablanca"


def peer_speed(depth: int) -> tuple[int, float]:
    """Fairy-Max's nodes and seconds over the ``PEER_GAME`` bench positions searched to
    ``depth``, as its thinking output reports them."""
    nodes, spent = 0, 0.0
    for game, fen, _ in BENCH_POSITIONS:
        if game != PEER_GAME:
            continue
        reply = think(engine_tokens("fairymax", game), game, fen, TimeControl(depth=depth))
        if reply.nodes is None or not reply.seconds:
            raise RuntimeError("Fairy-Max printed no thinking line with nodes and time")
        nodes += reply.nodes
        spent += reply.seconds
    return nodes, spent


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=None)
    parser.add_argument("--deeper", type=int, default=0,
                        help="search each position this many plies past its bench depth (longer "
                             "searches, whose speed the short bench searches' start-up blurs)")
    parser.add_argument("--repeat", type=int, default=1, help="best of N runs per position")
    parser.add_argument("--cpu", action="store_true",
                        help="time the CPU seconds this process spends instead of the wall clock "
                             "(steadier where other work shares the machine)")
    parser.add_argument("--peer-depth", type=int, default=8,
                        help="Fairy-Max's depth on the capablanca positions (0: skip it)")
    args = parser.parse_args(argv)
    print(f"kernels compiled or loaded in {warm_up():.1f} s (not counted below)", flush=True)
    searcher = Searcher(hash_mb=BENCH_HASH_MB, threads=1)
    clock = time.process_time if args.cpu else time.perf_counter
    per_game = {g: [0, 0.0] for g in GAMES}
    for game, fen, depth in BENCH_POSITIONS:
        best_time = None
        for _ in range(max(1, args.repeat)):
            searcher.new_game()
            t0 = clock()
            searcher.search(Position(game, fen), Limits(depth=(args.depth or depth) + args.deeper))
            dt = clock() - t0
            best_time = dt if best_time is None else min(best_time, dt)
        per_game[game][0] += searcher.nodes
        per_game[game][1] += best_time
    row = "{:13s} {:>10} {:>8} {:>10}"
    print(row.format("game", "nodes", "seconds", "k nodes/s"))
    total_nodes, total_time = 0, 0.0
    for game, (nodes, seconds) in per_game.items():
        print(row.format(game, nodes, f"{seconds:.3f}", f"{nodes / seconds / 1000:.0f}"))
        total_nodes += nodes
        total_time += seconds
    print(row.format("all", total_nodes, f"{total_time:.3f}", f"{total_nodes / total_time / 1000:.0f}"))
    if args.peer_depth > 0:
        if find_binary("fairymax") is None:
            print("Fairy-Max is not installed (apt-get install fairymax): no peer comparison")
            return 0
        nodes, seconds = peer_speed(args.peer_depth)
        mine = per_game[PEER_GAME][0] / per_game[PEER_GAME][1]
        print(row.format(f"Fairy-Max {PEER_GAME}", nodes, f"{seconds:.3f}", f"{nodes / seconds / 1000:.0f}")
              + f"  (depth {args.peer_depth}; Leyden/Fairy-Max {mine / (nodes / seconds):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
