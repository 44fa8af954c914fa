"""Where the search's time goes, by compiled function: the bench searches sampled by
Linux ``perf``, numba's machine code named through a perf map.

    python benchmarks/samples.py                 # the capablanca bench positions
    python benchmarks/samples.py batteries enders --depth-plus 1

benchmarks/profile.py counts work per node and times each kernel alone; what a kernel
costs inside the search (its cache misses, its calls) is left in its "other" row. This
script measures the search itself instead: ``perf record`` samples a process that
searches the bench positions of the given games, and the process writes
``/tmp/perf-<pid>.map``, the file in which perf looks up the names of code that no
shared library holds (each numba function's address and size, read from the object
code numba compiled). Numba keeps that object code only for what it compiles in the
process, so the kernels are compiled afresh into a temporary cache (a few minutes);
the samples of compiling are not numba's machine code and are left out of the table.

Needs ``perf`` (``apt-get install linux-perf``, or the ``perf`` of the running kernel)
and ``readelf`` (binutils). Prints each function's share of the samples in numba code,
the share of one inlined into another counted in its caller.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the project's search package, not benchmarks/search.py


def _numba_libraries():
    """The code libraries of every numba function compiled in this process."""
    import gc

    from numba.core.dispatcher import Dispatcher
    return {ov.library for obj in gc.get_objects() if isinstance(obj, Dispatcher)
            for ov in obj.overloads.values()}


def write_perf_map() -> int:
    """Write /tmp/perf-<pid>.map for the numba code of this process; the entry count."""
    entries = {}
    for lib in _numba_libraries():
        try:
            obj = lib._get_compiled_object()  # only code compiled here, not loaded from a cache
        except RuntimeError:
            continue
        with tempfile.NamedTemporaryFile(suffix=".o") as fh:
            fh.write(obj)
            fh.flush()
            table = subprocess.run(["readelf", "-sW", fh.name], capture_output=True, text=True).stdout
        engine = lib._codegen._engine
        for line in table.splitlines():
            f = line.split()
            if len(f) >= 8 and f[3] == "FUNC" and f[6] != "UND":
                address = engine.get_function_address(f[7])
                if address:
                    entries[address] = (int(f[2], 0), f[7])
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for address in sorted(entries):
            size, name = entries[address]
            out.write(f"{address:x} {max(size, 1):x} {name}\n")
    return len(entries)


def search_child(games: list[str], depth_plus: int) -> None:
    """The sampled process: search the games' bench positions, then write the map."""
    from movegen import Position
    from search import Limits, Searcher
    from search.bench import BENCH_HASH_MB, BENCH_POSITIONS, warm_up
    positions = [p for p in BENCH_POSITIONS if p[0] in games]
    warm_up(positions)
    searcher = Searcher(hash_mb=BENCH_HASH_MB, threads=1)
    for game, fen, depth in positions:
        searcher.new_game()
        searcher.search(Position(game, fen), Limits(depth=depth + depth_plus))
    print(f"perf map: {write_perf_map()} numba functions", file=sys.stderr)


def _short(symbol: str) -> str:
    """``search.evaluate.eval_chess`` from numba's mangled name (length-prefixed parts)."""
    if not symbol.startswith("_ZN"):
        return symbol
    parts, i = [], 3
    while i < len(symbol) and symbol[i].isdigit():
        j = i
        while symbol[j].isdigit():
            j += 1
        n = int(symbol[i:j])
        parts.append(symbol[j:j + n])
        i = j + n
    return ".".join(parts[:3]) if parts else symbol


def report(data: Path) -> tuple[int, list[tuple[str, float]]]:
    """The number of samples in numba code, and (function, its share of them), largest
    first."""
    out = subprocess.run(["perf", "report", "-i", str(data), "--no-children", "-n", "--sort",
                          "dso,sym", "--stdio"], capture_output=True, text=True).stdout
    counts: dict[str, int] = {}
    for line in out.splitlines():
        m = re.match(r"\s*[\d.]+%\s+(\d+)\s+\[JIT\] tid \d+\s+\[\.\]\s+(\S+)", line)
        if m:
            name = _short(m.group(2))
            counts[name] = counts.get(name, 0) + int(m.group(1))
    total = sum(counts.values())
    return total, sorted(((k, 100 * v / total) for k, v in counts.items()), key=lambda kv: -kv[1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", default=["capablanca"], help="games of the bench (default capablanca)")
    ap.add_argument("--depth-plus", type=int, default=1, help="plies past each bench depth (default 1)")
    ap.add_argument("--top", type=int, default=25, help="rows to print (default 25)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        search_child(args.games, args.depth_plus)
        return 0
    missing = [tool for tool in ("perf", "readelf") if shutil.which(tool) is None]
    if missing:
        print(f"error: {' and '.join(missing)} not found (perf: the linux-perf package; readelf: binutils)",
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="leyden-samples-") as tmp:
        data = Path(tmp) / "perf.data"
        env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / "cache"), PYTHONPATH=str(ROOT))
        print(f"compiling afresh and searching {', '.join(args.games)} (bench depth + {args.depth_plus}) "
              "under perf ...", flush=True)
        run = subprocess.run(["perf", "record", "-F", "999", "-o", str(data), sys.executable, __file__,
                              "--child", "--depth-plus", str(args.depth_plus), *args.games],
                             env=env, capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stderr, file=sys.stderr)
            return 1
        total, rows = report(data)
    print(f"{total} samples in numba code (1 ms each); too few for a table below a thousand or so: "
          "search deeper (--depth-plus)")
    print(f"{'function':48} share of the samples in numba code")
    for name, share in rows[:args.top]:
        print(f"{name:48} {share:5.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
