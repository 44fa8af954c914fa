"""Where a search's time goes, by compiled function: Linux ``perf`` sampling of a real
search, with numba's functions named.

    python benchmarks/perf_functions.py                      # capablanca bench middlegame, 6 s
    python benchmarks/perf_functions.py --game normal --fen "..." --seconds 10

benchmarks/profile.py counts work and times kernels alone; what it cannot see (calls,
cache misses, the search's own code) it calls "other". Sampling sees everything, but
``perf`` cannot name code that numba compiled at run time. So this script compiles the
kernels afresh (a throw-away numba cache: a kernel loaded from the cache carries no
names), asks numba where each compiled function starts, and writes them where ``perf``
looks for the names of generated code (``/tmp/perf-PID.map``), then searches. It runs
itself under ``perf record`` and prints each function's share of the samples taken in
compiled code (the search, not Python or the compiler), functions inlined into others
counted in those. Needs ``perf`` (Debian: linux-perf) and about a minute to compile.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MIDDLEGAME = "r2bqkb2r/ppp1pppppp/2n2c1n2/10/3pP5/3N2CNP1/PPPP1PPP1P/R2BQKB2R w KQkq - 0 10"


def python_name(symbol: str) -> str:
    """``search.alphabeta.negamax`` from numba's mangled ``_ZN6search9alphabeta7negamaxB4v1...``
    (length-prefixed parts up to the first that is not)."""
    at = symbol.find("_ZN")
    text, parts = symbol[at + 3:], []
    while at >= 0 and text[:1].isdigit():
        digits = re.match(r"\d+", text).group()
        n = int(digits)
        parts.append(text[len(digits):len(digits) + n])
        text = text[len(digits) + n:]
    return ".".join(parts) or symbol


def write_perf_map() -> int:
    """``/tmp/perf-PID.map`` for every function compiled so far; returns their number."""
    from numba.core.registry import CPUDispatcher
    starts = {}
    for module in list(sys.modules.values()):
        for obj in list(getattr(module, "__dict__", {}).values()):
            if not isinstance(obj, CPUDispatcher):
                continue
            for cres in obj.overloads.values():
                library = cres.library
                for fn in library._final_module.functions:
                    if not fn.is_declaration:
                        address = library.get_pointer_to_function(fn.name)
                        if address:
                            starts[address] = fn.name
    ordered = sorted(starts.items())
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for i, (address, name) in enumerate(ordered):
            size = ordered[i + 1][0] - address if i + 1 < len(ordered) else 1 << 12
            f.write(f"{address:x} {min(size, 1 << 20):x} {name}\n")
    return len(ordered)


def search(game: str, fen: str, seconds: float) -> None:
    """The child under ``perf record``: compile, name, search."""
    sys.path.insert(0, str(ROOT))
    from movegen import Position
    from search.searcher import Limits, Searcher
    pos = Position(game, fen)
    searcher = Searcher(hash_mb=64)
    searcher.search(pos, Limits(depth=3))  # compiles every kernel the search calls
    print(f"{write_perf_map()} compiled functions named", file=sys.stderr)
    pid_file = os.environ.get("LEYDEN_PERF_PID_FILE")
    if pid_file:  # the parent removes the map once perf has read it
        Path(pid_file).write_text(str(os.getpid()))
    searcher.new_game()
    searcher.search(pos, Limits(movetime=seconds))
    print(f"searched {searcher.nodes} nodes in {seconds:g} s", file=sys.stderr)


def shares(report: str) -> Counter:
    """Per Python function, the percentage of samples in compiled code."""
    total = Counter()
    for line in report.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\S+\s+(_ZN\S+)", line)
        if m:
            total[python_name(m.group(2))] += float(m.group(1))
    whole = sum(total.values()) or 1.0
    return Counter({name: 100 * pct / whole for name, pct in total.items()})


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="capablanca")
    ap.add_argument("--fen", default=None, help="default: the capablanca bench middlegame, else the start")
    ap.add_argument("--seconds", type=float, default=6.0)
    ap.add_argument("--top", type=int, default=25, help="functions printed (default 25)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    fen = args.fen or (MIDDLEGAME if args.game == "capablanca" else None)
    if args.child:
        search(args.game, fen, args.seconds)
        return 0
    if shutil.which("perf") is None:
        print("error: perf is not installed (apt-get install linux-perf)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        pid_file = os.path.join(tmp, "child.pid")
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "numba"), LEYDEN_PERF_PID_FILE=pid_file)
        child = [sys.executable, __file__, "--child", "--game", args.game, "--seconds", str(args.seconds)]
        if fen:
            child += ["--fen", fen]
        subprocess.run(["perf", "record", "-q", "-F", "1000", "-o", data, "--"] + child, env=env, check=True)
        report = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "sym", "--stdio"],
                                capture_output=True, text=True, check=True).stdout
        if os.path.exists(pid_file):
            Path(f"/tmp/perf-{Path(pid_file).read_text()}.map").unlink(missing_ok=True)
    print(f"{args.game}, {args.seconds:g} s of search: share of the samples in compiled code")
    for name, pct in shares(report).most_common(args.top):
        print(f"{pct:6.1f}%  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
