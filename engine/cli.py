"""``leyden`` / ``python -m engine``: the command line.

    leyden                      engine mode: XBoard/CECP, or UCI if the first line is "uci"
    leyden perft GAME DEPTH [--fen FEN] [--divide]
    leyden bench [--depth N]    search a fixed set of positions; prints nodes and speed
    leyden warmup               load (compile on first use) every numba kernel
    leyden serve [--port 8000] [--host 127.0.0.1] [--open]   play in a browser (serve/)
    leyden engine-file [--install [DIR]]   print or install XBoard's engine file (leyden.eng)
"""
import argparse
import sys
import time


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one ``error: ...`` line and exit 2."""

    def error(self, message):
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _perft(args) -> int:
    from movegen import Position
    try:
        pos = Position(args.game, args.fen)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.depth < 0:
        print("error: depth must be 0 or more", file=sys.stderr)
        return 2
    start = time.perf_counter()
    if args.divide and args.depth >= 1:
        total = 0
        for move, count in pos.divide(args.depth):
            print(f"{move}: {count}", flush=True)
            total += count
    else:
        total = pos.perft(args.depth)
    seconds = time.perf_counter() - start
    print(f"Nodes: {total}")
    nps = total / seconds if seconds > 0 else 0.0
    print(f"Time: {seconds:.3f} s, {nps / 1e6:.2f} M nodes/s", file=sys.stderr)
    return 0


def _bench(args) -> int:
    from .searching import run_bench
    if args.depth is not None and args.depth < 1:
        print("error: depth must be 1 or more", file=sys.stderr)
        return 2
    run_bench(depth=args.depth, out=lambda *a: print(*a, flush=True))
    return 0


def _warmup(args) -> int:
    start = time.perf_counter()
    from .searching import warmup
    warmup()
    print(f"warmup done in {time.perf_counter() - start:.1f} s")
    return 0


def _serve(args) -> int:
    if not 0 <= args.port <= 65535:
        print("error: port must be 0 to 65535", file=sys.stderr)
        return 2
    from serve.app import run
    return run(args.host, args.port, args.open, log=lambda text: print(text, flush=True))


XBOARD_PLUGINS = "/usr/share/games/plugins/xboard"


def _leyden_command() -> str:
    """How this very installation is started, for an engine file that works off PATH too."""
    import shutil
    from pathlib import Path
    script = Path(sys.argv[0])
    if script.name == "leyden" and script.is_file():
        return str(script.resolve())
    return shutil.which("leyden") or f"{sys.executable} -m engine"


def _engine_file(args) -> int:
    """Print the XBoard engine file shipped with the package, or install it in a folder."""
    from importlib.resources import files
    text = files("engine").joinpath("data", "leyden.eng").read_text(encoding="utf-8")
    if args.install is None:
        print(text, end="")
        return 0
    # the second line is the command XBoard runs: make it this installation's own
    lines = text.splitlines()
    lines[1] = _leyden_command()
    from pathlib import Path
    target = Path(args.install) / "leyden.eng"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    except OSError as exc:
        print(f"error: cannot install the engine file: {exc}", file=sys.stderr)
        return 1
    print(f"installed {target} (engine command: {lines[1]})")
    return 0


def _file_logger(path: str):
    """A thread-safe ``log(text)`` that appends time-stamped lines to ``path``."""
    import threading
    handle = open(path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 - lives as long as the process
    lock = threading.Lock()

    def log(text: str) -> None:
        with lock:
            try:
                handle.write(f"{time.time():.3f} {text}\n")
            except (OSError, ValueError):
                pass
    return log


def _quiet_thread_errors(log) -> None:
    """A failure in a helper thread (timer, search) becomes one stderr line; the
    traceback goes to the log. A GUI shows the engine's stderr to its user."""
    import threading
    import traceback

    def hook(info):
        print(f"error in thread {info.thread.name if info.thread else '?'}: "
              f"{info.exc_type.__name__}: {info.exc_value}", file=sys.stderr, flush=True)
        if log:
            for line in traceback.format_exception(info.exc_type, info.exc_value, info.exc_traceback):
                log("! " + line.rstrip())
    threading.excepthook = hook


def _engine(args) -> int:
    """Engine mode: speak UCI if the first command is "uci", XBoard/CECP otherwise."""
    import threading

    from .lines import LineReader, Output

    log = None
    if args.log:
        try:
            log = _file_logger(args.log)
        except OSError as exc:
            print(f"error: cannot open log file: {exc}", file=sys.stderr)
            return 2
    out = Output(log=log)
    _quiet_thread_errors(log)
    failure = []

    def load():
        try:
            from .searching import warmup
            warmup()
        except Exception as exc:  # noqa: BLE001 - reported, the loop still runs
            failure.append(exc)

    loader = threading.Thread(target=load, name="warmup", daemon=True)
    loader.start()
    reader = LineReader()
    first = None
    while first is None:
        line = reader.readline()
        if line is None:
            return 0
        if line.strip():
            first = line.strip()
    if first.split()[0] == "uci":
        from . import uci
        uci.run(reader, out, first, loader=loader, log=log)
        return 0
    pending = [first]
    if first.split()[0] == "xboard":
        line = reader.readline()
        if line is not None and line.strip():
            pending.append(line.strip())
    answered = any(p.split()[0] == "protover" for p in pending)
    if answered:
        # before importing the protocol module: it loads numba (about a second, several
        # on a busy machine), and XBoard (or a match runner) that hears nothing from a
        # protocol-2 engine within 2 s assumes protocol 1 (no setboard: shuffles break)
        out.send("feature done=0")
    from . import xboard
    xboard.run(reader, out, pending, answered, loader=loader, log=log)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="leyden", description="Leyden chess-variant engine")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    p = sub.add_parser("perft", help="count legal move sequences to a depth")
    p.add_argument("game")
    p.add_argument("depth", type=int)
    p.add_argument("--fen", default=None, help="start from this position (default: the game's setup)")
    p.add_argument("--divide", action="store_true", help="one 'MOVE: COUNT' line per root move")
    p.set_defaults(func=_perft)
    b = sub.add_parser("bench", help="search a fixed set of positions (node count is a signature)")
    b.add_argument("--depth", type=int, default=None)
    b.set_defaults(func=_bench)
    w = sub.add_parser("warmup", help="load or compile every numba kernel (make build runs it)")
    w.set_defaults(func=_warmup)
    s = sub.add_parser("serve", help="play every game against Leyden in a web browser")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default: this machine only)")
    s.add_argument("--open", action="store_true", help="open the page in the default browser")
    s.set_defaults(func=_serve)
    e = sub.add_parser("engine-file", help="print XBoard's engine file for Leyden, or install it")
    e.add_argument("--install", nargs="?", const=XBOARD_PLUGINS, default=None, metavar="DIR",
                   help=f"write DIR/leyden.eng naming this installation's command (default DIR: {XBOARD_PLUGINS})")
    e.set_defaults(func=_engine_file)
    from match import runner  # registers `leyden match` (the module loads in milliseconds)
    runner.add_subcommand(sub)
    parser.add_argument("--log", default=None, help="engine mode: append the protocol dialogue to this file")
    parser.set_defaults(func=_engine)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return args.func(args)
